"""Agents, duplicate evaluation, behaviour cloning, replay and SVG: smoke and behaviour tests."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from agents import make_agent
from agents.base import RandomAgent
from agents.evaluation.arena import play_duplicate
from agents.features import decode
from agents.greedy import DefensiveAgent, GreedyAgent
from agents.neural import NeuralAgent, PolicyValueNet, load_checkpoint, save_checkpoint
from envs.engine.actions import DISCARD, WIN
from envs.engine.api import Engine
from envs.obs.planes_v0 import PlanesV0
from envs.rules import Rules


def _play_some(n_games=16, steps=60, seed=0):
    """States reached by random play, with their planes and masks."""
    eng = Engine(Rules(), n_games)
    eng.reset(seed)
    rng = np.random.default_rng(seed)
    enc = PlanesV0()
    out = []
    for _ in range(steps):
        live = ~eng.terminated
        if not live.any():
            break
        obs = enc.encode(eng)
        out.append((eng, obs[live].copy(), eng.legal_action_mask[live].copy()))
        mask = eng.legal_action_mask
        eng.step((rng.random(mask.shape) + mask).argmax(1))
    return out


@pytest.fixture(scope="module")
def states():
    return _play_some()


@pytest.mark.parametrize("agent", [RandomAgent(0), GreedyAgent(0), DefensiveAgent(0)], ids=lambda a: a.name)
def test_agents_choose_legal_actions(agent, states):
    for _, obs, mask in states:
        a = agent.act(obs, mask)
        assert a.shape == (len(mask),)
        assert mask[np.arange(len(mask)), a].all()


def test_features_recover_own_hand_and_unseen():
    eng = Engine(Rules(), 16)
    eng.reset(0)
    f = decode(PlanesV0().encode(eng))
    own = eng.hands[np.arange(16), eng.current_player]
    assert (f.hand == own).all()
    assert (f.unseen == 4 - own).all()  # nothing else is visible before the first discard
    assert (f.claim_tile == -1).all() and (f.n_melds == 0).all()


def test_greedy_wins_when_it_can():
    mask = np.zeros((1, 76), bool)
    mask[0, [DISCARD + 3, WIN]] = True
    obs = np.zeros((1, 79, 34), np.float32)
    obs[0, 0, 3] = 1  # one 4m in hand
    assert GreedyAgent().act(obs, mask)[0] == WIN


def test_random_agent_is_seeded(states):
    _, obs, mask = states[3]
    assert (RandomAgent(5).act(obs, mask) == RandomAgent(5).act(obs, mask)).all()


def test_bad_batches_are_named():
    with pytest.raises(ValueError, match="no legal action"):
        RandomAgent().act(np.zeros((1, 79, 34), np.float32), np.zeros((1, 76), bool))
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("genius")


def test_duplicate_play_is_zero_sum_and_reproducible():
    agents = [make_agent(n) for n in ("greedy", "random", "greedy", "random")]
    a = play_duplicate(agents, 6, seed=3)
    b = play_duplicate([make_agent(n) for n in ("greedy", "random", "greedy", "random")], 6, seed=3)
    assert a["hands"] == 24
    assert np.allclose(a["per_wall"].sum(axis=1), 0)  # chips are zero-sum on every wall
    assert a["agents"] == b["agents"]
    g = a["agents"]["greedy"]
    assert g["ci95"][0] <= g["chips_per_hand"] <= g["ci95"][1]
    assert set(a["ratings"]) == {"greedy", "random"}
    for k in ("win_rate", "deal_in_rate", "self_draw_rate", "drawn_rate"):
        assert 0.0 <= g[k] <= 1.0


def test_eval_cli_json(tmp_path, capsys):
    from tw16.cli.main import main

    png = tmp_path / "eval.png"
    assert main(["eval", "greedy", "random", "defensive", "random", "--hands", "8", "--json", "--plot", str(png)]) == 0
    res = json.loads(capsys.readouterr().out)
    assert set(res["agents"]) == {"greedy", "random", "defensive"}
    assert png.exists() and png.stat().st_size > 1000


def test_neural_agent_checkpoint_round_trip(tmp_path, states):
    net = PolicyValueNet()
    path = tmp_path / "p.pt"
    save_checkpoint(path, net)
    agent = NeuralAgent(path)
    assert agent.derived  # the default net reads the derived planes
    eng, obs, mask = states[2]
    with pytest.raises(ValueError, match="derived=True"):
        agent.act(obs, mask)
    live = ~eng.terminated
    obs86 = PlanesV0(derived=True).encode(eng)[live]
    a = agent.act(obs86, eng.legal_action_mask[live])
    assert eng.legal_action_mask[live][np.arange(live.sum()), a].all()
    assert np.array_equal(a, NeuralAgent(net=load_checkpoint(path)[0]).act(obs86, eng.legal_action_mask[live]))
    assert path.stat().st_size < 4_000_000


def test_bad_checkpoints_are_named(tmp_path):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="cannot be read"):
        load_checkpoint(bad)
    with pytest.raises(FileNotFoundError):
        load_checkpoint(tmp_path / "missing.pt")
    other = tmp_path / "other.pt"
    torch.save({"net": {}, "config": {}, "obs_version": "planes_v9", "action_layout_version": 0}, other)
    with pytest.raises(ValueError, match="planes_v9"):
        load_checkpoint(other)


def test_behaviour_cloning_smoke(tmp_path):
    from training.bc import BCConfig, train_bc

    cfg = BCConfig(hands=8, batch_hands=8, epochs=1, out=str(tmp_path / "bc.pt"), progress=False)
    path = train_bc(cfg)
    net, ck = load_checkpoint(path)
    assert ck["kind"] == "bc" and ck["decisions"] > 100


def _turn_obs(hand: str, opp_sizes=(16, 16, 16), newest=None, tiles_left=60):
    """A hand-made planes_v0 observation of the observer's turn (a 17-tile hand, no melds)."""
    from envs import tiles as T
    from envs.engine.actions import N_ACTIONS
    from envs.obs import planes_v0 as P

    obs = np.zeros((1, P.N_CHANNELS, 34), np.float32)
    counts = T.parse_hand(hand)
    for i in range(4):
        obs[0, P.CH_HAND + i] = counts >= i + 1
    sc = obs[0, P.CH_SCALARS]
    sc[P.SC_HAND_SIZE] = counts.sum() / 16
    sc[P.SC_HAND_SIZE + 1 : P.SC_HAND_SIZE + 4] = np.array(opp_sizes) / 16
    sc[P.SC_DRAWABLE] = tiles_left / 128
    obs[0, P.CH_PHASE + 0] = 1.0
    for r, tile in (newest or {}).items():  # relative seat -> its newest discard
        k = T.parse_tiles(tile)[0]
        obs[0, P.CH_RECENT + 4 * r, k] = 1.0
        obs[0, P.CH_DISCARD + 4 * r, k] = 1.0
    mask = np.zeros((1, N_ACTIONS), bool)
    mask[0, DISCARD + np.flatnonzero(counts)] = True
    return obs, mask


def test_defensive_breaks_greedys_ties_by_danger():
    from envs import tiles as T
    from envs.obs import planes_v0 as P

    # five sets and two lone honours: dropping E or S leaves the same single wait with 2 unseen, so
    # Greedy takes E (the lower kind); the next seat (4 melds) let S pass, so Defensive drops S
    hand = "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 6s 7s E S"
    obs, mask = _turn_obs(hand, opp_sizes=(4, 16, 16), newest={2: "S"}, tiles_left=20)
    obs[0, P.CH_DISCARD, T.parse_tiles("E")[0]] = 1.0  # one E in the observer's own river
    east, south = (DISCARD + T.parse_tiles(x)[0] for x in ("E", "S"))
    assert GreedyAgent(0).act(obs, mask)[0] == east
    assert DefensiveAgent(0).act(obs, mask)[0] == south
    # early with every opponent concealed, nobody looks ready: Defensive plays exactly like Greedy
    obs, mask = _turn_obs(hand, newest={2: "S"}, tiles_left=90)
    obs[0, P.CH_DISCARD, T.parse_tiles("E")[0]] = 1.0
    assert DefensiveAgent(0).act(obs, mask)[0] == GreedyAgent(0).act(obs, mask)[0] == east


def test_defensive_folds_when_pushing_costs_more():
    from envs import tiles as T

    # two sets short: Greedy drops the lone 8p (many unseen neighbours, so many waits on it); three
    # seats with four melds each late in the wall look ready, and all of them let E pass: Defensive
    # breaks its E pair rather than risk 8p (its own win chance is tiny either way)
    hand = "1m 1m 1m 9m 9m 9m 1p 1p 1p E E S S W W 5s 8p"
    obs, mask = _turn_obs(hand, opp_sizes=(4, 4, 4), newest={3: "E"}, tiles_left=6)
    east, eight_p = (DISCARD + T.parse_tiles(x)[0] for x in ("E", "8p"))
    assert GreedyAgent(0).act(obs, mask)[0] == eight_p
    assert DefensiveAgent(0).act(obs, mask)[0] == east
    # the same hand early, against concealed opponents: no reason to fold
    obs, mask = _turn_obs(hand, newest={3: "E"}, tiles_left=90)
    assert DefensiveAgent(0).act(obs, mask)[0] == GreedyAgent(0).act(obs, mask)[0] == eight_p


def test_defensive_rejects_unknown_thresholds():
    with pytest.raises(ValueError, match="unknown defence threshold"):
        DefensiveAgent(0, threat_melds=3)
    with pytest.raises(ValueError, match="risk"):
        DefensiveAgent(0, risk=0)
