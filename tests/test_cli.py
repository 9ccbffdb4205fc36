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


def test_eval_json_on_a_few_hands(tmp_path):
    r = run("eval", "greedy", "random", "greedy", "random", "--hands", "8", "--json", "--plot", str(tmp_path / "e.png"))
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout)
    assert res["hands"] == 8 and set(res["agents"]) == {"greedy", "random"}
    assert (tmp_path / "e.png").exists()


@pytest.mark.slow
def test_train_at_a_tiny_size(tmp_path):
    out = tmp_path / "pipe"
    r = run("train", "--out-dir", str(out), "--bc.hands", "8", "--bc.batch-hands", "8", "--bc.epochs", "1",
            "--ppo.num-envs", "8", "--ppo.rollout-steps", "16", "--ppo.total-decisions", "128",
            "--ppo.minibatch-size", "64", "--ppo.update-epochs", "1", "--ppo.no-progress", "--bc.no-progress",
            "--eval-hands", "8", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    assert (out / "bc.pt").exists() and (out / "ppo" / "policy.pt").exists() and (out / "eval.png").exists()
    report = (out / "report.md").read_text()
    assert f"`tw16 train --out-dir {out} " in report and "greedy" in report
