"""Luck terms of a hand, recorded during play: the control variates of ``agents.evaluation.variance``.

Every tile that enters a hand from the wall (a front draw, a flower or kong replacement from the
tail) is the tile at a wall position the game's past decides; under a uniformly shuffled wall it is
uniform among the tiles not drawn yet (``Engine.wall[head..tail]``, the dead wall included),
whatever the players did, because nobody has seen them. So for any function g of (what the table
holds before the draw, the tile drawn),

    luck = g(before, tile) - E[g(before, t)]   (t uniform over the undrawn tiles)

has conditional mean exactly zero: a martingale difference, for every policy (an agent that peeked
at the wall would break this; none does: ``agents.search`` resamples it). Sums of them over a hand
(a bounded number of draws) have mean zero too, and so do their products with any coefficient that
does not depend on the hand (``agents.evaluation.variance`` fits those on other walls).

The g here are cheap and read only concealed hands before the draw, with s0 = a hand's shanten
over the shapes the profile allows (``win_shanten``) and "late" = at most ``LATE`` tiles undrawn:

    win, win_late        the drawer's s0 = 0 and the tile completes its hand (a self-draw chance)
    ready, ready_late    the drawer's s0 = 1 and the tile makes it ready
    improve2, improve3   the drawer's s0 = 2, or >= 3, and the tile lowers its shanten
    flower               the tile is a flower (a tai of its own, and one more replacement draw)
    deal, keep           (the drawer) the tile is a winning tile of a ready other seat, and does
                         not / does lower the drawer's shanten (mostly discarded: a deal-in; or kept)
    fed, stolen          (each ready other seat) the same two events seen from the seat waiting

Each g is an indicator of the draw's outcome times an indicator of what is known before the draw,
so its expectation is the count of undrawn tiles that satisfy it over the count of undrawn tiles. The
deal is not counted: the exact expectation of a function of a 16-tile starting hand is not cheap, and
in duplicate play the starting hands of a wall are the same in its four seatings, so a deal term
summed over the seatings is the same for every agent: it cannot tell them apart.
"""

from __future__ import annotations

import numpy as np

# FLOWER: the flowers' column of the counts
from agents.evaluation.aivat import FLOWER, VERSIONS, Response, WinTai, candidate_features, centre
from envs import _core
from envs.obs.planes_v0 import engine_shapes
from envs.tiles import FLOWER_ID0, N_KINDS

FEATURES = (
    "win",
    "win_late",
    "ready",
    "ready_late",
    "improve2",
    "improve3",
    "flower",
    "deal",
    "keep",
    "fed",
    "stolen",
    "deal_next",
    "fed_next",
)
LATE = 48  # undrawn tiles (dead wall included) at or below which a win or ready draw counts as late
N_FEATURES = len(FEATURES)


def undrawn_counts(wall: np.ndarray, head: np.ndarray, tail: np.ndarray) -> np.ndarray:
    """(B, 35) int64: per game the undrawn tiles ``wall[head..tail]`` by kind, flowers in column 34."""
    pos = np.arange(wall.shape[1])
    live = (pos >= head[:, None]) & (pos <= tail[:, None])
    kinds = np.where(wall >= FLOWER_ID0, FLOWER, wall >> 2).astype(np.int64)
    out = np.zeros((wall.shape[0], N_KINDS + 1), np.int64)
    np.add.at(out, (np.nonzero(live)[0], kinds[live]), 1)
    return out


def draw_parts(
    hands: np.ndarray,
    n_sets: np.ndarray,
    drawer: np.ndarray,
    undrawn: np.ndarray,
    shapes: int,
    with_hands: bool = False,
) -> dict:
    """What every candidate draw of D draws does, before the draw (``draw_luck`` and
    ``agents.evaluation.aivat`` read it): ``s0`` (D, 4) shanten of the concealed hands; ``s1`` (D, 34) the
    drawer's shanten with each kind added; ``better`` (D, 35) the kind lowers the drawer's shanten
    (flowers last: never); ``waits`` (D, 4, 35) the winning kinds of each ready other seat; ``ready``
    (D, 4) those seats; ``hit`` (D, 4, 35) the share of the drawer's predicted discards after the kind
    that are the seat's winning tiles (0 where nobody is ready). ``with_hands`` (the v2 AIVAT features):
    also ``hands`` (D, 4, 34) and ``better_all`` (D, 4, 34), the kinds that lower each seat's shanten."""
    D = hands.shape[0]
    rows = np.arange(D)
    h = hands[rows, drawer].astype(np.int8)
    s0 = _core.win_shanten_batch(hands.reshape(D * 4, N_KINDS).astype(np.int8), n_sets.reshape(-1), shapes).reshape(
        D, 4
    )
    # the drawer: which kinds would lower its shanten (a flower leaves the hand as it is)
    plus = np.repeat(h[:, None, :], N_KINDS, axis=1)  # (D, 34 kinds drawn, 34)
    k = np.arange(N_KINDS)
    full = h >= 4  # no fifth copy: such a kind is never undrawn, any value will do
    plus[:, k, k] += np.where(full, 0, 1).astype(np.int8)
    ns = n_sets[rows, drawer]
    s1 = _core.win_shanten_batch(plus.reshape(D * N_KINDS, N_KINDS), np.repeat(ns, N_KINDS), shapes).reshape(D, N_KINDS)
    better = np.zeros((D, N_KINDS + 1))
    better[:, :N_KINDS] = (s1 < s0[rows, drawer][:, None]) & ~full
    waits = np.zeros((D, 4, N_KINDS + 1))
    ready = (s0 == 0) & (np.arange(4)[None, :] != drawer[:, None])
    r_idx = np.nonzero(ready)
    if r_idx[0].size:
        hr = hands[r_idx].astype(np.int8)
        waits[r_idx[0], r_idx[1], :N_KINDS] = _core.win_wait_mask_batch(hr, n_sets[r_idx], hr, shapes)
    # the discard the draw leads to, predicted as uniform over the discards that keep the lowest
    # shanten (what an efficiency player does): the share of them that are a ready seat's winning tile
    hit = np.zeros((D, 4, N_KINDS + 1))
    some = np.flatnonzero(ready.any(axis=1))
    if some.size:
        ds = _core.discard_shanten_batch(plus[some].reshape(-1, N_KINDS), np.repeat(ns[some], N_KINDS))
        ds = ds.reshape(-1, N_KINDS, N_KINDS)  # (S, kind drawn, kind discarded)
        best = (ds == ds.min(axis=2, keepdims=True)).astype(np.float64)
        best /= best.sum(axis=2, keepdims=True)
        won = (s1[some] < 0) | full[some]  # a completed hand is won, not discarded from
        # (seat, kind drawn, a flower last: it leads to no discard)
        hit[some, :, :N_KINDS] = np.einsum("skd,sod->sok", best, waits[some, :, :N_KINDS]) * ~won[:, None, :]
    out = {"s0": s0, "s1": s1, "better": better, "waits": waits, "ready": ready, "hit": hit, "some": some}
    if with_hands:
        out["hands"] = hands
        out["better_all"] = _better_all(hands, n_sets, drawer, s0, better, shapes)
    return out


def _better_all(hands, n_sets, drawer, s0, better, shapes) -> np.ndarray:
    """(D, 4, 34) the kinds that lower each seat's shanten (the drawer's from ``better``; the other
    seats' 16-tile hands with each kind added, a fifth copy never)."""
    D = hands.shape[0]
    rows = np.arange(D)
    out = np.zeros((D, 4, N_KINDS))
    out[rows, drawer] = better[:, :N_KINDS]
    oth = (np.arange(4)[None, :] != drawer[:, None]).nonzero()  # (D * 3) seats
    h = hands[oth].astype(np.int8)
    plus = np.repeat(h[:, None, :], N_KINDS, axis=1)
    k = np.arange(N_KINDS)
    full = h >= 4
    plus[:, k, k] += np.where(full, 0, 1).astype(np.int8)
    s1 = _core.win_shanten_batch(plus.reshape(-1, N_KINDS), np.repeat(n_sets[oth], N_KINDS), shapes).reshape(
        -1, N_KINDS
    )
    out[oth] = (s1 < s0[oth][:, None]) & ~full
    return out


def draw_luck(
    hands: np.ndarray,
    n_sets: np.ndarray,
    drawer: np.ndarray,
    undrawn: np.ndarray,
    drawn: np.ndarray,
    shapes: int,
    parts: dict | None = None,
) -> np.ndarray:
    """(D, 4, N_FEATURES) luck of D draws for each seat: ``hands`` (D, 4, 34) the concealed counts
    before the draw, ``n_sets`` (D, 4) the sets they must supply, ``drawer`` (D,) the seat drawing,
    ``undrawn`` (D, 35) the undrawn tiles by kind before the draw (flowers last), ``drawn`` (D,) the
    kind drawn (34: a flower); ``parts``: ``draw_parts`` of the same draws, if already computed."""
    D = hands.shape[0]
    out = np.zeros((D, 4, N_FEATURES))
    if D == 0:
        return out
    p = draw_parts(hands, n_sets, drawer, undrawn, shapes) if parts is None else parts
    rows = np.arange(D)
    n = undrawn.sum(axis=1)
    s0, better, waits, ready = p["s0"], p["better"], p["waits"], p["ready"]
    level = np.minimum(s0[rows, drawer], 3)  # 0: win, 1: ready, 2, 3+ (a hand before a draw is never complete)
    col = np.array([0, 2, 4, 5])[level] + ((level <= 1) & (n <= LATE))  # win and ready: early / late
    out[rows, drawer, col] = _centred(better, undrawn, drawn, n)
    flower = np.zeros((D, N_KINDS + 1))
    flower[:, FLOWER] = 1
    out[rows, drawer, 6] = _centred(flower, undrawn, drawn, n)
    # the ready other seats: their winning tiles drawn by the drawer, who keeps one that helps its
    # hand and mostly discards one that does not (a deal-in)
    useless = 1 - better
    for o in range(4):
        out[:, o, 9] = np.where(ready[:, o], _centred(waits[:, o] * useless, undrawn, drawn, n), 0.0)
        out[:, o, 10] = np.where(ready[:, o], _centred(waits[:, o] * better, undrawn, drawn, n), 0.0)
    anyone = waits.max(axis=1)
    out[rows, drawer, 7] = _centred(anyone * useless, undrawn, drawn, n)
    out[rows, drawer, 8] = _centred(anyone * better, undrawn, drawn, n)
    some = p["some"]
    if some.size:
        hit = p["hit"][some]
        u, t, m = undrawn[some], drawn[some], n[some]
        for o in range(4):
            out[some, o, 12] = np.where(ready[some, o], _centred(hit[:, o], u, t, m), 0.0)
        out[some, drawer[some], 11] = _centred(np.minimum(hit.sum(axis=1), 1.0), u, t, m)
    return out


def _centred(hit: np.ndarray, undrawn: np.ndarray, drawn: np.ndarray, n: np.ndarray) -> np.ndarray:
    """hit[drawn] - E[hit[t]], t uniform over the undrawn tiles: ``hit`` (D, 35) a value per kind."""
    return hit[np.arange(len(drawn)), drawn] - (hit * undrawn).sum(axis=1) / n


class LuckRecorder:
    """Sums the luck of every draw per game and seat: ``luck`` (B, 4, N_FEATURES, one more with
    ``value``: the AIVAT term of ``agents.evaluation.aivat``). Make it after the deal
    (``arena.deal_played``) and call ``after_step()`` after every ``eng.step``; it finds the draws a
    step made from the moves of ``wall_head`` / ``wall_tail`` (one front draw, then replacements from
    the tail, all to the seat on turn). ``collect``: keep every draw's game and the AIVAT features of
    the state after it (``collected``: the training rows of ``agents.evaluation.aivat_train``).
    ``policies`` (v3 features: ``agents.evaluation.aivat.seat_policies``): the rule whose response each
    seat's V predicts (Defensive's everywhere if None)."""

    def __init__(self, eng, value=None, collect: bool = False, version: int | None = None, policies=None):
        self.eng = eng
        self.value, self.collect = value, collect
        # the AIVAT feature version: the value model's, else what ``collect`` keeps (the newest)
        self.version = value.version if value is not None else (version or max(VERSIONS))
        self.shapes = engine_shapes(eng)
        self.head = eng.wall_head.astype(np.int64)
        self.tail = eng.wall_tail.astype(np.int64)
        self.undrawn = undrawn_counts(eng.wall, self.head, self.tail)
        self.luck = np.zeros((eng.batch_size, 4, N_FEATURES + (value is not None)))
        self.collected: list[tuple[np.ndarray, np.ndarray]] = []
        self.tai = None  # the scorer of candidate wins (v2 features), made at the first draw
        self.response = Response(eng, policies) if self.version >= 3 else None
        self.draws = 0

    def restart(self, which: np.ndarray) -> None:
        """Games ``which`` (bool (B,)) were dealt again (a new hand in the same rows, as PPO's rollout
        does): read their wall afresh; the luck summed so far is kept (``take`` clears it)."""
        eng = self.eng
        rows = np.flatnonzero(which)
        if rows.size == 0:
            return
        self.head[rows] = eng.wall_head[rows]
        self.tail[rows] = eng.wall_tail[rows]
        self.undrawn[rows] = undrawn_counts(eng.wall[rows], self.head[rows], self.tail[rows])

    def take(self) -> np.ndarray:
        """The luck summed since the last ``take`` (B, 4, K), and the sums set back to zero (PPO's
        rollout reads each step's draws this way)."""
        out = self.luck.copy()
        self.luck[:] = 0
        return out

    def after_step(self) -> None:
        eng = self.eng
        head, tail = eng.wall_head, eng.wall_tail
        moved = np.flatnonzero((head != self.head) | (tail != self.tail))
        if moved.size == 0:
            return
        front = head[moved] - self.head[moved]  # 0 or 1
        n_draws = front + self.tail[moved] - tail[moved]
        seats = eng.turn_seat[moved].astype(np.int64)
        wall = eng.wall
        # the wall positions drawn, in order: the front one, then tail, tail - 1, ...
        j = np.arange(n_draws.max())
        pos = np.where(
            (j == 0) & (front[:, None] == 1), self.head[moved, None], self.tail[moved, None] - (j - front[:, None])
        )
        valid = j < n_draws[:, None]
        tiles = wall[moved[:, None], np.where(valid, pos, 0)].astype(np.int64)
        kinds = np.where(tiles >= FLOWER_ID0, FLOWER, tiles >> 2)
        # a chain is flowers then at most one playing tile (the last draw): before each draw of the
        # chain the hand is the hand now without that tile
        last = kinds[np.arange(moved.size), n_draws - 1]
        hands = eng.hands[moved].astype(np.int64)  # (moved, 4, 34)
        got = np.flatnonzero(last != FLOWER)
        hands[got, seats[got], last[got]] -= 1
        n_sets = 5 - eng.n_melds[moved].astype(np.int64)
        g_idx, d_idx = np.nonzero(valid)  # draws by game, then in order
        undrawn = self.undrawn[moved][g_idx].copy()
        # undrawn before draw d = undrawn before the step minus the chain's earlier draws
        for d in range(1, int(n_draws.max())):
            later = d_idx >= d
            np.subtract.at(undrawn, (np.flatnonzero(later), kinds[g_idx[later], d - 1]), 1)
        drawer, drawn = seats[g_idx], kinds[g_idx, d_idx]
        aivat = self.value is not None or self.collect
        parts = draw_parts(
            hands[g_idx], n_sets[g_idx], drawer, undrawn, self.shapes, with_hands=aivat and self.version >= 2
        )
        luck = draw_luck(hands[g_idx], n_sets[g_idx], drawer, undrawn, drawn, self.shapes, parts=parts)
        if aivat:
            if self.response is not None:
                # the drawer's hand before the step's draws, and what they move (the response's inputs)
                parts["chain"] = (
                    hands[g_idx, drawer],
                    np.where(last == FLOWER, -1, last)[g_idx],
                    n_draws[g_idx] - 1 - d_idx,
                )
            luck = self._aivat(parts, moved, g_idx, d_idx, tiles, valid, drawer, undrawn, drawn, luck)
        np.add.at(self.luck, moved[g_idx], luck)
        np.subtract.at(self.undrawn, (moved[g_idx], kinds[g_idx, d_idx]), 1)
        self.draws += len(g_idx)
        self.head[moved] = head[moved]
        self.tail[moved] = tail[moved]

    def _aivat(self, parts, moved, g_idx, d_idx, tiles, valid, drawer, undrawn, drawn, luck):
        """The AIVAT term of each draw appended to its luck (and the training rows kept)."""
        eng = self.eng
        # the flowers each seat had before each draw: those now, less the chain's flowers from it on
        # (the chain's later draws must not reach V: it would no longer be centred on this draw)
        is_flower = (tiles >= FLOWER_ID0) & valid
        flower_bit = np.where(is_flower, np.left_shift(1, np.clip(tiles - FLOWER_ID0, 0, 7)), 0)
        later = np.bitwise_or.accumulate(flower_bit[:, ::-1], axis=1)[:, ::-1]  # bits at chain index >= d
        bits = eng.flowers[moved].astype(np.int64)[g_idx]
        rows = np.arange(len(g_idx))
        bits[rows, drawer] &= ~later[g_idx, d_idx]
        flowers = np.zeros(bits.shape)
        for b in range(8):
            flowers += (bits >> b) & 1
        dealer = eng.dealer[moved][g_idx].astype(np.int64)
        if self.version >= 2:
            if self.tai is None:
                self.tai = WinTai(eng.native)
            parts["tai"] = self.tai.table(
                parts,
                drawer,
                eng.melds[moved][g_idx],
                eng.n_melds[moved][g_idx],
                bits,
                dealer,
                eng.round_wind[moved][g_idx],
            )
        if self.response is not None:
            before, shift, back = parts["chain"]
            hot = parts["waits"].max(axis=1)[:, :N_KINDS]  # the kinds some ready other seat waits on
            decision = self.response.decisions(moved[g_idx], drawer, before, shift, back, hot)
            streak = eng.streak[moved][g_idx].astype(np.float64)
            parts["response"] = self.response.events(decision, parts, drawer, dealer, streak)
        f = candidate_features(
            parts,
            drawer,
            undrawn,
            dealer,
            flowers,
            eng.n_melds[moved][g_idx].astype(np.int64),
            self.version,
        )
        if self.collect:
            self.collected.append((moved[g_idx], f[np.arange(len(drawn)), :, drawn]))
        if self.value is None:
            return luck
        return np.concatenate([luck, centre(self.value(f), undrawn, drawn)[:, :, None]], axis=2)
