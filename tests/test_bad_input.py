"""Bad input at every entry point (issues 19 and 27): each check names the problem, refuses before any state
changes, and the CLI answers a user mistake with one line and exit code 2. The fuzz suite
(tests/test_fuzz.py) throws generated input at the same entry points."""

from __future__ import annotations

import base64
import copy
import io
import json
import os
import pickle
import re
import shlex
import subprocess
import sys
import time
import tracemalloc
import warnings
import zipfile
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

from envs.engine.api import Engine
from envs.engine.scripted import scripted_wall
from envs.rules import Rules

JUNK = "1m 5m 9m 1p 5p 9p 1s 5s 9s E S W N C F P"


# -- the issue's table, row by row ------------------------------------------------------------------
def test_row1_wall_of_one_id_repeated():
    with pytest.raises(
        ValueError, match=r"walls is not a permutation .*duplicate ids 0 \(id 0 144 times\); missing ids 1..143"
    ):
        Engine(Rules(), 1).reset(0, walls=np.zeros(144, np.uint8))


def test_row2_wall_ids_past_143():
    with pytest.raises(ValueError, match=r"walls holds ids outside 0..143: 200..343 \(at positions 0..143\)"):
        Engine(Rules(), 1).reset(0, walls=np.arange(200, 344))


def test_row3_non_integer_actions():
    eng = Engine(Rules(), 2)
    eng.reset(0)
    with pytest.raises(
        TypeError, match=r"actions must be integers, got a float array of shape \(2,\) \(0\.5 at index 0"
    ):
        eng.step([0.5, 1.7])
    with pytest.raises(TypeError, match="actions must be integers"):  # integral floats too: no silent cast
        eng.step(np.array([1.0, 2.0]))


def test_row4_nan_actions_one_clear_error():
    eng = Engine(Rules(), 2)
    eng.reset(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning from a cast before the error
        with pytest.raises(TypeError, match="nan at index 0 is not an integer"):
            eng.step([np.nan, np.nan])


def test_row5_score_line_not_utf8(tmp_path, capsys):
    from tw16.cli.main import main

    case = {
        "id": "ok",
        "hand": "456m 789m 234p 567s N",
        "melds": ["chi 123m"],
        "win_tile": "N",
        "win_by": "discard",
        "discarder": "W",
        "seat": "S",
        "expected": {"hand_tai": 1},
    }
    p = tmp_path / "c.jsonl"
    p.write_bytes(
        json.dumps(case).encode() + b'\n{"id": "\xe4\xb8"}\n' + json.dumps(case | {"id": "ok2"}).encode() + b"\n"
    )
    assert main(["score", str(p), "--check"]) == 1
    cap = capsys.readouterr()
    out = [json.loads(x) for x in cap.out.splitlines()]
    assert [r["id"] for r in out] == ["ok", None, "ok2"]
    assert out[0]["hand_tai"] == 1 and out[2]["hand_tai"] == 1
    assert out[1]["error"].startswith("line 2: not valid UTF-8 (byte 0x")
    assert "checked 3 cases: 2 match, 1 mismatch" in cap.err and "Traceback" not in cap.err


def test_row6_eval_unknown_agent(capsys):
    from tw16.cli.main import main

    assert main(["eval", "foo", "greedy", "greedy", "greedy"]) == 2
    cap = capsys.readouterr()
    assert cap.err == (
        "tw16 eval: unknown agent 'foo' (known: random, greedy, defensive, neural[:PATH], "
        "search[:k=K,n=N,rollout=R,z=Z,base=B,w=W,ms=MS,leaf=L,m=M], guarded[:BASE], sb3+trusted:PATH, py:MODULE:ATTR, olympiad:COMMAND, or a name an installed "
        "package registers)\n"
    )
    assert cap.out == ""  # no progress bar: refused before any game


def test_eval_unknown_agent_with_ray_workers_is_refused_the_same_way(capsys):
    """With --workers the agents are built on the workers: the name is checked here, by the same rule."""
    from tw16.cli.main import main

    assert main(["eval", "foo", "greedy", "greedy", "greedy", "--workers", "2"]) == 2
    assert capsys.readouterr().err == (
        "tw16 eval: unknown agent 'foo' (known: random, greedy, defensive, neural[:PATH], "
        "search[:k=K,n=N,rollout=R,z=Z,base=B,w=W,ms=MS,leaf=L,m=M], guarded[:BASE], sb3+trusted:PATH, py:MODULE:ATTR, olympiad:COMMAND, or a name an "
        "installed package registers)\n"
    )


# -- issue 27: bounded input, one env contract, untrusted files, streams -------------------------------
ROOT = Path(__file__).resolve().parents[1]
HUGE = "1" * 10**6 + "m"  # a 10^6-character hand: one run of digits


def _cli(*args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, close=(), shell_tail="", timeout=120):
    """``python -m tw16.cli.main ARGS`` in a subprocess (descriptors in ``close`` closed first, ``shell_tail``
    appended to the command line run by bash, e.g. ``| head -1``); returns (rc, stdout, stderr)."""
    cmd = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "tw16.cli.main", *args])
    cmd += "".join(f" {fd}>&-" if fd else " <&-" for fd in close) + shell_tail
    r = subprocess.run(
        ["bash", "-c", cmd],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        timeout=timeout,
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )
    return r.returncode, (r.stdout or b"").decode(), r.stderr.decode()


def _one_line(err: str, prefix: str) -> None:
    assert err.startswith(prefix) and err.count("\n") == 1 and "Traceback" not in err, err


def _bounded(call, seconds=0.5, megabytes=8.0):
    """``call()``'s exception, raised within ``seconds`` and ``megabytes`` of new Python allocations (the
    10^6-character input is 1 MB: a few linear copies of it fit, a quadratic parse does not)."""
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        call()
    except Exception as e:  # noqa: BLE001 (the caller checks the class and message)
        err = e
    else:
        err = None
    elapsed = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    assert elapsed < seconds and peak < megabytes, (elapsed, peak)
    return err


def test_27_row3_notation_is_bounded():
    from envs.engine.actions import action_from_name
    from envs.scoring.cases import score_case
    from envs.tiles import NotationError, parse_hand, parse_meld, parse_tiles

    err = _bounded(lambda: parse_hand("1" * 5000 + "m"))  # quadratic before: 25 MB for this one
    assert isinstance(err, NotationError)
    from envs.tiles import MAX_NOTATION_CHARS

    msg = f"tile notation is 1000001 characters long, more than the {MAX_NOTATION_CHARS} allowed: '1111"
    for call in (
        lambda: parse_hand(HUGE),
        lambda: parse_tiles(HUGE),
        lambda: parse_meld("pon " + HUGE),
        lambda: action_from_name("discard " + HUGE),
    ):
        err = _bounded(call)
        assert isinstance(err, NotationError) and str(err).startswith(msg) and len(str(err)) < 300, err
    res = score_case({"id": "big", "hand": HUGE, "win_tile": "1m", "win_by": "self_draw", "seat": "E"})
    assert res["error"].startswith(msg) and len(res["error"]) < 300
    assert len(parse_tiles("1" * 4000 + "m")) == 4000  # a long run below the limit: parsed, in linear time
    # the same parser behind what a person types in tw16 play (a replay log's action names: the next test)
    from tw16.cli.play import play

    out = io.StringIO()
    res = play(Rules(), seat=0, opponents=["greedy"], seed=5, hands=1, input=["d " + HUGE, "q"], out=out)
    assert res["quit"] and "that line is 1000003 characters long" in out.getvalue()
    assert max(map(len, out.getvalue().splitlines())) < 300


def test_27_row3_replay_log_action_name(tmp_path, capsys):
    from envs.engine.replay import dumps
    from tw16.cli.main import main

    for run in ("1" * 5000 + "m", HUGE):  # (the short one first: quadratic, the long one took 4.7 GB)
        lines = _log()
        lines[3]["action"] = "discard " + run
        p = tmp_path / "log.jsonl"
        p.write_text(dumps(lines), encoding="utf-8")
        assert main(["replay", str(p)]) == 2
        err = capsys.readouterr().err
        _one_line(err, "tw16 replay: ")
        assert f"tile notation is {len(run)} characters long" in err and len(err) < 400


def _bad_profiles(tmp_path):
    """(path, the message's end) for files no profile may be read from, the quick ones first."""
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * (2 << 20))
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    return [
        (str(big), f"is {2 * 2**20 + 2} bytes, more than the 1048576 allowed"),  # (a comment: valid TOML)
        (str(tmp_path), "is a directory, not a regular file"),
        ("/dev/zero", "is a character device, not a regular file"),
        ("/dev/full", "is a character device"),
        (str(fifo), "is a FIFO or pipe, not a regular file"),
        ("/dev/stdin", "not a regular file"),
    ]


def test_27_row4_profile_files_only_regular_and_small(tmp_path, capsys):
    from envs.engine.replay import dumps
    from envs.scoring.cases import score_case
    from envs.scoring.profile import ProfileError, load_profile
    from tw16.cli.main import main

    case = {
        "id": "c",
        "hand": "456m 789m 234p 567s N",
        "melds": ["chi 123m"],
        "win_tile": "N",
        "win_by": "discard",
        "discarder": "W",
        "seat": "S",
    }
    log = _log()
    for path, end in _bad_profiles(tmp_path):
        want = f"profile file {path!r} {end}" if end.startswith("is") else end
        for call in (lambda: Rules.make(path), lambda: Rules(profile=path), lambda: load_profile(path)):
            err = _bounded(call, seconds=1.0)
            assert isinstance(err, ProfileError) and want in str(err), (path, err)
        assert want in score_case(case | {"profile": path})["error"]  # a case's profile
        lines = [dict(x) for x in log]
        lines[0]["rules"] = dict(lines[0]["rules"], profile=path)  # a replay log's rules.profile
        p = tmp_path / "log.jsonl"
        p.write_text(dumps(lines), encoding="utf-8")
        assert main(["replay", str(p)]) == 2
        err = capsys.readouterr().err
        _one_line(err, "tw16 replay: ")
        assert want in err
        cases = tmp_path / "cases.jsonl"
        cases.write_text(json.dumps(case) + "\n", encoding="utf-8")
        assert main(["score", str(cases), "--profile", path]) == 2  # --profile
        err = capsys.readouterr().err
        _one_line(err, "tw16 score: ")
        assert want in err
    from envs.scoring.profile import MAX_PROFILE_BYTES

    assert MAX_PROFILE_BYTES == 1 << 20


def test_27_row5_checkpoint_config_checked_before_building(tmp_path):
    import resource

    torch = pytest.importorskip("torch")
    from agents.efficiency import EFFICIENCY_VERSION
    from agents.neural import CheckpointError, NetConfig, PolicyValueNet, load_checkpoint, param_shapes
    from envs.engine.actions import ACTION_LAYOUT_VERSION
    from envs.obs.planes_v0 import OBS_VERSION

    for cfg in (NetConfig(), NetConfig(in_channels=79, width=8, blocks=3, hidden=17, efficiency=False)):
        assert param_shapes(cfg) == {k: tuple(v.shape) for k, v in PolicyValueNet(cfg).state_dict().items()}
    tiny = PolicyValueNet(NetConfig(width=2, blocks=0, hidden=2)).state_dict()
    path = tmp_path / "huge.pt"
    torch.save(
        {
            "net": tiny,
            "config": {"in_channels": 86, "width": 4096, "blocks": 256, "hidden": 65536, "efficiency": True},
            "obs_version": OBS_VERSION,
            "action_layout_version": ACTION_LAYOUT_VERSION,
            "efficiency_version": EFFICIENCY_VERSION,
        },
        path,
    )
    assert path.stat().st_size < 20_000
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    with pytest.raises(
        CheckpointError,
        match=r"its config \(width 4096, blocks 256, hidden 65536\) would build "
        r"35,441,860,685 parameters, more than the 20,000,000 allowed",
    ):
        load_checkpoint(path)
    assert time.perf_counter() - t0 < 2 and resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0 < 100_000  # KB
    ok = NetConfig(width=4, blocks=1, hidden=8)  # within the budget, but the weights are another net's
    torch.save(
        {
            "net": tiny,
            "config": asdict(ok),
            "obs_version": OBS_VERSION,
            "action_layout_version": ACTION_LAYOUT_VERSION,
            "efficiency_version": EFFICIENCY_VERSION,
        },
        path,
    )
    with pytest.raises(CheckpointError, match=r"weights do not fit its config: missing \['body.0.c1.weight'"):
        load_checkpoint(path)
    rc, out, err = _cli("eval", f"neural:{path}", "greedy", "greedy", "greedy", "--hands", "4", "--plot", "")
    assert rc == 2 and out == ""
    _one_line(err, f"tw16 eval: agent 'neural:{path}': checkpoint ")


def _evil_sb3_zip(path, target):
    """A zip shaped like an SB3 save whose ``data`` holds a pickle that creates ``target`` when loaded."""

    class Payload:
        def __reduce__(self):
            return (open, (str(target), "w"))

    blob = base64.b64encode(pickle.dumps(Payload())).decode()
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps({"policy_class": {":type:": "<class 'abc.ABCMeta'>", ":serialized:": blob}}))


def test_27_row6_sb3_zips_load_only_when_trusted(tmp_path, capsys):
    from agents import make_agent
    from tw16.cli.main import main

    zp, target = tmp_path / "evil.zip", tmp_path / "pwned"
    _evil_sb3_zip(zp, target)
    why = f"sb3:{zp} is refused: a Stable-Baselines3 zip is code, not data"
    with pytest.raises(ValueError, match=re.escape(why)):
        make_agent(f"sb3:{zp}")
    for extra in ([], ["--workers", "2"]):  # refused before any Ray worker would load it
        assert main(["eval", f"sb3:{zp}", "greedy", "greedy", "greedy", "--hands", "4", "--plot", "", *extra]) == 2
        err = capsys.readouterr().err
        _one_line(err, "tw16 eval: ")
        assert why in err and f"sb3+trusted:{zp}" in err
    assert not target.exists()  # the payload never ran
    pytest.importorskip("stable_baselines3")
    with pytest.raises(Exception):  # noqa: B017 (what SB3 raises on this fake model does not matter here)
        make_agent(f"sb3+trusted:{zp}")
    assert target.exists()  # trusted: SB3's loader unpickled it (which is why sb3:PATH is refused)


def _pz_play(env, pick, n=10**9):
    """(agent, observation bytes, reward, action) per step of a PettingZoo env until it ends (or ``n`` steps)."""
    trace = []
    while env.agents and len(trace) < n:
        o, r, term, trunc, _ = env.last()
        a = None if term or trunc else pick(o["action_mask"])
        trace.append((env.agent_selection, o["observation"].tobytes(), r, a))
        env.step(a)
    return trace


def _random_legal(seed):
    rng = np.random.default_rng(seed)
    return lambda mask: int(rng.choice(np.flatnonzero(mask)))


def _replaying(actions):
    it = iter(actions)
    return lambda mask: next(it)


@pytest.mark.parametrize("module,make", [("tw16_v0", "raw_env"), ("tw16_v0", "env"), ("tw16_v1", "env")])
def test_27_row7_pettingzoo_copies_play_on_independently(module, make):
    import importlib

    new = getattr(importlib.import_module(f"envs.{module}"), make)
    env = new()
    env.reset(seed=7)
    prefix = [t[3] for t in _pz_play(env, _random_legal(1), n=40)]
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    traces = [_pz_play(e, _random_legal(2 + i)) for i, e in enumerate([env, *copies])]
    assert len({tuple(t[3] for t in tr) for tr in traces}) == 3  # three different games from one state
    for tr in traces:  # each equals a fresh env replaying the same actions
        fresh = new()
        fresh.reset(seed=7)
        _pz_play(fresh, _replaying(prefix), n=len(prefix))
        assert _pz_play(fresh, _replaying([t[3] for t in tr])) == tr


def _gym_run(env, obs, picks, steps):
    """``steps`` steps of a Gymnasium env (single or vector; a single env stops at its episode's end)
    from observation ``obs``, actions ``picks(mask)``: (actions, trace of every output as bytes, last obs)."""
    actions, trace = [], []
    for _ in range(steps):
        a = picks(obs["action_mask"])
        obs, r, term, trunc, _ = env.step(a)
        actions.append(a)
        trace.append(
            tuple(np.asarray(x).tobytes() for x in (a, obs["observation"], obs["action_mask"], r, term, trunc))
        )
        if np.ndim(term) == 0 and (term or trunc):
            break
    return actions, trace, obs


def _legal_picks(seed):
    rng = np.random.default_rng(seed)

    def pick(mask):
        if mask.ndim == 1:
            return int(rng.choice(np.flatnonzero(mask)))
        return np.array([rng.choice(np.flatnonzero(m)) for m in mask])

    return pick


@pytest.mark.parametrize(
    "cls,kwargs,steps",
    [
        ("SingleAgentEnv", {"opponents": "greedy"}, 400),
        ("SingleAgentEnv", {"opponents": "random", "seat": None}, 400),
        ("SingleAgentVecEnv", {"num_envs": 3, "opponents": "random", "copy": True}, 60),
        ("SelfPlayVecEnv", {"num_envs": 2, "copy": True}, 60),
    ],
)
def test_27_row7_gymnasium_copies_play_on_independently(cls, kwargs, steps):
    from envs import gym_env

    def new():
        env = getattr(gym_env, cls)(**kwargs)
        return env, env.reset(seed=3)[0]

    env, obs = new()
    prefix, _, obs = _gym_run(env, obs, _legal_picks(1), 5)
    games = [(env, obs), copy.deepcopy((env, obs)), pickle.loads(pickle.dumps((env, obs)))]
    runs = [_gym_run(e, o, _legal_picks(2 + i), steps)[:2] for i, (e, o) in enumerate(games)]
    assert len({tuple(t[0] for t in trace) for _, trace in runs}) == 3  # three different games from one state
    for actions, trace in runs:  # each equals a fresh env replaying the same actions
        fresh, obs = new()
        _, _, obs = _gym_run(fresh, obs, _replaying(prefix), len(prefix))
        assert _gym_run(fresh, obs, _replaying(actions), len(actions))[1] == trace


def test_27_row14_raw_env_before_reset_and_after_the_end():
    from envs import tw16_v0, tw16_v1

    for mod in (tw16_v0, tw16_v1):
        raw = mod.raw_env()
        for call in (lambda: raw.step(0), lambda: raw.last(), lambda: raw.observe("player_0")):
            with pytest.raises(
                tw16_v0.EnvStateError,
                match=rf"{mod.ENV_VERSION}: no 'agent_selection' before reset\(\): call env.reset\(seed=...\) first",
            ) as e:
                call()
            assert isinstance(e.value, AttributeError) and isinstance(e.value, RuntimeError)
        raw.reset(seed=3)
        _pz_play(raw, _random_legal(0))
        for call in (lambda: raw.step(0), lambda: raw.step(None), lambda: raw.last()):
            with pytest.raises(
                tw16_v0.EnvStateError, match=r"the episode has ended \(every agent is done\): call env.reset\(\)"
            ):
                call()
        with pytest.raises(tw16_v0.EnvStateError, match=r"no agent 'player_9' \(agents: player_0, player_1"):
            raw.observe("player_9")


def test_27_row8_gymnasium_actions_checked_as_pettingzoo_does():
    from envs import tw16_v0
    from envs.gym_env import SingleAgentEnv, SingleAgentVecEnv
    from envs.validate import ActionSpaceError

    assert tw16_v0.ActionSpaceError is ActionSpaceError
    gym, pz = SingleAgentEnv(), tw16_v0.env()
    gym.reset(seed=0)
    pz.reset(seed=0)
    for bad in (0.7, "3", True, float("nan"), 99, -1, np.array([1])):
        msgs = []
        for env in (gym, pz):
            with pytest.raises(ActionSpaceError) as e:
                env.step(bad)
            msgs.append(str(e.value).replace("learner", "player_0"))
        assert msgs[0] == msgs[1] and msgs[0].startswith("action is not in action space: player_0 got "), msgs
    strict_gym, strict_pz = SingleAgentEnv(illegal_action="raise"), tw16_v0.raw_env()
    strict_gym.reset(seed=0)
    strict_pz.reset(seed=0)
    for bad in (0.7, "3", True, float("nan")):
        with pytest.raises(TypeError, match=r"learner: action must be an integer"):
            strict_gym.step(bad)
        with pytest.raises(TypeError, match=r"player_0: action must be an integer"):
            strict_pz.step(bad)
    vec = SingleAgentVecEnv(num_envs=2)
    vec.reset(seed=0)
    for bad, where in (
        ([0.7, 1], "game 0 got 0.7"),
        ([1, np.nan], "game 1 got nan"),
        ([True, False], "game 0 got True"),
        ([1, 80], "game 1 got 80"),
    ):
        with pytest.raises(ActionSpaceError, match=f"action is not in action space: {where}, need an integer in 0..75"):
            vec.step(bad)
    for opp, shown in (
        (lambda o, m: m.argmax(1) + 0.7, r"4\.7 at index 0"),
        (lambda o, m: np.full(len(m), np.nan), "nan at index 0"),
    ):
        v = SingleAgentVecEnv(num_envs=2, seat=1, opponents=opp)
        with pytest.raises(
            TypeError,
            match=rf"policy '<lambda>' \(seat slot 0, 1, 2\): actions must be integers, .*\({shown} is not an integer\)",
        ):
            v.reset(seed=0)
    v = SingleAgentVecEnv(num_envs=2, seat=1, opponents=lambda o, m: np.full(len(m), 99))
    with pytest.raises(ValueError, match=r"policy '<lambda>' .*: action 99 \(at row 0\) is not in 0..75"):
        v.reset(seed=0)


@pytest.mark.parametrize(
    "kwargs,exc,msg",
    [
        ({"illegal_reward": float("nan")}, ValueError, "illegal_reward must be finite, got nan"),
        ({"max_steps": 0}, ValueError, "max_steps must be None or a positive integer, got 0"),
        ({"max_steps": -1}, ValueError, "max_steps must be None or a positive integer, got -1"),
        ({"max_steps": 2.5}, TypeError, r"max_steps must be an integer, got 2.5 \(float\)"),
        ({"derived": "no"}, TypeError, "derived must be True or False, got 'no'"),
        (
            {"illegal_action": "ignore"},
            ValueError,
            r"illegal_action must be one of \('raise', 'terminate'\), got 'ignore'",
        ),
        ({"reward": "points"}, ValueError, "reward must be one of"),
    ],
)
def test_27_row9_env_options_one_check(kwargs, exc, msg):
    from envs import tw16_v0, tw16_v1
    from envs.gym_env import SelfPlayVecEnv, SingleAgentEnv, SingleAgentVecEnv

    makers = [tw16_v0.raw_env, tw16_v1.raw_env, SingleAgentEnv, SingleAgentVecEnv]
    if "illegal" not in next(iter(kwargs)):
        makers.append(SelfPlayVecEnv)
    for make in makers:
        with pytest.raises(exc, match=msg):
            make(**kwargs)


def test_27_row10_bad_profile_names_are_one_case_error(tmp_path):
    from envs.scoring.cases import score_case

    case = {
        "id": "ok",
        "hand": "456m 789m 234p 567s N",
        "melds": ["chi 123m"],
        "win_tile": "N",
        "win_by": "discard",
        "discarder": "W",
        "seat": "S",
        "expected": {"hand_tai": 1},
    }
    bad = {"sur": "\ud800", "long": "x" * 300, "long.toml": "x" * 300 + ".toml", "nul": "a\0b", "list": ["standard"]}
    for cid, profile in bad.items():
        assert "error" in score_case(case | {"id": cid, "profile": profile})  # never raises
    from envs.scoring.profile import ProfileError, load_profile

    ext = tmp_path / "ext.toml"
    ext.write_text(f'extends = "{"x" * 300}"\n', encoding="utf-8")  # the same name reached through `extends`
    with pytest.raises(ProfileError, match=r"unknown profile 'xxxx.*\(300 characters\)"):
        load_profile(str(ext))
    p = tmp_path / "cases.jsonl"
    p.write_text(
        "".join(
            json.dumps(c) + "\n"
            for c in [case, *({**case, "id": k, "profile": v} for k, v in bad.items()), case | {"id": "ok2"}]
        ),
        encoding="utf-8",
    )
    rc, out, err = _cli("score", str(p), "--check")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 1 and [r["id"] for r in rows] == ["ok", *bad, "ok2"] and "Traceback" not in err
    assert rows[0]["hand_tai"] == 1 and rows[-1]["hand_tai"] == 1
    assert rows[1]["error"] == "unknown profile '\\ud800' (not valid text: surrogates not allowed at position 0)"
    assert rows[2]["error"].startswith("unknown profile 'xxxxxxxx") and "(300 characters)" in rows[2]["error"]
    assert rows[3]["error"].endswith("(305 characters): File name too long")
    assert f"checked {len(rows)} cases: 2 match, {len(bad)} mismatch" in err
    lines = _log()
    lines[0]["rules"] = dict(lines[0]["rules"], profile="x" * 300)
    from envs.engine.replay import dumps

    log = tmp_path / "log.jsonl"
    log.write_text(dumps(lines), encoding="utf-8")
    rc, out, err = _cli("replay", str(log))
    assert rc == 2 and out == "" and "cannot write None" not in err
    _one_line(err, "tw16 replay: the log does not reproduce: unknown profile 'xxxx")


def test_27_row11_streams_every_answer_a_line(tmp_path):
    from envs.engine.replay import dumps

    case = {
        "id": "c",
        "hand": "456m 789m 234p 567s N",
        "melds": ["chi 123m"],
        "win_tile": "N",
        "win_by": "discard",
        "discarder": "W",
        "seat": "S",
    }
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(case) + "\n", encoding="utf-8")
    rc, _, err = _cli("score", "-", close=[0])
    assert rc == 2
    _one_line(err, "tw16 score: standard input is closed: give a cases file, or pipe cases into `tw16 score -`")
    with open("/dev/full", "wb") as full:
        rc, _, err = _cli("score", str(cases), stdout=full)
    assert rc == 1
    _one_line(err, "tw16 score: cannot write to standard output: No space left on device")
    rc, _, err = _cli("score", str(cases), close=[1])
    assert rc == 2
    _one_line(err, "tw16 score: standard output is closed: nothing could be printed")
    rc, _, err = _cli("play", "--seed", "1", "--opponents", "greedy", close=[0])
    assert rc == 2
    _one_line(err, "tw16 play: standard input is closed: tw16 play reads your moves from it")
    log = tmp_path / "log.jsonl"
    log.write_text(dumps(_log()), encoding="utf-8")
    rc, out, err = _cli("replay", str(log), shell_tail=" | head -2; exit ${PIPESTATUS[0]}")
    assert rc == 0 and out.splitlines()[0] == "deal" and len(out.splitlines()) == 2 and err == ""


# -- Engine ---------------------------------------------------------------------------------------
def test_walls_flowers_off_must_end_with_the_flowers():
    w = scripted_wall([JUNK] * 4, flowers=False)
    eng = Engine(Rules(flowers=False), 1)
    eng.reset(0, walls=w)  # the scripted walls put 136..143 last
    bad = w.copy()
    bad[[0, 140]] = bad[[140, 0]]
    with pytest.raises(ValueError, match=r"with flowers off .* found 14\d at positions 0$"):
        eng.reset(0, walls=bad)
    Engine(Rules(flowers=True), 1).reset(0, walls=bad)  # a permutation: fine with flowers on


def _refused_untouched(seed, call, exc, msg):
    """``call(eng)`` on a 2-game engine dealt from ``seed`` raises ``exc`` matching ``msg`` and leaves
    every state array as it was (refused before any game was touched)."""
    eng = Engine(Rules(), 2)
    eng.reset(seed)
    before = [a.copy() for a in eng.s]
    with pytest.raises(exc, match=msg):
        call(eng)
    for a, b in zip(before, eng.s):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "walls,exc,msg",
    [
        (np.arange(144, dtype=np.float64), TypeError, "walls must be integers"),
        (np.arange(143), ValueError, r"walls must have shape \(144,\), \(K, 144\) or \(2, K, 144\), got \(143,\)"),
        (np.zeros((3, 1, 144), np.int64), ValueError, r"got \(3, 1, 144\)"),
        (np.arange(144) - 1, ValueError, r"outside 0..143: -1 \(at positions 0\)"),
        ([[1, 2], [3]], ValueError, "walls must be an integer array"),
        ("0 1 2", TypeError, "walls must be integers"),
        (np.arange(144) % 256 > 3, TypeError, "walls must be integers"),
    ],
)
def test_bad_walls(walls, exc, msg):
    _refused_untouched(5, lambda eng: eng.reset(0, walls=walls), exc, msg)


def test_wall_errors_name_the_game_and_hand():
    good = scripted_wall([JUNK] * 4)
    two = np.stack([np.stack([good, good]), np.stack([good, good])])
    two[1, 1, 7] = two[1, 1, 8]
    with pytest.raises(ValueError, match=r"walls\[1, 1\] is not a permutation"):
        Engine(Rules(), 2).reset(0, walls=two)
    eng = Engine(Rules(), 2)
    eng.reset(0, walls=np.stack([good, good]))  # (K, 144): every game, K hands
    eng.reset(0, walls=good.tolist())  # a list of ints
    assert eng.s.script.shape == (2, 1, 144)


@pytest.mark.parametrize(
    "seeds,exc,msg",
    [
        (1.5, TypeError, "seeds must be an integer, got 1.5"),
        (None, TypeError, "seeds must be an integer, got None"),
        (True, TypeError, "seeds must be an integer"),
        ("7", TypeError, "seeds must be an integer"),
        (np.array([1.0, 2.0]), TypeError, "seeds must be integers"),
        (np.array([1, -2]), ValueError, r"seeds must be in 0..2\*\*64-1, got -2 \(games 1\)"),
        (np.array([1, 2, 3]), ValueError, r"shape \(2,\), got shape \(3,\)"),
    ],
)
def test_bad_seeds(seeds, exc, msg):
    with pytest.raises(exc, match=msg):
        Engine(Rules(), 2).reset(seeds)


def test_good_seeds_still_work():
    a, b = Engine(Rules(), 2), Engine(Rules(), 2)
    a.reset(np.array([5, 6], np.int64))
    b.reset(np.array([5, 6], np.uint64))
    np.testing.assert_array_equal(a.hands, b.hands)
    a.reset(np.int64(3))
    b.reset(3)
    np.testing.assert_array_equal(a.hands, b.hands)
    a.reset(-1)  # one integer of any size: per-game seeds are derived from it
    a.reset(2**80)


@pytest.mark.parametrize(
    "actions,exc,msg",
    [
        ([1, 2, 3], ValueError, r"actions must have shape \(2,\), got \(3,\)"),
        (np.zeros((2, 1), np.int64), ValueError, r"got \(2, 1\)"),
        ([-1, 0], ValueError, "actions must be in 0..75, got -1 in game 0"),
        ([0, 76], ValueError, "got 76 in game 1"),
        (np.array([True, False]), TypeError, "actions must be integers"),
        (["discard 1m", "pass"], TypeError, "actions must be integers"),
        (None, TypeError, "actions must be integers"),
    ],
)
def test_bad_actions_change_nothing(actions, exc, msg):
    _refused_untouched(0, lambda eng: eng.step(actions), exc, msg)


def test_one_integer_action_for_batch_one():
    eng = Engine(Rules(), 1)
    eng.reset(0)
    a = int(np.flatnonzero(eng.legal_action_mask[0])[0])
    eng.step(a)
    eng.step(np.int16(int(np.flatnonzero(eng.legal_action_mask[0])[0])))


@pytest.mark.parametrize(
    "kwargs,exc,msg",
    [
        ({"batch_size": 2.5}, TypeError, "batch_size must be an integer"),
        ({"batch_size": "3"}, TypeError, "batch_size must be an integer"),
        ({"batch_size": 0}, ValueError, "batch_size must be >= 1"),
        ({"rules": "standard"}, TypeError, "rules must be an envs.rules.Rules"),
        ({"auto_reset": "yes"}, TypeError, "auto_reset must be True or False"),
    ],
)
def test_bad_engine_arguments(kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        Engine(**kwargs)


# -- the PettingZoo env ----------------------------------------------------------------------------
def test_env_refuses_non_integer_actions():
    from envs import tw16_v0

    raw = tw16_v0.raw_env()
    raw.reset(seed=1)
    for bad in (0.5, float("nan"), True, "3", None, np.array([1])):
        with pytest.raises(TypeError, match="player_0: action must be an integer"):
            raw.step(bad)
    env = tw16_v0.env()
    env.reset(seed=1)
    for bad in (0.5, float("nan"), True, 99, -1):
        with pytest.raises(tw16_v0.ActionSpaceError, match="action is not in action space") as e:
            env.step(bad)
        assert isinstance(e.value, AssertionError) and isinstance(e.value, ValueError)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(np.int64(legal))  # numpy integers are actions


@pytest.mark.parametrize(
    "kwargs,exc,msg",
    [
        ({"max_steps": 0}, ValueError, "max_steps must be None or a positive integer"),
        ({"max_steps": 2.5}, TypeError, "max_steps must be an integer"),
        ({"illegal_reward": float("nan")}, ValueError, "illegal_reward must be finite"),
        ({"illegal_reward": "x"}, TypeError, "illegal_reward must be a number"),
        ({"derived": "yes"}, TypeError, "derived must be True or False"),
        ({"reward": ["tai"]}, ValueError, "reward must be one of"),
        ({"render_mode": ["ansi"]}, ValueError, "render_mode must be one of"),
        ({"illegal_action": ["raise"]}, ValueError, "illegal_action must be"),
        ({"bogus": 1}, ValueError, "unknown rule option 'bogus'"),
    ],
)
def test_env_bad_options(kwargs, exc, msg):
    from envs import tw16_v0

    with pytest.raises(exc, match=msg):
        tw16_v0.raw_env(**kwargs)


def test_env_reset_seed_and_options():
    from envs import tw16_v0

    env = tw16_v0.raw_env()
    with pytest.raises(TypeError, match="seed must be an integer, got 1.5"):
        env.reset(seed=1.5)
    with pytest.raises(TypeError, match="options must be None or a dict"):
        env.reset(seed=1, options=[1])
    env.reset(seed=-3)
    env.reset(seed=2**70, options={"anything": 1})  # PettingZoo's API test passes options


# -- score CLI details --------------------------------------------------------------------------------
def test_score_line_parser_edge_cases():
    from tw16.cli.score import SKIP, LineError, parse_line

    assert parse_line(b"  \n", 1) is SKIP and parse_line(b"# c\n", 1) is SKIP
    assert parse_line(b'\xef\xbb\xbf{"id": 1}\n', 1) == {"id": 1}  # a byte-order mark on line 1
    assert parse_line(b"null\n", 3) is None  # a JSON null is a (bad) case, not a blank line
    with pytest.raises(LineError, match="line 4: not valid JSON"):
        parse_line(b"[" * 100_000, 4)  # nesting past the recursion limit
    with pytest.raises(LineError, match="line 5: not valid JSON"):
        parse_line(b"1" * 5000, 5)  # past Python's integer digit limit
    with pytest.raises(LineError, match=r"line 2: not valid UTF-8 \(byte 0xc3 at column 3\)"):
        parse_line(b"ab\xc3(", 2)


def test_score_stdin_bytes_and_odd_strings(monkeypatch, capsys):
    from tw16.cli.main import main

    raw = b'{"id": "\\ud800"}\n\xff\n{"id": 2, "expected": 5}\n'
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    assert main(["score", "-", "--check"]) == 1
    cap = capsys.readouterr()
    out = [json.loads(x) for x in cap.out.splitlines()]
    assert out[0]["id"] == "\ud800" and "win_by" in out[0]["error"]  # a lone surrogate printed escaped
    assert out[1]["error"].startswith("line 2: not valid UTF-8")
    assert "`expected` must be an object" in cap.err


# -- replay logs -------------------------------------------------------------------------------------
def _log():
    from envs.engine.replay import record

    return record(Rules(), 4)


@pytest.mark.parametrize(
    "edit,msg",
    [
        (lambda L: L.__setitem__(0, [1, 2]), "line 1 must be a JSON object"),
        (lambda L: L[0].__setitem__("seed", 1.5), "line 1: seed must be an integer"),
        (lambda L: L[0].__setitem__("seed", -1), "line 1: seed must be an integer"),
        (lambda L: L[0].__setitem__("rules", "standard"), "line 1: rules must be an object"),
        (lambda L: L[0].pop("seed"), "line 1 must hold the rules and the seed"),
        (lambda L: L[3].__setitem__("action", 5), "line 4: action must be an action name"),
    ],
)
def test_replay_log_shape_errors(edit, msg):
    from envs.engine.replay import LogError, replay

    lines = _log()
    edit(lines)
    with pytest.raises(LogError, match=msg):
        replay(lines)


def test_replay_mismatch_is_an_assertion_and_a_value_error():
    from envs.engine.replay import ReplayMismatch, replay

    lines = _log()
    lines[2]["seat"] = "X"
    with pytest.raises(ReplayMismatch, match="replay differs at line 3") as e:
        replay(lines)
    assert isinstance(e.value, AssertionError) and isinstance(e.value, ValueError)


def test_replay_cli_bad_files(tmp_path, capsys):
    from envs.engine.replay import dumps
    from tw16.cli.main import main

    for blob, msg in [
        (b"\xff\xfe\n", "line 1 is not UTF-8 text"),
        (b"", "the log is empty"),
        (b"[1]\n", "line 1 must be a JSON object"),
        (dumps(_log()).encode().replace(b'"seed": 4', b'"seed": "4"'), "seed must be an integer"),
    ]:
        p = tmp_path / "log.jsonl"
        p.write_bytes(blob)
        assert main(["replay", str(p)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("tw16 replay: ") and msg in err and err.count("\n") == 1
    assert main(["replay", str(tmp_path)]) == 2  # a directory
    assert "cannot read" in capsys.readouterr().err


def test_action_names():
    from envs.engine.actions import action_from_name

    with pytest.raises(ValueError, match="flowers are not discarded or konged"):
        action_from_name("kong f1")  # was 39 + 34 = 73, the WIN action
    with pytest.raises(ValueError, match="must name one tile, not 3"):
        action_from_name("discard 123m")
    with pytest.raises(TypeError, match="an action name is a string"):
        action_from_name(5)
    assert action_from_name("kong 5m") == 39 + 4


# -- checkpoints -------------------------------------------------------------------------------------
@pytest.fixture
def small_checkpoint(tmp_path):
    torch = pytest.importorskip("torch")
    from agents.neural import NetConfig, PolicyValueNet, save_checkpoint

    path = tmp_path / "good.pt"
    save_checkpoint(path, PolicyValueNet(NetConfig(width=4, hidden=8)))
    return torch, path, torch.load(path, weights_only=True)


@pytest.mark.parametrize(
    "edit,msg",
    [
        (lambda ck: ck["config"].__setitem__("bogus", 1), r"unknown config field\(s\) \['bogus'\]"),
        (lambda ck: ck["config"].__setitem__("width", 10**9), "config width must be an integer in 1..4096"),
        (lambda ck: ck["config"].__setitem__("blocks", "2"), "config blocks must be an integer"),
        (lambda ck: ck["config"].__setitem__("efficiency", 1), "config efficiency must be true or false"),
        (lambda ck: ck.__setitem__("config", [1]), "'config' must be a dict"),
        (lambda ck: ck.__setitem__("net", {"x": 1}), "'net' must map parameter names to tensors"),
        (lambda ck: ck["net"].pop("pi.bias"), "weights do not fit its config"),
        (lambda ck: ck["config"].__setitem__("width", 8), "weights do not fit its config"),
    ],
)
def test_foreign_checkpoints(small_checkpoint, tmp_path, edit, msg):
    from agents.neural import CheckpointError, load_checkpoint

    torch, _, ck = small_checkpoint
    ck = {k: (dict(v) if isinstance(v, dict) else v) for k, v in ck.items()}
    edit(ck)
    path = tmp_path / "bad.pt"
    torch.save(ck, path)
    with pytest.raises(CheckpointError, match=msg):
        load_checkpoint(path)


def test_unreadable_checkpoints(small_checkpoint, tmp_path):
    from agents.neural import CheckpointError, load_checkpoint

    _, good, _ = small_checkpoint
    load_checkpoint(good)
    cut = tmp_path / "cut.pt"
    cut.write_bytes(good.read_bytes()[:500])
    with pytest.raises(CheckpointError, match="cannot be read"):
        load_checkpoint(cut)
    with pytest.raises(CheckpointError, match="is not a file"):
        load_checkpoint(tmp_path)
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"\x80\x04junk")
    with pytest.raises(CheckpointError, match="cannot be read"):
        load_checkpoint(junk)


def test_ppo_resume_from_a_bad_file(tmp_path):
    torch = pytest.importorskip("torch")
    from agents.neural import CheckpointError, PolicyValueNet
    from training.ppo import load_train_state

    net = PolicyValueNet()
    opt = torch.optim.Adam(net.parameters())
    bad = tmp_path / "state.pt"
    bad.write_bytes(b"nope")
    with pytest.raises(CheckpointError, match="cannot be read"):
        load_train_state(bad, net, opt)
    torch.save({"net": {}}, bad)
    with pytest.raises(CheckpointError, match="is not a train_state.pt"):
        load_train_state(bad, net, opt)


# -- agents ------------------------------------------------------------------------------------------
def test_agent_batches_are_checked():
    from agents import make_agent

    agent = make_agent("greedy")
    obs = np.zeros((2, 86, 34), np.float32)
    mask = np.zeros((2, 76), bool)
    mask[:, 74] = True
    with pytest.raises(ValueError, match=r"mask \(B, 76\)"):
        agent.act(obs, mask[:, :75])
    with pytest.raises(ValueError, match="NaN or infinite"):
        agent.act(np.full_like(obs, np.nan), mask)
    with pytest.raises(ValueError, match="mask must hold 0 or 1"):
        agent.act(obs, mask * 0.5)
    with pytest.raises(TypeError, match="numeric arrays"):
        agent.act(obs.astype(object), mask)
    assert (agent.act(obs, mask.astype(np.int8)) == 74).all()


def test_decoded_features_stay_in_range():
    from agents.features import decode

    rng = np.random.default_rng(0)
    f = decode((rng.standard_normal((8, 86, 34)) * 1e4).astype(np.float32))
    assert f.hand.min() >= 0 and f.hand.max() <= 4 and f.unseen.min() >= 0 and f.unseen.max() <= 4
    assert f.n_melds.min() >= 0 and f.n_melds.max() <= 5 and f.opp_melds.min() >= 0 and f.opp_melds.max() <= 5
    assert 0 <= f.tiles_left.min() and f.tiles_left.max() <= 256 and f.claim_tile.max() < 34


# -- train options -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv,msg",
    [
        (["--ppo.num-envs", "0"], "--ppo.num-envs must be an integer >= 1"),
        (["--ppo.gamma", "1.5"], "--ppo.gamma must be a number in [0, 1]"),
        (["--ppo.learning-rate", "nan"], "--ppo.learning-rate must be a number"),
        (["--bc.hands", "0"], "--bc.hands must be an integer >= 1"),
        (["--eval-against", "greedy"], "--eval-against needs three agents"),
        (["--ppo.opponents", "pool", "nope"], "unknown agent 'nope'"),
        (["--ppo.init-checkpoint", "/no/such.pt"], "--ppo.init-checkpoint '/no/such.pt': no such file"),
        (["--ppo.net.width", "0"], "--ppo.net.width must be an integer >= 1"),
        (["--seed", "-1"], "--seed must be an integer >= 0"),
    ],
)
def test_train_options_are_checked(argv, msg, capsys):
    from tw16.cli.main import main

    assert main(["train", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tw16 train: ") and msg in err.replace("\n", " ") and err.count("\n") == 1, err


def test_readable_view_arguments():
    from envs.obs.readable import readable, render_table

    eng = Engine(Rules(), 2)
    eng.reset(0)
    assert "p0" in render_table(readable(eng, 1, view=np.int64(2)))
    for b, view, exc in [
        (2, None, ValueError),
        (-1, None, ValueError),
        (0.5, None, TypeError),
        (0, 4, ValueError),
        (0, "E", TypeError),
    ]:
        with pytest.raises(exc):
            readable(eng, b, view)


# -- issue 27 (threads, sizes, seeds) ---------------------------------------------------------------
def test_issue27_row1_search_while_another_thread_steps():
    """search_batch (SearchAgent.act_engine) in one thread while others step the same engine: before
    the fix the GIL was released between the checks and the search, so a rollout ran on a game being
    changed ("a rollout reached a state the step refuses"; under ASan a write past a wall)."""
    import thread_stress

    out = thread_stress.chaos(3, games=32, ops=60, seed=27, mix=("search", "search", "step", "resample"))
    assert out["ops"] == 180


def test_issue27_row2_two_threads_stepping_one_engine():
    """Two threads step one Engine (batch 512), each reading the mask without the lock: a race makes
    some actions illegal by the time they are stepped, refused with a ValueError (the game untouched);
    no game is ever corrupted (before the fix: tile ids 35, counts of -1, 6 melds)."""
    import threading

    from game_check import check

    eng = Engine(Rules(), 512, auto_reset=True)
    eng.reset(1)
    refused = []

    def stepper(i):
        rng = np.random.default_rng(i)
        for _ in range(60):
            m = eng.legal_action_mask
            acts = np.array([rng.choice(np.flatnonzero(m[b])) for b in range(512)], np.int64)
            try:
                eng.step(acts)
            except ValueError as e:
                refused.append(str(e))

    ts = [threading.Thread(target=stepper, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert check(eng) == []
    assert all(r.startswith("illegal action") for r in refused), refused[:3]


def test_issue27_row12_eval_hands_beyond_memory(capsys):
    from tw16.cli.main import main

    assert main(["eval", "random", "random", "random", "random", "--hands", "10000000000"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tw16 eval: --hands 10000000000 (2500000000 walls) would take 763.7 GiB of memory; ")
    assert err.endswith(" is available\n") and err.count("\n") == 1


def test_issue27_row12_eval_says_how_many_hands_it_plays(capsys):
    from tw16.cli.main import main

    assert main(["eval", "random", "random", "random", "random", "--hands", "1", "--json", "--plot", ""]) == 0
    cap = capsys.readouterr()
    assert (
        "tw16 eval: --hands 1: playing 8 hands (each wall is dealt 4 times with the seats rotated, at least 2 walls)"
    ) in cap.err
    assert json.loads(cap.out)["hands"] == 8
    assert main(["eval", "random", "random", "random", "random", "--hands", "8", "--json", "--plot", ""]) == 0
    assert "playing" not in capsys.readouterr().err  # (a multiple of 4 from 8 up is played as asked)


def test_issue27_row12_engine_checks_memory_before_allocating(monkeypatch):
    import envs.validate as v

    with pytest.raises(ValueError, match=r"^batch_size 10000000000 would take 3\d\.\d TiB of memory; .* is available$"):
        Engine(Rules(), 10**10)
    monkeypatch.setattr(v, "available_memory", lambda: 1 << 30)
    from envs.engine.api import bytes_per_game

    gib = 10**7 * bytes_per_game() / 2**30  # the state's size, which grows with new rule fields (37.0 at 1b7e684)
    assert 36 < gib < 40
    with pytest.raises(
        ValueError, match=rf"^batch_size 10000000 would take {gib:.1f} GiB of memory; 1\.0 GiB is available$"
    ):
        Engine(Rules(), 10**7)


def test_issue27_row12_empty_walls_and_negative_games():
    eng = Engine(Rules(), 4)
    with pytest.raises(
        ValueError,
        match=r"walls must hold at least one wall: shape \(144,\), \(K, 144\) or \(4, K, 144\) "
        r"with K >= 1, got \(4, 0, 144\)",
    ):
        eng.reset(0, walls=np.zeros((4, 0, 144), np.uint8))
    with pytest.raises(ValueError, match=r"walls must hold at least one wall"):
        eng.reset(0, walls=np.zeros((0, 144), np.uint8))
    eng.reset(0)
    for g in (-1, 4):
        with pytest.raises(ValueError, match=rf"game = {g} is not a game of this engine \(0..3\)"):
            eng.last_hand(g)


@pytest.mark.parametrize("seed", [2**70, 2**63, -1])
def test_issue27_row14_agent_seed_out_of_range(seed):
    from agents import make_agent
    from agents.search import SearchAgent
    from envs.policies import make_policy

    msg = rf"^seed must be None or an integer in 0..2\*\*63-1, got {seed}$"
    for spec in ("neural", "random", "greedy", "defensive", "search"):
        with pytest.raises(ValueError, match=msg):
            make_agent(spec, seed=seed)
    with pytest.raises(ValueError, match=msg):
        make_policy("random", seed)
    with pytest.raises(ValueError, match=msg):
        SearchAgent(0).reset(seed)
    make_agent("neural", seed=2**63 - 1)  # the top of the range is a seed


def test_issue27_row14_an_agent_without_arguments_refuses_one():
    from agents import make_agent, unknown_agent
    from envs.policies import make_policy

    for spec in ("random:foo", "greedy:1", "defensive:x"):
        name, _, arg = spec.partition(":")
        msg = f"{spec!r}: {name} takes no argument (got {arg!r}); use {name!r}"
        with pytest.raises(ValueError) as e:
            make_agent(spec)
        assert str(e.value) == msg
        assert unknown_agent(spec) == msg
    with pytest.raises(ValueError, match=r"'random:foo': random takes no argument"):
        make_policy("random:foo")
