"""Luck-corrected credit (``training.luck_credit``, ``TrainConfig.luck_credit``): the amounts taken off
the rewards have mean zero over the tiles that could have been drawn, the rollout tracks every draw
across new deals, the machinery with zero coefficients changes nothing, and bad coefficient files are
refused."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest
import torch
from tiny_training import SMALL, tiny_config

from agents.evaluation.luck import FEATURES, LuckRecorder, draw_luck, undrawn_counts
from agents.neural import PolicyValueNet, load_checkpoint
from envs.driver import Driver
from envs.engine.rng import game_seeds
from envs.obs.planes_v0 import engine_shapes
from envs.tiles import N_KINDS
from training.luck_credit import BETA_FILE, LuckBeta, fit, load_beta, play_hands, train_rules
from training.ppo import LOG_COLUMNS, TrainConfig, train
from training.rollout import Opponents, Rollout

K = len(FEATURES)


def _beta(seed: int = 0) -> LuckBeta:
    rng = np.random.default_rng(seed)
    return LuckBeta(rng.normal(size=K) * 5, rng.normal(size=K))


def _states(n_steps: int = 30, games: int = 16, seed: int = 3):
    """Mid-hand states (a driver stepped with random legal actions), one per game still running."""
    d = Driver(train_rules(), games)
    d.deal(game_seeds(seed, games), np.ones(games, bool))
    rng = np.random.default_rng(seed)
    for _ in range(n_steps):
        live = ~d.terminated
        if not live.any():
            break
        mask = d.mask
        act = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        d.step(act, live)
    return d.engine


def test_the_correction_has_mean_zero_over_the_tiles_that_could_be_drawn():
    """For each state and seat, the amount taken off averaged over every undrawn tile (by its count)
    is zero: the correction is a linear mix of centred luck terms, so it adds no bias to any return."""
    eng = _states()
    live = np.flatnonzero(~eng.terminated)
    assert live.size >= 4
    head, tail = eng.wall_head.astype(np.int64), eng.wall_tail.astype(np.int64)
    undrawn = undrawn_counts(eng.wall, head, tail)[live]
    hands = eng.hands[live].astype(np.int64)
    n_sets = 5 - eng.n_melds[live].astype(np.int64)
    drawer = eng.turn_seat[live].astype(np.int64)
    beta = _beta()
    shapes = engine_shapes(eng)
    for i in range(live.size):
        kinds = np.flatnonzero(undrawn[i])  # every kind that could come next (34: a flower)
        # hands hold no flower: the state before a draw is the hand as it is
        rep = lambda a: np.repeat(a[i : i + 1], kinds.size, axis=0)  # noqa: E731
        luck = draw_luck(rep(hands), rep(n_sets), rep(drawer), rep(undrawn), kinds, shapes)
        corr = beta.correction(luck)  # (candidates, 4)
        w = undrawn[i, kinds] / undrawn[i].sum()
        assert np.abs(w @ corr).max() < 1e-9
        assert np.abs(corr).max() > 1e-3  # and the terms are not all zero


def test_the_rollout_keeps_track_of_the_wall_across_new_deals():
    """After a collect in which many hands ended and were dealt again, the rollout's recorder holds each
    game's undrawn tiles as a fresh count reads them (a stale count would mis-centre every later term)."""
    cfg = TrainConfig(num_envs=12, rollout_steps=96, opponents=("greedy",), net=SMALL, seed=4, luck_credit=True)
    torch.manual_seed(0)
    net = PolicyValueNet(SMALL)
    opp = Opponents(cfg)
    opp.snapshot(net)
    ro = Rollout(cfg, train_rules().to_dict(), np.random.default_rng(4), seed=4)
    batch = ro.collect(net, opp)
    eng, rec = ro.d.engine, ro.luck
    assert len(batch.ep_returns) >= 4  # hands ended and new ones were dealt
    fresh = undrawn_counts(eng.wall, eng.wall_head.astype(np.int64), eng.wall_tail.astype(np.int64))
    assert np.array_equal(rec.undrawn, fresh)
    assert rec.draws > 0 and batch.adv_raw is not None and batch.ret_raw is not None
    assert not np.allclose(batch.ret, batch.ret_raw)


def test_seat_credit_keeps_the_correction_beside_the_rewards():
    """Each seat's correction goes to the same decision as its reward (its last one), apart, and a
    seat with no decision yet in the rollout gets neither."""
    from training.credit import SeatCredit

    c = SeatCredit(3, 1)
    c.decide(0, np.array([2]))
    c.paid(np.array([[1.0, 0, -1.0, 0]]), np.array([False]), np.array([[0.5, 0.25, -0.125, 0.0]]))
    c.decide(1, np.array([0]))
    c.paid(np.array([[0.0, 0, 2.0, 0]]), np.array([False]), np.array([[0.75, 0.0, 0.0625, 0.0]]))
    c.decide(2, np.array([2]))
    c.paid(np.array([[0.0, 0, 3.0, 0]]), np.array([True]), np.array([[1.0, 0.0, 0.5, 0.0]]))
    assert c.reward[:, 0].tolist() == [1.0, 0.0, 3.0]  # seat 2's -1 then +2 at step 0; seat 0 had none at 0
    assert c.luck[:, 0].tolist() == [-0.125 + 0.0625, 0.75 + 1.0, 0.5]
    assert c.ended[:, 0].tolist() == [False, True, True] and c.next_t[0, 0] == 2


def test_zero_coefficients_reproduce_the_plain_run_bit_for_bit(tmp_path):
    runs = {}
    for name, kw in (("plain", {}), ("zero", {"luck_credit": True, "luck_credit_scale": 0.0})):
        torch.manual_seed(0)
        path = train(tiny_config(tmp_path, name, seed=9, **kw))
        runs[name] = load_checkpoint(path)[0].state_dict()
    a, b = runs["plain"], runs["zero"]
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    la = list(csv.DictReader(open(tmp_path / "plain" / "log.csv")))
    lb = list(csv.DictReader(open(tmp_path / "zero" / "log.csv")))
    for ra, rb in zip(la, lb):
        for key in ("learner_tai_per_hand", "pg_loss", "v_loss", "approx_kl", "explained_var", "adv_std"):
            assert ra[key] == rb[key], key
        assert ra["adv_std_raw"] == "" and rb["adv_std_raw"] == rb["adv_std"]


def test_a_run_with_luck_credit_logs_the_plain_and_corrected_spreads(tmp_path):
    train(tiny_config(tmp_path, "luck", seed=9, luck_credit=True))
    rows = list(csv.DictReader(open(tmp_path / "luck" / "log.csv")))
    assert tuple(rows[0]) == LOG_COLUMNS and len(rows) == 2
    for r in rows:
        for key in ("ret_std_raw", "adv_std_raw", "explained_var_raw", "adv_std", "explained_var"):
            assert math.isfinite(float(r[key])), key
        assert float(r["adv_std_raw"]) != float(r["adv_std"])


def test_the_shipped_coefficients_load_and_explain_luck():
    """The shipped file fits today's features and rules; on fresh hands its correction takes off a large
    share of the result's variance (the fit read about 60%)."""
    rules = train_rules()
    beta = load_beta(BETA_FILE, rules.to_dict())
    y, luck = play_hands(("greedy", "defensive", "greedy", "defensive"), 400, 424242, rules)
    z = y - beta.correction(luck)
    assert z.var() < 0.6 * y.var()
    assert abs(z.mean() - y.mean()) < 3 * np.sqrt(beta.correction(luck).var() / y.size)


def test_fit_recovers_a_planted_relation():
    rng = np.random.default_rng(1)
    luck = rng.normal(size=(4000, 4, K))
    true = _beta(2)
    y = true.correction(luck) + 0.1 * rng.normal(size=(4000, 4))
    got = fit(y, luck)
    assert np.allclose(got.own, true.own, atol=0.02) and np.allclose(got.other, true.other, atol=0.02)


def _write(tmp_path, **change) -> str:
    d = json.loads(BETA_FILE.read_text())
    d.update(change)
    p = tmp_path / "beta.json"
    p.write_text(json.dumps(d))
    return str(p)


@pytest.mark.parametrize(
    "change, match",
    [
        ({"features": list(FEATURES[:-1])}, "fitted on features"),
        ({"own": [1.0] * (K - 1)}, "values each"),
        ({"other": [float("nan")] * K}, "not finite"),
        ({"units": "chips"}, "needs 'reward'"),
        ({"rules": {**train_rules().to_dict(), "flowers": False}}, "other rules"),
    ],
)
def test_bad_coefficients_are_refused(tmp_path, change, match):
    with pytest.raises(ValueError, match=match):
        load_beta(_write(tmp_path, **change), train_rules().to_dict())


def test_a_missing_or_broken_file_is_refused(tmp_path):
    with pytest.raises(ValueError, match="cannot be read"):
        load_beta(tmp_path / "none.json", train_rules().to_dict())
    (tmp_path / "x.json").write_text("{}")
    with pytest.raises(ValueError, match="lack"):
        load_beta(tmp_path / "x.json", train_rules().to_dict())


def test_the_recorder_restarts_only_the_games_dealt_again():
    d = Driver(train_rules(), 4)
    d.deal(game_seeds(1, 4), np.ones(4, bool))
    rec = LuckRecorder(d.engine)
    before = rec.undrawn.copy()
    which = np.array([False, True, False, False])
    d.redeal(which)
    rec.restart(which)
    fresh = undrawn_counts(d.engine.wall, d.engine.wall_head.astype(np.int64), d.engine.wall_tail.astype(np.int64))
    assert np.array_equal(rec.undrawn, fresh) and np.array_equal(rec.undrawn[~which], before[~which])
    assert rec.take().shape == (4, 4, K) and not rec.luck.any()
    assert N_KINDS == 34


def test_behaviour_cloning_targets_without_the_later_luck():
    """The same teacher hands with and without ``luck_credit``: the same decisions, and value targets
    that differ by the later draws' luck, with less spread (the luck terms explain most of a hand)."""
    from training.bc import BCConfig, collect

    cfg = dict(teachers=("greedy",) * 4, hands=160, batch_hands=80, net=SMALL, progress=False, seed=3)
    plain, luck = collect(BCConfig(**cfg)), collect(BCConfig(**cfg, luck_credit=True))
    for k in ("obs", "mask", "action"):
        assert np.array_equal(plain[k], luck[k]), k
    assert not np.allclose(plain["ret"], luck["ret"])
    assert luck["ret"].var() < 0.8 * plain["ret"].var()


def test_value_detach_keeps_the_value_loss_out_of_the_shared_features():
    """With ``value_detach`` the value's gradient reaches only the value head; the logits and values
    are the same numbers either way."""
    torch.manual_seed(0)
    net = PolicyValueNet(SMALL)
    x = torch.rand(6, SMALL.net_channels, 34)
    for detach in (False, True):
        net.zero_grad()
        logits, v = net(x, detach_value=detach)
        v.sum().backward()
        assert net.v.weight.grad.abs().sum() > 0
        assert (net.fc.weight.grad is None or net.fc.weight.grad.abs().sum() == 0) == detach
    with torch.no_grad():
        a, b = net(x), net(x, detach_value=True)
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
