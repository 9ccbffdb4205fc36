"""`tw16 score` end to end: the case files, --check, --profile, --format table, bad lines, profiles.

The expected values of the case files are derived by hand from RULES.md / PROFILES.md (each case
carries a `note`); these tests only run the scorer over them and over small files written here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from envs.scoring.api import score
from envs.scoring.cases import CaseError, score_case
from envs.scoring.profile import ProfileError, load_profile
from tw16.cli.score import run_score

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
STANDARD = DATA / "standard.jsonl"
PROFILES = DATA / "cases_profiles.jsonl"

HC = {
    "id": "hc",
    "profile": "standard",
    "hand": "123m 456m 789m 234p 78s NN",
    "melds": [],
    "win_tile": "6s",
    "win_by": "self_draw",
    "seat": "S",
    "round": "E",
}


def _cases(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(tmp_path: Path, name: str, lines: list) -> Path:
    p = tmp_path / name
    p.write_text(
        "".join((x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)) + "\n" for x in lines),
        encoding="utf-8",
    )
    return p


def _run(capsys, path, **kw) -> tuple[int, list[str], str]:
    rc = run_score(str(path), **kw)
    out, err = capsys.readouterr()
    return rc, out.splitlines(), err


# --------------------------------------------------------------------------------------------------
# The case files


def test_cli_check_standard_vectors():
    """`tw16 score --check` through the real command line (python -m tw16.cli.main)."""
    r = subprocess.run(
        [sys.executable, "-m", "tw16.cli.main", "score", "--check", str(STANDARD)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "checked 49 cases: 49 match, 0 mismatch" in r.stderr
    assert len(r.stdout.splitlines()) == 49


@pytest.mark.parametrize("path", [STANDARD, PROFILES], ids=["standard", "cases_profiles"])
def test_check_case_files(capsys, path):
    rc, out, err = _run(capsys, path, check=True)
    assert rc == 0, err
    n = len(_cases(path))
    assert f"checked {n} cases: {n} match, 0 mismatch" in err
    assert len(out) == n


def test_cases_profiles_cover_every_item():
    """A positive and a negative case for every item of each built-in profile (ids `P-item+...`/`P-item-...`)."""
    cases = _cases(PROFILES)
    prefix = {"standard": "S-", "strict16": "T-", "casual": "C-"}
    for prof, pre in prefix.items():
        mine = [c for c in cases if c["profile"] == prof]
        for key in load_profile(prof).keys:
            plus = [c for c in mine if c["id"].startswith(f"{pre}{key}+")]
            minus = [c for c in mine if c["id"].startswith(f"{pre}{key}-")]
            assert plus and minus, f"{prof}: no positive/negative case for {key}"
            assert all(key in c["expected"]["items"] for c in plus)
            assert all(c["expected"].get("error") or key not in c["expected"]["items"] for c in minus)
    for c in cases:
        assert c.get("note"), f"case {c['id']} has no note"


# Every refusal of CASES.md (last paragraph) and the reason it must be refused for.
REFUSALS = {
    "R-kong_replacement-no-kong": "without a kong",
    "R-kong_replacement-discard": "not self-drawn",
    "R-flower_replacement-discard": "not self-drawn",
    "R-flower_replacement-no-flower": "without a flower",
    "R-heavenly-nondealer": "heavenly",
    "R-heavenly-discard": "heavenly",
    "R-heavenly-ankong": "heavenly",
    "R-earthly-dealer": "earthly",
    "R-earthly-meld": "earthly",
    "R-earthly-discard": "earthly",
    "R-human-dealer": "human",
    "R-human-meld": "human",
    "R-human-self_draw": "human",
    "R-human-ankong": "human",
    "R-kong_replacement-flowers-no-kong": "without a kong",
    "R-two-special": "at most one",
    "R-eight-flowers-ordinary": "eight flowers",
    "R-ready-standard": "no such item",
    "R-ready-casual-earthly": "no such item",
    "R-ready-strict16-declared": "no such item",
    "R-ready-strict16-chi": "meld",
    "R-ready-strict16-pon": "meld",
    "R-ready-strict16-kong": "meld",
    "R-heavenly_ready-dealer": "non-dealer",
    "R-last_tile-rob_kong": "last_tile",
    "R-discarder-is-winner": "discarder is the winner",
    "R-discarder-missing": "discarder is missing",
    "R-discarder-missing-rob_kong": "discarder is missing",
    "R-discarder-missing-seven": "discarder is missing",
    "R-discarder-is-winner-seven": "discarder is the winner",
    "R-fifth-in-hand": "fifth copy of '8s'",
    "R-fifth-with-meld": "fifth copy of 'N'",
    "R-flower-in-hand": "flower 'f1' in hand",
    "R-meld-chi-shape": "'chi 124m' is not a chi",
    "R-meld-chi-honours": "is not a chi",
    "R-meld-pon-shape": "is not a pon",
    "R-meld-kong-size": "a kong has 4",
    "R-meld-unknown-type": "unknown meld type 'peng'",
    "R-count-short": "do not fit 0 meld",
    "R-count-long": "do not fit 1 meld",
    "R-not-winning": "not a winning hand",
    "R-win_tile-missing": "win_tile is missing",
    "R-dealer-not-E": "dealer must be 'E'",
    "R-unknown-flag": "unknown flag 'double'",
    "R-unknown-field": "unknown field(s) ['bonus']",
    "R-unknown-profile": "unknown profile 'nosuchprofile'",
    "R-bad-rule": "streak_cap",
    "R-bad-stakes": "per_tai",
    "R-bad-seat": "seat must be one of",
    "R-flower-win-with-tile": "no win_tile",
    "R-flower-win-six": "seven or eight flowers",
    "T-eight_pairs-pon": "not a winning hand",
    "S-eight_pairs-standard": "not a winning hand",
}


def test_refusals_name_their_reason():
    cases = {c["id"]: c for c in _cases(PROFILES) if c["expected"].get("error")}
    assert set(cases) == set(REFUSALS)
    for cid, reason in REFUSALS.items():
        r = score_case(cases[cid])
        assert r["id"] == cid and reason in r["error"], (cid, r)


# --------------------------------------------------------------------------------------------------
# Command behaviour


def test_profile_override(tmp_path, capsys):
    p = _write(tmp_path, "c.jsonl", [HC, HC | {"id": "hc-casual", "profile": "casual"}])
    _, out, _ = _run(capsys, p)
    assert [json.loads(x)["items"] for x in out] == [{"concealed_self_draw": 3}] * 2
    _, out, _ = _run(capsys, p, profile="strict16")
    for line in out:
        r = json.loads(line)
        assert r["profile"] == "strict16"
        assert r["items"] == {"self_draw": 1, "concealed": 1, "no_help": 1}
    # the override reaches every line, so a casual-only flag is now refused
    p2 = _write(tmp_path, "d.jsonl", [HC | {"profile": "casual", "flags": ["declared_ready"]}])
    _, out, _ = _run(capsys, p2, profile="standard")
    assert "no such item" in json.loads(out[0])["error"]


def test_bad_lines_do_not_stop_the_others(tmp_path, capsys):
    good = HC | {"expected": {"hand_tai": 3}}
    lines = [
        good | {"id": "first"},
        '{"id": "broken", "hand": ',  # not JSON
        good | {"id": "not-a-win", "win_tile": "5s"},
        good | {"id": "bad-melds", "melds": "chi 123p"},
        good | {"id": "bad-rules", "rules": ["x"]},
        good | {"id": "huge-streak", "streak": 10**30},
        "[1, 2]",
        "",  # blank lines and comments are skipped
        "# a comment",
        good | {"id": "last"},
    ]
    p = _write(tmp_path, "mixed.jsonl", lines)
    rc, out, err = _run(capsys, p, check=True)
    results = [json.loads(x) for x in out]
    assert [r.get("id") for r in results] == [
        "first",
        None,
        "not-a-win",
        "bad-melds",
        "bad-rules",
        "huge-streak",
        None,
        "last",
    ]
    assert results[0]["hand_tai"] == 3 and results[-1]["hand_tai"] == 3
    assert "line 2: not valid JSON" in results[1]["error"]
    assert "not a winning hand" in results[2]["error"]
    assert "melds must be a list" in results[3]["error"]
    assert "rules must be an object" in results[4]["error"]
    assert "streak must be" in results[5]["error"]
    assert "must be a JSON object" in results[6]["error"]
    assert rc == 1
    assert "checked 8 cases: 2 match, 6 mismatch" in err
    assert "MISMATCH line 3 id not-a-win: unexpected error: not a winning hand" in err


def test_check_lists_mismatches(tmp_path, capsys):
    right = _cases(STANDARD)[0]
    wrong = json.loads(json.dumps(right))
    wrong["id"] = "wrong"
    wrong["expected"]["hand_tai"] = 5
    wrong["expected"]["items"] = {"single_wait": 1, "concealed": 1}
    no_exp = {k: v for k, v in right.items() if k != "expected"} | {"id": "no-exp"}
    refused_ok = right | {"id": "ref", "discarder": "S", "expected": {"error": True}}
    not_refused = right | {"id": "nref", "expected": {"error": True}}
    p = _write(tmp_path, "w.jsonl", [right, wrong, no_exp, refused_ok, not_refused])
    rc, out, err = _run(capsys, p, check=True)
    assert rc == 1
    assert len(out) == 5
    assert 'MISMATCH line 2 id wrong: items: expected {"single_wait": 1, "concealed": 1}, got {"single_wait": 1}' in err
    assert "MISMATCH line 2 id wrong: hand_tai: expected 5, got 1" in err
    assert "MISMATCH line 3 id no-exp: no `expected` field" in err
    assert "MISMATCH line 5 id nref: expected an error, got hand_tai 1" in err
    assert "id ref" not in err and "line 1 " not in err
    assert "checked 5 cases: 2 match, 3 mismatch" in err
    # without --check the same file exits 0
    rc, _, _ = _run(capsys, p)
    assert rc == 0


def test_cli_check_exit_code(tmp_path, capsys):
    from tw16.cli.main import main

    wrong = _cases(STANDARD)[0]
    wrong["expected"]["deltas"]["S"] = 41
    p = _write(tmp_path, "w.jsonl", [wrong])
    assert main(["score", "--check", str(p)]) == 1
    assert "MISMATCH line 1 id P01: deltas:" in capsys.readouterr().err
    assert main(["score", str(p), "--format", "table", "--profile", "casual"]) == 0
    assert "profile casual" in capsys.readouterr().out


def test_table_format(tmp_path, capsys):
    cases = {c["id"]: c for c in _cases(STANDARD)}
    p = _write(tmp_path, "t.jsonl", [cases["P14"], cases["P02"], cases["P47"]])
    rc, out, _ = _run(capsys, p, fmt="table")
    assert rc == 0
    text = "\n".join(out)
    blocks = text.split("\n\n")
    p14, p02, p47 = (b.strip() for b in blocks[:3])
    assert p14.startswith("[P14] 東家 放槍 (南家付)")
    assert "正花" in p14 and "seat_flower" in p14 and "2 台" in p14
    assert "合計" in p14 and "hand tai" in p14
    assert "莊家/連莊 on legs: 南 +1 台" in p14
    assert "chips (30/10): 東 +60  南 -60  西 +0  北 +0" in p14
    assert "屁胡" in p02 and "(no item)" in p02
    assert p47.startswith("[P47] error:") and "'0m' is not a tile" in p47


def test_score_api():
    r = score("456m 789m 234p 567s N", melds=["chi 123m"], win_tile="N", win_by="discard", discarder="W", seat="S")
    assert r["items"] == {"single_wait": 1} and r["names"] == {"single_wait": "獨聽"}
    assert r["deltas"] == {"E": 0, "S": 40, "W": -40, "N": 0}
    assert r["dealer_tai"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    r = score(
        "123m 456m 789m 234p 78s NN",
        win_tile="6s",
        win_by="self_draw",
        seat="E",
        streak=2,
        stakes={"base": 50, "per_tai": 20},
    )
    assert r["dealer_tai"] == {"E": 0, "S": 5, "W": 5, "N": 5}
    assert r["deltas"] == {"E": 3 * (50 + 20 * 8), "S": -210, "W": -210, "N": -210}
    with pytest.raises(CaseError, match="not a winning hand"):
        score("123m 456m 789m 234p 78s NN", win_tile="5s", discarder="W", seat="S")


# --------------------------------------------------------------------------------------------------
# Profiles


def _toml(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize(
    "text, message",
    [
        ('extends = "standard"\n[items.pinfu]\ntai = 2\n', "unknown item 'pinfu'"),
        (
            'extends = "standard"\n[items.all_chows]\ntai = 2\nreplaces = ["pinfu"]\n',
            "replaces names unknown item 'pinfu'",
        ),
        ('extends = "standard"\nremove = ["pinfu"]\n', "remove names unknown item 'pinfu'"),
        ('extends = "standard"\n[items.all_chows]\ntaii = 2\n', "unknown field(s) ['taii'] in [items.all_chows]"),
        ('extends = "standard"\ncolour = "red"\n', "unknown field(s) ['colour'] in the top level"),
        ('extends = "standard"\n[options]\nshape = []\n', "unknown field(s) ['shape'] in [options]"),
        ('extends = "standard"\n[options]\nshapes = ["thirteen"]\n', "unknown shape 'thirteen'"),
        ('extends = "standard"\n[rules]\nmulti_wins = true\n', "unknown rule option(s) ['multi_wins']"),
        (
            'extends = "standard"\n[items.all_chows]\ntai = -1\n',
            "item 'all_chows': tai must be a non-negative integer, got -1",
        ),
        ('extends = "standard"\n[items.all_chows]\ntai = "2"\n', "tai must be a non-negative integer, got '2'"),
        ('extends = "standard"\n[items.all_chows]\ntai = true\n', "tai must be a non-negative integer, got True"),
        ('extends = "standard"\n[items.all_chows]\ntai = 2.5\n', "tai must be a non-negative integer, got 2.5"),
        ('extends = "standard"\n[items.no_help]\nzh = "不求"\n', "[items.no_help] needs a tai value"),
        ('extends = "standard"\n[items.all_chows]\nreduced = {tai = 1}\n', "reduced must be"),
        ("[items.self_draw]\ntai = 1\n[items.self_draw\n", "not valid TOML"),
        ('name = "empty"\n', "has no items"),
        ('extends = "nosuchprofile"\n', "unknown profile 'nosuchprofile'"),
    ],
    ids=lambda x: x if len(x) < 30 else None,
)
def test_profile_errors_name_the_problem(tmp_path, text, message):
    path = _toml(tmp_path, "bad.toml", text)
    with pytest.raises(ProfileError) as e:
        load_profile(path)
    assert message in str(e.value)
    if "nosuchprofile" not in message:
        assert path in str(e.value)  # names the file


def test_unknown_profile_name():
    with pytest.raises(ProfileError, match=r"unknown profile 'standrd' \(built in: standard, strict16, casual"):
        load_profile("standrd")
    with pytest.raises(ProfileError, match="not found"):
        load_profile("/nonexistent/dir/p.toml")


def test_unreadable_profile_files(tmp_path):
    with pytest.raises(ProfileError, match="profile file .* is a directory, not a regular file"):
        load_profile(str(tmp_path))
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe tai = 1")
    with pytest.raises(ProfileError, match="is not valid TOML"):
        load_profile(str(binary))
    with pytest.raises(ProfileError, match="NUL"):
        load_profile("stand\0ard")
    # and a case naming such a profile is answered with an error
    assert "is a directory, not a regular file" in score_case(HC | {"profile": str(tmp_path)})["error"]


def test_extends_cycle(tmp_path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(f'extends = "{b}"\n', encoding="utf-8")
    b.write_text(f'extends = "{a}"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match="extends cycle"):
        load_profile(str(a))
    c = tmp_path / "c.toml"
    c.write_text(f'extends = "{c}"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match="extends cycle"):
        load_profile(str(c))


def test_extends_relative_to_the_file(tmp_path, monkeypatch):
    """`extends` naming a sibling file is read next to the profile, whatever the working directory."""
    (tmp_path / "base.toml").write_text('extends = "standard"\n[items.all_chows]\ntai = 5\n', encoding="utf-8")
    child = _toml(tmp_path, "child.toml", 'extends = "base.toml"\n[items.half_flush]\ntai = 6\n')
    monkeypatch.chdir(ROOT)
    prof = load_profile(child)
    assert prof.item("all_chows").tai == 5 and prof.item("half_flush").tai == 6
    loop = tmp_path / "loop.toml"
    loop.write_text('extends = "loop.toml"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match="extends cycle"):
        load_profile(str(loop))


def test_custom_profile_from_file(tmp_path, capsys):
    path = _toml(
        tmp_path,
        "house.toml",
        """
name = "house"
extends = "standard"
remove = ["single_wait"]
[items.all_chows]
tai = 3
[items.self_draw]
zh = "自摸!"
tai = 2
""",
    )
    prof = load_profile(path)
    assert prof.name == "house"
    assert "single_wait" not in prof.keys and prof.keys[0] == "self_draw"
    assert prof.item("all_chows").tai == 3 and prof.item("full_flush").tai == 8
    assert prof.item("concealed_self_draw").replaces == ("self_draw", "concealed")  # inherited
    hand = dict(hand="234m 678m 345p 567s 99p 12s", win_tile="3s", discarder="W", seat="S")
    assert score(**hand)["items"] == {"concealed": 1, "single_wait": 1}
    assert score(**hand, profile=path)["items"] == {"concealed": 1}
    r = score("234m 678m 345p 567s 99p 45s", win_tile="3s", discarder="W", seat="S", profile=path)
    assert r["items"] == {"concealed": 1, "all_chows": 3} and r["profile"] == "house"
    r = score("456m 789m 234p 78s NN", melds=["chi 123m"], win_tile="6s", win_by="self_draw", seat="S", profile=path)
    assert r["items"] == {"self_draw": 2} and r["names"] == {"self_draw": "自摸!"}
    # and through `tw16 score --profile PATH`
    p = _write(
        tmp_path,
        "c.jsonl",
        [
            {
                "id": 1,
                "hand": "234m 678m 345p 567s 99p 45s",
                "win_tile": "3s",
                "win_by": "discard",
                "discarder": "W",
                "seat": "S",
            }
        ],
    )
    _, out, _ = _run(capsys, p, profile=path)
    assert json.loads(out[0])["items"] == {"concealed": 1, "all_chows": 3}


def test_profile_rule_defaults_are_validated(tmp_path):
    from envs.rules import Rules, RulesError

    path = _toml(tmp_path, "r.toml", 'extends = "standard"\n[rules]\ndead_wall = "lots"\n')
    with pytest.raises(RulesError, match="dead_wall"):
        Rules(profile=path)
    path = _toml(tmp_path, "r2.toml", 'extends = "strict16"\n[rules]\ndead_wall = 20\n')
    r = Rules(profile=path)
    assert r.dead_wall == 20 and r.declare_ready is True  # inherited from strict16
