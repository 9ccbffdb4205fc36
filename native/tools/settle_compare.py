"""Old settlement code (score.cpp settle, hongkong.cpp hk_legs/hk_settle, handend.cpp win_legs, api.py's
dealer-tai report) against the new one (settle.cpp), on random wins under every profile and option."""
import sys
import numpy as np
from envs import _core
from envs.rules import Rules, OPT_STREAK_CAP, OPT_BASE, OPT_PER_TAI

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
rng = np.random.default_rng(16)
rule_sets = []
for prof in ("standard", "strict16", "casual", "hongkong"):
    for extra in ({}, {"extras": True}) if prof != "hongkong" else ({}, {"dealer_pays_on_self_draw": True}):
        try:
            rule_sets.append((prof + str(extra), Rules.make(prof, **extra)))
        except Exception as e:
            print("skip", prof, extra, e)
variants = []
for name, r in rule_sets:
    for cap in (-1, 0, 2):
        for base, per in ((30, 10), (0, 1), (10**9, 10**9), (7, 0)):
            o = r.as_array().copy()
            o[OPT_STREAK_CAP], o[OPT_BASE], o[OPT_PER_TAI] = cap, base, per
            variants.append((name, o))

def inputs(n):
    a = np.zeros((n, 7), np.int64)
    a[:, 0] = np.where(rng.random(n) < 0.8, rng.integers(0, 300, n), rng.integers(-5, 5, n))
    huge = rng.random(n) < 0.02
    a[huge, 0] = rng.integers(2**61, 2**63 - 1, huge.sum())
    a[:, 1] = rng.integers(0, 4, n)
    a[:, 2] = rng.integers(0, 4, n)
    a[:, 3] = np.where(rng.random(n) < 0.4, -1, rng.integers(0, 4, n))
    a[:, 4] = np.where(rng.random(n) < 0.7, -1, rng.integers(0, 4, n))
    a[:, 5] = rng.integers(0, 4, n)
    s = rng.integers(0, 12, n)
    big = rng.random(n) < 0.03
    s[big] = rng.choice(np.array([10**6, 2**62 + 5, 2**63 - 1], np.int64), big.sum())
    a[:, 6] = s
    return a

total = diff = 0
per = {}
for name, o in variants:
    a = inputs(N // len(variants) + 1)
    old = np.zeros((len(a), 34), np.int64)
    new = np.zeros((len(a), 34), np.int64)
    _core._settle_compare(a, o, old, True)
    _core._settle_compare(a, o, new, False)
    bad = (old != new).any(1)
    total += len(a)
    diff += int(bad.sum())
    per[name] = per.get(name, 0) + len(a)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        print("DIFF", name, a[i].tolist(), old[i].tolist(), new[i].tolist())
print({"wins": total, "rows_differing": diff, "option_sets": len(variants), "per_profile": per})
