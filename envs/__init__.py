"""tw16 environments: tiles, rules, hand analysis, scoring, the batch engine, observations and the
PettingZoo / Gymnasium environments.

Layering: the bottom of envs <- agents <- evaluation <- training <- bench <- cli."""


# Gymnasium id -> the options it fixes (docs/versions.md); v0 is registered as it always was
GYM_IDS = {"tw16/SingleAgent-v0": {}, "tw16/SingleAgent-v1": {"encoding": "planes_v1"}}


def _register_gymnasium() -> None:
    """``tw16/SingleAgent-v0`` and ``-v1`` for ``gymnasium.make`` / ``gymnasium.make_vec`` (see
    envs.gym_env)."""
    try:
        import gymnasium
    except ImportError:  # the engine and scoring work without gymnasium
        return
    for env_id, kwargs in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="envs.gym_env:SingleAgentEnv",
                vector_entry_point="envs.gym_env:make_vec",
                kwargs=dict(kwargs),
            )


_register_gymnasium()
