"""Agents: one protocol (``agents.base.Agent``), batched and seeded.

``make_agent(spec)`` builds one from a short name: ``random``, ``greedy``, ``defensive``, ``neural``
(the shipped checkpoint) or ``neural:PATH`` (a checkpoint file).
"""

from __future__ import annotations

from agents.base import Agent, RandomAgent

AGENT_NAMES = ("random", "greedy", "defensive", "neural")


def make_agent(spec: str, seed: int | None = 0, device: str = "cpu"):
    name, _, arg = str(spec).partition(":")
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
    raise ValueError(f"unknown agent {spec!r} (known: {', '.join(AGENT_NAMES)}, or neural:PATH)")


__all__ = ["Agent", "RandomAgent", "make_agent", "AGENT_NAMES"]
