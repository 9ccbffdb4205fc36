"""Agents: one protocol (``agents.base.Agent``), batched and seeded.

``make_agent(spec)`` builds one from a spec string ``KIND`` or ``KIND:ARG``. The kinds are one table,
:data:`AGENT_KINDS` (the command-line help of ``tw16 eval`` and ``tw16 play`` and the "unknown agent"
message are generated from it): ``random``, ``greedy``, ``defensive``, ``neural[:PATH]`` (the shipped
checkpoint, or a checkpoint file), ``search[:k=8,n=3,...]`` (determinized rollouts, ``agents.search``),
``guarded[:BASE]`` (BASE, the shipped network by default, folding where Defensive folds, ``agents.guarded``),
``sb3+trusted:PATH`` (a Stable-Baselines3 model, ``agents.sb3_agent``; the ``sb3`` extra; such a zip
runs code when loaded, so ``sb3:PATH`` without ``+trusted`` is refused, docs/sb3.md) and
``py:MODULE:ATTR`` (your own class or factory, ``agents.user``; docs/agents.md) and ``olympiad:COMMAND``
or ``olympiad[cwd=DIR,timeout=S,...]:COMMAND`` (an external bot speaking the Computer Olympiad protocol,
``agents.olympiad``; docs/olympiad.md). A name that is no kind
is looked up among the policies registered with ``envs.policies`` (installed packages register theirs
through the ``tw16.policies`` entry-point group).

Importing ``agents`` registers the kinds with ``envs.policies``, so the envs take them as
``opponents`` (envs never imports agents).

Layering: envs <- agents <- evaluation <- training <- bench <- cli. Agents read observations of envs;
the packages above play them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from agents.base import Agent, RandomAgent
from envs.validate import policy_seed


def _random(arg, seed, device):
    return RandomAgent(seed)


def _greedy(arg, seed, device):
    from agents.greedy import GreedyAgent

    return GreedyAgent(seed)


def _defensive(arg, seed, device):
    from agents.greedy import DefensiveAgent

    return DefensiveAgent(seed)


def _neural(arg, seed, device):
    from agents.neural import DEFAULT_CHECKPOINT, NeuralAgent

    agent = NeuralAgent(arg or DEFAULT_CHECKPOINT, device=device, seed=seed)
    if arg:
        agent.name = f"neural:{arg}"
    return agent


def _search(arg, seed, device):
    from agents.search import SearchAgent

    return SearchAgent.from_spec(arg, seed=seed)


def _guarded(arg, seed, device):
    from agents.guarded import GuardedAgent

    base = arg or "neural"
    kind, inner = _split(base)
    if kind == "guarded":
        raise ValueError(f"agent 'guarded:{arg}': the base is guarded already; write guarded:{inner or 'neural'}")
    return GuardedAgent(
        make_agent(base, seed=seed, device=device), seed=seed, name=f"guarded:{base}" if arg else "guarded"
    )


def _sb3(arg, seed, device):
    from agents.sb3_agent import SB3Agent

    return SB3Agent(arg, seed=seed, device=device, name=f"sb3:{arg}", trusted=True)


def _py(arg, seed, device):
    from agents.user import load_user_agent

    return load_user_agent(arg, seed=seed)


def _olympiad(arg, seed, device):
    from agents.olympiad.host import OlympiadAgent

    return OlympiadAgent.from_spec("olympiad" + (arg if arg.startswith("[") else ":" + arg), make_agent, seed=seed)


@dataclass(frozen=True)
class AgentKind:
    """One kind of agent spec: ``name`` (the part before ':'), ``arg`` how it is written after the ':'
    (``""``: none), whether that argument is ``optional``, a one-line ``help``, and ``build(arg, seed,
    device)``."""

    name: str
    arg: str
    optional: bool
    help: str
    build: Callable

    @property
    def usage(self) -> str:
        if not self.arg:
            return self.name
        return f"{self.name}[:{self.arg}]" if self.optional else f"{self.name}:{self.arg}"


# The one table of agent kinds: help texts, the error message and make_agent read it.
AGENT_KINDS: tuple[AgentKind, ...] = (
    AgentKind("random", "", False, "uniform over the legal actions", _random),
    AgentKind("greedy", "", False, "lowest shanten, claims what shortens it", _greedy),
    AgentKind("defensive", "", False, "greedy that folds against danger", _defensive),
    AgentKind("neural", "PATH", True, "a policy network (default: the shipped checkpoint)", _neural),
    AgentKind(
        "search",
        "k=K,n=N,rollout=R,z=Z,base=B,w=W,ms=MS,leaf=L,m=M",
        True,
        "determinized rollouts or short leaves over a base agent",
        _search,
    ),
    AgentKind(
        "guarded",
        "BASE",
        True,
        "BASE (default: neural) that plays Defensive's discard where Defensive folds (agents.guarded)",
        _guarded,
    ),
    AgentKind(
        "sb3+trusted",
        "PATH",
        False,
        "a Stable-Baselines3 model saved by model.save, which you trust: "
        "its zip runs code when loaded (sb3 extra; sb3:PATH is refused, docs/sb3.md)",
        _sb3,
    ),
    AgentKind(
        "py",
        "MODULE:ATTR",
        False,
        "your class or factory, MODULE importable from the current folder (docs/agents.md)",
        _py,
    ),
    AgentKind(
        "olympiad",
        "COMMAND",
        False,
        "an external Computer Olympiad / TCGA protocol bot, a shell command "
        "(olympiad[cwd=DIR,timeout=S]:COMMAND; docs/olympiad.md)",
        _olympiad,
    ),
)
KINDS = {k.name: k for k in AGENT_KINDS}
# the kinds a bare name builds (``neural`` without a path is the shipped network)
AGENT_NAMES = tuple(k.name for k in AGENT_KINDS if not k.arg or k.optional)


def agent_usage(sep: str = " | ") -> str:
    """Every kind as written on the command line, e.g. ``random | greedy | ... | py:MODULE:ATTR``."""
    return sep.join(k.usage for k in AGENT_KINDS)


def agent_help() -> str:
    """One line per kind (``tw16 eval --help`` and ``tw16 play --help`` print it)."""
    width = max(len(k.usage) for k in AGENT_KINDS)
    return "\n".join(f"  {k.usage:<{width}}  {k.help}" for k in AGENT_KINDS)


def _plugin(name: str):
    """The factory an installed package registered for ``name`` (``tw16.policies`` entry points,
    ``envs.policies.register_policy``), or None."""
    from envs.policies import registered_factory

    return None if name in KINDS else registered_factory(name)


def _split(spec) -> tuple[str, str]:
    """``KIND:ARG`` -> (KIND, ARG); an olympiad spec with options, ``olympiad[...]:COMMAND``, keeps them in ARG."""
    name, _, arg = str(spec).partition(":")
    if name.startswith("olympiad["):
        return "olympiad", str(spec)[len("olympiad") :]
    return name, arg


def unknown_agent(spec: str) -> str | None:
    """Why ``spec`` names no agent (the message ``make_agent`` raises), or None when it names one (its
    argument is checked when the agent is made)."""
    name, arg = _split(spec)
    if name == "sb3" and arg:  # refused here, so that tw16 eval's check before Ray workers refuses it too
        from agents.sb3_agent import untrusted_message

        return untrusted_message(arg)
    kind = KINDS.get(name)
    if kind is not None:
        if arg and not kind.arg:
            return f"{spec!r}: {name} takes no argument (got {arg!r}); use {name!r}"
        if not arg and kind.arg and not kind.optional:
            return f"agent {spec!r}: write {kind.usage}"
        return None
    if _plugin(name) is not None:
        return None
    return f"unknown agent {spec!r} (known: {agent_usage(', ')}, or a name an installed package registers)"


def make_agent(spec: str, seed: int | None = 0, device: str = "cpu"):
    """The agent ``spec`` names, seeded (``ValueError`` naming the problem for a bad spec)."""
    if why := unknown_agent(spec):
        raise ValueError(why)
    seed = policy_seed(seed)
    name, arg = _split(spec)
    if name in KINDS:
        return KINDS[name].build(arg, seed, device)
    return _plugin(name)(spec, seed)


def _register() -> None:
    """Make every agent kind a policy spec the envs resolve (``envs.policies``: envs never imports
    agents, so agents register themselves when imported)."""
    from envs.policies import register_policy

    for name in (*KINDS, "sb3"):  # sb3: so that an env opponent 'sb3:PATH' gets make_agent's refusal
        register_policy(name, lambda spec, seed: make_agent(spec, seed=seed))


_register()

__all__ = [
    "Agent",
    "RandomAgent",
    "make_agent",
    "unknown_agent",
    "AGENT_KINDS",
    "AGENT_NAMES",
    "agent_usage",
    "agent_help",
]
