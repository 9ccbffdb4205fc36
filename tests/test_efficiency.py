"""The neural agent's efficiency planes (agents/efficiency.py) against a plain-Python reference."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from states import random_play

from agents.efficiency import (
    E_CHI,
    E_KONG,
    E_PON,
    E_SELF_KONG,
    E_UKEIRE,
    E_UKEIRE_NOW,
    E_UKEIRE_REL,
    N_EFFICIENCY,
    efficiency_planes,
)
from agents.features import decode
from agents.greedy import GreedyAgent
from agents.neural import NetConfig, NeuralAgent, PolicyValueNet, load_checkpoint, net_input, save_checkpoint
from envs.engine.actions import CHI, DISCARD, KONG, PASS, PON, WIN
from envs.hand.api import shanten_of


def _states(n_games=24, steps=120, seed=3):
    """(obs, mask) batches reached by random play, with claims and own turns."""
    return random_play(n_games, steps, seed)


@pytest.fixture(scope="module")
def states():
    return _states()


def _sh(counts, n_melds):
    return shanten_of(counts, n_melds=int(n_melds))


def _ref_ukeire(counts, n_melds, s, unseen):
    total = 0
    for t in range(34):
        if unseen[t] > 0 and counts[t] < 4:
            counts[t] += 1
            total += unseen[t] if _sh(counts, n_melds) < s else 0
            counts[t] -= 1
    return total


def test_ukeire_planes_match_a_python_reference(states):
    checked = 0
    for obs, _ in states[::9]:
        f, e = decode(obs), efficiency_planes(obs)
        for b in range(min(len(obs), 6)):
            h = f.hand[b].astype(np.int64)
            if f.claim_tile[b] >= 0 or h.sum() % 3 != 2:
                continue
            after = {}
            for d in np.flatnonzero(h):
                h[d] -= 1
                s = _sh(h, f.n_melds[b])
                after[d] = (s, _ref_ukeire(h, f.n_melds[b], s, f.unseen[b]) if s >= 0 else 0)
                h[d] += 1
            best_s = min(s for s, _ in after.values())
            best_u = max(u for s, u in after.values() if s == best_s)
            for d, (s, u) in after.items():
                assert e[b, E_UKEIRE, d] == pytest.approx(min(u, 64) / 64)
                rel = (u / best_u if best_u else 1.0) if s == best_s else 0.0
                assert e[b, E_UKEIRE_REL, d] == pytest.approx(rel)
            assert not e[b, E_UKEIRE, h == 0].any()
            checked += 1
    assert checked >= 10


def test_claim_gains_say_when_greedy_claims(states):
    """Greedy claims exactly when some legal claim lowers the shanten: a positive gain plane."""
    checked = 0
    greedy = GreedyAgent()
    for obs, mask in states:
        f = decode(obs)
        # (Greedy wins first when it can: those rows are not about claims)
        claiming = (
            (f.claim_tile >= 0) & mask[:, PASS] & ~mask[:, WIN] & mask[:, [PON, KONG, CHI, CHI + 1, CHI + 2]].any(1)
        )
        if not claiming.any():
            continue
        e = efficiency_planes(obs[claiming])
        m = mask[claiming]
        gains = np.stack([e[:, E_PON, 0], e[:, E_KONG, 0], e[:, E_CHI, 0], e[:, E_CHI + 1, 0], e[:, E_CHI + 2, 0]], 1)
        legal = m[:, [PON, KONG, CHI, CHI + 1, CHI + 2]]
        wants = (np.where(legal, gains, -9) > 0).any(1)
        acts = greedy.act(obs[claiming], m)
        assert np.array_equal(acts != PASS, wants)
        assert (e[:, E_UKEIRE_NOW] >= 0).all() and not e[:, E_UKEIRE].any()
        checked += int(claiming.sum())
    assert checked >= 20


def test_greedy_discards_an_efficiency_best_tile(states):
    greedy = GreedyAgent()
    for obs, mask in states[::5]:
        own = mask[:, DISCARD : DISCARD + 34].any(1) & ~mask[:, PASS]
        if not own.any():
            continue
        a = greedy.act(obs[own], mask[own])
        e = efficiency_planes(obs[own])
        d = a[(a >= DISCARD) & (a < DISCARD + 34)]
        rows = np.flatnonzero((a >= DISCARD) & (a < DISCARD + 34))
        assert (e[rows, E_UKEIRE_REL, d - DISCARD] == 1.0).all()


def test_self_kong_plane_only_on_held_kinds(states):
    for obs, _ in states[::10]:
        f, e = decode(obs), efficiency_planes(obs)
        assert not e[:, E_SELF_KONG][f.hand == 0].any()


def test_efficiency_net_round_trip(tmp_path, states):
    cfg = NetConfig(efficiency=True)
    net = PolicyValueNet(cfg)
    assert cfg.net_channels == cfg.in_channels + N_EFFICIENCY
    obs, mask = states[4]
    x = net_input(obs, cfg)
    assert x.shape == (len(obs), cfg.net_channels, 34) and x.dtype == np.float32
    assert np.array_equal(x[:, : cfg.in_channels], obs[:, : cfg.in_channels])
    path = tmp_path / "e.pt"
    save_checkpoint(path, net)
    agent = NeuralAgent(path)
    a = agent.act(obs, mask)
    assert mask[np.arange(len(mask)), a].all()
    ck = torch.load(path, weights_only=True)
    ck["efficiency_version"] = "efficiency_v9"
    torch.save(ck, tmp_path / "old.pt")
    with pytest.raises(ValueError, match="efficiency_v9"):
        load_checkpoint(tmp_path / "old.pt")
    with pytest.raises(ValueError, match="derived=True"):
        net_input(obs[:, :79], cfg)
