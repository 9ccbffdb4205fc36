"""Search at decision time: determinized rollouts over the base policy's best candidates.

At each of its decisions with more than one legal action (and no win on offer), the agent takes the
top ``n`` candidates of the base policy (Greedy: its own choice first, then its discard order), and
for each of ``k`` determinizations (``Engine.resample_hidden``: the opponents' concealed tiles and
the wall dealt again uniformly among the deals consistent with what the seat has seen) plays each
candidate and then the hand out with a fast rollout policy (``ROLLOUTS``: the core's ``random`` or
``greedy`` legal play, native/src/randplay.cpp, or ``efficient``), every candidate on the same determinizations and rollout
streams. It plays the candidate with the best mean chips for its seat over the rest of the hand
among those that beat the base candidate by more than ``z`` standard errors of the paired
differences (``z = 0``: the best mean; ties: the base order). With ``n = 1`` it plays exactly as Greedy. The whole decision runs in the
native core (``envs._core.search_batch``, over threads for a batch of games).

``base=neural`` (or ``base=neural:PATH``) puts a network in Greedy's place: its ``n`` most probable
legal actions are the candidates, its first choice the base, so the search is a lookahead over the
network alone (with ``n = 1``, or a ``z`` nothing reaches, it plays exactly as ``neural``). The
rollouts still play the native policies (``rollout=base``, Greedy at every seat, is refused there).

``base=defensive`` puts Defensive (agents/greedy.py) first: its decision, read by the core from the
state as ``agents.features.decode`` reads it from the seat's observation, is the base candidate, then
Greedy's order (with ``n = 1``, or a ``z`` nothing reaches, it plays exactly as ``defensive``).
``rollout=defensive`` plays Defensive at every seat of a rollout, the searching seat's own rest of the
hand included, so that the rollouts fold where Defensive folds (about 14 times the cost of
``efficient``). ``w`` (default 0) weighs each determinization by how well its dealt hands explain the
opponents' discards: ``exp(-w x closeness)``, the closeness summed over each opponent's discards of
the copies of that kind and its neighbours it is dealt (``envs._core.search_weights``; the means and
the z test are weighted, the standard error over the weights' effective sample size). ``ms`` (default
0: none) is a time budget per decision in milliseconds: no determinization starts past it (the first
always runs); with it the decisions depend on the machine's speed, so a seeded run is repeatable only
without it.

``oracle=1`` keeps every hidden hand and deals again only the order of the wall
(``reshuffle_wall``, tw16/resample.hpp): the agent reads the opponents' concealed tiles, so it is not a
fair player. It answers a diagnostic question (how much does the search add when its determinizations
are the true state: the bias of uniform deals removed) and gives training targets
(agents/checkpoints/README.md, issue 26): the mean of its rollouts over the states a seat meets is the
value of the seat's information state under the rollout policy, with no model of the opponents' hands.

``hm=PATH`` deals the determinizations by a model of the opponents' hands (agents/hand_model.py,
trained by training/hand_model.py) instead of uniformly: each opponent's tiles are drawn one at a
time, kind k with probability proportional to its hidden copies times the model's weight,
exp(``ha`` x logit) (``ha`` default 1; 0 is the uniform deal). It reads only the seat's observation
and the counts the seat can work out, so unlike ``oracle`` it is a fair agent.

``leaf=zero`` and ``leaf=value`` (default ``rollout``: the above) stop each candidate's play early:
under each determinization the candidate is played, then the rollout policy at the other seats, until
the hand ends or the seat is to decide again (a win on offer to the seat is taken); that catches a
deal-in on the candidate discard, and the opponents' claims and wins before the seat's next turn,
exactly under that deal (``envs._core.search_leaves_batch``, native/src/resample.cpp). A settled
hand is valued by its chips; an open leaf at 0 (``zero``: only what settles within the horizon
counts) or by the network's value head on the seat's observation of the leaf (``value``, base=neural
only: the value x per_tai / the reward scale it was trained with, ``NeuralAgent.reward_scale``). The network runs once over
every open leaf of a batch of decisions. The same z test (``choose``) then picks the candidate, with
``m`` (chips, default 0) a margin the alternative must also clear: the value head misjudges a leaf's
hand the same way under every determinization, so its errors pass a z test. ``ms`` bounds the
leaves' play, not the network's pass.

Unlike the other agents it reads the engine, not an observation: ``act_engine(engine, games)``
(``agents.evaluation.arena.run_games`` calls it for an agent with ``needs_engine``). What it uses of the
hidden state is what ``resample_hidden`` keeps (native/include/tw16/resample.hpp): the kinds of the
opponents' concealed kongs and their 過水 flags; everything else hidden is dealt again.

    make_agent("search")                          # k=8, n=3, rollout=efficient, z=3
    make_agent("search:k=16,n=4,rollout=random")
    make_agent("search:base=neural")              # over agents/checkpoints' default network
    make_agent("search:base=defensive,rollout=defensive,k=8,n=2,z=2,w=0.05,ms=50")
    make_agent("search:base=neural,leaf=value,rollout=defensive,k=8,n=3,z=2,m=15")
"""

from __future__ import annotations

import time

import numpy as np

from envs import _core
from envs.engine.randplay import POLICY_GREEDY, POLICY_UNIFORM
from envs.validate import policy_seed

# rollout policies (native/include/tw16/resample.hpp): randplay's uniform and greedy play (lowest
# shanten, one decision in 8 and every claim answer uniform), "efficient": wins and ready
# declarations whenever legal, Greedy's claim answers, lowest-shanten discards, and "base": Greedy
# itself at every seat (the slowest); "defensive": Defensive (agents/greedy.py) at every seat, the
# searching seat's own rest of the hand included: the rollouts fold where Defensive would
ROLLOUTS = {"random": POLICY_UNIFORM, "greedy": POLICY_GREEDY, "efficient": 2, "base": 3, "defensive": 4}
# z, measured against three Greedy seats (duplicate, --vr: the corrected figures): z = 0 loses 12.5
# (greedy rollouts) and 15.5 (efficient) chips per hand and z = 1 loses 7.2 (300 walls of seed
# 2027); z = 2 loses 0.85 [-1.12, -0.58] (the 5,000 published walls v1, 20,000 hands), z = 5 never
# leaves Greedy's choice (-0.01 [-0.10, +0.08], 8,000 hands of seed 123), z = 3 reads +0.10 [-0.07,
# +0.27] there and -0.02 [-0.13, +0.09] on the v1 walls: it loses nothing and gains nothing
# measurable. The rollouts' values are biased (uniformly dealt opponents hold worse hands than real
# ones, and the rollout policy does not fold), so only a clear gain over the base choice is worth
# taking, and at these k few are both clear and real.
DEFAULTS = {
    "k": 8,
    "n": 3,
    "rollout": "efficient",
    "z": 3.0,
    "base": "greedy",
    "w": 0.0,
    "ms": 0.0,
    "leaf": "rollout",
    "m": 0.0,
    "oracle": 0,
    "hm": "",
    "ha": 1.0,
}
BASES = ("greedy", "defensive", "neural", "neural:PATH")
# how a candidate is valued (module docstring): "rollout" plays the hand out; "zero" and "value" stop
# at the seat's next decision (or the hand's end) and value an open leaf at 0 or by the network's value head
LEAVES = ("rollout", "zero", "value")
# leaf-evaluated decisions run over chunks of games of about this many leaves (k x n a game; a chunk's
# leaves are allocated, encoded and valued together: about 4 kB of state and 12 kB of observation
# each, bounded whatever the batch), and one decision may hold at most MAX_LEAVES of them
LEAF_ROWS = 4096
MAX_LEAVES = 1 << 16


class SearchAgent:
    """Determinized one-ply search; see the module docstring."""

    needs_engine = True

    def __init__(
        self,
        seed: int | None = 0,
        k: int = 8,
        n: int = 3,
        rollout: str = "efficient",
        z: float = 3.0,
        base: str = "greedy",
        w: float = 0.0,
        ms: float = 0.0,
        leaf: str = "rollout",
        m: float = 0.0,
        oracle: int = 0,
        hm: str = "",
        ha: float = 1.0,
    ):
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= 1 << 20:
            raise ValueError(f"k (determinizations) must be an int in 1..2**20, got {k!r}")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= 76:
            raise ValueError(f"n (candidates) must be an int in 1..76, got {n!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {sorted(ROLLOUTS)}, got {rollout!r}")
        if isinstance(z, bool) or not isinstance(z, (int, float, np.integer, np.floating)) or not 0 <= z <= 1e6:
            raise ValueError(f"z (standard errors) must be a number in 0..1e6, got {z!r}")
        if not isinstance(base, str) or not (base in ("greedy", "defensive", "neural") or base.startswith("neural:")):
            raise ValueError(f"base must be one of {', '.join(BASES)}, got {base!r}")
        if base != "greedy" and rollout == "base":
            raise ValueError(
                f"rollout=base plays Greedy at every seat: with base={base} use defensive, efficient, greedy or random"
            )
        for key, val, top in (("w", w, 1e3), ("ms", ms, 1e7), ("m", m, 1e6)):
            if (
                isinstance(val, bool)
                or not isinstance(val, (int, float, np.integer, np.floating))
                or not 0 <= val <= top
            ):
                raise ValueError(f"{key} must be a number in 0..{top:g}, got {val!r}")
        if isinstance(oracle, bool) or oracle not in (0, 1):
            raise ValueError(f"oracle must be 0 or 1, got {oracle!r}")
        if not isinstance(ha, (int, float, np.integer, np.floating)) or isinstance(ha, bool) or not 0 <= ha <= 100:
            raise ValueError(f"ha (the hand model's strength) must be a number in 0..100, got {ha!r}")
        if hm and oracle:
            raise ValueError(
                "hm (a hand model for the deals) and oracle=1 (no deal: the true hands) exclude each other"
            )
        if leaf not in LEAVES:
            raise ValueError(f"leaf must be one of {', '.join(LEAVES)}, got {leaf!r}")
        if leaf == "value" and not base.startswith("neural"):
            raise ValueError(f"leaf=value reads the base network's value head: use base=neural (got base={base})")
        self.k, self.n, self.rollout, self.z, self.base = int(k), int(n), rollout, float(z), base
        if leaf != "rollout" and int(k) * int(n) > MAX_LEAVES:
            raise ValueError(
                f"k x n = {int(k) * int(n)} leaves per decision, more than the leaf modes hold ({MAX_LEAVES}): "
                "lower k (with ms, k is only an upper bound)"
            )
        if m and leaf == "rollout":
            raise ValueError("m (a margin in chips) applies to the leaf modes: use leaf=zero or leaf=value")
        self.leaf, self.m = leaf, float(m)
        self.w, self.ms = float(w), float(ms)
        self.oracle = bool(oracle)
        self.hm, self.ha = None, float(ha)
        if hm:
            from agents.hand_model import HandModel
            from envs.obs.planes_v0 import PlanesV0

            self.hm = HandModel(hm)
            self.hm_enc = PlanesV0(derived=False)
        self.net = None
        # Defensive's parameters and tables, read by rollout=defensive and base=defensive
        self.defence = defence_tables() if rollout == "defensive" or base == "defensive" else None
        if base.startswith("neural"):
            from agents.neural import DEFAULT_CHECKPOINT, NeuralAgent
            from envs.obs.planes_v0 import PlanesV0

            self.net = NeuralAgent(base.partition(":")[2] or DEFAULT_CHECKPOINT)
            self.enc = PlanesV0(derived=self.net.derived)
        same = (
            self.k,
            self.n,
            rollout,
            self.z,
            base,
            self.w,
            self.ms,
            leaf,
            self.m,
            int(oracle),
            hm,
            self.ha,
        ) == tuple(DEFAULTS.values())
        self.name = "search" if same else f"search:k={self.k},n={self.n},rollout={rollout},z={self.z:g}"
        if base != "greedy":
            self.name += f",base={base}"
        if not same and self.w:
            self.name += f",w={self.w:g}"
        if not same and self.ms:
            self.name += f",ms={self.ms:g}"
        if leaf != "rollout":
            self.name += f",leaf={leaf}"
        if self.m:
            self.name += f",m={self.m:g}"
        if self.oracle:
            self.name += ",oracle=1"
        if hm:
            self.name += f",hm={hm}" + (f",ha={self.ha:g}" if self.ha != 1.0 else "")
        self._leaves = None  # (the leaf states' buffer, reused while large enough)
        self.searched = 0  # decisions that ran rollouts (counted over resets: duplicate play resets per batch)
        self.changed = 0  # leaf modes: searched decisions that left the base's choice
        self.decisions = 0
        self.seconds = 0.0
        self.reset(seed)

    @classmethod
    def from_spec(cls, arg: str, seed: int | None = 0) -> SearchAgent:
        """``k=8,n=3,rollout=efficient,z=3,base=greedy,w=0,ms=0,leaf=rollout,m=0`` (any subset, in any
        order) -> an agent."""
        params: dict = {}
        for part in filter(None, str(arg).split(",")):
            key, eq, val = part.partition("=")
            if not eq or key not in DEFAULTS:
                raise ValueError(
                    f"search agent option {part!r}: expected k=INT, n=INT, oracle=0|1, hm=PATH, ha=NUMBER, z=NUMBER, w=NUMBER, ms=NUMBER, m=NUMBER, "
                    f"rollout={'|'.join(ROLLOUTS)}, base={'|'.join(BASES)} or leaf={'|'.join(LEAVES)}"
                )
            try:
                params[key] = (
                    val
                    if key in ("rollout", "base", "leaf", "hm")
                    else float(val)
                    if key in ("z", "w", "ms", "m", "ha")
                    else int(val)
                )
            except ValueError:
                raise ValueError(f"search agent option {part!r}: {key} must be a number") from None
        return cls(seed, **params)

    def reset(self, seed: int | None = None) -> None:
        """Restart the stream the decisions' seeds come from."""
        self.rng = np.random.default_rng(policy_seed(seed))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        raise TypeError(
            "the search agent decides from the engine's state (it resamples what the seat cannot see): "
            "call act_engine(engine, games); agents.evaluation.arena.run_games does"
        )

    def act_engine(self, engine, games) -> np.ndarray:
        """The actions (int64 (G,)) of the seats to decide in ``engine``'s games ``games`` (distinct
        live games). The engine is not changed."""
        games = np.ascontiguousarray(games, dtype=np.int64).reshape(-1)
        seeds = self.rng.integers(0, 1 << 63, size=games.size, dtype=np.uint64)
        out = np.empty(games.size, np.int64)
        values = np.empty((games.size, self.n), np.float64)
        t0 = time.perf_counter()
        if self.leaf != "rollout":
            chunk = max(1, LEAF_ROWS // (self.k * self.n))
            for c0 in range(0, games.size, chunk):
                part = slice(c0, c0 + chunk)
                out[part], values[part] = self.leaf_decisions(engine, games[part], seeds[part])
            return self._done(out, values, t0, games.size)
        cands = None if self.net is None else self.net_candidates(engine, games)
        _core.search_batch(
            engine.s,
            games,
            seeds,
            self.k,
            self.n,
            ROLLOUTS[self.rollout],
            self.z,
            engine.native,
            out,
            values,
            cands,
            self.defence,
            self.base == "defensive",
            self.w,
            self.ms,
            self.oracle,
            self.hand_q(engine, games),
        )
        return self._done(out, values, t0, games.size)

    def _done(self, out: np.ndarray, values: np.ndarray, t0: float, n_games: int) -> np.ndarray:
        self.seconds += time.perf_counter() - t0
        self.decisions += n_games
        self.searched += int((~np.isnan(values[:, 0])).sum())
        self.last_values = values
        return out

    def leaf_decisions(self, engine, games: np.ndarray, seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The leaf-evaluated decisions (``leaf=zero|value``) of ``engine``'s games ``games``: (actions
        (G,), each candidate's weighted mean value (G, n), NaN past the candidates and where nothing
        was searched). The native core plays every candidate to its leaf under each determinization
        (``envs._core.search_leaves_batch``); an open leaf is valued here."""
        from envs.engine.state import alloc
        from envs.obs.planes_v0 import encode_state_rows

        G, k, n = games.size, self.k, self.n
        if self._leaves is None or self._leaves.hands.shape[0] < G * k * n:
            self._leaves = alloc(G * k * n, 0)
        cands = np.empty((G, n), np.int64)
        chips = np.empty((G, k, n), np.float64)
        status = np.empty((G, k, n), np.int8)
        log_w = np.empty((G, k), np.float64)
        done = np.empty(G, np.int64)
        given = None if self.net is None else self.net_candidates(engine, games)
        _core.search_leaves_batch(
            engine.s,
            games,
            seeds,
            k,
            n,
            ROLLOUTS[self.rollout],
            engine.native,
            self._leaves,
            cands,
            chips,
            status,
            log_w,
            done,
            given,
            self.defence,
            self.base == "defensive",
            self.w,
            self.ms,
            self.oracle,
            self.hand_q(engine, games),
        )
        ran = np.arange(k)[None, :, None] < done[:, None, None]  # (G, k, 1): the determinizations that ran
        leaf_open = (status == LEAF_OPEN) & ran & (cands >= 0)[:, None, :]
        if self.leaf == "value" and leaf_open.any():
            rows = np.flatnonzero(leaf_open.reshape(-1))  # slot (i * k + d) * n + j of the leaves
            seats = np.repeat(engine.current_player[games].astype(np.int64), k * n)[rows]
            obs = self.enc.alloc(rows.size)
            encode_state_rows(obs, rows, seats, self._leaves, engine.native, self.enc.flags)
            scale = engine.rules.stakes.per_tai / self.net.reward_scale  # the value head: tai x reward_scale
            chips.reshape(-1)[rows] += scale * self.net.values(obs).astype(np.float64)
        out = cands[:, 0].copy()
        means = np.full((G, n), np.nan)
        for i in np.flatnonzero(done > 0):
            nc = int((cands[i] >= 0).sum())
            best, means[i, :nc] = choose(chips[i, : done[i], :nc], log_w[i, : done[i]], self.z, self.m)
            out[i] = cands[i, best]
            self.changed += best != 0
        return out, means

    def hand_q(self, engine, games: np.ndarray) -> np.ndarray | None:
        """(G, 3, 34) the hand model's weights for the seats to decide (None without ``hm``)."""
        if self.hm is None:
            return None
        from agents.hand_model import unseen

        seats = engine.current_player[games].astype(np.int64)
        planes = self.hm_enc.encode_rows(engine, self.hm_enc.alloc(games.size), games, seats)
        return self.hm.weights(planes, unseen(planes), self.ha)

    def net_candidates(self, engine, games: np.ndarray) -> np.ndarray:
        """(G, n) the network's ``n`` most probable legal actions per game, best first, -1 past the legal
        ones (ties: the lower action first, as the network's own ``argmax``)."""
        seats = engine.current_player[games].astype(np.int64)
        obs = self.enc.encode_rows(engine, self.enc.alloc(games.size), games, seats)
        mask = engine.legal_action_mask[games]
        return top_candidates(self.net.logits(obs, mask), mask, self.n)


def top_candidates(logits: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
    """(G, n) int64: each row's ``n`` highest-logit legal actions, best first, -1 past the legal ones
    (ties: the lower action first, as ``argmax``)."""
    order = np.argsort(-logits, axis=1, kind="stable")[:, :n]
    return np.where(np.take_along_axis(mask, order, axis=1), order, -1).astype(np.int64)


def check_oracle_rollout(rollout: str, name: str = "rollout") -> None:
    """The oracle's rollout policies: every ``ROLLOUTS`` entry but ``base`` (Greedy's ranking at the
    searching seat, which the oracle's callers do not use); ValueError naming ``name`` otherwise."""
    if rollout not in ROLLOUTS or rollout == "base":
        raise ValueError(f"{name} must be one of random, greedy, efficient, defensive, got {rollout!r}")


def defence_tables() -> tuple:
    """Defensive's (params, win_logit, ready_p) as the native search reads them (agents/greedy.py)."""
    from agents.greedy import READY_P, WIN_LOGIT, defence_array

    return defence_array(), np.ascontiguousarray(WIN_LOGIT, np.float64), np.ascontiguousarray(READY_P, np.float64)


def oracle_values(engine, games: np.ndarray, cands: np.ndarray, k: int, rollout: str, seeds: np.ndarray) -> np.ndarray:
    """(G, n) float64: the oracle search's mean chips of each game's candidates ``cands`` (G, n), -1
    padded, over ``k`` wall orders with the true hands kept (``search_batch`` with ``oracle=True``, the
    ``rollout`` policy at every seat); NaN past the candidates and where nothing was searched (a win
    first, a single candidate). Reads the hidden hands: for training targets and diagnostics."""
    check_oracle_rollout(rollout)
    games = np.ascontiguousarray(games, np.int64)
    values = np.empty(cands.shape, np.float64)
    out = np.empty(games.size, np.int64)
    defence = defence_tables() if rollout == "defensive" else None
    _core.search_batch(
        engine.s,
        games,
        seeds,
        k,
        cands.shape[1],
        ROLLOUTS[rollout],
        0.0,
        engine.native,
        out,
        values,
        cands,
        defence,
        False,
        0.0,
        0.0,
        True,
    )
    return values


LEAF_OPEN = 1  # search_leaves_batch's status of a leaf where the seat is to decide again (tw16/resample.hpp)


def choose(values: np.ndarray, log_w: np.ndarray, z: float, margin: float = 0.0) -> tuple[int, np.ndarray]:
    """The search's choice among candidates from their values (k determinizations, nc candidates; the
    base candidate first) and the determinizations' log importance weights (k,): (the index of the
    candidate of best weighted mean among those that beat the base one by more than ``z`` standard
    errors of the paired differences, their variance floored at 1 chip squared and the standard error
    over the weights' effective sample size, and by more than ``margin`` chips; the weighted means
    (nc,)). The native search's own rule (``envs._core.search_choose``: tw16/resample.hpp PairedMeans,
    which ``search_action`` accumulates its rollouts in). The margin is for the value head's errors: they are systematic (the same leaf hand is misjudged the
    same way under every determinization), so their paired differences have little spread and a z
    test alone passes them."""
    means = np.empty(values.shape[1], np.float64)
    best = _core.search_choose(
        np.ascontiguousarray(values, np.float64), np.ascontiguousarray(log_w, np.float64), z, margin, means
    )
    return int(best), means
