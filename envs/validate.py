"""Checks of what users hand to the public entry points (``Engine``, the PettingZoo env, the CLI).

Compiled code trusts its arrays: a scripted wall with an id past 143 indexes past the engine's
arrays, a float action is truncated, NaN wraps to some integer. So every value that reaches compiled
code from outside is checked here first, and a bad one is answered with a ``TypeError`` (wrong type
or dtype) or a ``ValueError`` (wrong shape or value) whose message names the argument and the bad
values. Nothing in this module is compiled; it must never be imported by compiled code.
"""

from __future__ import annotations

import math
import numbers
import operator

import numpy as np

from envs.engine.actions import N_ACTIONS

WALL_IDS = 144  # physical tile ids 0..143; 136..143 are the flowers f1..f8 (envs/engine/state.py)
WALL_IDS_NO_FLOWERS = 136
_MASK64 = (1 << 64) - 1


def ranges(values, limit: int = 12) -> str:
    """``[0, 1, 2, 5, 7, 8]`` -> ``'0..2, 5, 7..8'`` (at most ``limit`` groups, then ``...``)."""
    vals = sorted({int(v) for v in values})
    groups: list[str] = []
    i = 0
    while i < len(vals):
        j = i
        while j + 1 < len(vals) and vals[j + 1] == vals[j] + 1:
            j += 1
        groups.append(str(vals[i]) if i == j else f"{vals[i]}..{vals[j]}")
        i = j + 1
    if len(groups) > limit:
        groups = groups[:limit] + [f"... ({len(vals)} in all)"]
    return ", ".join(groups)


def _show(value, n: int = 60) -> str:
    r = repr(value)
    return r if len(r) <= n else r[: n - 3] + "..."


def as_int(value, name: str) -> int:
    """A Python int from an int, a numpy integer or a 0-d integer array; bools and floats (even
    integral ones) are refused with a ``TypeError``."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if isinstance(value, np.ndarray):
        if value.ndim != 0 or value.dtype.kind not in "iu":
            raise TypeError(f"{name} must be an integer, got an array of dtype {value.dtype} and shape {value.shape}")
        return int(value)
    if isinstance(value, numbers.Integral):
        return operator.index(value)
    raise TypeError(f"{name} must be an integer, got {_show(value)} ({type(value).__name__})")


def int_array(value, name: str) -> np.ndarray:
    """``value`` as a numpy integer array (any integer dtype), refusing floats, bools, strings, objects."""
    try:
        a = np.asarray(value)
    except (ValueError, TypeError) as e:  # ragged nesting, objects numpy cannot hold
        raise ValueError(f"{name} must be an integer array, got {_show(value)}: {e}") from None
    if a.dtype.kind not in "iu":
        what = "a float" if a.dtype.kind in "fc" else f"a {a.dtype}"
        bad = ""
        if a.dtype.kind in "fc" and a.size:
            flat = a.reshape(-1)
            nonint = ~np.isfinite(flat) | (flat != np.round(flat.real))
            if nonint.any():
                i = int(np.flatnonzero(nonint)[0])
                bad = f" ({flat[i].item()!r} at index {i} is not an integer)"
        raise TypeError(f"{name} must be integers, got {what} array of shape {a.shape}{bad}")
    return a


# -- Engine ------------------------------------------------------------------------------------
def engine_seeds(seeds, batch_size: int):
    """``Engine.reset`` seeds: one integer (returned as a Python int: per-game seeds are derived
    from it) or an integer array of shape (B,) with values in 0..2**64-1 (returned as uint64)."""
    if seeds is None or isinstance(seeds, (numbers.Number, np.generic, str, bytes)):
        return as_int(seeds, "seeds")
    a = int_array(seeds, "seeds")
    if a.ndim == 0:
        return int(a)
    if a.shape != (batch_size,):
        raise ValueError(f"seeds must be one integer or an array of shape ({batch_size},), got shape {a.shape}")
    if a.dtype.kind == "i" and (a < 0).any():
        bad = np.flatnonzero(a < 0)
        raise ValueError(f"seeds must be in 0..2**64-1, got {int(a[bad[0]])} (games {ranges(bad)})")
    return a.astype(np.uint64)


def engine_walls(walls, batch_size: int, flowers: bool) -> np.ndarray:
    """Scripted walls: (144,), (K, 144) or (B, K, 144) physical ids, returned as (B, K, 144) uint8.
    Each wall must be a permutation of 0..143 (RULES.md 2.1: 136 playing tiles, four of each kind,
    and eight flowers); with flowers off the engine deals from the first 136 entries only
    (``wall.fill_wall``), so those must be the playing tiles 0..135 and the flowers come last."""
    w = int_array(walls, "walls")
    shapes = f"(144,), (K, 144) or ({batch_size}, K, 144)"
    if w.ndim not in (1, 2, 3) or w.shape[-1] != WALL_IDS or (w.ndim == 3 and w.shape[0] != batch_size):
        raise ValueError(f"walls must have shape {shapes}, got {w.shape}")
    if w.size == 0:  # (no wall to deal: K = 0)
        raise ValueError(f"walls must hold at least one wall: shape {shapes} with K >= 1, got {w.shape}")
    nd = w.ndim
    w3 = w.reshape((-1,) + w.shape[-2:]) if nd == 3 else w.reshape(1, -1, WALL_IDS)

    def where(b, k) -> str:
        return "walls" if nd == 1 else f"walls[{k}]" if nd == 2 else f"walls[{b}, {k}]"

    out = (w3 < 0) | (w3 >= WALL_IDS)
    if out.any():
        b, k = np.argwhere(out.any(axis=2))[0]
        pos = np.flatnonzero(out[b, k])
        raise ValueError(
            f"{where(b, k)} holds ids outside 0..{WALL_IDS - 1}: {ranges(w3[b, k, pos])} (at positions {ranges(pos)})"
        )
    w8 = w3 if w3.dtype == np.uint8 else w3.astype(np.uint8)  # a uint8 wall (read-only too) is not copied
    if w8.shape[1]:
        seen = np.zeros(w8.shape, np.bool_)
        np.put_along_axis(seen, w8.astype(np.intp), True, axis=2)
        full = seen.all(axis=2)  # 144 entries, every id present: a permutation
        if not full.all():
            b, k = np.argwhere(~full)[0]
            c = np.bincount(w8[b, k], minlength=WALL_IDS)
            dup = np.flatnonzero(c > 1)
            raise ValueError(
                f"{where(b, k)} is not a permutation of the physical ids 0..{WALL_IDS - 1}: duplicate ids "
                f"{ranges(dup)} (id {int(dup[0])} {int(c[dup[0]])} times); missing ids {ranges(np.flatnonzero(c == 0))}"
            )
        if not flowers:
            fl = w8[:, :, :WALL_IDS_NO_FLOWERS] >= WALL_IDS_NO_FLOWERS
            if fl.any():
                b, k = np.argwhere(fl.any(axis=2))[0]
                pos = np.flatnonzero(fl[b, k])
                raise ValueError(
                    f"{where(b, k)}: with flowers off the engine deals from the first {WALL_IDS_NO_FLOWERS} entries "
                    f"only, so the flower ids {WALL_IDS_NO_FLOWERS}..{WALL_IDS - 1} must come last; found "
                    f"{ranges(w8[b, k, pos])} at positions {ranges(pos)}"
                )
    if nd < 3:
        w8 = np.broadcast_to(w8, (batch_size,) + w8.shape[1:])  # the core reads strided walls as they are
    return w8


def fmt_bytes(n: int) -> str:
    """A byte count for a message: 36.6 GiB, 512.0 MiB, 3.8 KiB, 12 bytes."""
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


def available_memory() -> int | None:
    """Bytes the system can still give (Linux: MemAvailable of /proc/meminfo; else the physical
    memory; None when unknown)."""
    try:
        with open("/proc/meminfo", "rb") as f:
            for line in f:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        import os

        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_memory(nbytes: int, what: str) -> None:
    """Before allocating ``nbytes`` for ``what`` (a phrase naming the argument, e.g. "batch_size
    10000000"): a ValueError saying how much it would take when that is more than the memory
    available, instead of an allocation that fails late or brings in the OOM killer."""
    avail = available_memory()
    if avail is not None and nbytes > avail:
        raise ValueError(f"{what} would take {fmt_bytes(nbytes)} of memory; {fmt_bytes(avail)} is available")


def engine_actions(actions, batch_size: int, n_actions: int) -> np.ndarray:
    """One integer action per game as int64: shape (B,) (or one integer for B = 1). That each is in
    0..n_actions-1 and legal is the core's check (native/bind/bind_engine.cpp, check_actions), with the
    same messages; only an unsigned value beyond int64, which the core would see wrapped, is refused here."""
    a = int_array(actions, "actions")
    if a.ndim == 0 and batch_size == 1:
        a = a.reshape(1)
    if a.shape != (batch_size,):
        raise ValueError(f"actions must have shape ({batch_size},), got {a.shape}")
    if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
        bad = a >= n_actions
        i = np.flatnonzero(bad)
        raise ValueError(
            f"actions must be in 0..{n_actions - 1}, got {int(a[i[0]])} in game {int(i[0])}"
            + (f" (bad in games {ranges(i)})" if len(i) > 1 else "")
        )
    return a.astype(np.int64)


# -- the environments: the PettingZoo envs (tw16_v0, tw16_v1) and the Gymnasium envs share these --------
ILLEGAL_ACTIONS = ("raise", "terminate")


class ActionSpaceError(AssertionError, ValueError):
    """``step`` got something that is not an action of ``Discrete(76)`` (with ``illegal_action="terminate"``):
    raised where PettingZoo's ``AssertOutOfBoundsWrapper`` fails its assertion (so an AssertionError),
    and a ValueError like every other refusal of a bad value."""


def _not_an_action(who: str, value) -> ActionSpaceError:
    return ActionSpaceError(
        f"action is not in action space: {who} got {_show(value)}, need an integer in 0..{N_ACTIONS - 1}"
    )


def env_action(action, who: str, illegal_action: str) -> int:
    """One action handed to an env's ``step``, as a Python int: the one check of every env.

    ``illegal_action="terminate"`` (``tw16_v0.env()``, the Gymnasium envs' default): anything but an
    integer in 0..75 (a float, NaN, a bool, a string, an array) is ``ActionSpaceError``; an action in
    range that is not legal is the caller's to punish. ``"raise"``: a non-integer is a ``TypeError``
    (``as_int``); the caller raises its illegal-action error for a value out of range or not legal."""
    if type(action) is int and (illegal_action != "terminate" or 0 <= action < N_ACTIONS):
        return action  # the fast path: a plain int
    if illegal_action != "terminate":
        return as_int(action, f"{who}: action")
    try:
        a = as_int(action, who)
    except TypeError:
        raise _not_an_action(who, action) from None
    if not 0 <= a < N_ACTIONS:
        raise _not_an_action(who, action)
    return a


def env_actions(actions, n: int, illegal_action: str) -> np.ndarray:
    """A vector env's actions: ``env_action``'s rule for each of the ``n`` games, as int64 (n,).
    ``"terminate"``: the first game whose action is not an integer in 0..75 is named in an
    ``ActionSpaceError``; ``"raise"``: a non-integer array is a ``TypeError`` (``int_array``)."""
    try:
        a = int_array(actions, "actions")
    except (TypeError, ValueError):
        if illegal_action != "terminate":
            raise
        flat = np.asarray(actions, dtype=object).reshape(-1)
        i = next((i for i, x in enumerate(flat) if not _is_action(x)), 0)
        raise _not_an_action(f"game {i}", flat[i] if flat.size else actions) from None
    if a.ndim == 0 and n == 1:
        a = a.reshape(1)
    if a.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), got {a.shape}")
    if illegal_action == "terminate":
        bad = np.flatnonzero((a < 0) | (a >= N_ACTIONS))
        if bad.size:
            raise _not_an_action(f"game {int(bad[0])}", a[bad[0]].item())
    return a.astype(np.int64, copy=False)


def _is_action(x) -> bool:
    try:
        return 0 <= as_int(x, "action") < N_ACTIONS
    except TypeError:
        return False


def policy_actions(actions, n: int, who: str) -> np.ndarray:
    """What a policy (an opponent, an agent in the arena) returned for ``n`` decisions: integers in
    0..75 of shape (n,). A float is never truncated and NaN never wraps to some index: both are a
    ``TypeError`` naming the policy."""
    a = int_array(actions, f"{who}: actions")
    if a.shape != (n,) and not (a.ndim == 0 and n == 1):
        raise ValueError(f"{who}: actions must have shape ({n},), got {a.shape}")
    bad = (a < 0) | (a >= N_ACTIONS)
    if bad.any():
        i = int(np.flatnonzero(bad.reshape(-1))[0])
        raise ValueError(f"{who}: action {int(a.reshape(-1)[i])} (at row {i}) is not in 0..{N_ACTIONS - 1}")
    return a


def env_options(derived=False, max_steps=None, illegal_action="raise", illegal_reward=-1.0):
    """The env options every env takes (PettingZoo and Gymnasium), checked by this one function:
    returns ``(illegal_reward as a finite float, max_steps as None or an int >= 1)``; ``reward`` is
    checked where it is used, by ``envs.rewards.reward_scale``."""
    if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_ACTIONS:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, got {_show(illegal_action)}")
    illegal_reward = real_number(illegal_reward, "illegal_reward")
    if not isinstance(derived, (bool, np.bool_)):
        raise TypeError(f"derived must be True or False, got {_show(derived)}")
    if max_steps is not None:
        max_steps = as_int(max_steps, "max_steps")
        if max_steps < 1:
            raise ValueError(f"max_steps must be None or a positive integer, got {max_steps}")
    return illegal_reward, max_steps


def env_seed(seed) -> int:
    """``reset(seed=...)``: an integer (any size: the env keeps its low 64 bits)."""
    return as_int(seed, "seed") & _MASK64


SEED_MAX = (1 << 63) - 1  # (torch's manual_seed takes an int64; numpy's generators take any such int)


def policy_seed(seed) -> int | None:
    """An agent's or policy's seed (``make_agent``, ``make_policy``, every ``reset(seed)``): None or an
    integer in 0..2**63-1; else a ValueError naming the seed and the range."""
    if seed is None:
        return None
    s = as_int(seed, "seed")
    if not 0 <= s <= SEED_MAX:
        raise ValueError(f"seed must be None or an integer in 0..2**63-1, got {_show(seed)}")
    return s


def no_argument(spec: str) -> None:
    """A spec whose name takes no argument (``random``, ``greedy``, ``defensive``) given one
    (``"random:foo"``): a ValueError naming it."""
    name, colon, arg = str(spec).partition(":")
    if colon:
        raise ValueError(f"{spec!r}: {name} takes no argument (got {arg!r}); use {name!r}")


def real_number(value, name: str, finite: bool = True) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {_show(value)}")
    v = float(value)
    if finite and not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {v!r}")
    return v
