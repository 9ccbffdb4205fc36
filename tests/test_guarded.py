"""The guarded agent (agents/guarded.py): the base's decisions, Defensive's discard where Defensive folds."""

from __future__ import annotations

import numpy as np
import pytest
from states import random_play

from agents import make_agent
from agents.efficiency import E_UKEIRE_REL, efficiency_planes
from agents.guarded import GuardedAgent, defensive_folds
from envs.engine.actions import CHI, DISCARD, WIN


@pytest.fixture(scope="module")
def batch():
    """Observations (with the derived planes) and masks of random play, early and late in the wall:
    random claims make opponents look ready, so Defensive folds in some of them."""
    pairs = random_play(48, 160, 11)
    return np.concatenate([o for o, _ in pairs]), np.concatenate([m for _, m in pairs])


def test_folds_are_discards_that_keep_no_efficient_shape(batch):
    obs, mask = batch
    d = make_agent("defensive").act(obs, mask)
    folds = defensive_folds(obs, d)
    assert folds.any() and not folds.all()
    rel = efficiency_planes(obs)[:, E_UKEIRE_REL]
    is_discard = (d >= DISCARD) & (d < CHI)
    assert not (folds & ~is_discard).any()  # a claim, kong or win is never a fold
    at = np.flatnonzero(is_discard)
    assert np.array_equal(folds[at], rel[at, d[at] - DISCARD] == 0)


def test_guarded_greedy_is_greedy_except_at_defensives_folds(batch):
    obs, mask = batch
    g = make_agent("greedy").act(obs, mask)
    d = make_agent("defensive").act(obs, mask)
    out = make_agent("guarded:greedy").act(obs, mask)
    take = (g != d) & defensive_folds(obs, d)
    assert take.any(), "no fold in the sample: the test would prove nothing"
    assert np.array_equal(out[take], d[take])
    assert np.array_equal(out[~take], g[~take])
    # where Defensive only picks a safer efficient tile (a half-fold or a tie), Greedy's stays
    assert ((g != d) & ~take & (out == g)).any()


def test_guarded_network_keeps_its_claims_and_wins(batch):
    obs, mask = batch
    net, guarded = make_agent("neural"), make_agent("guarded")
    a, out = net.act(obs, mask), guarded.act(obs, mask)
    changed = out != a
    assert changed.any()
    assert ((out[changed] >= DISCARD) & (out[changed] < CHI)).all()
    assert not (a[changed] == WIN).any()
    assert guarded.derived and guarded.name == "guarded"
    assert mask[np.arange(len(out)), out].all()


def test_guarded_defensive_is_defensive(batch):
    obs, mask = batch
    assert np.array_equal(make_agent("guarded:defensive").act(obs, mask), make_agent("defensive").act(obs, mask))


def test_specs_and_bad_bases():
    assert make_agent("guarded:greedy").name == "guarded:greedy"
    with pytest.raises(ValueError, match="guarded already"):
        make_agent("guarded:guarded")
    with pytest.raises(ValueError, match="unknown agent 'nope'"):
        make_agent("guarded:nope")
    with pytest.raises(TypeError, match="has no act"):
        GuardedAgent(object())
    with pytest.raises(ValueError, match=r"expected obs \(B, C, 34\)"):
        make_agent("guarded:greedy").act(np.zeros((2, 5)), np.ones((2, 76)))
