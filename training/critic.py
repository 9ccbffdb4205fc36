"""The oracle critic of PPO (``TrainConfig.critic = "oracle"``), Suphx's oracle guiding: a value network
that reads what the actor reads plus the hidden planes of ``envs.obs.oracle_v0`` (the opponents'
concealed hands and kongs, the wall's next draws). A hand's chips depend mostly on tiles nobody sees
yet; a critic that sees them predicts the result far better, so the advantage of each decision
(GAE along the seat's chain) carries less of the draws' luck. Only the rollout's value estimates and
the update use it: the actor's input never holds a hidden plane, and ``policy.pt`` holds only the actor.
"""

from __future__ import annotations

from dataclasses import replace

import torch
from torch import nn

from agents.neural import NetConfig, PolicyValueNet
from envs.obs.oracle_v0 import N_ORACLE_EXTRA


class OracleCritic(nn.Module):
    """(the actor's input (B, cfg.net_channels, 34), hidden planes (B, N_ORACLE_EXTRA, 34)) -> value (B,).

    The trunk is a ``PolicyValueNet`` whose input is the actor's, then the hidden planes (its policy
    head is unused)."""

    def __init__(self, cfg: NetConfig):
        super().__init__()
        self.cfg = cfg
        self.net = PolicyValueNet(replace(cfg, in_channels=cfg.in_channels + N_ORACLE_EXTRA))

    def forward(self, x: torch.Tensor, hidden: torch.Tensor) -> torch.Tensor:
        return self.net(torch.cat([x, hidden.to(x.dtype)], 1))[1]

    @classmethod
    def from_actor(cls, actor: PolicyValueNet) -> OracleCritic:
        """A critic that starts as the actor's value head (e.g. the clone's): the same weights, and zero
        weights on the hidden planes, which it learns to read."""
        critic = cls(actor.cfg)
        state = {k: v.detach().clone().float().cpu() for k, v in actor.state_dict().items()}
        stem = torch.zeros_like(critic.net.stem.weight)
        stem[:, : actor.cfg.net_channels] = state["stem.weight"]
        state["stem.weight"] = stem
        critic.net.load_state_dict(state)
        return critic.to(next(actor.parameters()).device)
