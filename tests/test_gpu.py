"""Networks on a GPU: the neural agent acts as on the CPU, training's first update matches the CPU's
within float tolerance, checkpoints written there load on the CPU (these skip where torch sees no CUDA
device); ``--device`` on the CPU changes nothing, a device that is not there is a one-line error, and
``tw16 bench train`` prints its figures (these run everywhere). tests/gpu_check.sh runs this file and
the GPU benchmark on a GPU machine."""

from __future__ import annotations

import contextlib
import csv
import json
from dataclasses import replace

import numpy as np
import pytest
import torch
from tiny_training import SMALL, tiny_pool_config

from agents.device import DeviceError, resolve_device
from agents.neural import NetConfig, NeuralAgent, PolicyValueNet, load_checkpoint
from envs.engine.actions import N_ACTIONS

cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
no_cuda = pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA device is present")


def _batch(n=512, channels=86, seed=0):
    """Plane-like observations (0/1 planes, like a real encoding) and masks with 1-12 legal actions."""
    rng = np.random.default_rng(seed)
    obs = (rng.random((n, channels, 34)) < 0.1).astype(np.float32)
    mask = np.zeros((n, N_ACTIONS), bool)
    for i in range(n):
        mask[i, rng.choice(N_ACTIONS, rng.integers(1, 13), replace=False)] = True
    return obs, mask


def _tiny_ppo(tmp_path, name, **kw):
    return tiny_pool_config(tmp_path, name, **{"seed": 3, "minibatch_size": 64, **kw})


def _tiny_bc(tmp_path, name, **kw):
    from training.bc import BCConfig

    return BCConfig(
        **{
            "teachers": ("greedy",) * 4,
            "hands": 12,
            "batch_hands": 12,
            "epochs": 1,
            "batch_size": 100_000,
            "net": SMALL,
            "out": str(tmp_path / name / "bc.pt"),
            "progress": False,
            **kw,
        }
    )


def _log(path):
    """log.csv's rows without the timing columns (wall and CPU seconds vary run to run)."""
    from training.ppo import LOG_COLUMNS

    timing = {"sps"} | {c for c in LOG_COLUMNS if c.endswith("_s")}
    return [{k: v for k, v in r.items() if k not in timing} for r in csv.DictReader(open(path))]


@contextlib.contextmanager
def _exact_float32():
    """CUDA's TF32 matmuls and convolutions round to 10 bits: off, so the GPU computes in float32 as
    the CPU does and the comparison's tolerance can be tight."""
    saved = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = saved


# -- everywhere: the option on the CPU, and the errors -------------------------------------------


def test_resolve_device_names_the_device_it_refuses():
    assert resolve_device("cpu") == torch.device("cpu")
    assert resolve_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    for bad in ("gpu", "cuda:x", "", "cuda:0:1", "tpu"):
        with pytest.raises(DeviceError, match=repr(bad).replace("(", r"\(")):
            resolve_device(bad)


@no_cuda
@pytest.mark.parametrize("spec", ["cuda", "cuda:0", "cuda:3"])
def test_cuda_without_cuda_is_an_error_naming_it(spec):
    with pytest.raises(DeviceError, match=f"device '{spec}' is not available: torch sees no CUDA device"):
        resolve_device(spec)


@no_cuda
@pytest.mark.parametrize(
    "argv",
    [
        ["train", "--device", "cuda", "--eval-hands", "0"],
        ["eval", "greedy", "greedy", "greedy", "greedy", "--hands", "8", "--device", "cuda"],
        ["bench", "train", "--device", "cuda:1", "--seconds", "1"],
    ],
)
def test_cli_device_without_cuda_is_one_line_and_exit_2(argv, capsys, tmp_path, monkeypatch):
    from tw16.cli.main import main

    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--device" in err and "'cuda" in err and "not available" in err
    assert not (tmp_path / "runs").exists()  # refused before anything was played or written


def test_cli_bench_device_is_an_option_of_train_only(capsys):
    from tw16.cli.main import main

    assert main(["bench", "engine", "--device", "cpu"]) == 2
    assert "options of `tw16 bench train`" in capsys.readouterr().err


def test_device_cpu_is_the_default_and_changes_nothing(tmp_path):
    """BC and PPO with ``device="cpu"`` give the same log and the same weights as without the option."""
    from training.bc import train_bc
    from training.ppo import train

    def bc(name, **kw):
        return load_checkpoint(train_bc(_tiny_bc(tmp_path, name, **kw)))[0].state_dict()

    def ppo(name, **kw):
        net, _ = load_checkpoint(train(_tiny_ppo(tmp_path, name, **kw)))
        return net.state_dict(), _log(tmp_path / name / "log.csv")

    b1, b2 = bc("bc_default"), bc("bc_cpu", device="cpu")
    assert all(torch.equal(b1[k], b2[k]) for k in b1)
    (w1, log1), (w2, log2) = ppo("default"), ppo("cpu", device="cpu")
    assert len(log1) == 2 and log1 == log2 and all(torch.equal(w1[k], w2[k]) for k in w1)


def test_pipeline_device_reaches_bc_ppo_and_eval(tmp_path, monkeypatch):
    """``tw16 train --device D`` is the one option: it sets BC's and PPO's (whose own are refused)."""
    from training import pipeline
    from tw16.cli.train import check_derived
    from tw16.cli.usage import UsageError

    seen = {}
    monkeypatch.setattr(pipeline, "train_bc", lambda c: seen.setdefault("bc", c.device) and tmp_path / "bc.pt")
    monkeypatch.setattr(pipeline, "train", lambda c: seen.setdefault("ppo", c.device) and tmp_path / "p.pt")
    monkeypatch.setattr(pipeline, "plot_curves", lambda log, out: out)
    (tmp_path / "o" / "ppo").mkdir(parents=True)
    p = pipeline.Pipeline(out_dir=str(tmp_path / "o"), eval_hands=0, device="cpu")
    pipeline.run_pipeline(p)
    assert seen == {"bc": "cpu", "ppo": "cpu"}
    for opt in ("--ppo.device", "--bc.device"):
        with pytest.raises(UsageError, match="--device"):
            check_derived([opt, "cuda"])


def test_eval_on_the_cpu_device_is_the_default():
    from agents.evaluation.league import evaluate

    specs = ["neural", "greedy", "greedy", "greedy"]
    a = json.dumps(evaluate(specs, 8, seed=2, progress=False), sort_keys=True, default=str)
    for dev in ("cpu",) if torch.cuda.is_available() else ("cpu", "auto"):  # auto: the CPU without CUDA
        assert json.dumps(evaluate(specs, 8, seed=2, progress=False, device=dev), sort_keys=True, default=str) == a


def test_the_device_path_of_the_rollout_samples_as_the_cpu_path(tmp_path):
    """``Rollout._sample_on_device`` (staging buffers, one stacked copy back) run on the CPU: the same
    actions, log-probabilities and values as ``_sample`` from the same generator state."""
    from envs.rules import Rules
    from training.rollout import Rollout

    cfg = _tiny_ppo(tmp_path, "x")
    torch.manual_seed(0)
    net = PolicyValueNet(cfg.net).eval()
    ro = Rollout(cfg, Rules.make(profile="standard", episode="hand").to_dict(), np.random.default_rng(0), seed=0)
    x = np.random.default_rng(1).random((ro.N, cfg.net.net_channels, 34)).astype(np.float32)
    _, mask = _batch(ro.N, seed=2)
    ro.gen.manual_seed(9)
    direct = ro._sample(net, x, mask)
    ro.gen.manual_seed(9)
    staged = ro._sample_on_device(net, x, mask)
    assert staged[0].dtype == np.int64 and mask[np.arange(ro.N), staged[0]].all()
    assert np.array_equal(direct[0], staged[0])
    assert np.allclose(direct[1], staged[1]) and np.allclose(direct[2], staged[2])
    ro.gen.manual_seed(9)
    part = ro._sample_on_device(net, x[:3], mask[:3])  # fewer rows than the buffers hold
    assert np.array_equal(part[0], direct[0][:3]) and ro.timing["transfer"] >= 0


def test_bench_train_prints_json_with_the_time_split(capsys):
    from tw16.bench.train import SPLIT
    from tw16.cli.main import main

    assert main(["bench", "train", "--seconds", "0.1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bench"] == "train" and out["device"] == "cpu" and out["net"] == "main"
    assert set(out["split_s"]) == set(SPLIT) >= {"engine", "encode", "forward", "update", "transfer"}
    assert out["updates"] >= 1 and out["decisions"] == out["updates"] * 256 * 64
    assert out["decisions_per_s"] == pytest.approx(out["decisions"] / out["seconds"], rel=0.01)
    assert sum(out["split_s"].values()) == pytest.approx(out["seconds"], rel=0.02, abs=0.01)
    assert out["split_s"]["transfer"] < 0.05 * out["seconds"]  # on the CPU the networks read the arrays in place


# -- on a CUDA device ------------------------------------------------------------------------------


@cuda
@pytest.mark.parametrize("efficiency", [False, True])
def test_gpu_and_cpu_agents_agree(efficiency):
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig(efficiency=efficiency))
    obs, mask = _batch()
    cpu = NeuralAgent(net=net).act(obs, mask)
    gpu_agent = NeuralAgent(net=PolicyValueNet(net.cfg), device="cuda")
    gpu_agent.net.load_state_dict(net.state_dict())
    gpu = gpu_agent.act(obs, mask)
    assert mask[np.arange(len(mask)), gpu].all()
    assert (cpu == gpu).mean() > 0.99  # float sums may order differently: a near-tie can flip
    sampled = NeuralAgent(net=net, device="cuda", sample=True, seed=5)
    a = sampled.act(obs, mask)
    sampled.reset(5)
    assert np.array_equal(a, sampled.act(obs, mask)) and mask[np.arange(len(mask)), a].all()


@cuda
def test_first_ppo_update_on_cuda_matches_the_cpu(tmp_path):
    """The same seed, the same first batch (collected once, on the CPU), the same initial weights: the
    first update's losses, gradients and weight changes agree within float32 tolerance."""
    from envs.rules import Rules
    from training.ppo import ppo_update
    from training.rollout import Opponents, Rollout

    cfg = _tiny_ppo(tmp_path, "x", num_envs=32, update_epochs=1, minibatch_size=100_000, target_kl=None)
    torch.manual_seed(cfg.seed)
    net = PolicyValueNet(cfg.net)
    opponents = Opponents(cfg)
    opponents.snapshot(net)
    rules = Rules.make(profile="standard", episode="hand").to_dict()
    batch = Rollout(cfg, rules, np.random.default_rng(cfg.seed), seed=cfg.seed).collect(net, opponents)
    assert len(batch.act) > 50
    before = {k: v.clone() for k, v in net.state_dict().items()}
    results = {}
    with _exact_float32():
        for dev in ("cpu", "cuda"):
            model = PolicyValueNet(cfg.net)
            model.load_state_dict(before)
            model.to(dev)
            opt = torch.optim.Adam(model.parameters(), lr=cfg.learning_rate, eps=1e-5)
            grads = {}
            hooks = [
                p.register_hook(lambda g, k=k: grads.__setitem__(k, g.detach().cpu().clone()))
                for k, p in model.named_parameters()
            ]
            diag = ppo_update(model, opt, batch, cfg, np.random.default_rng(7))
            for h in hooks:
                h.remove()
            delta = {k: v.detach().cpu() - before[k] for k, v in model.state_dict().items()}
            results[dev] = diag, grads, delta
    (d_cpu, g_cpu, w_cpu), (d_gpu, g_gpu, w_gpu) = results["cpu"], results["cuda"]
    # pg_loss and approx KL are near zero on the first minibatch (normalised advantages, ratio ~1):
    # their float32 rounding, summed in another order on the GPU, is the tolerance
    for key, tol in (("pg_loss", 1e-5), ("v_loss", 1e-6), ("entropy", 1e-6), ("approx_kl", 1e-5)):
        assert d_gpu[key] == pytest.approx(d_cpu[key], rel=1e-4, abs=tol), key
    for k in g_cpu:  # raw gradients (before clipping): relative error of each tensor
        err = float((g_gpu[k] - g_cpu[k]).norm() / (g_cpu[k].norm() + 1e-12))
        assert err < 1e-3, (k, err)
    # Adam's first step moves each weight by about lr * g / (|g| + eps): compare in units of lr
    for k in w_cpu:
        assert float((w_gpu[k] - w_cpu[k]).abs().max()) < 0.05 * cfg.learning_rate, k
    assert any(float(w.abs().max()) > 0.5 * cfg.learning_rate for w in w_cpu.values())  # it did move


@cuda
def test_first_bc_update_on_cuda_matches_the_cpu(tmp_path):
    """One BC step (the data set in one minibatch): the loss and the weights agree with the CPU's."""
    from training.bc import train_bc

    with _exact_float32():
        runs = {dev: train_bc(_tiny_bc(tmp_path, dev, device=dev, anneal_lr=False)) for dev in ("cpu", "cuda")}
    (cpu, ck_cpu), (gpu, ck_gpu) = (load_checkpoint(runs[d]) for d in ("cpu", "cuda"))
    assert ck_gpu["history"][0]["loss"] == pytest.approx(ck_cpu["history"][0]["loss"], rel=1e-4)
    lr = _tiny_bc(tmp_path, "x").learning_rate
    for k, v in cpu.state_dict().items():  # float16 checkpoints: their rounding added to the step's
        assert float((gpu.state_dict()[k] - v).abs().max()) < 0.05 * lr + 1e-3 * float(v.abs().max()), k


@cuda
def test_ppo_on_cuda_runs_and_its_files_load_on_the_cpu(tmp_path):
    from training.ppo import train

    policy = train(_tiny_ppo(tmp_path, "gpu", device="cuda"))
    net, _ = load_checkpoint(policy)  # onto the CPU
    assert all(p.device.type == "cpu" for p in net.parameters())
    rows = _log(tmp_path / "gpu" / "log.csv")
    assert len(rows) == 2 and all(float(r["entropy"]) > 0 for r in rows)
    ck = torch.load(policy, weights_only=True)  # no map_location: the tensors as saved
    assert all(t.device.type == "cpu" for t in ck["net"].values())
    # resume on the CPU from the state written on the GPU
    state = str(tmp_path / "gpu" / "train_state.pt")
    resumed = train(replace(_tiny_ppo(tmp_path, "gpu"), total_decisions=512, resume=state))
    assert len(_log(tmp_path / "gpu" / "log.csv")) == 4 and load_checkpoint(resumed)[0] is not None


@cuda
def test_rollout_on_cuda_plays_legal_actions_and_times_the_transfer(tmp_path):
    from envs.rules import Rules
    from training.rollout import Opponents, Rollout

    cfg = _tiny_ppo(tmp_path, "x", device="cuda")
    net = PolicyValueNet(cfg.net).cuda()
    opponents = Opponents(cfg, "cuda")
    opponents.snapshot(net)
    ro = Rollout(cfg, Rules.make(profile="standard", episode="hand").to_dict(), np.random.default_rng(0), seed=0)
    b = ro.collect(net, opponents)
    assert len(b.act) and b.mask[np.arange(len(b.act)), b.act].all()
    assert np.isfinite(b.logp).all() and (b.logp <= 0).all() and ro.timing["transfer"] > 0
    assert ro.pinned[0].is_pinned()
