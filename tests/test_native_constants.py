"""native/include/tw16/constants.hpp is generated from the Python modules that define the constants
(tools/gen_constants.py): the Python modules are the one source of truth, and the header the
core is compiled with must say the same."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("gen_constants", ROOT / "tools" / "gen_constants.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_constants_header_is_up_to_date():
    gen = _generator()
    assert gen.OUT.read_text(encoding="utf-8") == gen.render(), (
        "native/include/tw16/constants.hpp is stale: run python tools/gen_constants.py and rebuild"
    )


def test_state_fields_header_is_up_to_date():
    # the state layout's one table (envs.engine.state.FIELDS) as the X-macro the core expands
    gen = _generator()
    assert gen.STATE_OUT.read_text(encoding="utf-8") == gen.render_state_fields(), (
        "native/include/tw16/state_fields.hpp is stale: run python tools/gen_constants.py and rebuild"
    )


def test_state_is_built_from_its_table():
    from envs.engine import state as st

    S = st.alloc(3, 2)
    assert st.State._fields == tuple(f.name for f in st.FIELDS)
    for f, a in zip(st.FIELDS, S):
        assert a.dtype == np.dtype(f.dtype) and a.shape == (3, *(st.dim_value(d, 2) for d in f.dims)), f.name
        assert np.all(a == f.fill), f.name
    assert S.hands.shape == (3, 4, 34) and S.mask.shape == (3, 76) and S.script.shape == (3, 2, 144)


def test_core_sees_the_same_constants():
    # a few values the compiled core exposes, against the Python source of truth
    from envs import _core
    from envs.engine import state as st
    from envs.engine.step import PARALLEL_MIN_BATCH

    assert _core.PARALLEL_MIN_BATCH == PARALLEL_MIN_BATCH > 0
    assert st.NG == 38 and st.NP == 14  # the state layout the bindings check shapes against
    S = st.alloc(2)
    import numpy as np

    from envs.engine.api import Engine
    from envs.rules import Rules

    eng = Engine(Rules(), 2)
    eng.reset(0)
    assert eng.s.g.shape[1] == st.NG and np.all(eng.current_player >= 0)
    del S


def test_the_header_reads_only_the_lowest_layer():
    # agents and benchmarks pass their tables to the kernels at run time (agents.greedy.WIN_LOGIT
    # to act_kernel) or read the core's (agents.efficiency's plane layout from envs._core)
    assert all(name.startswith("envs.") for name in _generator().MODULES)


def test_one_name_one_value():
    # a name emitted into two namespaces means the same constant there (MELD_CHI, not the action CHI)
    import re

    values: dict[str, set[str]] = {}
    for line in _generator().render().splitlines():
        m = re.match(r"inline constexpr \w+ (\w+)(\[[^=]*\])? = (.*);", line)
        if m:
            values.setdefault(m.group(1), set()).add(m.group(3))
    assert {k: v for k, v in values.items() if len(v) > 1} == {}


def test_efficiency_planes_are_the_core_layout():
    from agents import efficiency
    from envs import _core

    assert efficiency.N_EFFICIENCY == _core.N_EFFICIENCY == 9
    assert (efficiency.E_UKEIRE, efficiency.E_CHI, efficiency.E_SELF_KONG, efficiency.E_UKEIRE_NOW) == (0, 4, 7, 8)
