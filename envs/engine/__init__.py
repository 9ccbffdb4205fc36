"""The vectorised game engine (RULES.md section 2). Public API: ``envs.engine.api.Engine``.

Compiled code caches through ``envs._jitcache`` (one cache folder per version of every compiled
source the engine may inline), imported by the ``envs`` package before this module.
"""
