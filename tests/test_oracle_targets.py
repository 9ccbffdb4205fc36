"""Policy improvement from oracle rollouts (training/oracle_targets.py, issue 26): the labeller plays
exactly as its network while it records the oracle search's values; the targets are a softmax over
the candidates; the fit moves the policy toward the candidate of best value and keeps the rest."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents import make_agent
from agents.evaluation.arena import play_duplicate
from agents.neural import DEFAULT_CHECKPOINT, load_checkpoint, masked_logits, net_input
from training.oracle_targets import CollectConfig, FitConfig, OracleLabeller, fit, load_rows, targets

SMALL = CollectConfig(hands=8, seed=5, k=2, n=3, rollout="efficient")


def test_targets_are_a_softmax_over_the_candidates():
    values = np.array([[10.0, 0.0, np.nan], [0.0, 5.0, 5.0]])
    cands = np.array([[3, 7, -1], [40, 2, 9]])
    t = targets(values, cands, temperature=5.0)
    assert t.shape == (2, 76) and np.allclose(t.sum(1), 1.0)
    e = np.exp(2.0)
    assert np.isclose(t[0, 3], e / (e + 1)) and np.isclose(t[0, 7], 1 / (e + 1))
    assert np.isclose(t[1, 2], t[1, 9]) and t[1, 2] > t[1, 40]
    assert np.count_nonzero(t) == 5


def test_the_labeller_plays_as_its_network_and_records_searched_decisions(tmp_path):
    field = [make_agent("defensive") for _ in range(3)]
    lab = OracleLabeller(SMALL)
    with_lab = play_duplicate([lab, *field], 2, seed=5)
    alone = play_duplicate([make_agent("neural"), *field], 2, seed=5)
    np.testing.assert_array_equal(with_lab["per_wall"], alone["per_wall"])
    rows = lab.arrays()
    n = rows["obs"].shape[0]
    assert n > 20 and rows["cands"].shape == (n, 3) and rows["values"].shape == (n, 3)
    assert (rows["cands"][:, :2] >= 0).all() and np.isfinite(rows["values"][:, :2]).all()
    legal = np.take_along_axis(rows["mask"], np.maximum(rows["cands"], 0), axis=1)
    assert legal[rows["cands"] >= 0].all()
    np.savez(tmp_path / "r.npz", **rows)
    again = load_rows([tmp_path / "r.npz", tmp_path / "r.npz"])
    assert again["obs"].shape[0] == 2 * n


def test_bad_configs_and_rows_are_refused(tmp_path):
    for bad in ({"rollout": "best"}, {"rollout": "base"}, {"k": 0}, {"n": 1}):
        with pytest.raises(ValueError):
            OracleLabeller(CollectConfig(**{**SMALL.__dict__, **bad}))
    with pytest.raises(TypeError, match="act_engine"):
        OracleLabeller(SMALL).act(None, None)
    np.savez(
        tmp_path / "bad.npz",
        obs=np.zeros((3, 2, 34)),
        mask=np.ones((3, 76), bool),
        cands=np.zeros((3, 2)),
        values=np.zeros((3, 4)),
    )
    with pytest.raises(ValueError, match="inconsistent"):
        load_rows([tmp_path / "bad.npz"])


def _policy(path, rows):
    net, _ = load_checkpoint(path)
    with torch.no_grad():
        x = torch.from_numpy(net_input(rows["obs"].astype(np.float32), net.cfg))
        return masked_logits(net(x)[0], torch.from_numpy(rows["mask"])).argmax(-1).numpy()


def test_the_fit_moves_the_policy_toward_the_best_candidate(tmp_path):
    lab = OracleLabeller(SMALL)
    play_duplicate([lab, *[make_agent("defensive") for _ in range(3)]], 2, seed=6)
    rows = lab.arrays()
    # make the network's second choice worth 100 chips more everywhere: the fit must learn to play it
    rows["values"][:, 1] = rows["values"][:, 0] + 100.0
    before = _policy(DEFAULT_CHECKPOINT, rows)
    assert (before == rows["cands"][:, 0]).all()
    res = fit(FitConfig(mode="softmax", epochs=30, lr=3e-3, holdout=0.0), rows, tmp_path / "p.pt")
    assert (_policy(tmp_path / "p.pt", rows) == rows["cands"][:, 1]).mean() > 0.8, res
    res = fit(FitConfig(epochs=30, lr=3e-3, temperature=5.0, holdout=0.0), rows, tmp_path / "p.pt")
    after = _policy(tmp_path / "p.pt", rows)
    assert (after == rows["cands"][:, 1]).mean() > 0.6, res  # (the prior's weight holds some rows back)
    # with no step at all the policy stays the network's
    fit(FitConfig(epochs=1, lr=0.0, holdout=0.0), rows, tmp_path / "same.pt")
    assert (_policy(tmp_path / "same.pt", rows) == before).all()


def test_prior_targets_reweight_the_candidates_and_keep_the_rest():
    from training.oracle_targets import prior_targets

    p0 = torch.zeros(1, 76)
    p0[0, [3, 7, 9, 11]] = torch.tensor([0.5, 0.3, 0.15, 0.05])
    cands = torch.tensor([[3, 7, 9]])
    t = prior_targets(p0, cands, torch.tensor([[0.0, 10.0, float("nan")]]), 10.0)
    assert torch.isclose(t.sum(), torch.tensor(1.0))
    assert t[0, 11] == p0[0, 11] and t[0, 9] == p0[0, 9]  # not a candidate, or no value: kept
    e = float(np.exp(1.0))
    assert torch.isclose(t[0, 7] / t[0, 3], torch.tensor(0.3 * e / 0.5))
    assert torch.isclose(t[0, 3] + t[0, 7], torch.tensor(0.8))
    same = prior_targets(p0, cands, torch.zeros(1, 3), 10.0)  # equal values: the prior itself
    assert torch.allclose(same, p0)
    padded = prior_targets(p0, torch.tensor([[3, 7, -1]]), torch.tensor([[0.0, 10.0, float("nan")]]), 10.0)
    assert torch.allclose(padded, t)  # a -1 pad touches no action (action 0 included)
