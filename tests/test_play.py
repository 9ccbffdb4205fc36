"""``tw16 play``: the terminal game loop driven by scripted input (garbage, out-of-range numbers,
illegal tiles, end of input, Ctrl-C), the input parser, the action names and the agents' encodings."""

from __future__ import annotations

import io
import itertools

import numpy as np

from envs.engine import actions as A
from envs.engine.api import Engine
from envs.rules import Rules
from envs.tiles import kind_name
from tw16.cli import play as play_cli
from tw16.cli.play import Choice, choices_for, interpret, parse_one_tile, play, zh_tiles


class FirstLegal:
    """A deterministic agent that records the observation width it was given."""

    name = "first"

    def __init__(self, in_channels=None):
        if in_channels is not None:
            self.in_channels = in_channels
        self.widths = set()

    def reset(self, seed=None):
        pass

    def act(self, obs, mask):
        self.widths.add(obs.shape[1])
        return np.asarray(mask).argmax(1).astype(np.int64)


def _hand_of(seed: int, seat: int) -> np.ndarray:
    eng = Engine(Rules(episode="game"), 1)
    eng.reset(np.array([seed], np.uint64))
    return eng.hands[0, seat].copy()


def test_zh_and_tiles():
    assert zh_tiles([0, 1, 2, 13, 13, 27, 27, 27]) == "一二三萬 五五筒 東東東"
    assert zh_tiles([31, 34]) == "中 春"
    assert parse_one_tile("5m") == 4 and parse_one_tile("5M") == 4 and parse_one_tile("五萬") == 4
    assert parse_one_tile("E") == 27 and parse_one_tile("e") is None and parse_one_tile("e", lenient=True) == 27
    assert parse_one_tile("f1") is None and parse_one_tile("0m") is None and parse_one_tile("55m") is None


def test_whole_hand_with_garbage_input():
    seed = 5
    hand = _hand_of(seed, 0)
    missing = kind_name(int(np.flatnonzero(hand == 0)[0]))
    garbage = [
        "hello",
        "",
        "99",
        "0",
        "-3",
        "d 0m",
        "discard zz",
        "555m",
        f"d {missing}",
        missing,
        "pon",
        "chi 345m",
        "win",
        "ready",
        "p",
        "pass 5m",
        "\x00\x1b[A",
        "1.5",
        "?",
        "t",
        "打 ㄅ",
    ]
    out = io.StringIO()
    res = play(
        Rules(),
        seat=0,
        opponents=["greedy"],
        seed=seed,
        hands=1,
        input=itertools.chain(garbage, itertools.repeat("1")),
        out=out,
    )
    text = out.getvalue()
    assert res["hands"] == 1 and not res["quit"] and res["you"] == 0
    assert sum(res["chips"]) == 0
    assert "did not understand 'hello'" in text
    assert "there is no option 99" in text and "there is no option 0" in text and "there is no option -3" in text
    assert "'0m' is not a tile" in text and "'zz' is not a tile" in text
    assert f"you have no {missing}" in text
    assert "you cannot pon now" in text and "you cannot chi now" in text and "you cannot win now" in text
    assert "'p' is ambiguous" in text and "more than one tile" in text
    assert "Type the number of an option" in text  # help
    assert "── hand 1 over ──" in text
    assert ("tai breakdown" in text) or ("流局" in text)
    assert "chips this hand:" in text and "played 1 hand;" in text
    # the table: own hand in notation and Chinese, whose turn, wall, dealer
    assert "YOU" in text and "dealer p0 莊" in text and "wall " in text and "to act: you" in text
    assert "your options:" in text and "discard" in text


def test_eof_and_ctrl_c_end_cleanly():
    out = io.StringIO()
    res = play(Rules(), seat=1, opponents=["greedy"], seed=2, hands=3, input=["nonsense", "42"], out=out)
    assert res["quit"] and res["hands"] == 0
    assert "bye" in out.getvalue()

    def ctrl_c(prompt):
        raise KeyboardInterrupt

    out = io.StringIO()
    res = play(Rules(), seat=0, opponents=["greedy"], seed=2, hands=1, input=ctrl_c, out=out)
    assert res["quit"] and "bye" in out.getvalue()

    def eof(prompt):
        raise EOFError

    res = play(Rules(), seat=0, opponents=["greedy"], seed=2, hands=1, input=eof, out=io.StringIO())
    assert res["quit"]

    out = io.StringIO()
    res = play(Rules(), seat=0, opponents=["greedy"], seed=2, hands=1, input=io.StringIO("x\nq\n"), out=out)
    assert res["quit"] and "bye" in out.getvalue()


def test_several_hands_other_seat_mixed_opponents_and_derived_planes():
    plain, derived = FirstLegal(), FirstLegal(in_channels=86)
    out = io.StringIO()
    # "pass" is not always legal: a refused "pass" is followed by "1", the first option
    res = play(
        Rules(profile="strict16"),
        seat=2,
        opponents=[plain, derived, FirstLegal()],
        seed=11,
        hands=2,
        input=itertools.cycle(["pass", "1"]),
        out=out,
    )
    assert res["hands"] == 2 and not res["quit"]
    assert plain.widths == {79} and derived.widths == {86}
    assert out.getvalue().count("over ──") == 2


def test_opponent_specs_and_neural_fallback(monkeypatch, tmp_path):
    import agents.neural as neural

    monkeypatch.setattr(neural, "DEFAULT_CHECKPOINT", tmp_path / "ppo_v0.pt")
    agents, notes = play_cli.make_opponents(["neural", "defensive", "neural"], seed=0)
    assert [a.name for a in agents] == ["greedy", "defensive", "greedy"]
    assert len(notes) == 1 and "greedy instead of neural" in notes[0]
    out = io.StringIO()
    play(Rules(), seat=0, opponents=["neural"], seed=1, hands=1, input=[], out=out)
    assert out.getvalue().count("greedy instead of neural") == 1


def test_cli_play(monkeypatch, capsys):
    from tw16.cli.main import main

    lines = iter(["garbage", "2", "1", "q"])

    def fake_input(prompt=""):
        print(prompt, end="")
        return next(lines)

    monkeypatch.setattr("builtins.input", fake_input)
    rc = main(["play", "--seed", "4", "--opponents", "greedy,random,defensive", "--seat", "3", "--hands", "1"])
    text = capsys.readouterr().out
    assert rc == 0 and "p0 greedy" in text and "p1 random" in text and "p2 defensive" in text
    assert "bye" in text
    assert main(["play", "--opponents", "greedy,random"]) == 2
    assert main(["play", "--rules", '{"no_such_rule": 1}']) == 2
    assert main(["play", "--rules", "{oops"]) == 2


def _choices():
    return [
        Choice(A.WIN, "win", "win on 4m", "胡 四萬", (3,)),
        Choice(A.PON, "pon", "pon 444m", "碰 四萬", (3,)),
        Choice(A.CHI + 0, "chi", "chi 4-5-6m", "吃", (3, 4, 5)),
        Choice(A.CHI + 2, "chi", "chi 2-3-4m", "吃", (1, 2, 3)),
        Choice(A.PASS, "pass", "pass", "過"),
    ]


def test_interpret():
    ch = _choices()
    assert interpret("1", ch).action == A.WIN
    assert interpret(" 5 ", ch).action == A.PASS
    assert "no option 6" in interpret("6", ch).message
    assert interpret("WIN", ch).action == A.WIN and interpret("胡", ch).action == A.WIN
    assert interpret("pon", ch).action == A.PON and interpret("pon 4m", ch).action == A.PON
    assert "not possible" in interpret("pon 5m", ch).message
    assert "which chi?" in interpret("chi", ch).message
    assert interpret("chi 456m", ch).action == A.CHI and interpret("chi 2-3-4m", ch).action == A.CHI + 2
    assert interpret("chi high", ch).action == A.CHI + 2 and interpret("chi 5m", ch).action == A.CHI
    assert "not a chi" in interpret("chi xyz", ch).message
    assert interpret("pass", ch).action == A.PASS and interpret("x", ch).action == A.PASS
    assert "takes no tile" in interpret("pass 5m", ch).message
    assert "cannot discard" in interpret("5m", ch).message
    assert (
        interpret("?", ch).command == "help"
        and interpret("q", ch).command == "quit"
        and interpret("t", ch).command == "table"
    )
    disc = [Choice(A.DISCARD + k, "discard", f"discard {kind_name(k)}", "", (k,)) for k in (4, 27, 33)]
    hand = np.zeros(34, np.int8)
    hand[[4, 27, 33]] = 1
    assert interpret("5m", disc, hand).action == 4 and interpret("d 5M", disc, hand).action == 4
    assert interpret("E", disc, hand).action == A.DISCARD + 27 and interpret("d e", disc, hand).action == A.DISCARD + 27
    assert interpret("W", disc, hand).message.startswith("you have no W")  # W is the west wind, w is win
    assert (
        interpret("P", disc, hand).action == A.DISCARD + 33 and interpret("打 白", disc, hand).action == A.DISCARD + 33
    )
    assert "you have no 6m" in interpret("d 6m", disc, hand).message
    for junk in ("", "   ", "d", "🀄", "d 5m 6m", "kong", "1e9", "--", "+2"):
        p = interpret(junk, disc, hand)
        assert (p.action is not None) or p.message or p.command, junk


def test_choices_name_every_legal_action():
    """Random play: every legal action of every decision gets exactly one choice, with a readable name."""
    rng = np.random.default_rng(0)
    seen = set()
    for seed in range(8):
        eng = Engine(Rules(multi_win=True) if seed % 2 else Rules(profile="casual"), 1)
        eng.reset(np.array([seed], np.uint64))
        while not eng.terminated[0]:
            mask = eng.legal_action_mask[0]
            ch = choices_for(eng)
            assert sorted(c.action for c in ch) == list(np.flatnonzero(mask))
            for c in ch:
                seen.add(c.verb)
                if c.verb == "chi":
                    t = int(eng.claim_tile[0])
                    assert t in c.kinds and c.label.startswith("chi ")
            eng.step(np.array([int(rng.choice(np.flatnonzero(mask)))]))
    assert {"discard", "pass", "pon", "chi"} <= seen


def test_neural_opponents_get_the_planes_their_net_reads():
    from agents.neural import NetConfig, NeuralAgent, PolicyValueNet

    for c in (79, 86):
        agent = NeuralAgent(net=PolicyValueNet(NetConfig(in_channels=c)))
        assert play_cli.agent_channels(agent) == c
        res = play(Rules(), seat=1, opponents=[agent], seed=3, hands=1, input=itertools.repeat("1"), out=io.StringIO())
        assert res["hands"] == 1
