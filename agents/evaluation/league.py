"""A league of four agents: duplicate evaluation (``evaluate``), its league table, plot and JSON figures.

The command ``tw16 eval A B C D --hands N`` (``tw16.cli.eval``) and the main job's report (``training.pipeline``)
both print these."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from agents import make_agent
from agents.device import device_name
from agents.evaluation.arena import play_duplicate, walls_for
from agents.evaluation.eval_seeds import load
from envs.rules import Rules


def evaluate(
    specs,
    hands: int,
    rules: Rules | None = None,
    seed: int = 0,
    progress: bool = True,
    workers: int = 0,
    ray: str | None = None,
    batch_walls: int = 256,
    eval_set: str | None = None,
    vr: bool = False,
    log_dir=None,
    device: str = "cpu",
) -> dict:
    """Duplicate play of the agents named by ``specs``; with ``workers`` or a Ray address ``ray``, the
    batches of walls are played on Ray workers (``agents.evaluation.distributed``), with the same result.
    ``eval_set``: deal the first walls of a published set (``agents.evaluation.eval_seeds``) instead of walls
    derived from ``seed`` (which still seeds the agents); ``vr``: add the variance-reduced figures
    (``agents.evaluation.variance``); ``log_dir``: write every hand's replay log there (one process only);
    ``device``: where the neural agents' networks run (in this process; Ray workers play on their CPUs)."""
    n_walls = walls_for(hands)
    wall_seeds = None
    if eval_set is not None:
        wall_seeds = load(eval_set)
        if n_walls > len(wall_seeds):
            raise ValueError(
                f"evaluation set {eval_set!r} has {len(wall_seeds)} walls ({4 * len(wall_seeds)} hands); "
                f"{hands} hands need {n_walls}"
            )
        wall_seeds = wall_seeds[:n_walls]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=n_walls * 4, unit="hand", desc="duplicate")
    step = (lambda n: bar.update(4 * n)) if bar else None
    try:
        if (workers or ray) and log_dir is not None:
            raise ValueError("log_dir records the hands in this process: not with Ray workers")
        if (workers or ray) and str(device) != "cpu":
            raise ValueError(f"device {device!r} is for play in this process: Ray workers play on their CPUs")
        if workers or ray:
            from agents.evaluation.arena import table_batch_walls
            from agents.evaluation.distributed import evaluate_distributed

            res = evaluate_distributed(
                specs,
                n_walls,
                rules,
                seed=seed,
                batch_walls=table_batch_walls(specs, batch_walls),
                workers=workers,
                address=ray,
                progress=step,
                wall_seeds=wall_seeds,
                vr=vr,
            )
        else:
            agents = [make_agent(s, seed=seed, device=device_name(device)) for s in specs]
            res = play_duplicate(
                agents,
                n_walls,
                rules,
                seed=seed,
                batch_walls=batch_walls,
                progress=step,
                wall_seeds=wall_seeds,
                vr=vr,
                log_dir=log_dir,
            )
    finally:
        if bar is not None:
            bar.close()
    if eval_set is not None:
        res["eval_set"] = eval_set
    return res


def league_table(res: dict) -> str:
    from rich.console import Console
    from rich.table import Table

    walls = f" of evaluation set {res['eval_set']}" if res.get("eval_set") else ""
    t = Table(
        title=f"duplicate play: {res['walls']} walls{walls} x 4 seatings = {res['hands']} hands",
        caption=RATING_NOTE,
        caption_justify="left",
    )
    rows = sorted(res["agents"].items(), key=lambda kv: -kv[1]["chips_per_hand"])
    vr = all("vr" in r for _, r in rows)
    cols = ("agent", "seats", "chips/hand", "95% CI") + (("VR chips/hand", "VR 95% CI", "CI narrower") if vr else ())
    for col in cols + ("win", "deal-in", "self-draw", "mean win tai", "drawn", "rating"):
        t.add_column(col, justify="right" if col != "agent" else "left")
    for name, r in rows:
        corrected = (
            [f"{r['vr']['chips_per_hand']:+.2f}", _ci(r["vr"]["ci95"]), f"x{r['vr']['ci_narrower']:.2f}"] if vr else []
        )
        t.add_row(
            name,
            str(r["seats"]),
            f"{r['chips_per_hand']:+.2f}",
            _ci(r["ci95"]),
            *corrected,
            f"{r['win_rate']:.3f}",
            f"{r['deal_in_rate']:.3f}",
            f"{r['self_draw_rate']:.3f}",
            f"{r['mean_win_tai']:.2f}",
            f"{r['drawn_rate']:.3f}",
            f"{res['ratings'][name]['ordinal']:.2f}",
        )
    console = Console(record=True, width=190 if vr else 140, file=io.StringIO())
    console.print(t)
    for name, row in res.get("faults", {}).items():  # external bots (agents.olympiad): protocol faults
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(row.items()) if k != "requests" and v) or "none"
        console.print(
            f"protocol faults of {name}: {sum(v for k, v in row.items() if k != 'requests')} "
            f"in {row.get('requests', 0)} requests ({kinds})"
        )
    return console.export_text()


# why the rating column can order the agents differently from chips/hand (docs/evaluation.md)
RATING_NOTE = (
    "rating: openskill ordinal (mu - 3 sigma) from each hand's ranking of the four seats by chips: it counts "
    "who finished above whom, not by how many chips, so a rare big win or deal-in moves chips/hand a lot "
    "and the rating little; the two can order agents differently"
)


def _ci(ci) -> str:
    return f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"


def short_labels(names) -> list[str]:
    """Axis labels: an agent's kind without its path (``neural:runs/train/ppo/policy.pt`` -> ``neural``),
    numbered where two would read the same."""
    kinds = [n.split(":", 1)[0] for n in names]
    out = []
    for i, (_n, k) in enumerate(zip(names, kinds)):
        same = [j for j, kk in enumerate(kinds) if kk == k]
        out.append(k if len(same) == 1 else f"{k} {same.index(i) + 1}")
    return out


def plot(res: dict, path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = plot_rows(res)
    names = sorted(rows, key=lambda n: -rows[n]["chips_per_hand"])
    labels = short_labels(names)
    means = [rows[n]["chips_per_hand"] for n in names]
    err = [
        [m - rows[n]["ci95"][0] for n, m in zip(names, means)],
        [rows[n]["ci95"][1] - m for n, m in zip(names, means)],
    ]
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=120)
    bars = ax.bar(labels, means, yerr=err, capsize=6, color=["#2a9d8f" if m >= 0 else "#e76f51" for m in means])
    # the full names (checkpoint paths) go in the legend, not under the axis where they overlap
    long = [(b, f"{lab}: {n}") for b, lab, n in zip(bars, labels, names) if lab != n]
    if long:
        ax.legend([b for b, _ in long], [t for _, t in long], fontsize=7, loc="best", handlelength=1)
    ax.axhline(0, color="black", lw=0.8)
    corrected = rows is not res["agents"]
    ax.set_ylabel("chips per hand, luck-corrected (95% CI)" if corrected else "chips per hand (95% CI)")
    ax.set_title(f"tw16 duplicate evaluation, {res['hands']} hands")
    return save_figure(fig, path)


def plot_rows(res: dict) -> dict:
    """The figures the plot shows per agent: the variance-reduced ones when the run has them (``--vr``:
    the figure the table's VR column prints), else the plain chips per hand."""
    if all("vr" in r for r in res["agents"].values()):
        return {n: r["vr"] for n, r in res["agents"].items()}
    return res["agents"]


def save_figure(fig, path) -> Path:
    """Lay out ``fig``, write it to ``path`` (folders made) and close it (this plot and
    ``training.curves``)."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def jsonable(res: dict) -> dict:
    return {k: v for k, v in res.items() if not isinstance(v, np.ndarray)}
