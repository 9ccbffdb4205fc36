"""Variance-reduced duplicate evaluation (agents.evaluation.luck, agents.evaluation.variance, agents.evaluation.eval_seeds,
``tw16 eval --eval-set --vr``): the luck terms have mean zero, the estimator is the plain one with
beta = 0, an A/A match stays at zero, the published walls are what their rule says."""

from __future__ import annotations

import json

import numpy as np
import pytest

import agents.evaluation.luck as luck
from agents import make_agent
from agents.evaluation.arena import deal_played, play_duplicate, run_games
from agents.evaluation.eval_seeds import EVAL_SETS, document, generate, load, path_of
from agents.evaluation.variance import corrected_row, cross_fit, mean_ci
from agents.evaluation.vr_study import aa_agents
from envs.engine.api import Engine
from envs.rules import Rules


def _play_recorded(n_games: int, seed: int, specs=("greedy", "defensive", "random", "greedy"), probe=None):
    rules = Rules().replace(episode="hand")
    eng = Engine(rules, batch_size=n_games, record_hands=True)
    deal_played(eng, np.random.SeedSequence(seed).generate_state(n_games, np.uint64))
    rec = luck.LuckRecorder(eng)
    run_games(eng, [make_agent(s) for s in specs], np.tile(np.arange(4), (n_games, 1)), on_step=rec.after_step)
    return eng, rec


def test_each_draw_luck_has_expectation_zero_over_the_undrawn_tiles():
    """Exact: for recorded situations, the luck of every possible draw weighted by its undrawn count sums to 0."""
    seen = []
    real = luck.draw_luck

    def keep(hands, n_sets, drawer, undrawn, drawn, shapes, **kw):
        seen.append((hands.copy(), n_sets.copy(), drawer.copy(), undrawn.copy()))
        return real(hands, n_sets, drawer, undrawn, drawn, shapes, **kw)

    luck.draw_luck = keep
    try:
        _play_recorded(16, seed=3)
    finally:
        luck.draw_luck = real
    hands, n_sets, drawer, undrawn = (np.concatenate(a)[:200] for a in zip(*seen))
    assert (hands >= 0).all() and (hands <= 4).all()
    rows = np.arange(len(drawer))
    assert (hands[rows, drawer].sum(axis=1) == 3 * n_sets[rows, drawer] + 1).all()  # 3n+1 before every draw
    total = np.zeros((len(drawer), 4, luck.N_FEATURES))
    for kind in range(luck.N_KINDS + 1):
        drawn = np.full(len(drawer), kind)
        total += undrawn[:, kind, None, None] * real(hands, n_sets, drawer, undrawn, drawn, 0)
    assert np.abs(total).max() < 1e-9


def test_recorded_luck_has_mean_zero_in_play():
    """Statistical, fixed seed: every feature's mean over 512 hands x 4 seats is within 4 standard errors of 0."""
    eng, rec = _play_recorded(512, seed=11)
    x = rec.luck.reshape(-1, luck.N_FEATURES)
    z = x.mean(axis=0) / (x.std(axis=0, ddof=1) / np.sqrt(len(x)))
    assert np.all(np.abs(z) < 4), dict(zip(luck.FEATURES, z.round(2)))
    assert (x != 0).mean(axis=0).min() > 0.01, dict(
        zip(luck.FEATURES, (x != 0).mean(axis=0).round(3))
    )  # every term moves
    assert rec.draws > 512 * 20
    # the bookkeeping followed the wall: the undrawn tiles it kept are the wall's
    head, tail = eng.wall_head.astype(np.int64), eng.wall_tail.astype(np.int64)
    assert np.array_equal(rec.undrawn, luck.undrawn_counts(eng.wall, head, tail))


def test_corrected_estimator_with_zero_beta_is_the_plain_one():
    rng = np.random.default_rng(0)
    y, x = rng.normal(size=40), rng.normal(size=(40, 6))
    row = corrected_row(y, x, beta=np.zeros(6))
    mean, ci = mean_ci(y)
    assert row["chips_per_hand"] == mean and row["ci95"] == ci and row["ci_narrower"] == 1.0


def test_cross_fitting_uses_the_other_walls_only():
    """Wall w's correction does not change when wall w's own outcome does (its beta comes from the other parity)."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=(120, 3))
    y = x @ np.array([2.0, -1.0, 0.5]) + rng.normal(size=120) * 0.1
    z, betas = cross_fit(y, x)
    assert np.allclose(betas, [2.0, -1.0, 0.5], atol=0.1) and np.std(z) < 0.2
    y2 = y.copy()
    y2[::2] += 100.0  # the even walls only
    z2, betas2 = cross_fit(y2, x)
    assert np.allclose(betas2[0], betas[0]) and np.allclose(z2[::2] - z[::2], 100.0)
    few, _ = cross_fit(y[:20], x[:20])  # too few walls to fit 3 coefficients: no correction
    assert np.array_equal(few, y[:20])


def test_vr_leaves_the_plain_figures_alone():
    agents = [make_agent(s) for s in ("greedy", "defensive", "greedy", "defensive")]
    plain = play_duplicate(agents, 24, seed=5)
    with_vr = play_duplicate(agents, 24, seed=5, vr=True)
    assert np.array_equal(plain["per_wall"], with_vr["per_wall"])
    for name, row in plain["agents"].items():
        assert with_vr["agents"][name]["ci95"] == row["ci95"]
        assert "vr" in with_vr["agents"][name] and "vr" not in row


def test_aa_match_covers_zero_and_narrows():
    """Four sampling Neural copies named A B A B: the true value is 0; 150 walls x 4 seatings."""
    res = play_duplicate(aa_agents("neural-sample"), 150, seed=2, vr=True)
    for name in ("A", "B"):
        r = res["agents"][name]
        lo, hi = r["vr"]["ci95"]
        assert lo < 0 < hi and r["ci95"][0] < 0 < r["ci95"][1]
        assert r["vr"]["ci_narrower"] > 1.1


def test_eval_set_is_what_its_rule_says():
    for version in EVAL_SETS:
        seeds = load(version)
        assert np.array_equal(seeds, generate(version)) and len(seeds) == EVAL_SETS[version]
        assert json.loads(path_of(version).read_text()) == document(version)
        assert len(set(seeds.tolist())) == len(seeds)
    with pytest.raises(ValueError, match="unknown evaluation set"):
        load("v0")


def test_ceiling_diagnostic_orders_what_realized_events_would_buy():
    """`vr_study ceiling`: the luck terms narrow the interval, and realized events (known only after
    the hand: a biased diagnostic) narrow it further, all three the most."""
    from agents.evaluation.vr_study import ceiling

    agents = [make_agent(s) for s in ("greedy", "defensive", "greedy", "defensive")]
    rows = ceiling(agents, 700, seed=4, eval_set=None)["rows"]
    x = {k: r["ci_narrower"] for k, r in rows.items()}
    assert 1 < x["luck terms only"] < x["+ who drew a win"] < x["+ all three"], x
    assert x["luck terms only"] < x["+ who dealt in, who won on a discard"] < x["+ all three"], x


def test_paired_comparison_is_each_agents_own_duplicate_and_their_difference_by_wall():
    from agents.evaluation.paired import paired

    res = paired("greedy", "defensive", ["greedy"] * 3, 160, seed=3)
    alone = play_duplicate([make_agent(s, seed=3) for s in ("defensive", "greedy", "greedy", "greedy")], 40, seed=3)
    assert res["walls"] == 40 and res["b"]["chips_per_hand"] == alone["agents"]["defensive"]["chips_per_hand"]
    assert res["a"]["chips_per_hand"] == 0.0  # Greedy against three Greedy: every seating the same
    assert res["b_minus_a"]["chips_per_hand"] == pytest.approx(res["b"]["chips_per_hand"] - res["a"]["chips_per_hand"])
    with pytest.raises(ValueError, match="three agents"):
        paired("greedy", "defensive", ["greedy"], 40)
