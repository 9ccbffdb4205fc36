"""tw16_v0 (PettingZoo AEC): conformance, illegal actions, rewards to every seat, rendering."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from envs import tw16_v0
from envs.obs import planes_v0 as pv

OPTION_SETS = [
    {},
    {"multi_win": True},
    {"profile": "strict16"},
    {"flowers": False},
    {"episode": "game", "max_steps": 400},
]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_api_and_seed(opts):
    api_test(tw16_v0.env(**opts), num_cycles=300)
    seed_test(lambda: tw16_v0.env(**opts), num_cycles=200)


def efficient(obs, mask):
    """Win when possible, else discard for the lowest shanten (derived planes), else pass/random."""
    if mask[73]:
        return 73
    legal = np.flatnonzero(mask[:34])
    if legal.size:
        return int(legal[np.argmin(obs[pv.CH_DISCARD_SHANTEN, legal])])
    return 74 if mask[74] else int(np.flatnonzero(mask)[0])


def play(env, seed, rng, smart=False):
    """One episode (random legal or ``efficient`` play); returns {agent: rewards seen through last()}."""
    env.reset(seed=seed)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, r, term, trunc, _ = env.last()
        total[agent] += r
        if term or trunc:
            env.step(None)
            continue
        if smart:
            env.step(efficient(obs["observation"], obs["action_mask"]))
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def test_rewards_reach_every_seat_and_sum_to_zero():
    env = tw16_v0.env(derived=True)
    rng = np.random.default_rng(0)
    nonzero = 0
    for seed in range(20):
        total = play(env, seed, rng, smart=True)
        raw = env.unwrapped
        chips = raw.engine.scores[0] / raw.rules.stakes.per_tai
        assert np.allclose([total[a] for a in raw.possible_agents], chips)
        assert abs(sum(total.values())) < 1e-4
        nonzero += sum(v != 0 for v in total.values()) >= 2  # the winner and a payer who did not act
    assert nonzero > 0  # hands were won, and every seat, acting or not, was paid


def test_game_episode_is_cumulative_and_reward_scales():
    rng = np.random.default_rng(1)
    env = tw16_v0.env(episode="game", derived=True)
    total = play(env, 3, rng, smart=True)  # random play rarely wins, and only wins move the deal
    raw = env.unwrapped
    assert raw.engine.s.g[0, 19] >= 4  # G_HANDS: several hands were played
    assert np.allclose([total[a] for a in raw.possible_agents], raw.engine.scores[0] / 10)
    for reward, f in (("chips", lambda t: t * 10), ("normalized", lambda t: t / 32)):
        e = tw16_v0.env(reward=reward)
        got = play(e, 5, np.random.default_rng(2))
        ref = play(tw16_v0.env(), 5, np.random.default_rng(2))
        assert np.allclose([got[a] for a in got], [f(ref[a]) for a in ref])
    wl = play(tw16_v0.env(reward="win_loss"), 5, np.random.default_rng(2))
    assert set(wl.values()) <= {-1.0, 0.0, 1.0}


def test_illegal_actions():
    raw = tw16_v0.raw_env()
    raw.reset(seed=0)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(tw16_v0.IllegalActionError, match="legal"):
        raw.step(bad)
    env = tw16_v0.env(illegal_reward=-5)
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(bad)
    assert all(env.terminations.values()) and env.rewards[offender] == -5
    # the built-in handling matches PettingZoo's standard wrappers around raw_env, step by step
    from pettingzoo.utils import wrappers

    ref = wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(wrappers.TerminateIllegalWrapper(tw16_v0.raw_env(), illegal_reward=-5))
    )
    ref.reset(seed=0)
    ref.step(bad)
    while True:
        assert env.agent_selection == ref.agent_selection and env.agents == ref.agents
        if not env.agents:
            break
        assert env.last()[1:4] == ref.last()[1:4] and env.rewards == ref.rewards
        env.step(None)
        ref.step(None)
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="action space"):  # as AssertOutOfBoundsWrapper
        env.step(76)


def test_observation_and_mask_views():
    env = tw16_v0.env(render_mode="ansi", derived=True)
    env.reset(seed=4)
    me = env.agent_selection
    for a in env.possible_agents:
        o = env.observe(a)
        assert o["observation"].shape == (pv.N_CHANNELS_DERIVED, 34) and o["observation"].dtype == np.float32
        assert o["action_mask"].dtype == np.int8
        assert o["action_mask"].any() == (a == me)
    text = env.render()
    assert "wall" in text and "p0" in text
    assert "parallel" not in dir(tw16_v0) or not hasattr(tw16_v0, "parallel_env")
