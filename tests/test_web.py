"""``tw16 web`` without a browser: the websocket protocol through Starlette's TestClient (bad and
out-of-turn messages change nothing, two tabs stay consistent, a reconnect resumes the game), the
pages and logs it serves, the table view, the generated tile sprite, the duplicate mode's results."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402
from tools_loader import load_tool  # noqa: E402
from web_server import session_factory  # noqa: E402

from envs.engine.replay import replay  # noqa: E402
from tw16.cli.web.app import make_app  # noqa: E402
from tw16.cli.web.session import BadMessage, parse_message  # noqa: E402

tiles_svg = load_tool("tiles_svg")


@pytest.fixture
def client(tmp_path):
    with TestClient(make_app(session_factory(tmp_path, seed=5), tmp_path)) as c:
        yield c


def _play_until(ws, st, pred, limit=300):
    """Answer the person's decisions with the first non-discard choice or the last discard until pred(state)."""
    for _ in range(limit):
        if pred(st):
            return st
        if st["result"]:
            ws.send_json({"type": "next"})
        else:
            ch = st["choices"]
            pick = next((c for c in ch if c["verb"] in ("win", "pass")), ch[-1])
            ws.send_json({"type": "act", "action": pick["action"], "version": st["version"]})
        st = ws.receive_json()
        assert st["type"] == "state", st
    raise AssertionError("the condition was not reached")


def test_tile_sprite_is_generated():
    """static/tiles.svg is exactly what the generator draws (python tools/tiles_svg.py)."""
    text = tiles_svg.OUT.read_text(encoding="utf-8")
    assert text == tiles_svg.sprite()
    assert text.count("<symbol ") == 43 and 'id="t41"' in text and 'id="tback"' in text


def test_pages_and_meta(client):
    assert "tw16" in client.get("/").text and "replay.js" in client.get("/replay").text
    meta = client.get("/api/meta").json()
    assert meta["tiles"][4] == {"k": 4, "name": "5m", "zh": "五萬"} and meta["items"]["self_draw"] == "自摸"
    assert client.get("/static/tiles.svg").status_code == 200


@pytest.mark.parametrize(
    "text, why",
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "type act"),
        ('{"type": "fly"}', "type act"),
        ('{"type": "act"}', "integer action"),
        ('{"type": "act", "action": "5m", "version": 0}', "integer action"),
        ('{"type": "act", "action": true, "version": 0}', "integer action"),
        ("x" * 5000, "too long"),
    ],
)
def test_bad_messages_are_named(text, why):
    with pytest.raises(BadMessage, match=why):
        parse_message(text)


def test_bad_and_out_of_turn_messages_change_nothing(client):
    with client.websocket_connect("/ws") as ws:
        st = ws.receive_json()
        assert st["your_turn"], "seat 0 deals first: the person decides"
        before = json.dumps(st, sort_keys=True)
        hand = st["table"]["seats"][0]["hand"] + [st["table"]["seats"][0]["drawn"]]
        missing = next(k for k in range(34) if k not in hand)
        bad = [
            "garbage",
            json.dumps({"type": "act", "action": missing, "version": st["version"]}),
            json.dumps({"type": "act", "action": 9999, "version": st["version"]}),
            json.dumps({"type": "act", "action": st["choices"][0]["action"], "version": st["version"] + 7}),
            json.dumps({"type": "next"}),
        ]
        for text in bad:
            ws.send_text(text)
            err = ws.receive_json()
            assert err["type"] == "error" and err["message"], text
        ws.send_bytes(b"\x00\xff binary")
        assert "JSON text" in ws.receive_json()["message"]
        ws.send_json({"type": "state"})
        assert json.dumps(ws.receive_json(), sort_keys=True) == before
        assert "not legal" in _error_of(ws, {"type": "act", "action": missing, "version": st["version"]})


def _error_of(ws, msg) -> str:
    ws.send_json(msg)
    m = ws.receive_json()
    assert m["type"] == "error"
    return m["message"]


def test_a_page_of_another_site_cannot_open_the_game(client):
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"


def test_two_tabs_stay_consistent_and_a_stale_click_is_refused(client):
    with client.websocket_connect("/ws") as a:
        sa = a.receive_json()
        with client.websocket_connect(f"/ws?game={sa['game']}") as b:
            sb = b.receive_json()
            assert sb == sa
            pick = sa["choices"][-1]
            a.send_json({"type": "act", "action": pick["action"], "version": sa["version"]})
            na, nb = a.receive_json(), b.receive_json()
            assert na == nb and na["version"] == sa["version"] + 1
            # tab b clicks on the table it had before: refused, nothing played
            msg = _error_of(b, {"type": "act", "action": pick["action"], "version": sb["version"]})
            assert "older table" in msg
            b.send_json({"type": "state"})
            assert b.receive_json() == na


def test_reconnect_resumes_the_game(client):
    with client.websocket_connect("/ws") as ws:
        st = ws.receive_json()
        ws.send_json({"type": "act", "action": st["choices"][-1]["action"], "version": st["version"]})
        st = ws.receive_json()
    with client.websocket_connect(f"/ws?game={st['game']}") as ws:  # the tab was closed and opened again
        again = ws.receive_json()
    assert again == st
    with client.websocket_connect("/ws?game=unknown") as ws:  # an unknown game: a new one
        assert ws.receive_json()["game"] != st["game"]


def test_a_hand_to_its_result_log_and_replay(client, tmp_path):
    with client.websocket_connect("/ws") as ws:
        st = _play_until(ws, ws.receive_json(), lambda s: s["result"] is not None)
        r = st["result"]
        assert sum(r["deltas"]) == 0 and len(r["totals"]) == 4
        for w in r["winners"]:
            assert sum(i["tai"] for i in w["items"]) == w["tai"] and all(i["zh"] for i in w["items"])
        log = tmp_path / r["log"]
        replay(log.read_text(encoding="utf-8"))  # the saved log reproduces
        assert client.get("/api/logs").json()[0]["name"] == r["log"]
        assert client.get(f"/api/logs/{r['log']}").text == log.read_text(encoding="utf-8")
        assert client.get("/api/logs/..%2F..%2Fetc%2Fpasswd").status_code == 404
        assert client.get("/api/logs/nothing.jsonl").status_code == 404
        # the advice is for the person's own decisions only
        assert "not your turn" in _error_of(ws, {"type": "advice"})
        ws.send_json({"type": "next"})
        st = ws.receive_json()
        assert st["result"] is None and st["hand_no"] == 2


def test_agent_view_and_search(client):
    with client.websocket_connect("/ws") as ws:
        st = ws.receive_json()
        ws.send_json({"type": "advice"})
        adv = ws.receive_json()
        legal = {c["action"] for c in st["choices"]}
        assert adv["agent"] == "neural" and adv["top"] and {t["action"] for t in adv["top"]} <= legal
        ps = [t["p"] for t in adv["top"]]
        assert ps == sorted(ps, reverse=True) and 0 < sum(ps) <= 1 + 1e-6 and isinstance(adv["value"], float)
        ws.send_json({"type": "search"})
        s = ws.receive_json()
        assert s["type"] == "search" and s["rows"]
        for row in s["rows"]:
            assert row["ci95"][0] <= row["ev"] <= row["ci95"][1] and row["action"] in legal


def test_duplicate_mode_deals_the_published_walls_and_stores_results(tmp_path):
    from agents.evaluation.eval_seeds import load

    seeds = load("v1")
    results = tmp_path / "dup.jsonl"
    factory = session_factory(tmp_path, walls=("v1", seeds), results=results)
    with TestClient(make_app(factory, tmp_path)) as c, c.websocket_connect("/ws") as ws:
        st = ws.receive_json()
        assert st["duplicate"] == {"set": "v1", "index": 0, "wall": 0, "of": 20000}
        st = _play_until(ws, st, lambda s: s["result"] is not None)
        row = json.loads(results.read_text().splitlines()[0])
        assert row["index"] == 0 and row["seat"] == 0 and row["chips"] == st["result"]["deltas"][0]
        ws.send_json({"type": "next"})
        st = ws.receive_json()
        assert st["duplicate"]["index"] == 1 and st["table"]["me"] == 1  # the next seating of wall 0
    # a new session goes on where the results file ends
    game = factory()
    assert game.dup_index == 1 and game.game.seat == 1
    head = json.loads((tmp_path / row["log"]).read_text().splitlines()[0])
    assert head["seed"] == row["seed"] == _dealt_seed(int(seeds[0]))


def _dealt_seed(seed: int) -> int:
    """The seed duplicate play deals a wall from (a hand that ends in its deal is dealt again)."""
    from envs.engine.api import Engine
    from envs.engine.rng import redeal_seed
    from envs.rules import Rules

    eng = Engine(Rules(episode="hand"), 1)
    eng.reset(np.array([seed], np.uint64))
    while eng.terminated[0]:
        seed = redeal_seed(seed)
        eng.reset(np.array([seed], np.uint64))
    return seed


def test_person_beside_bots_on_the_same_walls(tmp_path, capsys):
    """A "person" who plays exactly Greedy's moves in duplicate mode: Greedy in the person's seat on the
    same walls scores the same on every hand (paired difference exactly 0); another bot does not."""
    from agents import make_agent
    from agents.evaluation.eval_seeds import load
    from agents.evaluation.human import human_league, load_results
    from envs.obs.planes_v0 import PlanesV0
    from tw16.cli.main import main

    results = tmp_path / "dup.jsonl"
    game = session_factory(tmp_path, walls=("v1", load("v1")), results=results, opponents=("defensive",))()
    me, enc = make_agent("greedy"), PlanesV0()
    for _ in range(6):
        while game.pending is None:
            eng = game.game.eng
            game.act(
                int(me.act(enc.encode(eng, seats=np.array([game.game.seat])), eng.legal_action_mask)[0]), game.version
            )
        game.next_hand()
    rows = load_results(results)
    assert [r["seat"] for r in rows] == [0, 1, 2, 3, 0, 1] and [r["wall"] for r in rows] == [0, 0, 0, 0, 1, 1]
    t = human_league(rows, ["greedy", "random"])
    assert t["bots"]["greedy"]["person_minus_bot"] == 0 and t["bots"]["greedy"]["diff_ci95"] == [0, 0]
    assert t["bots"]["greedy"]["chips_per_hand"] == t["person"]["chips_per_hand"]
    assert main(["eval", "greedy", "random", "greedy", "random", "--human", str(results)]) == 0
    assert "person - bot" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seat": 9}\n')
    assert main(["eval", "greedy", "random", "greedy", "random", "--human", str(bad)]) == 2


def _greedy_passing_wins(seeds):
    """Seat 0 plays Greedy but passes every win on a discard; yields (engine, seed) at each of its claim
    decisions after such a pass."""
    from agents import make_agent
    from envs.engine import actions as A
    from envs.engine import state as st
    from envs.engine.api import Engine
    from envs.obs.planes_v0 import PlanesV0
    from envs.rules import Rules

    g, enc = make_agent("greedy"), PlanesV0()
    for seed in seeds:
        eng = Engine(Rules(episode="hand"), 1)
        eng.reset(np.array([seed], np.uint64))
        while not eng.terminated[0]:
            mask, claim = eng.legal_action_mask[0], int(eng.phase[0]) == st.PH_CLAIM
            if int(eng.current_player[0]) == 0 and claim:
                yield eng, seed
            a = (
                A.PASS
                if int(eng.current_player[0]) == 0 and claim and mask[A.WIN]
                else int(g.act(enc.encode(eng), eng.legal_action_mask)[0])
            )
            eng.step(np.array([a]))


def test_refusals_explain_kuo_shui():
    """過水 in words: a tile that completes the hand, a win passed since, no win offered."""
    from envs.engine import actions as A
    from envs.tiles import kind_name
    from tw16.cli.web.view import refusals

    for eng, _seed in _greedy_passing_wins(range(250, 300)):  # seed 250 holds one (found by this search)
        mask = eng.legal_action_mask[0]
        notes = refusals(eng, 0)
        if mask[A.WIN]:
            assert not notes  # a win on offer: nothing held back
        elif eng.pass_win[0, 0] and notes:
            assert notes[0].startswith("過水") and kind_name(int(eng.claim_tile[0])) in notes[0]
            assert refusals(eng, 1) == []  # not seat 1's decision
            return
    pytest.fail("no 過水 position in seeds 250..299")


def test_a_whole_game_ends_with_the_standing(tmp_path):
    """episode="game": hands follow one another until the game's end, whose result says so; the next
    hand starts a new game."""
    from agents import make_agent
    from envs.obs.planes_v0 import PlanesV0

    game = session_factory(tmp_path, seed=2)()
    me, enc = make_agent("greedy"), PlanesV0()
    for _ in range(60):
        while game.pending is None:
            eng = game.game.eng
            game.act(int(me.act(enc.encode(eng, seats=np.array([0])), eng.legal_action_mask)[0]), game.version)
        if game.pending["game_over"]:
            break
        game.next_hand()
    r = game.pending
    assert r["game_over"] and game.hand_no >= 4 and sum(r["totals"]) == 0
    game.next_hand()
    assert game.game.games == 2
    assert game.pending is None or game.pending["table"] is None  # (or a hand of the new game ended in its deal)


def test_tw16_web_serves_and_refuses_bad_arguments(tmp_path, capsys):
    import subprocess
    import sys
    import time
    import urllib.request

    from web_server import free_port

    from tw16.cli.main import main

    for args, why in (
        (["--port", "0"], "--port"),
        (["--agent", "nobody"], "unknown agent"),
        (["--duplicate", "v9"], "unknown evaluation set"),
        (["--opponents", "greedy,greedy"], "one agent or three"),
    ):
        assert main(["web", "--log-dir", str(tmp_path), *args]) == 2
        assert why in capsys.readouterr().err
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tw16.cli.main",
            "web",
            "--port",
            str(port),
            "--agent",
            "greedy",
            "--log-dir",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    assert "tw16" in r.read().decode()
                    break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("tw16 web did not answer in 20 s")
    finally:
        proc.terminate()
        proc.wait(timeout=20)
