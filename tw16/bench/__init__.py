"""Benchmarks, one module per figure: ``hand`` (hand analysis), ``scoring`` (scoring and settlement),
``engine`` (the batch engine's hands per second), ``env`` (the PettingZoo / Gymnasium environments),
and ``run``, the one entry: ``run_bench`` (``tw16 bench scoring|engine|env``, the figures with the
machine they were measured on) and ``run_soak`` (``tw16 bench soak``: random and greedy play with
the invariant checker on). docs/benchmarks.md says what each figure means.

Layering: envs <- agents <- evaluation <- training <- bench <- cli. It measures envs only; the command
line (``cli``) calls it."""
