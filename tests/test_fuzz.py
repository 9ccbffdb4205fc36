"""Fuzzing every public entry point with wrong shapes, dtypes, values and bytes (issue 19).

Each test feeds hypothesis-generated input to one entry point and accepts exactly two outcomes: the
input is used (and then the result is sane), or it is refused with a ``ValueError`` / ``TypeError``
(the project's own error classes derive from ``ValueError``) carrying a message. Any other exception
fails the test, and hypothesis shrinks the input that caused it.

Small by default (CI); large on demand: ``TW16_FUZZ_EXAMPLES=3000 pytest tests/test_fuzz.py``
(docs/robustness.md).
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from game_check import check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from envs.engine.actions import N_ACTIONS, action_from_name
from envs.engine.api import Engine
from envs.rules import DEFAULTS, Rules
from envs.scoring.cases import CASE_FIELDS

EXAMPLES = int(os.environ.get("TW16_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=EXAMPLES <= 40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
CLEAN = (ValueError, TypeError)
DATA = Path(__file__).parent / "data"
TMP = Path(tempfile.mkdtemp(prefix="tw16_fuzz_"))
_names = itertools.count()


def refused(fn, *args, allowed=CLEAN, **kwargs):
    """Call ``fn``: ``(True, result)`` when it accepts, ``(False, error)`` when it refuses with an
    allowed exception that has a message; any other exception propagates (the test fails)."""
    try:
        return True, fn(*args, **kwargs)
    except allowed as e:
        assert str(e).strip(), f"{type(e).__name__} without a message"
        return False, e


def fresh_path(suffix: str) -> Path:
    return TMP / f"f{next(_names)}{suffix}"


# -- strategies --------------------------------------------------------------------------------
small_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)
any_dtype = st.one_of(
    hnp.scalar_dtypes(), st.just(np.dtype(object)), hnp.byte_string_dtypes(), hnp.unicode_string_dtypes()
)
any_array = hnp.arrays(any_dtype, small_shapes)
json_value = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=12),
    ),
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=8), kids, max_size=4)),
    max_leaves=12,
)
any_value = st.one_of(
    json_value,
    st.floats(),  # nan, inf
    st.binary(max_size=16),
    st.integers(),
    any_array,
    st.builds(object),
    st.sampled_from(
        [np.int64(3), np.uint64(2**64 - 1), np.float32(1.5), np.bool_(True), np.str_("x"), ..., (1, 2), {1, 2}]
    ),
)
ENGINE = Engine(Rules(), 2)
ENGINE_NOFLOWERS = Engine(Rules(flowers=False), 2)


def _fresh_engine(eng):
    eng.reset(0)
    return eng


# -- Engine.reset: seeds --------------------------------------------------------------------------
@FUZZ
@given(seeds=st.one_of(any_value, hnp.arrays(hnp.integer_dtypes() | hnp.unsigned_integer_dtypes(), st.just((2,)))))
def test_engine_reset_seeds(seeds):
    ok, _ = refused(ENGINE.reset, seeds)
    if ok:
        assert check(ENGINE) == []


# -- Engine.reset: scripted walls ------------------------------------------------------------------
def _mutate_wall(base: np.ndarray, kind: int, i: int, j: int, v: int):
    w = base.copy()
    if kind == 0:  # swap two entries: still a permutation
        w[[i, j]] = w[[j, i]]
        return w
    if kind == 1:  # one id repeated
        w[i] = w[j]
        return w
    if kind == 2:  # one id out of range
        w = w.astype(np.int64)
        w[i] = v
        return w
    if kind == 3:
        return w.astype(np.float64) + (0.5 if v % 2 else 0.0)
    if kind == 4:
        return w[: i % 144]
    if kind == 5:
        return np.stack([w, w])[None].repeat(2 if v % 2 else 3, axis=0)
    if kind == 6:
        return w.astype(np.int8)  # ids past 127 wrap negative
    return w.tolist()


walls_strategy = st.one_of(
    st.builds(
        _mutate_wall,
        st.permutations(range(144)).map(lambda p: np.array(p, np.int64)),
        st.integers(0, 7),
        st.integers(0, 143),
        st.integers(0, 143),
        st.integers(-400, 700),
    ),
    any_value,
    hnp.arrays(
        st.sampled_from([np.int16, np.int32, np.int64]),
        st.sampled_from([(144,), (1, 144), (2, 1, 144), (2, 2, 144), (3, 144)]),
        elements=st.integers(-5, 150),
    ),
)


@FUZZ
@given(walls=walls_strategy, flowers=st.booleans())
def test_engine_reset_walls(walls, flowers):
    eng = ENGINE if flowers else ENGINE_NOFLOWERS
    ok, _ = refused(eng.reset, 0, walls=walls)
    if ok and walls is not None:  # an accepted wall deals a legal game: every tile accounted for, then plays on
        w = np.asarray(walls)
        assert sorted(w.reshape(-1, 144)[0].tolist()) == list(range(144))
        assert check(eng) == []
        rng = np.random.default_rng(0)
        for _ in range(30):
            eng.step(np.array([rng.choice(np.flatnonzero(m)) for m in eng.legal_action_mask]))
        assert check(eng) == []


def test_the_issue_walls_are_refused_by_name():
    with pytest.raises(ValueError, match="duplicate ids 0 .*144 times.*missing ids 1..143"):
        Engine(Rules(), 1).reset(0, walls=np.zeros(144, np.uint8))
    with pytest.raises(ValueError, match="outside 0..143: 200..343"):
        Engine(Rules(), 1).reset(0, walls=np.arange(200, 344))


# -- Engine.step ------------------------------------------------------------------------------------
step_shapes = st.sampled_from([(), (2,), (1,), (2, 1), (3,)])
actions_strategy = st.one_of(
    any_value,
    hnp.arrays(
        st.sampled_from([np.int8, np.int16, np.int64, np.uint8, np.uint64]), step_shapes, elements=st.integers(0, 80)
    ),
    hnp.arrays(hnp.floating_dtypes(), step_shapes),
    st.lists(st.integers(-3, 80) | st.floats(), min_size=2, max_size=2),
)


@FUZZ
@given(actions=actions_strategy)
def test_engine_step(actions):
    eng = _fresh_engine(ENGINE)
    before = [a.copy() for a in eng.s]
    mask = eng.s.mask.copy()
    ok, _ = refused(eng.step, actions)
    if ok:  # only integer actions of shape (B,), each legal for its game, are taken
        a = np.asarray(actions)
        assert a.dtype.kind in "iu" and a.shape == (2,)
        assert mask[np.arange(2), a].all()
        assert check(eng) == []
    else:  # a refused step changes nothing
        for x, y in zip(before, eng.s):
            np.testing.assert_array_equal(x, y)


def test_refused_engine_inputs_of_the_issue():
    import warnings

    eng = _fresh_engine(ENGINE)
    with pytest.raises(TypeError, match=r"actions must be integers.*0\.5 at index 0 is not an integer"):
        eng.step([0.5, 1.7])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # one clear error, no RuntimeWarning from a cast first
        with pytest.raises(TypeError, match="actions must be integers.*nan at index 0"):
            eng.step([np.nan, np.nan])


# -- the PettingZoo env ----------------------------------------------------------------------------
@FUZZ
@given(action=any_value | st.integers(-5, 100), seed=any_value | st.integers(), options=any_value | st.none())
def test_pettingzoo_env(action, seed, options):
    from envs import tw16_v0

    for env in (tw16_v0.raw_env(), tw16_v0.env()):
        ok, _ = refused(env.reset, seed=seed, options=options)
        if not ok:
            env.reset(seed=1)
        refused(env.step, action)  # raw_env raises for an illegal action; env() ends the episode


@FUZZ
@given(
    kwargs=st.dictionaries(
        st.sampled_from(
            [
                "reward",
                "derived",
                "max_steps",
                "illegal_action",
                "illegal_reward",
                "render_mode",
                "profile",
                "multi_win",
                "stakes",
                "bogus",
            ]
        ),
        any_value,
        max_size=3,
    )
)
def test_pettingzoo_env_options(kwargs):
    from envs import tw16_v0

    ok, env = refused(tw16_v0.raw_env, **kwargs)
    if ok:
        env.reset(seed=0)


# -- the Gymnasium envs: the PettingZoo env's checks, the same function (issue 27 rows 8, 9) ------------
@FUZZ
@given(action=any_value | st.integers(-5, 100))
def test_gymnasium_and_pettingzoo_refuse_the_same_actions(action):
    from envs import tw16_v0
    from envs.gym_env import SingleAgentEnv
    from envs.validate import ActionSpaceError

    gym, pz = SingleAgentEnv(opponents="random"), tw16_v0.env()
    gym.reset(seed=1)
    pz.reset(seed=1)
    gym_ok, gym_err = refused(gym.step, action)
    pz_ok, pz_err = refused(pz.step, action)
    # an integer in 0..75 is an action for both (legal or not: an illegal one ends the episode in both)
    assert gym_ok == pz_ok, (gym_err, pz_err)
    if not gym_ok:
        assert type(gym_err) is type(pz_err) is ActionSpaceError
        assert str(gym_err).replace("learner", "player_0") == str(pz_err)


@FUZZ
@given(
    kwargs=st.dictionaries(
        st.sampled_from(
            [
                "reward",
                "derived",
                "max_steps",
                "illegal_action",
                "illegal_reward",
                "profile",
                "multi_win",
                "stakes",
                "bogus",
            ]
        ),
        any_value,
        max_size=3,
    )
)
def test_gymnasium_env_options_as_pettingzoo(kwargs):
    from envs import tw16_v0
    from envs.gym_env import SingleAgentVecEnv

    pz_ok, pz_err = refused(tw16_v0.raw_env, **kwargs)
    gym_ok, gym_err = refused(SingleAgentVecEnv, num_envs=2, opponents="random", **kwargs)
    assert pz_ok == gym_ok, (pz_err, gym_err)
    if not gym_ok:
        assert type(pz_err) is type(gym_err) and str(pz_err) == str(gym_err)
    else:
        gym_err.reset(seed=0)


# -- the score CLI: line parser and score_case ------------------------------------------------------
STANDARD_CASES = [
    json.loads(x) for x in (DATA / "standard.jsonl").read_text(encoding="utf-8").splitlines()[:40] if x.strip()
]


@FUZZ
@given(
    raw=st.one_of(
        st.binary(max_size=200),
        st.sampled_from(STANDARD_CASES).map(lambda c: json.dumps(c).encode()),
        st.tuples(st.sampled_from(STANDARD_CASES), st.binary(max_size=4), st.integers(0, 400)).map(
            lambda t: (lambda b: b[: t[2]] + t[1] + b[t[2] :])(json.dumps(t[0], ensure_ascii=False).encode())
        ),
    ),
    lineno=st.integers(1, 3),
)
def test_score_line_parser(raw, lineno):
    from envs.scoring.cases import score_case
    from tw16.cli.score import SKIP, LineError, parse_line

    ok, case = refused(parse_line, raw, lineno, allowed=LineError)
    if ok and case is not SKIP:
        r = score_case(case)  # never raises: a bad case is an {"id", "error"} result
        assert isinstance(r, dict) and ("error" in r or "hand_tai" in r)
        json.dumps(r)


def _mutated_case(case: dict, key: str, value):
    c = dict(case)
    if value is ...:
        c.pop(key, None)
    else:
        c[key] = value
    return c


case_strategy = st.one_of(
    json_value,
    st.builds(
        _mutated_case,
        st.sampled_from(STANDARD_CASES),
        st.sampled_from(sorted(CASE_FIELDS) + ["zzz"]),
        json_value | st.just(...),
    ),
)


@FUZZ
@given(case=case_strategy, profile=st.sampled_from([None, "standard", "strict16", "casual", "hongkong"]))
def test_score_case_never_raises(case, profile):
    from envs.scoring.cases import check_result, score_case

    r = score_case(case, profile)
    assert isinstance(r, dict) and ("error" in r or "hand_tai" in r)
    if "error" in r:
        assert isinstance(r["error"], str) and r["error"]
    json.dumps(r)
    check_result(r, case.get("expected") if isinstance(case, dict) else None)


def test_score_cli_non_utf8_line_is_one_error(tmp_path, capsys):
    from tw16.cli.main import main

    good = [json.dumps(c) for c in STANDARD_CASES[:3]]
    p = tmp_path / "mixed.jsonl"
    p.write_bytes("\n".join(good[:2]).encode() + b"\n\xff\xfe\x80 not text\n" + good[2].encode() + b"\n")
    assert main(["score", str(p)]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["id"] for r in out] == [STANDARD_CASES[0]["id"], STANDARD_CASES[1]["id"], None, STANDARD_CASES[2]["id"]]
    assert out[2]["error"] == "line 3: not valid UTF-8 (byte 0xff at column 1)"
    assert all("hand_tai" in r or "error" in r for r in out)


# -- rules and profiles ----------------------------------------------------------------------------
@FUZZ
@given(
    d=st.one_of(
        json_value,
        st.dictionaries(
            st.sampled_from(sorted(DEFAULTS) + ["profile", "bogus"]),
            json_value | st.sampled_from([True, False, 0, 3, "none", "game", "30/10"]),
            max_size=4,
        ),
    )
)
def test_rules_from_dict(d):
    ok, rules = refused(Rules.from_dict, d)
    if ok:
        assert Rules.from_dict(rules.to_dict()) == rules
        rules.as_array()


PROFILE_TEXT = (Path(__file__).parent.parent / "envs" / "scoring" / "profiles" / "standard.toml").read_text(
    encoding="utf-8"
)
PROFILE_LINES = PROFILE_TEXT.splitlines()
TOML_SNIPPETS = [
    "tai = -1",
    "tai = 1e9",
    'tai = "x"',
    'replaces = ["nope"]',
    "[items.nope]",
    'extends = "standard"',
    'extends = "casual"',
    'remove = ["self_draw"]',
    "[rules]",
    "multi_win = 3",
    "[options]",
    'shapes = ["eight_pairs", "x"]',
    'reduced = {tai = 1, when = ["self_draw"]}',
    "hongkong = true",
    "name = 5",
    "[[items]]",
    "= =",
    "\x00",
    'extends = "/dev/null"',
    "declare_ready = true",
]


@FUZZ
@given(
    edits=st.lists(
        st.tuples(st.integers(0, len(PROFILE_LINES)), st.sampled_from(TOML_SNIPPETS) | st.text(max_size=20)), max_size=4
    ),
    junk=st.binary(max_size=8),
    use_junk=st.booleans(),
)
def test_profile_files(edits, junk, use_junk):
    from envs.scoring.cases import score_case
    from envs.scoring.profile import load_profile

    lines = list(PROFILE_LINES)
    for i, text in edits:
        lines[min(i, len(lines) - 1)] = text
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    if use_junk:
        data = junk + data
    path = fresh_path(".toml")
    path.write_bytes(data)
    ok, _ = refused(load_profile, str(path))
    if ok:  # a profile that loads must score (or refuse) a case without raising
        ok2, _ = refused(Rules, profile=str(path))
        if ok2:
            r = score_case(STANDARD_CASES[0], str(path))
            assert "error" in r or "hand_tai" in r


# -- notation and action names ---------------------------------------------------------------------
@FUZZ
@given(text=st.text(alphabet="0123456789mpsESWNCFPf kongdiscarhwby-", max_size=16) | st.text(max_size=12) | any_value)
def test_notation_and_action_names(text):
    from envs.tiles import parse_tiles

    ok, a = refused(action_from_name, text)
    if ok:
        assert 0 <= a < N_ACTIONS
    if isinstance(text, str):
        ok, ks = refused(parse_tiles, text)
        if ok:
            assert all(0 <= k < 42 for k in ks)


# -- hand analysis API and the agents' act ----------------------------------------------------------
@FUZZ
@given(
    hand=st.text(alphabet="0123456789mpsESWNCFP f", max_size=24)
    | any_value
    | hnp.arrays(
        st.sampled_from([np.int8, np.int64, np.float64]),
        st.sampled_from([(34,), (33,), (2, 34)]),
        elements=st.integers(-2, 6),
    )
    | hnp.arrays(np.bool_, st.sampled_from([(34,), (2, 34)])),
    melds=st.lists(
        st.sampled_from(["pon EEE", "chi 123m", "kong 5555s", "chi 135m", "pon f1", "x"]) | any_value, max_size=6
    ),
    n_melds=st.none() | st.integers(-1, 7) | any_value,
)
def test_hand_api(hand, melds, n_melds):
    from envs.hand.api import decompose, discards, is_complete_hand, shanten_of, waits

    for fn in (is_complete_hand, shanten_of, waits, decompose, discards):
        refused(fn, hand, n_melds=n_melds, melds=melds)


@pytest.fixture(scope="module")
def agents_under_test():
    from agents import make_agent

    return [make_agent(s) for s in ("random", "greedy", "defensive")]


OBS_SHAPES = st.sampled_from([(2, 86, 34), (2, 79, 34), (86, 34), (2, 5, 34), (2, 86, 33)])


@FUZZ
@given(
    obs=st.one_of(
        hnp.arrays(st.sampled_from([np.float32, np.float64]), OBS_SHAPES, elements=st.floats(width=32)),
        hnp.arrays(np.int8, OBS_SHAPES, elements=st.integers(-5, 5)),
        any_value,
    ),
    mask=st.one_of(
        hnp.arrays(
            st.sampled_from([np.bool_, np.int8, np.float32]),
            st.sampled_from([(2, 76), (76,), (2, 75), (1, 76)]),
            elements=st.integers(0, 1),
        ),
        any_value,
    ),
)
def test_agents_act(agents_under_test, obs, mask):
    """Garbage observations are refused or acted on legally: the compiled kernels never see a count
    they would index out of bounds with (agents.features clamps what it decodes)."""
    for agent in agents_under_test:
        ok, a = refused(agent.act, obs, mask)
        if ok:
            m = np.asarray(mask).reshape(-1, 76).astype(bool)
            assert a.shape == (m.shape[0],) and m[np.arange(m.shape[0]), a].all()


# -- replay logs -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def a_log():
    from envs.engine.replay import record

    return record(Rules(), 4)


def _mutated_log(log, i: int, key: str, value):
    lines = json.loads(json.dumps(log))
    line = lines[i % len(lines)]
    if value is ...:
        line.pop(key, None)
    else:
        line[key] = value
    return lines


@FUZZ
@given(
    i=st.integers(0, 200),
    key=st.sampled_from(["rules", "seed", "action", "action_layout", "i", "drew", "result", "zzz"]),
    value=json_value | st.just(...) | st.sampled_from(["discard 5m", "pass", "kong f1", "chi low", 2**64, -1]),
)
def test_replay_mutated_logs(a_log, i, key, value):
    from envs.engine.replay import replay

    refused(replay, _mutated_log(a_log, i, key, value))


@FUZZ
@given(data=st.binary(max_size=300), cut=st.integers(0, 4000), insert=st.binary(max_size=6))
def test_replay_log_bytes(a_log, data, cut, insert):
    from envs.engine.replay import dumps
    from tw16.cli.replay import ReplayError, frames, load_log

    text = dumps(a_log).encode()
    for blob in (data, text[:cut] + insert + text[cut:]):
        path = fresh_path(".jsonl")
        path.write_bytes(blob)
        ok, lines = refused(load_log, str(path), allowed=ReplayError)
        if ok:
            refused(lambda: list(frames(lines)), allowed=ReplayError)


# -- checkpoints -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def a_checkpoint():
    torch = pytest.importorskip("torch")
    from agents.neural import NetConfig, PolicyValueNet, save_checkpoint

    path = TMP / "good.pt"
    save_checkpoint(path, PolicyValueNet(NetConfig(width=4, hidden=8)))
    return torch.load(path, weights_only=True)


def _mutated_checkpoint(ck, what: int, key: str, value):
    import torch

    ck = {k: (dict(v) if isinstance(v, dict) else v) for k, v in ck.items()}
    if what == 0:
        ck["config"][key] = value
    elif what == 1:
        ck[key] = value
    elif what == 2:  # a weight removed, renamed or reshaped
        name = sorted(ck["net"])[sum(map(ord, key)) % len(ck["net"])]
        t = ck["net"].pop(name)
        if isinstance(value, int) and not isinstance(value, bool):
            ck["net"][name] = torch.zeros((abs(value) % 5 + 1,) + tuple(t.shape[1:]))
        elif isinstance(value, str):
            ck["net"][value or "x"] = t
    else:
        ck = value
    return ck


@FUZZ
@given(
    what=st.integers(0, 3),
    key=st.sampled_from(
        ["in_channels", "width", "blocks", "hidden", "efficiency", "net", "config", "obs_version", "bogus"]
    ),
    value=json_value,
    junk=st.binary(max_size=64),
)
def test_checkpoint_loading(a_checkpoint, what, key, value, junk):
    import torch

    from agents.neural import CheckpointError, load_checkpoint

    path = fresh_path(".pt")
    ok, _ = refused(torch.save, _mutated_checkpoint(a_checkpoint, what, key, value), path, allowed=Exception)
    if ok:
        refused(load_checkpoint, path, allowed=CheckpointError)
    path.write_bytes(junk)
    ok, _ = refused(load_checkpoint, path, allowed=CheckpointError)
    assert not ok


# -- the CLI: user mistakes are one line and exit 2 -----------------------------------------------
CLI_MISTAKES = [
    ["eval", "foo", "greedy", "greedy", "greedy"],
    ["eval", "neural:/no/such.pt", "greedy", "greedy", "greedy"],
    ["eval", "random", "random", "random", "random", "--hands", "0"],
    ["eval", "random", "random", "random", "random", "--rules", "[1]"],
    ["eval", "random", "random", "random", "random", "--rules", "{oops"],
    ["eval", "random", "random", "random", "random", "--profile", "nope"],
    ["eval", "random", "random", "random", "random", "--plot", "x.txt"],
    ["eval", "random", "random", "random", "random", "--batch-walls", "0"],
    ["score", "/no/such/file.jsonl"],
    ["score", "-", "--profile", "nope"],
    ["play", "--hands", "0"],
    ["play", "--opponents", "foo"],
    ["play", "--rules", '{"multi_win": 3}'],
    ["replay", "/no/such/log.jsonl"],
    ["bench", "soak"],
    ["bench", "soak", "--hands", "-3"],
    ["bench", "engine", "--seconds", "-1"],
    ["bench", "engine", "--hands", "3"],
    ["train", "--ppo.num-envs", "0"],
    ["train", "--bc.teachers", "a", "b", "c", "d"],
    ["train", "--eval-against", "greedy", "greedy"],
    ["train", "--ppo.gamma", "2"],
    ["train", "--ppo.opponents", "nope"],
    ["train", "--ppo.resume", "/no/such/state.pt"],
]


@pytest.mark.parametrize("argv", CLI_MISTAKES, ids=lambda a: " ".join(a)[:50])
def test_cli_mistakes_are_one_line_and_exit_2(argv, capsys):
    from tw16.cli.main import main

    assert main(argv) == 2
    cap = capsys.readouterr()
    err = cap.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"tw16 {argv[0]}: "), cap.err
    assert "Traceback" not in cap.err + cap.out and "duplicate" not in cap.out  # no progress bar, no games


def test_eval_unknown_agent_lists_the_known_ones(capsys):
    from tw16.cli.main import main

    assert main(["eval", "foo", "greedy", "greedy", "greedy"]) == 2
    assert capsys.readouterr().err.strip() == (
        "tw16 eval: unknown agent 'foo' (known: random, greedy, defensive, "
        "neural[:PATH], search[:k=K,n=N,rollout=R,z=Z,base=B,w=W,ms=MS,leaf=L,m=M], guarded[:BASE], sb3+trusted:PATH, "
        "py:MODULE:ATTR, olympiad:COMMAND, or a name an installed package registers)"
    )


@pytest.mark.parametrize("argv", [["bench", "nonsense"], ["play", "--seat", "9"], ["eval", "a"]])
def test_argparse_mistakes_exit_2(argv, capsys):
    from tw16.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and "Traceback" not in capsys.readouterr().err


@pytest.mark.slow
def test_soak_command_tiny(capsys):
    """``tw16 bench soak`` at a tiny size: one hand per combination and policy (a whole game for the
    episode "game" ones), every combination played, no violation."""
    from tw16.bench.run import SOAK_COMBOS
    from tw16.cli.main import main

    assert main(["bench", "soak", "--hands", str(2 * len(SOAK_COMBOS)), "--seed", "3"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["violations"] == 0 and r["violation_examples"] == []
    assert len(r["per_combination"]) == 2 * len(SOAK_COMBOS) and all(row["hands"] >= 1 for row in r["per_combination"])
    assert r["hands"] == sum(row["hands"] for row in r["per_combination"]) >= 2 * len(SOAK_COMBOS)
    assert {row["policy"] for row in r["per_combination"]} == {"random", "greedy"}
    assert sum(row["wins"] for row in r["per_combination"] if row["policy"] == "greedy") > 0


def test_soak_counts_and_reports_violations(monkeypatch):
    """A violation is counted and named with what replays it (here: a checker that fails on purpose)."""
    import envs.engine.randplay as rp
    from tw16.bench.run import run_soak

    real = rp.random_play

    def failing(engine, seed=0, episodes=1, check=True, policy=0, games=None):
        out = real(engine, seed=seed, episodes=episodes, check=check, policy=policy, games=games)
        out[0, rp.OUT_ERROR] = 1
        out[0, rp.OUT_ERROR_STEP] = 7
        return out

    monkeypatch.setattr(rp, "random_play", failing)
    r = run_soak(4, seed=1, combos=(("standard", "standard", {}),))
    assert r["violations"] == 2 and len(r["violation_examples"]) == 2
    ex = r["violation_examples"][0]
    assert ex["combination"] == "standard" and ex["error"] == "tiles" and ex["step"] == 7 and ex["game"] == 0
