"""Edges a new user met (issue 30): the plot of `tw16 eval --vr`, no plot unless asked, `tw16 score`
on a case without an id, `tw16 bench scoring --seconds`, Gymnasium's notice on the v0 id, and
``envs.tw16_v0`` after ``import envs``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _py(code: str, *flags: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, timeout=300, env=env)


def test_vr_plot_shows_the_corrected_figures(tmp_path, monkeypatch):
    """With --vr the bars are the corrected figures the table's VR column prints (the issue's run:
    +0.59 corrected, +0.17 plain), without it the plain ones."""
    from agents.evaluation import league
    from agents.evaluation.league import plot

    def row(plain, corrected):
        return {
            "chips_per_hand": plain,
            "ci95": [plain - 1, plain + 1],
            "vr": {"chips_per_hand": corrected, "ci95": [corrected - 0.5, corrected + 0.5]},
        }

    res = {"hands": 8, "agents": {"neural": row(0.17, 0.59), "greedy": row(-0.17, -0.59)}}
    drawn = []
    monkeypatch.setattr(league, "save_figure", lambda fig, path: drawn.append(fig.axes[0]) or Path(path))
    plot(res, tmp_path / "p.png")
    for r in res["agents"].values():
        del r["vr"]
    plot(res, tmp_path / "q.png")
    vr_ax, plain_ax = drawn
    assert sorted(b.get_height() for b in vr_ax.patches) == [-0.59, 0.59]
    assert "luck-corrected" in vr_ax.get_ylabel()
    assert sorted(b.get_height() for b in plain_ax.patches) == [-0.17, 0.17]
    assert "luck" not in plain_ax.get_ylabel()


def test_eval_writes_a_plot_only_when_asked(tmp_path, monkeypatch, capsys):
    from tw16.cli.main import main

    monkeypatch.chdir(tmp_path)
    assert main(["eval", "greedy", "random", "greedy", "random", "--hands", "8", "--json"]) == 0
    assert list(tmp_path.iterdir()) == []
    capsys.readouterr()
    assert main(["eval", "greedy", "random", "greedy", "random", "--hands", "8", "--json", "--plot", "e.svg"]) == 0
    assert (tmp_path / "e.svg").exists()
    assert json.loads(capsys.readouterr().out)["plot"] == "e.svg"


def test_league_table_says_why_the_rating_differs(capsys):
    from agents.evaluation.league import RATING_NOTE, evaluate, league_table
    from envs.rules import Rules

    text = " ".join(league_table(evaluate(["greedy", "random"] * 2, 8, Rules(), progress=False)).split())
    assert " ".join(RATING_NOTE.split()) in text


def test_score_table_of_a_case_without_an_id(tmp_path, capsys):
    from tw16.cli.main import main

    case = {
        "hand": "456m 789m 234p 567s N",
        "melds": ["chi 123m"],
        "win_tile": "N",
        "win_by": "discard",
        "discarder": "W",
        "seat": "S",
    }
    f = tmp_path / "c.jsonl"
    f.write_text(json.dumps(case) + "\n")
    assert main(["score", str(f), "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert "[None]" not in out and "[case without an id]" in out


def test_bench_scoring_seconds_is_the_whole_measurement():
    from tw16.bench.run import run_bench

    t0 = time.perf_counter()
    res = run_bench("scoring", seconds=1.0)
    took = time.perf_counter() - t0
    # 12 figures share the second; setup (random hands) is a few seconds on a busy 2-core machine.
    # Each figure measured for a second, doubling its passes, took 27-31 s.
    assert res["seconds"] == 1.0 and len(res["scoring"]) == 7
    assert took < 15, took
    measured = sum(r["hands"] * r["reps"] / r["full_scorings_per_s"] for r in res["scoring"])
    assert measured < 1.5, measured


def test_gym_make_v0_prints_no_out_of_date_notice():
    r = _py(
        "import gymnasium as gym, envs; gym.make('tw16/SingleAgent-v0').reset(seed=0); "
        "gym.make('tw16/SingleAgent-v1').reset(seed=0)",
        "-W",
        "error::DeprecationWarning",
    )
    assert r.returncode == 0, r.stderr
    assert "out of date" not in r.stderr


def test_env_version_after_import_envs():
    r = _py("import envs; print(envs.tw16_v0.ENV_VERSION, envs.tw16_v1.ENV_VERSION)")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["tw16_v0", "tw16_v1"]


def test_train_help_counts_parameters_and_refuses_what_the_pipeline_sets(capsys):
    """The network sizes in `tw16 train --help` are the networks' own counts (the help said "330 k" for
    both widths); the options the pipeline overrides are refused, not silently ignored."""
    from dataclasses import replace

    from agents.neural import PolicyValueNet
    from training.pipeline import Pipeline
    from tw16.cli.main import main

    net = Pipeline().ppo.net
    counts = [sum(p.numel() for p in PolicyValueNet(replace(net, width=w)).parameters()) for w in (16, 32)]
    assert counts[0] != counts[1]
    try:
        main(["train", "--help"])
    except SystemExit:
        pass
    out = " ".join(capsys.readouterr().out.split())
    for w, n in zip((16, 32), counts):
        assert f"width {w}: {n:,} parameters" in out
    assert "330 k" not in out
    for opt in ("--bc.out", "--ppo.out-dir", "--bc.net.width"):
        assert main(["train", opt, "1"]) == 2
        assert "is set by" in capsys.readouterr().err
