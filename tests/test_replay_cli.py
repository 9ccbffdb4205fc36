"""tw16 replay: text frames, the HTML page of SVG tables, refusal of logs that do not reproduce."""

from __future__ import annotations

import json

from envs.rules import Rules


def test_replay_cli_text_and_html(tmp_path, capsys):
    from envs.engine.replay import dumps, record
    from tw16.cli.main import main

    log = tmp_path / "hand.jsonl"
    log.write_text(dumps(record(Rules(), 4)))
    assert main(["replay", str(log)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("deal") and "discard" in text
    page = tmp_path / "hand.html"
    assert main(["replay", str(log), "--html", str(page)]) == 0
    html = page.read_text()
    assert html.count("<svg") == len(log.read_text().splitlines())


def test_replay_refuses_a_tampered_log(tmp_path, capsys):
    from envs.engine.replay import record
    from tw16.cli.main import main

    lines = record(Rules(), 4)
    lines[0]["seed"] = 5  # another wall: the recorded actions no longer fit
    log = tmp_path / "bad.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["replay", str(log)]) == 2
    assert "tw16 replay" in capsys.readouterr().err
    log.write_text("{not json\n")
    assert main(["replay", str(log)]) == 2
