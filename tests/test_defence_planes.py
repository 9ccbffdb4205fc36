"""The neural agent's defence planes (agents/defence_planes.py): the native danger, Defensive's
formula, the network's input and the checkpoint version."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from states import random_play

from agents.defence_planes import (
    D_DEAL,
    D_NEXT,
    D_PREVIOUS,
    D_THREAT,
    DANGER_CAP,
    DEFENCE_VERSION,
    N_DEFENCE,
    defence_planes,
    hidden_wait_ways,
)
from agents.efficiency import N_EFFICIENCY
from agents.features import decode
from agents.greedy import READY_P
from agents.neural import CheckpointError, NetConfig, PolicyValueNet, load_checkpoint, net_input, save_checkpoint
from envs._core import tile_danger
from envs.tiles import parse_tiles


@pytest.fixture(scope="module")
def obs():
    """planes_v0 observations reached by random play, early and late in the wall."""
    return np.concatenate([o for o, _ in random_play(32, 150, 5)])


def test_ways_are_the_native_kernels(obs):
    """The vectorised count is the kernel Defensive decides with, kind by kind."""
    f = decode(obs[::7])
    ways = hidden_wait_ways(f.unseen, f.opp_passed, f.opp_disc)
    for b in range(len(ways)):
        for o in range(3):
            for d in range(34):
                assert ways[b, o, d] == tile_danger(d, f.opp_passed[b, o], f.opp_disc[b, o], f.unseen[b]), (b, o, d)


def test_ways_by_hand():
    """Honours wait only as a pair or a single; a middle number also two-sided, edge and closed; a kind
    the opponent let pass is safe, one it discarded itself half as dangerous."""
    unseen = np.full((1, 34), 4, np.int8)
    none = np.zeros((1, 3, 34), np.int8)
    ways = hidden_wait_ways(unseen, none, none)[0, 0]
    east, five, one = parse_tiles("E")[0], parse_tiles("5m")[0], parse_tiles("1m")[0]
    assert ways[east] == 4 * 3 + 4 + 1
    assert ways[five] == 17 + 4 * (16 + 16) + 2 * 16
    assert ways[one] == 17 + 4 * 16  # edge only from above
    passed, disc = none.copy(), none.copy()
    passed[0, 1, five] = 1
    disc[0, 2, five] = 1
    w = hidden_wait_ways(unseen, passed, disc)[0]
    assert w[1, five] == 0 and w[2, five] == ways[five] // 2 and w[0, five] == ways[five]


def test_planes_follow_defensives_formula(obs):
    f = decode(obs)
    p = defence_planes(obs)
    assert p.shape == (len(obs), N_DEFENCE, 34) and p.dtype == np.float32
    ready = READY_P[np.minimum(f.opp_melds, 4), np.minimum(f.tiles_left // 16, 3)[:, None]]
    per = p[:, D_NEXT : D_PREVIOUS + 1].astype(np.float64) * DANGER_CAP
    assert np.all(per <= ready[:, :, None] * DANGER_CAP + 1e-6)
    np.testing.assert_allclose(p[:, D_DEAL] * DANGER_CAP, 1 - np.prod(1 - per, axis=1), atol=1e-6)
    np.testing.assert_allclose(p[:, D_THREAT], np.repeat(1 - np.prod(1 - ready, axis=1)[:, None], 34, 1), atol=1e-6)
    # a kind an opponent let pass is safe against it; early in the wall, with nobody melded, little looks ready
    safe = f.opp_passed > 0
    assert np.all(per[safe] == 0)
    assert p[:, D_DEAL].max() > 0.5 and p[:, D_DEAL].min() == 0


def test_the_network_reads_them(obs, tmp_path):
    cfg = NetConfig(width=4, hidden=8, defence=True)
    x = net_input(obs[:5], cfg)
    assert x.shape == (5, cfg.in_channels + N_EFFICIENCY + N_DEFENCE, 34)
    np.testing.assert_array_equal(x[:, -N_DEFENCE:], defence_planes(obs[:5]))
    net = PolicyValueNet(cfg)
    path = tmp_path / "d.pt"
    save_checkpoint(path, net)
    back, _ = load_checkpoint(path)
    assert back.cfg.defence and back(torch.from_numpy(x))[0].shape == (5, 76)
    ck = torch.load(path, weights_only=True)
    assert ck["defence_version"] == DEFENCE_VERSION
    ck["defence_version"] = "defence_v9"
    torch.save(ck, tmp_path / "other.pt")
    with pytest.raises(CheckpointError, match="defence planes defence_v9"):
        load_checkpoint(tmp_path / "other.pt")
    ck["config"]["defence"] = "yes"
    torch.save(ck, tmp_path / "bad.pt")
    with pytest.raises(CheckpointError, match="config defence must be true or false"):
        load_checkpoint(tmp_path / "bad.pt")


def test_old_checkpoints_read_no_defence(tmp_path):
    """A config written before the planes (no ``defence`` key) loads as a network without them."""
    path = tmp_path / "old.pt"
    save_checkpoint(path, PolicyValueNet(NetConfig(width=4, hidden=8)))
    ck = torch.load(path, weights_only=True)
    del ck["config"]["defence"]
    torch.save(ck, path)
    net, _ = load_checkpoint(path)
    assert net.cfg.defence is False
