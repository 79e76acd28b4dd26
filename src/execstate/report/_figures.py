"""Report figures: error vs state load, accuracy vs peak state, accuracy by arm (PNG + SVG).

Drawn on ``matplotlib.figure.Figure`` objects (Agg canvas, no pyplot global
state). Output is byte-identical on re-run: fixed ``svg.hashsalt``, no dates
in metadata, no randomness. Bins are quantile bins of log2(metric) (at most
``_MAX_BINS``, merged where quantiles tie). Logistic bands use the
source-cluster covariance with a t reference on G-1 degrees of freedom.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

from execstate.analyze import fit_logit, wilson_interval
from execstate.analyze._logit import univariate_design
from execstate.records import ARMS

_MAX_BINS = 8
_COLS = 4
_RC = {"svg.hashsalt": "execstate", "svg.fonttype": "none", "font.size": 7, "axes.titlesize": 7,
       "figure.dpi": 100, "savefig.dpi": 110, "path.simplify": True}
_ARM_COLORS = {"short-trace-final": "#4c72b0", "long-trace-final": "#dd8452",
               "inside-loop-state": "#55a868", "post-loop-state": "#c44e52", "function-output": "#8172b3"}


@dataclass(frozen=True)
class FigureOut:
    """One rendered figure: its file stem, title, caption and SVG text (for inline use)."""

    name: str
    title: str
    caption: str
    svg: str
    paths: tuple[Path, ...]


def _styled(func):
    """Run a figure function under the report's rc settings (they apply when artists are made)."""
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(_RC):
            return func(*args, **kwargs)
    return wrapper


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def _save(fig: Figure, out_dir: Path, name: str) -> tuple[str, tuple[Path, ...]]:
    """Write ``name.svg`` and ``name.png``; return the SVG text and the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    svg_path, png_path = out_dir / f"{name}.svg", out_dir / f"{name}.png"
    svg_path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    fig.savefig(png_path, format="png", metadata={"Software": None})
    return buf.getvalue(), (png_path, svg_path)


def quantile_bins(x: np.ndarray, max_bins: int = _MAX_BINS) -> np.ndarray:
    """Bin index per value: quantile bins of ``x`` with tied edges merged."""
    edges = np.unique(np.quantile(x, np.linspace(0, 1, max_bins + 1)))
    if edges.size <= 2:
        return np.zeros(x.size, dtype=int)
    return np.clip(np.searchsorted(edges[1:-1], x, side="right"), 0, edges.size - 2)


def binned_rates(x: np.ndarray, hits: np.ndarray, level: float = 0.95) -> list[dict[str, float]]:
    """Per quantile bin of log2(x): geometric-mean x, n, rate and its Wilson interval."""
    logx = np.log2(x)
    out = []
    bins = quantile_bins(logx)
    for b in np.unique(bins):
        sel = bins == b
        k, n = int(hits[sel].sum()), int(sel.sum())
        low, high = wilson_interval(k, n, level)
        out.append({"x": float(2 ** logx[sel].mean()), "n": n, "rate": k / n, "low": low, "high": high})
    return out


def _log2_axis(ax) -> None:
    """Log2 x axis labelled 2^k in plain text (mathtext labels cost most of the drawing time)."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=2, numticks=6))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"2^{np.log2(v):.0f}" if v > 0 else ""))


def _label(ax, axes: list[Any], xlabel: str, ylabel: str) -> None:
    """Axis labels on the first panel of each row only (fewer text objects, faster drawing)."""
    ax.set_xlabel(xlabel)
    if axes.index(ax) % _COLS == 0:
        ax.set_ylabel(ylabel)
    else:
        ax.tick_params(labelleft=False)


def _grid(n_panels: int) -> tuple[Figure, list[Any]]:
    rows = max(1, -(-n_panels // _COLS))
    cols = min(_COLS, max(1, n_panels))
    height = 2.5 * rows
    fig = Figure(figsize=(2.7 * cols, height))
    axes = fig.subplots(rows, cols, squeeze=False).ravel().tolist()
    # Fixed margins (inches -> fractions): constrained layout doubles the drawing time.
    fig.subplots_adjust(left=0.5 / (2.7 * cols), right=0.98, bottom=0.4 / height, top=1 - 0.42 / height,
                        wspace=0.32, hspace=0.7)
    for ax in axes[n_panels:]:
        ax.set_visible(False)
    return fig, axes[:n_panels]


def _fit_band(x: np.ndarray, err: np.ndarray, groups: np.ndarray, level: float):
    """(grid, fit, low, high, fit object) of a cluster-robust logistic fit of error on log2 x."""
    lx = np.log2(x)
    fit = fit_logit(err.astype(float), univariate_design(lx), ["intercept", "log2"], groups=groups)
    if not fit.ok or np.ptp(lx) == 0:
        return None, fit
    g = np.linspace(lx.min(), lx.max(), 100)
    design = univariate_design(g)
    eta = design @ fit.params
    se = np.sqrt(np.einsum("ij,jk,ik->i", design, fit.cov, design))
    crit = fit.critical(level)
    expit = lambda v: 1.0 / (1.0 + np.exp(-v))  # noqa: E731
    return (2 ** g, expit(eta), expit(eta - crit * se), expit(eta + crit * se)), fit


def _metric_rows(frame: pd.DataFrame, study: str, metric: str) -> pd.DataFrame:
    done = frame[frame["completed"] & (frame["study"] == study)]
    return done[np.isfinite(done[metric]) & (done[metric] > 0)]


def _binned(ax, x: np.ndarray, hits: np.ndarray, level: float, color: str) -> None:
    bins = binned_rates(x, hits, level)
    rate = np.array([b["rate"] for b in bins])
    yerr = np.clip([[b["rate"] - b["low"] for b in bins], [b["high"] - b["rate"] for b in bins]], 0, None)
    ax.errorbar([b["x"] for b in bins], rate, yerr=yerr, fmt="s", ms=3.5, color=color, ecolor=color,
                elinewidth=0.8, capsize=1.5)


@_styled
def error_vs_load(frame: pd.DataFrame, study: str, out_dir: Path, level: float = 0.95) -> FigureOut:
    """Paper Figure 2: per setting, binned error rates vs state load and a cluster-t logistic band."""
    rows = _metric_rows(frame, study, "state_load")
    settings = sorted(frame["setting"].unique())
    fig, axes = _grid(len(settings))
    for ax, setting in zip(axes, settings):
        sub = rows[rows["setting"] == setting]
        _log2_axis(ax)
        ax.set_ylim(-0.03, 1.03)
        _label(ax, axes, "state load", "error probability")
        if sub.empty:
            ax.set_title(f"{setting}\nno completed predictions", loc="left")
            continue
        x, err = sub["state_load"].to_numpy(float), sub["error"].to_numpy(bool)
        band, fit = _fit_band(x, err, sub["source_sha256"].to_numpy(), level)
        head = "fit inestimable"
        if band is not None:
            gx, mid, low, high = band
            ax.fill_between(gx, low, high, color="#999999", alpha=0.35, linewidth=0)
            ax.plot(gx, mid, color="black", linewidth=1)
            s = fit.summary(1, level)
            head = f"OR/doubling {np.exp(s['coef']):.2f} [{np.exp(s['ci_low']):.2f}, {np.exp(s['ci_high']):.2f}]"
        _binned(ax, x, err, level, "#c44e52")
        ax.set_title(f"{setting} (n={len(sub)})\n{head}", loc="left")
    name = f"error_vs_load_{_safe(study)}"
    svg, paths = _save(fig, out_dir, name)
    caption = (f"Error probability against cumulative state load on {study}, one panel per setting. "
               f"Squares: binned error rates with Wilson {level:.0%} intervals. Curve and band: logistic fit "
               f"of error on log2 load with a source-cluster {level:.0%} interval (t, G-1 df).")
    return FigureOut(name, f"Error vs state load: {study}", caption, svg, paths)


def _series_header(series: list[dict[str, Any]], study: str, setting: str, metric: str) -> str:
    for r in series:
        if (r["study"], r["setting"], r["arm"], r["metric"]) == (study, setting, "pooled", metric):
            if r["estimable"]:
                return f"theta={r['theta']:.2f}, p={r['p']:.3g}"
            return r["status"]
    return "no series"


@_styled
def accuracy_vs_peak(frame: pd.DataFrame, study: str, series: list[dict[str, Any]], out_dir: Path,
                     level: float = 0.95) -> FigureOut:
    """Paper Figure 3: per setting, binned accuracy (Wilson) vs peak state, arms pooled."""
    rows = _metric_rows(frame, study, "peak_state")
    settings = sorted(frame["setting"].unique())
    fig, axes = _grid(len(settings))
    for ax, setting in zip(axes, settings):
        sub = rows[rows["setting"] == setting]
        _log2_axis(ax)
        ax.set_ylim(-0.03, 1.03)
        _label(ax, axes, "peak state", "accuracy")
        head = _series_header(series, study, setting, "peak_state")
        ax.set_title(f"{setting} (n={len(sub)})\n{head}", loc="left")
        if sub.empty:
            continue
        ok = sub["correct"].to_numpy(bool)
        _binned(ax, sub["peak_state"].to_numpy(float), ok, level, "#4c72b0")
        ax.axhline(ok.mean(), color="#4c72b0", linestyle="--", linewidth=0.8)
    name = f"accuracy_vs_peak_{_safe(study)}"
    svg, paths = _save(fig, out_dir, name)
    caption = (f"Accuracy against peak state size on {study}, arms pooled, one panel per setting. Squares: "
               f"binned accuracy with Wilson {level:.0%} intervals; dashed: overall accuracy. Headers: rank "
               "statistic theta and one-sided permutation p (row-level, not cluster robust).")
    return FigureOut(name, f"Accuracy vs peak state: {study}", caption, svg, paths)


@_styled
def accuracy_by_arm(frame: pd.DataFrame, out_dir: Path, level: float = 0.95) -> FigureOut:
    """Completed-response accuracy (C/R) by arm for every setting, with Wilson intervals."""
    done = frame[frame["completed"]]
    settings = sorted(frame["setting"].unique())
    arms = [a for a in (*ARMS, "function-output") if a in set(done["arm"])]
    fig = Figure(figsize=(max(5.0, 1.1 * len(settings) + 1.5), 3.0))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.6 / max(5.0, 1.1 * len(settings) + 1.5), right=0.98, bottom=0.28, top=0.86)
    width = 0.8 / max(1, len(arms))
    for i, arm in enumerate(arms):
        pos, rate, low, high = [], [], [], []
        for j, setting in enumerate(settings):
            sub = done[(done["arm"] == arm) & (done["setting"] == setting)]
            if sub.empty:
                continue
            k, n = int(sub["correct"].sum()), len(sub)
            lo, hi = wilson_interval(k, n, level)
            pos.append(j + (i - (len(arms) - 1) / 2) * width)
            rate.append(k / n), low.append(max(0.0, k / n - lo)), high.append(max(0.0, hi - k / n))
        ax.bar(pos, rate, width, yerr=[low, high], color=_ARM_COLORS.get(arm, "#777777"), label=arm,
               error_kw={"elinewidth": 0.7, "capsize": 1.5})
    ax.set_xticks(range(len(settings)), settings, rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("accuracy (C/R)")
    if arms:
        ax.legend(fontsize=6, ncols=min(3, max(1, len(arms))), loc="lower center", bbox_to_anchor=(0.5, 1.0),
                  frameon=False)
    svg, paths = _save(fig, out_dir, "accuracy_by_arm")
    caption = (f"Completed-response accuracy by arm and setting, all studies pooled, with Wilson {level:.0%} "
               "intervals.")
    return FigureOut("accuracy_by_arm", "Accuracy by arm and setting", caption, svg, paths)


def render_figures(frame: pd.DataFrame, series: list[dict[str, Any]], studies: list[str], out_dir: Path,
                   level: float = 0.95) -> list[FigureOut]:
    """Every report figure, in report order: accuracy by arm, then per study load and peak figures."""
    figures = [accuracy_by_arm(frame, out_dir, level)]
    for study in studies:
        figures.append(error_vs_load(frame, study, out_dir, level))
        figures.append(accuracy_vs_peak(frame, study, series, out_dir, level))
    return figures
