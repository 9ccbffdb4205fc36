"""Variance reduction of duplicate play (AIVAT-style): chips minus fitted multiples of luck terms
that have mean zero by construction (``agents.evaluation.luck``), with the coefficients cross-fitted.

For an agent, wall w gives y_w (its chips per hand over the four seatings, copies pooled) and x_w:
its own luck summed over the wall's hands, one column per luck feature, then the same features of
the three other seats. Every x_w has mean exactly zero, so y_w - beta . x_w has the mean of y_w for
any beta that does not depend on wall w. beta minimises the variance of y - beta . x (least squares
with an intercept) and is fitted on the walls of the other parity: even walls are corrected with
the beta of the odd ones and odd walls with that of the even ones (cross-fitting; a beta fitted on
the wall it corrects would correlate with its luck and bias the mean). The corrected figure and its
95% interval are computed over walls like the plain ones (``mean_ci``); with beta = 0 they are the
plain ones.

Walls are independent when the agents are deterministic (Greedy, Defensive, argmax Neural); an
agent with a random stream shares it across the walls of a batch, which ties the folds together
through the order the stream is consumed in, not through the tiles.
"""

from __future__ import annotations

import math

import numpy as np

FOLDS = 2  # even and odd walls
MIN_ROWS = 10  # rows of the fit per coefficient (intercept included)


def t95(n: int) -> float:
    """Two-sided 95% t quantile (normal beyond 30 degrees of freedom)."""
    table = {
        1: 12.71,
        2: 4.30,
        3: 3.18,
        4: 2.78,
        5: 2.57,
        6: 2.45,
        7: 2.36,
        8: 2.31,
        9: 2.26,
        10: 2.23,
        15: 2.13,
        20: 2.09,
        30: 2.04,
    }
    if n > 30:
        return 1.96
    return table.get(n) or table[min(k for k in table if k >= n)]


def mean_ci(x: np.ndarray) -> tuple[float, list[float]]:
    """Mean of per-wall values and its 95% t interval over walls (infinite with one wall)."""
    n = len(x)
    mean = float(np.mean(x))
    half = float(t95(n - 1) * np.std(x, ddof=1) / math.sqrt(n)) if n > 1 else float("inf")
    return mean, [mean - half, mean + half]


def controls(luck_own: np.ndarray, luck_total: np.ndarray, cols) -> np.ndarray:
    """(walls, 2K) control variates of the agents in ``cols`` (copies averaged, as their chips are):
    their own luck, then the other seats' (``luck_own`` (walls, 4 agents, K), ``luck_total`` (walls, K)
    all seats')."""
    own = luck_own[:, cols].mean(axis=1)
    return np.concatenate([own, luck_total - own], axis=1)


def fit_beta(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Least-squares coefficients of y on x with an intercept (the intercept is dropped: only beta . x
    is subtracted). Fewer than ``MIN_ROWS`` rows per coefficient give beta = 0 (no correction: a beta
    fitted on too few rows adds more noise than it removes; it never adds bias)."""
    if len(y) < MIN_ROWS * (x.shape[1] + 1):
        return np.zeros(x.shape[1])
    xc = x - x.mean(axis=0)
    beta, *_ = np.linalg.lstsq(xc, y - y.mean(), rcond=None)
    return beta


def cross_fit(y: np.ndarray, x: np.ndarray, beta: np.ndarray | None = None, fit_y=None, fit_x=None, fold=None):
    """Corrected per-wall values y - beta_f . x and the betas (FOLDS, columns): wall w in fold
    w % FOLDS (or ``fold[w]``) uses the beta fitted on the other walls, or the given ``beta`` for
    every fold. The fit reads ``fit_y`` (walls, m) / ``fit_x`` (walls, m, columns) when given (every
    seat's rows: four times the data), else y and x."""
    fit_y = y[:, None] if fit_y is None else fit_y
    fit_x = x[:, None] if fit_x is None else fit_x
    fold = np.arange(len(y)) % FOLDS if fold is None else np.asarray(fold)
    betas = np.zeros((FOLDS, x.shape[1]))
    out = np.array(y, np.float64)
    for f in range(FOLDS):
        here = fold == f
        if beta is None:
            betas[f] = fit_beta(fit_y[~here].reshape(-1), fit_x[~here].reshape(-1, x.shape[1]))
        else:
            betas[f] = beta
        out[here] = y[here] - x[here] @ betas[f]
    return out, betas


def luck_fit(per_wall: np.ndarray, names, luck_own: np.ndarray, luck_total: np.ndarray) -> tuple[dict, dict]:
    """Per agent name its chips per hand wall by wall and its luck controls, ``(y, x)``, and the rows
    the luck-to-chips relation is fitted on (``cross_fit``'s ``fit_y`` / ``fit_x``): every seat's
    rows, one relation for all agents (four times the data of one)."""
    fit = {
        "fit_y": per_wall / 4,  # chips per hand of each seat's agent, (walls, 4)
        "fit_x": np.stack([controls(luck_own, luck_total, [i]) for i in range(len(names))], axis=1),
    }
    agents = {}
    for name in dict.fromkeys(names):
        cols = [i for i, n in enumerate(names) if n == name]
        agents[name] = (per_wall[:, cols].sum(axis=1) / (4 * len(cols)), controls(luck_own, luck_total, cols))
    return agents, fit


def corrected_rows(per_wall: np.ndarray, names, luck_own: np.ndarray, luck_total: np.ndarray) -> dict:
    """Per agent name the corrected figures (``corrected_row``), beta fitted on every seat's rows of
    the other walls (``luck_fit``)."""
    agents, fit = luck_fit(per_wall, names, luck_own, luck_total)
    return {name: corrected_row(y, x, **fit) for name, (y, x) in agents.items()}


def corrected_row(y: np.ndarray, x: np.ndarray, beta: np.ndarray | None = None, **fit) -> dict:
    """The corrected figures of one agent beside its plain interval: chips per hand, 95% CI, the
    ratio of the plain CI width to the corrected one, and the betas."""
    plain_mean, plain_ci = mean_ci(y)
    z, betas = cross_fit(y, x, beta, **fit)
    mean, ci = mean_ci(z)
    width, plain = ci[1] - ci[0], plain_ci[1] - plain_ci[0]
    return {
        "chips_per_hand": mean,
        "ci95": ci,
        "ci_narrower": plain / width if width > 0 else (1.0 if plain == 0 else float("inf")),
        "betas": betas.tolist(),
    }
