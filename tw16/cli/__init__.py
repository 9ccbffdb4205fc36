"""The ``tw16`` command line (console script ``tw16 = tw16.cli.main:main``): ``main`` parses and dispatches,
one module per subcommand (``score``, ``eval``, ``play``, ``replay``, ``train``; ``tw16 bench`` is
``tw16.bench.run``), and ``usage`` turns a user's mistake into one line and exit code 2.

Layering: the top. It imports every other package (envs <- agents <- evaluation <- training <- bench
<- cli) and none imports it."""
