"""Evaluation of agents: ``arena`` (four agents on the same walls, the seats rotated: duplicate play),
``league`` (its league table, plot and JSON figures), ``distributed`` (the walls split over Ray
workers, the same result), ``eval_seeds`` (published walls), ``luck`` and ``variance`` (the luck of
every draw as zero-mean control variates: narrower intervals for the same hands; ``vr_study``
measures them, docs/evaluation.md), and the experiments that measured and tuned the Defensive agent's tables
with the arena (``defence_tables``, ``tune_defence``; the tables themselves are agents' data, in
agents/greedy.py).

Layering: envs <- agents <- evaluation <- training <- bench <- cli. It plays agents on the engine;
training (behaviour cloning's games, the main job's report) and the command line use it."""
