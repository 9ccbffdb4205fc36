"""The installed ``tw16`` console script, run in a subprocess as a user runs it (not ``main()``):
this is what caught nothing when ``tyro`` was missing from the dependencies."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def _tw16() -> str:
    """The console script that ``pip install -e .`` put next to this interpreter."""
    exe = Path(sys.executable).parent / "tw16"
    found = str(exe) if exe.exists() else shutil.which("tw16")
    assert found, "the tw16 console script is not installed: pip install -e '.[test]' (README)"
    return found


def run(*args, timeout=600, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run([_tw16(), *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)


def test_help_lists_every_command():
    r = run("--help")
    assert r.returncode == 0, r.stderr
    for cmd in ("score", "bench", "eval", "replay", "play", "train"):
        assert cmd in r.stdout


def test_score_check_passes_on_the_shared_vectors():
    r = run("score", str(DATA / "standard.jsonl"), "--check")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
    n_cases = sum(1 for x in (DATA / "standard.jsonl").read_text().splitlines() if x.strip())
    assert len(lines) == n_cases  # one result per case (cases that expect an error get an error result)


def test_score_check_fails_on_a_wrong_expectation(tmp_path):
    case = json.loads((DATA / "standard.jsonl").read_text().splitlines()[0])
    case["expected"]["hand_tai"] += 1
    f = tmp_path / "bad.jsonl"
    f.write_text(json.dumps(case, ensure_ascii=False) + "\n")
    assert run("score", str(f), "--check").returncode == 1


# This turn's contract cases (CASES.md: seed 000 Ⅸ-29/30, flower wins take the replacement flags;
# EXTRAS.md 1.3 and 2.1: the reading of the winning tile, 九蓮寶燈 without a winning tile).
CONTRACT_CASES = {
    "cases_profiles.jsonl": (
        "S-kong_replacement_win+eight_flowers",
        "S-kong_replacement_win+seven_rob_one",
        "S-kong_replacement_win-flowers_no_hand",
        "R-kong_replacement-flowers-no-kong",
    ),
    "cases_extras.jsonl": ("XR1", "XR3", "XG1", "XG4", "XG5", "XF1"),
}


def test_score_check_on_this_turns_contract_cases(tmp_path):
    cases = []
    for name, ids in CONTRACT_CASES.items():
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        by_id = {c["id"]: c for c in (json.loads(x) for x in lines if x.strip() and not x.startswith("#"))}
        cases += [by_id[i] for i in ids]
    f = tmp_path / "contract.jsonl"
    f.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    r = run("score", str(f), "--check")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    got = {x["id"]: x for x in map(json.loads, (y for y in r.stdout.splitlines() if y.startswith("{")))}
    assert got["S-kong_replacement_win+eight_flowers"]["items"]["kong_replacement_win"] == 1
    assert "kong_replacement_win" not in got["S-kong_replacement_win-flowers_no_hand"]["items"]
    assert "without a kong" in got["R-kong_replacement-flowers-no-kong"]["error"]
    # the flag is what gives kong_replacement_win: without it the expectation no longer holds
    cases[0]["flags"] = []
    f.write_text(json.dumps(cases[0], ensure_ascii=False) + "\n", encoding="utf-8")
    assert run("score", str(f), "--check").returncode == 1


def test_eval_json_on_a_few_hands(tmp_path):
    r = run("eval", "greedy", "random", "greedy", "random", "--hands", "8", "--json", "--plot", str(tmp_path / "e.png"))
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout)
    assert res["hands"] == 8 and set(res["agents"]) == {"greedy", "random"}
    assert (tmp_path / "e.png").exists()


@pytest.mark.slow
def test_train_at_a_tiny_size(tmp_path):
    out = tmp_path / "pipe"
    r = run(
        "train",
        "--out-dir",
        str(out),
        "--bc.hands",
        "8",
        "--bc.batch-hands",
        "8",
        "--bc.epochs",
        "1",
        "--ppo.num-envs",
        "8",
        "--ppo.rollout-steps",
        "16",
        "--ppo.total-decisions",
        "128",
        "--ppo.minibatch-size",
        "64",
        "--ppo.update-epochs",
        "1",
        "--ppo.no-progress",
        "--bc.no-progress",
        "--eval-hands",
        "8",
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert (out / "bc.pt").exists() and (out / "ppo" / "policy.pt").exists() and (out / "eval.png").exists()
    report = (out / "report.md").read_text()
    assert f"`tw16 train --out-dir {out} " in report and "greedy" in report
    assert "![learning curves](curves.png)" in report and (out / "curves.png").stat().st_size > 10_000


def test_eval_on_the_published_walls_with_variance_reduction():
    """`tw16 eval --eval-set v1 --vr` (agents.evaluation.eval_seeds, agents.evaluation.variance)."""
    r = run(
        "eval",
        "greedy",
        "defensive",
        "greedy",
        "defensive",
        "--hands",
        "160",
        "--eval-set",
        "v1",
        "--vr",
        "--json",
        "--plot",
        "",
    )
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout)
    assert res["eval_set"] == "v1" and res["walls"] == 40
    for row in res["agents"].values():
        assert set(row["vr"]) == {"chips_per_hand", "ci95", "ci_narrower", "betas"}
    # the published walls: the same figures whatever --seed (Greedy and Defensive ignore it)
    again = json.loads(
        run(
            "eval",
            "greedy",
            "defensive",
            "greedy",
            "defensive",
            "--hands",
            "160",
            "--eval-set",
            "v1",
            "--json",
            "--plot",
            "",
            "--seed",
            "9",
        ).stdout
    )
    assert again["agents"]["greedy"]["ci95"] == res["agents"]["greedy"]["ci95"]
    table = run(
        "eval", "greedy", "defensive", "greedy", "defensive", "--hands", "160", "--eval-set", "v1", "--vr", "--plot", ""
    )
    assert table.returncode == 0 and "VR 95% CI" in table.stdout and "evaluation set v1" in table.stdout
    aivat = run(
        "eval",
        "greedy",
        "defensive",
        "greedy",
        "defensive",
        "--hands",
        "160",
        "--eval-set",
        "v1",
        "--vr",
        "aivat",
        "--json",
        "--plot",
        "",
    )
    assert aivat.returncode == 0, aivat.stderr[-3000:]
    row = json.loads(aivat.stdout)["agents"]["greedy"]
    assert row["chips_per_hand"] == res["agents"]["greedy"]["chips_per_hand"]
    assert (
        len(row["vr"]["betas"][0]) == len(res["agents"]["greedy"]["vr"]["betas"][0]) + 2
    )  # the AIVAT term, own and others'
    bad = run("eval", "greedy", "defensive", "greedy", "defensive", "--hands", "40000", "--eval-set", "v1")
    assert bad.returncode == 2 and "20000 hands at most" in bad.stderr
    bad = run("eval", "greedy", "defensive", "greedy", "defensive", "--eval-set", "v7")
    assert bad.returncode == 2 and "unknown evaluation set" in bad.stderr


def test_eval_of_rule_agents_does_not_import_torch():
    # torch costs about 2 CPU s a start; only a neural agent or a --device off the CPU needs it
    code = (
        "import sys; from tw16.cli.main import main; "
        "rc = main(['eval', 'greedy', 'defensive', 'greedy', 'random', '--hands', '8', '--plot', '', '--json']); "
        "print('torch imported' if 'torch' in sys.modules else 'no torch', file=sys.stderr); sys.exit(rc)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stderr.strip().endswith("no torch"), r.stderr[-2000:]
    assert json.loads(r.stdout)["hands"] == 8
