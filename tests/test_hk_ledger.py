"""The 拉 ledger (HONGKONG.md 5.2-5.4): the worked example of 5.4, row by row, and the cut rule."""

from __future__ import annotations

import numpy as np

from envs._core._testing import la_close_all, la_hand

A, B, C, D = 0, 1, 2, 3
PER_TAI = 10  # stakes 30/10: a leg of t tai is worth v = 3 + t tai = 10 v chips


def leg(t):
    return PER_TAI * (3 + t)


class Ledger:
    def __init__(self, cut_every=3, ask=True):
        self.la = np.zeros((4, 4), np.float64)
        self.k = np.zeros((4, 4), np.int32)
        self.cut_every, self.ask = cut_every, ask

    def hand(self, *legs):
        """One hand with legs (payer, winner, t); returns (chips paid per player, cut questions)."""
        m = np.zeros((4, 4), np.int64)
        for x, y, t in legs:
            m[x, y] += leg(t)
        paid = np.zeros(4, np.int64)
        asks = la_hand(self.la, self.k, m, self.cut_every, self.ask, paid)
        return paid.tolist(), asks

    def debts(self):
        """{(debtor, creditor): (R in tai, k)}"""
        return {
            (d, c): (self.la[d, c] / PER_TAI, int(self.k[d, c])) for d in range(4) for c in range(4) if self.k[d, c]
        }


def test_worked_example_hands_1_to_3():
    L = Ledger()
    assert L.hand((A, B, 9)) == ([0, 0, 0, 0], 0)  # 1: B wins on A's discard, t = 9
    assert L.debts() == {(A, B): (12, 1)}
    assert L.hand((A, B, 7), (C, B, 7), (D, B, 7)) == ([0, 0, 0, 0], 0)  # 2: B self-draws, t = 7
    assert L.debts() == {(A, B): (28, 2), (C, B): (10, 1), (D, B): (10, 1)}
    paid, asks = L.hand((A, B, 6))  # 3: B wins on A's discard, t = 6
    assert paid == [0, 200, -100, -100]  # C and D pay in full (no leg this hand)
    assert L.debts() == {(A, B): (51, 3)}
    assert asks == 1 << (4 * A + B)  # k = 3: A is asked (la_cut_policy ask); the rows below keep


def after_hand_3():
    L = Ledger()
    L.hand((A, B, 9))
    L.hand((A, B, 7), (C, B, 7), (D, B, 7))
    L.hand((A, B, 6))
    return L


def test_worked_example_4a_kick_half():
    L = after_hand_3()  # A answered keep
    assert L.hand((B, A, 5)) == ([-255, 255, 0, 0], 0)  # A wins on B's discard: A pays B 51 / 2
    assert L.debts() == {(B, A): (8, 1)}


def test_worked_example_4b_self_draw_kicks_half():
    L = after_hand_3()
    assert L.hand((B, A, 5), (C, A, 5), (D, A, 5)) == ([-255, 255, 0, 0], 0)
    assert L.debts() == {(B, A): (8, 1), (C, A): (8, 1), (D, A): (8, 1)}


def test_worked_example_4c_win_from_a_third_seat_pays_in_full():
    L = after_hand_3()
    assert L.hand((C, A, 5)) == ([-510, 510, 0, 0], 0)
    assert L.debts() == {(C, A): (8, 1)}


def test_worked_example_4d_hand_between_others_pays_in_full():
    L = after_hand_3()
    assert L.hand((D, C, 5)) == ([-510, 510, 0, 0], 0)
    assert L.debts() == {(D, C): (8, 1)}


def test_worked_example_4e_la_again():
    L = after_hand_3()
    assert L.hand((A, B, 5)) == ([0, 0, 0, 0], 0)  # k 4: no cut question (only at 3, 6, ...)
    assert L.debts() == {(A, B): (84.5, 4)}


def test_worked_example_4f_drawn_hand_keeps_the_ledger():
    L = after_hand_3()
    # A drawn hand produces no legs and the engine does not call la_hand (la_draw "keep").
    assert L.debts() == {(A, B): (51, 3)}


def test_cut_policy_always_pays_at_k3_and_then_nothing_to_kick():
    L = Ledger(ask=False)
    L.hand((A, B, 9))
    L.hand((A, B, 7), (C, B, 7), (D, B, 7))
    assert L.hand((A, B, 6)) == ([-510, 710, -100, -100], 0)  # A cuts: pays 51 in full
    assert L.debts() == {}
    assert L.hand((B, A, 5)) == ([0, 0, 0, 0], 0)  # 4a: only the new debt B -> A 8
    assert L.debts() == {(B, A): (8, 1)}


def test_no_cut_la_unlimited_and_halves_round_up():
    L = Ledger(cut_every=0)
    for t in (0, 0, 0, 0):
        L.hand((A, B, t))
    R = L.la[A, B]
    assert L.k[A, B] == 4 and R == ((30 * 1.5 + 30) * 1.5 + 30) * 1.5 + 30  # 1.5 R + v, exact
    paid, _ = L.hand((B, A, 0))
    assert paid == [-int(np.floor(R / 2 + 0.5)), int(np.floor(R / 2 + 0.5)), 0, 0]


def test_end_of_game_pays_every_open_debt():
    L = after_hand_3()
    L.hand((B, A, 5), (C, A, 5), (D, A, 5))
    paid = np.zeros(4, np.int64)
    la_close_all(L.la, L.k, paid)
    assert paid.tolist() == [240, -80, -80, -80] and L.debts() == {}
