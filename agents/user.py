"""Your own agent on the command line: the spec ``py:MODULE:ATTR`` (docs/agents.md).

``MODULE`` is imported from the current folder or ``sys.path`` (``my_agent`` for ``./my_agent.py``,
``pkg.sub`` for a package); ``ATTR`` is a class or a factory that follows the agent protocol
(``agents.base.Agent``): it is called with ``seed=SEED`` when it takes a ``seed`` argument, else with
no argument, and what it returns must have ``act(obs, mask)`` and ``reset(seed)``. Its ``name`` (the
league table's row) defaults to the spec.

The agent is wrapped (:class:`CheckedAgent`) so that an ``act`` that returns the wrong shape or an
illegal action is an error naming the agent, not a broken game. Importing a module runs its code:
give only modules you trust, as with ``python my_agent.py``.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys

import numpy as np


class UserAgentError(ValueError):
    """A ``py:MODULE:ATTR`` spec that names nothing usable, or an agent that broke the protocol."""


def _import(module: str):
    """Import ``module`` with the current folder first on the path (``tw16`` is a console script:
    its ``sys.path[0]`` is the script's folder, not the user's)."""
    cwd = os.getcwd()
    added = cwd not in sys.path
    if added:
        sys.path.insert(0, cwd)
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise UserAgentError(
            f"py:{module}: cannot import {module!r} ({e}); run from the folder that holds "
            f"{module.split('.')[0]}.py or put it on PYTHONPATH"
        ) from None
    finally:
        if added:
            sys.path.remove(cwd)


def _call(factory, seed):
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        params = {}
    takes_seed = "seed" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())
    return factory(seed=seed) if takes_seed else factory()


def load_user_agent(arg: str, seed: int | None = 0) -> CheckedAgent:
    """``MODULE:ATTR`` -> the agent it builds, checked against the protocol."""
    module, _, attr = str(arg).partition(":")
    if not module or not attr:
        raise UserAgentError(
            f"agent 'py:{arg}': write py:MODULE:ATTR, e.g. py:my_agent:Agent for class Agent in ./my_agent.py"
        )
    mod = _import(module)
    obj = mod
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise UserAgentError(f"agent 'py:{arg}': module {module!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise UserAgentError(f"agent 'py:{arg}': {attr!r} is not a class or a factory")
    agent = _call(obj, seed)
    for method in ("act", "reset"):
        if not callable(getattr(agent, method, None)):
            raise UserAgentError(
                f"agent 'py:{arg}': {attr}() gave {type(agent).__name__}, which has no "
                f"{method}() (the protocol: act(obs, mask), reset(seed), name; docs/agents.md)"
            )
    return CheckedAgent(agent, name=getattr(agent, "name", None) or f"py:{arg}")


class CheckedAgent:
    """A user's agent behind the protocol's checks: ``act`` must return one legal action per row."""

    def __init__(self, agent, name: str):
        self.agent = agent
        self.name = str(name)
        self.derived = bool(getattr(agent, "derived", False))  # asks for the derived planes (86 channels)

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = self.agent.act(obs, mask)
        try:
            acts = np.asarray(out)
        except (TypeError, ValueError):
            acts = np.empty(0)
        n = len(mask)
        if acts.shape != (n,) or acts.dtype.kind not in "iu":
            raise UserAgentError(
                f"agent {self.name!r}: act(obs, mask) must return {n} integer actions (shape ({n},)), "
                f"got {type(out).__name__} of shape {getattr(acts, 'shape', None)} dtype {acts.dtype}"
            )
        acts = acts.astype(np.int64)
        ok = (acts >= 0) & (acts < mask.shape[1])
        ok[ok] = np.asarray(mask, bool)[np.flatnonzero(ok), acts[ok]]
        if not ok.all():
            k = int(np.flatnonzero(~ok)[0])
            raise UserAgentError(
                f"agent {self.name!r}: act returned action {int(acts[k])} in row {k}, which is not "
                "legal there (choose where mask is true)"
            )
        return acts
