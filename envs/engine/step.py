"""One game's transitions: reset, step, claim resolution, hand and episode ends; and the batch loops
(``prange`` over games, each game independent, so batch 1 and batch N run the same code)."""

from __future__ import annotations

import numpy as np
from numba import prange

from envs.jit import njit

from envs.rules import (
    OPT_DECLARE_READY,
    OPT_EPISODE_GAME,
    OPT_HK,
    OPT_MULTI_WIN,
    OPT_STRICT_PASS,
    OPT_SWAP_CALL,
    OPT_WEST_DRAW,
)
from envs.scoring.codes import F_DECLARED_READY, F_EARTHLY_READY, F_HEAVENLY_READY, WIN_DISCARD, WIN_ROB_KONG, WIN_SELF_DRAW
from envs.engine.actions import CHI, KONG, PON, READY, SELF_KONG, WIN
from envs.engine.claims import clear_claims, next_asked, open_claims, open_rob
from envs.engine.handend import PH_HAND_OVER, _apply_deltas, drawable, finish_drawn, finish_win
from envs.engine.ledger import la_close, la_close_all
from envs.engine.side import all_pay, base_chips, chase_side
from envs.engine.mask import CFG_READY_MODE, READY_HEAVEN_EARTH, is_ready_hand, mask_rows
from envs.engine.rng import next_u64
from envs.engine.views import PARALLEL_MIN_BATCH, borrow, borrow_prof, borrow_state, serial_twin
from envs.engine.state import (
    C_READY,
    C_WIN,
    G_AFTER_CLAIM,
    G_ANY_MELD,
    G_CHAIN,
    G_CUR,
    G_DEALER,
    G_DECISIONS,
    G_DRAWSRC,
    G_HANDS,
    G_LA_ASK,
    G_LAST_DRAWN,
    G_LIABLE,
    G_OFFER,
    G_OFFER_DRAWN,
    G_OFFER_PAYER,
    G_ROB_ANKONG,
    G_ROB_CHAIN,
    G_NKONG,
    G_NRIVER,
    G_PHASE,
    G_READY_PENDING,
    G_RESULT,
    G_RIVER_LAST,
    G_ROT,
    G_SCRIPT_USED,
    G_STREAK,
    G_SWAP1,
    G_SWAP2,
    G_TILE,
    G_TURN,
    G_WINNERS,
    NG,
    P_ANSWER,
    P_CLAIM,
    P_IPPATSU,
    P_NDISC,
    P_OFFER_PASSED,
    P_NDRAWS,
    P_NMELDS,
    P_PASS_SELF,
    P_PASS_WIN,
    P_READY,
    PH_CLAIM,
    PH_DONE,
    PH_FLOWER,
    PH_LA_CUT,
    PH_READY0,
    PH_ROB,
    PH_TURN,
    RES_DRAWN,
    RV_TSUMOGIRI,
    RV_WON_ON,
    SRC_EXPOSED_KONG,
    SRC_FRONT,
    SRC_KONG,
)
from envs.scoring.codes import WIN_FLOWERS
from envs.engine.wall import deal, draw_tile
from envs.tiles import ADDKONG, ANKONG, CHI as M_CHI, KONG as M_KONG, PON as M_PON

WEST = 29


# -- turns ------------------------------------------------------------------------------------
# The functions on the path of every decision (turn, discard, claims, the next draw) are inlined into
# step_game (inline="always"): a compiled call that takes the state tuple passes its 17 arrays as
# about 150 scalar arguments, and these small bodies spent most of their time doing that (half of
# the engine's time in a profile; docs/benchmarks.md). The rarer transitions stay calls. step_game
# itself, the mask and the claim checks are inlined into the two functions that run a decision
# (step_game_borrowed, randplay.play_game), which are compiled without reference counting (views.py).
@njit(cache=True, inline="always")
def begin_turn(S, b, seat, draw, opts, prof):
    """``seat`` takes the turn; with ``draw`` it draws from the front first. True if the hand ended."""
    g = S.g[b]
    g[G_TURN] = seat
    g[G_CUR] = seat
    g[G_PHASE] = PH_TURN
    g[G_AFTER_CLAIM] = 0
    g[G_READY_PENDING] = 0
    g[G_SWAP1] = -1
    g[G_SWAP2] = -1
    g[G_LAST_DRAWN] = -1
    g[G_DRAWSRC] = SRC_FRONT
    if draw:
        S.p[b, seat, P_NDRAWS] += 1
        if not (opts[OPT_HK] and opts[OPT_STRICT_PASS]):
            S.p[b, seat, P_PASS_WIN] = 0  # 過水 lasts until the seat's own next draw (hongkong: discard)
        return draw_tile(S, b, seat, False, SRC_FRONT, opts, prof)
    return False


@njit(cache=True, inline="always")
def add_meld(S, b, seat, mtype, kind, frm):
    n = S.p[b, seat, P_NMELDS]
    S.melds[b, seat, n, 0] = mtype
    S.melds[b, seat, n, 1] = kind
    S.melds[b, seat, n, 2] = frm
    S.p[b, seat, P_NMELDS] = n + 1
    S.g[b, G_ANY_MELD] = 1
    S.p[b, seat, P_READY] = 0  # a declared ready hand that changes loses its flag


@njit(cache=True, inline="always")
def discard(S, b, seat, k, opts, cfg, prof):
    g = S.g[b]
    p = S.p[b]
    S.hands[b, seat, k] -= 1
    i = g[G_NRIVER]
    S.river[b, i, 0] = k
    S.river[b, i, 1] = seat
    S.river[b, i, 2] = -1
    S.river[b, i, 3] = RV_TSUMOGIRI if (k == g[G_LAST_DRAWN] and not g[G_AFTER_CLAIM]) else 0
    g[G_NRIVER] = i + 1
    p[seat, P_IPPATSU] = 0
    if g[G_READY_PENDING]:
        if cfg[CFG_READY_MODE] == READY_HEAVEN_EARTH:
            p[seat, P_READY] |= F_EARTHLY_READY
        else:
            p[seat, P_READY] |= F_DECLARED_READY
            p[seat, P_IPPATSU] = opts[OPT_HK]  # 一發: from this discard to the seat's next one
        g[G_READY_PENDING] = 0
    elif p[seat, P_READY] != 0 and k != g[G_LAST_DRAWN]:
        p[seat, P_READY] = 0  # the declared hand changed
    p[seat, P_NDISC] += 1
    p[seat, P_PASS_SELF] = 0  # strict_pass: lasts until the seat's next discard
    if opts[OPT_HK] and opts[OPT_STRICT_PASS]:
        p[seat, P_PASS_WIN] = 0  # hongkong 過水: every win, until this discard (after a chi/pon too)
    g[G_CHAIN] = 0  # a discard ends the turn's run of replacement draws
    g[G_LIABLE] = -1
    g[G_AFTER_CLAIM] = 0
    g[G_SWAP1] = -1
    g[G_SWAP2] = -1
    g[G_TILE] = k
    g[G_RIVER_LAST] = 1 if drawable(S, b, opts) == 0 else 0
    if opts[OPT_HK]:
        chase_side(S, b, opts)
    if not open_claims(g, p, S.hands[b], k, opts, prof[2]):
        no_claim(S, b, opts, prof)


@njit(cache=True, inline="always")
def no_claim(S, b, opts, prof):
    """Nobody claimed the last discard: 一路歸西 check, then the next seat draws."""
    g = S.g[b]
    clear_claims(S.p[b])
    if opts[OPT_WEST_DRAW] and g[G_NRIVER] == 4:
        allw = True
        for i in range(4):
            if S.river[b, i, 0] != WEST or S.river[b, i, 2] >= 0:
                allw = False
        if allw:
            finish_drawn(S, b, opts)
            return
    begin_turn(S, b, (g[G_TURN] + 1) % 4, True, opts, prof)


@njit(cache=True)
def do_addkong(S, b, seat, k, opts, prof):
    for i in range(S.p[b, seat, P_NMELDS]):
        if S.melds[b, seat, i, 0] == M_PON and S.melds[b, seat, i, 1] == k:
            S.melds[b, seat, i, 0] = ADDKONG
    S.hands[b, seat, k] -= 1
    if not opts[OPT_HK]:
        S.p[b, seat, P_READY] = 0  # (a hongkong declaration is never withdrawn)
    S.g[b, G_NKONG] += 1
    clear_claims(S.p[b])
    begin_turn(S, b, seat, False, opts, prof)
    draw_tile(S, b, seat, True, SRC_KONG, opts, prof)


@njit(cache=True)
def do_ankong(S, b, seat, k, opts, prof):
    ready = S.p[b, seat, P_READY]
    S.hands[b, seat, k] = 0
    add_meld(S, b, seat, ANKONG, k, seat)
    S.g[b, G_NKONG] += 1
    clear_claims(S.p[b])
    if opts[OPT_HK]:
        S.p[b, seat, P_READY] = ready  # (a hongkong declaration is never withdrawn)
        all_pay(S.p[b], seat, base_chips(opts, 2))  # 暗槓: 1 底 from each other seat
    begin_turn(S, b, seat, False, opts, prof)
    draw_tile(S, b, seat, True, SRC_KONG, opts, prof)


@njit(cache=True, inline="always")
def turn_action(S, b, a, opts, cfg, prof):
    g = S.g[b]
    seat = g[G_CUR]
    if a < CHI:
        discard(S, b, seat, a, opts, cfg, prof)
    elif a == WIN:
        finish_win(S, b, 1 << seat, WIN_SELF_DRAW, -1, -1, opts, prof)
    elif a == READY:
        g[G_READY_PENDING] = 1
    else:  # SELF_KONG + k
        k = a - SELF_KONG
        S.p[b, seat, P_IPPATSU] = 0  # 一發 does not cover a kong replacement
        ankong = S.hands[b, seat, k] == 4
        g[G_TILE] = k
        g[G_ROB_ANKONG] = ankong
        g[G_ROB_CHAIN] = g[G_DRAWSRC] == SRC_KONG or g[G_DRAWSRC] == SRC_EXPOSED_KONG
        if ankong and not (opts[OPT_HK] and open_rob(g, S.p[b], S.hands[b], k, True, prof[2])):
            do_ankong(S, b, seat, k, opts, prof)
        elif not ankong and not open_rob(g, S.p[b], S.hands[b], k, False, prof[2]):
            do_addkong(S, b, seat, k, opts, prof)


# -- claims -----------------------------------------------------------------------------------
@njit(cache=True)
def collect_winners(g, p, opts):
    """Seats that answered WIN (all with multi_win, else the nearest counter-clockwise: 截胡);
    seats that could have won and did not are barred by 過水. (One game's rows.)"""
    d = g[G_TURN]
    winners = 0
    for i in range(1, 4):
        s = (d + i) % 4
        if p[s, P_CLAIM] & C_WIN:
            if p[s, P_ANSWER] == WIN:
                if winners == 0 or opts[OPT_MULTI_WIN]:
                    winners |= 1 << s
            else:
                p[s, P_PASS_WIN] = 1
                if opts[OPT_STRICT_PASS]:
                    p[s, P_PASS_SELF] = 1
    return winners


@njit(cache=True, inline="always")
def resolve_claims(S, b, opts, prof):
    g = S.g[b]
    p = S.p[b]
    d = g[G_TURN]
    t = g[G_TILE]
    last = g[G_NRIVER] - 1
    winners = collect_winners(g, p, opts)
    if winners:
        S.river[b, last, 3] |= RV_WON_ON
        clear_claims(p)
        finish_win(S, b, winners, WIN_DISCARD, d, t, opts, prof)
        return
    for i in range(1, 4):
        s = (d + i) % 4
        ans = p[s, P_ANSWER]
        if ans == PON or ans == KONG:
            clear_claims(p)
            S.river[b, last, 2] = s
            if ans == PON:
                S.hands[b, s, t] -= 2
                add_meld(S, b, s, M_PON, t, d)
                begin_turn(S, b, s, False, opts, prof)
                g[G_AFTER_CLAIM] = 1
            else:
                S.hands[b, s, t] -= 3
                add_meld(S, b, s, M_KONG, t, d)
                g[G_NKONG] += 1
                begin_turn(S, b, s, False, opts, prof)
                g[G_LIABLE] = d  # 全包 (hongkong) if the replacement chain ends in a self-draw
                draw_tile(S, b, s, True, SRC_EXPOSED_KONG, opts, prof)
            return
    s = (d + 1) % 4
    ans = p[s, P_ANSWER]
    if CHI <= ans < PON:
        clear_claims(p)
        S.river[b, last, 2] = s
        lo = t - (ans - CHI)
        for k in range(lo, lo + 3):
            if k != t:
                S.hands[b, s, k] -= 1
        add_meld(S, b, s, M_CHI, lo, d)
        begin_turn(S, b, s, False, opts, prof)
        g[G_AFTER_CLAIM] = 1
        if not opts[OPT_SWAP_CALL]:  # 食替: the claimed kind, and the other end of the two used
            g[G_SWAP1] = t
            if lo == t and t % 9 <= 5:
                g[G_SWAP2] = t + 3
            elif lo == t - 2 and t % 9 >= 3:
                g[G_SWAP2] = t - 3
        return
    no_claim(S, b, opts, prof)


@njit(cache=True)
def resolve_rob(S, b, opts, prof):
    g = S.g[b]
    winners = collect_winners(g, S.p[b], opts)
    clear_claims(S.p[b])
    if winners:
        finish_win(S, b, winners, WIN_ROB_KONG, g[G_TURN], g[G_TILE], opts, prof)
    elif g[G_ROB_ANKONG]:
        do_ankong(S, b, g[G_TURN], g[G_TILE], opts, prof)
    else:
        do_addkong(S, b, g[G_TURN], g[G_TILE], opts, prof)


@njit(cache=True)
def open_offer(g):
    """flower_win "offer": ask the seat recorded in G_OFFER before the turn seat acts. (One game's
    scalar row.)"""
    if g[G_OFFER] >= 0 and g[G_PHASE] == PH_TURN:
        g[G_PHASE] = PH_FLOWER
        g[G_CUR] = g[G_OFFER]


@njit(cache=True)
def answer_offer(S, b, a, opts, prof):
    """WIN takes the flower win; PASS is final for the hand and the turn seat goes on."""
    g = S.g[b]
    s = g[G_OFFER]
    g[G_OFFER] = -1
    if a == WIN:
        finish_win(S, b, 1 << s, WIN_FLOWERS, g[G_OFFER_PAYER], -1, opts, prof)
    else:
        S.p[b, s, P_OFFER_PASSED] = 1
        if g[G_OFFER_DRAWN]:
            finish_drawn(S, b, opts)
        else:
            g[G_PHASE] = PH_TURN
            g[G_CUR] = g[G_TURN]


@njit(cache=True)
def ask_la_cut(S, b):
    """PH_LA_CUT for the lowest pending debt d -> c (bit 4d + c of G_LA_ASK); False when none."""
    g = S.g[b]
    asks = g[G_LA_ASK]
    if asks == 0:
        return False
    i = 0
    while not (asks >> i) & 1:
        i += 1
    g[G_PHASE] = PH_LA_CUT
    g[G_CUR] = i // 4
    return True


@njit(cache=True)
def answer_la_cut(S, b, a, opts, cfg, prof):
    """WIN: the debtor cuts (pays R in full now); PASS: keeps the debt. Then the next question or
    the next hand."""
    g = S.g[b]
    asks = g[G_LA_ASK]
    i = 0
    while not (asks >> i) & 1:
        i += 1
    g[G_LA_ASK] = asks & ~(1 << i)
    if a == WIN:
        paid = np.zeros(4, np.int64)
        la_close(S.la[b], S.la_k[b], i // 4, i % 4, paid)
        _apply_deltas(S, b, paid, opts)
    if not ask_la_cut(S, b):
        start_hand(S, b, opts, cfg, prof)


# -- hands and episodes -----------------------------------------------------------------------
@njit(cache=True)
def open_ready0(S, b, opts, cfg, prof):
    """天聽: after the initial flowers each ready non-dealer may declare (strict16 profiles)."""
    g = S.g[b]
    if not opts[OPT_DECLARE_READY] or cfg[CFG_READY_MODE] != READY_HEAVEN_EARTH:
        return False
    dealer = g[G_DEALER]
    g[G_TURN] = dealer
    for i in range(1, 4):
        s = (dealer + i) % 4
        ready = is_ready_hand(S.hands[b, s], S.melds[b, s], S.p[b, s, P_NMELDS], prof[2])
        S.p[b, s, P_CLAIM] = C_READY if ready else 0
        S.p[b, s, P_ANSWER] = -1
    first = next_asked(g, S.p[b], dealer)
    if first < 0:
        return False
    g[G_PHASE] = PH_READY0
    g[G_CUR] = first
    return True


@njit(cache=True)
def start_hand(S, b, opts, cfg, prof):
    g = S.g[b]
    g[G_PHASE] = PH_TURN
    if deal(S, b, opts, prof):
        return
    last = g[G_LAST_DRAWN]  # the dealer's 17th tile counts as its draw (for the river's tsumogiri bit)
    if not open_ready0(S, b, opts, cfg, prof):
        begin_turn(S, b, g[G_DEALER], False, opts, prof)
        g[G_LAST_DRAWN] = last
        open_offer(g)


@njit(cache=True)
def after_hand(S, b, opts, cfg, prof):
    """A hand just ended: move the deal (RULES 2.10), then end the episode or deal again."""
    g = S.g[b]
    while g[G_PHASE] == PH_HAND_OVER:
        g[G_HANDS] += 1
        dealer = g[G_DEALER]
        if g[G_RESULT] == RES_DRAWN or (g[G_WINNERS] >> dealer) & 1:
            g[G_STREAK] += 1
        else:
            g[G_DEALER] = (dealer + 1) % 4
            g[G_STREAK] = 0
            g[G_ROT] += 1
        if not opts[OPT_EPISODE_GAME] or g[G_ROT] >= 16:
            end_episode(S, b, opts)
            return
        if ask_la_cut(S, b):
            return
        start_hand(S, b, opts, cfg, prof)


@njit(cache=True)
def end_episode(S, b, opts):
    """The game is over: every open 拉 debt is paid in full (HONGKONG.md 5.3)."""
    paid = np.zeros(4, np.int64)
    la_close_all(S.la[b], S.la_k[b], paid)
    _apply_deltas(S, b, paid, opts)
    S.g[b, G_LA_ASK] = 0
    S.terminated[b] = True
    S.g[b, G_PHASE] = PH_DONE
    S.g[b, G_CUR] = -1


@njit(cache=True)
def reset_game(S, b, seed, script_start, opts, cfg, prof):
    g = S.g[b]
    for i in range(NG):
        g[i] = 0
    g[G_SCRIPT_USED] = script_start
    S.rng[b] = np.uint64(seed)
    next_u64(S.rng, b)
    S.scores[b, :] = 0
    S.rewards[b, :] = 0
    S.terminated[b] = False
    S.res_tai[b, :] = -1
    S.res_delta[b, :] = 0
    S.res_items[b, :, :] = 0
    S.la[b, :, :] = 0.0
    S.la_k[b, :, :] = 0
    start_hand(S, b, opts, cfg, prof)
    after_hand(S, b, opts, cfg, prof)
    mask_rows(S.mask[b], g, S.p[b], S.hands[b], S.melds[b], S.terminated[b], opts, cfg, prof[2])


@njit(cache=True, inline="always")  # one copy in the API's per-game step, one in random play's loop
def step_game(S, b, a, opts, cfg, prof):
    """Apply seat ``current_player``'s action ``a`` (assumed legal) to game ``b``."""
    S.rewards[b, :] = 0
    if S.terminated[b]:
        return
    g = S.g[b]
    g[G_DECISIONS] += 1
    ph = g[G_PHASE]
    if ph == PH_TURN:
        turn_action(S, b, a, opts, cfg, prof)
    elif ph == PH_CLAIM or ph == PH_ROB or ph == PH_READY0:
        cur = g[G_CUR]
        S.p[b, cur, P_ANSWER] = a
        if ph == PH_READY0 and a == READY:
            S.p[b, cur, P_READY] |= F_HEAVENLY_READY
        nxt = next_asked(g, S.p[b], cur)
        if nxt >= 0:
            g[G_CUR] = nxt
        elif ph == PH_CLAIM:
            resolve_claims(S, b, opts, prof)
        elif ph == PH_ROB:
            resolve_rob(S, b, opts, prof)
        else:
            clear_claims(S.p[b])
            last = g[G_LAST_DRAWN]
            begin_turn(S, b, g[G_DEALER], False, opts, prof)
            g[G_LAST_DRAWN] = last
    elif ph == PH_FLOWER:
        answer_offer(S, b, a, opts, prof)
    elif ph == PH_LA_CUT:
        answer_la_cut(S, b, a, opts, cfg, prof)
    if g[G_PHASE] == PH_HAND_OVER:
        after_hand(S, b, opts, cfg, prof)
    if g[G_OFFER] >= 0:  # (flower_win "offer" only)
        open_offer(g)
    mask_rows(S.mask[b], g, S.p[b], S.hands[b], S.melds[b], S.terminated[b], opts, cfg, prof[2])


# -- batch loops ------------------------------------------------------------------------------
# Each loop is compiled twice from one body: ``parallel=True`` (prange over games) and a serial twin
# (``*_serial``) that the API uses below PARALLEL_MIN_BATCH games, so batch 1 never launches threads.
# Each game's transition runs on a borrowed state (views.py), so the calls inside skip reference
# counting. (Borrow per game, inside a compiled call: a borrowed tuple made in the loop function
# itself is not handed to the parallel loop's body correctly.)
@njit(cache=True)
def reset_game_borrowed(S, b, seed, script_start, opts, cfg, prof):
    reset_game(borrow_state(S), b, seed, script_start, borrow(opts), borrow(cfg), borrow_prof(prof))


@njit(cache=True, _nrt=False)  # borrowed views only: no reference counts (envs/jit.py)
def step_game_borrowed(S, b, a, opts, cfg, prof):
    step_game(borrow_state(S), b, a, borrow(opts), borrow(cfg), borrow_prof(prof))


def _reset_batch(S, seeds, opts, cfg, prof):
    for b in prange(seeds.shape[0]):
        reset_game_borrowed(S, np.int64(b), seeds[b], np.int64(0), opts, cfg, prof)


def _reset_some(S, seeds, which, opts, cfg, prof):
    """Auto-reset: redeal the games in ``which`` (scripted walls are not reused)."""
    for b in prange(seeds.shape[0]):
        if which[b]:
            reset_game_borrowed(S, np.int64(b), seeds[b], np.int64(S.script.shape[1]), opts, cfg, prof)


def _step_batch(S, actions, opts, cfg, prof):
    for b in prange(actions.shape[0]):
        step_game_borrowed(S, np.int64(b), actions[b], opts, cfg, prof)


def _step_some(S, actions, active, opts, cfg, prof):
    """Step only the games in ``active``."""
    for b in prange(actions.shape[0]):
        if active[b]:
            step_game_borrowed(S, np.int64(b), actions[b], opts, cfg, prof)


reset_batch = njit(cache=True, parallel=True)(_reset_batch)
reset_batch_serial = serial_twin(_reset_batch)
reset_some_par = njit(cache=True, parallel=True)(_reset_some)
reset_some_serial = serial_twin(_reset_some)
step_batch = njit(cache=True, parallel=True)(_step_batch)
step_batch_serial = serial_twin(_step_batch)
step_some_par = njit(cache=True, parallel=True)(_step_some)
step_some_serial = serial_twin(_step_some)


def batch_fn(par, ser, batch_size: int):
    """The parallel loop from PARALLEL_MIN_BATCH games up, else its serial twin."""
    return par if batch_size >= PARALLEL_MIN_BATCH else ser


def reset_some(S, seeds, which, opts, cfg, prof):
    """Redeal the games in ``which`` (serial below PARALLEL_MIN_BATCH games)."""
    batch_fn(reset_some_par, reset_some_serial, seeds.shape[0])(S, seeds, which, opts, cfg, prof)
