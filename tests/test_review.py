"""``tw16 review``: the EVs on positions where the right answer is known, the summaries, the CLI
(text, JSON, the HTML page with the viewer inlined)."""

from __future__ import annotations

import json

import pytest

from agents import make_agent
from agents.evaluation.review import review_log
from envs.engine.replay import dumps, record
from envs.rules import Rules
from tw16.cli.main import main

SEATS = "ESWN"


def _games(n=40):
    for seed in range(n):
        yield seed, record(Rules(), seed)


def _decision(rv, event):
    return next(d for d in rv["decisions"] if d["event"] == event)


def _ev(d, name):
    return next(a["ev"] for a in d["top"] if a["name"] == name)


def _win_on_discard():
    """(seed, lines, j): line j is a win on a discard (the winner could have passed)."""
    for seed, lines in _games():
        for j, ev in enumerate(lines[1:], 1):
            if ev["action"] == "win" and ev.get("result", {}).get("win_by") == "discard":
                return seed, lines, j
    pytest.fail("no win on a discard in 40 greedy games")


def test_a_winning_tile_take_the_win():
    seed, lines, j = _win_on_discard()
    w = SEATS.index(lines[j]["seat"])
    delta = lines[j]["result"]["deltas"][w]
    rv = review_log(lines[: j + 1], make_agent("greedy"), w, k=2, top=3, mode="oracle", luck=False)
    d = _decision(rv, j - 1)
    assert d["taken"] == "win" and d["best"] == "win" and d["loss"] == 0 and d["match"]
    win = next(a for a in d["top"] if a["name"] == "win")
    assert win["ev"] == delta > 0 and win["ci95"] == [delta, delta]  # the hand's settlement, exactly
    assert _ev(d, "pass") < delta
    # the same position with the win passed: the review names the loss
    passed = record(Rules(), seed, [x["action"] for x in lines[1:j]] + ["pass"])
    rv = review_log(passed, make_agent("greedy"), w, k=2, top=3, mode="oracle", luck=False)
    d = _decision(rv, j - 1)
    assert d["taken"] == "pass" and d["best"] == "win" and not d["match"]
    assert d["loss"] == pytest.approx(delta - _ev(d, "pass")) and d["loss"] > 0


def _deal_in_to_open_hand():
    """(lines, j, seat, winner): line j discards the tile a ready seat with open melds wins on at line j + 1."""
    for _, lines in _games():
        melded = set()
        for j, ev in enumerate(lines[1:], 1):
            if ev.get("deal") or j == 1:
                melded = set()
            if ev.get("meld"):
                melded.add(ev["meld"].split()[0])
            nxt = lines[j + 1] if j + 1 < len(lines) else None
            if (
                ev["action"].startswith("discard")
                and nxt
                and nxt["action"] == "win"
                and nxt["seat"] in melded
                and nxt["result"]["win_by"] == "discard"
                and nxt["result"]["payer"] == ev["seat"]
            ):
                yield lines, j, SEATS.index(ev["seat"]), SEATS.index(nxt["seat"])


def test_a_tile_that_deals_in_to_a_ready_hand_with_open_melds():
    tried = 0
    for lines, j, seat, _winner in _deal_in_to_open_hand():
        tried += 1
        paid = lines[j + 1]["result"]["deltas"][seat]
        rv = review_log(lines[: j + 1], make_agent("greedy"), seat, k=2, top=8, mode="oracle", luck=False)
        d = _decision(rv, j - 1)
        taken = next(a for a in d["top"] if a["name"] == d["taken"])
        assert taken["ev"] == paid < 0  # the discard is won on at once: exactly what the hand cost
        if max(a["ev"] for a in d["top"]) > taken["ev"]:  # a candidate that does not deal in
            assert d["loss"] > 0 and d["best"] != d["taken"]
            return
    pytest.fail(f"no deal-in with a safer candidate among {tried} found")


def test_summaries_and_luck():
    lines = record(Rules(), 3)
    rv = review_log(lines, make_agent("neural"), 0, k=2, top=2, luck=True)
    o = rv["overall"]
    assert o["hands"] == 1 and o["decisions"] == len(rv["decisions"]) > 0
    assert 0 <= o["match_rate"] <= 1 and 0 <= o["bad_move_rate"] <= 1
    assert o["bad_move_rate"] == sum(d["p_taken"] < 0.05 for d in rv["decisions"]) / o["decisions"]
    assert o["chips_lost"] == pytest.approx(sum(d["loss"] for d in rv["decisions"])) and o["chips_lost"] >= 0
    assert o["chips"] == lines[-1]["result"]["deltas"][0] and isinstance(o["luck_adjusted_per_hand"], float)
    for d in rv["decisions"]:
        assert all(a["ci95"][0] <= a["ev"] <= a["ci95"][1] for a in d["top"])


def test_cli_text_json_html(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    log.write_text(dumps(record(Rules(), 3)), encoding="utf-8")
    page = tmp_path / "r.html"
    assert main(["review", str(log), "--seat", "1", "--k", "2", "--html", str(page)]) == 0
    out = capsys.readouterr().out
    assert "overall:" in out and "match rate" in out and "luck-adjusted" in out
    html = page.read_text(encoding="utf-8")
    assert "openReplay(" in html and 'id="t33"' in html and "</script>" in html
    assert page.stat().st_size < log.stat().st_size * 4 + 120_000  # the log, the viewer, the faces: no frames
    assert main(["review", str(log), "--seat", "1", "--k", "2", "--json"]) == 0
    rv = json.loads(capsys.readouterr().out)
    assert rv["seat"] == 1 and rv["overall"]["hands"] == 1


def test_cli_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    assert main(["review", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    log = tmp_path / "g.jsonl"
    log.write_text(dumps(record(Rules(), 3)), encoding="utf-8")
    assert main(["review", str(log), "--agent", "nobody"]) == 2
    assert main(["review", str(log), "--k", "0"]) == 2
