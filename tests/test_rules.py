"""The rules object (RULES.md 5): validation with clear errors, profile defaults, serialisation, arrays."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from envs import rules as R
from envs.rules import DEFAULTS, Rules, RulesError, Stakes
from envs.scoring.profile import ProfileError


def test_defaults_follow_rules_md():
    r = Rules()
    assert r.profile == "standard"
    assert (r.flowers, r.dead_wall, r.dead_wall_per_kong, r.multi_win, r.strict_pass) == (True, 16, False, False, False)
    assert (r.no_calls_last3, r.no_kong_after_claim, r.kong_replacement_self_draw, r.swap_call) == (
        True,
        True,
        True,
        True,
    )
    assert (r.declare_ready, r.west_draw, r.streak_cap, r.episode) == (False, False, None, "hand")
    assert r.stakes == Stakes(30, 10)
    assert Rules() == Rules.make() == Rules.from_dict({})


def test_profile_defaults():
    assert Rules(profile="strict16").declare_ready is True
    assert Rules(profile="strict16").west_draw is False
    casual = Rules(profile="casual")
    assert casual.declare_ready is True and casual.west_draw is True
    assert Rules(profile="standard").declare_ready is False
    # an explicit option wins over the profile default
    assert Rules(profile="casual", west_draw=False).west_draw is False
    assert Rules(profile="strict16", declare_ready=False).declare_ready is False


# A bad value for every option, and what the error must say.
BAD = {
    "flowers": [("yes", "'flowers' must be true or false"), (1, "'flowers' must be true or false")],
    "dead_wall": [(-1, "'dead_wall' must be an integer in 0..60"), (61, "0..60"), ("16", "0..60"), (True, "0..60")],
    "dead_wall_per_kong": [(0, "'dead_wall_per_kong' must be true or false")],
    "multi_win": [("false", "'multi_win' must be true or false")],
    "strict_pass": [(1.0, "'strict_pass' must be true or false")],
    "no_calls_last3": [([], "'no_calls_last3' must be true or false")],
    "no_kong_after_claim": [("on", "'no_kong_after_claim' must be true or false")],
    "kong_replacement_self_draw": [(2, "'kong_replacement_self_draw' must be true or false")],
    "swap_call": [("allowed", "'swap_call' must be true or false")],
    "declare_ready": [
        (1, "'declare_ready' must be true or false"),
        (True, "'declare_ready' needs a profile with ready items"),
    ],
    "west_draw": [("W", "'west_draw' must be true or false")],
    "streak_cap": [
        (-1, "'streak_cap' must be null or an integer"),
        (True, "'streak_cap'"),
        ("2", "'streak_cap'"),
        (10**7, "'streak_cap'"),
    ],
    "stakes": [
        ("30", "stakes must be"),
        ("30/x", "stakes must look like '30/10'"),
        ("30/10/5", "'30/10'"),
        ({"base": -1, "per_tai": 10}, "stakes.base must be an integer"),
        ({"per_tai": 0}, "per_tai must be positive"),
        ({"ante": 5}, "unknown stakes field(s) ['ante']"),
        (5, "stakes must be"),
        ({"base": 10**10, "per_tai": 1}, "stakes.base"),
        ({"base": 1, "per_tai": "10"}, "stakes.per_tai"),
    ],
    "episode": [("round", "'episode' must be one of ('hand', 'game')"), (None, None)],
    "extras": [("yes", "'extras' must be true or false")],
    "extras_off": [
        ("eight_pairs", "'extras_off' must be a list of item keys"),
        (["nope"], "names ['nope']"),
        (["eight_pairs"], "needs extras = true"),
    ],
    "unrelated_gap": [(4, "'unrelated_gap' must be 2 or 3"), (True, "'unrelated_gap'")],
    "settlement": [("tab", "'settlement' must be one of ('immediate', 'la', 'win_lose')")],
    "la_cut": [(4, "'la_cut' must be 3 or 'none'"), (True, "'la_cut'"), ("3", "'la_cut'")],
    "la_cut_policy": [("sometimes", "'la_cut_policy' must be one of ('always', 'ask')")],
    "la_draw": [(1, "'la_draw' must be one of ('keep', 'settle')")],
    "flower_win": [(True, "'flower_win' must be one of ('auto', 'offer')")],
    "dice_payments": [
        ("on", "'dice_payments' must be true or false"),
        (True, "'dice_payments' is for the hongkong profile"),
    ],
    "count_method": [
        (3, "'count_method' must be 1 or 2"),
        (True, "'count_method' must be 1 or 2"),
        (2, "'count_method' is for the hongkong profile"),
    ],
    "dual_reading": [
        ("on", "'dual_reading' must be true or false"),
        (False, "'dual_reading' is for the hongkong profile"),
    ],
    "dealer_pays_on_self_draw": [
        (1, "'dealer_pays_on_self_draw' must be true or false"),
        (True, "'dealer_pays_on_self_draw' is for the hongkong profile"),
    ],
    "rob_kong": [(0, "'rob_kong' must be true or false"), ("no", "'rob_kong' must be true or false")],
    "special_wins": [(1, "'special_wins' must be true or false")],
    "seven_flower_win": [("no", "'seven_flower_win' must be true or false"), (0, "'seven_flower_win'")],
    "heavenly_ready_window": [
        ("first", "'heavenly_ready_window' must be one of ('deal', 'dealer_first', 'migi')"),
        ("migi", "'heavenly_ready_window' needs declare_ready = true"),
    ],
    "earthly_ready_window": [
        (True, "'earthly_ready_window' must be one of ('first_discard', 'migi')"),
        ("migi", "'earthly_ready_window' needs declare_ready = true"),
    ],
    "early_wins": [
        ("hk", "'early_wins' must be one of ('standard', 'dealer_discard', 'first_round')"),
        (1, "'early_wins' must be one of"),
    ],
}


def test_ready_windows_need_the_row():
    """PLATFORMS.md 3: a window other than its default needs declare_ready and the profile's row."""
    with pytest.raises(
        RulesError, match="'heavenly_ready_window' needs a profile with the heavenly_ready row; 'mj888'"
    ):
        Rules(profile="mj888", heavenly_ready_window="migi")
    with pytest.raises(RulesError, match="'earthly_ready_window' needs a profile with the earthly_ready row"):
        Rules(profile="zhaishenye", earthly_ready_window="migi")
    with pytest.raises(RulesError, match="'earthly_ready_window' needs declare_ready = true"):
        Rules(profile="strict16", declare_ready=False, earthly_ready_window="migi")
    assert Rules(profile="strict16", heavenly_ready_window="dealer_first").as_array()[R.OPT_HEAVENLY_READY_WINDOW] == 1
    a = Rules(profile="star31").as_array()
    assert (a[R.OPT_SEVEN_FLOWER_WIN], a[R.OPT_EARTHLY_READY_WINDOW], a[R.OPT_STREAK_CAP]) == (0, 1, 10)
    assert Rules(profile="masters").as_array()[R.OPT_EARLY_WINS] == 2
    assert Rules(profile="wikibooks").as_array()[R.OPT_EARLY_WINS] == 1


def test_every_option_has_bad_value_cases():
    missing = sorted(set(DEFAULTS) - set(BAD))
    assert not missing, f"add bad-value cases for new rule option(s) {missing} to BAD in tests/test_rules.py"


@pytest.mark.parametrize("name, value, message", [(n, v, m) for n, vs in BAD.items() for v, m in vs if m is not None])
def test_bad_values_are_named(name, value, message):
    with pytest.raises(RulesError) as e:
        Rules.make("standard", **{name: value})
    assert message in str(e.value)
    with pytest.raises(RulesError):
        Rules.from_dict({name: value})


def test_none_means_the_default():
    assert Rules(episode=None, dead_wall=None, stakes=None) == Rules()


def test_unknown_option_and_profile():
    with pytest.raises(RulesError, match=r"unknown rule option 'multiwin' \(known: .*multi_win"):
        Rules.make(multiwin=True)
    with pytest.raises(RulesError, match="unknown rule option 'multiwin'"):
        Rules.from_dict({"profile": "standard", "multiwin": True})
    with pytest.raises(TypeError):
        Rules(multiwin=True)  # the dataclass itself; make/from_dict name the option
    with pytest.raises(ProfileError, match="unknown profile 'standrd'"):
        Rules(profile="standrd")
    for bad in ("", None, 5):
        with pytest.raises(RulesError, match="profile must be a name or a path"):
            Rules(profile=bad)
    with pytest.raises(RulesError, match="rules must be a JSON object"):
        Rules.from_dict(["standard"])


def test_stakes_forms():
    assert Rules(stakes="50/20").stakes == Stakes(50, 20)
    assert Rules(stakes={"base": 50}).stakes == Stakes(50, 10)
    assert Rules(stakes=Stakes(0, 1)).stakes == Stakes(0, 1)
    with pytest.raises(RulesError, match="per_tai must be positive"):
        Stakes(30, 0)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(profile="strict16"),
        Rules(profile="casual", multi_win=True, streak_cap=3, stakes="100/20", episode="game", dead_wall=20),
        Rules(flowers=False, strict_pass=True, swap_call=False, no_calls_last3=False, dead_wall_per_kong=True),
        Rules(extras=True, extras_off=["eight_pairs"]),
    ],
)
def test_dict_and_json_round_trip(rules):
    from envs.options import OPTIONS

    d = rules.to_dict()
    late = {o.name for o in OPTIONS if o.omit_at_default}  # left out at their default (test below)
    assert set(d) | late == set(DEFAULTS) | {"profile"} and not late & set(d)
    assert Rules.from_dict(d) == rules
    assert hash(Rules.from_dict(d)) == hash(rules)
    s = rules.to_json()
    assert json.loads(s) == d
    assert Rules.from_dict(json.loads(s)) == rules
    assert rules.replace() == rules


def test_replace():
    r = Rules(profile="casual").replace(multi_win=True, streak_cap=2)
    assert (r.profile, r.multi_win, r.streak_cap, r.west_draw) == ("casual", True, 2, True)
    with pytest.raises(RulesError, match="unknown rule option 'nope'"):
        Rules().replace(nope=1)


def test_as_array():
    a = Rules().as_array()
    assert a.dtype == np.int64 and a.shape == (R.N_OPTS,)
    assert a[R.OPT_FLOWERS] == 1 and a[R.OPT_DEAD_WALL] == 16 and a[R.OPT_NO_CALLS_LAST3] == 1
    assert a[R.OPT_STREAK_CAP] == -1  # no cap
    assert (a[R.OPT_BASE], a[R.OPT_PER_TAI]) == (30, 10)
    assert a[R.OPT_EPISODE_GAME] == 0 and a[R.OPT_WEST_DRAW] == 0 and a[R.OPT_DECLARE_READY] == 0
    b = Rules(
        profile="casual",
        flowers=False,
        dead_wall=20,
        dead_wall_per_kong=True,
        multi_win=True,
        strict_pass=True,
        no_calls_last3=False,
        no_kong_after_claim=False,
        kong_replacement_self_draw=False,
        swap_call=False,
        streak_cap=0,
        stakes="50/5",
        episode="game",
    ).as_array()
    expect = {
        R.OPT_FLOWERS: 0,
        R.OPT_DEAD_WALL: 20,
        R.OPT_DEAD_WALL_PER_KONG: 1,
        R.OPT_MULTI_WIN: 1,
        R.OPT_STRICT_PASS: 1,
        R.OPT_NO_CALLS_LAST3: 0,
        R.OPT_NO_KONG_AFTER_CLAIM: 0,
        R.OPT_KONG_REPLACEMENT_SELF_DRAW: 0,
        R.OPT_SWAP_CALL: 0,
        R.OPT_DECLARE_READY: 1,
        R.OPT_STREAK_CAP: 0,
        R.OPT_BASE: 50,
        R.OPT_PER_TAI: 5,
        R.OPT_EPISODE_GAME: 1,
        R.OPT_WEST_DRAW: 1,
    }
    for i, v in expect.items():
        assert b[i] == v, i
    # every index is distinct and inside the array
    idx = [getattr(R, n) for n in dir(R) if n.startswith("OPT_")]
    assert len(set(idx)) == len(idx) and all(0 <= i < R.N_OPTS for i in idx)


def test_frozen():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.multi_win = True  # type: ignore[misc]


def test_option_table_and_rules_fields_agree():
    # envs.options.OPTIONS is the one table; Rules keeps typed fields for its signature, in table order
    from envs.options import OPTIONS, SLOTS

    assert [f.name for f in dataclasses.fields(Rules)] == ["profile"] + [o.name for o in OPTIONS]
    assert [s.index for s in SLOTS] == list(range(R.N_OPTS))
    assert {f"OPT_{s.name}": s.index for s in SLOTS} == {n: getattr(R, n) for n in dir(R) if n.startswith("OPT_")}


def test_environment_doc_lists_every_option():
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "environment.md").read_text(encoding="utf-8")
    missing = [name for name in DEFAULTS if f"| `{name}` |" not in doc]
    assert not missing, f"docs/environment.md's option table lacks {missing}"


def test_late_options_left_out_of_records_at_their_default():
    """The options added after records were first written (omit_at_default) are left out of to_dict at
    the value the profile gives them, so older records stay the same; any other value is written, and
    from_dict restores the rules exactly."""
    from envs.options import OPTIONS
    from envs.scoring.profile import BUILTIN

    late = [o.name for o in OPTIONS if o.omit_at_default]
    assert late == ["seven_flower_win", "heavenly_ready_window", "earthly_ready_window", "early_wins"]
    for p in BUILTIN:
        r = Rules(profile=p)
        d = r.to_dict()
        assert not set(late) & set(d) and Rules.from_dict(d) == r, p
    r = Rules(profile="star31", seven_flower_win=True, early_wins="first_round")
    d = r.to_dict()
    assert (d["seven_flower_win"], d["early_wins"]) == (True, "first_round") and Rules.from_dict(d) == r
    assert Rules.from_dict(Rules(seven_flower_win=False).to_dict()).seven_flower_win is False
