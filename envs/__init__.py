"""tw16 environments: tiles, rules, hand analysis, scoring, the batch engine, observations and the
PettingZoo / Gymnasium environments."""

from envs import _jitcache  # noqa: F401  (must run before any compiled function is defined)
