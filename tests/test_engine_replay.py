"""Replays (rules, seed, actions) -> JSON-lines event logs, and the golden playthroughs.

Golden files changed on purpose (a rule or scoring change)? Regenerate them with
``python -m envs.engine.replay --golden tests/data/golden`` and review the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from envs.engine.replay import GOLDEN, dumps, golden_text, record, replay
from envs.rules import Rules

GOLDEN_DIR = Path(__file__).parent / "data" / "golden"


@pytest.mark.parametrize("fname", [g[0] for g in GOLDEN])
def test_golden_playthrough(fname):
    want = (GOLDEN_DIR / fname).read_text(encoding="utf-8")
    got = golden_text(fname)
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "now"))[:40])
        pytest.fail(f"{fname} differs (regenerate: python -m envs.engine.replay --golden tests/data/golden):\n{diff}")
    replay(want)


def test_goldens_cover_wins_and_claims():
    text = "".join((GOLDEN_DIR / g[0]).read_text(encoding="utf-8") for g in GOLDEN)
    assert '"kind": "win"' in text and '"meld"' in text and '"drew"' in text


def test_record_and_replay_round_trip():
    for seed in (2, 3):
        log = record(Rules.make(episode="game"), seed, max_steps=400)
        assert log[0]["seed"] == seed and log[0]["rules"]["episode"] == "game"
        replay(dumps(log))


def test_replay_detects_a_changed_line():
    log = record(Rules(), 4)
    i = next(n for n, x in enumerate(log) if "drew" in x)
    log[i] = dict(log[i], drew=["9s"])
    with pytest.raises(AssertionError, match=f"line {i + 1}"):
        replay(log)


def test_named_actions_give_the_same_log():
    log = record(Rules(), 6)
    again = record(Rules(), 6, [x["action"] for x in log[1:6]])
    assert again == log[:6]
