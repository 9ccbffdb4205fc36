"""The extras pack (EXTRAS.md): rule options, the effective profile, the case file, families, speed
gating, and the MCR detectors through a custom profile."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from envs.rules import Rules, RulesError
from envs.scoring import codes as C
from envs.scoring.api import score
from envs.scoring.cases import CaseError
from envs.scoring.profile import (
    EX_MCR,
    EX_PATTERNS,
    PO_EXTRAS,
    PO_SHAPES,
    SHAPES,
    effective_profile,
    load_pack,
    load_profile,
)
from tw16.cli.score import run_score

DATA = Path(__file__).parent / "data"
PACK_KEYS = tuple(it.key for it in load_pack("extras").items)


def _cases(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip() and not line.startswith("#")]


# --------------------------------------------------------------------------------------------------
# Case files


def test_cases_extras_check(capsys):
    assert run_score(str(DATA / "cases_extras.jsonl"), check=True) == 0
    err = capsys.readouterr().err
    assert "0 mismatch" in err


def test_cases_extras_cover_every_item():
    """EXTRAS.md section 5 is there verbatim, and every pack item has a positive case and a negative
    case (id X<key>-, a legal win without the item), each with a note."""
    cases = _cases(DATA / "cases_extras.jsonl")
    by_id = {c["id"]: c for c in cases}
    assert {f"EX0{i}" for i in range(1, 9)} <= set(by_id)
    assert all(c.get("note") for c in cases)
    scored = [c for c in cases if not c["expected"].get("error")]
    for key in PACK_KEYS:
        assert any(key in c["expected"]["items"] for c in scored), f"no positive case for {key}"
        neg = by_id.get(f"X{key}-")
        assert neg is not None, f"no negative case for {key}"
        if not neg["expected"].get("error"):
            assert key not in neg["expected"]["items"]
    for p in ("strict16", "casual"):
        assert any(c["profile"] == p and c["rules"].get("extras") for c in scored)


def test_cases_mcr_check(capsys, monkeypatch):
    monkeypatch.chdir(Path(__file__).parent.parent)  # the cases name their profile by a relative path
    assert run_score(str(DATA / "cases_mcr.jsonl"), check=True) == 0
    assert "0 mismatch" in capsys.readouterr().err


def test_cases_mcr_cover_every_detector():
    cases = _cases(DATA / "cases_mcr.jsonl")
    by_id = {c["id"]: c for c in cases}
    for key in C.MCR_KEYS:
        assert any(key in c["expected"].get("items", {}) for c in cases), f"no positive case for {key}"
        neg = by_id.get(f"M{key}-")
        assert neg is not None and key not in neg["expected"]["items"], f"no negative case for {key}"


def test_standard_cases_unchanged(capsys):
    assert run_score(str(DATA / "standard.jsonl"), check=True) == 0


# --------------------------------------------------------------------------------------------------
# Rule options and the effective profile


def test_extras_options_validated():
    with pytest.raises(RulesError, match="extras"):
        Rules.make("standard", extras="yes")
    with pytest.raises(RulesError, match="not items of the extras pack"):
        Rules.make("standard", extras=True, extras_off=["self_draw"])
    with pytest.raises(RulesError, match="needs extras"):
        Rules.make("standard", extras_off=["five_gates"])
    with pytest.raises(RulesError, match="list of item keys"):
        Rules.make("standard", extras=True, extras_off="five_gates")
    with pytest.raises(RulesError, match="unrelated_gap"):
        Rules.make("standard", unrelated_gap=4)
    with pytest.raises(RulesError, match="unknown rule option"):
        Rules.make("standard", extra=True)


def test_extras_rules_roundtrip_and_cache():
    r = Rules.make("standard", extras=True, extras_off=["two_suit_chows", "five_gates", "five_gates"])
    assert r.extras_off == ("five_gates", "two_suit_chows")
    d = json.loads(r.to_json())
    assert d["extras"] is True and d["extras_off"] == ["five_gates", "two_suit_chows"]
    assert Rules.from_dict(d) == r and hash(Rules.from_dict(d)) == hash(r)
    # one effective profile object (and one compiled form) per setting
    assert r.profile_data is Rules.from_dict(d).profile_data
    assert r.profile_data.compiled()[0] is Rules.from_dict(d).profile_data.compiled()[0]
    assert Rules().profile_data is load_profile("standard")
    assert r.replace(extras_off=[]).extras_off == ()


@pytest.mark.parametrize("base", ["standard", "strict16", "casual"])
def test_effective_profile_order(base):
    plain = load_profile(base)
    eff = Rules.make(base, extras=True).profile_data
    assert eff.name == base and eff.packs == ("extras",)
    assert eff.keys[: len(plain.keys)] == plain.keys  # base rows first, unchanged
    appended = eff.keys[len(plain.keys) :]
    assert appended == tuple(k for k in PACK_KEYS if k not in plain.keys)  # then EXTRAS.md row order
    for k in plain.keys:  # base items keep their values
        assert eff.item(k) == plain.item(k)
    p_tai, p_repl, p_opts = eff.compiled()
    assert p_opts[PO_EXTRAS] == EX_PATTERNS
    shapes = {"eight_pairs", "thirteen_orphans_pure", "thirteen_orphans_mixed", "sixteen_unrelated"}
    assert p_opts[PO_SHAPES] == sum(SHAPES[s] for s in shapes)
    assert list(p_tai[3, : len(eff.keys)]) == [C.ITEM_INDEX[k] for k in eff.keys]
    assert (p_tai[3, len(eff.keys) :] == -1).all()


def test_strict16_keeps_its_eight_pairs_row():
    eff = Rules.make("strict16", extras=True).profile_data
    assert eff.keys.index("eight_pairs") == load_profile("strict16").keys.index("eight_pairs")
    assert eff.keys.count("eight_pairs") == 1
    # extras_off cannot take strict16's own item away
    eff2 = Rules.make("strict16", extras=True, extras_off=["eight_pairs"]).profile_data
    assert "eight_pairs" in eff2.keys and eff2.compiled()[2][PO_SHAPES] & SHAPES["eight_pairs"]


def test_extras_off_and_shapes():
    off = ["pure_thirteen_orphans", "mixed_thirteen_orphans", "eight_pairs"]
    eff = Rules.make("standard", extras=True, extras_off=off).profile_data
    assert not set(off) & set(eff.keys)
    assert eff.options["shapes"] == ["sixteen_unrelated"]
    gap2 = Rules.make("standard", extras=True, unrelated_gap=2).profile_data
    assert "unrelated_gap2" in gap2.options["shapes"]
    assert effective_profile("standard") is load_profile("standard")


def test_section3_changes():
    """EXTRAS.md 3: the pack's items replace all_pungs, full_flush, half_flush, kong_replacement_win and
    concealed as listed; single_wait sees the special shapes' waits."""
    eff = Rules.make("standard", extras=True).profile_data
    repl = {k: set(eff.item(k).replaces) for k in eff.keys}
    assert {k for k, r in repl.items() if "all_pungs" in r} >= {
        "all_terminals",
        "mixed_terminals",
        "five_kongs",
        "five_shifted_pungs",
        "all_honours",
    }
    assert "full_flush" in repl["pure_nine_gates"] and "half_flush" in repl["all_green"]
    assert "kong_replacement_win" in repl["kong_chain_2"] and "kong_replacement_win" in repl["kong_chain_3"]
    for k in (
        "eight_pairs",
        "pure_thirteen_orphans",
        "mixed_thirteen_orphans",
        "sixteen_unrelated",
        "sixteen_unrelated_pure",
    ):
        assert "concealed" in repl[k]
    # single_wait through a special shape's waits (EX03)
    r = score("119m 19p 19s ESWNCF 234m", win_tile="P", discarder="N", seat="W", rules={"extras": True})
    assert r["items"]["single_wait"] == 1


def test_families_do_not_replace_each_other_globally():
    eff = Rules.make("standard", extras=True).profile_data
    _, p_repl, _ = eff.compiled()
    for fam in C.FAMILIES:
        for a in fam:
            for b in fam:
                assert p_repl[C.ITEM_INDEX[a], C.ITEM_INDEX[b]] == 0
    # across families the table's replaces stand
    assert p_repl[C.ITEM_INDEX["four_identical_chows"], C.ITEM_INDEX["four_in_four"]] == 1
    assert p_repl[C.ITEM_INDEX["all_terminals"], C.ITEM_INDEX["three_suit_pungs"]] == 1


def test_base_profiles_skip_the_extras_predicates():
    for p in ("standard", "strict16", "casual"):
        assert load_profile(p).compiled()[2][PO_EXTRAS] == 0


def test_extras_off_item_not_scored():
    r = score(
        "123456789m 123p 12s 55s",
        win_tile="3s",
        discarder="W",
        seat="S",
        flowers="f2",
        rules={"extras": True, "extras_off": ["three_suit_chows"]},
    )
    assert "three_suit_chows" not in r["items"] and r["items"]["pure_straight"] == 8
    # with three_suit_chows left out, the best assignment of its family is a two_suit_chows pair
    assert r["items"].get("two_suit_chows") == 2


def test_names_in_chinese():
    r = score("147m 258p 369s ESWNCFP", win_tile="5p", discarder="S", seat="W", rules={"extras": True})
    assert r["names"] == {"sixteen_unrelated_pure": "正宗十六不搭"}


def test_replacement_chain_refusals():
    kw = dict(
        melds=["pon SSS", "kong 2222m", "ankong 7777p", "addkong 5555s"],
        win_tile="5m",
        win_by="self_draw",
        seat="E",
        flags=["kong_replacement"],
        rules={"extras": True},
    )
    from envs.scoring.cases import parse_case

    base = {"id": 1, "hand": "34m 99s", **kw, "melds": kw["melds"]}
    for bad in (0, -1, True, "2", 256):
        with pytest.raises(CaseError, match="replacement_chain"):
            parse_case({**base, "replacement_chain": bad})
    c = parse_case({**base, "replacement_chain": 3})
    assert (c.flags >> C.CHAIN_SHIFT) & C.CHAIN_MASK == 3


# --------------------------------------------------------------------------------------------------
# MCR detectors through a custom profile (docs/profiles.md)


def test_custom_profile_gives_a_detector_a_value(tmp_path):
    prof = tmp_path / "my.toml"
    prof.write_text('extends = "standard"\n\n[items.all_simples]\ntai = 3\n', encoding="utf-8")
    hand = dict(hand="234m 567m 345p 678p 222s 7s", win_tile="7s", discarder="W", seat="S")
    r = score(**hand, profile=str(prof))
    assert r["items"] == {"concealed": 1, "single_wait": 1, "all_simples": 3} and r["hand_tai"] == 5
    assert r["names"]["all_simples"] == "斷么九"
    assert load_profile(str(prof)).compiled()[2][PO_EXTRAS] == EX_MCR
    # the same hand under standard: no detector
    assert "all_simples" not in score(**hand)["items"]
    # with the extras pack as well
    r2 = score(**hand, profile=str(prof), rules={"extras": True})
    assert r2["items"]["all_simples"] == 3


def test_no_builtin_profile_has_a_detector():
    for p in ("standard", "strict16", "casual"):
        for extras in (False, True):
            keys = set(Rules.make(p, extras=extras).profile_data.keys)
            assert not keys & set(C.MCR_KEYS)


def test_registry_append_only_layout():
    keys = C.ITEM_KEYS
    assert keys[:38][-1] == "shown_ready" and keys.index("eight_pairs") == 35
    assert len(set(keys)) == len(keys)
    assert set(PACK_KEYS) == set(C.EXTRAS_KEYS)
    assert [k for k in C.EXTRAS_KEYS] == list(PACK_KEYS)
    assert all(C.ITEM_ZH[k] for k in keys)


def test_profile_rules_can_switch_extras_on(tmp_path):
    prof = tmp_path / "with_pack.toml"
    prof.write_text('extends = "casual"\n[rules]\nextras = true\nextras_off = ["five_gates"]\n', encoding="utf-8")
    r = Rules(profile=str(prof))
    assert r.extras and r.extras_off == ("five_gates",) and r.profile_data.packs == ("extras",)
    assert "five_gates" not in r.profile_data.keys and "pure_straight" in r.profile_data.keys
    plain = Rules(profile=str(prof), extras=False)  # an explicit option wins over the profile default
    assert not plain.profile_data.packs and plain.extras_off == ()


@pytest.mark.parametrize("profile", ["standard", "strict16", "casual"])
def test_pack_never_lowers_a_hand(profile):
    """Every pack item only adds, and each base item it replaces is worth less than it (EXTRAS.md 3),
    so on random winning hands the pack's best reading scores at least the base profile's."""
    from envs._core import score_hand
    from envs.engine.mask import native_rules
    from tw16.bench.scoring import random_winning_hands

    conc, mt, mk, nm, ctx = random_winning_hands(1500, seed=7)
    base = native_rules(Rules.make(profile))
    ext = native_rules(Rules.make(profile, extras=True))
    out = np.zeros(C.N_ITEMS, np.int32)
    for i in range(conc.shape[0]):
        args = (conc[i], mt[i], mk[i], nm[i], ctx[i, 4], ctx[i, 0], ctx[i, 1], ctx[i, 2], ctx[i, 3], 0)
        t0 = score_hand(*args, base, out)
        t1 = score_hand(*args, ext, out)
        assert t1 >= t0 >= 0, (i, t0, t1)
        assert out.sum() == t1
