"""The decision path runs without reference counting (``envs/engine/views.py``): it must free every
compiled allocation of the functions it calls (the scoring at a hand's end), and every compiled
function of tw16 must choose its own reference counting (``envs/jit.py``) so that none inherits
"off" from such a caller."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Compiled allocations still alive (arrays, meminfos), before and after many hands with wins, on the
# random-play loop and on the API's step, hongkong included (its scorer and side payments allocate).
LEAK_CHECK = """
import numpy as np
from numba.core.runtime import rtsys
from envs.engine.api import Engine
from envs.engine.randplay import POLICY_GREEDY, random_play
from envs.rules import Rules

def live():
    s = rtsys.get_allocation_stats()
    return s.alloc - s.free, s.mi_alloc - s.mi_free

for rules in (Rules(), Rules(profile="hongkong")):
    for batch in (1, 64):
        eng = Engine(rules, batch, auto_reset=True)
        random_play(eng, seed=0, episodes=1, check=False, policy=POLICY_GREEDY)
        eng.reset(np.arange(batch))
        eng.step(eng.legal_action_mask.argmax(1))
        before = live()
        out = random_play(eng, seed=1, episodes=8, check=False, policy=POLICY_GREEDY)
        assert out[:, 3].sum() > 0, "no hand was won: scoring did not run"
        eng.reset(np.arange(batch))
        rng = np.random.default_rng(0)
        for _ in range(600):
            m = eng.legal_action_mask
            eng.step(np.array([rng.choice(np.flatnonzero(r)) for r in m]))
        after = live()
        print(rules.profile, batch, before, after)
        assert after == before, (rules.profile, batch, before, after)
print("ok")
"""


def test_decision_path_frees_what_it_allocates():
    env = dict(os.environ, NUMBA_NRT_STATS="1", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", LEAK_CHECK], env=env, capture_output=True, text=True, cwd=ROOT,
                       timeout=1800)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr[-3000:]


def test_every_compiled_function_uses_the_project_njit():
    direct = re.compile(r"^\s*from numba import [^\n]*\bn?jit\b|^\s*@numba\.n?jit\b|[=(]\s*numba\.n?jit\(", re.M)
    offenders = [str(f.relative_to(ROOT)) for tree in ("envs", "agents", "training") for f in (ROOT / tree).rglob("*.py")
                 if f.name != "jit.py" and direct.search(f.read_text(encoding="utf-8"))]
    assert offenders == [], f"import njit from envs.jit, not numba: {offenders}"
