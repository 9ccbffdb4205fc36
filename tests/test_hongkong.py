"""hongkong scoring (HONGKONG.md 2, 3, 5.1, 6, 7): the example hands, a positive and a negative case
for every item, count methods, the dual reading, legs and 全包, refusals, the flag-word interface.

The expectations live in tests/data/hongkong.jsonl (HK01-HK10, copied from HONGKONG.md 7) and
tests/data/hongkong_items.jsonl (worked out by hand; each case's `note` says why). A case id holds
tokens `pos:KEY` / `neg:KEY`: the item is / is not in that case's expected items.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from envs._core import is_win, score_hand, win_shanten, win_wait_mask
from envs._core._testing import hk_legs, hk_settle
from envs.engine.mask import native_rules
from envs.rules import Rules
from envs.scoring import codes as C
from envs.scoring.api import score
from envs.scoring.cases import CaseError, score_case
from envs.scoring.profile import PO_COUNT_METHOD, PO_DUAL_READING, PO_HONGKONG, PO_SHAPES, load_profile
from envs.tiles import parse_hand
from tw16.cli.score import run_score

DATA = Path(__file__).resolve().parent / "data"
EXAMPLES = DATA / "hongkong.jsonl"
ITEMS = DATA / "hongkong_items.jsonl"


def _cases(*paths) -> list[dict]:
    return [json.loads(line) for p in paths for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_examples_hk01_hk10_check():
    assert [c["id"] for c in _cases(EXAMPLES)] == [f"HK{i:02d}" for i in range(1, 11)]
    assert run_score(str(EXAMPLES), check=True) == 0


def test_item_cases_check():
    assert run_score(str(ITEMS), check=True) == 0


def test_every_item_has_a_positive_and_a_negative_case():
    keys = load_profile("hongkong").keys
    pos, neg = set(), set()
    for c in _cases(EXAMPLES, ITEMS):
        items = c["expected"].get("items")
        if items is None:
            continue
        pos |= set(items)
        for tok in str(c["id"]).split():
            kind, _, key = tok.partition(":")
            if kind == "pos" and key in keys:
                assert key in items, c["id"]
            if kind == "neg" and key in keys:
                assert key not in items, c["id"]
                neg.add(key)
    assert [k for k in keys if k not in pos] == []
    assert [k for k in keys if k not in neg] == []


def test_profile_table_follows_section_3():
    prof = load_profile("hongkong")
    assert prof.keys[:3] == ("self_draw", "concealed", "concealed_self_draw")
    assert prof.keys[-2:] == ("big_chicken", "duck")
    assert len(prof.keys) == 101
    assert prof.item("five_concealed").tai == 50 and prof.zh("thirteen_orphans_13") == "十三么十三飛"
    p_opts = prof.compiled()[2]
    assert p_opts[PO_HONGKONG] == 1 and p_opts[PO_COUNT_METHOD] == 1 and p_opts[PO_DUAL_READING] == 1
    assert p_opts[PO_SHAPES] == 15  # 嚦咕嚦咕, 十三么 (pon of an orphan, or any chow / pon), 十六不搭 gap 3
    assert load_profile("standard").compiled()[2][PO_HONGKONG] == 0


def test_rule_options_reach_the_compiled_profile():
    p = Rules(profile="hongkong", count_method=2, dual_reading=False).profile_data.compiled()[2]
    assert p[PO_COUNT_METHOD] == 2 and p[PO_DUAL_READING] == 0
    assert Rules(profile="hongkong").multi_win and Rules(profile="hongkong").declare_ready
    assert not Rules(profile="hongkong").swap_call


HK08 = dict(melds=["pon 444m"], win_tile="6s", discarder="W", seat="S", profile="hongkong")


def test_dual_reading_on_and_off():
    on = score("111222333p 78s 99s", **HK08)
    assert on["items"] == {"no_honours_no_flowers": 3, "triple_chow": 15, "three_concealed": 10, "three_sisters": 15}
    off = score("111222333p 78s 99s", rules={"dual_reading": False}, **HK08)
    assert off["items"] == {"no_honours_no_flowers": 3, "three_concealed": 10, "three_sisters": 15}
    # the winning discard among the nine tiles: no dual reading (2.3)
    r = score("11122233p 789s 99s", melds=["pon 444m"], win_tile="3p", discarder="W", seat="S", profile="hongkong")
    assert r["items"] == {"no_honours_no_flowers": 3, "two_concealed": 5, "three_sisters": 15}  # 333p is the discard's


def test_count_method_2_example():
    hand = dict(melds=["pon WWW"], win_tile="9s", discarder="W", seat="S", flowers="f2", profile="hongkong")
    one = score("123m 123m 456p 78s NN", **hand)["items"]
    two = score("123m 123m 456p 78s NN", rules={"count_method": 2}, **hand)["items"]
    assert (one["mixed_straight"], one["double_chow"]) == (8, 5)
    assert (two["mixed_straight"], two["double_chow"]) == (16, 5)


def _legs(hand_tai, win_by, winner, payer, liable, dealer, streak, **opts):
    o = native_rules(Rules(profile="hongkong", **opts))
    t = np.zeros(4, np.int64)
    p = np.zeros(4, np.int64)
    n = hk_legs(hand_tai, win_by, winner, payer, liable, dealer, streak, o, t, p)
    return n, t.tolist(), p.tolist()


def test_legs():
    # non-dealer S wins on W's discard: one leg, no dealer tai
    assert _legs(10, C.WIN_DISCARD, 1, 2, -1, 0, 3) == (1, [-1, -1, 10, -1], [-1, -1, 2, -1])
    # ... on the dealer's discard: dealer tai 1 + 2 x 3
    assert _legs(10, C.WIN_DISCARD, 1, 0, -1, 0, 3) == (1, [17, -1, -1, -1], [0, -1, -1, -1])
    # non-dealer self-draw: the dealer's leg without dealer tai, unless dealer_pays_on_self_draw
    assert _legs(10, C.WIN_SELF_DRAW, 1, -1, -1, 0, 0)[1] == [10, -1, 10, 10]
    assert _legs(10, C.WIN_SELF_DRAW, 1, -1, -1, 0, 0, dealer_pays_on_self_draw=True)[1] == [11, -1, 10, 10]
    # the dealer self-draws: dealer tai on every leg; 全包 by N: N pays all three
    assert _legs(10, C.WIN_SELF_DRAW, 0, -1, 3, 0, 1) == (3, [-1, 13, 13, 13], [-1, 3, 3, 3])
    # 七搶一 from the dealer: the dealer's leg with dealer tai
    assert _legs(30, C.WIN_FLOWERS, 2, 0, -1, 0, 0)[1] == [31, -1, -1, -1]
    deltas = np.zeros(4, np.int64)
    hk_settle(10, C.WIN_SELF_DRAW, 0, -1, 3, 0, 1, native_rules(Rules(profile="hongkong")), deltas)
    assert deltas.tolist() == [3 * 160, 0, 0, -3 * 160]


def test_flag_word_interface_matches_cases():
    """The engine's path: score_hand with the context bits gives what `tw16 score` gives."""
    native = native_rules(Rules(profile="hongkong"))
    conc = parse_hand("123m 567m 234p 678p 999s NN")  # with the winning 8p (kind 16)
    mt = np.zeros(5, np.int8)
    out = np.zeros(C.N_ITEMS, np.int32)
    flags = C.F_DECLARED_READY | C.F_IPPATSU | C.hk_context_flags(discards=4, floor=3, co_winners=2)
    tai = score_hand(conc, mt, mt, 0, 0b10, 16, C.WIN_DISCARD, 1, 0, flags, native, out)
    r = score(
        "123m 567m 234p 67p 999s NN",
        win_tile="8p",
        discarder="W",
        seat="S",
        flowers="f2",
        profile="hongkong",
        flags=["declared_ready", "ippatsu"],
        discards=4,
        floor=3,
        co_winners=2,
    )
    assert tai == r["hand_tai"] == 3 + 5 + 5 + 80 + 5 + 2  # concealed, ready, 一發, 人胡 (replaces 七隻內), 雙響, 正花
    assert {C.ITEM_KEYS[i]: int(out[i]) for i in np.flatnonzero(out)} == r["items"]
    assert C.F_IPPATSU < 1 << C.CHAIN_SHIFT and C.DISCARDS_SHIFT >= C.CHAIN_SHIFT + 8


def test_flower_win_takes_the_replacement_flags():
    """CASES.md: a flower win counts as self-drawn for the replacement flags; with a complete hand they
    give 3.8's replacement items (connected draws drop self_draw), with a 16-tile hand nothing."""
    hand, f8 = "123m 456m 789m 234p 678s NN", "f1 f2 f3 f4 f5 f6 f7 f8"
    plain = score(hand, flowers=f8, win_by="flowers", seat="S", profile="hongkong")["items"]
    fr = score(hand, flowers=f8, win_by="flowers", seat="S", profile="hongkong", flags=["flower_replacement"])["items"]
    assert "flower_replacement_win" not in plain and fr == {**plain, "flower_replacement_win": 1}
    chain = score(
        hand,
        flowers=f8,
        win_by="flowers",
        seat="S",
        profile="hongkong",
        flags=["flower_replacement"],
        replacement_chain=2,
    )["items"]
    assert chain["replacement_chain_win"] == 10 and "self_draw" not in chain and "flower_replacement_win" not in chain
    short = score(
        "123m 456m 789m 234p 56p 55s",
        flowers=f8,
        win_by="flowers",
        seat="S",
        profile="hongkong",
        flags=["flower_replacement"],
    )["items"]
    assert short == {"eight_flowers": 40}


def test_special_shapes_win_waits_shanten():
    shapes = int(load_profile("hongkong").compiled()[2][PO_SHAPES])
    waits = np.zeros(34, np.bool_)
    # 十三么 with a pon of a 2-8 (any set) waits on all 13 orphans
    thirteen = parse_hand("19m 19p 19s ESWNCFP 555s")
    assert win_wait_mask(thirteen, 5, thirteen, shapes, waits) == 13
    assert win_shanten(thirteen, 5, shapes) == 0
    # 十六不搭 needs tiles 3 apart: 147m 258p 36s with the eye EE waits on 9s (not on 8s)
    sixteen = parse_hand("147m 258p 36s ESWNCFP E")
    win_wait_mask(sixteen, 5, sixteen, shapes, waits)
    assert waits[parse_hand("9s").argmax()] and not waits[parse_hand("8s").argmax()]
    # 嚦咕嚦咕: four of a kind counts as two pairs
    assert is_win(parse_hand("1111m 99p 55s 66s EE CCC FF"), 5, shapes)
    assert not is_win(parse_hand("1111m 99p 55s 66s EE CCC FF"), 5, 0)


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"flags": ["earthly"]}, "flag earthly is refused by hongkong"),
        ({"flags": ["shown_ready"]}, "hongkong has only declared_ready"),
        ({"flags": ["ippatsu"]}, "ippatsu without declared_ready"),
        ({"co_winners": 2, "win_by": "self_draw"}, "several winners only share a discard"),
        ({"discards": 1}, "not the dealer's"),
        ({"discards": 8, "floor": 9}, "floor 9 is more than the 8 discards"),
        ({"liable": "E"}, "liable (全包) is only for a self-drawn win"),
    ],
)
def test_refusals_name_the_problem(fields, message):
    case = {
        "id": "x",
        "profile": "hongkong",
        "hand": "123m 567m 234p 67p 999s NN",
        "win_tile": "8p",
        "win_by": "discard",
        "discarder": "W",
        "seat": "S",
    } | fields
    if case["win_by"] != "discard":
        case.pop("discarder")
    r = score_case(case)
    assert message in r.get("error", ""), r


def test_hongkong_fields_refused_elsewhere():
    base = {
        "id": "x",
        "hand": "123m 567m 234p 67p 999s NN",
        "win_tile": "8p",
        "win_by": "discard",
        "discarder": "W",
        "seat": "S",
    }
    assert "for the hongkong profile" in score_case(base | {"discards": 3})["error"]
    assert "flag ippatsu is for the hongkong profile" in score_case(base | {"flags": ["ippatsu"]})["error"]
    with pytest.raises(CaseError, match="eight flowers"):
        score("123m 567m 234p 67p 999s NN", win_tile="8p", discarder="W", seat="S", flowers="f1 f2 f3 f4 f5 f6 f7 f8")


def test_random_winning_hands_always_score():
    """Every standard-shape winning hand scores at least one item (a flower item or 無花 always holds),
    and the items add up to the hand tai."""
    from tw16.bench.scoring import random_winning_hands

    native = native_rules(Rules(profile="hongkong"))
    conc, mt, mk, nm, ctx = random_winning_hands(400, seed=3)
    out = np.zeros(C.N_ITEMS, np.int32)
    for i in range(400):
        tai = score_hand(
            conc[i],
            mt[i],
            mk[i],
            nm[i],
            ctx[i, 4],
            ctx[i, 0],
            ctx[i, 1],
            ctx[i, 2],
            ctx[i, 3],
            0,
            native,
            out,
        )
        assert tai >= 1 and tai == out.sum(), i


def test_item_cases_file_is_generated_from_its_source():
    import runpy

    text = runpy.run_path(str(DATA.parent.parent / "tools" / "make_hongkong_items.py"))["TEXT"]
    assert ITEMS.read_text(encoding="utf-8") == text, "run python tools/make_hongkong_items.py"
