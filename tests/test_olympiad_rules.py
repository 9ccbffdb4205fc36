"""The olympiad profile (shared/protocol/OLYMPIAD.md "Rules of the events", docs/olympiad_rules.md):
one scenario, positive and negative, for each way it differs from standard, each difference being a
rule option (flowers, rob_kong, special_wins, settlement = "win_lose", stakes; dead_wall and multi_win
at standard's values, stated), the claim order the referee uses, random play under the invariant
checker, and the win/lose figures through the engine, the settlement binding and `tw16 score`.

Seats: E S W N = 0 1 2 3, E deals. ``JUNK`` can never chi, pon or win.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from game_check import check

from envs import _core
from envs.engine import state as st
from envs.engine.api import Engine
from envs.engine.invariants import ERROR_NAMES
from envs.engine.mask import native_rules
from envs.engine.randplay import POLICY_GREEDY, random_play
from envs.engine.scripted import deltas, items, last_hand, legal_names, play, run_out, scripted_engine
from envs.rules import DEFAULTS, Rules, RulesError, Stakes
from envs.scoring.api import score
from envs.scoring.cases import CaseError
from envs.scoring.codes import WIN_DISCARD, WIN_SELF_DRAW
from envs.scoring.profile import load_profile
from envs.tiles import MELD_ADDKONG, MELD_PON, parse_tiles

JUNK = "159m 159p 159s ESWNCFP"
T16 = "234m 678m 234p 678p 234s 6s"  # waits on 6s only
R16 = "234m 678m 234p 678p 45s 99s"  # waits on 3s / 6s
PAIRS8 = "22m 44m 66m 88m 22p 44p 66p 88p"  # eight pairs: a win only as 嚦咕嚦咕 (no chow among them)
E, S, W, N = 0, 1, 2, 3
OLY = "olympiad"


def new(hands, draws="", tail="", profile=OLY, **opts):
    return scripted_engine(hands, draws, tail, profile=profile, **opts)


# -- the profile: standard's table, every difference an option ----------------------------------------
def test_profile_is_standard_plus_options():
    oly, std = Rules(profile=OLY), Rules()
    diff = {k for k, v in oly.to_dict().items() if v != std.to_dict()[k]} - {"profile"}
    assert diff == {"flowers", "rob_kong", "special_wins", "settlement", "stakes"}
    assert (oly.flowers, oly.rob_kong, oly.special_wins, oly.settlement) == (False, False, False, "win_lose")
    assert oly.stakes == Stakes(0, 1)
    # stated in [rules] although standard's: the events fix them
    assert (oly.dead_wall, oly.dead_wall_per_kong, oly.multi_win) == (16, False, False)
    # kept at standard's, as OLYMPIAD.md says nothing of them (docs/olympiad_rules.md)
    for name in ("no_calls_last3", "strict_pass", "kong_replacement_self_draw", "swap_call", "no_kong_after_claim"):
        assert getattr(oly, name) == DEFAULTS[name], name
    assert load_profile(OLY).items == load_profile("standard").items  # the same tai table
    assert set(load_profile(OLY).rule_defaults) <= set(DEFAULTS)  # [rules] names options only


def test_profile_loads_by_name_and_options_override():
    r = Rules.from_dict({"profile": OLY, "rob_kong": True})
    assert r.rob_kong is True and r.settlement == "win_lose"
    assert Rules.from_dict(json.loads(Rules(profile=OLY).to_json())) == Rules(profile=OLY)
    with pytest.raises(RulesError, match="'win_lose' is not for the hongkong profile"):
        Rules(profile="hongkong", settlement="win_lose")
    with pytest.raises(RulesError, match="'rob_kong' must be true or false"):
        Rules(profile=OLY, rob_kong="no")


# -- 136 tiles, no flowers; 16 never drawn -----------------------------------------------------------
def test_136_tiles_without_flowers_and_16_never_drawn():
    eng = Engine(Rules(profile=OLY), 8)
    eng.reset(seeds=4)
    assert (eng.s.wall[:, :136] < 136).all()  # only the 136 playing tiles (ids of flowers are 136..143)
    assert (eng.flowers == 0).all()
    assert (eng.wall_drawable == 136 - 65 - 16).all()
    std = Engine(Rules(), 8)
    std.reset(seeds=4)
    assert int(std.flowers.sum()) > 0  # standard deals flowers


@pytest.mark.parametrize("dead_wall", [16, 0])
def test_hand_is_drawn_with_16_tiles_left(dead_wall):
    eng = new([JUNK] * 4, dead_wall=dead_wall)
    front = int(eng.wall_drawable[0])
    assert front == 136 - 65 - dead_wall
    run_out(eng)
    assert last_hand(eng).winners == () and int(eng.wall_drawable[0]) == 0
    assert deltas(eng) == [0, 0, 0, 0]  # a drawn hand: 0


# -- one winner on a discard, the first in turn order after the discarder ---------------------------------
def test_one_winner_first_in_turn_order():
    eng = new([JUNK, JUNK, T16, T16], draws="6s")
    # The engine asks every seat with a claim before it resolves (RULES.md 2.5), so N is asked too;
    # W, first after the discarder, wins whatever N answers (the referee would not ask N at all).
    play(eng, "E: discard 6s", "W: win", "N: win")
    h = last_hand(eng)
    assert h.winners == (W,) and h.payer == E and h.win_by == "discard"
    assert deltas(eng) == [-1, 0, 1, 0]


def test_first_in_turn_order_passes_the_next_wins():
    eng = new([JUNK, JUNK, T16, T16], draws="6s")
    play(eng, "E: discard 6s", "W: pass", "N: win")
    assert last_hand(eng).winners == (N,) and deltas(eng) == [-1, 0, 0, 1]


def test_multi_win_option_lets_both_win():
    eng = new([JUNK, JUNK, T16, T16], draws="6s", multi_win=True)
    play(eng, "E: discard 6s", "W: win", "N: win")
    assert sorted(last_hand(eng).winners) == [W, N] and deltas(eng) == [-2, 0, 1, 1]


# -- claims in the referee's order: win, then kong/pong, then chow -------------------------------------
def test_pon_of_a_later_seat_beats_the_chow():
    eng = new([JUNK, "45s 159m 159p ESWNCFP 2m", JUNK, "33s 159m 159p ESWNCF 22m"], draws="3s")
    play(eng, "E: discard 3s")
    assert eng.current_player[0] == S and "chi low" in legal_names(eng)
    play(eng, "S: chi low", "N: pon")
    assert eng.current_player[0] == N and eng.phase[0] == st.PH_TURN
    assert list(eng.melds[0, N, 0]) == [MELD_PON, parse_tiles("3s")[0], E] and int(eng.s.p[0, S, st.P_NMELDS]) == 0


def test_win_beats_pon_and_chow():
    eng = new([JUNK, "45s 159m 159p ESWNCFP 2m", R16, "33s 159m 159p ESWNCF 22m"], draws="3s")
    play(eng, "E: discard 3s", "S: chi low", "W: win", "N: pon")
    assert last_hand(eng).winners == (W,) and deltas(eng) == [-1, 0, 1, 0]


# -- no robbing a kong -----------------------------------------------------------------------------------
ROB = dict(hands=[JUNK, R16, "33s 159m 159p ESWNCFP 1s", JUNK], draws="3s C F P 3s", tail="2m")
TO_KONG = ("E: discard 3s", "S: pass", "W: pon", "W: discard 1s", "N: discard C", "E: discard F", "S: discard P")


def test_added_kong_is_not_robbed():
    eng = new(**ROB)
    play(eng, *TO_KONG, "W: kong 3s")
    k = parse_tiles("3s")[0]
    assert eng.phase[0] == st.PH_TURN and eng.current_player[0] == W  # S (waiting on 3s) was not asked
    assert list(eng.melds[0, W, 0]) == [MELD_ADDKONG, k, E] and eng.hands[0, W, parse_tiles("2m")[0]] == 1
    assert int(eng.pass_win[0, S]) == 0 and check(eng) == []


def test_rob_kong_option_brings_robbing_back():
    eng = new(**ROB, rob_kong=True)
    play(eng, *TO_KONG, "W: kong 3s")
    assert eng.phase[0] == st.PH_ROB and legal_names(eng) == ["win", "pass"]
    play(eng, "S: win")
    assert last_hand(eng).win_by == "rob_kong" and deltas(eng) == [0, 1, -1, 0]


def test_standard_robs():
    eng = new(**ROB, profile="standard")
    play(eng, *TO_KONG, "W: kong 3s")
    assert eng.phase[0] == st.PH_ROB


# -- five sets and a pair only ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "profile,opts,wins",
    [
        ("olympiad", {"extras": True}, False),  # the extras pack names 嚦咕嚦咕; special_wins keeps it out
        ("olympiad", {"extras": True, "special_wins": True}, True),
        ("standard", {"extras": True}, True),
        ("strict16", {"declare_ready": False}, True),  # strict16 names it itself
        ("strict16", {"declare_ready": False, "special_wins": False}, False),
    ],
)
def test_eight_pairs_wins_only_with_special_wins(profile, opts, wins):
    eng = new([JUNK, PAIRS8, JUNK, JUNK], draws="8p", profile=profile, **opts)
    play(eng, "E: discard 8p")
    assert ("win" in legal_names(eng)) is wins
    assert "pon" in legal_names(eng)
    if wins:
        play(eng, "S: win")
        assert "eight_pairs" in items(eng, S)


def test_special_wins_off_clears_every_shape():
    for profile, opts in (("olympiad", {"extras": True, "unrelated_gap": 2}), ("hongkong", {}), ("strict16", {})):
        prof = Rules.make(profile, **opts, special_wins=False).profile_data
        assert prof.options["shapes"] == [] and int(prof.compiled()[2][1]) == 0, profile
    assert Rules.make("standard", special_wins=False).profile_data is Rules().profile_data  # no shapes to drop


def test_scorer_refuses_special_shapes():
    kw = dict(win_tile="8p", win_by="discard", discarder="E", seat="S")
    r = score(PAIRS8, profile="strict16", **kw)
    assert "eight_pairs" in r["items"]
    with pytest.raises(CaseError, match="not a winning hand|cannot win|no winning"):
        score(PAIRS8, profile=OLY, rules={"extras": True}, **kw)


# -- win/lose settlement -----------------------------------------------------------------------------
def test_self_draw_pays_three_points():
    eng = new([T16, JUNK, JUNK, JUNK], draws="6s")
    play(eng, "E: win")
    assert items(eng, E).get("heavenly_win") == 24  # hands are still scored: the record keeps the items
    assert deltas(eng) == [3, -1, -1, -1]
    np.testing.assert_array_equal(eng.rewards[0], [3, -1, -1, -1])
    std = new([T16, JUNK, JUNK, JUNK], draws="6s", profile="standard")
    play(std, "E: win")
    assert deltas(std) == [3 * 280, -280, -280, -280]


def test_non_dealer_self_draw_and_discard_win():
    eng = new([JUNK, T16, JUNK, JUNK], draws="C 6s")
    play(eng, "E: discard C", "S: win")
    assert last_hand(eng).win_by == "self_draw" and deltas(eng) == [-1, 3, -1, -1]
    eng = new([JUNK, T16, JUNK, JUNK], draws="6s")
    play(eng, "E: discard 6s", "S: win")
    assert deltas(eng) == [-1, 1, 0, 0]


def test_stakes_scale_chips_not_rewards():
    eng = new([T16, JUNK, JUNK, JUNK], draws="6s", stakes="30/10")
    play(eng, "E: win")
    assert deltas(eng) == [30, -10, -10, -10]  # one point = per_tai chips, base unused
    np.testing.assert_array_equal(eng.rewards[0], [3, -1, -1, -1])


def test_no_dealer_streak_chips():
    eng = new([T16, JUNK, JUNK, JUNK], draws="6s", episode="game")
    eng.s.g[0, st.G_STREAK] = 3  # the dealer's fourth hand in a row
    play(eng, "E: win")
    assert deltas(eng)[:4] == [3, -1, -1, -1]


def _settle(rules, hand_tai, win_by, winner, payer, dealer, streak):
    d = np.zeros(4, np.int64)
    _core.settle(hand_tai, win_by, winner, payer, dealer, streak, native_rules(rules), d)
    return d.tolist()


def test_settlement_binding_figures():
    oly, std = Rules(profile=OLY), Rules()
    for tai in (0, 1, 30):
        for streak in (0, 5):
            assert _settle(oly, tai, WIN_SELF_DRAW, 2, -1, 0, streak) == [-1, -1, 3, -1]
            assert _settle(oly, tai, WIN_DISCARD, 1, 3, 1, streak) == [0, 1, 0, -1]
    assert _settle(std, 2, WIN_DISCARD, 1, 3, 1, 0) == [0, 60, 0, -60]  # 30 + 10 x (2 + dealer 1)


def test_tw16_score_gives_win_lose_deltas(tmp_path, capsys):
    from tw16.cli.main import main

    case = {
        "id": "oly1",
        "hand": "456m 789m 234p 567s N",
        "melds": ["chi 123m"],
        "win_tile": "N",
        "win_by": "discard",
        "discarder": "W",
        "seat": "S",
    }
    p = tmp_path / "c.jsonl"
    p.write_text(json.dumps(case) + "\n" + json.dumps(case | {"id": "oly2", "win_by": "self_draw"}) + "\n")
    assert main(["score", str(p), "--profile", OLY]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0]["deltas"] == {"E": 0, "S": 1, "W": -1, "N": 0}
    assert out[1]["deltas"] == {"E": -1, "S": 3, "W": -1, "N": -1}
    assert out[0]["items"] == {"single_wait": 1}  # the tai are still reported


# -- random play under the invariant checker ---------------------------------------------------------
@pytest.mark.parametrize("opts", [{}, {"episode": "game"}, {"extras": True}])
def test_random_play_invariants(opts):
    games = 16 if opts.get("episode") == "game" else 600
    eng = Engine(Rules.make(OLY, **opts), games)
    out = random_play(eng, seed=7, episodes=1, check=True, policy=POLICY_GREEDY)
    bad = np.flatnonzero(out[:, 4])
    assert bad.size == 0, [(int(b), ERROR_NAMES[out[b, 4]], int(out[b, 5])) for b in bad[:5]]
    assert out[:, 3].sum() > 0 and (eng.s.scores.sum(1) == 0).all()
    if opts.get("episode") != "game":  # one hand: its points are those of a draw, a discard or a self-draw
        rows = {tuple(sorted(r)) for r in eng.s.scores.tolist()}
        assert rows <= {(0, 0, 0, 0), (-1, 0, 0, 1), (-1, -1, -1, 3)}, rows
        assert len(rows) == 3


def test_log_from_before_the_new_options_still_replays():
    """A log written before rob_kong / special_wins existed (its rules lack them) replays unchanged."""
    from pathlib import Path

    from envs.engine.replay import parse_log, replay

    golden = Path(__file__).parent / "data" / "golden" / "standard_s7.jsonl"
    lines = parse_log(golden.read_text(encoding="utf-8"))
    for name in ("rob_kong", "special_wins"):
        del lines[0]["rules"][name]
    again = replay(lines)
    assert again[0]["rules"]["rob_kong"] is True and again[0]["rules"]["special_wins"] is True
    lines[0]["rules"]["rob_kong"] = "no"  # a value the option does not take is still refused
    with pytest.raises(RulesError, match="'rob_kong' must be true or false"):
        replay(lines)


def test_tw16_eval_plays_the_profile(capsys):
    from tw16.cli.main import main

    argv = [
        "eval",
        "greedy",
        "random",
        "greedy",
        "random",
        "--profile",
        OLY,
        "--rules",
        '{"rob_kong": true}',
        "--hands",
        "16",
        "--json",
        "--plot",
        "",
    ]
    assert main(argv) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["rules"] == Rules(profile=OLY, rob_kong=True).to_dict()
    a = r["agents"]
    for row in a.values():  # points: +3 at most (a self-draw), -1 at least, per hand; stakes 0/1
        assert -1 <= row["chips_per_hand"] <= 3 and float(row["chips_per_hand"] * row["hands"]).is_integer()
    assert a["greedy"]["chips_per_hand"] + a["random"]["chips_per_hand"] == pytest.approx(0)


def test_tw16_play_plays_the_profile(monkeypatch, capsys):
    from tw16.cli.main import main

    monkeypatch.setattr("builtins.input", lambda prompt="": "1")  # always the first legal choice
    assert main(["play", "--profile", OLY, "--seed", "3", "--opponents", "greedy", "--hands", "1"]) == 0
    text = capsys.readouterr().out
    assert "played 1 hand" in text and "f1" not in text  # no flowers at the table
    assert "win/lose settlement: one point from each paying seat" in text  # seed 3: p2 wins on p3's discard
    assert "chips this hand: you +0   p1 +0   p2 +1   p3 -1" in text


def test_pettingzoo_env_plays_the_profile():
    from envs import tw16_v1

    e = tw16_v1.env(profile=OLY)
    e.reset(seed=2)
    assert e.unwrapped.rules == Rules(profile=OLY)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        total[agent] += r
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
    assert sum(total.values()) == 0 and sorted(total.values()) in ([0, 0, 0, 0], [-1, 0, 0, 1], [-1, -1, -1, 3])
