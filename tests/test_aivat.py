"""AIVAT for the draws (agents.evaluation.aivat): the term has mean zero exactly over the candidate draws of
every state, stays near zero in play, and the shipped value model loads and refuses bad files."""

from __future__ import annotations

import numpy as np
import pytest

import agents.evaluation.aivat as aivat
import agents.evaluation.luck as luck
from agents import make_agent
from agents.evaluation.arena import deal_played, play_duplicate, run_games
from envs.engine.api import Engine
from envs.rules import Rules


def _play(n_games: int, seed: int, **rec_kw):
    eng = Engine(Rules().replace(episode="hand"), batch_size=n_games, record_hands=True)
    deal_played(eng, np.random.SeedSequence(seed).generate_state(n_games, np.uint64))
    rec = luck.LuckRecorder(eng, **rec_kw)
    agents = [make_agent(s) for s in ("greedy", "defensive", "random", "greedy")]
    run_games(eng, agents, np.tile(np.arange(4), (n_games, 1)), on_step=rec.after_step)
    return eng, rec


def test_term_averaged_over_the_candidate_draws_is_exactly_zero(monkeypatch):
    """Exact, for recorded states of real play: sum over kinds k of undrawn[k] * term(drawn = k) = 0."""
    seen = []
    real = aivat.centre

    def keep(values, undrawn, drawn):
        seen.append((values.copy(), undrawn.copy()))
        return real(values, undrawn, drawn)

    monkeypatch.setattr(luck, "centre", keep)  # where the recorder looks it up
    _play(16, seed=5, value=aivat.ValueModel.load())
    values, undrawn = (np.concatenate(a) for a in zip(*seen))
    assert len(values) > 16 * 20 and np.ptp(values) > 1.0  # V varies: the check is not of a constant
    total = np.zeros((len(values), 4))
    for kind in range(luck.N_KINDS + 1):
        total += undrawn[:, kind, None] * real(values, undrawn, np.full(len(values), kind))
    assert np.abs(total).max() < 1e-6 * np.abs(values).max() * undrawn.sum(axis=1).max()


def test_collected_training_rows_are_well_formed():
    """The rows ``collect`` keeps (the features after each actual draw): one shanten class per seat,
    one drawer per draw, a flower count before the draw within the eight flowers."""
    eng, rec = _play(4, seed=9, collect=True)
    games, f = zip(*rec.collected)
    f = np.concatenate(f)
    assert f.shape[1:] == (4, aivat.N_IN)
    assert np.isfinite(f).all() and (f[..., :5].sum(axis=-1) == 1).all()  # one shanten class per seat
    drawer = f[..., 5]
    assert (drawer.sum(axis=1) == 1).all()  # exactly one drawer per draw
    assert (f[..., 16] <= 2.0).all() and (f[..., 16] >= 0).all()


def test_aivat_term_has_mean_zero_in_play():
    """Statistical, fixed seed: the summed term's mean over 256 hands x 4 seats is within 4 standard
    errors of 0, and it moves."""
    eng, rec = _play(256, seed=13, value=aivat.ValueModel.load())
    x = rec.luck[:, :, -1].reshape(-1)
    assert x.std() > 1.0
    z = x.mean() / (x.std(ddof=1) / np.sqrt(len(x)))
    assert abs(z) < 4, z
    assert rec.luck.shape[2] == luck.N_FEATURES + 1


def test_vr_aivat_adds_a_column_and_keeps_the_plain_figures():
    agents = [make_agent(s) for s in ("greedy", "defensive", "greedy", "defensive")]
    plain = play_duplicate(agents, 6, seed=2)
    both = play_duplicate(agents, 6, seed=2, vr="aivat")
    assert both["luck_own"].shape[2] == luck.N_FEATURES + 1
    for name, row in plain["agents"].items():
        assert both["agents"][name]["chips_per_hand"] == row["chips_per_hand"]
        assert "vr" in both["agents"][name]


def test_value_model_file_is_small_and_refuses_bad_files(tmp_path):
    assert aivat.MODEL.stat().st_size < 64_000
    model = aivat.ValueModel.load()
    assert model(np.zeros((3, 2, aivat.N_IN))).shape == (3, 2)
    bad = tmp_path / "bad.npz"
    np.savez(bad, w0=np.zeros((aivat.N_IN, 4)), b0=np.zeros(4), x=np.zeros(1))
    with pytest.raises(ValueError, match="expected arrays"):
        aivat.ValueModel.load(bad)
    np.savez(bad, w0=np.zeros((aivat.N_IN, 4)), b0=np.zeros(4), w1=np.zeros((5, 1)), b1=np.zeros(1))
    with pytest.raises(ValueError, match="do not chain"):
        aivat.ValueModel.load(bad)
    np.savez(bad, w0=np.zeros((aivat.N_IN - 1, 1)), b0=np.zeros(1))
    with pytest.raises(ValueError, match="inputs"):
        aivat.ValueModel.load(bad)
    obj = tmp_path / "obj.npz"
    np.savez(obj, w0=np.array([object()], dtype=object), b0=np.zeros(1))
    with pytest.raises(ValueError):
        aivat.ValueModel.load(obj)
