"""Agents: one protocol (``agents.base.Agent``), batched and seeded.

``make_agent(spec)`` builds one from a short name: ``random``, ``greedy``, ``defensive``, ``neural``
(the shipped checkpoint), ``neural:PATH`` (a checkpoint file), ``sb3:PATH`` (a Stable-Baselines3
model saved by ``model.save``, ``agents.sb3_agent``; needs the ``sb3`` extra) or ``search`` /
``search:k=8,n=3,rollout=efficient,z=3,base=greedy`` (determinized rollouts, ``agents.search``; it reads the engine).
Importing ``agents``
registers these names with ``envs.policies``, so the envs take them as ``opponents`` (envs never
imports agents).

Layering: envs <- agents <- evaluation <- training <- bench <- cli. Agents read observations of envs;
the packages above play them.
"""

from __future__ import annotations

from agents.base import Agent, RandomAgent
from envs.validate import no_argument, policy_seed

AGENT_NAMES = ("random", "greedy", "defensive", "neural", "search")


def make_agent(spec: str, seed: int | None = 0, device: str = "cpu"):
    name, _, arg = str(spec).partition(":")
    seed = policy_seed(seed)
    if name in ("random", "greedy", "defensive"):
        no_argument(spec)  # (the message unknown_agent gives too)
    if name == "random":
        return RandomAgent(seed)
    if name in ("greedy", "defensive"):
        from agents.greedy import DefensiveAgent, GreedyAgent

        return (GreedyAgent if name == "greedy" else DefensiveAgent)(seed)
    if name == "neural":
        from agents.neural import DEFAULT_CHECKPOINT, NeuralAgent

        agent = NeuralAgent(arg or DEFAULT_CHECKPOINT, device=device, seed=seed)
        if arg:
            agent.name = f"neural:{arg}"
        return agent
    if name == "search":
        from agents.search import SearchAgent

        return SearchAgent.from_spec(arg, seed=seed)
    if name == "sb3" and arg:
        from agents.sb3_agent import SB3Agent

        return SB3Agent(arg, seed=seed, device=device, name=f"sb3:{arg}")
    raise ValueError(unknown_agent(spec))


def unknown_agent(spec: str) -> str | None:
    """Why ``spec`` names no agent (the message ``make_agent`` raises), or None when its name is one
    (its argument is checked when the agent is made)."""
    name, colon, arg = str(spec).partition(":")
    if name in ("random", "greedy", "defensive") and colon:
        return f"{spec!r}: {name} takes no argument (got {arg!r}); use {name!r}"
    if name in AGENT_NAMES or (name == "sb3" and arg):
        return None
    return (f"unknown agent {spec!r} (known: {', '.join(AGENT_NAMES)}, "
            "or neural:PATH, sb3:PATH, search:k=K,n=N,rollout=R,z=Z,base=B)")


def _register() -> None:
    """Make every agent name a policy spec the envs resolve (``envs.policies``: envs never imports
    agents, so agents register themselves when imported)."""
    from envs.policies import register_policy

    for name in AGENT_NAMES + ("sb3",):
        register_policy(name, lambda spec, seed: make_agent(spec, seed=seed))


_register()

__all__ = ["Agent", "RandomAgent", "make_agent", "unknown_agent", "AGENT_NAMES"]
