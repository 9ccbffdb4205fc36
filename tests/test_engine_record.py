"""Finished-hand records (envs.engine.record.HandRecord, Engine.take_hands): what each hand ended with,
kept until read, across the deal that follows in an episode "game" and the deals that end at once.

Seats: E S W N = 0 1 2 3, E deals.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from envs.engine import state as st
from envs.engine.actions import PASS, WIN
from envs.engine.api import Engine
from envs.engine.record import LAST_TILE_FROM, HandRecord
from envs.engine.scripted import last_hand, play, scripted_engine, scripted_wall
from envs.rules import Rules
from envs.tiles import parse_tiles

JUNK = "159m 159p 159s ESWNCFP"  # never chi, pon or win
T16 = "234m 678m 234p 678p 234s 6s"  # waits on 6s only
E, S, W, N = 0, 1, 2, 3
SIX_S = parse_tiles("6s")[0]
# E is dealt all eight flowers: with flower_win "auto" the hand ends in its deal (八仙過海)
EIGHT = scripted_wall(["f1 f2 f3 f4 f5 f6 f7 f8 234m 678m 23p", JUNK, JUNK, JUNK], tail="2s 3s 4s 6s 7s 8s 9s 9p")
HEAVENLY = scripted_wall([T16, JUNK, JUNK, JUNK], draws="6s")  # E wins on its 17th tile
S_ON_E = scripted_wall([JUNK, T16, JUNK, JUNK], draws="6s")  # S wins on E's 6s


def game(*walls, **opts):
    """A batch-1 game episode with flowers, dealt from ``walls`` in turn."""
    return scripted_engine(None, walls=np.stack(walls), episode="game", flowers=True, **opts)


def test_a_win_is_recorded_with_its_tile_source_dealer_and_items():
    eng = scripted_engine([JUNK, T16, JUNK, JUNK], draws="6s")
    play(eng, "E: discard 6s", "S: win")
    (r,) = eng.take_hands()
    assert isinstance(r, HandRecord) and (r.game, r.hand) == (0, 0)
    assert r.winners == (S,) and r.payer == E and r.win_by == "discard" and not r.drawn
    assert r.win_tile == SIX_S and r.last_tile_from == "discard"
    assert (r.dealer, r.streak, r.round_wind, r.at_deal) == (E, 0, 0, False)
    assert r.tai[S] == sum(v for _, v in r.items[S]) and r.tai[E] == r.tai[W] == r.tai[N] == -1
    assert dict(r.items[S])["human_win"] == 8 and r.items[E] == ()
    assert sum(r.deltas) == 0 and r.deltas[S] > 0 and r.deltas == tuple(int(x) for x in eng.scores[0])
    assert (r.wall_head, r.wall_tail) == (65, 135)  # 64 dealt + the dealer's 17th; no replacement drawn
    assert eng.take_hands() == [] and eng.take_hands(0) == []  # taken: forgotten


def test_repr_reads_in_tile_notation():
    eng = scripted_engine([JUNK, T16, JUNK, JUNK], draws="6s")
    play(eng, "E: discard 6s", "S: win")
    text = repr(eng.take_hands()[0])
    assert text.startswith("<HandRecord game 0 hand 0: discard 6s, p0 pays: p1 ")
    assert "human_win 8" in text and "dealer p0 streak 0 round E" in text and "wall head 65 tail 135" in text


def test_the_record_is_frozen():
    eng = scripted_engine([JUNK, T16, JUNK, JUNK], draws="6s")
    play(eng, "E: discard 6s", "S: win")
    r = eng.take_hands()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.payer = 2
    assert r == dataclasses.replace(r) and hash(r) == hash(dataclasses.replace(r))


@pytest.mark.parametrize("where", LAST_TILE_FROM)
def test_where_the_winning_tile_came_from(where):
    kong = "333s 234m 678m 234p 678p 6s"
    if where == "wall_head":
        eng = scripted_engine([JUNK, T16, JUNK, JUNK], draws="E 6s")
        play(eng, "E: discard E", "S: win")
    elif where == "flower_replacement":
        eng = scripted_engine([JUNK, T16, JUNK, JUNK], draws="E f1", tail="6s", flowers=True)
        play(eng, "E: discard E", "S: win")
    elif where == "kong_replacement":
        eng = scripted_engine([JUNK, JUNK, kong, JUNK], draws="C F 3s", tail="6s")
        play(eng, "E: discard C", "S: discard F", "W: kong 3s", "W: win")
    elif where == "discard":
        eng = scripted_engine([JUNK, T16, JUNK, JUNK], draws="6s")
        play(eng, "E: discard 6s", "S: win")
    else:
        eng = scripted_engine(
            [JUNK, "234m 678m 234p 678p 45s 99s", "33s 159m 159p ESWNCFP 1s", JUNK], draws="3s C F P 3s"
        )
        play(
            eng,
            "E: discard 3s",
            "S: pass",
            "W: pon",
            "W: discard 1s",
            "N: discard C",
            "E: discard F",
            "S: discard P",
            "W: kong 3s",
            "S: win",
        )
    r = last_hand(eng)
    assert r.last_tile_from == where and r.win_tile is not None
    assert r.win_by == {"discard": "discard", "robbed_kong": "rob_kong"}.get(where, "self_draw")


def test_a_heavenly_win_has_no_winning_tile_and_a_drawn_hand_no_winner():
    eng = scripted_engine([T16, JUNK, JUNK, JUNK], draws="6s")
    play(eng, "E: win")
    r = last_hand(eng)
    assert r.win_by == "self_draw" and r.win_tile is None and r.last_tile_from is None and r.payer is None
    eng = scripted_engine([JUNK] * 4, draws="2m 3m 4m 6m", profile="casual", west_draw=True)
    play(eng, "E: discard W", "S: discard W", "W: discard W", "N: discard W")
    r = last_hand(eng)
    assert r.drawn and r.winners == () and r.win_by is None and r.payer is None and r.tai == (-1,) * 4
    assert "drawn hand" in repr(r)


def test_a_hand_ended_in_a_game_step_is_kept_across_the_next_deal():
    """The step that ends hand 0 also deals hand 1 (the dealer keeps the deal): the record still has
    hand 0's dealer, streak, wall positions and tile, which the state no longer holds."""
    eng = game(HEAVENLY, S_ON_E)
    play(eng, "E: win")
    assert not eng.terminated[0] and int(eng.streak[0]) == 1 and eng.wall_head[0] == 65
    play(eng, "E: discard 6s", "S: win")
    h0, h1 = eng.take_hands(0)
    assert (h0.hand, h0.winners, h0.win_by, h0.dealer, h0.streak) == (0, (E,), "self_draw", E, 0)
    assert (h1.hand, h1.winners, h1.payer, h1.dealer, h1.streak) == (1, (S,), E, E, 1)
    assert int(eng.dealer[0]) == S and int(eng.streak[0]) == 0  # (the state has moved on)
    assert [sum(x) for x in zip(h0.deltas, h1.deltas)] == [int(x) for x in eng.scores[0]]


def test_hands_that_end_in_their_deal_are_recorded():
    """八仙過海 in the deal ends the hand before any decision; the engine deals again in the same call.
    Two of them in the reset, then a step whose hand ends and whose next deal ends at once."""
    eng = game(EIGHT, EIGHT, HEAVENLY, EIGHT, S_ON_E)
    h0, h1 = eng.take_hands()
    assert all(r.at_deal and r.win_by == "flowers" and r.winners == (E,) and r.payer is None for r in (h0, h1))
    assert (h0.streak, h1.streak) == (0, 1) and dict(h0.items[E])["eight_flowers"] == 8
    assert h0.win_tile is None and h0.last_tile_from is None and "at the deal" in repr(h0)
    assert h0.flowers == (0xFF, 0, 0, 0) and h0.wall_tail == 143 - 8  # eight replacements from the tail
    play(eng, "E: win")  # the heavenly hand, then EIGHT ends in its deal in the same step
    h2, h3 = eng.take_hands(0)
    assert (h2.hand, h2.at_deal, h2.win_by, h2.streak) == (2, False, "self_draw", 2)
    assert (h3.hand, h3.at_deal, h3.win_by, h3.streak) == (3, True, "flowers", 3)
    assert int(eng.streak[0]) == 4 and not eng.terminated[0]


def test_more_hands_in_one_call_than_the_log_holds_raise():
    with pytest.raises(RuntimeError, match="overwritten"):
        game(EIGHT, EIGHT, EIGHT, HEAVENLY)


def test_take_hands_of_one_game_or_all_and_bad_calls():
    rules = Rules.make(flowers=False)
    walls = np.stack([scripted_wall([JUNK, T16, JUNK, JUNK], draws="6s", flowers=False)] * 3)
    eng = Engine(rules, 3, record_hands=True)
    eng.reset(0, walls=walls[:, None])
    eng.step(np.full(3, SIX_S))
    eng.step(np.array([PASS, WIN, WIN]))  # game 0 plays on
    assert [r.game for r in eng.take_hands(2)] == [2] and eng.take_hands(0) == []
    assert [r.game for r in eng.take_hands()] == [1] and eng.take_hands() == []
    with pytest.raises(ValueError, match="game must be in 0..2"):
        eng.take_hands(3)
    with pytest.raises(TypeError):
        eng.take_hands("0")
    with pytest.raises(RuntimeError, match="record_hands=True"):
        Engine(rules, 1).take_hands()
    with pytest.raises(TypeError, match="record_hands"):
        Engine(rules, 1, record_hands=1)


def _greedy(rng, m):
    """Win when offered, else a random legal action."""
    return np.array([WIN if row[WIN] else rng.choice(np.flatnonzero(row)) for row in m])


@pytest.mark.parametrize("profile", ["standard", "hongkong"])
def test_records_of_random_games_add_up_to_the_scores(profile):
    """Every hand of every game is recorded once, in order, and (settlement "immediate": no 拉 paid
    between hands) the records' chips add up to the scores; each record agrees with res_* of the state
    right after the step that ended it when that step ended one hand."""
    rules = Rules.make(profile, episode="game", **({"settlement": "immediate"} if profile == "hongkong" else {}))
    B = 6
    eng = Engine(rules, B, record_hands=True)
    eng.reset(5)
    rng = np.random.default_rng(1)
    got: list[list[HandRecord]] = [[] for _ in range(B)]
    steps = 0
    while not eng.terminated.all() and steps < 3000:
        before = eng.s.g[:, st.G_HANDS].copy()
        eng.step(_greedy(rng, eng.legal_action_mask))
        steps += 1
        for r in eng.take_hands():
            got[r.game].append(r)
        for b in np.flatnonzero(eng.s.g[:, st.G_HANDS] == before + 1):
            r = got[b][-1]
            assert r.tai == tuple(int(x) for x in eng.s.res_tai[b])
            assert r.deltas == tuple(int(x) for x in eng.s.res_delta[b])
            assert r.winners == tuple(w for w in range(4) if eng.s.g[b, st.G_WINNERS] >> w & 1)
    for b in range(B):
        assert [r.hand for r in got[b]] == list(range(int(eng.s.g[b, st.G_HANDS])))
        total = np.sum([r.deltas for r in got[b]], axis=0) if got[b] else np.zeros(4)
        assert total.tolist() == eng.scores[b].tolist()
    assert sum(len(x) for x in got) > B and any(r.winners for x in got for r in x)


def test_auto_reset_keeps_the_hands_of_finished_games():
    eng = Engine(Rules(), 4, auto_reset=True, record_hands=True)
    eng.reset(2)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        _, term = eng.step(_greedy(rng, eng.legal_action_mask))
        ended += int(term.sum())
    recs = eng.take_hands()
    assert len(recs) == ended and all(r.hand == 0 for r in recs)  # episode "hand": one hand per episode


def test_wall_positions_and_last_drawn_are_public_and_read_only():
    eng = scripted_engine([JUNK, T16, JUNK, JUNK], draws="E 7m", tail="2p")
    assert eng.wall_head[0] == 65 and eng.wall_tail[0] == 135 and eng.last_drawn[0] == parse_tiles("E")[0]
    play(eng, "E: discard E")
    assert eng.wall_head[0] == 66 and eng.wall_tail[0] == 135 and eng.last_drawn[0] == parse_tiles("7m")[0]
    with pytest.raises(ValueError):
        eng.wall_head[0] = 0


def test_drivers_that_call_the_core_directly_sync_the_records():
    """A driver stepping ``eng.s`` through envs.engine.step (as the vector env does) syncs after each
    call; the games it deals again start their records at hand 0."""
    from envs._core import reset_some, step_some
    from envs.engine.rng import game_seeds

    eng = Engine(Rules(), 3, record_hands=True)
    eng.reset(4)
    rng = np.random.default_rng(2)
    seeds = game_seeds(9, 3)
    ended = []
    for _ in range(300):
        active = rng.random(3) < 0.8
        step_some(eng.s, _greedy(rng, eng.legal_action_mask), active, eng.native)
        eng.sync_hands()
        done = eng.s.terminated.copy()
        ended += [b for b in np.flatnonzero(done)]
        if done.any():
            reset_some(eng.s, seeds, done, eng.native)
            eng.sync_hands(restarted=done)
    recs = eng.take_hands()
    assert sorted(r.game for r in recs) == sorted(ended) and all(r.hand == 0 for r in recs)
    with pytest.raises(RuntimeError, match="record_hands=True"):
        Engine(Rules(), 1).sync_hands()
