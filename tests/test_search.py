"""Search at decision time (issue 20): Engine.clone / set_game (envs._core.copy_game),
Engine.resample_hidden (envs._core.resample_hidden, native/src/resample.cpp) and the search agent
(agents/search.py, envs._core.search_batch).

- Every resampled state is one the engine could be in: the invariant checker passes (four of each
  kind, the flowers, the wall pointers, the hand sizes), the seat's observation (planes_v0 with the
  derived planes) is byte-identical, its hand, the melds, the river, the flowers and each opponent's
  concealed count stay; play goes on from it without an invariant error. Over thousands of mid-game
  states of random play on five rule sets (standard, no flowers, strict16 with declared ready,
  hongkong with asked cuts and offered flower wins, the extras pack), plus scripted states in the
  rarer phases (a robbed kong, 天聽, an offered flower win).
- Uniform: on a built late-game state with six unseen tiles (a hidden flower among them), a
  chi-square test of 20,000 draws against the enumerated consistent deals.
- A copy continues exactly as the original (every array of the state, auto-reset redeals included).
- The search agent with n = 1, or with a z no candidate can reach, is Greedy; it is deterministic
  given its seed, independent of threads.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from search_cases import pon_endgame

from envs import _core
from envs._core import _testing
from envs.engine import state as st
from envs.engine.api import Engine
from envs.engine.scripted import legal_names, play, scripted_engine
from envs.obs.planes_v0 import PlanesV0
from envs.rules import Rules

ENC = PlanesV0(derived=True)
CONFIGS = [
    ("standard", {}),
    ("standard", {"flowers": False, "dead_wall": 0}),
    ("strict16", {"declare_ready": True}),
    ("hongkong", {"episode": "game", "la_cut_policy": "ask", "flower_win": "offer", "dead_wall": 40}),
    ("standard", {"extras": True}),
]
JUNK = "159m 159p 159s ESWNCFP"
T16 = "234m 678m 234p 678p 234s 6s"
R16 = "234m 678m 234p 678p 45s 99s"


def obs_of(eng, seat):
    return ENC.encode(eng, seats=np.full(eng.batch_size, seat)).tobytes()


def random_steps(eng, rng, n, game=None):
    """n steps of uniformly random legal play (all games, or one game of a batch-1 engine)."""
    for _ in range(n):
        if eng.terminated.all():
            return
        m = eng.legal_action_mask
        eng.step(np.array([rng.choice(np.flatnonzero(r)) for r in m]))


def live_decisions(eng, rng, rounds, steps):
    """(round, game) for every live game of ``eng`` after each of ``rounds`` bursts of ``steps``
    random steps."""
    for rnd in range(rounds):
        random_steps(eng, rng, steps)
        for b in range(eng.batch_size):
            if not eng.terminated[b]:
                yield rnd, b


def check_resampled(before, after, seat):
    """What the seat sees did not change, and the state is legal."""
    s0, s1 = before.s, after.s
    assert _testing.check_game(s1, 0, after.native) == 0
    assert obs_of(before, seat) == obs_of(after, seat)
    np.testing.assert_array_equal(s0.mask, s1.mask)
    np.testing.assert_array_equal(s0.hands[0, seat], s1.hands[0, seat])
    np.testing.assert_array_equal(s0.hands[0].sum(axis=1), s1.hands[0].sum(axis=1))
    for f in ("melds", "river", "scores", "la", "la_k"):
        np.testing.assert_array_equal(getattr(s0, f), getattr(s1, f), err_msg=f)
    keep = [i for i in range(st.NP) if i not in (st.P_CLAIM, st.P_ANSWER)]
    np.testing.assert_array_equal(s0.p[0][:, keep], s1.p[0][:, keep])
    g_keep = [i for i in range(st.NG) if i not in (st.G_SCRIPT_USED, st.G_LAST_DRAWN)]
    np.testing.assert_array_equal(s0.g[0, g_keep], s1.g[0, g_keep])
    np.testing.assert_array_equal(s0.p[0, seat], s1.p[0, seat])


# -- resampled states are legal ----------------------------------------------------------------------
@pytest.mark.parametrize("profile,options", CONFIGS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CONFIGS)])
def test_resampled_mid_game_states_are_legal(profile, options):
    rules = Rules.make(profile, **options)
    eng = Engine(rules, 32, auto_reset=True)
    eng.reset(11)
    rng = np.random.default_rng(11)
    n = changed = 0
    for rnd, b in live_decisions(eng, rng, 40, 7):
        seat = int(eng.current_player[b])
        before = eng.clone(b)
        after = eng.clone(b)
        after.resample_hidden(0, seat, 1000 * rnd + b)
        check_resampled(before, after, seat)
        changed += not np.array_equal(before.s.hands, after.s.hands)
        n += 1
        if b % 8 == 0:  # play on to the end of the hand (and beyond) with the checker on
            for _ in range(60):
                if after.terminated[0]:
                    break
                random_steps(after, rng, 1)
                assert _testing.check_game(after.s, 0, after.native) == 0
    assert n >= 1000 and changed > 0.9 * n, (n, changed)


def _continue_checked(eng, rng, steps=200):
    for _ in range(steps):
        if eng.terminated[0]:
            return
        random_steps(eng, rng, 1)
        assert _testing.check_game(eng.s, 0, eng.native) == 0


def test_resample_while_a_kong_is_robbed():
    eng = scripted_engine([JUNK, R16, "33s 159m 159p ESWNCFP 1s", JUNK], draws="3s C F P 3s")
    play(eng, "E: discard 3s", "S: pass", "W: pon", "W: discard 1s", "N: discard C", "E: discard F", "S: discard P")
    play(eng, "W: kong 3s")
    assert int(eng.phase[0]) == st.PH_ROB and legal_names(eng) == ["win", "pass"]
    for seed in range(50):
        c = eng.clone(0)
        c.resample_hidden(0, 1, seed)
        check_resampled(eng, c, 1)
        assert c.hands[0, 2, 18 + 2] >= 1  # the konger keeps the 3s it adds
        _continue_checked(c, np.random.default_rng(seed))


def test_resample_at_a_heavenly_ready_question_and_a_flower_offer():
    eng = scripted_engine([JUNK, T16, JUNK, JUNK], draws="C 2m", profile="strict16")
    assert int(eng.phase[0]) == st.PH_READY0 and int(eng.current_player[0]) == 1
    seven = "f1 f2 f3 f4 f5 f6 f8 234m 678m 234p"
    hk = scripted_engine(
        [seven, "159m 159p 159s ESWNCF f7", JUNK, JUNK],
        draws="C 2m 3m F",
        tail="2s 3s 4s 6s 7s 8s 9s 3m",
        profile="hongkong",
        flowers=True,
        flower_win="offer",
        dice_payments=False,
    )
    assert int(hk.phase[0]) == st.PH_FLOWER and int(hk.current_player[0]) == 0
    for e in (eng, hk):
        seat = int(e.current_player[0])
        for seed in range(50):
            c = e.clone(0)
            c.resample_hidden(0, seat, seed)
            check_resampled(e, c, seat)
            _continue_checked(c, np.random.default_rng(seed))


def test_resample_is_deterministic_and_reseeds_the_game():
    eng = Engine(Rules.make("hongkong", episode="game"), 1)
    eng.reset(4)
    random_steps(eng, np.random.default_rng(4), 30)
    seat = int(eng.current_player[0])
    a, b, c = eng.clone(0), eng.clone(0), eng.clone(0)
    a.resample_hidden(0, seat, 7)
    b.resample_hidden(0, seat, 7)
    c.resample_hidden(0, seat, 8)
    for x, y in zip(a.s, b.s):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a.s.wall, c.s.wall) and a.s.rng[0] != c.s.rng[0] != eng.s.rng[0]


# -- uniform over the consistent deals -------------------------------------------------------------
HEAD = 60
OPP_KINDS = (30, 31, 32)  # one concealed tile each: E S W N = 0 1 2 3, seat E to discard
WALL_KINDS = (33, 33)  # with the hidden flower f8 between head and tail


def small_case() -> Engine:
    """A late-game state built by hand: each opponent has five pons and one concealed tile, the live
    wall holds three tiles (two 33 and the flower f8), E (17 tiles, no meld) is to discard."""
    own = [15] * 3 + [16] * 3 + [17] * 3 + [18] * 3 + [19] * 3 + [20] * 2
    return pon_endgame(OPP_KINDS, own, [4 * 33, 4 * 33 + 1], HEAD)


def outcome(eng):
    opp = tuple(int(np.flatnonzero(eng.hands[0, o])[0]) for o in (1, 2, 3))
    wall = tuple(int(t) // 4 if t < 136 else 34 for t in eng.s.wall[0, HEAD : HEAD + 3])
    return opp + wall


def consistent_deals() -> Counter:
    """Each labelled arrangement of the unseen tiles (the flower only in the wall), by outcome."""
    tiles = OPP_KINDS + WALL_KINDS
    out = Counter()
    for perm in itertools.permutations(range(len(tiles))):
        kinds = [tiles[i] for i in perm]
        for fpos in range(3):
            wall = kinds[3:]
            out[tuple(kinds[:3]) + tuple(wall[:fpos] + [34] + wall[fpos:])] += 1
    return out


def chi2_quantile(df: int, z: float) -> float:
    """Wilson-Hilferty: the chi-square quantile whose normal score is z."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_resample_is_uniform_over_the_consistent_deals():
    ref = small_case()
    eng = ref.clone(0)
    deals = consistent_deals()
    total = sum(deals.values())
    n = 20000
    seen = Counter()
    for i in range(n):
        eng.set_game(0, ref, 0)
        eng.resample_hidden(0, 0, i)
        assert _testing.check_game(eng.s, 0, eng.native) == 0
        seen[outcome(eng)] += 1
    assert set(seen) <= set(deals), set(seen) - set(deals)  # never a flower in a hand, never a lost tile
    stat = sum((seen[k] - n * c / total) ** 2 / (n * c / total) for k, c in deals.items())
    df = len(deals) - 1
    assert stat < chi2_quantile(df, 3.09), (stat, df)  # p > 0.001
    assert stat > chi2_quantile(df, -3.09), (stat, df)  # (too good a fit would mean a fixed pattern)


# -- copies ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("profile,options", CONFIGS[2:4], ids=["strict16", "hongkong-game"])
def test_a_copy_continues_as_the_original(profile, options):
    eng = Engine(Rules.make(profile, **options), 8, auto_reset=True)
    eng.reset(21)
    rng = np.random.default_rng(21)
    random_steps(eng, rng, 40)
    b = 5
    copy = eng.clone(b, 2)
    other = Engine(eng.rules, 3, auto_reset=True)
    other.reset(99)
    other.set_game(1, eng, b)
    for _ in range(400):
        m = eng.legal_action_mask
        acts = np.array([rng.choice(np.flatnonzero(r)) for r in m])
        r0, t0 = (x.copy() for x in eng.step(acts))
        r1, t1 = copy.step(np.repeat(acts[b], 2))
        acts3 = np.array([np.flatnonzero(r)[0] for r in other.legal_action_mask])
        acts3[1] = acts[b]
        other.step(acts3)
        for name, x, y, z in zip(st.State._fields, eng.s, copy.s, other.s):
            np.testing.assert_array_equal(x[b], y[0], err_msg=name)
            np.testing.assert_array_equal(x[b], y[1], err_msg=name)
            np.testing.assert_array_equal(x[b], z[1], err_msg=name)
        np.testing.assert_array_equal(r0[b], r1[0])
        assert t0[b] == t1[0]


# -- bad input -------------------------------------------------------------------------------------
def test_bad_arguments_are_refused():
    eng = Engine(Rules(), 2)
    eng.reset(3)
    seat = int(eng.current_player[0])
    with pytest.raises(ValueError, match="b = 2"):
        eng.resample_hidden(2, seat, 0)
    with pytest.raises(ValueError, match="seat = 4"):
        eng.resample_hidden(0, 4, 0)
    with pytest.raises(ValueError, match="not the seat to decide"):
        eng.resample_hidden(0, (seat + 1) % 4, 0)
    with pytest.raises(ValueError, match="seed"):
        eng.resample_hidden(0, seat, -1)
    with pytest.raises(TypeError):
        eng.resample_hidden(0, 1.5, 0)
    with pytest.raises(ValueError, match="n must be"):
        eng.clone(0, 0)
    with pytest.raises(ValueError, match="other rules"):
        Engine(Rules.make("hongkong"), 1).set_game(0, eng, 0)
    with pytest.raises(TypeError):
        eng.set_game(0, "engine", 0)
    bad = eng.clone(0)
    bad.s.hands[0, (seat + 1) % 4, 0] += 1  # a fifth tile somewhere
    with pytest.raises(ValueError, match="invariant checker"):
        bad.resample_hidden(0, seat, 0)
    done = eng.clone(0)
    done.s.terminated[0] = True
    with pytest.raises(ValueError, match="over"):
        done.resample_hidden(0, seat, 0)
    S = eng.s
    with pytest.raises(ValueError):
        _core.resample_hidden(S._replace(hands=S.hands[:, :3]), 0, seat, 0, eng.native)
    with pytest.raises(ValueError, match="scripted walls"):
        _core.copy_game(S, 0, st.alloc(1, 2), 0)
    with pytest.raises(ValueError, match="c = 1"):
        _core.copy_game(S, 0, st.alloc(1), 1)
    out, vals = np.zeros(2, np.int64), np.zeros((2, 3))
    games, seeds = np.array([0, 1]), np.zeros(2, np.uint64)
    for kw, msg in (({"k": 0}, "k = 0"), ({"n": 77}, "n = 77"), ({"policy": 5}, "policy")):
        args = {"k": 2, "n": 3, "policy": 1, **kw}
        with pytest.raises(ValueError, match=msg):
            _core.search_batch(S, games, seeds, args["k"], args["n"], args["policy"], 0.0, eng.native, out, vals)
    with pytest.raises(ValueError, match="twice"):
        _core.search_batch(S, np.array([1, 1]), seeds, 2, 3, 1, 0.0, eng.native, out, vals)


# -- the search agent ------------------------------------------------------------------------------
def test_search_with_one_candidate_is_greedy():
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate

    greedy = play_duplicate([make_agent("greedy")] * 4, 4, seed=3)
    s1 = make_agent("search:n=1")
    mixed = play_duplicate([s1, make_agent("greedy"), s1, make_agent("greedy")], 4, seed=3)
    np.testing.assert_array_equal(greedy["per_wall"], mixed["per_wall"])
    assert s1.decisions > 0 and s1.searched == 0


def test_search_that_never_deviates_is_greedy():
    """Rollouts run (and read the engine) but z is too high to leave Greedy's choice: Greedy's play."""
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate

    greedy = play_duplicate([make_agent("greedy")] * 4, 4, seed=3)
    for rollout in ("base", "efficient"):
        s = make_agent(f"search:z=1000000,k=2,rollout={rollout}")
        mixed = play_duplicate([s, make_agent("greedy"), make_agent("greedy"), make_agent("greedy")], 4, seed=3)
        np.testing.assert_array_equal(greedy["per_wall"], mixed["per_wall"])
        assert s.searched > 100


def test_search_agent_is_deterministic_and_thread_independent():
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate

    runs = [
        play_duplicate([make_agent("search:k=2,n=2", seed=1), make_agent("greedy")] * 2, 2, seed=8) for _ in range(2)
    ]
    np.testing.assert_array_equal(runs[0]["per_wall"], runs[1]["per_wall"])
    eng = Engine(Rules.make("hongkong"), 64)
    eng.reset(2)
    random_steps(eng, np.random.default_rng(2), 25)
    games = np.flatnonzero(~eng.terminated)
    seeds = np.arange(games.size, dtype=np.uint64)
    res = []
    for threads in (1, 2):
        _core.set_num_threads(threads)
        out, vals = np.zeros(games.size, np.int64), np.zeros((games.size, 3))
        _core.search_batch(eng.s, games, seeds, 2, 3, 0, 0.0, eng.native, out, vals)
        res.append((out, vals))
    _core.set_num_threads(0)
    np.testing.assert_array_equal(res[0][0], res[1][0])
    np.testing.assert_array_equal(res[0][1], res[1][1])
    out, vals = res[0]
    assert eng.legal_action_mask[games, out].all()
    searched = ~np.isnan(vals[:, 0])
    assert searched.sum() > games.size // 2
    best = np.nanmax(vals, axis=1)
    assert np.all(np.isnan(vals[searched]) | (vals[searched] <= best[searched, None]))


def test_search_agent_spec_and_protocol():
    from agents import make_agent

    a = make_agent("search:k=3,rollout=random,n=2", seed=4)
    assert (a.k, a.n, a.rollout, a.z) == (3, 2, "random", 3.0) and a.name == "search:k=3,n=2,rollout=random,z=3"
    assert make_agent("search").name == "search"
    for spec in ("search:k=0", "search:j=3", "search:k=x", "search:rollout=best", "search:z=-1"):
        with pytest.raises(ValueError):
            make_agent(spec)
    with pytest.raises(TypeError, match="act_engine"):
        a.act(np.zeros((1, 10, 34), np.float32), np.ones((1, 76), bool))


@pytest.mark.parametrize(
    "base, field_agent, searches, seed, searched",
    [
        ("neural", "greedy", ("search:n=1,base=neural", "search:z=1000000,k=2,base=neural"), 5, 50),
        (
            "defensive",
            "defensive",
            ("search:n=1,base=defensive", "search:z=1000000,k=2,base=defensive,rollout=defensive,w=0.2"),
            7,
            30,
        ),
        # the leaf modes (tests/test_search_leaves.py)
        (
            "neural",
            "defensive",
            ("search:n=1,base=neural,leaf=value", "search:z=1000000,k=2,base=neural,leaf=value"),
            5,
            10,
        ),
        ("defensive", "defensive", ("search:z=1000000,k=2,base=defensive,rollout=defensive,leaf=zero",), 6, 10),
    ],
)
def test_search_with_one_candidate_or_no_reachable_gain_is_its_base(base, field_agent, searches, seed, searched):
    """base=neural / defensive: the base's ranking replaces Greedy's; n = 1 or z = 1e6 plays exactly as
    the base agent (with n > 1 the rollouts still run: ``searched``)."""
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate

    field = [make_agent(field_agent) for _ in range(3)]
    alone = play_duplicate([make_agent(base), *field], 3, seed=seed)
    for spec in searches:
        s = make_agent(spec)
        res = play_duplicate([s, *field], 3, seed=seed)
        np.testing.assert_array_equal(alone["per_wall"], res["per_wall"])
        assert s.decisions > 0 and (s.searched > searched) == (s.n > 1)


def test_search_over_the_network_names_and_refusals():
    from agents import make_agent

    assert make_agent("search:base=neural").name == "search:k=8,n=3,rollout=efficient,z=3,base=neural"
    with pytest.raises(ValueError, match="rollout=base"):
        make_agent("search:base=neural,rollout=base")
    with pytest.raises(ValueError, match="base must be"):
        make_agent("search:base=tree")


def test_search_batch_refuses_bad_candidates():
    eng = Engine(Rules(), 4)
    eng.reset(3)
    games = np.flatnonzero(~eng.terminated)[:2]
    legal = [np.flatnonzero(eng.legal_action_mask[g]) for g in games]
    illegal = int(np.flatnonzero(~eng.legal_action_mask[games[0]])[0])
    out, vals = np.zeros(2, np.int64), np.zeros((2, 2))
    seeds = np.zeros(2, np.uint64)

    def run(c):
        _core.search_batch(eng.s, games, seeds, 2, 2, 2, 0.0, eng.native, out, vals, np.array(c, np.int64))

    a0, a1 = int(legal[0][0]), int(legal[1][0])
    run([[a0, -1], [a1, -1]])
    assert list(out) == [a0, a1]  # one candidate each: played without a search
    for c, msg in (
        ([[illegal, -1], [a1, -1]], "not legal"),
        ([[a0, a0], [a1, -1]], "twice"),
        ([[-1, a0], [a1, -1]], "after a -1"),
        ([[-1, -1], [a1, -1]], "no candidate"),
        ([[a0, -2], [a1, -1]], "or -1"),
        ([[a0, 76], [a1, -1]], "0..75"),
    ):
        with pytest.raises(ValueError, match=msg):
            run(c)
    with pytest.raises(ValueError, match="candidates"):
        run([[a0], [a1]])  # the wrong shape
    with pytest.raises(TypeError, match="candidates: expected a numpy array"):
        _core.search_batch(eng.s, games, seeds, 2, 2, 2, 0.0, eng.native, out, vals, [[a0, -1], [a1, -1]])


# -- the oracle's determinization (search:...,oracle=1; training targets, issue 26) ------------------
@pytest.mark.parametrize("profile,options", CONFIGS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CONFIGS)])
def test_reshuffle_wall_keeps_every_hand_and_permutes_the_undrawn_wall(profile, options):
    """Only the order of wall[head..tail] changes (the same tiles, flowers included), with the game's
    stream; hands, melds, claims and every scalar stay; play goes on legally; deterministic per seed."""
    eng = Engine(Rules.make(profile, **options), 16, auto_reset=True)
    eng.reset(21)
    rng = np.random.default_rng(21)
    n = moved = 0
    for rnd, b in live_decisions(eng, rng, 12, 9):
        before, after, again = eng.clone(b), eng.clone(b), eng.clone(b)
        after.reshuffle_wall(0, 100 * rnd + b)
        again.reshuffle_wall(0, 100 * rnd + b)
        s0, s1 = before.s, after.s
        assert _testing.check_game(s1, 0, after.native) == 0
        for f in ("hands", "melds", "river", "scores", "p", "mask"):
            np.testing.assert_array_equal(getattr(s0, f), getattr(s1, f), err_msg=f)
        g_keep = [i for i in range(st.NG) if i != st.G_SCRIPT_USED]
        np.testing.assert_array_equal(s0.g[0, g_keep], s1.g[0, g_keep])
        head, tail = int(s0.g[0, st.G_HEAD]), int(s0.g[0, st.G_TAIL])
        w0, w1 = s0.wall[0], s1.wall[0]
        np.testing.assert_array_equal(np.sort(w0[head : tail + 1]), np.sort(w1[head : tail + 1]))
        np.testing.assert_array_equal(w0[:head], w1[:head])
        np.testing.assert_array_equal(w0[tail + 1 :], w1[tail + 1 :])
        for x, y in zip(after.s, again.s):
            np.testing.assert_array_equal(x, y)
        moved += not np.array_equal(w0, w1)
        n += 1
        if b % 4 == 0:
            _continue_checked(after, np.random.default_rng(b))
    assert n >= 100 and moved > 0.9 * n, (n, moved)


def test_reshuffle_wall_is_uniform():
    """Over many seeds every undrawn slot holds each of the undrawn tiles about equally often."""
    eng = Engine(Rules(), 1)
    eng.reset(5)
    random_steps(eng, np.random.default_rng(5), 30)
    assert not eng.terminated[0]
    head, tail = int(eng.s.g[0, st.G_HEAD]), int(eng.s.g[0, st.G_TAIL])
    tiles = eng.s.wall[0, head : tail + 1].copy()
    first = Counter()
    for seed in range(3000):
        c = eng.clone(0)
        c.reshuffle_wall(0, seed)
        first[int(c.s.wall[0, head])] += 1
    assert set(first) == set(tiles.tolist())
    expected = 3000 / tiles.size
    chi2 = sum((first[int(t)] - expected) ** 2 / expected for t in tiles)
    assert chi2 < tiles.size + 5 * math.sqrt(2 * tiles.size), (chi2, tiles.size)


def test_reshuffle_wall_refuses_bad_arguments():
    eng = Engine(Rules(), 2)
    eng.reset(3)
    with pytest.raises(ValueError, match="b = 2"):
        eng.reshuffle_wall(2, 0)
    with pytest.raises(ValueError, match="seed"):
        eng.reshuffle_wall(0, -1)
    bad = eng.clone(0)
    bad.s.g[0, st.G_TAIL] = 999  # a wall pointer past the wall
    with pytest.raises(ValueError):
        bad.reshuffle_wall(0, 0)
    done = eng.clone(0)
    done.s.terminated[0] = True
    with pytest.raises(ValueError, match="over"):
        done.reshuffle_wall(0, 0)


def test_oracle_search_names_and_determinism():
    """oracle=1 is named in the agent's name, refused with other values, and deterministic given the
    seed."""
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate

    a = make_agent("search:base=defensive,rollout=efficient,k=2,n=2,z=0,oracle=1")
    assert a.oracle and a.name.endswith(",oracle=1")
    for spec in ("search:oracle=2", "search:oracle=x"):
        with pytest.raises(ValueError):
            make_agent(spec)
    field = [make_agent("greedy") for _ in range(3)]
    runs = [
        play_duplicate([make_agent(f"search:base=defensive,k=2,n=2,z=0,oracle={o}"), *field], 2, seed=9)["per_wall"]
        for o in (1, 1)
    ]
    np.testing.assert_array_equal(runs[0], runs[1])


# -- deals by a hand model (search:...,hm=PATH; resample_hidden's hand_q) ----------------------------
def test_resample_by_a_hand_model_is_legal_and_follows_the_weights():
    """hand_q: the states stay legal and the seat's view unchanged; a kind weighted up for the left
    opponent lands there more often than under the uniform deal; all-equal weights are a valid deal."""
    eng = Engine(Rules(), 1)
    eng.reset(8)
    random_steps(eng, np.random.default_rng(8), 12)
    seat = int(eng.current_player[0])
    left = (seat + 1) % 4
    base = eng.clone(0)
    kinds = np.flatnonzero(base.s.hands[0].sum(0) - base.s.hands[0, seat] > 0)  # kinds some opponent holds
    k = int(kinds[0])
    q = np.ones((1, 3, 34))
    q[0, 0, k] = 50.0
    got = {"uniform": 0, "model": 0}
    for seed in range(300):
        for name, hq in (("uniform", None), ("model", q)):
            c = eng.clone(0)
            _core.resample_hidden(c.s, 0, seat, seed, c.native, hq)
            check_resampled(base, c, seat)
            got[name] += int(c.s.hands[0, left, k])
    assert got["model"] > 1.5 * got["uniform"], got
    c = eng.clone(0)
    _core.resample_hidden(c.s, 0, seat, 3, c.native, np.ones((1, 3, 34)))
    check_resampled(base, c, seat)
    for bad, msg in (
        (np.ones((1, 3, 33)), "hand_q"),
        (-np.ones((1, 3, 34)), "finite weight"),
        (np.full((1, 3, 34), np.nan), "finite weight"),
    ):
        with pytest.raises(ValueError, match=msg):
            _core.resample_hidden(eng.clone(0).s, 0, seat, 1, eng.native, bad)
    out, vals = np.zeros(1, np.int64), np.zeros((1, 2))
    with pytest.raises(ValueError, match="oracle"):
        _core.search_batch(
            eng.s, np.array([0]), np.zeros(1, np.uint64), 2, 2, 1, 0.0, eng.native, out, vals, oracle=True, hand_q=q
        )
    with pytest.raises(ValueError, match="hand_q"):
        _core.search_batch(
            eng.s, np.array([0]), np.zeros(1, np.uint64), 2, 2, 1, 0.0, eng.native, out, vals, hand_q=q[0]
        )
