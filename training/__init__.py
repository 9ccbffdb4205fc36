"""Training: behaviour cloning (``bc``), PPO self-play (``ppo``, its ``config`` and ``rollout``), PPO
rollout workers on Ray (``distributed``) and the main job (``pipeline``: cloning, then PPO, then a
duplicate evaluation and a report).

Layering: envs <- agents <- evaluation <- training <- bench <- cli. It trains agents' networks on the
environments and measures them with evaluation; only the command line (``tw16.cli.train``) imports it."""
