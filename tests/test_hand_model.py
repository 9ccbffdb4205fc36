"""The hand model (agents/hand_model.py, training/hand_model.py) and the search's deals by it
(``search:...,hm=PATH``): rows with the true hands, a fit that beats the uniform deal on its own rows,
files that load or are refused, and a search that plays legally and repeats itself."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents import make_agent
from agents.evaluation.arena import play_duplicate
from agents.hand_model import HAND_MODEL_VERSION, HandModel, HandNet, save, unseen
from training.hand_model import collect, fit


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    rows = collect(24, seed=3, keep=0.5, agents=("greedy", "defensive", "greedy", "defensive"))
    path = tmp_path_factory.mktemp("hm") / "hm.pt"
    net, log = fit(rows, epochs=8, holdout=0.25)
    save(net, path, {"log": log})
    return rows, path, log


def test_rows_hold_the_opponents_true_hands(model):
    rows, _, _ = model
    n = rows["planes"].shape[0]
    assert n > 200 and rows["planes"].shape == (n, 79, 34) and rows["hands"].shape == (n, 3, 34)
    assert (rows["hands"] >= 0).all() and (rows["hands"].sum(2) <= 17).all()
    # what an opponent holds is among what the seat cannot see
    assert (rows["hands"].sum(1) <= rows["hidden"]).all()
    np.testing.assert_array_equal(rows["hidden"], unseen(rows["planes"].astype(np.float32)))


def test_the_fit_beats_the_uniform_deal_and_the_file_loads(model):
    rows, path, log = model
    assert log[-1]["held_out_ce"] < log[-1]["uniform_ce"], log
    hm = HandModel(path)
    w = hm.weights(rows["planes"][:5].astype(np.float32), rows["hidden"][:5], 1.0)
    assert w.shape == (5, 3, 34) and np.isfinite(w).all() and np.allclose(w.max(2), 1.0)
    assert np.allclose(hm.weights(rows["planes"][:5].astype(np.float32), rows["hidden"][:5], 0.0), 1.0)


def test_bad_hand_model_files_are_refused(tmp_path):
    with pytest.raises(FileNotFoundError):
        HandModel(tmp_path / "none.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a torch file")
    with pytest.raises(ValueError, match="cannot be read"):
        HandModel(tmp_path / "junk.pt")
    torch.save({"version": HAND_MODEL_VERSION + 1, "net": HandNet().state_dict()}, tmp_path / "v.pt")
    with pytest.raises(ValueError, match="version"):
        HandModel(tmp_path / "v.pt")
    torch.save({"version": HAND_MODEL_VERSION, "net": {"x": torch.zeros(2)}}, tmp_path / "w.pt")
    with pytest.raises(ValueError, match="do not fit"):
        HandModel(tmp_path / "w.pt")


def test_search_dealt_by_the_model_plays_and_repeats(model):
    _, path, _ = model
    spec = f"search:base=defensive,rollout=efficient,k=2,n=2,z=0,hm={path}"
    field = [make_agent("greedy") for _ in range(3)]
    a, b = make_agent(spec), make_agent(spec)
    assert a.name.endswith(f",hm={path}")
    ra, rb = play_duplicate([a, *field], 2, seed=4), play_duplicate([b, *field], 2, seed=4)
    np.testing.assert_array_equal(ra["per_wall"], rb["per_wall"])
    assert a.searched > 0
    for bad in (f"search:hm={path},oracle=1", f"search:hm={path},ha=-1", "search:hm=/no/such/file.pt"):
        with pytest.raises((ValueError, FileNotFoundError)):
            make_agent(bad)
