"""The platform profiles (PLATFORMS.md): its example hands, its tables read from the markdown and
compared with the TOML files, a positive and a negative case for every item of every platform, the
case refusals of section 6, the hongkong-item check of section 5 and `tw16 profiles diff`.

The expectations come from tests/data/rules/PLATFORMS.md and PROFILES.md (parsed here) and from the
hand-derived standard cases of tests/data/cases_profiles.jsonl; nothing is read back from the scorer.
The engine side of the options is tests/test_platforms_engine.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from envs.rules import Rules
from envs.scoring.cases import check_result, score_case
from envs.scoring.compare import diff_profiles
from envs.scoring.profile import PLATFORMS, ProfileError, load_profile

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "tests" / "data" / "rules"
PLATFORMS_MD = (RULES_DIR / "PLATFORMS.md").read_text(encoding="utf-8")
PROFILES_MD = (RULES_DIR / "PROFILES.md").read_text(encoding="utf-8")
CASES = [json.loads(x) for x in (ROOT / "tests/data/cases_profiles.jsonl").read_text("utf-8").splitlines() if x]


# -- PLATFORMS.md read as data ----------------------------------------------------------------------
def _examples() -> list[dict]:
    block = PLATFORMS_MD.split("## 8. Example hands")[1].split("```json")[1].split("```")[0]
    return [json.loads(line) for line in block.strip().splitlines()]


def _standard_tai() -> dict[str, int]:
    """PROFILES.md's standard table: key -> tai."""
    sec = PROFILES_MD.split("## `standard`")[1].split("## `strict16`")[0]
    out = {}
    for line in sec.splitlines():
        m = re.match(r"\| (\w+) \| [^|]+ \| (\d+)", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


STANDARD = _standard_tai()


def _cell(text: str, std: int | None) -> int | None:
    """A cell of PLATFORMS.md 2: `·` the standard tai, `–` none, else its leading number."""
    text = text.strip()
    if text == "·":
        return std
    if text == "–":
        return None
    return int(text.split()[0])


def platform_tables() -> dict[str, dict[str, int]]:
    """profile -> {key: tai} as PLATFORMS.md 2 (its table, the zhaishenye paragraph) states it."""
    sec = PLATFORMS_MD.split("## 2. Tai")[1].split("### 2.1")[0]
    lines = [x for x in sec.splitlines() if x.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    names = header[3:]
    assert names == list(PLATFORMS)
    tables = {n: dict(STANDARD) for n in names}
    for line in lines[1:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        key = cells[0].split()[0]
        std = STANDARD.get(key)
        for n, c in zip(names, cells[3:]):
            v = _cell(c, std)
            if v is None:
                tables[n].pop(key, None)
            else:
                tables[n][key] = v
    para = " ".join(sec.split("zhaishenye, 宅神爺's larger scale")[1].split())
    removed, sets = para.split(" and sets ")
    for key in re.findall(r"(seat_wind|round_wind|seat_flower)", removed):
        tables["zhaishenye"].pop(key, None)
    for key, v in re.findall(r"(\w+) (\d+)", sets.split("(f)")[0]):
        tables["zhaishenye"][key] = int(v)
    return tables


TABLES = platform_tables()

# PLATFORMS.md 2.1, transcribed: the replaces / reduced that differ from standard's.
HEAVENLY_G = ["self_draw", "concealed", "concealed_self_draw", "single_wait", "heavenly_ready", "earthly_ready"]
EARTHLY_G = ["self_draw", "concealed", "concealed_self_draw", "heavenly_ready", "earthly_ready"]
HUMAN_G = ["concealed", "heavenly_ready", "earthly_ready"]
SPEC_21 = {
    "wikibooks": {"flower_set": ([], None), "heavenly_ready": ([], None), "earthly_ready": ([], None)},
    "star31": {
        "full_beggar": ([], None),
        "earthly_win": (EARTHLY_G, None),
        "heavenly_ready": ([], None),
        "earthly_ready": ([], None),
    },
    "masters": {
        "flower_set": ([], None),
        "full_beggar": ([], None),
        "earthly_win": (EARTHLY_G, None),
        "human_win": (HUMAN_G, None),
        "heavenly_ready": ([], None),
        "earthly_ready": ([], None),
    },
    "mj888": {
        "concealed_self_draw": (["self_draw", "concealed"], (2, ["earthly_ready"])),
        "flower_set": ([], None),
        "last_tile_draw": (["kong_replacement_win"], None),
        "full_beggar": ([], None),
        "all_honours": (["half_flush"], None),
        "heavenly_win": ([k for k in HEAVENLY_G if k != "heavenly_ready"], None),
        "earthly_win": ([k for k in EARTHLY_G if k != "heavenly_ready"], None),
        "earthly_ready": (["concealed"], None),
    },
    "zhonghua": {
        "concealed_self_draw": (["self_draw", "concealed"], (1, ["heavenly_ready", "earthly_ready"])),
        "last_tile_draw": (["kong_replacement_win"], None),
        "all_honours": (["half_flush"], None),
        "heavenly_win": (HEAVENLY_G, None),
        "earthly_win": (EARTHLY_G, None),
        "human_win": (HUMAN_G, None),
        "heavenly_ready": (["concealed"], None),
        "earthly_ready": (["concealed"], None),
    },
    "zhaishenye": {
        "concealed_self_draw": (["self_draw", "concealed"], (2, ["heavenly_ready"])),
        "big_winds": (["small_winds", "wind_pung"], None),
        "heavenly_ready": (["concealed"], None),
        "wind_pung": ([], None),
    },
}


# -- the example hands, the tables --------------------------------------------------------------
@pytest.mark.parametrize("case", _examples(), ids=lambda c: c["id"])
def test_example_hands(case):
    result = score_case(case)
    assert check_result(result, case["expected"]) == [], result


def test_every_platform_has_examples():
    assert {c["profile"] for c in _examples()} == set(PLATFORMS)
    assert len(_examples()) == 24


@pytest.mark.parametrize("name", PLATFORMS)
def test_table_is_platforms_md(name):
    prof = load_profile(name)
    assert {i.key: i.tai for i in prof.items} == TABLES[name]
    std = load_profile("standard")
    for it in prof.items:
        want_repl, want_red = SPEC_21[name].get(it.key, (None, None))
        if want_repl is None:  # as standard
            s = std.item(it.key)
            assert (list(it.replaces), it.reduced_tai) == (list(s.replaces), s.reduced_tai), it.key
        else:
            assert list(it.replaces) == want_repl, it.key
            got_red = (it.reduced_tai, list(it.reduced_when)) if it.reduced_tai is not None else None
            assert got_red == want_red, it.key
    # new rows follow the standard ones, in the order heavenly_ready, earthly_ready, wind_pung
    keys = prof.keys
    new = [k for k in keys if k not in std.keys]
    assert keys[-len(new) :] == tuple(k for k in ("heavenly_ready", "earthly_ready", "wind_pung") if k in new)


def test_rules_of_section_1():
    sec = PLATFORMS_MD.split("## 1. The profiles")[1].split("Sources of the options")[0]
    for line in sec.splitlines():
        m = re.match(r"\| `(\w+)` \| [^|]+ \| ([^|]+) \|", line)
        if not m:
            continue
        r = Rules(profile=m.group(1))
        assert r.declare_ready is True
        given = dict(re.findall(r"`(\w+) = ([^`]+)`", m.group(2)))
        for opt, v in given.items():
            assert getattr(r, opt) == json.loads(v), (m.group(1), opt)
        for opt in ("seven_flower_win", "heavenly_ready_window", "earthly_ready_window", "early_wins", "streak_cap"):
            if opt not in given:
                assert getattr(r, opt) == getattr(Rules(), opt), (m.group(1), opt)


def _column(name: str) -> dict[str, str]:
    """PLATFORMS.md 2's cells of one profile's column, by key."""
    sec = PLATFORMS_MD.split("## 2. Tai")[1].split("### 2.1")[0]
    lines = [x for x in sec.splitlines() if x.startswith("| ")]
    col = [c.strip() for c in lines[0].strip("|").split("|")].index(name)
    return {
        cells[0].split()[0]: cells[col] for cells in ([c.strip() for c in x.strip("|").split("|")] for x in lines[2:])
    }


def test_diff_standard_star31_is_the_star31_column():
    """`tw16 profiles diff standard star31` lists exactly the rows of the star31 column that are not `·`
    (a value, `–`, a changed-replaces letter), with those values, and section 1's options."""
    d = diff_profiles("standard", "star31")
    std = _column("standard")
    col = {k: c for k, c in _column("star31").items() if c != "·" and not (c == "–" == std[k])}
    assert [x["key"] for x in d["items"]] == list(col)
    for x in d["items"]:
        c = col[x["key"]]
        assert (x["b"]["tai"] if x["b"] else "–") == (c if c == "–" else int(c.split()[0])), x
        if len(c.split()) > 1:  # a letter: replaces changed (2.1)
            assert x["a"]["replaces"] != x["b"]["replaces"], x
    assert {x["option"]: x["b"] for x in d["rules"]} == {
        "declare_ready": True,
        "heavenly_ready_window": "dealer_first",
        "earthly_ready_window": "migi",
        "seven_flower_win": False,
        "streak_cap": 10,
    }


def test_cli_profiles_list_and_diff():
    run = [sys.executable, "-m", "tw16.cli.main", "profiles"]
    r = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [x.split()[0] for x in lines] == ["standard", "strict16", "casual", "hongkong", "olympiad", *PLATFORMS]
    r = subprocess.run(
        run + ["diff", "standard", "star31", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == diff_profiles("standard", "star31")
    r = subprocess.run(run + ["diff", "standard", "star31"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert "earthly_ready" in r.stdout and "seven_flower_win" in r.stdout
    r = subprocess.run(run + ["diff", "standard"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "diff needs two profiles" in r.stderr
    r = subprocess.run(run + ["diff", "standard", "nope"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "unknown profile 'nope'" in r.stderr
    r = subprocess.run(run + ["diff", "mj888", "mj888"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert "the same items and rule options" in r.stdout


# -- a positive and a negative case for every item of every platform -----------------------------
def _std_case(cid: str) -> dict:
    return next(c for c in CASES if c["id"] == cid)


def _retarget(case: dict, profile: str) -> dict:
    c = {k: v for k, v in case.items() if k not in ("expected", "note")}
    c["profile"] = profile
    return c


BASE = {"melds": [], "flowers": "", "round": "E", "streak": 0, "rules": {}, "stakes": {"base": 30, "per_tai": 10}}
READY_HAND = dict(BASE, hand="123m 456m 789m 234p 12s NN", win_tile="3s", win_by="discard", discarder="N", seat="W")
# own cases for the rows standard has not, or whose timing the platform changes (PLATFORMS.md 3.3, 4)
OWN: dict[str, tuple[dict, dict, int]] = {
    # key: (positive, negative, multiplicity of the positive)
    "heavenly_ready": (dict(READY_HAND, flags=["heavenly_ready"]), dict(READY_HAND, flags=[]), 1),
    "earthly_ready": (dict(READY_HAND, flags=["earthly_ready"]), dict(READY_HAND, flags=[]), 1),
    "wind_pung": (
        dict(
            BASE,
            hand="EEE 234m 567p 789p 5s",
            melds=["pon NNN"],
            win_tile="5s",
            win_by="discard",
            discarder="W",
            seat="S",
        ),
        dict(
            BASE,
            hand="CCC 234m 567p 789p 5s",
            melds=["pon 111m"],
            win_tile="5s",
            win_by="discard",
            discarder="W",
            seat="S",
        ),
        2,
    ),
}
EARTHLY_DEALER_DISCARD = (
    dict(
        BASE,
        hand="123m 456m 789m 234p 12s NN",
        win_tile="3s",
        win_by="discard",
        discarder="E",
        seat="S",
        flags=["earthly"],
    ),
    dict(BASE, hand="123m 456m 789m 234p 12s NN", win_tile="3s", win_by="discard", discarder="E", seat="S", flags=[]),
)


def _item_cases(profile: str, key: str) -> tuple[dict, dict, int]:
    """(positive, negative, multiplicity) for ``key`` under ``profile``."""
    if key in OWN:
        pos, neg, n = OWN[key]
        return _retarget(pos, profile), _retarget(neg, profile), n
    if key == "earthly_win" and Rules(profile=profile).early_wins == "dealer_discard":
        return _retarget(EARTHLY_DEALER_DISCARD[0], profile), _retarget(EARTHLY_DEALER_DISCARD[1], profile), 1
    plus = [c for c in CASES if c["id"].startswith(f"S-{key}+")][0]
    minus = [c for c in CASES if c["id"].startswith(f"S-{key}-")][0]
    n = plus["expected"]["items"][key] // STANDARD[key]
    return _retarget(plus, profile), _retarget(minus, profile), n


@pytest.mark.parametrize("profile", PLATFORMS)
def test_every_item_positive_and_negative(profile):
    for key in load_profile(profile).keys:
        pos, neg, n = _item_cases(profile, key)
        got = score_case(pos)
        assert "error" not in got, (key, got)
        assert got["items"].get(key) == TABLES[profile][key] * n, (key, got["items"])
        got = score_case(neg)
        assert "error" in got or key not in got["items"], (key, got)


# -- section 6: what a case may show under the options --------------------------------------------
HUMAN_DEALER = dict(
    BASE, hand="123m 456m 789m 234p 12s NN", win_tile="3s", win_by="discard", discarder="S", seat="E", flags=["human"]
)
REFUSALS = [
    # (profile, case, refused?)
    ("wikibooks", dict(EARTHLY_DEALER_DISCARD[0]), False),
    ("wikibooks", dict(EARTHLY_DEALER_DISCARD[0], discarder="W"), True),  # not the dealer's discard
    ("wikibooks", _std_case("S-earthly_win+"), True),  # a self-drawn 地胡 is no timing item under dealer_discard
    ("standard", dict(EARTHLY_DEALER_DISCARD[0]), True),
    ("strict16", dict(_std_case("S-human_win+"), discarder="E", profile="strict16"), False),
    ("wikibooks", dict(EARTHLY_DEALER_DISCARD[0], flags=["human"]), True),  # human on the dealer's discard
    ("masters", HUMAN_DEALER, False),  # first_round: the dealer's 人胡 (MM02)
    ("standard", HUMAN_DEALER, True),
    ("masters", dict(HUMAN_DEALER, hand="123m 456m 234p 12s NN", melds=["ankong 7777m"], seat="W"), False),
    ("masters", dict(HUMAN_DEALER, hand="123m 456m 234p 12s NN", melds=["pon 777m"], seat="W"), True),
    ("zhonghua", dict(_std_case("S-earthly_win+"), hand="123m 456m 234p 12s NN", melds=["ankong 7777m"]), False),
    ("zhonghua", dict(_std_case("S-earthly_win+"), hand="123m 456m 234p 12s NN", melds=["chi 789m"]), True),
    ("zhonghua", dict(_std_case("S-earthly_win+"), seat="E"), True),  # 地胡 is a non-dealer's
    ("zhonghua", dict(READY_HAND, seat="E", discarder="S", flags=["heavenly_ready"]), False),  # dealer_first
    ("zhaishenye", dict(READY_HAND, seat="E", discarder="S", flags=["heavenly_ready"]), False),  # migi
    ("strict16", dict(READY_HAND, seat="E", discarder="S", flags=["heavenly_ready"]), True),  # deal
    ("star31", dict(READY_HAND, hand="123m 456m 234p 12s NN", melds=["pon 777m"], flags=["earthly_ready"]), True),
    ("mj888", dict(READY_HAND, hand="123m 456m 234p 12s NN", melds=["chi 789m"], flags=["earthly_ready"]), True),
    ("mj888", dict(READY_HAND, hand="123m 456m 234p 12s NN", melds=["ankong 7777m"], flags=["earthly_ready"]), False),
    ("star31", _std_case("S-seven_rob_one+"), True),  # seven_flower_win false
    ("zhaishenye", _std_case("S-seven_rob_one+"), False),
    ("standard", dict(_std_case("S-seven_rob_one+"), rules={"seven_flower_win": False}), True),
    ("standard", _std_case("S-eight_flowers+"), False),
    ("star31", dict(_std_case("S-eight_flowers+"), profile="star31"), False),  # 八仙過海 unchanged
]


@pytest.mark.parametrize("i", range(len(REFUSALS)))
def test_section_6_refusals(i):
    profile, case, refused = REFUSALS[i]
    got = score_case(_retarget(case, profile))
    assert ("error" in got) == refused, (profile, case, got)


# -- section 5: hongkong items outside hongkong ---------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        "[items.other_wind]\ntai = 1\n",
        '[items.self_draw]\nreplaces = ["no_flowers"]\n',
        '[items.concealed]\nreduced = { tai = 0, when = ["other_wind"] }\n',
    ],
)
def test_hongkong_items_refused_outside_hongkong(tmp_path, body):
    p = tmp_path / "my.toml"
    p.write_text('extends = "standard"\n' + body, encoding="utf-8")
    key = "other_wind" if "other_wind" in body else "no_flowers"
    with pytest.raises(
        ProfileError,
        match=rf"item '{key}' \(.+\) is a hongkong item \(HONGKONG.md 3\); only a "
        r"profile that extends hongkong can score it",
    ):
        load_profile(str(p))


def test_hongkong_items_accepted_under_hongkong(tmp_path):
    p = tmp_path / "hk.toml"
    p.write_text('extends = "hongkong"\n[items.other_wind]\ntai = 2\n', encoding="utf-8")
    assert load_profile(str(p)).item("other_wind").tai == 2
    q = tmp_path / "w.toml"
    q.write_text('extends = "standard"\nremove = ["seat_wind", "round_wind"]\n[items.wind_pung]\ntai = 1\n', "utf-8")
    assert "wind_pung" in load_profile(str(q)).keys  # wind_pung is no hongkong item
