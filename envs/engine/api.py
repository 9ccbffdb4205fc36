"""The engine's public API (pgx-style, small and fixed).

    eng = Engine(Rules(), batch_size=B, auto_reset=False)
    eng.reset(seeds)                  # int array (B,), or one int to derive per-game seeds
    eng.legal_action_mask             # (B, 76) bool; all ones for a finished game
    eng.current_player                # (B,) int: seat to decide, -1 for a finished game
    rewards, terminated = eng.step(actions)   # (B, 4) float32 tai units, (B,) bool
    eng.rewards, eng.terminated, eng.truncated

    eng.take_hands(b)                 # finished hands of game b (None: all games), read and cleared
                                      # (Engine(..., record_hands=True); drivers: sync_hands)
    eng.last_hand(b)                  # the record of game b's last finished hand (None: none yet)

The fast path (the environments' drivers, envs/driver.py and tw16_v0): ``reset_some(seeds, which)``
and ``step_some(actions, active)`` deal / step a subset of the games in place, with the core's
checks (an illegal action: ``step``'s message) but without copies and auto-reset; their results are
the live views ``step_rewards`` / ``step_terminated``. The views (``legal_action_mask``,
``current_player``, ``scores``, ...) are live: they show the state as it is now, so a driver may keep them.

Stepping a finished game is a no-op (zero rewards). With ``auto_reset`` a game that ends in a step
reports its rewards and ``terminated=True`` from that step and is already dealt again (seeded from
its own stream), so the mask and state are the new game's.

Read-only state views (see ``envs.engine.state`` for every array): ``wall`` (B,144), ``hands`` (B,4,34),
``melds`` (B,4,5,3), ``n_melds`` (B,4), ``flowers`` (B,4) bits, ``river`` (B,144,4),
``n_river`` (B,), ``phase``, ``dealer``, ``streak``, ``round_wind``, ``turn_seat``, ``claim_tile``, ``last_drawn``,
``wall_drawable`` (B,), ``pass_win`` (B,4), ``ready`` (B,4) flag bits, ``scores`` (B,4) chips;
``wall_head`` / ``wall_tail`` (B,) the next front / tail wall positions;
hongkong: ``la_debt`` (B,4,4) open 拉 debts in chips (row pays column), ``la_count`` (B,4,4) their k,
``dice`` (B,3) this hand's dice (0 when not rolled), ``side_chips`` (B,4) side payments so far this hand.

Search at decision time (agents/search.py):

    copies = eng.clone(b, n)          # a new Engine of n exact copies of game b
    copies.resample_hidden(i, seat, seed)   # game i: deal again what seat cannot see (in place)
    eng.set_game(c, other, b)         # game c becomes a copy of game b of another Engine

Threads: one Engine may be used from several threads. Every native call on its state arrays (the
Engine's methods, the drivers' ``step_some`` / ``reset_some``, ``search_batch``, the encoders,
``check_game``...) holds the memory of those arrays for the whole call, its checks included, so
calls on one Engine run one at a time and none sees a game another thread is changing (native/bind/
hold.hpp); calls on different Engines never wait for each other. Each method of the Engine is one
such step (``step`` checks, steps, auto-resets and copies its results as one). A sequence that must
see the state it read (read the mask, then step) holds ``with eng.locked():`` around it; without it
another thread may move the game in between and the step refuses the now illegal action (a
ValueError, the game untouched). The live views read without the lock may show a step half done.
docs/robustness.md ("Threads") has the whole contract.
"""

from __future__ import annotations

import functools
import weakref

import numpy as np

from envs import _core
from envs._core import reset_batch, reset_some, step_batch, step_some, tiles_left
from envs.engine import actions as A
from envs.engine import state as st
from envs.engine.mask import engine_config, native_rules
from envs.engine.record import HandLog, HandRecord, read_record
from envs.engine.rng import game_seeds, redeal_seed
from envs.rules import Rules
from envs.validate import as_int, check_memory, engine_actions, engine_seeds, engine_walls

# Each Engine's hold (``_core.hold_state``: its state's byte ranges, computed once), kept beside the
# Engine rather than in it so that copy.deepcopy and pickle of an Engine stay plain (a copy has new
# memory, so it must not share the hold); remade when the Engine's state arrays change (clone).
_HOLDS: weakref.WeakKeyDictionary[Engine, tuple] = weakref.WeakKeyDictionary()


def _hold_of(eng):
    c = _HOLDS.get(eng)
    if c is None or c[0] is not eng.s.g:
        c = (eng.s.g, _core.hold_state(eng.s))
        _HOLDS[eng] = c
    return c[1]


def _locked(method):
    """The method runs under ``self.locked()`` (one step of the threading contract above)."""

    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with _hold_of(self):
            return method(self, *args, **kwargs)

    return run


@functools.lru_cache(maxsize=1)
def bytes_per_game() -> int:
    """Memory of one game of an Engine: its state arrays (``envs.engine.state``) and the Engine's own
    per-game arrays (seeds, rewards, flags)."""
    return st.state_bytes_per_game(st.alloc(1)) + 8 + 16 + 1 + 1 + 16


def _ro(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.setflags(write=False)
    return v


def _live_view(eng, name: str, field: str, index=None) -> np.ndarray:
    """A read-only view of ``eng.s.<field>[index]``, made once and kept while ``eng.s`` holds the same
    array (the hot properties of the fast path: a view costs about a microsecond to make)."""
    src = getattr(eng.s, field)
    v = eng._views.get(name)
    if v is None or v.base is not (src if src.base is None else src.base):
        v = _ro(src if index is None else src[index])
        eng._views[name] = v
    return v


class Engine:
    """A batch of independent tw16 games sharing one rules object.

    Thread-safe: each method (and every native call on the state arrays) runs whole while the other
    threads' calls on this Engine wait; ``with eng.locked():`` makes a longer sequence one step.
    """

    def __init__(
        self, rules: Rules | None = None, batch_size: int = 1, auto_reset: bool = False, record_hands: bool = False
    ):
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(
                f"rules must be an envs.rules.Rules (Rules.make(profile, **options)), got {type(rules).__name__}"
            )
        self.rules = rules if rules is not None else Rules()
        self.batch_size = as_int(batch_size, "batch_size")
        if self.batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        if not isinstance(auto_reset, (bool, np.bool_)):
            raise TypeError(f"auto_reset must be True or False, got {auto_reset!r}")
        self.auto_reset = bool(auto_reset)
        if not isinstance(record_hands, (bool, np.bool_)):
            raise TypeError(f"record_hands must be True or False, got {record_hands!r}")
        # With record_hands every finished hand is kept (a HandRecord) until take_hands reads it.
        self._log = HandLog(self.batch_size) if record_hands else None
        check_memory(self.batch_size * bytes_per_game(), f"batch_size {self.batch_size}")
        self.opts = self.rules.as_array()
        self.cfg = engine_config(self.rules)
        self.prof = tuple(np.ascontiguousarray(a) for a in self.rules.profile_data.compiled())
        self.s = st.alloc(self.batch_size)
        self._views: dict[str, np.ndarray] = {}  # _live_view's cache
        self.truncated = np.zeros(self.batch_size, np.bool_)
        self._seeds = np.zeros(self.batch_size, np.uint64)
        self._rewards = np.zeros((self.batch_size, 4), np.float32)
        self._terminated = np.zeros(self.batch_size, np.bool_)

    def locked(self):
        """``with eng.locked():`` the block's calls on this Engine run as one step: other threads'
        calls on its state wait until the block ends (the calls of this thread go through; blocks
        may nest). For a sequence that must see the state it read, e.g. read ``legal_action_mask``,
        then ``step``."""
        return _hold_of(self)

    # -- the API ------------------------------------------------------------------------------
    @property
    def native(self):
        """The rules compiled once (``envs.engine.mask.native_rules``): what the core's calls take."""
        return native_rules(self.rules)

    @_locked
    def reset(self, seeds=0, walls=None) -> None:
        """Start every game. ``seeds``: int array (B,) or one int. ``walls``: optional scripted walls
        (B, K, 144), (K, 144) or (144,) physical ids, used for the first K hands (tests, replays): each a
        permutation of 0..143, with the flowers 136..143 last when flowers are off. Bad seeds or walls
        raise TypeError / ValueError naming them (``envs.validate``) before any game is touched."""
        B = self.batch_size
        sd = engine_seeds(seeds, B)
        if not isinstance(sd, np.ndarray):
            sd = game_seeds(sd, B)
        w = None if walls is None else engine_walls(walls, B, self.rules.flowers)
        self._seeds = sd.copy()
        if w is not None:
            # The core only reads the scripted walls: a read-only or broadcast array is used as it is.
            s = self.s._replace(script=w)
        else:
            s = self.s._replace(script=np.zeros((B, 0, 144), np.uint8))
        self.s = s
        self.truncated[:] = False
        reset_batch(self.s, sd, self.native)
        if self._log is not None:
            self._log.restart()
            self._log.collect(self.s)  # (a hand can end in its deal)
        self._rewards = self.s.rewards.copy()
        self._terminated = self.s.terminated.copy()

    @_locked
    def step(self, actions):
        """Apply one action per game (the current player's). Returns ``(rewards, terminated)``. An action
        out of 0..75 or illegal (ValueError naming it, the game and the legal ones) is refused by the
        core, the one place the actions are checked, before any game changes."""
        a = engine_actions(actions, self.batch_size, A.N_ACTIONS)  # integers of shape (B,), or raise
        step_batch(self.s, a, self.native)
        self._rewards = self.s.rewards.copy()
        self._terminated = self.s.terminated.copy()
        if self._log is not None:
            self._log.collect(self.s)
        if self.auto_reset and self._terminated.any():
            # A finished game is dealt again from a seed derived from its previous one: deterministic.
            for b in np.flatnonzero(self._terminated):
                self._seeds[b] = np.uint64(redeal_seed(self._seeds[b]))
            reset_some(self.s, self._seeds, self._terminated, self.native)
            if self._log is not None:
                self._log.restart(self._terminated)
                self._log.collect(self.s)
        return self._rewards, self._terminated

    @_locked
    def take_hands(self, game: int | None = None) -> list[HandRecord]:
        """The hands finished since the last call (``envs.engine.record.HandRecord``, oldest first), of
        game ``game`` or of every game (by game, then hand), and forget them. Needs
        ``Engine(..., record_hands=True)``."""
        if self._log is None:
            raise RuntimeError("this Engine keeps no hand records: construct it with record_hands=True")
        if game is not None:
            game = as_int(game, "game")
            if not 0 <= game < self.batch_size:
                raise ValueError(f"game must be in 0..{self.batch_size - 1}, got {game}")
        return self._log.take(game)

    @_locked
    def sync_hands(self, restarted=None) -> None:
        """Read the hand records of calls made on ``self.s`` directly (``envs.engine.step``'s
        ``step_some`` / ``reset_some``, as the vector env drivers do), as ``step`` and ``reset`` do
        for their own calls. After a call that dealt games again, pass them as ``restarted`` (bool
        (B,)), having synced before it: their records start again at hand 0."""
        if self._log is None:
            raise RuntimeError("this Engine keeps no hand records: construct it with record_hands=True")
        if restarted is not None:
            self._log.restart(np.asarray(restarted, np.bool_))
        self._log.collect(self.s)

    @_locked
    def last_hand(self, game: int = 0) -> HandRecord | None:
        """The record of game ``game``'s last finished hand of this episode (None when none has ended),
        read from the core's record rows: no ``record_hands`` needed, nothing is taken."""
        game = self._game_index(game, "game")
        n = int(self.s.g[game, st.G_HANDS])
        return read_record(self.s, game, n - 1) if n > 0 else None

    # -- the fast path: a subset of the games, in place (the envs' drivers) ----------------------
    @_locked
    def reset_some(self, seeds: np.ndarray, which: np.ndarray) -> None:
        """Deal new games in rows ``which`` (bool (B,)) from ``seeds`` (uint64 (B,)); hand records
        of those games start again at hand 0."""
        reset_some(self.s, seeds, which, self.native)
        if self._log is not None:
            self._log.restart(which)
            self._log.collect(self.s)

    @_locked
    def step_some(self, actions: np.ndarray, active: np.ndarray) -> None:
        """Step the games in ``active`` (bool (B,)) with ``actions`` (int64 (B,), legal under
        ``legal_action_mask``: the core refuses an illegal one, as ``step`` does). The others are
        untouched; results in ``step_rewards`` / ``step_terminated``."""
        step_some(self.s, actions, active, self.native)
        if self._log is not None:
            self._log.collect(self.s)

    step_rewards = property(
        lambda self: _live_view(self, "rewards", "rewards"),
        doc="(B,4) float32 live view: the last fast-path call's rewards (0 for games not stepped)",
    )
    step_terminated = property(
        lambda self: _live_view(self, "terminated", "terminated"),
        doc="(B,) bool live view: the games that are over (fast path)",
    )

    @property
    def legal_action_mask(self) -> np.ndarray:
        return _live_view(self, "mask", "mask")

    @property
    def current_player(self) -> np.ndarray:
        return _live_view(self, "cur", "g", (slice(None), st.G_CUR))

    @property
    def rewards(self) -> np.ndarray:
        """(B, 4) float32: the last step's chip deltas in tai units."""
        return _ro(self._rewards)

    @property
    def terminated(self) -> np.ndarray:
        """(B,) bool: the last step ended the episode (with auto_reset the game is already redealt)."""
        return _ro(self._terminated)

    # -- read-only state views ----------------------------------------------------------------
    wall = property(
        lambda self: _ro(self.s.wall), doc="(B,144) uint8 physical tile ids in draw order (hidden: replays, tests)"
    )
    hands = property(lambda self: _ro(self.s.hands), doc="(B,4,34) int8 concealed counts")
    melds = property(lambda self: _ro(self.s.melds), doc="(B,4,5,3) int8 (type, lowest kind, from seat)")
    n_melds = property(lambda self: _ro(self.s.p[:, :, st.P_NMELDS]), doc="(B,4) melds per seat")
    flowers = property(lambda self: _ro(self.s.p[:, :, st.P_FLOWERS]), doc="(B,4) exposed flower bits f1..f8")
    river = property(lambda self: _ro(self.s.river), doc="(B,144,4) int8 (kind, seat, claimed_by, RV_* bits)")
    n_river = property(lambda self: _ro(self.s.g[:, st.G_NRIVER]), doc="(B,) discards this hand")
    phase = property(lambda self: _ro(self.s.g[:, st.G_PHASE]), doc="(B,) PH_*")
    dealer = property(lambda self: _ro(self.s.g[:, st.G_DEALER]), doc="(B,) dealer seat")
    streak = property(lambda self: _ro(self.s.g[:, st.G_STREAK]), doc="(B,) dealer streak N")
    round_wind = property(lambda self: _ro(self.s.g[:, st.G_ROT] // 4 % 4), doc="(B,) prevailing wind 0..3 (copy)")
    turn_seat = property(lambda self: _ro(self.s.g[:, st.G_TURN]), doc="(B,) seat on turn / discarder")
    claim_tile = property(lambda self: _ro(self.s.g[:, st.G_TILE]), doc="(B,) tile in question (-1 none)")
    last_drawn = property(
        lambda self: _ro(self.s.g[:, st.G_LAST_DRAWN]), doc="(B,) kind the seat on turn drew this turn (-1 none)"
    )
    pass_win = property(lambda self: _ro(self.s.p[:, :, st.P_PASS_WIN]), doc="(B,4) 過水 flags")
    ready = property(lambda self: _ro(self.s.p[:, :, st.P_READY]), doc="(B,4) declared-ready flag bits")
    scores = property(lambda self: _live_view(self, "scores", "scores"), doc="(B,4) int64 cumulative chips")
    la_debt = property(lambda self: _ro(self.s.la), doc="(B,4,4) float64 open 拉 debt of row to column, chips")
    la_count = property(lambda self: _ro(self.s.la_k), doc="(B,4,4) int32 k of each open 拉 debt")
    side_chips = property(lambda self: _ro(self.s.p[:, :, st.P_SIDE]), doc="(B,4) side payments this hand")

    @property
    def dice(self) -> np.ndarray:
        """(B, 3) this hand's three dice (hongkong; 0 when not rolled), a copy."""
        d = self.s.g[:, st.G_DICE]
        return np.stack([d % 8, d // 8 % 8, d // 64], axis=1)

    wall_head = property(lambda self: _ro(self.s.g[:, st.G_HEAD]), doc="(B,) wall position of the next front draw")
    wall_tail = property(
        lambda self: _ro(self.s.g[:, st.G_TAIL]), doc="(B,) wall position of the next replacement (counts down)"
    )

    @property
    @_locked
    def wall_drawable(self) -> np.ndarray:
        """(B,) tiles that may still be drawn: the rest of the wall minus the dead wall (a copy; the
        core's ``tiles_left``, one call per game)."""
        native = self.native
        return np.fromiter((tiles_left(row, native) for row in self.s.g), np.int64, self.batch_size)

    # -- search at decision time (native/include/tw16/resample.hpp) ----------------------------
    @_locked
    def clone(self, b: int = 0, n: int = 1) -> Engine:
        """A new Engine (same rules, auto_reset and scripted walls) of ``n`` exact copies of game ``b``:
        state, random stream, episode seed and last rewards. Stepping a copy as the original is stepped
        gives the same trajectory."""
        b = self._game_index(b, "b")
        n = as_int(n, "n")
        if n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        new = Engine(self.rules, batch_size=n, auto_reset=self.auto_reset)
        new.s = st.alloc(n, self.s.script.shape[1])
        for c in range(n):
            new.set_game(c, self, b)
        return new

    def set_game(self, c: int, src: Engine, b: int) -> None:
        """Game ``c`` of this engine becomes an exact copy of game ``b`` of ``src`` (an Engine with the
        same rules and as many scripted walls per game)."""
        if not isinstance(src, Engine):
            raise TypeError(f"src must be an Engine, got {type(src).__name__}")
        with _core.hold_state(self.s, src.s):  # (both at once: two threads copying both ways never deadlock)
            self._set_game(c, src, b)

    def _set_game(self, c: int, src: Engine, b: int) -> None:
        if not (
            np.array_equal(src.opts, self.opts)
            and np.array_equal(src.cfg, self.cfg)
            and all(np.array_equal(x, y) for x, y in zip(src.prof, self.prof))
        ):
            raise ValueError("src plays other rules: a game can only be copied between engines of the same rules")
        c = self._game_index(c, "c")
        b = src._game_index(b, "b")
        _core.copy_game(src.s, b, self.s, c)
        self._seeds[c] = src._seeds[b]
        self.truncated[c] = src.truncated[b]
        self._rewards[c] = src._rewards[b]
        self._terminated[c] = src._terminated[b]

    @_locked
    def resample_hidden(self, b: int, seat: int, seed: int) -> None:
        """Deal again, in place, what ``seat`` cannot see in game ``b``, uniformly among the deals
        consistent with what it has seen: the opponents' concealed tiles (each keeps its count) and the
        wall (dead wall included; the hidden flowers stay in it), the game's random stream (the later
        hands) from ``seed``. The seat's observation, its hand, every meld, the river and the flowers do
        not change. ``seat`` must be the seat to decide in game ``b`` (a live game the engine made:
        ValueError otherwise). Deterministic given ``seed`` (an int in 0..2**64-1). Details:
        native/include/tw16/resample.hpp."""
        b = self._game_index(b, "b")
        seat = as_int(seat, "seat")
        seed = as_int(seed, "seed")
        if not 0 <= seed < 1 << 64:
            raise ValueError(f"seed must be in 0..2**64-1, got {seed}")
        _core.resample_hidden(self.s, b, seat, seed, self.native)

    @_locked
    def reshuffle_wall(self, b: int, seed: int) -> None:
        """Deal again, in place and uniformly, the order of game ``b``'s undrawn wall (dead wall and its
        flowers included) and the game's random stream, every hand, meld and claim kept as it is: the
        search's oracle determinization (``search:...,oracle=1``), which knows what the seats hold.
        Deterministic given ``seed`` (an int in 0..2**64-1); ``b`` a live decision of a game the engine
        made (ValueError otherwise)."""
        b = self._game_index(b, "b")
        seed = as_int(seed, "seed")
        if not 0 <= seed < 1 << 64:
            raise ValueError(f"seed must be in 0..2**64-1, got {seed}")
        _core.reshuffle_wall(self.s, b, seed, self.native)

    def _game_index(self, b, name: str) -> int:
        b = as_int(b, name)
        if not 0 <= b < self.batch_size:
            raise ValueError(f"{name} = {b} is not a game of this engine (0..{self.batch_size - 1})")
        return b

    def state_bytes_per_game(self) -> int:
        return st.state_bytes_per_game(self.s)
