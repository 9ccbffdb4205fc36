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


def _keep_v0_supported() -> None:
    """Gymnasium's ``make`` warns "The environment X-v0 is out of date" whenever the registry holds a
    higher version of the same name (``gymnasium.envs.registration._find_spec``: it compares versions,
    nothing else). tw16 keeps every version supported and loadable (docs/versions.md): v0 is not out of
    date, it is the planes_v0 encoding. So that one notice, for tw16's own ids only, is not shown."""
    import warnings

    for env_id in GYM_IDS:
        warnings.filterwarnings(
            "ignore", message=rf".*The environment {env_id} is out of date", category=DeprecationWarning
        )


_keep_v0_supported()

_SUBMODULES = ("tw16_v0", "tw16_v1")


def __getattr__(name):
    """``envs.tw16_v0`` and ``envs.tw16_v1`` after a plain ``import envs`` (docs: ``envs.tw16_v0.ENV_VERSION``),
    imported on first use: they load PettingZoo, which the engine and scoring do not need."""
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"envs.{name}")
    raise AttributeError(f"module 'envs' has no attribute {name!r}")
