"""The performance-difference evaluation (agents/evaluation/policy_diff.py): the disagreement states,
the paired rollouts and the result."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.evaluation.arena import deal_played, duplicate_wall_seeds, hand_outcomes, rotated_seating, run_games
from agents.evaluation.policy_diff import (
    CHUNK,
    KINDS,
    Disagreements,
    kind_of,
    policy_difference,
    rollout_differences,
)
from envs.engine.actions import CHI, DISCARD, PASS, PON, SELF_KONG, WIN
from envs.engine.api import Engine
from envs.rules import Rules

RULES = Rules().replace(episode="hand")


@pytest.fixture(scope="module")
def played():
    """Defensive (the candidate) against three Greedy on 8 walls, with Greedy as the base."""
    base, cand = make_agent("greedy"), make_agent("defensive")
    others = [make_agent("greedy") for _ in range(3)]
    nw = 8
    eng = Engine(RULES, batch_size=4 * nw, record_hands=True)
    seat_agent = rotated_seating(nw)
    deal_played(eng, np.repeat(duplicate_wall_seeds(3, nw), 4))
    found = Disagreements(eng, base, seat_agent)
    run_games(eng, [cand, *others], seat_agent, on_decision=found.on_decision)
    return found, hand_outcomes(eng)["chips"], seat_agent, base, cand, others


def test_the_copies_are_the_states_decided_at(played):
    """The candidate's own action, continued by the candidate on the wall as it was, plays each
    disagreement's hand to the chips it ended with."""
    found, chips, seat_agent, _, cand, others = played
    n = len(found.games)
    assert 0 < n <= CHUNK and n < found.decisions
    roll = Engine(RULES, batch_size=n, record_hands=True)
    for i in range(n):
        roll.set_game(i, found.store[0], i)
    roll.take_hands()
    roll.step(np.array(found.b))
    run_games(roll, [cand, *others], seat_agent[np.array(found.games)])
    again = hand_outcomes(roll)["chips"]
    np.testing.assert_array_equal(again, chips[np.array(found.games)])
    # the base would have chosen otherwise there, and the candidate's seat was the one deciding
    assert all(a != b for a, b in zip(found.a, found.b))
    at = np.argmax(seat_agent == 0, axis=1)
    assert all(at[g] == s for g, s in zip(found.games, found.seats))


def test_paired_rollouts_share_their_walls(played):
    """With the same action on both sides, every wall order gives both sides the same hand: the
    differences are exactly zero (the two sides are dealt the same order)."""
    found, _, seat_agent, base, _, others = played
    same = Disagreements(found.eng, base, seat_agent)
    same.games, same.seats, same.store = found.games, found.seats, found.store
    same.a = same.b = list(found.b)
    diff, luck = rollout_differences(same, [base, *others], seat_agent, k=2, seed=7)
    assert np.all(diff == 0) and np.all(luck == 0)
    diff, _ = rollout_differences(found, [base, *others], seat_agent, k=2, seed=7)
    assert np.any(diff != 0)
    again, _ = rollout_differences(found, [base, *others], seat_agent, k=2, seed=7)
    np.testing.assert_array_equal(diff, again)  # deterministic given the seed


def test_identical_policies_differ_by_nothing():
    out = policy_difference("greedy", "greedy", ["defensive"] * 3, hands=16, seed=1, k=1)
    assert out["disagreements"] == 0 and out["decisions"] > 0
    assert out["difference"]["chips_per_hand"] == 0 and out["difference"]["ci95"] == [0.0, 0.0]


def test_result_and_kinds():
    out = policy_difference("greedy", "defensive", ["greedy"] * 3, hands=32, seed=2, k=2)
    assert out["hands"] == 32 and out["disagreements"] > 0
    total = sum(v["chips_per_hand"] for v in out["by_kind"].values())
    assert total == pytest.approx(out["difference"]["chips_per_hand"])
    assert set(out["by_kind"]) == set(KINDS)
    # Defensive differs from Greedy only in its discards
    assert out["by_kind"]["discard"]["count"] == out["disagreements"]


def test_kind_of():
    assert kind_of(DISCARD + 3, DISCARD + 7) == "discard"
    assert kind_of(PON, PASS) == "claim" and kind_of(PASS, CHI + 1) == "claim"
    assert kind_of(WIN, PASS) == "win" and kind_of(WIN, DISCARD) == "win"
    assert kind_of(SELF_KONG + 4, DISCARD + 4) == "kong"


@pytest.mark.parametrize(
    "kw,msg",
    [({"k": 0}, "k \\(rollouts per action\\) must be a positive integer"), ({"field": ["greedy"]}, "three agents")],
)
def test_bad_arguments(kw, msg):
    args = {"base_spec": "greedy", "cand_spec": "defensive", "field": ["greedy"] * 3, "hands": 8, **kw}
    with pytest.raises(ValueError, match=msg):
        policy_difference(**args)
