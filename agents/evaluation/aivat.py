"""AIVAT for the draws: a value function V of the state after a draw, centred over the tiles that
could have been drawn, as one more control variate of ``agents.evaluation.variance``.

For each draw (front draw, flower or kong replacement) and each seat o,

    term_o = V_o(state after the tile drawn) - sum_k undrawn[k] / n * V_o(state after kind k)

where ``undrawn`` counts the tiles not drawn yet by kind (flowers one kind). Under a uniformly
shuffled wall the drawn tile is uniform over the undrawn ones whatever the players did, so the term
has conditional mean exactly zero for ANY fixed V (``centre`` makes the weighted mean of the terms
over the candidates exactly 0: tests/test_aivat.py), and its sum over a hand is a sum of martingale
differences. V must not depend on the walls it corrects: it is a small MLP trained once by
``python -m agents.evaluation.aivat_train`` on self-play hands of other seeds and shipped as
``agents/evaluation/aivat_vN.npz`` (``DEFAULT`` is the one ``--vr aivat`` reads; every version stays
loadable as ``--vr aivatN``; numbers only: loaded with ``allow_pickle=False``).

V_o reads hand-crafted features of the state after the candidate draw (``candidate_features``,
computed from ``agents.evaluation.luck.draw_parts``, the same enumeration of candidate draws the luck terms
use): the seat's shanten after the draw, who draws and who deals, the stage of the wall, whether
the kind is a ready seat's winning tile that the drawer keeps or (likely) discards, the share of the
drawer's predicted discards that deal in, the seat's flowers and melds, the ready seats around it
and the winning tiles it has left; and what the draw does to the drawer (completes its hand, makes
it ready, lowers its shanten, is a flower), which every seat sees; then
the same features of the drawer (its flowers, melds, danger: what its draw is worth to the others).
Version 2 adds what the full state tells (``FULL``, ``full_features``): every seat's concealed tiles
give the winning tiles the others hold, the danger a seat holds, its ukeire; the engine's scorer
(``WinTai``) gives the tai of each candidate win. Version 3 adds the drawer's immediate response
(``Response``: its rule's decision after each candidate, read from the state; a self-draw or a discard
a ready seat waits on settled exactly), and V adds those chips to the MLP. Version 4 shows V_o the
whole table (``whole_table``: the own features of the next, opposite and previous seat too) and
centres the MLP's outputs over the four seats (``ValueModel.zero_sum``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from envs._core import score_hand
from envs.engine.state import MC_KIND, MC_TYPE
from envs.scoring.codes import N_ITEMS, WIN_DISCARD, WIN_SELF_DRAW
from envs.tiles import N_KINDS

FLOWER = N_KINDS  # the column of the flowers in the undrawn-tile counts (agents.evaluation.luck counts them there too)

FEATURES = (
    "sh_win",
    "sh_0",
    "sh_1",
    "sh_2",
    "sh_3",
    "drawer",
    "dealer",
    "drawer_dealer",
    "stage",
    "fed",
    "stolen",
    "deal",
    "keep",
    "fed_next",
    "deal_next",
    "flower",
    "flowers",
    "melds",
    "others_ready",
    "waits_left",
    "d_win",
    "d_ready",
    "d_better",
    "d_flower",
)
# v2: what the full state adds (every seat's concealed tiles, not only shanten classes), per seat
# after the candidate draw, then the same of the drawer
FULL = (
    "held_waits",  # the seat's winning tiles held in the other seats' concealed hands (likely fed to it)
    "danger",  # tiles in the seat's concealed hand that are a ready other seat's winning tile
    "wait_kinds",  # how many kinds the (ready) seat waits on
    "ukeire",  # undrawn tiles that lower the seat's shanten (its 16-tile hand; the candidate taken out)
    "s_far",  # the seat's shanten beyond 3, scaled (the classes stop at 3)
    "win_tai",  # the hand tai the seat wins with the candidate (the drawer: self-drawn; a ready seat: fed it)
    "hand_tai",  # a ready seat's hand tai, averaged over its winning kinds (what its hand is worth)
)
# v3: the drawer's immediate response to the candidate (``Response``: its own policy's decision read
# from the state, settled exactly when it wins or deals in), per seat, then the same of the drawer
RESPONSE = (
    "ev_win",  # the seat wins at once: the drawer's self-drawn win, or a ready seat fed the predicted discard
    "ev_pay",  # the seat pays that win (the drawer dealing in; the three others of a self-draw)
    "ev_chips",  # the chips the seat gets from that win, / CHIPS (V adds them unscaled: ``ValueModel``)
)
CHIPS = 100.0  # the ev_chips feature is chips / CHIPS
TAI = 10.0  # the tai features are tai / TAI
VERSIONS = (1, 2, 3, 4)
MODELS = {v: Path(__file__).with_name(f"aivat_v{v}.npz") for v in VERSIONS}
# the V ``--vr aivat`` reads: a new version becomes it only by the rule docs/evaluation.md declares
# (narrower than the default's on both 1,000-wall matches); ``--vr aivatN`` reads any version
DEFAULT = 3
MODEL = MODELS[DEFAULT]
VR_CHOICES = ("luck", "aivat", *(f"aivat{v}" for v in VERSIONS))  # the ``--vr`` choices of the CLIs
STAGE = 100.0  # undrawn tiles at the deal, about: the stage feature is undrawn / STAGE


def model_for(vr) -> int | None:
    """The V version a ``--vr`` choice reads: "aivat" the newest, "aivatN" the vN file; None for the
    luck terms alone ("luck", True) or no correction."""
    if not isinstance(vr, str):
        return None
    return {"aivat": DEFAULT, **{f"aivat{v}": v for v in VERSIONS}}.get(vr)


def n_inputs(version: int) -> int:
    """V's input width: a seat's ``FEATURES`` and the drawer's (v1), then ``FULL`` of both (v2), then
    ``RESPONSE`` of both (v3), then the three other seats' own blocks (v4, ``whole_table``)."""
    if version not in VERSIONS:
        raise ValueError(f"aivat value model: unknown feature version {version} (known: {VERSIONS})")
    n = 2 * len(FEATURES) + (2 * len(FULL) if version >= 2 else 0) + (2 * len(RESPONSE) if version >= 3 else 0)
    return n + (3 * len(OWN) if version >= 4 else 0)


def chips_column(version: int) -> int | None:
    """The input column of the seat's ``ev_chips`` (v3 on), which ``ValueModel`` adds to the MLP's output."""
    return 2 * len(FEATURES) + 2 * len(FULL) + RESPONSE.index("ev_chips") if version >= 3 else None


N_IN = n_inputs(1)
# the columns of a seat's own features in the v3 layout (``FEATURES``, ``FULL``, ``RESPONSE``; the
# drawer's copies left out): v4 appends these of the next, opposite and previous seat
_V1, _V2 = 2 * len(FEATURES), 2 * len(FEATURES) + 2 * len(FULL)
OWN = np.r_[0 : len(FEATURES), _V1 : _V1 + len(FULL), _V2 : _V2 + len(RESPONSE)]
TABLE_BASE = _V2 + 2 * len(RESPONSE)  # the width ``whole_table`` reads: v3's
_AROUND = (np.arange(4)[:, None] + np.arange(1, 4)[None, :]) % 4  # seat o: o + 1, o + 2, o + 3


def whole_table(f: np.ndarray) -> np.ndarray:
    """The v4 rows from ``f`` (D, 4 seats, ..., ``TABLE_BASE``: v3's features): each
    seat's row followed by the own features (``OWN``) of the seats after it in play order (next,
    opposite, previous), so that V_o sees who is ready, fed or dealing in around o and who feeds whom."""
    if f.ndim < 3 or f.shape[1] != 4 or f.shape[-1] != TABLE_BASE:
        raise ValueError(f"whole_table: expected (D, 4, ..., {TABLE_BASE}) features, got {f.shape}")
    own = f[..., OWN]  # (D, 4, ..., len(OWN))
    around = np.moveaxis(own[:, _AROUND], 2, -2)  # (D, 4, ..., 3, len(OWN))
    return np.concatenate([f, around.reshape(*around.shape[:-2], -1)], axis=-1)


def candidate_features(
    parts: dict,
    drawer: np.ndarray,
    undrawn: np.ndarray,
    dealer: np.ndarray,
    flowers: np.ndarray,
    melds: np.ndarray,
    version: int = 2,
) -> np.ndarray:
    """(D, 4 seats, 35 candidate kinds, ``n_inputs(version)``) features of the state after each
    candidate draw (a seat's ``FEATURES``, then the drawer's; v2: then ``FULL`` of both):
    ``parts`` from ``agents.evaluation.luck.draw_parts`` (v2: with ``with_hands=True``), ``drawer``/``dealer``
    (D,), ``undrawn`` (D, 35) before the draw, ``flowers``/``melds`` (D, 4) counts of each seat's
    flowers and melds."""
    v1 = _features_v1(parts, drawer, undrawn, dealer, flowers, melds)
    if n_inputs(version) == v1.shape[-1]:
        return v1
    rows = np.arange(drawer.shape[0])
    e = full_features(parts, drawer, undrawn)
    blocks = [v1, e, np.repeat(e[rows, drawer][:, None], 4, axis=1)]
    if version >= 3:
        r = parts["response"]  # (D, 4, 35, len(RESPONSE)) from ``Response.events``
        blocks += [r, np.repeat(r[rows, drawer][:, None], 4, axis=1)]
    f = np.concatenate(blocks, axis=3)
    # v4's rows are 2.5 times wider: built in float32, V's precision (and the training rows')
    return whole_table(f.astype(np.float32)) if version >= 4 else f


def full_features(parts: dict, drawer: np.ndarray, undrawn: np.ndarray) -> np.ndarray:
    """(D, 4, 35, len(FULL)): ``FULL`` of each seat after each candidate kind, read from every seat's
    concealed tiles (``parts["hands"]`` before the draw; the drawer holds the candidate after it)."""
    D = drawer.shape[0]
    K = N_KINDS + 1
    hands = parts["hands"].astype(np.float64)  # (D, 4, 34)
    waits = parts["waits"][:, :, :N_KINDS]  # (D, 4, 34) ready other seats' winning kinds
    is_drawer = (np.arange(4)[None, :] == drawer[:, None]).astype(np.float64)  # (D, 4)
    cand = np.zeros((K, N_KINDS))
    cand[np.arange(N_KINDS), np.arange(N_KINDS)] = 1  # the candidate kind as a tile (a flower: none)
    e = np.zeros((D, 4, K, len(FULL)))
    # held by the others: all concealed tiles less the seat's own, plus the candidate in the drawer's hand
    others = hands.sum(axis=1, keepdims=True) - hands  # (D, 4, 34)
    held = (
        np.einsum("dok,dok->do", waits, others)[:, :, None]
        + np.einsum("dok,ck->doc", waits, cand) * (1 - is_drawer)[:, :, None]
    )
    e[..., 0] = held / 8.0
    # danger: the seat's tiles that some ready other seat waits on (the candidate counts for the drawer)
    hot = np.stack([np.delete(waits, o, axis=1).max(axis=1) for o in range(4)], axis=1)  # (D, 4, 34)
    own = np.einsum("dok,dok->do", hot, hands)[:, :, None]
    e[..., 1] = (own + np.einsum("dok,ck->doc", hot, cand) * is_drawer[:, :, None]) / 4.0
    e[..., 2] = (waits.sum(axis=2) / 5.0)[:, :, None]
    better = parts["better_all"]  # (D, 4, 34) kinds that lower each seat's shanten (16-tile hands)
    uk = np.einsum("dok,dk->do", better, undrawn[:, :N_KINDS].astype(np.float64))[:, :, None]
    e[..., 3] = (uk - np.einsum("dok,ck->doc", better, cand)) / 30.0
    e[..., 4] = (np.maximum(parts["s0"] - 3, 0) / 3.0)[:, :, None]
    tai = parts["tai"]  # (D, 4, 35)
    e[..., 5] = tai / TAI
    wins = tai > 0
    e[..., 6] = (tai.sum(axis=2) / np.maximum(wins.sum(axis=2), 1) / TAI)[:, :, None]
    return e


class WinTai:
    """The hand tai of every candidate win (``table``), through the engine's scorer
    (``envs._core.score_hand``) with the rules compiled once (``Engine.native``). The context flags (last
    tile, kong replacement, early wins) are left out: V only needs a price, and any fixed V keeps
    the term's mean at zero. A ready hand is scored once per (hand, melds, flowers, winds, how won)."""

    LIMIT = 200_000  # cached hands, then the cache starts again (bounded memory on long runs)

    def __init__(self, native_rules):
        self.rules = native_rules  # envs._core.Rules
        self.cache: dict = {}
        self.items = np.zeros(N_ITEMS, np.int32)

    def table(self, parts, drawer, melds, n_melds, flower_bits, dealer, round_wind) -> np.ndarray:
        """(D, 4, 35): the tai of the drawer's self-drawn win on each kind that completes its hand,
        and of each ready other seat's win on each of its winning kinds (0 elsewhere)."""
        D = drawer.shape[0]
        out = np.zeros((D, 4, N_KINDS + 1))
        hands = parts["hands"]
        s0, s1, waits = parts["s0"], parts["s1"], parts["waits"]
        rows = np.arange(D)
        ready_drawer = np.flatnonzero(s0[rows, drawer] == 0)
        todo = [(d, int(drawer[d]), s1[d] < 0, WIN_SELF_DRAW) for d in ready_drawer]
        todo += [(d, o, waits[d, o, :N_KINDS] > 0, WIN_DISCARD) for d, o in zip(*np.nonzero(parts["ready"]))]
        for d, o, kinds, how in todo:
            args = (
                hands[d, o].astype(np.int8),
                melds[d, o, :, MC_TYPE].astype(np.int8),
                melds[d, o, :, MC_KIND].astype(np.int8),
                int(n_melds[d, o]),
                int(flower_bits[d, o]),
                how,
                int((o - dealer[d]) % 4),
                int(round_wind[d]),
            )
            out[d, o, :N_KINDS] = self.hand(args, kinds)
        return out

    def hand(self, args, kinds: np.ndarray) -> np.ndarray:
        """(34,) tai of one hand winning on each of ``kinds`` (bool (34,)), cached."""
        conc, mt, mk, nm, fl, how, sw, rw = args
        key = (conc.tobytes(), mt[:nm].tobytes(), mk[:nm].tobytes(), fl, how, sw, rw, kinds.tobytes())
        got = self.cache.get(key)
        if got is None:
            got = np.zeros(N_KINDS)
            for k in np.flatnonzero(kinds):
                c = conc.copy()
                c[k] += 1
                try:
                    got[k] = max(score_hand(c, mt, mk, nm, fl, int(k), how, sw, rw, 0, self.rules, self.items), 0)
                except ValueError:  # a fifth copy (the kind is all in the hand and its melds): never drawn
                    got[k] = 0
            if len(self.cache) >= self.LIMIT:
                self.cache.clear()
            self.cache[key] = got
        return got


def seat_policies(agents, seat_agent: np.ndarray) -> np.ndarray:
    """(B, 4) the index into ``POLICIES`` of the rule whose discard ``Response`` predicts for each seat:
    the seat's own agent when it is Greedy or Defensive (its decision is ``act_kernel`` of the state),
    Greedy's for any other agent (the network, Random, search: a fixed stand-in, not their own; the
    shipped networks discard as Greedy does more often than as Defensive: ppo_v1 sampling, 88.6%
    against 77.9% of 2,464 discards)."""
    own = np.array([0 if getattr(a, "name", "") == "defensive" else 1 for a in agents])
    return own[np.asarray(seat_agent)]


NONE = -2  # ``Response.decisions``: a discard that no ready seat waits on (the rule need not be asked)
POLICIES = ("defensive", "greedy")  # the rules ``Response`` can predict with (``seat_policies`` indexes them)


class Response:
    """The drawer's immediate response to each candidate draw, priced exactly where it ends the hand
    (``events``). The drawer's decision is its policy's (``seat_policies``: Greedy's or Defensive's
    ``act_kernel``, deterministic) on the drawer's observation with the candidate in its hand; the
    legal actions offered are the discards of the kinds held and the win when the hand is complete
    (kongs are not offered: a stand-in's prediction need not be exact, any fixed V keeps the term
    centred). A discard that a ready other seat waits on is its win (the nearest seat after the
    drawer: one winner, as the default rules), settled by the stakes (base + per_tai x (hand tai +
    the dealer tai when the dealer wins or pays)) with the hand tai of ``WinTai``; a self-draw the
    same from each of the three others."""

    def __init__(self, eng, policies: np.ndarray | None = None):
        from agents.greedy import DEFENCE_DEFAULTS, defence_array
        from envs.obs.planes_v0 import PlanesV0, engine_shapes

        self.eng = eng
        self.policies = np.zeros((eng.batch_size, 4), np.int64) if policies is None else np.asarray(policies)
        if self.policies.shape != (eng.batch_size, 4) or not np.isin(self.policies, range(len(POLICIES))).all():
            raise ValueError(f"policies must be ({eng.batch_size}, 4) indices into {POLICIES}")
        # the rules' defence arrays in POLICIES' order (Greedy's: all zero, as GreedyAgent's)
        self.params = [defence_array(), np.zeros(len(DEFENCE_DEFAULTS))]
        self.enc = PlanesV0()
        self.shapes = engine_shapes(eng)
        stakes = eng.rules.stakes
        self.base, self.per_tai = float(stakes.base), float(stakes.per_tai)

    def decisions(self, games, seats, hands, shift, tiles_back, hot) -> np.ndarray:
        """(D, 34) what seat ``seats[d]`` of game ``games[d]`` does after drawing each kind: -1 the win,
        ``NONE`` a discard no ready seat waits on, else the kind discarded. ``hands`` (D, 34) its
        concealed tiles before the draw, ``shift`` (D,) the kind of the last tile of the step's draws
        (added back to what it cannot see; -1: none), ``tiles_back`` (D,) draws made after this one in
        the step (added back to the tiles left), ``hot`` (D, 34) the kinds a ready other seat waits on.
        The rule is asked only where its answer can matter: a complete hand wins (both rules win
        whenever they can), and a hand holding no ``hot`` tile cannot deal in whatever it discards
        (the rule's kernel costs about 600 shanten evaluations a hand: asking it everywhere would
        cost 30 ms a hand)."""
        from envs._core import win_shanten_batch

        K = N_KINDS
        k = np.arange(K)
        hand = np.repeat(hands[:, None, :].astype(np.int8), K, axis=1)
        full = hand[:, k, k] >= 4  # a fifth copy is never drawn: any action will do
        hand[:, k, k] += np.where(full, 0, 1).astype(np.int8)
        n_melds = np.repeat(self.eng.n_melds[games, seats].astype(np.int64), K)
        complete = win_shanten_batch(hand.reshape(-1, K), 5 - n_melds, self.shapes).reshape(-1, K) < 0
        out = np.where(complete, -1, NONE)
        ask = ~complete & ((hand > 0) & (hot[:, None, :] > 0)).any(axis=2)
        if ask.any():
            d_i, k_i = np.nonzero(ask)
            out[d_i, k_i] = self._discards(games, seats, hand, shift, tiles_back, d_i, k_i)
        return out

    def _discards(self, games, seats, hand, shift, tiles_back, d_i, k_i) -> np.ndarray:
        """The kinds the rule of draw ``d_i`` discards after candidate ``k_i`` (its ``act_kernel`` on the
        drawer's observation, the candidate in hand, offered the discards of the kinds held)."""
        from agents.features import Features, decode
        from agents.greedy import rule_actions
        from envs.engine.actions import DISCARD, N_ACTIONS

        K = N_KINDS
        draws, row = np.unique(d_i, return_inverse=True)  # encode each draw's observation once
        obs = np.zeros((draws.size, *self.enc.shape), np.float32)
        self.enc.encode_rows(self.eng, obs, np.asarray(games[draws], np.int64), np.asarray(seats[draws], np.int64))
        f = decode(obs)
        unseen = f.unseen.astype(np.int16)
        sh = shift[draws]
        got = sh >= 0
        unseen[np.flatnonzero(got), sh[got]] += 1
        unseen = unseen[row]
        unseen[np.arange(row.size), k_i] -= 1
        h = np.ascontiguousarray(hand[d_i, k_i])
        mask = np.zeros((row.size, N_ACTIONS), bool)
        mask[:, DISCARD : DISCARD + K] = h > 0
        seen = Features(
            h,
            f.n_melds[row],
            np.clip(unseen, 0, 4).astype(np.int8),
            f.opp_melds[row],
            f.opp_ready[row],
            f.opp_disc[row],
            f.opp_passed[row],
            f.tiles_left[row] + tiles_back[d_i],
            np.full(row.size, -1, np.int64),
        )
        out = np.empty(row.size, np.int64)
        pol = self.policies[games[d_i], seats[d_i]]
        for p in np.unique(pol):
            at = np.flatnonzero(pol == p)
            rows = Features(*(np.ascontiguousarray(a[at]) for a in seen))
            out[at] = rule_actions(rows, np.ascontiguousarray(mask[at]), self.params[p])
        return out - DISCARD

    def _dealer_tai(self, streak: np.ndarray) -> np.ndarray:
        """The dealer tai (1 + 2N, N capped by the rules' ``streak_cap``) of each streak, from the rules."""
        from envs._core import dealer_tai

        n, at = np.unique(streak.astype(np.int64), return_inverse=True)
        return np.array([dealer_tai(int(v), self.eng.native) for v in n], np.float64)[at.reshape(-1)]

    def _leg(self, tai, dealer_tai, winner, payer, dealer) -> np.ndarray:
        """The chips one payer owes one winner: base + per_tai x (hand tai, plus the dealer tai when
        the dealer wins or pays), elementwise."""
        return self.base + self.per_tai * (tai + dealer_tai * ((winner == dealer) | (payer == dealer)))

    def events(self, decision, parts, drawer, dealer, streak) -> np.ndarray:
        """(D, 4, 35, len(RESPONSE)): ``RESPONSE`` of each seat after each candidate kind, from the
        drawer's ``decision`` (D, 34) (``decisions``), ``parts`` with ``tai`` (``WinTai.table``)."""
        D = drawer.shape[0]
        rows = np.arange(D)
        out = np.zeros((D, 4, N_KINDS + 1, len(RESPONSE)))
        dt = self._dealer_tai(streak)
        tai = parts["tai"]
        # self-draws: the drawer wins, each other seat pays its leg
        d_idx, k_idx = np.nonzero(decision == -1)
        s = drawer[d_idx]
        for o in range(4):
            pays = o != s
            leg = self._leg(tai[d_idx, s, k_idx], dt[d_idx], s, o, dealer[d_idx])
            out[d_idx[pays], o, k_idx[pays], 1] = 1
            out[d_idx[pays], o, k_idx[pays], 2] = -leg[pays] / CHIPS
            out[d_idx[pays], s[pays], k_idx[pays], 2] += leg[pays] / CHIPS
        out[d_idx, s, k_idx, 0] = 1
        # deal-ins: the nearest ready seat after the drawer that waits on the discard wins it
        disc = np.where(decision >= 0, decision, 0)
        open_ = decision >= 0
        for step in (1, 2, 3):
            o = (drawer + step) % 4
            hit = open_ & (parts["waits"][rows[:, None], o[:, None], disc] > 0)
            d_idx, k_idx = np.nonzero(hit)
            w, p, t = o[d_idx], drawer[d_idx], disc[d_idx, k_idx]
            leg = self._leg(tai[d_idx, w, t], dt[d_idx], w, p, dealer[d_idx])
            out[d_idx, w, k_idx, 0] = 1
            out[d_idx, w, k_idx, 2] = leg / CHIPS
            out[d_idx, p, k_idx, 1] = 1
            out[d_idx, p, k_idx, 2] = -leg / CHIPS
            open_ = open_ & ~hit
        return out


def _features_v1(parts, drawer, undrawn, dealer, flowers, melds) -> np.ndarray:
    """The v1 features (``FEATURES`` of a seat, then of the drawer): (D, 4, 35, 48)."""
    D = drawer.shape[0]
    K = N_KINDS + 1
    rows = np.arange(D)
    s0, s1, better, waits, hit = parts["s0"], parts["s1"], parts["better"], parts["waits"], parts["hit"]
    is_drawer = np.arange(4)[None, :] == drawer[:, None]  # (D, 4)
    sh = np.repeat(s0[:, :, None], K, axis=2).astype(np.int64)  # (D, 4, K): shanten after the draw
    d_sh = np.concatenate([s1, s0[rows, drawer][:, None]], axis=1)  # a flower leaves the hand as it is
    sh[rows, drawer] = np.where(better.astype(bool) | (np.arange(K) == FLOWER), d_sh, s0[rows, drawer][:, None])
    sh = np.clip(sh, -1, 3)
    f = np.zeros((D, 4, K, len(FEATURES)))
    f[..., :5] = sh[..., None] == np.arange(-1, 4)
    f[..., 5] = is_drawer[:, :, None]
    f[..., 6] = (np.arange(4)[None, :] == dealer[:, None])[:, :, None]
    f[..., 7] = (drawer == dealer)[:, None, None]
    n = undrawn.sum(axis=1)
    f[..., 8] = (n / STAGE)[:, None, None]
    useless = 1 - better  # (D, K)
    f[..., 9] = waits * useless[:, None, :]
    f[..., 10] = waits * better[:, None, :]
    anyone = waits.max(axis=1)
    f[rows, drawer, :, 11] = anyone * useless
    f[rows, drawer, :, 12] = anyone * better
    f[..., 13] = hit
    f[rows, drawer, :, 14] = np.minimum(hit.sum(axis=1), 1.0)
    f[rows, drawer, FLOWER, 15] = 1
    f[..., 16] = (flowers / 4.0)[:, :, None]
    f[..., 17] = (melds / 5.0)[:, :, None]
    ready_after = (sh <= 0).astype(np.float64)  # (D, 4, K)
    f[..., 18] = ready_after.sum(axis=1, keepdims=True) - ready_after
    # a ready other seat's winning tiles still undrawn after the candidate is drawn
    left = (waits * undrawn[:, None, :]).sum(axis=2, keepdims=True) - waits  # (D, 4, K)
    f[..., 19] = left / 20.0
    # what the draw does to the drawer, seen by every seat (a self-draw costs the others)
    d_after = sh[rows, drawer]  # (D, K)
    f[..., 20] = (d_after == -1)[:, None, :]
    f[..., 21] = (d_after == 0)[:, None, :]
    f[..., 22] = better[:, None, :]
    f[:, :, FLOWER, 23] = 1
    return np.concatenate([f, np.repeat(f[rows, drawer][:, None], 4, axis=1)], axis=3)


class ValueModel:
    """V: a small MLP (ReLU) from ``FEATURES`` to a seat's expected chips of the hand, in numpy."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], version: int = 1):
        self.version = int(version)
        self.n_in = n_inputs(self.version)
        if not weights or weights[0].shape[0] != self.n_in or len(weights) != len(biases):
            raise ValueError(f"aivat value model: expected {self.n_in} inputs and one bias per layer")
        for w, b, nxt in zip(weights, biases, [*weights[1:], None]):
            if w.ndim != 2 or b.shape != (w.shape[1],) or (nxt is not None and nxt.shape[0] != w.shape[1]):
                raise ValueError("aivat value model: layer shapes do not chain")
        if weights[-1].shape[1] != 1:
            raise ValueError("aivat value model: the last layer must have one output")
        # float32: the file's precision, and twice the speed of float64 on ~140 rows per draw
        self.weights = [np.asarray(w, np.float32) for w in weights]
        self.biases = [np.asarray(b, np.float32) for b in biases]

    @classmethod
    def load(cls, path: Path | str = MODEL) -> ValueModel:
        """Read an .npz of arrays w0, b0, w1, b1, ... and (v2 on) ``version``, the feature version (no
        pickles: a hostile file cannot run code; a v1 file has no ``version``)."""
        with np.load(path, allow_pickle=False) as z:
            n = sum(1 for k in z.files if k.startswith("w"))
            layers = [f"w{i}" for i in range(n)] + [f"b{i}" for i in range(n)]
            if sorted(set(z.files) - {"version"}) != sorted(layers):
                raise ValueError(f"{path}: expected arrays w0, b0, w1, b1, ..., got {sorted(z.files)}")
            version = 1
            if "version" in z.files:
                v = z["version"]
                if v.shape != () or v.dtype.kind not in "iu":
                    raise ValueError(f"{path}: version must be an integer scalar, got {v.dtype} {v.shape}")
                version = int(v)
            return cls([z[f"w{i}"] for i in range(n)], [z[f"b{i}"] for i in range(n)], version)

    def save(self, path: Path | str) -> None:
        arrays = {"version": np.int64(self.version)} if self.version > 1 else {}
        arrays.update({f"w{i}": w.astype(np.float32) for i, w in enumerate(self.weights)})
        arrays.update({f"b{i}": b.astype(np.float32) for i, b in enumerate(self.biases)})
        np.savez(path, **arrays)

    @property
    def zero_sum(self) -> bool:
        """v4 on: the MLP's outputs are centred over the four seats of a state (chips are zero-sum, and
        so is the offset), so V needs the seats together: ``x`` (D, 4 seats, ..., n_in)."""
        return self.version >= 4

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """V of every row of ``x`` (..., n_in) -> (...); a ``zero_sum`` model reads (D, 4, ..., n_in)."""
        if x.shape[-1] != self.n_in or (self.zero_sum and (x.ndim < 3 or x.shape[1] != 4)):
            want = "(D, 4 seats, ..., n_in)" if self.zero_sum else "(..., n_in)"
            raise ValueError(f"aivat value model v{self.version}: expected {want} with n_in={self.n_in}, got {x.shape}")
        h = x.reshape(-1, self.n_in).astype(np.float32)
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            h = h @ w + b
            if i < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
        v = h.reshape(x.shape[:-1]).astype(np.float64)
        if self.zero_sum:
            v -= v.mean(axis=1, keepdims=True)
        return v + self.offset(x)

    def offset(self, x: np.ndarray) -> np.ndarray:
        """What V adds to the MLP (v3 on): the chips the seat gets at once from the drawer's predicted
        response (``Response``), exact where the prediction is; the MLP fits the rest."""
        col = chips_column(self.version)
        return np.zeros(x.shape[:-1]) if col is None else x[..., col].astype(np.float64) * CHIPS


def centre(values: np.ndarray, undrawn: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """(D, 4) the AIVAT terms: ``values`` (D, 4, 35) V of each seat after each candidate kind,
    minus its mean over the undrawn tiles (``undrawn`` (D, 35) counts), read at ``drawn`` (D,)."""
    w = undrawn / undrawn.sum(axis=1, keepdims=True)
    mean = (values * w[:, None, :]).sum(axis=2)
    return values[np.arange(len(drawn)), :, drawn] - mean
