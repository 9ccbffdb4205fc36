"""Neural agent: a PyTorch policy/value network over the plane observation, with masked logits.

The network reads ``net_input``: the planes_v0 observation (with the derived planes) and, by default,
the efficiency planes of ``agents.efficiency`` (ukeire per discard, shanten gains of claims), and, with
``NetConfig.defence``, the defence planes of ``agents.defence_planes`` (Defensive's deal-in estimate per
kind), each computed from the observation alone. The 34 kinds are laid out as a 4 x 9 grid (m, p, s, honours padded to 9)
so convolutions run along each suit and never across a suit boundary. Checkpoints are ``torch.save``
dicts holding the weights and the config needed to rebuild the net (``NetConfig``), plus the
observation, action, efficiency- and defence-plane versions they were trained on; loading checks those
versions.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from agents.base import check_batch
from agents.defence_planes import DEFENCE_VERSION, N_DEFENCE, defence_planes
from agents.efficiency import EFFICIENCY_VERSION, N_EFFICIENCY, efficiency_planes
from envs.engine.actions import ACTION_LAYOUT_VERSION, N_ACTIONS
from envs.obs.planes_v0 import N_CHANNELS, N_CHANNELS_DERIVED, OBS_VERSION
from envs.validate import policy_seed

CHECKPOINTS = Path(__file__).parent / "checkpoints"
DEFAULT_CHECKPOINT = CHECKPOINTS / "ppo_v2.pt"  # the declared run D1 (checkpoints/README.md)


class CheckpointError(ValueError):
    """A file that is not a usable tw16 checkpoint (corrupt, foreign, or of other versions or shapes)."""


@dataclass
class NetConfig:
    in_channels: int = N_CHANNELS_DERIVED  # planes_v0 with derived features; N_CHANNELS for the plain planes
    width: int = 32  # channels of the convolutional trunk (parameters per width: the top of tw16 train --help)
    blocks: int = 1
    hidden: int = 256
    efficiency: bool = True  # also read the agents.efficiency planes (ukeire per discard, claim gains)
    defence: bool = False  # also read the agents.defence_planes planes (Defensive's deal-in estimate per kind)

    @property
    def net_channels(self) -> int:
        return self.in_channels + (N_EFFICIENCY if self.efficiency else 0) + (N_DEFENCE if self.defence else 0)


def net_input(obs: np.ndarray, cfg: NetConfig) -> np.ndarray:
    """What the network reads: the first ``cfg.in_channels`` observation planes, then the efficiency
    planes when ``cfg.efficiency`` and the defence planes when ``cfg.defence`` (computed here, from the
    observation alone), as float32."""
    if obs.ndim != 3 or obs.shape[1] < cfg.in_channels:
        raise ValueError(
            f"this network reads {cfg.in_channels} observation channels, got shape {obs.shape}: "
            "encode planes_v0 with derived=True"
        )
    x = np.asarray(obs[:, : cfg.in_channels], dtype=np.float32)
    if cfg.efficiency:
        x = np.concatenate([x, efficiency_planes(obs)], axis=1)
    if cfg.defence:
        x = np.concatenate([x, defence_planes(obs)], axis=1)
    return np.ascontiguousarray(x)


class _Block(nn.Module):
    def __init__(self, w: int):
        super().__init__()
        self.c1 = nn.Conv2d(w, w, (1, 3), padding=(0, 1))
        self.c2 = nn.Conv2d(w, w, (1, 3), padding=(0, 1))

    def forward(self, x):
        return torch.relu(x + self.c2(torch.relu(self.c1(x))))


class PolicyValueNet(nn.Module):
    """net_input planes (B, cfg.net_channels, 34) -> (logits (B, 76), value (B,))."""

    def __init__(self, cfg: NetConfig | None = None):
        super().__init__()
        self.cfg = cfg or NetConfig()
        c = self.cfg
        self.stem = nn.Conv2d(c.net_channels, c.width, (1, 3), padding=(0, 1))
        self.body = nn.Sequential(*[_Block(c.width) for _ in range(c.blocks)])
        self.fc = nn.Linear(c.width * 36, c.hidden)
        self.pi = nn.Linear(c.hidden, N_ACTIONS)
        self.v = nn.Linear(c.hidden, 1)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs: torch.Tensor, detach_value: bool = False):
        """``detach_value``: the value reads the features without their gradient (PPO's
        ``TrainConfig.value_detach``: the value loss then trains the value head alone)."""
        x = nn.functional.pad(obs, (0, 2)).view(obs.shape[0], obs.shape[1], 4, 9)
        x = self.body(torch.relu(self.stem(x)))
        h = torch.relu(self.fc(x.flatten(1)))
        return self.pi(h), self.v(h.detach() if detach_value else h).squeeze(-1)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions get a very negative logit (not -inf, so entropies stay finite)."""
    return torch.where(mask.bool(), logits, torch.full_like(logits, -1e9))


def save_checkpoint(path, net: PolicyValueNet, **extra) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # on the CPU whatever device trained it: a checkpoint loads anywhere (load_checkpoint maps it too)
    state = {k: (v.half() if v.is_floating_point() else v).cpu() for k, v in net.state_dict().items()}
    if net.cfg.efficiency:
        extra["efficiency_version"] = EFFICIENCY_VERSION
    if net.cfg.defence:
        extra["defence_version"] = DEFENCE_VERSION
    torch.save(
        {
            "net": state,
            "config": asdict(net.cfg),
            "obs_version": OBS_VERSION,
            "action_layout_version": ACTION_LAYOUT_VERSION,
            **extra,
        },
        path,
    )


def load_checkpoint(path, device: str = "cpu") -> tuple[PolicyValueNet, dict]:
    """A checkpoint written by ``save_checkpoint``. A missing file raises ``FileNotFoundError``; a
    corrupt or foreign file, other versions or a config / weights that do not fit raise
    ``CheckpointError`` naming the file and the problem."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"checkpoint {str(path)!r} not found")
    name = repr(str(path))
    if not path.is_file():
        raise CheckpointError(f"checkpoint {name} is not a file")
    try:
        ck = torch.load(path, map_location=device, weights_only=True)
    except Exception as e:  # a corrupt or foreign file: torch raises many kinds (pickle, zip, runtime)
        raise CheckpointError(f"checkpoint {name} cannot be read: {_load_failure(e)}") from None
    if not isinstance(ck, dict) or "net" not in ck or "config" not in ck:
        raise CheckpointError(f"checkpoint {name} is not a tw16 checkpoint (no 'net'/'config')")
    if ck.get("obs_version") != OBS_VERSION or ck.get("action_layout_version") != ACTION_LAYOUT_VERSION:
        raise CheckpointError(
            f"checkpoint {name} was trained on {ck.get('obs_version')}/actions v{ck.get('action_layout_version')}, "
            f"this build uses {OBS_VERSION}/actions v{ACTION_LAYOUT_VERSION}"
        )
    cfg = _config(ck["config"], name)
    if cfg.efficiency and ck.get("efficiency_version") != EFFICIENCY_VERSION:
        raise CheckpointError(
            f"checkpoint {name} was trained on efficiency planes {ck.get('efficiency_version')}, "
            f"this build computes {EFFICIENCY_VERSION}"
        )
    if cfg.defence and ck.get("defence_version") != DEFENCE_VERSION:
        raise CheckpointError(
            f"checkpoint {name} was trained on defence planes {ck.get('defence_version')}, "
            f"this build computes {DEFENCE_VERSION}"
        )
    weights = ck["net"]
    if not isinstance(weights, dict) or not all(
        isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in weights.items()
    ):
        raise CheckpointError(f"checkpoint {name}: 'net' must map parameter names to tensors")
    _check_weights(weights, cfg, name)  # before any layer is built: a config must not allocate what the file lacks
    net = PolicyValueNet(cfg).to(device)
    try:
        net.load_state_dict({k: v.float() for k, v in weights.items()})
    except RuntimeError as e:  # missing, unexpected or misshapen weights
        raise CheckpointError(f"checkpoint {name}: weights do not fit its config: {str(e)[:300]}") from None
    net.eval()
    return net, ck


def _load_failure(e: Exception) -> str:
    """A short reason for a failed ``torch.load`` (its own messages run to many lines)."""
    import pickle

    if isinstance(e, pickle.UnpicklingError):
        return "not a checkpoint saved by tw16 (torch.load with weights_only refused its contents)"
    first = (str(e).strip().splitlines() or [""])[0]
    return f"{type(e).__name__}: {first[:160]}"


# The most parameters a checkpoint's config may ask for (the shipped nets have about 0.33 M; 20 M is
# 80 MB as float32): each field within its limit can still multiply to billions (width 4096, hidden 65536).
MAX_PARAMETERS = 20_000_000


def param_shapes(cfg: NetConfig) -> dict[str, tuple[int, ...]]:
    """The shape of every tensor of ``PolicyValueNet(cfg).state_dict()``, computed without building it
    (tests/test_bad_input.py checks it against the built net)."""
    w, h = cfg.width, cfg.hidden
    conv = {"weight": (w, w, 1, 3), "bias": (w,)}
    shapes = {"stem.weight": (w, cfg.net_channels, 1, 3), "stem.bias": (w,)}
    for i in range(cfg.blocks):
        for c in ("c1", "c2"):
            shapes.update({f"body.{i}.{c}.{k}": v for k, v in conv.items()})
    shapes.update(
        {
            "fc.weight": (h, w * 36),
            "fc.bias": (h,),
            "pi.weight": (N_ACTIONS, h),
            "pi.bias": (N_ACTIONS,),
            "v.weight": (1, h),
            "v.bias": (1,),
        }
    )
    return shapes


def _check_weights(weights: dict, cfg: NetConfig, name: str) -> None:
    """The config within the parameter budget and the weights exactly the tensors it builds."""
    shapes = param_shapes(cfg)
    n = sum(int(np.prod(s)) for s in shapes.values())
    if n > MAX_PARAMETERS:
        raise CheckpointError(
            f"checkpoint {name}: its config (width {cfg.width}, blocks {cfg.blocks}, hidden "
            f"{cfg.hidden}) would build {n:,} parameters, more than the {MAX_PARAMETERS:,} allowed"
        )
    missing = [k for k in shapes if k not in weights]
    unexpected = sorted(set(weights) - set(shapes))
    if missing or unexpected:
        raise CheckpointError(
            f"checkpoint {name}: weights do not fit its config: missing {missing[:4]}, unexpected {unexpected[:4]}"
        )
    for k, shape in shapes.items():
        t = weights[k]
        if tuple(t.shape) != shape:
            raise CheckpointError(
                f"checkpoint {name}: weights do not fit its config: {k} has shape "
                f"{tuple(t.shape)}, the config needs {shape}"
            )
        if not t.is_floating_point():
            raise CheckpointError(f"checkpoint {name}: {k} holds {t.dtype}, not floating-point weights")


_CONFIG_LIMITS = {"in_channels": (1, 4096), "width": (1, 4096), "blocks": (0, 256), "hidden": (1, 1 << 16)}


def _config(raw, name: str) -> NetConfig:
    """The checkpoint's ``NetConfig``, checked field by field (a foreign dict must not build a huge net)."""
    if not isinstance(raw, dict):
        raise CheckpointError(f"checkpoint {name}: 'config' must be a dict, got {type(raw).__name__}")
    unknown = sorted(map(str, set(raw) - set(NetConfig.__dataclass_fields__)))
    if unknown:
        raise CheckpointError(f"checkpoint {name}: unknown config field(s) {unknown}")
    raw = {"efficiency": False, "defence": False, **raw}  # checkpoints older than the planes lack the keys
    for key, (lo, hi) in _CONFIG_LIMITS.items():
        v = raw.get(key, getattr(NetConfig, key))
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise CheckpointError(f"checkpoint {name}: config {key} must be an integer in {lo}..{hi}, got {v!r}")
    for key in ("efficiency", "defence"):
        if not isinstance(raw[key], bool):
            raise CheckpointError(f"checkpoint {name}: config {key} must be true or false, got {raw[key]!r}")
    return NetConfig(**raw)


UNRECORDED_REWARD_SCALE = 0.1  # the reward scale of checkpoints that do not record theirs (NeuralAgent)


class NeuralAgent:
    """Acts with a trained network: greedy (argmax) by default, or sampling with ``sample=True``."""

    name = "neural"

    def __init__(
        self,
        checkpoint=DEFAULT_CHECKPOINT,
        device: str = "cpu",
        sample: bool = False,
        seed: int | None = 0,
        net: PolicyValueNet | None = None,
    ):
        self.device = torch.device(device)
        meta = {}
        if net is None:
            net, meta = load_checkpoint(checkpoint, device)
        # the value head's unit: tai x this scale (the trainers record it; older checkpoints, all
        # trained at 0.1, do not)
        self.reward_scale = float(meta.get("reward_scale", UNRECORDED_REWARD_SCALE))
        self.net = net.to(self.device).eval()
        self.in_channels = self.net.cfg.in_channels
        self.derived = self.in_channels > N_CHANNELS  # encoders must add the derived planes
        self.sample = sample
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.gen = torch.Generator(device=self.device)
        seed = policy_seed(seed)
        self.gen.manual_seed(0 if seed is None else seed)

    @torch.no_grad()
    def logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(n, 76) float32: the policy's masked logits (-1e9 off the mask); ``act`` plays their argmax."""
        return self._logits(obs, mask).cpu().numpy()

    def _logits(self, obs: np.ndarray, mask: np.ndarray) -> torch.Tensor:
        obs, mask = check_batch(obs, mask)
        logits, _ = self.net(torch.from_numpy(net_input(obs, self.net.cfg)).to(self.device))
        return masked_logits(logits, torch.from_numpy(mask).to(self.device))

    @torch.no_grad()
    def values(self, obs: np.ndarray) -> np.ndarray:
        """(n,) float32: the value head on observations (n, C, 34): the seat's expected return over the
        rest of the hand in the training's reward units (tai x ``reward_scale``, 0.1 for every shipped
        checkpoint: training/config.py)."""
        if not isinstance(obs, np.ndarray) or obs.ndim != 3:
            raise ValueError(f"obs must be an array (n, C, 34), got {getattr(obs, 'shape', type(obs).__name__)}")
        _, v = self.net(torch.from_numpy(net_input(obs, self.net.cfg)).to(self.device))
        return v.cpu().numpy()

    @torch.no_grad()
    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self._logits(obs, mask)
        if self.sample:
            a = torch.multinomial(torch.softmax(logits, -1), 1, generator=self.gen).squeeze(-1)
        else:
            a = logits.argmax(-1)
        return a.cpu().numpy().astype(np.int64)
