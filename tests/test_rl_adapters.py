"""RLlib and TorchRL policies as tw16 agents (agents.rl_adapters), at small size: a TorchRL actor as
examples/torchrl_collector.py builds it, saved as weights and evaluated through ``tw16 eval
py:MODULE:ATTR``; an RLlib checkpoint of examples/rllib_ppo.py's smoke run (behaviour-cloned first)
evaluated in duplicate play."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent

MY_TORCHRL = textwrap.dedent('''
    """A TorchRL actor saved as weights (torch.save(actor.state_dict(), "actor.pt")), rebuilt here."""
    import torch
    from tensordict.nn import TensorDictModule
    from torch import nn
    from torchrl.modules import MaskedCategorical, ProbabilisticActor

    from agents.rl_adapters import TorchRLAgent


    def build():
        net = nn.Sequential(nn.Flatten(-2), nn.Linear(79 * 34, 32), nn.ReLU(), nn.Linear(32, 76))
        return ProbabilisticActor(TensorDictModule(net, in_keys=["observation"], out_keys=["logits"]),
                                  in_keys={"logits": "logits", "mask": "action_mask"},
                                  distribution_class=MaskedCategorical)


    def Agent(seed=0):
        actor = build()
        actor.load_state_dict(torch.load("actor.pt", weights_only=True))
        return TorchRLAgent(actor, name="torchrl-mlp", seed=seed)
''')


def test_torchrl_policy_through_tw16_eval(tmp_path):
    pytest.importorskip("torchrl")
    import os

    import torch

    (tmp_path / "my_torchrl.py").write_text(MY_TORCHRL)
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib

        my_torchrl = importlib.import_module("my_torchrl")  # the module this test wrote
        torch.manual_seed(0)
        torch.save(my_torchrl.build().state_dict(), tmp_path / "actor.pt")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("my_torchrl", None)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "tw16.cli.main",
            "eval",
            "py:my_torchrl:Agent",
            "greedy",
            "py:my_torchrl:Agent",
            "greedy",
            "--hands",
            "8",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert "torchrl-mlp" in r.stdout


def test_torchrl_agent_takes_the_masked_argmax():
    pytest.importorskip("torchrl")
    import torch
    from tensordict.nn import TensorDictModule

    from agents.rl_adapters import TorchRLAgent

    class Fixed(torch.nn.Module):
        def forward(self, x):
            return torch.arange(76, dtype=torch.float32).expand(x.shape[0], 76)  # prefers the highest id

    agent = TorchRLAgent(TensorDictModule(Fixed(), in_keys=["observation"], out_keys=["logits"]))
    mask = np.zeros((3, 76), bool)
    mask[0, [3, 5]] = mask[1, [0]] = mask[2, [70, 2]] = True
    assert agent.act(np.zeros((3, 79, 34), np.float32), mask).tolist() == [5, 0, 70]
    sampler = TorchRLAgent(TensorDictModule(Fixed(), in_keys=["observation"], out_keys=["logits"]), deterministic=False)
    a = sampler.act(np.zeros((3, 79, 34), np.float32), mask)
    assert mask[np.arange(3), a].all()


@pytest.mark.slow
def test_rllib_checkpoint_in_duplicate_play(tmp_path):
    pytest.importorskip("ray.rllib")
    from agents import make_agent
    from agents.evaluation.arena import play_duplicate
    from agents.rl_adapters import RLlibAgent
    from envs.rules import Rules

    ck = tmp_path / "ck"
    r = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "rllib_ppo.py"),
            "--iterations",
            "1",
            "--smoke",
            "--bc-hands",
            "20",
            "--bc-epochs",
            "1",
            "--checkpoint",
            str(ck),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert "behaviour cloning of shared: {'accuracy': [" in r.stdout  # the warm start ran
    me = RLlibAgent(ck)
    res = play_duplicate([me, make_agent("greedy"), me, make_agent("greedy")], 2, Rules(), seed=0)
    assert res["hands"] == 8 and set(res["agents"]) == {"rllib", "greedy"}
