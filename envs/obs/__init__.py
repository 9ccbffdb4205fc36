"""Versioned observation encoders writing into preallocated arrays (see each module's docstring)."""

from envs.obs.oracle_v0 import OracleV0
from envs.obs.planes_v0 import OBS_VERSION, PlanesV0, channel_names
from envs.obs.planes_v1 import PlanesV1
from envs.obs.readable import readable, render_table

ENCODERS = {"planes_v0": PlanesV0, "oracle_v0": OracleV0, "planes_v1": PlanesV1}

__all__ = ["ENCODERS", "OBS_VERSION", "OracleV0", "PlanesV0", "PlanesV1", "channel_names", "readable", "render_table"]
