"""Rule-based baselines: Greedy (tile efficiency) and Defensive (Greedy that folds against a threat).

Greedy, per decision:
- wins whenever it can; declares ready (報聽) whenever the rules offer it;
- discards: lowest shanten first, then the most unseen tiles that would lower it (受入, unseen =
  4 minus every copy this seat can see), then the tile with the fewest neighbours in hand;
- claims (chi / pon / exposed kong) only when the best hand after the claim has a lower shanten than
  now; self kongs when they do not raise the shanten.

Defensive adds, on its own turn: an opponent is a threat when it declared ready, or has
``threat_melds`` (default 3) or more melds, or has ``late_melds`` (2) melds with at most ``late_wall``
(32) drawable tiles left. Every tile gets a danger against each threat (``_tile_danger``): 0 if the
threat let it pass since its hand last changed, otherwise the number of ways a hidden hand could wait
on it (two-sided, edge and closed waits, pair and single waits, weighted by unseen copies), halved
for a tile the threat discarded itself (現物; this game has no furiten, so that is not a guarantee).
Facing a threat while its best shanten after the discard is at least ``fold_shanten`` (2), it folds:
the least dangerous discard first (only if one is at most ``fold_danger``), efficiency breaking ties;
with ``dodge`` > 0 it also prefers safer tiles of equal shanten when not folding. Against a threat,
danger always breaks efficiency ties.

The thresholds were chosen by duplicate play against Greedy (``python -m training.tune_defence``,
48 settings, 300-1000 walls each): folding earlier (``fold_shanten`` 1) cuts the deal-in rate from
19% to 14% but the win rate from 24.6% to 21%, a net loss of 1-3 chips per hand, and no setting
beat Greedy by more than its 95% interval. In this game a deal-in costs about what the same winner's
self-draw would, and nearly every hand ends in a win, so folding mostly gives up one's own wins.
All decisions are deterministic given the observation (the seed only matters for interface parity).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from agents.base import check_batch
from agents.efficiency import best_after_discard as _best_after_discard, ukeire as _ukeire
from agents.features import decode
from envs.engine.actions import CHI, DISCARD, KONG, N_ACTIONS, PASS, PON, READY, SELF_KONG, WIN
from envs.hand.analysis import shanten

BIG = 1 << 30  # "none yet" for shanten, danger and sort keys (a danger can exceed 150)
# defence thresholds, in the order act_kernel reads them: see the module docstring
DEFENCE_DEFAULTS = {"threat_melds": 3, "late_melds": 2, "late_wall": 32, "fold_shanten": 2, "fold_danger": 999, "dodge": 0}


@njit(cache=True)
def _neighbours(hand, d):
    """How connected tile ``d`` is in hand (copies count double): low = a good discard."""
    v = 2 * (hand[d] - 1)
    if d < 27:
        r = d % 9
        for off in (-2, -1, 1, 2):
            if 0 <= r + off < 9:
                v += hand[d + off] * (2 if abs(off) == 1 else 1)
    return v


@njit(cache=True)
def _u(unseen, d, off):
    """Unseen copies of the kind ``off`` ranks from ``d`` in its suit (0 off the suit or for honours)."""
    if d >= 27:
        return 0
    r = d % 9 + off
    return unseen[d + off] if 0 <= r < 9 else 0


@njit(cache=True)
def _tile_danger(d, passed_by_threat, disc_by_threat, unseen):
    """How many ways a hidden hand could wait on ``d``: two-sided and edge waits (the two tiles on
    either side), closed waits (both neighbours), a pair waiting for its third copy and a single wait,
    each counted with the unseen copies of the tiles it needs. No furiten in this game, so a tile the
    threat discarded itself (現物) only halves it; a tile it let pass since its hand last changed is 0."""
    if passed_by_threat[d] > 0:
        return 0
    u = unseen[d]
    v = u * (u - 1) + u + 1  # pair + single (+1: nothing is certain)
    v += 4 * (_u(unseen, d, -2) * _u(unseen, d, -1) + _u(unseen, d, 1) * _u(unseen, d, 2))
    v += 2 * _u(unseen, d, -1) * _u(unseen, d, 1)
    return v // 2 if disc_by_threat[d] > 0 else v


@njit(cache=True)
def _discard(hand, n_sets, unseen, mask, danger, folding, dodge):
    """Choose a discard: (danger if folding, shanten, -ukeire, danger, neighbours, kind) lexicographically
    (``danger`` is all zeros when nobody threatens)."""
    best_a = -1
    best_key = (BIG, BIG, BIG, BIG, BIG, BIG)
    for d in range(34):
        if not mask[DISCARD + d]:
            continue
        hand[d] -= 1
        s = shanten(hand, n_sets)
        u = _ukeire(hand, n_sets, s, unseen) if s >= 0 else 0
        hand[d] += 1
        key = (danger[d] if folding else 0, s, danger[d] // dodge if dodge > 0 else 0, -u, danger[d], _neighbours(hand, d))
        if key < best_key:
            best_key = key
            best_a = DISCARD + d
    return best_a


@njit(cache=True)
def _claim(hand, n_sets, t, mask):
    """Pon / kong / chi on tile ``t`` only if it lowers the shanten; else pass."""
    cur = shanten(hand, n_sets)
    best_a = PASS
    best_s = cur
    if mask[PON]:
        hand[t] -= 2
        s = _best_after_discard(hand, n_sets - 1)
        hand[t] += 2
        if s < best_s:
            best_s, best_a = s, PON
    if mask[KONG]:
        hand[t] -= 3
        s = shanten(hand, n_sets - 1)
        hand[t] += 3
        if s < best_s:
            best_s, best_a = s, KONG
    for pos in range(3):
        if not mask[CHI + pos]:
            continue
        a, b = (t + 1, t + 2) if pos == 0 else ((t - 1, t + 1) if pos == 1 else (t - 2, t - 1))
        hand[a] -= 1
        hand[b] -= 1
        s = _best_after_discard(hand, n_sets - 1)
        hand[a] += 1
        hand[b] += 1
        if s < best_s:
            best_s, best_a = s, CHI + pos
    return best_a


@njit(cache=True)
def _turn(hand, n_sets, unseen, mask, danger, folding, dodge):
    s0 = _best_after_discard(hand, n_sets) if hand.sum() % 3 == 2 else shanten(hand, n_sets)
    for k in range(34):
        if not mask[SELF_KONG + k]:
            continue
        if hand[k] == 4:  # concealed kong: the concealed part loses a set
            hand[k] -= 4
            s = shanten(hand, n_sets - 1)
            hand[k] += 4
        else:  # added kong: the pon was already a meld
            hand[k] -= 1
            s = shanten(hand, n_sets)
            hand[k] += 1
        if s <= s0:
            return SELF_KONG + k
    a = _discard(hand, n_sets, unseen, mask, danger, folding, dodge)
    if a >= 0:
        return a
    for x in range(N_ACTIONS):  # nothing efficient is legal (e.g. a ready-pending phase): first legal
        if mask[x]:
            return x
    return PASS


@njit(cache=True, parallel=True)
def act_kernel(hand, n_melds, unseen, opp_melds, opp_ready, opp_disc, opp_passed, tiles_left, claim_tile, mask,
               defence, out):  # fmt: skip
    """``defence`` int64 (6,): threat_melds, late_melds, late_wall, fold_shanten, fold_danger, dodge
    (threat_melds 0 = Greedy)."""
    for b in prange(mask.shape[0]):
        m = mask[b]
        if m[WIN]:
            out[b] = WIN
            continue
        if m[READY]:
            out[b] = READY
            continue
        h = hand[b].copy()
        n_sets = 5 - n_melds[b]
        if claim_tile[b] >= 0 and (m[PASS] and not m[DISCARD:CHI].any()):
            out[b] = _claim(h, n_sets, claim_tile[b], m)
            continue
        danger = np.zeros(34, np.int64)
        folding = False
        if defence[0] > 0:
            threat = np.zeros(34, np.int64)
            for o in range(3):
                if opp_ready[b, o] or opp_melds[b, o] >= defence[0] or (
                    opp_melds[b, o] >= defence[1] and tiles_left[b] <= defence[2]
                ):
                    folding = True
                    for d in range(34):
                        td = _tile_danger(d, opp_passed[b, o], opp_disc[b, o], unseen[b])
                        if td > threat[d]:
                            threat[d] = td
            if folding and h.sum() % 3 == 2 and _best_after_discard(h, n_sets) < defence[3]:
                folding = False  # close enough to winning: push
            if folding:
                safest = BIG
                for d in range(34):
                    if m[DISCARD + d] and threat[d] < safest:
                        safest = threat[d]
                folding = safest <= defence[4]  # no tile safe enough: folding would only cost speed
            danger = threat
        out[b] = _turn(h, n_sets, unseen[b], m, danger, folding, defence[5])


class GreedyAgent:
    """Tile efficiency; see the module docstring."""

    name = "greedy"

    def __init__(self, seed: int | None = 0):
        self.defence = np.zeros(len(DEFENCE_DEFAULTS), np.int64)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        obs, mask = check_batch(obs, mask)
        f = decode(obs)
        out = np.empty(mask.shape[0], np.int64)
        act_kernel(f.hand, f.n_melds, f.unseen, f.opp_melds, f.opp_ready, f.opp_disc, f.opp_passed, f.tiles_left, f.claim_tile,
                   mask, self.defence, out)  # fmt: skip
        return out


class DefensiveAgent(GreedyAgent):
    """Greedy plus folding against a threatening opponent; see the module docstring."""

    name = "defensive"

    def __init__(self, seed: int | None = 0, **thresholds: int):
        super().__init__(seed)
        unknown = set(thresholds) - set(DEFENCE_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown defence threshold(s) {sorted(unknown)}; known: {list(DEFENCE_DEFAULTS)}")
        params = {**DEFENCE_DEFAULTS, **thresholds}
        if params["threat_melds"] < 1:
            raise ValueError("threat_melds must be >= 1")
        self.defence = np.array([params[k] for k in DEFENCE_DEFAULTS], np.int64)
