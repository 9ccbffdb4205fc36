"""A model of the opponents' concealed hands from one seat's view (issue 26: determinizations dealt by
what the opponents' discards and calls imply, as the 2023 Olympiad winner MeowCaTS samples them).

For the seat to decide it gives, per opponent (the seat's left, opposite, right) and tile kind, a
weight w[o, k] = exp(logit[o, k]): the opponent's next concealed tile is kind k with probability
proportional to unseen[k] x w[o, k], unseen[k] the copies of k the seat cannot see (from its
observation: ``agents.features.decode``). With every logit 0 that is the uniform deal; the search deals
its determinizations this way (``search:...,hm=PATH``; native ``resample_hidden`` with ``hand_q``).

Training (``python -m training.hand_model collect`` then ``fit``): states of duplicate play with the
true hands, the cross-entropy of each opponent's actual share of kinds against
softmax(log unseen + logit): the maximum-likelihood fit of that dealing rule's first draw.

The network: planes_v0 (79 planes x 34 kinds, no derived planes) and the unseen counts, flattened,
two hidden layers of 256, 3 x 34 logits. A file holds its weights, ``HAND_MODEL_VERSION`` and its
training record; it is read with ``torch.load(weights_only=True)``: a file never runs code.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
from torch import nn

from envs.obs.planes_v0 import N_CHANNELS

HAND_MODEL_VERSION = 1
N_KINDS = 34
HIDDEN = 256


class HandNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(N_CHANNELS * N_KINDS + N_KINDS, HIDDEN),
            nn.ReLU(),
            nn.Linear(HIDDEN, HIDDEN),
            nn.ReLU(),
            nn.Linear(HIDDEN, 3 * N_KINDS),
        )

    def forward(self, planes: torch.Tensor, hidden: torch.Tensor) -> torch.Tensor:
        """(B, 79, 34) planes, (B, 34) unseen counts -> (B, 3, 34) logits."""
        x = torch.cat([planes.flatten(1), hidden / 4.0], 1)
        return self.body(x).view(-1, 3, N_KINDS)


def unseen(planes: np.ndarray) -> np.ndarray:
    """(G, 34) int8: the copies of each kind the seat cannot see (``agents.features.decode``): the
    model's base rate, what the seat can count from its observation."""
    from agents.features import decode

    return decode(planes).unseen


def opponents_hands(engine, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """(G, 3, 34) int8: the concealed tiles of seats + 1, + 2, + 3."""
    h = engine.s.hands
    return np.stack([h[games, (seats + i) % 4] for i in (1, 2, 3)], axis=1).astype(np.int8)


class HandModel:
    """A trained ``HandNet`` read from a file, with ``weights(planes, unseen, strength)`` for the search."""

    def __init__(self, path):
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"hand model {str(path)!r} not found")
        try:
            ck = torch.load(path, map_location="cpu", weights_only=True)
        except Exception as e:  # a corrupt or foreign file (pickle, zip, runtime errors)
            raise ValueError(f"hand model {str(path)!r} cannot be read: {type(e).__name__}") from None
        if not isinstance(ck, dict) or ck.get("version") != HAND_MODEL_VERSION or "net" not in ck:
            raise ValueError(f"hand model {str(path)!r}: not a version {HAND_MODEL_VERSION} hand model file")
        self.net = HandNet()
        try:
            self.net.load_state_dict(ck["net"])
        except (RuntimeError, TypeError, AttributeError) as e:
            raise ValueError(f"hand model {str(path)!r}: weights do not fit: {str(e)[:200]}") from None
        self.net.eval()
        self.record = ck.get("record", "")

    @torch.no_grad()
    def logits(self, planes: np.ndarray, hidden: np.ndarray) -> np.ndarray:
        p = torch.from_numpy(np.ascontiguousarray(planes[:, :N_CHANNELS], np.float32))
        return self.net(p, torch.from_numpy(hidden.astype(np.float32))).numpy()

    def weights(self, planes: np.ndarray, hidden: np.ndarray, strength: float = 1.0) -> np.ndarray:
        """(G, 3, 34) float64: exp(strength x logit), each row's largest 1 (``resample_hidden``'s hand_q)."""
        lg = strength * self.logits(planes, hidden).astype(np.float64)
        return np.exp(lg - lg.max(axis=2, keepdims=True))


def save(net: HandNet, path, record: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"version": HAND_MODEL_VERSION, "net": net.state_dict(), "record": json.dumps(record)}, path)
