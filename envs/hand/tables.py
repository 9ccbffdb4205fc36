"""Per-suit lookup tables for hand analysis (generated, cached, checksum-verified).

Run ``python -m envs.hand.tables`` to (re)generate the tables into the cache directory
(``$TW16_CACHE`` or ``~/.cache/tw16/``). Importing this module loads them, generating them first if the
file is missing (about a second, numba code); a file of the wrong size or checksum is regenerated with
a warning (``load_tables(..., regenerate=False)`` raises :class:`TableError` instead).

Layout
------
A suit's nine counts ``c0..c8`` (each 0..4, ``c0`` = the 1 tile) are one base-5 *code*
``sum(c_i * 5**i)``, 0 .. 5**9-1; the seven honour counts (E S W N C F P) likewise, 0 .. 5**7-1.
Adding one tile of rank ``i`` adds ``5**i`` to the code.

``SUIT_DIST``   uint8[5**9, 12]  ``SUIT_DIST[code, 2*m + p]`` = the fewest tiles of that suit to add
                                  (no kind above 4) so that the suit's tiles contain ``m`` sets (chi or
                                  pon) and ``p`` pairs (``m`` in 0..5, ``p`` in 0..1) as a sub-multiset.
``SUIT_FLAGS``  uint8[5**9]      bit 0 (``EXACT``): the suit's tiles are exactly ``size // 3`` sets,
                                  plus one pair when ``size % 3 == 2`` (never when ``size % 3 == 1``).
                                  Defined for suit sizes up to 17 (larger ones: 0).
``HONOUR_DIST`` uint8[5**7, 12]  as ``SUIT_DIST`` for the honours (pons and pairs only, no chi).
``HONOUR_FLAGS`` uint8[5**7]     as ``SUIT_FLAGS``.

Compiled code reaches the tables without taking them as arguments through the accessors
:func:`suit_dist`, :func:`suit_flags`, :func:`honour_dist`, :func:`honour_flags` (``@njit``): each returns
a view of the module-level array. The arrays' addresses are registered as LLVM symbols when this
module is imported, so functions compiled with ``cache=True`` stay small (no frozen 23 MB constant)
and remain valid across processes. The module-level arrays are allocated once and never replaced.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
import warnings
from pathlib import Path
from typing import NamedTuple

import llvmlite.binding as _llvm
import numba
import numpy as np
from llvmlite import ir as _ir
from numba import types

from envs.jit import njit
from numba.extending import intrinsic

FORMAT_VERSION = 1
MAGIC = b"TW16HANDTABLES01"  # 16 bytes, then the four arrays in the order of TABLE_ARRAYS
SUIT_KINDS = 9
HONOUR_KINDS = 7
N_SUIT_CODES = 5**SUIT_KINDS  # 1_953_125
N_HONOUR_CODES = 5**HONOUR_KINDS  # 78_125
MAX_SETS = 5
N_COLS = 2 * (MAX_SETS + 1)  # column 2*m + p
EXACT = 1  # flag bit
DIST_IMPOSSIBLE = 255  # never reached for m <= 5, kept as the sentinel
POW5 = np.array([5**i for i in range(SUIT_KINDS)], dtype=np.int64)

FILE_NAME = f"hand_tables_v{FORMAT_VERSION}.bin"
FILE_SIZE = len(MAGIC) + (N_SUIT_CODES + N_HONOUR_CODES) * (N_COLS + 1)  # 26_406_266 bytes
FILE_SHA256 = "9c237bf5cdfb98d20f10a10435b3fa9c68506b07a324aaacf68cf3766b416375"


class TableError(RuntimeError):
    """The table file is missing, truncated or fails its checksum."""


class Tables(NamedTuple):
    suit_dist: np.ndarray
    suit_flags: np.ndarray
    honour_dist: np.ndarray
    honour_flags: np.ndarray


# --------------------------------------------------------------------------------------------------
# Generation (numba)


def generate() -> Tables:
    """Compute the four tables (fresh arrays)."""
    from envs.hand._gen import gen_group  # noqa: PLC0415 (a separate module so `-m` runs share its cache)

    sd, sf = gen_group(SUIT_KINDS, True)
    hd, hf = gen_group(HONOUR_KINDS, False)
    return Tables(sd, sf, hd, hf)


def _to_bytes(t: Tables) -> bytes:
    return MAGIC + b"".join(np.ascontiguousarray(a).tobytes() for a in t)


def _from_bytes(data: bytes) -> Tables:
    pos = len(MAGIC)
    out = []
    for n, cols in ((N_SUIT_CODES, N_COLS), (N_SUIT_CODES, 0), (N_HONOUR_CODES, N_COLS), (N_HONOUR_CODES, 0)):
        k = n * max(cols, 1)
        a = np.frombuffer(data, np.uint8, k, pos)
        out.append(a.reshape(n, cols) if cols else a)
        pos += k
    return Tables(*out)


# --------------------------------------------------------------------------------------------------
# Files


def cache_dir() -> Path:
    env = os.environ.get("TW16_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "tw16"


def table_path() -> Path:
    return cache_dir() / FILE_NAME


def write_tables(path: Path | str | None = None, tables: Tables | None = None) -> Path:
    """Generate (unless given) and write the table file atomically; returns its path."""
    path = Path(path) if path is not None else table_path()
    data = _to_bytes(tables if tables is not None else generate())
    digest = hashlib.sha256(data).hexdigest()
    if digest != FILE_SHA256:
        raise TableError(
            f"generated hand tables have sha256 {digest}, expected {FILE_SHA256}: "
            "the generator and FILE_SHA256 in envs/hand/tables.py disagree"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return path


def _check(data: bytes, path: Path) -> None:
    if len(data) != FILE_SIZE:
        raise TableError(f"hand table file {path} has {len(data)} bytes, expected {FILE_SIZE}")
    if not data.startswith(MAGIC):
        raise TableError(f"hand table file {path} does not start with {MAGIC!r}")
    digest = hashlib.sha256(data).hexdigest()
    if digest != FILE_SHA256:
        raise TableError(f"hand table file {path} fails its checksum: sha256 {digest}, expected {FILE_SHA256}")


def load_tables(path: Path | str | None = None, regenerate: bool = True) -> Tables:
    """Read and verify the table file (fresh read-only arrays).

    A missing file is generated when ``regenerate`` is true. A file of the wrong size or checksum raises
    :class:`TableError`, or, when ``regenerate`` is true, is regenerated with a warning.
    """
    path = Path(path) if path is not None else table_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        if not regenerate:
            raise TableError(f"hand table file {path} is missing (run `python -m envs.hand.tables`)") from None
        write_tables(path)
        data = path.read_bytes()
    try:
        _check(data, path)
    except TableError as e:
        if not regenerate:
            raise
        warnings.warn(f"{e}; regenerating it", RuntimeWarning, stacklevel=2)
        write_tables(path)
        data = path.read_bytes()
        _check(data, path)
    return _from_bytes(data)


# --------------------------------------------------------------------------------------------------
# Module-level arrays and compiled accessors

SUIT_DIST = np.empty((N_SUIT_CODES, N_COLS), np.uint8)
SUIT_FLAGS = np.empty(N_SUIT_CODES, np.uint8)
HONOUR_DIST = np.empty((N_HONOUR_CODES, N_COLS), np.uint8)
HONOUR_FLAGS = np.empty(N_HONOUR_CODES, np.uint8)
_ARRAYS = {
    f"tw16_hand_v{FORMAT_VERSION}_suit_dist": SUIT_DIST,
    f"tw16_hand_v{FORMAT_VERSION}_suit_flags": SUIT_FLAGS,
    f"tw16_hand_v{FORMAT_VERSION}_honour_dist": HONOUR_DIST,
    f"tw16_hand_v{FORMAT_VERSION}_honour_flags": HONOUR_FLAGS,
}


def _init() -> None:
    t = load_tables()
    for dst, src in zip((SUIT_DIST, SUIT_FLAGS, HONOUR_DIST, HONOUR_FLAGS), t):
        dst[...] = src
        dst.flags.writeable = False
    for name, arr in _ARRAYS.items():
        _llvm.add_symbol(name, arr.ctypes.data)


def _symbol_pointer(symbol: str):
    """An intrinsic returning ``uint8*`` = the address registered for ``symbol``."""

    @intrinsic
    def _ptr(typingctx):
        def codegen(context, builder, signature, args):
            mod = builder.module
            try:
                gv = mod.get_global(symbol)
            except KeyError:
                gv = _ir.GlobalVariable(mod, _ir.IntType(8), name=symbol)
                gv.linkage = "external"
            return gv

        return types.CPointer(types.uint8)(), codegen

    return _ptr


_suit_dist_ptr = _symbol_pointer(f"tw16_hand_v{FORMAT_VERSION}_suit_dist")
_suit_flags_ptr = _symbol_pointer(f"tw16_hand_v{FORMAT_VERSION}_suit_flags")
_honour_dist_ptr = _symbol_pointer(f"tw16_hand_v{FORMAT_VERSION}_honour_dist")
_honour_flags_ptr = _symbol_pointer(f"tw16_hand_v{FORMAT_VERSION}_honour_flags")


@njit(cache=True)
def suit_dist():
    """``SUIT_DIST`` as an array inside compiled code."""
    return numba.carray(_suit_dist_ptr(), (N_SUIT_CODES, N_COLS))


@njit(cache=True)
def suit_flags():
    return numba.carray(_suit_flags_ptr(), (N_SUIT_CODES,))


@njit(cache=True)
def honour_dist():
    return numba.carray(_honour_dist_ptr(), (N_HONOUR_CODES, N_COLS))


@njit(cache=True)
def honour_flags():
    return numba.carray(_honour_flags_ptr(), (N_HONOUR_CODES,))


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m envs.hand.tables", description=__doc__.split("\n")[0])
    ap.add_argument("--path", help=f"output file (default {table_path()})")
    ap.add_argument("--print-sha256", action="store_true", help="only generate and print the checksum")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    tables = generate()
    t1 = time.perf_counter()
    if args.print_sha256:
        print(hashlib.sha256(_to_bytes(tables)).hexdigest())
        return 0
    path = write_tables(args.path, tables)
    print(f"wrote {path} ({FILE_SIZE} bytes, sha256 {FILE_SHA256}) in {t1 - t0:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
else:
    _init()
