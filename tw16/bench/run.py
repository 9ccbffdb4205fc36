"""``tw16 bench``: benchmark figures as JSON, with the machine they were measured on."""

from __future__ import annotations

import os
import platform

import numpy as np

from envs import _core


def _git_commit() -> str | None:
    """The commit of the checkout the benchmark ran from (with ``+dirty`` for local changes), to quote."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+dirty" if dirty else "")


def _cpu_model() -> str:
    """The CPU's marketing name where the OS says it (Linux /proc/cpuinfo), else the architecture."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _machine() -> dict:
    return {
        "git_commit": _git_commit(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "cpu": _cpu_model(),
        "os": platform.platform(terse=True),
        "cores": os.cpu_count(),
        "core_threads": _core.num_threads(),  # threads of the native core's batch calls (envs._core)
        "load_avg_1_5_15": [round(x, 2) for x in os.getloadavg()],  # other jobs share the cores
    }


def run_bench(what: str, seconds: float = 1.0, device: str = "cpu", net: str = "main") -> dict:
    """``device`` and ``net``: of ``train`` only (``tw16.bench.train``)."""
    machine = _machine()
    if what == "scoring":
        from tw16.bench.hand import N_RATES, bench_hand
        from tw16.bench.scoring import bench_scoring

        # --seconds is the time of the whole command's measuring, shared by its figures
        runs = [(p, {}) for p in ("standard", "strict16", "casual")]
        runs += [(p, {"extras": True}) for p in ("standard", "strict16", "casual")]  # EXTRAS.md pack
        runs.append(("hongkong", {}))  # HONGKONG.md, its own scorer
        share = seconds / (N_RATES + len(runs))
        result = {"seconds": seconds, "hand": bench_hand(share)}
        result["scoring"] = [bench_scoring(p, share, **opts) for p, opts in runs]
    elif what == "engine":
        from tw16.bench.engine import bench_engine

        result = bench_engine(seconds=seconds)
    elif what == "env":
        from tw16.bench.env import bench_env

        result = bench_env(seconds=seconds)
    elif what == "train":
        from tw16.bench.train import bench_train

        result = bench_train(seconds=seconds, device=device, net=net)
    else:
        raise ValueError(f"unknown benchmark {what!r} (scoring, engine, env, train)")
    return {"bench": what, "machine": machine, **result, "load_avg_after": [round(x, 2) for x in os.getloadavg()]}


# -- tw16 bench soak ---------------------------------------------------------------------------
# Every profile and rule-option combination the soak plays (name, profile, options). Each is played
# with both compiled policies of envs.engine.randplay (uniform random, and greedy: win when legal,
# discard to the lowest shanten), the invariant checker (envs.engine.invariants.check_game) after
# every step.
_ALL_ON = {
    "multi_win": True,
    "strict_pass": True,
    "no_calls_last3": False,
    "no_kong_after_claim": False,
    "kong_replacement_self_draw": False,
    "swap_call": False,
    "dead_wall_per_kong": True,
    "streak_cap": 1,
}
_HK_ALL_OFF = {
    "multi_win": False,
    "strict_pass": False,
    "swap_call": True,
    "declare_ready": False,
    "flower_win": "auto",
    "dice_payments": False,
    "settlement": "immediate",
    "la_cut": "none",
}
SOAK_COMBOS: tuple[tuple[str, str, dict], ...] = (
    ("standard", "standard", {}),
    ("standard/no-flowers", "standard", {"flowers": False, "dead_wall": 0}),
    ("standard/all-options", "standard", _ALL_ON),
    ("standard/multi_win+strict_pass", "standard", {"multi_win": True, "strict_pass": True, "swap_call": False}),
    ("standard/dead_wall=60", "standard", {"dead_wall": 60}),
    ("standard/west_draw", "standard", {"west_draw": True, "stakes": "50/20"}),
    ("standard/game", "standard", {"episode": "game"}),
    ("standard/game+all-options", "standard", {"episode": "game", **_ALL_ON}),
    ("strict16", "strict16", {}),
    ("strict16/no-flowers", "strict16", {"flowers": False}),
    ("strict16/no-ready+multi_win", "strict16", {"declare_ready": False, "multi_win": True, "strict_pass": True}),
    ("strict16/game", "strict16", {"episode": "game"}),
    ("casual", "casual", {}),
    ("casual/no-flowers", "casual", {"flowers": False}),
    ("casual/all-options", "casual", {**_ALL_ON, "west_draw": False, "declare_ready": False}),
    ("casual/game", "casual", {"episode": "game"}),
    ("standard+extras", "standard", {"extras": True}),
    ("standard+extras/gap2+no-flowers", "standard", {"extras": True, "unrelated_gap": 2, "flowers": False}),
    ("strict16+extras", "strict16", {"extras": True}),
    ("strict16+extras/game", "strict16", {"extras": True, "episode": "game", "multi_win": True}),
    ("casual+extras", "casual", {"extras": True}),
    ("casual+extras/some-off", "casual", {"extras": True, "extras_off": ["eight_pairs", "sixteen_unrelated"]}),
    ("hongkong", "hongkong", {}),
    ("hongkong/all-off", "hongkong", _HK_ALL_OFF),
    ("hongkong/dead_wall=60", "hongkong", {"dead_wall": 60}),
    ("hongkong/dealer_pays+no-flowers", "hongkong", {"dealer_pays_on_self_draw": True, "flowers": False}),
    ("hongkong/count_method=2+single-reading", "hongkong", {"count_method": 2, "dual_reading": False}),
    ("hongkong/game", "hongkong", {"episode": "game"}),
    ("hongkong/game+la_cut_ask", "hongkong", {"episode": "game", "la_cut_policy": "ask"}),
    ("hongkong/game+la_draw_settle", "hongkong", {"episode": "game", "la_draw": "settle", "la_cut": "none"}),
    ("hongkong/game+all-off", "hongkong", {"episode": "game", **_HK_ALL_OFF}),
    ("olympiad", "olympiad", {}),
    ("olympiad/game", "olympiad", {"episode": "game"}),
    ("olympiad+extras", "olympiad", {"extras": True}),  # the pack's shapes stay off (special_wins)
    ("olympiad/rob_kong+multi_win", "olympiad", {"rob_kong": True, "multi_win": True}),
    # the platform tables (PLATFORMS.md): their ready windows, early wins and seven-flower rule
    ("wikibooks", "wikibooks", {}),
    ("star31", "star31", {}),
    ("masters", "masters", {}),
    ("mj888", "mj888", {}),
    ("zhonghua", "zhonghua", {}),
    ("zhaishenye", "zhaishenye", {}),
    ("star31/game+offer", "star31", {"episode": "game", "flower_win": "offer"}),
    ("zhaishenye/game+extras", "zhaishenye", {"episode": "game", "extras": True}),
    (
        "masters/no-ready+multi_win",
        "masters",
        {"declare_ready": False, "heavenly_ready_window": "deal", "multi_win": True},
    ),
)
SOAK_CHUNK = 2048  # games per engine batch
SOAK_FIRST_GAMES = 1  # episode "game": games of the first batch, to measure hands per game (random play
# keeps the dealer through many drawn hands: thousands of hands per game)


def _soak_seed(seed: int, combo: int, policy: int, chunk: int) -> int:
    from envs.engine.rng import mix64

    return mix64(mix64(mix64(seed) ^ combo) ^ (policy << 32 | chunk)) & ((1 << 63) - 1)


def run_soak(hands: int, seed: int | None = None, combos=None, progress=None) -> dict:
    """Play at least ``hands`` hands, spread evenly over every combination of ``SOAK_COMBOS`` (or
    ``combos``) and both policies, with the invariant checker after every step. Returns the figures:
    hands, episodes, decisions and wins played, ``violations`` (their number) with the first few
    (combination, policy, seed, game, error, step: ``random_play(Engine(rules, 1), seed, games=[game])``
    replays one alone), and the counts per combination and policy."""
    import time

    from envs.engine.api import Engine
    from envs.engine.invariants import ERROR_NAMES
    from envs.engine.randplay import (
        OUT_DECISIONS,
        OUT_EPISODES,
        OUT_ERROR,
        OUT_ERROR_STEP,
        OUT_HANDS,
        OUT_WINS,
        POLICY_GREEDY,
        POLICY_UNIFORM,
        random_play,
    )
    from envs.rules import Rules

    seed = 0 if seed is None else int(seed)
    combos = SOAK_COMBOS if combos is None else combos
    policies = (("random", POLICY_UNIFORM), ("greedy", POLICY_GREEDY))
    pairs = [(ci, c, pname, pol) for ci, c in enumerate(combos) for pname, pol in policies]
    quota = -(-hands // len(pairs))
    rows, examples = [], []
    totals = dict.fromkeys(("hands", "episodes", "decisions", "wins", "violations"), 0)
    t0 = time.perf_counter()
    for ci, (name, profile, opts), pname, pol in pairs:
        rules = Rules.make(profile, **opts)
        whole_games = rules.episode == "game"
        row = {
            "name": name,
            "profile": profile,
            "options": opts,
            "policy": pname,
            **dict.fromkeys(("hands", "episodes", "decisions", "wins", "violations"), 0),
        }
        chunk = 0
        while row["hands"] < quota:
            if whole_games and not row["episodes"]:
                games = SOAK_FIRST_GAMES
            else:
                per_episode = max(1, row["hands"] // row["episodes"]) if whole_games else 1
                games = max(1, min(SOAK_CHUNK, -(-(quota - row["hands"]) // per_episode)))
            sd = _soak_seed(seed, ci, pol, chunk)
            out = random_play(Engine(rules, games), seed=sd, episodes=1, check=True, policy=pol)
            bad = np.flatnonzero(out[:, OUT_ERROR])
            for b in bad[: max(0, 20 - len(examples))]:
                examples.append(
                    {
                        "combination": name,
                        "policy": pname,
                        "seed": sd,
                        "game": int(b),
                        "error": ERROR_NAMES[int(out[b, OUT_ERROR])],
                        "step": int(out[b, OUT_ERROR_STEP]),
                    }
                )
            row["violations"] += int(bad.size)
            for key, col in (
                ("hands", OUT_HANDS),
                ("episodes", OUT_EPISODES),
                ("decisions", OUT_DECISIONS),
                ("wins", OUT_WINS),
            ):
                row[key] += int(out[:, col].sum())
            chunk += 1
            if bad.size:  # a game stopped at its first violation: do not count on it to fill the quota
                break
        for k in totals:
            totals[k] += row[k]
        rows.append(row)
        if progress is not None:
            progress(row)
    seconds = time.perf_counter() - t0
    return {
        "bench": "soak",
        "machine": _machine(),
        "requested_hands": hands,
        "seed": seed,
        **totals,
        "combinations": len(combos),
        "policies": [p for p, _ in policies],
        "seconds": round(seconds, 2),
        "hands_per_s": round(totals["hands"] / seconds, 1) if seconds > 0 else None,
        "violation_examples": examples,
        "per_combination": rows,
    }
