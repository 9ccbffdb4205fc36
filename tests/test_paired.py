"""agents/evaluation/paired.py: the paired difference of two agents over the same walls, with ``--vr``
the variance-reduced one (each agent's corrected per-wall values, as the league table's ``vr`` rows)."""

from __future__ import annotations

import json

import numpy as np

from agents import make_agent
from agents.evaluation.arena import play_duplicate
from agents.evaluation.paired import main, paired


def test_paired_vr_pairs_the_league_tables_corrected_figures():
    r = paired("defensive", "greedy", ["defensive"] * 3, 480, seed=4, vr=True)
    for side, spec in (("a", "defensive"), ("b", "greedy")):
        league = play_duplicate(
            [make_agent(spec, seed=4)] + [make_agent("defensive", seed=4)] * 3, 120, seed=4, vr=True
        )
        assert np.isclose(r["vr"][side]["chips_per_hand"], league["agents"][spec]["vr"]["chips_per_hand"])
        assert np.isclose(r[side]["chips_per_hand"], league["agents"][spec]["chips_per_hand"])
    d = r["vr"]["b_minus_a"]
    assert np.isclose(d["chips_per_hand"], r["vr"]["b"]["chips_per_hand"] - r["vr"]["a"]["chips_per_hand"])
    assert d["ci95"][0] < d["chips_per_hand"] < d["ci95"][1] and r["vr"]["ci_narrower"] > 0


def test_paired_identical_agents_differ_by_nothing_and_the_cli_prints_json(capsys):
    assert main(["defensive", "search:n=1,base=defensive", "--hands", "40", "--seed", "2", "--vr"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["b_minus_a"]["chips_per_hand"] == 0 and r["vr"]["b_minus_a"]["chips_per_hand"] == 0
    assert r["b"]["ms_per_decision"] >= 0 and "ms_per_decision" not in r["a"]
    r = paired("greedy", "greedy", ["greedy"] * 3, 40, seed=2)
    assert "vr" not in r and r["b_minus_a"]["ci95"] == [0.0, 0.0]


def test_several_b_against_one_a_play_a_once_with_the_same_figures(capsys):
    """``played`` (the CLI with several b) reuses a's games: each pair reads as a fresh paired call."""
    played: dict = {}
    specs = ("defensive", "random")
    got = [paired("greedy", b, ["greedy"] * 3, 40, seed=3, vr=True, played=played) for b in specs]
    assert set(played) == {"greedy", *specs}
    for b, r in zip(specs, got):
        assert r == paired("greedy", b, ["greedy"] * 3, 40, seed=3, vr=True)
    assert main(["greedy", *specs, "--field", "greedy", "--hands", "40", "--seed", "3", "--vr"]) == 0
    out, dec, i, printed = capsys.readouterr().out, json.JSONDecoder(), 0, []
    while out[i:].strip():
        r, i = dec.raw_decode(out, i + len(out[i:]) - len(out[i:].lstrip()))
        printed.append(r)
    assert [r["b"]["agent"] for r in printed] == list(specs)
    assert json.loads(json.dumps(got)) == printed
