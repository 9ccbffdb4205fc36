"""A newcomer's path, as a new user runs it: their own agent in a file, `tw16 eval` on it with every
hand recorded, `tw16 replay` of one recorded hand; agents from installed packages (the
``tw16.policies`` entry points); the help listing every agent kind from the one table."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TW16 = [sys.executable, "-m", "tw16.cli.main"]

MY_AGENT = textwrap.dedent('''
    import numpy as np


    class Agent:
        """The last legal action of every row: a class with act(obs, mask), reset(seed) and a name."""

        name = "last-legal"

        def __init__(self, seed=0):
            self.reset(seed)

        def reset(self, seed=None):
            self.rng = np.random.default_rng(seed)

        def act(self, obs, mask):
            return np.array([np.flatnonzero(m)[-1] for m in mask])


    def bad_factory():
        return object()


    class Illegal(Agent):
        def act(self, obs, mask):
            return np.array([int(np.flatnonzero(~m.astype(bool))[0]) for m in mask])
''')


def _env(extra_path: Path | None = None) -> dict:
    env = dict(os.environ)
    paths = [str(ROOT)] + ([str(extra_path)] if extra_path else [])
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    return env


def _run(args, cwd, extra_path=None, timeout=300):
    return subprocess.run(
        TW16 + list(args), cwd=cwd, env=_env(extra_path), capture_output=True, text=True, timeout=timeout
    )


def test_my_agent_eval_with_logs_then_replay(tmp_path):
    (tmp_path / "my_agent.py").write_text(MY_AGENT)
    r = _run(
        ["eval", "py:my_agent:Agent", "greedy", "py:my_agent:Agent", "greedy", "--hands", "8", "--log-dir", "games/"],
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "last-legal" in r.stdout and "greedy" in r.stdout and "rating:" in r.stdout
    logs = sorted((tmp_path / "games").glob("*.jsonl"))
    assert [p.name for p in logs] == [f"w{w:05d}-r{r}.jsonl" for w in range(2) for r in range(4)]  # every hand
    assert not (tmp_path / "eval.png").exists()  # no plot unless asked
    r = _run(["replay", str(logs[5].relative_to(tmp_path)), "--html", "x.html"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "x.html").read_text().startswith("<!doctype html>")


def test_every_logged_hand_replays_exactly(tmp_path):
    """The logs of ``--log-dir`` re-run to the same lines (``envs.engine.replay.replay`` checks each)."""
    from envs.engine.replay import parse_log, replay
    from tw16.cli.main import main

    assert (
        main(
            [
                "eval",
                "greedy",
                "random",
                "defensive",
                "greedy",
                "--hands",
                "8",
                "--json",
                "--log-dir",
                str(tmp_path / "g"),
            ]
        )
        == 0
    )
    logs = sorted((tmp_path / "g").glob("*.jsonl"))
    assert len(logs) == 8
    for p in logs:
        lines = parse_log(p.read_bytes())
        assert lines[-1].get("result"), p.name  # each log is a whole hand, to its result
        replay(lines)


def test_replay_records_a_hand_by_seed(tmp_path, capsys):
    from envs.engine.replay import parse_log, replay
    from tw16.cli.main import main

    out = tmp_path / "s5.jsonl"
    assert main(["replay", "--seed", "5", "--agents", "greedy,random,defensive,greedy", "--out", str(out)]) == 0
    lines = parse_log(out.read_bytes())
    assert lines[0]["seed"] == 5 and lines[-1].get("result")
    replay(lines)
    assert (
        main(
            ["replay", "--seed", "5", "--agents", "greedy,random,defensive,greedy", "--out", str(tmp_path / "b.jsonl")]
        )
        == 0
    )
    assert (tmp_path / "b.jsonl").read_bytes() == out.read_bytes()  # a seed and the agents fix the hand
    capsys.readouterr()
    assert main(["replay", "--seed", "5", "--agents", "greedy"]) == 2
    assert "four agents" in capsys.readouterr().err


def test_play_log_replays(tmp_path):
    import io

    from envs.engine.replay import parse_log, replay
    from tw16.cli.play import play

    log = tmp_path / "me.jsonl"
    summary = play(opponents=("greedy",), seed=3, input=io.StringIO("5m\n" * 3), out=io.StringIO(), log=log)
    assert summary["logs"] == [str(log)]
    replay(parse_log(log.read_bytes()))


def test_user_agent_mistakes_are_named(tmp_path, monkeypatch, capsys):
    from tw16.cli.main import main

    (tmp_path / "my_agent.py").write_text(MY_AGENT)
    monkeypatch.chdir(tmp_path)
    for spec, want in (
        ("py:my_agent", "write py:MODULE:ATTR"),
        ("py:nowhere:A", "cannot import 'nowhere'"),
        ("py:my_agent:Nope", "has no 'Nope'"),
        ("py:my_agent:bad_factory", "has no act()"),
    ):
        assert main(["eval", spec, "greedy", "greedy", "greedy", "--hands", "8"]) == 2, spec
        err = capsys.readouterr().err
        assert want in err and "Traceback" not in err, err
    assert main(["eval", "py:my_agent:Illegal", "greedy", "greedy", "greedy", "--hands", "8", "--json"]) == 2
    assert "which is not legal there" in capsys.readouterr().err
    sys.modules.pop("my_agent", None)


def test_an_installed_package_registers_an_agent(tmp_path):
    """The ``tw16.policies`` entry-point group (docs/agents.md): a package names a function that
    registers its agents; `tw16 eval` then takes their names."""
    (tmp_path / "tw16_demo_plugin.py").write_text(
        textwrap.dedent("""
        from envs.policies import register_policy


        def register():
            from agents import RandomAgent

            def make(spec, seed):
                agent = RandomAgent(seed)
                agent.name = "demo"
                return agent

            register_policy("demo", make)
    """)
    )
    dist = tmp_path / "tw16_demo_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tw16-demo-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[tw16.policies]\ndemo = tw16_demo_plugin:register\n")
    r = _run(["eval", "demo", "greedy", "demo", "greedy", "--hands", "8"], tmp_path, extra_path=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "demo" in r.stdout


def test_help_lists_every_agent_kind_from_the_table(capsys):
    from agents import AGENT_KINDS
    from tw16.cli.main import build_parser

    for cmd in ("eval", "play", "replay"):
        with pytest.raises(SystemExit):
            build_parser().parse_args([cmd, "--help"])
        out = capsys.readouterr().out
        for kind in AGENT_KINDS:
            assert kind.usage in out and kind.help[:30] in out, (cmd, kind.name)


def test_version(capsys):
    from importlib.metadata import version

    from tw16.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.strip() == f"tw16 {version('tw16')}"


def test_readme_lists_every_subcommand():
    from tw16.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")  # argparse's subparsers action
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## The `tw16` command") : readme.index("## How strong the baselines are")]
    missing = [name for name in sub.choices if f"`tw16 {name}" not in table]
    assert not missing, f"README's command table lacks {missing}"
    assert "`tw16 --version`" in table
