"""tw16 environments: tiles, rules, hand analysis, scoring, the batch engine, observations and the
PettingZoo / Gymnasium environments.

Layering: the bottom of envs <- agents <- evaluation <- training <- bench <- cli."""


def _register_gymnasium() -> None:
    """``tw16/SingleAgent-v0`` for ``gymnasium.make`` / ``gymnasium.make_vec`` (see envs.gym_env)."""
    try:
        import gymnasium
    except ImportError:  # the engine and scoring work without gymnasium
        return
    if "tw16/SingleAgent-v0" not in gymnasium.registry:
        gymnasium.register(
            id="tw16/SingleAgent-v0",
            entry_point="envs.gym_env:SingleAgentEnv",
            vector_entry_point="envs.gym_env:make_vec",
        )


_register_gymnasium()
