"""Tai profiles as data: load a TOML table, validate it, compile it to arrays for compiled code.

A profile file (see ``profiles/standard.toml``) lists ``[items.KEY]`` tables in table order, each
with ``tai``, ``zh``, optional ``replaces`` (keys it cancels) and ``reduced = {tai, when}``. A profile
may ``extends = "standard"``: it inherits the table, ``remove``s keys, overrides fields of inherited
items and appends new ones in the order it names them. ``[rules]`` gives rule-option defaults and
``[options]`` tells predicates how to read the profile. Unknown keys anywhere are errors.

Compiled form (``Profile.compiled()``), read by the scoring core (native/include/tw16/score.hpp):

    p_tai  int32[4, N_ITEMS]   row 0 tai (-1 = not in this profile), row 1 reduced tai (-1 = none),
                               row 2 rank in the table (tie rule of RULES.md 3), row 3 the item at
                               each rank (-1 after the last): the profile's items in table order
    p_repl int8[N_ITEMS, N_ITEMS]  p_repl[a, b] = 1: a replaces b; 2: a being present reduces b
    p_opts int64[N_POPTS]      PO_* below
"""

from __future__ import annotations

import functools
import os
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from envs.options import DEFAULTS
from envs.scoring.codes import (
    EXTRAS_KEYS,
    FAMILIES,
    HK_FAMILIES,
    HK_ONLY_KEYS,
    ITEM_INDEX,
    ITEM_KEYS,
    ITEM_ZH,
    MCR_KEYS,
    N_ITEMS,
)
from envs.tiles import shown

PROFILE_DIR = Path(__file__).parent / "profiles"
BASE_PROFILES = ("standard", "strict16", "casual", "hongkong", "olympiad")
# The platform tables (PLATFORMS.md 1), built in too: each extends standard.
PLATFORMS = ("wikibooks", "star31", "masters", "mj888", "zhonghua", "zhaishenye")
BUILTIN = BASE_PROFILES + PLATFORMS

PO_CONCEALED_ANY_WIN = 0
PO_SHAPES = 1  # bit mask of envs.hand.analysis SHAPE_* (winning shapes beyond five sets and a pair)
PO_EXTRAS = 2  # EX_* bits: which item groups beyond the base tables the profile names
PO_HONGKONG = 3  # 1: scored by hk_score, native/src/hongkong.cpp (HONGKONG.md: additive, families, count methods)
PO_COUNT_METHOD = 4  # hongkong 計法 1 or 2 (rule option count_method)
PO_DUAL_READING = 5  # hongkong 2.3 dual reading of n n n (n+1)x3 (n+2)x3 (rule option dual_reading)
N_POPTS = 6
EX_PATTERNS = 1  # an item of the extras pack other than eight_pairs (envs.scoring.extras)
EX_MCR = 2  # an MCR detector (EXTRAS.md 4)
# name -> SHAPE_* bit of envs.hand.analysis (`[options] shapes` in a profile)
SHAPES = {
    "eight_pairs": 1,  # 嚦咕嚦咕
    "thirteen_orphans_pure": 2,  # 清十三么: the set is a pon of an orphan
    "thirteen_orphans_mixed": 4,  # 混十三么: a chow or a pon of a 2-8
    "sixteen_unrelated": 8,  # 十六不搭
    "unrelated_gap2": 16,  # 十六不搭 with suit tiles 2 apart (rule option unrelated_gap = 2)
}
# A shape the extras pack adds stays only while one of these items is in the effective profile.
SHAPE_ITEMS = {
    "eight_pairs": ("eight_pairs",),
    "thirteen_orphans_pure": ("pure_thirteen_orphans",),
    "thirteen_orphans_mixed": ("mixed_thirteen_orphans",),
    "sixteen_unrelated": ("sixteen_unrelated", "unrelated_dragon", "sixteen_unrelated_pure", "unrelated_same"),
}
PACKS = ("extras",)
READY_ITEMS = ("heavenly_ready", "earthly_ready", "declared_ready", "shown_ready")

_TOP_KEYS = {"name", "title", "extends", "remove", "rules", "options", "items", "description"}
_ITEM_FIELDS = {"zh", "tai", "replaces", "reduced"}
_OPTION_KEYS = {"concealed_any_win": bool, "shapes": list, "hongkong": bool}


class ProfileError(ValueError):
    """A profile file that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class Item:
    key: str
    zh: str
    tai: int
    replaces: tuple[str, ...] = ()
    reduced_tai: int | None = None
    reduced_when: tuple[str, ...] = ()


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    items: tuple[Item, ...]
    rule_defaults: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    source: str = ""
    packs: tuple[str, ...] = ()  # packs appended to the table (effective_profile), e.g. ("extras",)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(i.key for i in self.items)

    def item(self, key: str) -> Item:
        for i in self.items:
            if i.key == key:
                return i
        raise KeyError(key)

    @property
    def has_ready_items(self) -> bool:
        return any(k in READY_ITEMS for k in self.keys)

    def zh(self, key: str) -> str:
        return self.item(key).zh if key in self.keys else ITEM_ZH.get(key, key)

    @functools.cached_property
    def _compiled(self):
        p_tai = np.full((4, N_ITEMS), -1, dtype=np.int32)
        p_repl = np.zeros((N_ITEMS, N_ITEMS), dtype=np.int8)
        for rank, it in enumerate(self.items):
            i = ITEM_INDEX[it.key]
            p_tai[0, i] = it.tai
            p_tai[2, i] = rank
            p_tai[3, rank] = i
            if it.reduced_tai is not None:
                p_tai[1, i] = it.reduced_tai
                for w in it.reduced_when:
                    p_repl[ITEM_INDEX[w], i] = 2
            for r in it.replaces:
                p_repl[i, ITEM_INDEX[r]] = 1
        # Members of one family replace each other only through the scorer's assignment (EXTRAS.md 1.4,
        # HONGKONG.md 2.2).
        hongkong = bool(self.options.get("hongkong", False))
        for fam in FAMILIES + (HK_FAMILIES if hongkong else ()):
            for a in fam:
                for b in fam:
                    p_repl[ITEM_INDEX[a], ITEM_INDEX[b]] = 0
        p_opts = np.zeros(N_POPTS, dtype=np.int64)
        p_opts[PO_CONCEALED_ANY_WIN] = bool(self.options.get("concealed_any_win", False))
        p_opts[PO_SHAPES] = sum(SHAPES[s] for s in set(self.options.get("shapes", ())))
        keys = set(self.keys)
        p_opts[PO_EXTRAS] = (EX_PATTERNS if keys & (set(EXTRAS_KEYS) - {"eight_pairs"}) else 0) | (
            EX_MCR if keys & set(MCR_KEYS) else 0
        )
        p_opts[PO_HONGKONG] = hongkong
        p_opts[PO_COUNT_METHOD] = self.options.get("count_method", 1)
        p_opts[PO_DUAL_READING] = bool(self.options.get("dual_reading", True))
        for a in (p_tai, p_repl, p_opts):
            a.setflags(write=False)
        return p_tai, p_repl, p_opts

    def compiled(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(p_tai, p_repl, p_opts)`` for compiled code (read-only arrays)."""
        return self._compiled


def _fail(src: str, msg: str):
    raise ProfileError(f"profile {src}: {msg}")


# A real profile is a few KB; a cap keeps a hostile path (/dev/zero, a huge file) from exhausting memory.
MAX_PROFILE_BYTES = 1 << 20
_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO or pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def shown_path(path) -> str:
    """A file path as messages quote it: whole up to 256 characters (a long tmp path is no burden),
    shortened beyond (``envs.tiles.shown``)."""
    return shown(str(path), 256)


def read_profile_bytes(path) -> bytes:
    """The bytes of a profile file: a regular file of at most ``MAX_PROFILE_BYTES``, or ``ProfileError``.

    The one place a profile path is opened (``Rules``, ``--profile``, a case's or a replay log's
    profile, ``extends``). O_NONBLOCK so a FIFO or a terminal is refused instead of waited on; the
    kind and size come from the open descriptor, so what is checked is what is read."""
    where = shown_path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise ProfileError(f"profile file {where} not found") from None
    except (OSError, ValueError) as e:  # a directory on some systems, no permission, a name too long, ...
        raise ProfileError(f"cannot read profile file {where}: {getattr(e, 'strerror', None) or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((what for test, what in _FILE_KINDS if test(st.st_mode)), "not a regular file")
            raise ProfileError(f"profile file {where} is {kind}, not a regular file")
        if st.st_size > MAX_PROFILE_BYTES:
            raise ProfileError(f"profile file {where} is {st.st_size} bytes, more than the {MAX_PROFILE_BYTES} allowed")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_PROFILE_BYTES + 1)  # +1: a file that grew since fstat is still caught
    except OSError as e:
        raise ProfileError(f"cannot read profile file {where}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_PROFILE_BYTES:
        raise ProfileError(f"profile file {where} is more than the {MAX_PROFILE_BYTES} bytes allowed")
    return data


def _read(name_or_path: str) -> tuple[dict, str]:
    if name_or_path in BUILTIN:
        path = PROFILE_DIR / f"{name_or_path}.toml"
    else:
        path = Path(name_or_path)
        try:
            missing = not path.suffix and not path.exists()
        except (OSError, ValueError):  # a name too long for the file system is not a profile either
            missing = True
        if missing:
            raise ProfileError(
                f"unknown profile {shown(name_or_path)} (built in: {', '.join(BUILTIN)}; or give a path to a .toml file)"
            )
    data = read_profile_bytes(path)
    try:
        return tomllib.loads(data.decode("utf-8")), str(path)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ProfileError(f"profile file {shown_path(path)} is not valid TOML: {e}") from None


def _check_keys(src: str, where: str, keys, allowed) -> None:
    bad = sorted(set(keys) - set(allowed))
    if bad:
        _fail(src, f"unknown field(s) {bad} in {where} (allowed: {sorted(allowed)})")


def _item_key(src: str, key: str, where: str) -> str:
    if key not in ITEM_INDEX:
        _fail(src, f"{where} names unknown item {key!r} (no predicate for it; known items: {', '.join(ITEM_KEYS)})")
    return key


def _build_items(src: str, raw_items: dict, base: list[dict]) -> list[dict]:
    items = [dict(b) for b in base]
    index = {it["key"]: it for it in items}
    for key, fields in raw_items.items():
        _item_key(src, key, "[items]")
        if not isinstance(fields, dict):
            _fail(src, f"[items.{key}] must be a table")
        _check_keys(src, f"[items.{key}]", fields, _ITEM_FIELDS)
        if key in index:
            index[key].update(fields)
        else:
            it = {"key": key, "zh": ITEM_ZH[key], **fields}
            if "tai" not in it:
                _fail(src, f"[items.{key}] needs a tai value")
            items.append(it)
            index[key] = it
    return items


def _to_item(src: str, it: dict) -> Item:
    key = it["key"]
    tai = it.get("tai")
    if isinstance(tai, bool) or not isinstance(tai, int) or not 0 <= tai <= 10_000:
        _fail(src, f"item {key!r}: tai must be a non-negative integer, got {tai!r}")
    replaces = it.get("replaces", [])
    if not isinstance(replaces, list):
        _fail(src, f"item {key!r}: replaces must be a list of item keys")
    for r in replaces:
        _item_key(src, r, f"item {key!r} replaces")
    red = it.get("reduced")
    red_tai, red_when = None, ()
    if red is not None:
        if not isinstance(red, dict) or set(red) != {"tai", "when"}:
            _fail(src, f"item {key!r}: reduced must be {{tai = N, when = [keys]}}")
        red_tai = red["tai"]
        if isinstance(red_tai, bool) or not isinstance(red_tai, int) or red_tai < 0:
            _fail(src, f"item {key!r}: reduced.tai must be a non-negative integer")
        if not isinstance(red["when"], list):
            _fail(src, f"item {key!r}: reduced.when must be a list of item keys")
        red_when = tuple(_item_key(src, w, f"item {key!r} reduced.when") for w in red["when"])
    zh = it.get("zh", ITEM_ZH[key])
    if not isinstance(zh, str):
        _fail(src, f"item {key!r}: zh must be a string")
    return Item(key, zh, tai, tuple(replaces), red_tai, red_when)


_LOADING: set[str] = set()  # profiles being loaded (_loading_key), to name an `extends` cycle instead of recursing
_TOP_TYPES = {
    "name": str,
    "title": str,
    "extends": str,
    "remove": list,
    "rules": dict,
    "options": dict,
    "items": dict,
    "description": str,
}


def _loading_key(name_or_path: str) -> str:
    if name_or_path in BUILTIN:
        return name_or_path
    try:
        return str(Path(name_or_path).resolve())
    except (OSError, RuntimeError):  # a name too long to resolve, a symlink loop: _read names the problem
        return name_or_path


def _parent_ref(src: str, ext: str) -> str:
    """`extends` as given; a relative path is read next to the file that names it when it exists there."""
    if ext in BUILTIN or Path(ext).is_absolute():
        return ext
    sibling = Path(src).parent / ext
    try:
        return str(sibling) if sibling.exists() else ext
    except (OSError, ValueError):  # a name too long for the file system: load_profile names the problem
        return ext


def _parse(data: dict, src: str) -> Profile:
    _check_keys(src, "the top level", data, _TOP_KEYS)
    for k, typ in _TOP_TYPES.items():
        if k in data and not isinstance(data[k], typ):
            _fail(src, f"{k} must be a {'table' if typ is dict else typ.__name__}, got {data[k]!r}")
    base_items: list[dict] = []
    rules: dict = {}
    options: dict = {}
    if "extends" in data:
        ref = _parent_ref(src, data["extends"])
        if _loading_key(ref) in _LOADING:
            _fail(src, f"extends cycle through {data['extends']!r}")
        parent = load_profile(ref)
        base_items = [
            {"key": i.key, "zh": i.zh, "tai": i.tai, "replaces": list(i.replaces)}
            | ({"reduced": {"tai": i.reduced_tai, "when": list(i.reduced_when)}} if i.reduced_tai is not None else {})
            for i in parent.items
        ]
        rules.update(parent.rule_defaults)
        options.update(parent.options)
    removed = data.get("remove", [])
    for r in removed:
        _item_key(src, r, "remove")
    base_items = [b for b in base_items if b["key"] not in removed]
    items = [_to_item(src, it) for it in _build_items(src, data.get("items", {}), base_items)]
    if not items:
        _fail(src, "has no items")
    rules.update(data.get("rules", {}))
    opts = data.get("options", {})
    _check_keys(src, "[options]", opts, _OPTION_KEYS)
    for k, typ in _OPTION_KEYS.items():
        if k in opts and not isinstance(opts[k], typ):
            _fail(src, f"[options] {k} must be a {typ.__name__}")
    for s in opts.get("shapes", []):
        if s not in SHAPES:
            _fail(src, f"[options] shapes names unknown shape {s!r} (known: {', '.join(SHAPES)})")
    options.update(opts)
    if not options.get("hongkong", False):
        _refuse_hongkong_items(src, items)
    name = data.get("name") or Path(src).stem
    return Profile(name, data.get("title", name), tuple(items), rules, options, src)


def _refuse_hongkong_items(src: str, items: list[Item]) -> None:
    """A hongkong-only item (PLATFORMS.md 5) named as a row, in replaces or in reduced.when of a profile
    that is not a hongkong one would score nothing: refused, naming it."""
    hk = set(HK_ONLY_KEYS)
    for it in items:
        for key in (it.key, *it.replaces, *it.reduced_when):
            if key in hk:
                _fail(
                    src,
                    f"item {key!r} ({ITEM_ZH[key]}) is a hongkong item (HONGKONG.md 3); only a profile that "
                    "extends hongkong can score it",
                )


def extends_of(name_or_path: str) -> str:
    """The ``extends`` a profile file names ("" for none), as written."""
    ext = _read(name_or_path)[0].get("extends", "")
    return ext if isinstance(ext, str) else ""


def load_pack(name: str) -> Profile:
    """A pack of items to append to a profile (``profiles/extras.toml``), read as a table of items."""
    if name not in PACKS:
        raise ProfileError(f"unknown pack {name!r} (known: {', '.join(PACKS)})")
    return _load_pack(name)


@functools.cache
def _load_pack(name: str) -> Profile:
    data, src = _read(str(PROFILE_DIR / f"{name}.toml"))
    _check_keys(src, "the top level", data, {"name", "title", "description", "options"} | {"items"})
    items = tuple(_to_item(src, it) for it in _build_items(src, data.get("items", {}), []))
    opts = data.get("options", {})
    _check_keys(src, "[options]", opts, {"shapes"})
    for sh in opts.get("shapes", []):
        if sh not in SHAPES:
            _fail(src, f"[options] shapes names unknown shape {sh!r}")
    return Profile(data.get("name", name), data.get("title", name), items, {}, dict(opts), src)


@functools.lru_cache(maxsize=64)
def effective_profile(
    name_or_path: str,
    extras: bool = False,
    extras_off: tuple[str, ...] = (),
    unrelated_gap: int = 3,
    count_method: int = 1,
    dual_reading: bool = True,
    special_wins: bool = True,
) -> Profile:
    """The profile a game plays: the base profile, plus (``extras``) the extras pack's items appended
    in its row order, those named in ``extras_off`` left out, an item the base already has keeping its
    base row; plus the pack's shapes (each only while one of its items remains) and, for
    ``unrelated_gap == 2``, the 2-apart 十六不搭; for a hongkong profile, its ``count_method`` and
    ``dual_reading``. With ``special_wins`` off (rule option, the olympiad profile) the profile has no
    shapes at all: five sets and a pair is the only win, for the engine, its mask and the scorer alike
    (they all read the shapes from the compiled profile). Cached: one object (and one compiled form)
    per setting."""
    base = load_profile(name_or_path)
    no_shapes = not base.options.get("shapes")
    if not extras and unrelated_gap == 3 and count_method == 1 and dual_reading and (special_wins or no_shapes):
        return base
    items = list(base.items)
    shapes = list(base.options.get("shapes", []))
    packs = base.packs
    title = base.title
    if extras:
        pack = load_pack("extras")
        have = set(base.keys)
        items += [it for it in pack.items if it.key not in have and it.key not in extras_off]
        keys = {it.key for it in items}
        for sh in pack.options.get("shapes", []):
            if sh not in shapes and any(k in keys for k in SHAPE_ITEMS[sh]):
                shapes.append(sh)
        packs = packs + ("extras",)
        title = f"{title} + {pack.title}"
    if unrelated_gap == 2 and "unrelated_gap2" not in shapes:
        shapes.append("unrelated_gap2")
    if not special_wins:
        shapes = []
    hk = {"count_method": count_method, "dual_reading": dual_reading}
    return Profile(
        base.name,
        title,
        tuple(items),
        dict(base.rule_defaults),
        base.options | {"shapes": shapes} | hk,
        base.source,
        packs,
    )


@functools.lru_cache(maxsize=64)
def load_profile(name_or_path: str) -> Profile:
    """A built-in profile by name (``standard``, ``strict16``, ``casual``, ``hongkong``, ``olympiad``) or a TOML
    file by path."""
    if isinstance(name_or_path, Profile):
        return name_or_path
    if not isinstance(name_or_path, str):
        raise ProfileError(f"a profile is a name or a path, got {type(name_or_path).__name__}")
    if "\0" in name_or_path:
        raise ProfileError(f"unknown profile {shown(name_or_path)} (a name or a path cannot hold a NUL character)")
    try:
        name_or_path.encode("utf-8")
    except UnicodeEncodeError as e:  # a lone surrogate ("\ud800") from JSON: no file has that name
        raise ProfileError(
            f"unknown profile {shown(name_or_path)} (not valid text: {e.reason} at position {e.start})"
        ) from None
    key = _loading_key(name_or_path)
    _LOADING.add(key)
    try:
        prof = _parse(*_read(name_or_path))
    finally:
        _LOADING.discard(key)
    bad = sorted(set(prof.rule_defaults) - set(DEFAULTS))  # the rule defaults it sets name rule options
    if bad:
        _fail(prof.source, f"[rules] names unknown rule option(s) {bad}")
    return prof
