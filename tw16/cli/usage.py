"""User mistakes on the ``tw16`` command line: one line on stderr and exit code 2, never a traceback.

A subcommand raises ``UsageError`` for a bad argument; ``tw16.cli.main.main`` prints
``tw16 COMMAND: message`` and returns 2, as argparse does for its own errors (``tw16 bench nonsense``).
The project's own error classes (a bad rules option, profile, notation, checkpoint, replay log)
raised by a subcommand are user mistakes too and are answered the same way (``USER_ERRORS``).
"""

from __future__ import annotations

import json
import math
import sys


class UsageError(Exception):
    """A bad command-line argument; the message names it."""


class ReplayError(ValueError):
    """A log that cannot be read or does not reproduce (``tw16 replay``; here so that tw16.cli.replay
    imports this module and not the other way round)."""


def user_errors() -> tuple[type[BaseException], ...]:
    """The exception classes that mean "the user gave something wrong" (imported lazily: the
    classes live in modules that load compiled code). Ask after the error was raised."""
    from envs.rules import RulesError
    from envs.scoring.profile import ProfileError
    from envs.tiles import NotationError

    classes: list[type[BaseException]] = [UsageError, RulesError, ProfileError, NotationError, ReplayError]
    # Only from modules already imported: one that was not cannot have raised its error, and importing
    # agents.neural would import torch (seconds) for every command, `tw16 score` included.
    for module, name in (
        ("agents.neural", "CheckpointError"),
        ("agents.user", "UserAgentError"),
        ("agents.device", "DeviceError"),
    ):
        cls = getattr(sys.modules.get(module), name, None)
        if cls is not None:
            classes.append(cls)
    return tuple(classes)


def positive_int(value, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise UsageError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return value


def positive_seconds(value, name: str = "--seconds") -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or value <= 0:
        raise UsageError(f"{name} must be a positive number of seconds, got {value!r}")
    return float(value)


def rules_from_args(profile: str, rules_json: str | None):
    """``--profile NAME --rules JSON`` -> ``Rules``; any problem is a ``UsageError`` naming it."""
    from envs.rules import Rules, RulesError
    from envs.scoring.profile import ProfileError

    opts = {}
    if rules_json:
        try:
            opts = json.loads(rules_json)
        except (ValueError, RecursionError) as e:
            raise UsageError(
                f"--rules is not valid JSON ({e}); give an object like '{{\"multi_win\": true}}'"
            ) from None
        if not isinstance(opts, dict):
            raise UsageError(f"--rules must be a JSON object like '{{\"multi_win\": true}}', got {rules_json!r}")
    try:
        return Rules.make(profile, **opts)
    except (RulesError, ProfileError) as e:
        raise UsageError(f"bad rules: {e}") from None


def check_agents(specs, seed: int = 0) -> None:
    """Build each agent once so that an unknown name or an unreadable checkpoint is refused before
    any game is played (``UsageError`` naming the spec and the known agents)."""
    from agents import make_agent

    for spec in specs:
        try:
            make_agent(spec, seed=seed)
        except (ValueError, OSError) as e:  # unknown name, missing or unreadable checkpoint
            msg = str(e)  # the agents' own messages already name the spec
            raise UsageError(msg if msg.startswith(("unknown agent", "agent ")) else f"agent {spec!r}: {msg}") from None


def check_device(spec, name: str = "--device"):
    """``--device``: the name of a device torch can use here (``agents.device.device_name``: ``cpu``
    without loading torch), else ``UsageError`` naming the option and the device."""
    from agents.device import DeviceError, device_name

    try:
        return device_name(spec)
    except DeviceError as e:
        raise UsageError(f"{name}: {e}") from None
