"""Differential test of two builds: play the same seeded random legal games under every profile and
print one digest per profile (or per profile and rules variant) of everything the game produced.

Run it in two checkouts (each with its own built venv) and compare the outputs line by line:

    python tools/differential.py --hands 200000 > new.txt      # in this checkout
    (cd ../old && python tools/differential.py --hands 200000) > old.txt
    diff old.txt new.txt

Two passes per profile:

- the core's own random play (``envs.engine.randplay.random_play``, the invariant checker on after
  every step), ``--hands`` hands with the uniform policy and a quarter as many with the greedy one
  (it wins more often, so more scoring): the digest covers the hash of every action taken, the
  counts, and every state array after each batch (scores, settlements, records);
- the Python API (``Engine.step`` with auto-reset), ``--api-hands`` hands: per step the actions,
  masks, rewards and terminations; every 4th step every state array and the observation of the
  seat to move (planes_v1); every finished hand's record (winners, tai and items, deltas).

The actions depend on the masks, so one differing mask changes every later digest. Only the public
Python API is used (Engine, random_play, PlanesV1, Rules), so the script runs against builds whose
bindings differ.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time

import numpy as np

from envs.engine.api import Engine
from envs.engine.randplay import O_ERROR, O_HANDS, POLICY_GREEDY, POLICY_UNIFORM, random_play
from envs.obs.planes_v1 import PlanesV1
from envs.rules import Rules

PROFILES = (
    "standard",
    "strict16",
    "casual",
    "extras",
    "hongkong",
    "masters",
    "mj888",
    "olympiad",
    "star31",
    "wikibooks",
    "zhaishenye",
    "zhonghua",
)


def _choose(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One legal action per game, uniform over its mask (argmax of masked uniform keys)."""
    keys = rng.random(mask.shape)
    return np.where(mask, keys, -1.0).argmax(axis=1)


def digest_native(profile: str, hands: int, batch: int, seed: int, policy: int) -> tuple[str, int]:
    eng = Engine(Rules.make(profile), batch_size=batch)
    h = hashlib.blake2b(digest_size=16)
    done = call = 0
    while done < hands:
        out = random_play(eng, seed=seed + call, episodes=1, check=True, policy=policy)
        assert not out[:, O_ERROR].any(), f"{profile}: invariant error {out[out[:, O_ERROR] != 0][0]}"
        h.update(np.ascontiguousarray(out).tobytes())
        for arr in eng.s:
            h.update(np.ascontiguousarray(arr).tobytes())
        done += int(out[:, O_HANDS].sum())
        call += 1
    return h.hexdigest(), done


def digest_api(profile: str, hands: int, batch: int, seed: int) -> tuple[str, int, int]:
    eng = Engine(Rules.make(profile), batch_size=batch, auto_reset=True, record_hands=True)
    eng.reset(seed)
    enc = PlanesV1()
    buf = enc.alloc(batch)
    rng = np.random.default_rng(seed)
    h = hashlib.blake2b(digest_size=16)
    done = steps = 0
    while done < hands:
        a = _choose(rng, eng.legal_action_mask)
        h.update(a.astype(np.int64).tobytes())
        h.update(np.ascontiguousarray(eng.legal_action_mask).tobytes())
        rewards, terminated = eng.step(a)
        h.update(np.ascontiguousarray(rewards).tobytes())
        h.update(np.ascontiguousarray(terminated).tobytes())
        if steps % 4 == 0:
            for arr in eng.s:
                h.update(np.ascontiguousarray(arr).tobytes())
            h.update(enc.encode(eng, out=buf).tobytes())
        for rec in eng.take_hands():
            h.update(repr(rec).encode())
            done += 1
        steps += 1
    return h.hexdigest(), done, steps


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200_000, help="random_play hands per profile (at least)")
    ap.add_argument("--api-hands", type=int, default=20_000, help="Engine.step hands per profile (at least)")
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--profiles", nargs="*", default=list(PROFILES))
    args = ap.parse_args(argv)
    for p in args.profiles:
        t = time.perf_counter()
        d, n = digest_native(p, args.hands, args.batch, args.seed, POLICY_UNIFORM)
        print(f"{p} random_play uniform hands={n} digest={d}", flush=True)
        d, n = digest_native(p, args.hands // 4, args.batch, args.seed + 10**6, POLICY_GREEDY)
        print(f"{p} random_play greedy hands={n} digest={d}", flush=True)
        d, n, steps = digest_api(p, args.api_hands, min(args.batch, 1024), args.seed)
        print(f"{p} Engine.step hands={n} steps={steps} digest={d}", flush=True)
        print(f"  {p}: {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
