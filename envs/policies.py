"""Policies the environments seat as opponents: the uniform random policy, and policies named by a
spec string, resolved through a registry.

Layering: ``envs`` never imports ``agents`` (envs <- agents <- training). So an opponent given by
name (``"greedy"``, ``"neural:PATH"``, ...) is resolved here: ``import agents`` registers every agent
name (``agents.make_agent``), and anyone may register more with :func:`register_policy`. ``"random"``
(:class:`RandomLegal`) is built in. A name not registered yet is looked up in the installed packages'
entry points, group ``tw16.policies`` (pyproject.toml names ``agents:_register`` there, the plugin
mechanism gymnasium and pytest use): so ``gym.make("tw16/SingleAgent-v0")`` finds its default opponent,
:data:`DEFAULT_OPPONENT` (``"greedy"``), without importing ``agents`` here. A name still unknown after
that raises a ``ValueError`` saying so.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from envs.validate import SEED_MAX, no_argument, policy_seed

DEFAULT_OPPONENT = "greedy"  # agents.GreedyAgent, registered by `import agents`


class RandomLegal:
    """Uniform over the legal actions, seeded: the one random policy (``agents.RandomAgent`` is this
    policy with the agents' input checks)."""

    name = "random"

    def __init__(self, seed: int | None = 0):
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(policy_seed(seed))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        scores = self.rng.random(mask.shape) + mask  # legal actions score in [1, 2), illegal in [0, 1)
        return scores.argmax(axis=1).astype(np.int64)


# name (a spec's part before ":") -> factory(spec, seed) -> a policy with act(obs, mask)
def _random(spec: str, seed):
    no_argument(spec)
    return RandomLegal(seed)


_REGISTRY: dict[str, Callable] = {"random": _random}


def register_policy(name: str, factory: Callable) -> None:
    """Resolve specs ``name`` and ``name:ARG`` with ``factory(spec, seed)`` (a later registration of a
    name replaces the earlier one)."""
    if not isinstance(name, str) or not name or ":" in name:
        raise ValueError(f"a policy name is a non-empty string without ':', got {name!r}")
    _REGISTRY[name] = factory


_PLUGINS_LOADED = False


def _load_plugins() -> None:
    """Call each ``tw16.policies`` entry point once (each registers its names)."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    from importlib.metadata import entry_points

    for ep in entry_points(group="tw16.policies"):
        ep.load()()


def registered_factory(name: str):
    """The factory registered for ``name`` (installed packages' ``tw16.policies`` entry points loaded
    first when it is not registered yet), or None."""
    if name not in _REGISTRY:
        _load_plugins()
    return _REGISTRY.get(name)


def make_policy(spec: str, seed: int | None = 0):
    """The policy a spec string names (``"random"``, and what is registered: ``import agents`` adds
    ``greedy``, ``defensive``, ``neural[:PATH]``, ``sb3+trusted:PATH``)."""
    name = str(spec).partition(":")[0]
    if name not in _REGISTRY:
        _load_plugins()
    if name not in _REGISTRY:
        raise ValueError(
            f"unknown policy {spec!r} (registered: {', '.join(sorted(_REGISTRY))}); the agents' names "
            "are registered by `import agents` (envs does not import agents)"
        )
    return _REGISTRY[name](spec, seed)


def default_opponent(seed: int | None = None):
    return make_policy(DEFAULT_OPPONENT, seed)


class _Callable:
    def __init__(self, fn):
        self.fn = fn

    def act(self, obs, mask):
        return self.fn(obs, mask)


def _as_policy(x, factory, seed):
    if x is None:
        x = factory(seed)
    elif isinstance(x, str):
        x = make_policy(x, seed)
    if hasattr(x, "act"):
        return x
    if callable(x):
        return _Callable(x)
    raise TypeError(f"an opponent is an agent spec string, an object with act(obs, mask) or a callable, got {x!r}")


def make_opponents(opponents, factory=None, seed=0):
    """Three policies for relative seats 1..3 (one shared object when a single one is given);
    ``opponents`` None: ``factory(seed)`` (default :func:`default_opponent`)."""
    factory = factory or default_opponent
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != 3:
            raise ValueError(f"opponents: give one policy or three (next, opposite, previous), got {len(opponents)}")
        return [_as_policy(o, factory, seed + i) for i, o in enumerate(opponents)]
    p = _as_policy(opponents, factory, seed)
    return [p, p, p]


def reseed(policies, seed) -> None:
    """Reset each distinct policy (that has ``reset``) to ``seed + its first slot`` (modulo 2**63: a
    policy's seed range, ``policy_seed``; an env's seed may take 64 bits)."""
    done = set()
    for i, p in enumerate(policies):
        if id(p) not in done and hasattr(p, "reset"):
            p.reset((int(seed) + i) % (SEED_MAX + 1))
            done.add(id(p))
