"""Report figures: draw error vs state load, accuracy vs peak state, accuracy by arm (PNG + SVG).

Draws only: every number shown (binned rates, Wilson intervals, logistic
bands, odds ratios, series headers) comes from ``Analysis.figures``, computed
by ``execstate.analyze.figure_data`` and written to ``analysis.json``. Drawn
on ``matplotlib.figure.Figure`` objects (Agg canvas, no pyplot global state).
Output is byte-identical on re-run: fixed ``svg.hashsalt``, no dates in
metadata, no randomness.
"""

from __future__ import annotations

import collections
import io
import os
import pickle
import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullLocator

from execstate.arms import arm_color

_COLS = 4
_RC: dict[Any, Any] = {  # matplotlib types its rc keys as one Literal
    "svg.hashsalt": "execstate",
    "svg.fonttype": "none",
    "font.size": 7,
    "axes.titlesize": 7,
    "figure.dpi": 100,
    "savefig.dpi": 110,
    "path.simplify": True,
    # Titles sit at the top of their axes: no top ticks or labels could push them up, so matplotlib's search
    # for a clear position (the tight bounding box of both axes of every panel, drawn twice) is skipped.
    "axes.titley": 1.0,
}
_RATE_TICKS = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]


@dataclass(frozen=True)
class FigureOut:
    """One rendered figure: its file stem, title, caption and SVG text (for inline use)."""

    name: str
    title: str
    caption: str
    svg: str
    paths: tuple[Path, ...]


def styled_figure(func):
    """Run a figure function under the report's rc settings (they apply when artists are made)."""
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with matplotlib.rc_context(_RC):
            return func(*args, **kwargs)

    return wrapper


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def save_figure(fig: Figure, out_dir: Path, name: str) -> tuple[str, tuple[Path, ...]]:
    """Write ``name.svg`` and ``name.png``; return the SVG text and the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    FigureCanvasAgg(fig)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    svg_path, png_path = out_dir / f"{name}.svg", out_dir / f"{name}.png"
    svg_path.write_text(buf.getvalue(), encoding="utf-8", newline="")
    fig.savefig(png_path, format="png", metadata={"Software": None})
    return buf.getvalue(), (png_path, svg_path)


def _log2_axis(ax) -> None:
    """Log2 x axis labelled 2^k in plain text (mathtext labels cost most of the drawing time)."""
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=2, numticks=6))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"2^{np.log2(v):.0f}" if v > 0 else ""))


def _rate_axis(ax) -> None:
    """A y axis of rates: 0 to 1 with a margin, ticked at 0, 0.2, ..., 1: the ticks the automatic locator showed,
    fixed, because it also made tick artists outside the view (-0.2, 1.2) that were laid out and never drawn."""
    ax.set_ylim(-0.03, 1.03)
    ax.yaxis.set_major_locator(FixedLocator(_RATE_TICKS))


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
    grid = fig.add_gridspec(rows, cols)  # only the panels drawn: a hidden axes costs as much to make as a shown one
    axes = [fig.add_subplot(grid[i // cols, i % cols]) for i in range(n_panels)]
    # Fixed margins (inches -> fractions): constrained layout doubles the drawing time.
    fig.subplots_adjust(
        left=0.5 / (2.7 * cols), right=0.98, bottom=0.4 / height, top=1 - 0.42 / height, wspace=0.32, hspace=0.7
    )
    return fig, axes


def _binned(ax, bins: list[dict[str, Any]], color: str) -> None:
    """Squares at the binned rates with their interval as error bars (lengths clipped at 0)."""
    rate = np.array([b["rate"] for b in bins])
    yerr = np.clip([[b["rate"] - b["low"] for b in bins], [b["high"] - b["rate"] for b in bins]], 0, None)
    ax.errorbar(
        [b["x"] for b in bins], rate, yerr=yerr, fmt="s", ms=3.5, color=color, ecolor=color, elinewidth=0.8, capsize=1.5
    )


def _or_head(panel: dict[str, Any]) -> str:
    """Panel header: the odds ratio per doubling and its interval, or that the fit is inestimable."""
    if panel["band"] is None:
        return "fit inestimable"
    return f"OR/doubling {panel['odds_ratio']:.2f} [{panel['ci_low']:.2f}, {panel['ci_high']:.2f}]"


@styled_figure
def error_vs_load(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """Paper Figure 2: per setting, binned error rates vs state load and a cluster-t logistic band."""
    study, level = data["study"], data["level"]
    fig, axes = _grid(len(data["panels"]))
    for ax, panel in zip(axes, data["panels"]):
        _log2_axis(ax)
        _rate_axis(ax)
        _label(ax, axes, "state load", "error probability")
        if panel["n"] == 0:
            ax.set_title(f"{panel['setting']}\nno completed predictions", loc="left")
            continue
        band = panel["band"]
        if band is not None:
            ax.fill_between(band["x"], band["low"], band["high"], color="#999999", alpha=0.35, linewidth=0)
            ax.plot(band["x"], band["fit"], color="black", linewidth=1)
        _binned(ax, panel["bins"], "#c44e52")
        ax.set_title(f"{panel['setting']} (n={panel['n']})\n{_or_head(panel)}", loc="left")
    name = f"error_vs_load_{_safe(study)}"
    svg, paths = save_figure(fig, out_dir, name)
    caption = (
        f"Error probability against cumulative state load on {study}, one panel per setting. "
        f"Squares: binned error rates with Wilson {level:.0%} intervals. Curve and band: logistic fit "
        f"of error on log2 load with a source-cluster {level:.0%} interval (t, G-1 df)."
    )
    return FigureOut(name, f"Error vs state load: {study}", caption, svg, paths)


def _series_header(head: dict[str, Any] | None) -> str:
    """Panel header: theta and p of the pooled peak-state series, or why it has none."""
    if head is None:
        return "no series"
    if head["estimable"]:
        return f"theta={head['theta']:.2f}, p={head['p']:.3g}"
    return head["status"]


@styled_figure
def accuracy_vs_peak(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """Paper Figure 3: per setting, binned accuracy (Wilson) vs peak state, arms pooled."""
    study, level = data["study"], data["level"]
    fig, axes = _grid(len(data["panels"]))
    for ax, panel in zip(axes, data["panels"]):
        _log2_axis(ax)
        _rate_axis(ax)
        _label(ax, axes, "peak state", "accuracy")
        ax.set_title(f"{panel['setting']} (n={panel['n']})\n{_series_header(panel['series'])}", loc="left")
        if panel["n"] == 0:
            continue
        _binned(ax, panel["bins"], "#4c72b0")
        ax.axhline(panel["accuracy"], color="#4c72b0", linestyle="--", linewidth=0.8)
    name = f"accuracy_vs_peak_{_safe(study)}"
    svg, paths = save_figure(fig, out_dir, name)
    caption = (
        f"Accuracy against peak state size on {study}, arms pooled, one panel per setting. Squares: "
        f"binned accuracy with Wilson {level:.0%} intervals; dashed: overall accuracy. Headers: rank "
        "statistic theta and one-sided permutation p (row-level, not cluster robust)."
    )
    return FigureOut(name, f"Accuracy vs peak state: {study}", caption, svg, paths)


@styled_figure
def accuracy_by_arm(data: dict[str, Any], out_dir: Path) -> FigureOut:
    """Completed-response accuracy (C/R) by arm for every setting, with Wilson intervals."""
    settings, arms, level = data["settings"], data["arms"], data["level"]
    fig = Figure(figsize=(max(5.0, 1.1 * len(settings) + 1.5), 3.0))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.6 / max(5.0, 1.1 * len(settings) + 1.5), right=0.98, bottom=0.28, top=0.86)
    width = 0.8 / max(1, len(arms))
    for i, arm in enumerate(arms):
        bars = [b for b in data["bars"] if b["arm"] == arm]
        # Bars sit at their setting's slot, shifted by the arm's offset within the group.
        pos = [settings.index(b["setting"]) + (i - (len(arms) - 1) / 2) * width for b in bars]
        low = [max(0.0, b["rate"] - b["low"]) for b in bars]
        high = [max(0.0, b["high"] - b["rate"]) for b in bars]
        ax.bar(
            pos,
            [b["rate"] for b in bars],
            width,
            yerr=[low, high],
            color=arm_color(arm),  # the arm's spec; grey without one
            label=arm,
            error_kw={"elinewidth": 0.7, "capsize": 1.5},
        )
    ax.set_xticks(range(len(settings)), settings, rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("accuracy (C/R)")
    if arms:
        ax.legend(
            fontsize=6, ncols=min(3, max(1, len(arms))), loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False
        )
    svg, paths = save_figure(fig, out_dir, "accuracy_by_arm")
    caption = f"Completed-response accuracy by arm and setting, all studies pooled, with Wilson {level:.0%} intervals."
    return FigureOut("accuracy_by_arm", "Accuracy by arm and setting", caption, svg, paths)


_DRAW = {"accuracy_by_arm": accuracy_by_arm, "error_vs_load": error_vs_load, "accuracy_vs_peak": accuracy_vs_peak}


def render_figures(figures: dict[str, dict[str, Any]], out_dir: Path) -> list[FigureOut]:
    """Draw every figure of ``Analysis.figures``, in its (report) order; ``omitted`` records draw nothing."""
    return start_figures(figures, out_dir)()


HELPER_PANELS = 24
"""Figures of at least this many panels in all are drawn by a helper process as well as by the caller: below
it, starting the helper (a new interpreter importing matplotlib, about 1 s of CPU) costs more than it saves."""


def _panels(data: dict[str, Any]) -> int:
    return len(data.get("panels", ())) or 1


def _rc_changes() -> dict[Any, Any]:  # matplotlib types its rc keys as one Literal
    """The caller's rc settings that differ from a fresh interpreter's (a library user may have set some):
    the helper applies them, so a figure is the same whichever process draws it."""
    defaults = matplotlib.rc_params()  # the built-in defaults and the user's matplotlibrc, as at import
    return {k: v for k, v in matplotlib.rcParams.items() if k in defaults and defaults[k] != v}


def draw_with_rc(data: dict[str, Any], out_dir: Path, rc: dict[Any, Any]) -> FigureOut:
    """One figure of ``Analysis.figures`` under the rc settings ``rc`` (the helper's entry point)."""
    with matplotlib.rc_context(rc):
        return _DRAW[data["figure"]](data, out_dir)


def _helper_env() -> dict[str, str]:
    """The helper imports this very execstate, whatever put it on the caller's path."""
    here = str(Path(__file__).resolve().parents[2])
    paths = [here, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


class PendingFigures:
    """Figures being drawn (:func:`start_figures`); call it to finish them and get them in report order.

    A helper subprocess (``execstate.report._helper``) takes figures from the front of the list, one at a
    time, through a thread that feeds it; finishing takes them from the back and draws them here, until
    none is left, then waits for the helper's. The files are byte-identical whichever process draws a
    figure: the helper draws under the caller's rc settings. A figure the helper fails on, or had when
    it died, is drawn here."""

    def __init__(self, todo: list[dict[str, Any]], out_dir: Path, helper: bool) -> None:
        self.todo, self.out_dir = todo, out_dir
        self.by_helper: list[str] = []
        """Names of the figures the helper drew."""
        self.helper_errors: list[str] = []
        """Why the helper failed on a figure (drawn here instead)."""
        self.helper_drew_one = threading.Event()
        """Set when the helper has drawn a figure (tests wait on it)."""
        self._lock = threading.Lock()
        self._left = collections.deque(range(len(todo)))  # given to nobody yet
        self._helper_has: set[int] = set()  # given to the helper, not back yet
        self._done: dict[int, FigureOut] = {}
        self._proc: subprocess.Popen[bytes] | None = None
        self._feeder: threading.Thread | None = None
        if not (helper and todo):
            return
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "execstate.report._helper"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=_helper_env(),
            )
            assert self._proc.stdin is not None
            pickle.dump((out_dir, _rc_changes()), self._proc.stdin)
            self._proc.stdin.flush()
        except OSError:  # no process can be started here: this one draws everything
            self._stop()
            return
        self._feeder = threading.Thread(target=self._feed, name="execstate-figure-helper", daemon=True)
        self._feeder.start()

    def _feed(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            while True:
                message = pickle.load(proc.stdout)
                with self._lock:
                    if message[0] == "done":
                        self._done[message[1]] = message[2]
                        self.by_helper.append(message[2].name)
                        self.helper_drew_one.set()
                    elif message[0] == "failed":
                        self.helper_errors.append(message[2])
                    if message[0] in ("done", "failed"):
                        self._helper_has.discard(message[1])
                    job = self._left.popleft() if self._left else None
                    if job is not None:
                        self._helper_has.add(job)
                pickle.dump(None if job is None else (job, self.todo[job]), proc.stdin)
                proc.stdin.flush()
                if job is None:
                    return
        except (EOFError, OSError, ValueError, pickle.UnpicklingError):  # the helper is gone: the caller draws
            with self._lock:
                self._helper_has.clear()

    def _here(self, i: int) -> FigureOut:
        return _DRAW[self.todo[i]["figure"]](self.todo[i], self.out_dir)

    def _stop(self) -> None:
        if self._proc is None:
            return
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()

    def __call__(self) -> list[FigureOut]:
        try:
            while True:  # last first, while the helper works from the front
                with self._lock:
                    if not self._left:
                        busy = bool(self._helper_has)
                        break
                    i = self._left.pop()
                figure = self._here(i)
                with self._lock:
                    self._done[i] = figure
            if self._feeder is not None:
                if not busy and self._proc is not None:
                    self._proc.kill()  # still starting, or idle: nothing of its is awaited
                self._feeder.join(timeout=600)
                if self._feeder.is_alive() and self._proc is not None:  # a hung helper: its figures are drawn here
                    self._proc.kill()
                    self._feeder.join()
        finally:
            self._stop()
        with self._lock:
            done = dict(self._done)
        return [done[i] if i in done else self._here(i) for i in range(len(self.todo))]


def start_figures(figures: dict[str, dict[str, Any]], out_dir: Path, *, helper: bool | None = None) -> PendingFigures:
    """Start drawing the figures of ``Analysis.figures``; calling the result finishes them and returns them,
    in report order, as :func:`render_figures` does.

    With ``helper`` (default: when the figures have at least ``HELPER_PANELS`` panels and this machine has
    two CPUs or more) a helper process draws figures from the front of the list while the caller writes
    the rest of the report; finishing draws the others here, last first (``PendingFigures``). If the
    helper cannot be started or dies, this process draws everything it did not."""
    todo = [data for data in figures.values() if data["figure"] != "omitted"]
    if helper is None:
        helper = sum(map(_panels, todo)) >= HELPER_PANELS and len(os.sched_getaffinity(0)) >= 2
    return PendingFigures(todo, out_dir, helper)
