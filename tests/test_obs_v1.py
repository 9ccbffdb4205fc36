"""planes_v1 and tw16_v1: the v0 part is planes_v0 bit for bit, the hongkong decisions have their phase
planes and the 拉 ledger is seen (scripted scenarios), recorded digests of the new channels, the
AEC env (PettingZoo api_test / seed_test, redeals), the -v1 Gymnasium ids and the arena's redeals.

``TW16_RECORD=1 pytest -s tests/test_obs_v1.py`` prints the digests for RECORDED (tests/recorded.py)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from envs import _core, tw16_v0, tw16_v1
from envs.engine import state as st
from envs.engine.actions import WIN
from envs.engine.api import Engine
from envs.engine.rng import mix64
from envs.engine.scripted import play, scripted_engine, scripted_wall
from envs.gym_env import SelfPlayVecEnv, SingleAgentVecEnv
from envs.obs import planes_v0 as pv
from envs.obs import planes_v1 as p1
from envs.rules import Rules

sys.path.insert(0, str(Path(__file__).parent))
from recorded import Digests  # noqa: E402

HK = str(Path(__file__).parent / "data" / "profiles" / "hk_engine.toml")
JUNK = "159m 159p 159s ESWNCFP"  # never chi, pon or win
T16 = "234m 678m 234p 678p 234s 6s"  # waits on 6s only
E, S, W, N = 0, 1, 2, 3
FLAGS = (0, pv.F_DERIVED, pv.F_REVEAL_ANKONG, pv.F_DERIVED | pv.F_REVEAL_ANKONG)
CONFIGS = {
    "standard": lambda: Rules(),
    "hongkong_la": lambda: Rules.make(profile="hongkong", episode="game", la_cut_policy="ask", flower_win="offer"),
}
DIGESTS = Digests()
RECORDED = DIGESTS.recorded  # filled at the end of the file


def encode(eng, seats, flags=0):
    enc = p1.PlanesV1(derived=bool(flags & pv.F_DERIVED), reveal_ankong=bool(flags & pv.F_REVEAL_ANKONG))
    return enc.encode(eng, seats=seats)


def extra(eng, seat, x):
    """Channel P + x of seat's planes_v1 (batch-1 engine)."""
    return encode(eng, seat)[0, pv.N_CHANNELS + x]


# -- the encoding -------------------------------------------------------------------------------------
def seeded_play(config, steps=600, B=16, seed=4):
    """Random legal play that mostly takes a legal WIN (so hands are won and 拉 debts open), yielding
    the engine at every other decision."""
    eng = Engine(CONFIGS[config](), batch_size=B, auto_reset=True)
    eng.reset(seed)
    rng = np.random.default_rng(seed)
    for i in range(steps):
        if i % 2 == 0:
            yield eng, rng
        m = eng.legal_action_mask
        a = (rng.random(m.shape) + m).argmax(1)
        eng.step(np.where(m[:, WIN] & (rng.random(B) < 0.9), WIN, a))


@pytest.mark.parametrize("config", list(CONFIGS))
def test_v0_part_is_planes_v0_and_digests_match(config):
    dg = hashlib.sha256()
    la_seen = False
    for eng, rng in seeded_play(config):
        seats = rng.integers(-1, 4, eng.batch_size)
        extras = []
        for flags in FLAGS:
            v1 = encode(eng, seats, flags)
            v0 = pv.PlanesV0(derived=bool(flags & 1), reveal_ankong=bool(flags & 2)).encode(eng, seats=seats)
            assert v1.shape[1] == p1.n_channels(bool(flags & 1)) == v0.shape[1] + p1.N_V1_EXTRA
            assert (v1[:, : v0.shape[1]].view(np.uint32) == v0.view(np.uint32)).all()
            assert (np.abs(v1) <= pv.SCORE_CLIP).all()
            extras.append(np.ascontiguousarray(v1[:, v0.shape[1] :]))
        assert all((x == extras[0]).all() for x in extras)  # the flags change only the planes_v0 part
        dg.update(extras[0].tobytes())
        la_seen |= bool(extras[0][:, p1.X_LA_COUNT].any())
    assert la_seen == (config == "hongkong_la")  # the ledger shows where there is one
    DIGESTS.check(f"{config} extra", dg.hexdigest()[:20])


def test_channel_names_and_table():
    for derived in (False, True):
        assert len(p1.channel_names(derived)) == p1.n_channels(derived)
        assert p1.PlanesV1(derived=derived).channel_names()[: pv.n_channels(derived)] == pv.channel_names(derived)
    assert len(p1.offer_names()) == p1.OF_PASSED + 4  # the table: tests/test_doc_tables.py
    assert p1.n_channels() == 85 and p1.n_channels(True) == 92


# -- the hongkong questions (scripted walls, the scenarios of tests/test_hk_engine.py) ---------------------
def hk(hands, draws="", tail="", walls=None, **opts):
    return scripted_engine(hands, draws, tail, walls, HK, dice_payments=False, **opts)


@pytest.mark.parametrize("answer", ["win", "pass"])
def test_flower_offer_has_its_phase_plane_and_payer(answer):
    # E is dealt seven flowers while S holds the eighth: 七搶一 is offered to E, paid by S
    eng = hk(
        ["f1 f2 f3 f4 f5 f6 f8 234m 678m 234p", "159m 159p 159s ESWNCF f7", JUNK, JUNK],
        draws="C 2m 3m F",
        tail="2s 3s 4s 6s 7s 8s 9s 3m",
        flowers=True,
    )
    assert eng.phase[0] == st.PH_FLOWER and eng.current_player[0] == E
    planes = encode(eng, E)[0]
    of = planes[pv.N_CHANNELS + p1.X_OFFER]
    assert (planes[pv.N_CHANNELS + p1.X_PHASE_FLOWER] == 1).all()
    assert not planes[pv.N_CHANNELS + p1.X_PHASE_LA_CUT].any() and not planes[pv.CH_PHASE : pv.CH_PHASE + 4].any()
    assert np.flatnonzero(of).tolist() == [p1.OF_PAYER + 1, p1.OF_OFFERED + 0]  # S is E's next seat
    assert np.flatnonzero(extra(eng, S, p1.X_OFFER)).tolist() == [p1.OF_PAYER + 0, p1.OF_OFFERED + 3]
    v0 = pv.PlanesV0().encode(eng, seats=E)[0]
    assert not v0[pv.CH_PHASE : pv.CH_PHASE + 4].any()  # what v0 showed: no phase at all
    play(eng, "E: " + answer)
    if answer == "pass":
        assert eng.phase[0] == st.PH_TURN
        assert not extra(eng, E, p1.X_PHASE_FLOWER).any()
        assert np.flatnonzero(extra(eng, E, p1.X_OFFER)).tolist() == [p1.OF_PASSED + 0]
        assert np.flatnonzero(extra(eng, W, p1.X_OFFER)).tolist() == [p1.OF_PASSED + 2]


def three_hands_to_s():
    """S wins on E's discard, then (dealing) two heavenly wins: E's debt to S reaches k = 3."""
    h1 = scripted_wall([JUNK, T16, JUNK, JUNK], draws="6s", flowers=False)
    h23 = scripted_wall([JUNK, T16, JUNK, JUNK], draws="6s", dealer=S, flowers=False)
    return np.stack([h1, h23, h23])


def test_la_cut_question_shows_the_debt_from_both_sides():
    eng = hk(None, walls=three_hands_to_s(), episode="game", la_cut_policy="ask")
    play(eng, "E: discard 6s", "S: win")
    scale = eng.rules.stakes.per_tai * 64
    R1 = float(eng.la_debt[0, E, S])
    assert extra(eng, E, p1.X_LA_DEBT)[4 * 0 + 1] == np.float32(R1 / scale)  # own debt to the next seat
    assert extra(eng, S, p1.X_LA_DEBT)[4 * 3 + 0] == np.float32(R1 / scale)  # the previous seat owes me
    assert extra(eng, E, p1.X_LA_COUNT)[1] == np.float32(1 / p1.LA_COUNT_SCALE)
    play(eng, "S: win", "S: win")
    assert eng.phase[0] == st.PH_LA_CUT and eng.current_player[0] == E
    planes = encode(eng, E)[0]
    R = float(eng.la_debt[0, E, S])
    assert (planes[pv.N_CHANNELS + p1.X_PHASE_LA_CUT] == 1).all() and not planes[
        pv.N_CHANNELS + p1.X_PHASE_FLOWER
    ].any()
    assert np.flatnonzero(planes[pv.N_CHANNELS + p1.X_LA_ASK]).tolist() == [1]
    assert planes[pv.N_CHANNELS + p1.X_LA_DEBT, 1] == np.float32(min(R / scale, pv.SCORE_CLIP))
    assert planes[pv.N_CHANNELS + p1.X_LA_COUNT, 1] == np.float32(3 / p1.LA_COUNT_SCALE)
    assert np.flatnonzero(extra(eng, S, p1.X_LA_ASK)).tolist() == [4 * 3 + 0]  # public: S sees the question
    assert planes[pv.N_CHANNELS + p1.X_LA_DEBT, 4 * 2 + 1] > 0  # W's debt to S (S's self-draws) shows too
    play(eng, "E: win")  # cut: E's debt is paid and closed (W's and N's to S stay)
    assert eng.phase[0] != st.PH_LA_CUT
    assert not extra(eng, E, p1.X_PHASE_LA_CUT).any() and not extra(eng, E, p1.X_LA_ASK).any()
    assert extra(eng, E, p1.X_LA_DEBT)[1] == extra(eng, E, p1.X_LA_COUNT)[1] == 0
    assert extra(eng, E, p1.X_LA_COUNT)[4 * 2 + 1] == np.float32(eng.la_count[0, W, S] / p1.LA_COUNT_SCALE)


def test_bad_input_raises():
    eng = Engine(Rules.make(profile="hongkong"), batch_size=2)
    eng.reset(1)
    s = eng.s
    out = np.zeros((2, p1.n_channels(), 34), np.float32)
    rows, seats = np.arange(2, dtype=np.int64), np.zeros(2, np.int64)

    def call(la=s.la, la_k=s.la_k, rows=rows, seats=seats, out=out, flags=0):
        _core.planes_v1_encode(
            out, rows, seats, s.hands, s.melds, s.river, s.g, s.p, s.scores, la, la_k, eng.native, flags
        )

    call()
    with pytest.raises(TypeError, match="la: expected dtype float64"):
        call(la=s.la.astype(np.float32))
    with pytest.raises(ValueError, match="la_k"):
        call(la_k=s.la_k[:1])
    with pytest.raises(ValueError, match="rows: game 2"):
        call(rows=np.array([0, 2], np.int64))
    with pytest.raises(ValueError, match="seats: seat 4"):
        call(seats=np.array([0, 4], np.int64))
    with pytest.raises(ValueError, match="out"):
        call(flags=pv.F_DERIVED)


# -- tw16_v1 ------------------------------------------------------------------------------------------------
OPTION_SETS = [
    {},
    {"profile": "hongkong", "flower_win": "offer", "la_cut_policy": "ask", "episode": "game", "max_steps": 400},
    {"flowers": False, "derived": True},
]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_api_and_seed(opts):
    api_test(tw16_v1.env(**opts), num_cycles=300)
    seed_test(lambda: tw16_v1.env(**opts), num_cycles=200)


def test_env_observes_planes_v1():
    env = tw16_v1.env(profile="hongkong", derived=True)
    env.reset(seed=3)
    raw = env.unwrapped
    assert raw.metadata["name"] == "tw16_v1" and raw.channel_names == p1.channel_names(True)
    for _ in range(30):
        agent = env.agent_selection
        obs = env.observe(agent)["observation"]
        assert obs.shape == (p1.n_channels(True), 34)
        assert (obs == p1.PlanesV1(derived=True).encode(raw.engine, seats=raw.agent_name_mapping[agent])[0]).all()
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))


# env seed 29094: the first hand ends in the deal (a flower win under flower_win "auto")
FLOWER_DEAL_SEED = 29094


@pytest.mark.parametrize("episode", ["hand", "game"])
def test_a_hand_ended_in_the_deal_is_dealt_again(episode):
    eng = Engine(Rules.make(episode=episode), 1)
    eng.reset(np.array([mix64(FLOWER_DEAL_SEED)], np.uint64))
    assert eng.s.g[0, st.G_HANDS] == 1  # the precondition: decided in the deal
    v1 = tw16_v1.env(episode=episode)
    v1.reset(seed=FLOWER_DEAL_SEED)
    raw = v1.unwrapped
    assert v1.infos["player_0"]["redealt"] == 1 and raw.engine.s.g[0, st.G_HANDS] == 0
    assert not raw.engine.scores[0].any() and not raw.engine.s.terminated[0]
    v0 = tw16_v0.env(episode=episode)
    v0.reset(seed=FLOWER_DEAL_SEED)  # v0 unchanged: a game episode keeps the hand, unrewarded
    assert v0.unwrapped.redealt == (episode == "hand") and "redealt" not in v0.infos["player_0"]
    assert v0.unwrapped.engine.scores[0].any() == (episode == "game")


# -- gymnasium ids and the vector envs ----------------------------------------------------------------------
def test_gym_ids_and_encoding_option():
    e1 = gymnasium.make("tw16/SingleAgent-v1", profile="hongkong")
    obs, _ = e1.reset(seed=0)
    assert obs["observation"].shape == (p1.n_channels(), 34) == e1.observation_space["observation"].shape
    e0 = gymnasium.make("tw16/SingleAgent-v0")
    assert e0.reset(seed=0)[0]["observation"].shape == (pv.N_CHANNELS, 34) and e0.spec.kwargs == {}
    v = gymnasium.make_vec("tw16/SingleAgent-v1", num_envs=3, vectorization_mode="vector_entry_point", derived=True)
    obs, _ = v.reset(seed=0)
    assert obs["observation"].shape == (3, p1.n_channels(True), 34)
    for _ in range(40):
        obs, *_ = v.step(obs["action_mask"].argmax(1))
    core = v.unwrapped.core if hasattr(v.unwrapped, "core") else v.core
    ref = p1.PlanesV1(derived=True).encode(core.d.engine, seats=core.learner)
    assert (obs["observation"] == ref).all()
    sp = SelfPlayVecEnv(num_envs=2, encoding="planes_v1")
    assert sp.reset(seed=1)[0]["observation"].shape == (2, p1.n_channels(), 34)
    with pytest.raises(ValueError, match="encoding must be one of"):
        SingleAgentVecEnv(num_envs=1, encoding="planes_v2")


# -- the arena ------------------------------------------------------------------------------------------------
def test_arena_deals_again_a_wall_ended_in_the_deal_and_counts_it_once():
    from agents import make_agent
    from agents.evaluation.arena import play_walls

    wall = 37262  # a standard wall seed whose hand ends in the deal
    eng = Engine(Rules(), 1)
    eng.reset(np.array([wall], np.uint64))
    assert eng.terminated[0]
    agents = [make_agent("random", seed=i) for i in range(4)]
    rules = Rules().replace(episode="hand")
    got = play_walls(agents, np.array([wall, 5], np.uint64), rules, 0)
    ref = play_walls(agents, np.array([mix64(wall ^ 0x5EED), 5], np.uint64), rules, 0)
    assert got["redealt_walls"] == 1 and ref["redealt_walls"] == 0
    assert (got["per_game"] == ref["per_game"]).all() and got["stats"]["hands"].tolist() == [8] * 4


def test_zz_recorded_digests(capsys):
    DIGESTS.print_for_recording(capsys)


RECORDED.update(
    {  # planes_v1's extra channels along seeded_play, recorded when planes_v1 was introduced
        "hongkong_la extra": "ed4012ac0edf367ed3cc",
        "standard extra": "b445bdff88b990658953",
    }
)
