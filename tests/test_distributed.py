"""Ray scale-out (training/distributed.py, agents/evaluation/distributed.py): rollout workers, a killed worker
replaced, distributed duplicate evaluation equal to the single-process one, and the RLlib example. One
local Ray for the module (2 CPUs); skipped where Ray is not installed."""

from __future__ import annotations

import csv
import importlib.util
import os
import sys
import threading
import time

import numpy as np
import pytest

from agents.neural import NetConfig, PolicyValueNet, load_checkpoint, save_checkpoint
from training.ppo import TrainConfig, train

HAS_RAY = importlib.util.find_spec("ray") is not None


@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield ray
    ray.shutdown()


def _rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def _kill_one_worker(ray, log_path, after_rows: int, killed: list):
    """From another thread: once the learner has logged ``after_rows`` updates, kill a rollout worker.
    (The deadline is generous: the workers start and import first, minutes on 2 busy cores.)"""
    t_end = time.time() + 900
    while time.time() < t_end:
        if log_path.exists() and len(_rows(log_path)) >= after_rows:
            names = sorted(n if isinstance(n, str) else n["name"] for n in ray.util.list_named_actors())
            names = [n for n in names if n.startswith("tw16-rollout-")]
            if names:
                ray.kill(ray.get_actor(names[0]))
                killed.append(names[0])
                return
        time.sleep(0.05)


@pytest.fixture(scope="module")
def killed_run(ray_local, tmp_path_factory):
    """A short run on 2 rollout workers; one of them is killed after the first update."""
    out = tmp_path_factory.mktemp("dist") / "run"
    cfg = TrainConfig(
        num_envs=8,
        rollout_steps=24,
        total_decisions=4 * 192,
        minibatch_size=48,
        update_epochs=2,
        opponents=("greedy", "pool"),
        pool_every=1,
        out_dir=str(out),
        progress=False,
        checkpoint_every=1,
        workers=2,
        torch_threads=1,
    )
    killed: list = []
    th = threading.Thread(target=_kill_one_worker, args=(ray_local, out / "log.csv", 1, killed), daemon=True)
    th.start()
    with pytest.warns(RuntimeWarning, match="rollout worker"):
        policy = train(cfg)
    th.join(timeout=1)
    return cfg, policy, killed


def test_distributed_run_learns_and_writes_checkpoints(killed_run):
    cfg, policy, _ = killed_run
    out = policy.parent
    assert (out / "train_state.pt").exists() and policy.exists()
    net, ck = load_checkpoint(policy)
    assert ck["workers"] == 2 and ck["update"] == 4 and ck["decisions"] == 4 * 192
    rows = _rows(out / "log.csv")
    assert [int(r["update"]) for r in rows] == [1, 2, 3, 4]
    assert len({r["v_loss"] for r in rows}) > 1 and len({r["pg_loss"] for r in rows}) > 1  # the loss moves
    assert all(float(r["sps"]) > 0 for r in rows) and int(rows[-1]["hands"]) > 0
    import torch

    torch.manual_seed(cfg.seed)
    init = PolicyValueNet(cfg.net)  # the weights the run started from
    moved = sum(
        float((p.float() - q).abs().max()) for p, q in zip(net.state_dict().values(), init.state_dict().values())
    )
    assert moved > 1e-3


def test_killed_worker_is_replaced_and_training_continues(killed_run):
    _, policy, killed = killed_run
    assert killed, "the test thread did not find a rollout worker to kill"
    _, ck = load_checkpoint(policy)
    assert ck["workers_replaced"] >= 1
    assert len(_rows(policy.parent / "log.csv")) == 4  # every update after the kill was made


def test_distributed_eval_equals_local(ray_local, tmp_path):
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate
    from agents.evaluation.distributed import evaluate_distributed

    torch = pytest.importorskip("torch")
    torch.manual_seed(1)
    ck = tmp_path / "net.pt"
    save_checkpoint(ck, PolicyValueNet(NetConfig()))
    specs = [f"neural:{ck}", "random", "greedy", "random"]
    n_walls, batch = 10, 4  # 3 batches (4, 4, 2 walls) over 2 workers
    local = play_duplicate([make_agent(s, seed=5) for s in specs], n_walls, seed=5, batch_walls=batch)
    dist = evaluate_distributed(specs, n_walls, seed=5, batch_walls=batch, workers=2)
    assert local["per_wall"].shape == (n_walls, 4)
    assert np.array_equal(local["per_wall"], dist["per_wall"])  # per-wall results in wall order, exactly
    assert local["agents"] == dist["agents"] and local["ratings"] == dist["ratings"]
    assert local["names"] == dist["names"]


# A worker that dies (issue 27 row 13): os._exit in the middle of a batch, as a crash or the OOM killer.
_DYING = """
import os, sys
from agents.evaluation import distributed
from agents.evaluation.distributed import EvalWorker
marker = sys.argv[1]
class Dying(EvalWorker):
    def play(self, *a, **k):
        if not os.path.exists(marker):  # the first batch only: its replacement plays it again
            open(marker, "w").close()
            os._exit(1)
        return super().play(*a, **k)
distributed.EvalWorker = Dying
from tw16.cli.main import main
sys.exit(main(sys.argv[2:]))
"""
_EVAL = [
    "eval",
    "random",
    "greedy",
    "random",
    "greedy",
    "--hands",
    "8",
    "--plot",
    "",
    "--workers",
    "1",
    "--batch-walls",
    "1",
]


@pytest.mark.skipif(not HAS_RAY, reason="ray is not installed")
def test_eval_json_stays_parseable_when_a_worker_dies(tmp_path):
    """Ray's own lines ("(raylet) A worker died ...", printed by the driver to stdout) go to stderr: the
    --json answer on stdout still parses, and equals the run without a death. Its own process and Ray."""
    import json
    import subprocess

    def run(*extra):
        r = subprocess.run(
            [sys.executable, "-c", _DYING, str(tmp_path / "died"), *_EVAL, *extra],
            capture_output=True,
            text=True,
            timeout=600,
            env={k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"},
        )
        assert r.returncode == 0, r.stderr[-3000:]
        return json.loads(r.stdout), r.stderr

    from agents.evaluation.league import evaluate, jsonable
    from envs.rules import Rules

    res, err = run("--json")
    assert (tmp_path / "died").exists() and "evaluation worker 0 died; starting a new one" in err
    local = json.loads(json.dumps(jsonable(evaluate(_EVAL[1:5], 8, Rules(), seed=0, progress=False, batch_walls=1))))
    assert (
        res["agents"] == local["agents"] and res["ratings"] == local["ratings"] and res["hands"] == local["hands"] == 8
    )


def test_eval_workers_dying_past_the_limit_is_one_line(ray_local, monkeypatch, capsys):
    from agents.evaluation import distributed
    from tw16.cli.main import main

    class AlwaysDying(distributed.EvalWorker):
        def play(self, *a, **k):
            os._exit(1)

    monkeypatch.setattr(distributed, "EvalWorker", AlwaysDying)
    # one replacement is enough to show the limit (each death costs Ray seconds to notice)
    monkeypatch.setattr(distributed, "MAX_REPLACEMENTS_PER_WORKER", 1)
    assert main([*_EVAL, "--json"]) == 1
    cap = capsys.readouterr()
    assert cap.out == ""
    line = [x for x in cap.err.splitlines() if x.startswith("tw16 eval:")]
    assert line == [
        "tw16 eval: evaluation workers died 2 times (at most 1 replacements per worker, 1 worker); giving up. Last: "
        "The actor died unexpectedly before finishing this task."
    ], cap.err
    assert "Traceback" not in cap.err


def test_missing_ray_gives_a_clear_error(monkeypatch, tmp_path):
    from agents.evaluation.distributed import import_ray

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(ImportError, match=r"pip install -e '\.\[ray\]'"):
        import_ray()
    cfg = TrainConfig(
        num_envs=4, rollout_steps=4, total_decisions=16, workers=2, out_dir=str(tmp_path / "r"), progress=False
    )
    with pytest.raises(ImportError, match="Ray is not installed"):
        train(cfg)


# -- the RLlib example ---------------------------------------------------------------------------
def _rllib_problem() -> str | None:
    if not HAS_RAY:
        return "ray is not installed"
    try:
        importlib.import_module("ray.rllib")
    except Exception as e:  # noqa: BLE001
        return (
            "ray.rllib is not importable here "
            f"({type(e).__name__}: {e}); install the test or rllib extra: pip install -e '.[rllib]'"
        )
    return None


@pytest.mark.skipif(_rllib_problem() is not None, reason=str(_rllib_problem()))
def test_rllib_example_smoke(tmp_path):
    import subprocess

    r = subprocess.run(
        [sys.executable, "examples/rllib_ppo.py", "--iterations", "1", "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert "iteration 1" in r.stdout
