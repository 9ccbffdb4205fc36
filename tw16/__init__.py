"""tw16's top layer: the command line (``tw16.cli``, the ``tw16`` command) and the benchmarks
(``tw16.bench``, ``tw16 bench``). The library itself is ``envs`` (the game, its rules and the
environments), ``agents`` (the agents and ``agents.evaluation``) and ``training``; this package
imports them and nothing imports it (tests/test_imports.py)."""
