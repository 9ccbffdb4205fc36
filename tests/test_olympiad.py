"""The Computer Olympiad protocol bridge (agents.olympiad, docs/olympiad.md): the codec, external bots
as agents (a C bot built here, misbehaving bots), tw16 agents as bots (``tw16 bot``), transparency
(``olympiad:tw16 bot --agent greedy`` plays exactly as in-process Greedy), golden transcripts."""

from __future__ import annotations

import io
import os
import shlex
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent, unknown_agent
from agents.evaluation.arena import (
    deal_played,
    duplicate_wall_seeds,
    hand_outcomes,
    play_duplicate,
    rotated_seating,
    run_games,
)
from agents.olympiad import BOT_PROFILE, BOT_RULES
from agents.olympiad.bot import ProtocolBot, serve
from agents.olympiad.codec import MAX_LINE, ProtocolError, kind_of_id, line, parse_answer, split, tile_id
from agents.olympiad.host import OlympiadAgent, check_rules, parse_spec, with_option
from envs.engine.api import Engine
from envs.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "olympiad"
RULES = Rules.make(BOT_PROFILE, **BOT_RULES)
TW16_BOT = f"{shlex.quote(sys.executable)} -m tw16.cli.main bot"


def tw16_bot(agent: str = "greedy", timeout: float = 30) -> str:
    return f"olympiad[cwd={ROOT},timeout={timeout:g}]:{TW16_BOT} --agent {agent}"


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) to build tests/data/olympiad/bot.c")
    out = tmp_path_factory.mktemp("olympiad") / "bot"
    subprocess.run([cc, "-O2", "-Wall", "-o", str(out), str(DATA / "bot.c")], check=True, timeout=120)
    return out


# -- the codec ----------------------------------------------------------------------------------------
def test_tile_ids_round_trip_every_tile():
    seen = set()
    for k in range(34):
        for c in range(4):
            tid = tile_id(k, c)
            assert kind_of_id(tid) == k and kind_of_id(str(tid)) == k
            seen.add(tid)
    assert len(seen) == 136 and tile_id(0, 0) == 110 and tile_id(33, 3) == 473 and tile_id(27, 0) == 410


@pytest.mark.parametrize("bad", ["510", "100", "194", "480", "114", "abc", "1110", "11", 1000, True, "-11"])
def test_bad_tile_ids_are_named(bad):
    with pytest.raises(ProtocolError, match="tile id"):
        kind_of_id(bad)


def test_answers_parsed_and_refused():
    assert parse_answer("/throw 433", "throw") == ("throw", [433])
    assert parse_answer("/pass", "pong") == ("pass", [])
    assert parse_answer("/pong 111 112", "pong") == ("pong", [111, 112])
    assert parse_answer("/gong 0 111 112 113 110", "gong") == ("gong", [0, 111, 112, 113, 110])
    assert parse_answer("/gong 1 111", "gong") == ("gong", [1, 111])
    assert parse_answer("/hu", "hu") == ("hu", [])
    for text, ask in [
        ("/pass", "throw"),
        ("/throw", "throw"),
        ("/throw 111 112", "throw"),
        ("/pong 111 111", "pong"),
        ("/eat 111 112", "pong"),
        ("/gong 2 111", "gong"),
        ("/hu 111", "hu"),
        ("", "hu"),
        ("/throw 11\x00", "throw"),
        ("x" * 300, "hu"),
    ]:
        with pytest.raises(ProtocolError):
            parse_answer(text, ask)
    with pytest.raises(ProtocolError, match="255"):
        line("/initCard", *["111"] * 80)
    assert split("/mo  111 ") == ["/mo", "111"] and MAX_LINE == 255


def test_specs_and_rules():
    assert parse_spec("olympiad:./bot --x 1") == {"command": "./bot --x 1"}
    got = parse_spec(f"olympiad[cwd={ROOT},timeout=2.5,fallback=defensive]:./b")
    assert got == {"cwd": str(ROOT), "timeout": 2.5, "fallback": "defensive", "command": "./b"}
    assert parse_spec(with_option("olympiad[timeout=2]:./b", "log", "/tmp/x")) == {
        "timeout": 2.0,
        "log_dir": "/tmp/x",
        "command": "./b",
    }
    for bad in (
        "olympiad",
        "olympiad:",
        "olympiad[speed=3]:./b",
        "olympiad[timeout=-1]:./b",
        "olympiad[timeout=2:./b",
        "olympiad[cwd=/no/such/dir]:./b",
    ):
        with pytest.raises(ValueError):
            parse_spec(bad)
    assert unknown_agent("olympiad:./b") is None
    with pytest.raises(ValueError, match="profile 'standard'.*flowers"):
        check_rules(Rules())
    with pytest.raises(ValueError, match="multi_win"):
        check_rules(Rules(profile="olympiad", multi_win=True))
    with pytest.raises(ValueError, match="rob_kong"):
        check_rules(Rules(profile="olympiad", rob_kong=True))
    with pytest.raises(ValueError, match="flowers"):
        check_rules(Rules(profile="olympiad", flowers=True))
    check_rules(RULES)
    assert RULES == Rules(profile="olympiad")
    with pytest.raises(ValueError, match="in-process"):
        OlympiadAgent("./b", make_agent, fallback="olympiad:./c")


def test_eval_refuses_rules_a_bot_cannot_play(tmp_path):
    from tw16.cli.main import main

    assert main(["eval", "olympiad:./nobot", "greedy", "greedy", "greedy", "--hands", "4", "--plot", ""]) == 2
    assert main(["bot", "--agent", "greedy", "--profile", "standard"]) == 2  # another profile
    assert (
        main(
            [
                "eval",
                "olympiad:./nobot",
                "greedy",
                "greedy",
                "greedy",
                "--hands",
                "4",
                "--plot",
                "",
                "--profile",
                "olympiad",
                "--rules",
                '{"rob_kong": true}',
            ]
        )
        == 2
    )


# -- external bots ------------------------------------------------------------------------------------
def test_c_bot_plays_duplicate_without_faults(c_bot, tmp_path):
    bot = make_agent(f"olympiad[cwd={c_bot.parent}]:./{c_bot.name}")  # started in its own folder
    res = play_duplicate([bot, make_agent("greedy"), make_agent("defensive"), make_agent("greedy")], 6, RULES, seed=4)
    row = res["faults"][bot.name]
    assert res["hands"] == 24 and row["requests"] > 100 and sum(v for k, v in row.items() if k != "requests") == 0
    assert not bot.procs  # /exit, then the process groups killed


@pytest.mark.parametrize(
    "flag,kind",
    [
        ("--crash-after 2", "crash"),
        ("--hang-after 2", "timeout"),
        ("--garbage-after 3", "unparsable"),
        ("--huge-after 4", "long_line"),
        ("--illegal-after 2", "illegal"),
        ("--no-ready", "timeout"),
    ],
)
def test_misbehaving_bots_never_stop_a_match(c_bot, flag, kind):
    bot = make_agent(f"olympiad[timeout=0.3]:{c_bot} {flag}")
    res = play_duplicate([bot, make_agent("greedy"), make_agent("greedy"), make_agent("greedy")], 2, RULES, seed=1)
    assert res["hands"] == 8
    faults = {k: v for k, v in res["faults"][bot.name].items() if k != "requests"}
    assert faults == {kind: 8}  # once per hand: the fallback plays on, the process is restarted at the next hand
    assert all(f["tail"] for f in bot.fault_log) and not bot.procs


def test_python_bots_that_die_or_spam(tmp_path):
    quiet = tmp_path / "quiet.py"  # reads and never answers, then its output closes
    quiet.write_text(
        "import sys\nfor line in sys.stdin:\n    if line.startswith('/ask'):\n        sys.exit(0)\n"
        "    if line.startswith('/ready'):\n        print('/ready', flush=True)\n"
    )
    spam = tmp_path / "spam.py"  # answers with two lines and no newline at the end of a huge one
    spam.write_text(
        "import sys\nfor line in sys.stdin:\n    if line.startswith('/ready'):\n        print('/ready', flush=True)\n"
        "    elif line.startswith('/ask'):\n        sys.stdout.write('y' * 5000); sys.stdout.flush()\n"
    )
    for script, kind in ((quiet, "crash"), (spam, "long_line")):
        bot = make_agent(f"olympiad[timeout=2]:{shlex.quote(sys.executable)} {script}")
        res = play_duplicate([bot] + [make_agent("greedy") for _ in range(3)], 1, RULES, seed=2)
        assert res["hands"] == 4 and res["faults"][bot.name].get(kind) == 4


def test_a_bot_that_talks_unasked(tmp_path):
    chatty = tmp_path / "chatty.py"  # greets at start, and chats after each answer (in the same write)
    chatty.write_text(
        "import sys\nprint('hello', flush=True)\nfor line in sys.stdin:\n"
        "    if line.startswith(('/ready', '/ask')):\n"
        "        ans = '/ready' if line.startswith('/ready') else 'x' if 'throw' in line else '/pass'\n"
        "        sys.stdout.write(ans + '\\nchat\\n'); sys.stdout.flush()\n"
    )
    bot = make_agent(f"olympiad[timeout=2]:{shlex.quote(sys.executable)} {chatty}")
    res = play_duplicate([bot] + [make_agent("greedy") for _ in range(3)], 1, RULES, seed=2)
    assert res["hands"] == 4 and {k: v for k, v in res["faults"][bot.name].items() if k != "requests"} == {
        "unparsable": 4
    }
    assert all(
        "'x'" in f["detail"] for f in bot.fault_log
    )  # its bad /throw, never 'hello' or 'chat' taken as an answer


def test_a_bot_that_cannot_start_is_a_fault(tmp_path):
    bot = make_agent(f"olympiad[timeout=1]:{tmp_path}/no-such-bot")
    res = play_duplicate([bot] + [make_agent("greedy") for _ in range(3)], 1, RULES, seed=2)
    assert res["hands"] == 4 and res["faults"][bot.name]["crash"] + res["faults"][bot.name].get("timeout", 0) == 4


# -- tw16 agents as bots ---------------------------------------------------------------------------------
def _trajectories(agents, seeds):
    """Per game: the turn actions and the state after every step (claims made, draws), and the chips."""
    nw = len(seeds)
    eng = Engine(RULES, batch_size=4 * nw, record_hands=True)
    deal_played(eng, np.repeat(seeds, 4))
    log = [[] for _ in range(4 * nw)]

    def on_decision(games, seats, obs, mask, acts):
        for g, s, a in zip(games, seats, acts):
            if eng.phase[g] == 0:  # PH_TURN: a claim answer that was never asked is not an action of the game
                log[g].append((int(s), int(a)))

    def on_step():
        for g in range(4 * nw):
            d = (eng.s.river[g].tobytes(), eng.s.melds[g].tobytes(), eng.s.hands[g].tobytes())
            if not log[g] or log[g][-1] != d:
                log[g].append(d)

    run_games(eng, agents, rotated_seating(nw), on_decision=on_decision, on_step=on_step)
    return log, hand_outcomes(eng)["chips"]


@pytest.mark.slow
def test_transparency_tw16_bot_plays_as_in_process_greedy():
    """Both directions of the bridge at once; 1,000+ hands are quoted in docs/olympiad.md."""
    bots = [make_agent(tw16_bot()) for _ in range(2)]
    for seed in duplicate_wall_seeds(7, 6):  # one wall at a time: 4 games, the bots' processes reused
        got = _trajectories(bots + [make_agent("greedy"), make_agent("greedy")], [seed])
        want = _trajectories([make_agent("greedy") for _ in range(4)], [seed])
        assert got[0] == want[0] and np.array_equal(got[1], want[1])
    assert sum(b.n_faults for b in bots) == 0 and all(b.requests > 200 for b in bots)
    for b in bots:
        b.close()


def _bot(agent="greedy"):
    return ProtocolBot(make_agent(agent), RULES, err=io.StringIO())


def test_tw16_bot_never_stops_on_bad_input():
    bot = _bot()
    lines = [
        "/ask throw",
        "/ask",
        "/ask fly",
        "garbage",
        "x" * 300,
        "/mo 111",
        "/initCard 111",
        "/start MJ 9",
        "/initGame East East 1 1 0",
        "/initCard 111 112",
        "/throw 1 510",
        "/pong 2 111 112 113",
        "/ask eat",
        "/ask hu",
        "/gong 1 9 111",
        "\x00\x01",
        "/ready",
    ]
    answers = [bot.reply(x) for x in lines]
    assert answers[0] == "/pass" and answers[-1] == "/ready"
    assert all(a is None or a.split()[0] in ("/pass", "/ready", "/throw") for a in answers)
    assert bot.err.getvalue().count("\n") >= 10  # one stderr line per problem


def test_tw16_bot_answers_a_hand_and_exits():
    hand = [110, 111, 120, 130, 140, 150, 160, 170, 180, 210, 220, 230, 240, 250, 260, 270, 410]
    msgs = ["/start MJ 1", "/ready", "/initGame East East 1 1 0", "/initCard " + " ".join(map(str, hand)), "/ask throw"]
    out = io.BytesIO()
    rc = serve(_bot(), io.BytesIO("".join(m + "\n" for m in msgs + ["/exit", "/ask throw"]).encode()), out)
    answers = out.getvalue().decode().splitlines()
    assert rc == 0 and answers == ["/ready", "/throw 410"]  # the lone honour; nothing after /exit
    assert serve(_bot(), io.BytesIO(b"/start MJ 2\n"), io.BytesIO()) == 0  # end of input
    out = io.BytesIO()  # a 300-character line is skipped whole, the next one answered
    assert serve(_bot(), io.BytesIO(b"/" + b"y" * 300 + b"\n/ready\n"), out) == 0 and out.getvalue() == b"/ready\n"


def test_tw16_bot_as_tcp_client():
    srv = socket.create_server(("127.0.0.1", 0))
    port = srv.getsockname()[1]
    got = []

    def referee():
        conn, _ = srv.accept()
        with conn, conn.makefile("rwb") as f:
            for m in ("/start MJ 1", "/ready"):
                f.write((m + "\n").encode())
            f.flush()
            got.append(f.readline().decode().strip())
            f.write(b"/exit\n")
            f.flush()

    t = threading.Thread(target=referee)
    t.start()
    p = subprocess.run(
        [sys.executable, "-m", "tw16.cli.main", "bot", "--agent", "greedy", "--connect", f"127.0.0.1:{port}"],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )
    t.join(10)
    srv.close()
    assert p.returncode == 0 and got == ["/ready"]


# -- golden transcripts --------------------------------------------------------------------------------
def test_golden_transcripts(c_bot, tmp_path):
    """The C bot's messages in two fixed walls (8 hands) beside a tw16 bot: diffed against the file
    (TW16_REGEN_OLYMPIAD=1 writes it again after a deliberate change)."""
    agents = [
        make_agent(with_option(f"olympiad:{c_bot}", "log", str(tmp_path / "c"))),
        make_agent("greedy"),
        make_agent(with_option(tw16_bot("defensive"), "log", str(tmp_path / "d"))),
        make_agent("greedy"),
    ]
    play_duplicate(agents, 2, RULES, seed=2026, log_dir=tmp_path / "replays")
    text = ""
    for sub in ("c", "d"):
        for f in sorted((tmp_path / sub).glob("*.txt")):
            text += f"== {sub}/{f.name}\n" + f.read_text()
    golden = DATA / "transcripts.txt"
    if os.environ.get("TW16_REGEN_OLYMPIAD"):
        golden.write_text(text)
    assert text == golden.read_text()
    replays = sorted((tmp_path / "replays").glob("*.jsonl"))  # (agents.evaluation.recording: tw16 eval --log-dir)
    assert len(replays) == 8
    from envs.engine.replay import parse_log, replay

    for f in replays:
        replay(parse_log(f.read_text()))


def test_web_refuses_protocol_bots():
    from tw16.cli.main import main

    assert main(["web", "--opponents", "olympiad:./bot", "--port", "1"]) == 2


def test_play_opponents_keep_olympiad_options():
    from tw16.cli.play import split_specs

    assert split_specs("olympiad[cwd=/a,timeout=2]:./bot,greedy,defensive") == [
        "olympiad[cwd=/a,timeout=2]:./bot",
        "greedy",
        "defensive",
    ]
    assert split_specs("greedy") == ["greedy"]


def test_play_against_protocol_bots(c_bot):
    """``tw16 play``: a person (scripted: always the first listed choice) against two external bots,
    three hands of one game (the bots get /initGame for each); the bots' processes end with the session."""
    from tw16.cli.play import play

    ops = [make_agent(f"olympiad:{c_bot}"), make_agent("greedy"), make_agent(tw16_bot())]
    out = io.StringIO()
    res = play(RULES, seat=1, opponents=ops, seed=5, hands=3, input=io.StringIO("1\n" * 3000), out=out)
    assert res["hands"] == 3 and not res["quit"] and sum(res["chips"]) == 0
    assert all(o.n_faults == 0 and o.requests > 10 and not o.procs for o in (ops[0], ops[2]))


@pytest.mark.slow
def test_ray_workers_play_bots_as_locally(c_bot):
    """``tw16 eval --workers``: each Ray worker starts its own bot processes; the same result, the
    faults summed over workers, every process ended."""
    ray = pytest.importorskip("ray")
    from agents.evaluation.distributed import evaluate_distributed

    specs = [f"olympiad:{c_bot}", "greedy", f"olympiad[timeout=0.3]:{c_bot} --crash-after 3", "defensive"]
    local = play_duplicate([make_agent(s, seed=3) for s in specs], 3, RULES, seed=3)
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        dist = evaluate_distributed(specs, 3, RULES, seed=3, batch_walls=1, workers=2)
    finally:
        ray.shutdown()
    assert np.array_equal(local["per_wall"], dist["per_wall"]) and local["faults"] == dist["faults"]
    assert dist["faults"][f"olympiad:{c_bot} --crash-after 3"]["crash"] == 12
    if shutil.which("pgrep"):
        assert not subprocess.run(["pgrep", "-f", str(c_bot)], capture_output=True, text=True).stdout.split()


def test_paired_with_a_protocol_bot(c_bot):
    from agents.evaluation.paired import paired

    res = paired(f"olympiad:{c_bot}", "greedy", ["greedy"] * 3, hands=8, seed=1, rules=RULES)
    assert res["hands"] == 8 and res["b"]["chips_per_hand"] > -1000


def test_tw16_bot_answers_within_its_budget():
    import time

    class Slow:
        name = "slow"

        def act(self, obs, mask):
            time.sleep(2)
            return np.flatnonzero(mask[0])[:1]

    bot = ProtocolBot(Slow(), RULES, budget=0.25, err=io.StringIO())
    hand = [110, 111, 120, 130, 140, 150, 160, 170, 180, 210, 220, 230, 240, 250, 260, 270, 410]
    for m in ["/start MJ 1", "/initGame East East 1 1 0", "/initCard " + " ".join(map(str, hand))]:
        bot.reply(m)
    t0 = time.monotonic()
    assert bot.reply("/ask throw") == "/throw 410" and time.monotonic() - t0 < 1  # Greedy's move, in time
    assert "took over" in bot.err.getvalue()
