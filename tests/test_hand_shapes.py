"""Special winning shapes of the extras pack (EXTRAS.md 2.1): 十三么 (pure / mixed) and 十六不搭, and
their wiring into is_win / win_shanten / win_wait_mask next to eight_pairs.

Every shape is checked against a plain-Python reference that enumerates the complete forms: complete
iff shanten -1, shanten = fewest tiles to add (minus one), wait iff adding the tile completes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envs import _core
from envs._core import _testing
from envs.hand import analysis as A
from envs.tiles import MELD_CHI, MELD_PON, N_KINDS, WIND0, kind_name, parse_hand

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
PURE, MIXED, SIXTEEN, GAP2 = (
    A.SHAPE_THIRTEEN_PURE,
    A.SHAPE_THIRTEEN_MIXED,
    A.SHAPE_SIXTEEN_UNRELATED,
    A.SHAPE_UNRELATED_GAP2,
)
ALL = A.SHAPE_EIGHT_PAIRS | PURE | MIXED | SIXTEEN


def H(text):
    return parse_hand(text)


def names(mask):
    return [kind_name(int(k)) for k in np.flatnonzero(mask)]


# --------------------------------------------------------------------------------------------------
# Plain-Python references: every complete form of each shape, as count vectors


def _thirteen_forms(pure: bool, mixed: bool):
    forms = []
    for eye in ORPHANS:
        sets = []
        for k in range(N_KINDS):
            orphan = k in ORPHANS
            if (orphan and pure) or (not orphan and mixed and k < WIND0):
                sets.append([k] * 3)
            if mixed and k < WIND0 and k % 9 <= 6:
                sets.append([k, k + 1, k + 2])
        for s in sets:
            c = np.zeros(N_KINDS, np.int64)
            c[ORPHANS] = 1
            c[eye] += 1
            for k in s:
                c[k] += 1
            if c.max() <= 4:
                forms.append(c)
    return np.array(forms)


def _triples(gap):
    return [t for t in itertools.combinations(range(9), 3) if t[1] - t[0] >= gap and t[2] - t[1] >= gap]


THIRTEEN_FORMS = {
    PURE: _thirteen_forms(True, False),
    MIXED: _thirteen_forms(False, True),
    PURE | MIXED: _thirteen_forms(True, True),
}
TRIPLES = {SIXTEEN: np.array(_triples(3)), SIXTEEN | GAP2: np.array(_triples(2))}


def _sixteen_costs(c, shapes):
    """Tiles missing for every (m triple, p triple, s triple) choice, the eye included (broadcast)."""
    c = np.asarray(c, np.int64)
    tr = TRIPLES[shapes]
    miss, dup = [], []
    for s in range(3):
        got = c[9 * s + tr]  # (n_triples, 3)
        miss.append((got == 0).sum(axis=1))
        dup.append((got >= 2).any(axis=1))
    hon_miss = int((c[WIND0:] == 0).sum())
    hon_dup = bool((c[WIND0:] >= 2).any())
    total = miss[0][:, None, None] + miss[1][None, :, None] + miss[2][None, None, :] + hon_miss
    eye_free = dup[0][:, None, None] | dup[1][None, :, None] | dup[2][None, None, :] | hon_dup
    return total + (~eye_free)


def ref_shanten(c, shapes):
    if shapes & A.SHAPE_THIRTEEN:
        forms = THIRTEEN_FORMS[shapes]
        return int(np.maximum(forms - np.asarray(c, np.int64)[None, :], 0).sum(axis=1).min()) - 1
    return int(_sixteen_costs(c, shapes).min()) - 1


def ref_is(c, shapes):
    return int(np.asarray(c).sum()) == 17 and ref_shanten(c, shapes) == -1


def shanten_of(c, shapes):
    return (
        _testing.thirteen_orphans_shanten(c, shapes)
        if shapes & A.SHAPE_THIRTEEN
        else _testing.sixteen_unrelated_shanten(c, shapes)
    )


def is_shape(c, shapes):
    return (
        _testing.is_thirteen_orphans(c, shapes)
        if shapes & A.SHAPE_THIRTEEN
        else _testing.is_sixteen_unrelated(c, shapes)
    )


# --------------------------------------------------------------------------------------------------
# Strategies: a complete form of the shape, then a few tiles swapped for random ones


def _mutate(draw, c, n_tiles):
    c = c.copy()
    for _ in range(draw(st.integers(0, 3))):  # swap a tile for another
        held = np.flatnonzero(c)
        c[held[draw(st.integers(0, len(held) - 1))]] -= 1
        free = np.flatnonzero(c < 4)
        c[free[draw(st.integers(0, len(free) - 1))]] += 1
    while c.sum() > n_tiles:
        held = np.flatnonzero(c)
        c[held[draw(st.integers(0, len(held) - 1))]] -= 1
    return c.astype(np.int8)


@st.composite
def shape_hands(draw, shapes, n_tiles):
    if shapes & A.SHAPE_THIRTEEN:
        forms = THIRTEEN_FORMS[shapes]
        c = forms[draw(st.integers(0, len(forms) - 1))]
    else:
        tr = TRIPLES[shapes]
        c = np.zeros(N_KINDS, np.int64)
        c[WIND0:] = 1
        for s in range(3):
            c[9 * s + tr[draw(st.integers(0, len(tr) - 1))]] = 1
        held = np.flatnonzero(c)
        c[held[draw(st.integers(0, len(held) - 1))]] += 1
    return _mutate(draw, c, n_tiles)


SHAPE_KINDS = [PURE, MIXED, PURE | MIXED, SIXTEEN, SIXTEEN | GAP2]


# --------------------------------------------------------------------------------------------------
# Examples


@pytest.mark.parametrize(
    "text, code, eye, set_",
    [
        ("119m 19p 19s ESWNCFP 234m", 2, "1m", (MELD_CHI, "2m")),  # EXTRAS.md EX03
        ("19m 19p 19s ESWNCFP 111m 9m", 1, "9m", (MELD_PON, "1m")),
        ("19m 19p 19s ESWNCFP PPP E", 1, "E", (MELD_PON, "P")),
        ("19m 19p 19s ESWNCFP 555m E", 2, "E", (MELD_PON, "5m")),
        ("119m 19p 19s ESWNCFP 123m", 2, "1m", (MELD_CHI, "1m")),
        ("19m 19p 19s ESWNCFP 789m 9m", 2, "9m", (MELD_CHI, "7m")),
        ("19m 19p 19s ESWNCF 234m 55m", 0, None, None),  # no P, eye not an orphan
        ("19m 19p 19s ESWNCFP 2345m", 0, None, None),
    ],
)
def test_thirteen_orphans_parts(text, code, eye, set_):
    c = H(text)
    parts = np.zeros(3, np.int64)
    assert _testing.thirteen_orphans_parts(c, parts) == code
    if code:
        assert kind_name(int(parts[0])) == eye
        assert (int(parts[1]), kind_name(int(parts[2]))) == (set_[0], set_[1])
        assert _testing.is_thirteen_orphans(c, PURE if code == 1 else MIXED)
        assert not _testing.is_thirteen_orphans(c, MIXED if code == 1 else PURE)
        assert _core.is_win(c, 5, PURE | MIXED) and not _core.is_win(c, 5, A.SHAPE_EIGHT_PAIRS)
        assert not _core.is_win(c, 5, 0) and not _core.is_win(c, 4, PURE | MIXED)


@pytest.mark.parametrize(
    "text, ok, ok_gap2",
    [
        ("147m 258p 369s ESWNCFP 5p", True, True),  # EX06
        ("147m 258p 369s ESWNCFP E", True, True),
        ("149m 158p 269s ESWNCFP 9s", True, True),
        ("135m 135p 135s ESWNCFP 1m", False, True),  # seed 000's 不塔3相連 example: only with gap 2
        ("147m 258p 369s ESWNCF 55p", False, False),  # P missing
        ("1478m 25p 369s ESWNCFP", False, False),  # four dots... and two p
        ("147m 258p 369s ESWNCFPP E", False, False),  # two eyes (18 tiles)
        ("124m 258p 369s ESWNCFP 5p", False, False),  # 1m 2m are 1 apart
    ],
)
def test_sixteen_unrelated_examples(text, ok, ok_gap2):
    c = H(text)
    assert _testing.is_sixteen_unrelated(c, SIXTEEN) == ok
    assert _testing.is_sixteen_unrelated(c, SIXTEEN | GAP2) == ok_gap2
    assert _core.is_win(c, 5, SIXTEEN) == ok
    assert _core.is_win(c, 5, SIXTEEN | GAP2) == ok_gap2
    assert _core.is_win(c, 5, SIXTEEN | PURE | MIXED) == ok
    assert not _core.is_win(c, 5, A.SHAPE_EIGHT_PAIRS | PURE | MIXED)
    if ok:
        suits = np.zeros(3, np.int64)
        assert _testing.sixteen_unrelated_suits(c, SIXTEEN, suits)


def test_special_shape_codes():
    assert _core.special_shape(H("1111m 33m 55m 77m 99m EEE CC"), ALL) == A.SHAPE_EIGHT_PAIRS
    assert _core.special_shape(H("119m 19p 19s ESWNCFP 234m"), ALL) == MIXED
    assert _core.special_shape(H("19m 19p 19s ESWNCFP 111m 9m"), ALL) == PURE
    assert _core.special_shape(H("147m 258p 369s ESWNCFP 5p"), ALL) == SIXTEEN
    assert _core.special_shape(H("123m 456m 789m 123p 12s 33s"), ALL) == 0
    assert _core.special_shape(H("147m 258p 369s ESWNCFP 5p"), ALL & ~SIXTEEN) == 0


def test_waits_examples():
    held = np.zeros(N_KINDS, np.int64)
    out = np.zeros(N_KINDS, np.bool_)
    # EX03: only P is missing; the mixed shape with the eye already there waits on P alone
    c = H("119m 19p 19s ESWNCF 234m")
    assert _core.win_wait_mask(c, 5, c, ALL, out) == 1 and names(out) == ["P"]
    assert _core.win_wait_mask(c, 5, c, PURE, out) == 0
    # thirteen singles and a complete pon: the 13-sided wait (十三么十三飛)
    c = H("19m 19p 19s ESWNCFP 555m")
    assert _core.win_wait_mask(c, 5, c, MIXED, out) == 13
    assert _core.win_wait_mask(c, 5, c, PURE, out) == 0
    c = H("19m 19p 19s ESWNCFP 111m")  # 1m is held four times: no wait on it
    assert _core.win_wait_mask(c, 5, c, PURE, out) == 12 and "1m" not in names(out)
    # EX06's 16 tiles wait on any of their 16 kinds
    c = H("147m 258p 369s ESWNCFP")
    assert _core.win_wait_mask(c, 5, c, SIXTEEN, out) == 16
    held[:] = c
    held[0] = 4  # the other three 1m are melded or otherwise held by the seat
    assert _core.win_wait_mask(c, 5, held, SIXTEEN, out) == 15 and "1m" not in names(out)
    # a wait the standard shape has too is counted once
    c = H("19m 19p 19s ESWNCFP 11m 9m")
    n = _core.win_wait_mask(c, 5, c, PURE | MIXED, out)
    assert names(out) == ["1m"] and n == 1
    # melds: no special shape
    c = H("19m 19p 19s ESWN 5m")
    assert _core.win_wait_mask(c, 2, c, ALL, out) == 0


def test_only_special_shape_is_a_win():
    """A hand that can only win as 十六不搭 is a win under the shape bit and nothing else."""
    c = H("147m 258p 369s ESWNCFP")
    assert _testing.shanten(c, 5) > 0
    assert _core.win_shanten(c, 5, SIXTEEN) == 0
    c2 = c.copy()
    c2[WIND0] += 1
    assert _core.is_win(c2, 5, SIXTEEN) and not _core.is_win(c2, 5, ALL & ~SIXTEEN)


# --------------------------------------------------------------------------------------------------
# Properties against the references


@pytest.mark.parametrize("shapes", SHAPE_KINDS)
@SETTINGS
@given(data=st.data())
def test_shanten_matches_reference(shapes, data):
    c = data.draw(shape_hands(shapes, data.draw(st.sampled_from([14, 16, 17]))))
    assert shanten_of(c, shapes) == ref_shanten(c, shapes)


@pytest.mark.parametrize("shapes", SHAPE_KINDS)
@SETTINGS
@given(data=st.data())
def test_complete_iff_shanten_minus_one(shapes, data):
    c = data.draw(shape_hands(shapes, 17))
    complete = is_shape(c, shapes)
    assert complete == ref_is(c, shapes)
    assert complete == (shanten_of(c, shapes) == -1)
    assert complete == (_core.special_shape(c, shapes) != 0)


@pytest.mark.parametrize("shapes", SHAPE_KINDS)
@SETTINGS
@given(data=st.data())
def test_wait_iff_adding_completes(shapes, data):
    c = data.draw(shape_hands(shapes, 16))
    held = c.astype(np.int64).copy()
    if data.draw(st.booleans()):  # some kinds also held in melds elsewhere
        k = data.draw(st.integers(0, N_KINDS - 1))
        held[k] = 4
    out = np.zeros(N_KINDS, np.bool_)
    n = _testing.special_wait_mask(c, held, shapes, out)
    expect = []
    for k in range(N_KINDS):
        if c[k] < 4 and held[k] < 4:
            c2 = c.copy()
            c2[k] += 1
            if is_shape(c2, shapes):
                expect.append(k)
    assert list(np.flatnonzero(out)) == expect and n == len(expect)
    # wired into win_wait_mask: the union with the standard waits
    std = np.zeros(N_KINDS, np.bool_)
    _testing.wait_mask(c, 5, held, std)
    win = np.zeros(N_KINDS, np.bool_)
    assert _core.win_wait_mask(c, 5, held, shapes, win) == int((std | out).sum())
    assert (win == (std | out)).all()
    # ready (shanten 0) iff some tile completes the hand, by the shape or the standard form
    any_wait = np.zeros(N_KINDS, np.bool_)
    _core.win_wait_mask(c, 5, c, shapes, any_wait)
    assert (_core.win_shanten(c, 5, shapes) == 0) == bool(any_wait.any())


@pytest.mark.parametrize("shapes", [ALL, ALL | GAP2])
@SETTINGS
@given(data=st.data())
def test_win_shanten_is_the_minimum(shapes, data):
    kind = data.draw(st.sampled_from([PURE, MIXED, SIXTEEN]))
    c = data.draw(
        shape_hands(kind | (shapes & GAP2) if kind == SIXTEEN else kind, data.draw(st.sampled_from([16, 17])))
    )
    expect = min(
        _testing.shanten(c, 5),
        _testing.eight_pairs_shanten(c),
        _testing.thirteen_orphans_shanten(c, shapes),
        _testing.sixteen_unrelated_shanten(c, shapes),
    )
    assert _core.win_shanten(c, 5, shapes) == expect
    if c.sum() == 17:
        assert _core.is_win(c, 5, shapes) == (expect == -1)
