"""``execstate run --adaptive horizon``: rounds of chosen ladder cells, sent by the run engine, until each
setting's interval of log2 H50 is narrow enough or its budget is spent (docs/adaptive.md).

Each round: read the recorded responses of every chosen cell, grade them, refit (``_fit.py``), check the stop
rules, choose the next round's cells (``_design.py``), journal the choices (``adaptive.jsonl``, fsync-ed), then
send exactly those cells with ``run.arun_tasks(only=...)``, which records each in ``responses.jsonl`` once, in
live requests or vendor batches. A re-run first sends the chosen cells still without a record, then goes on: the
same responses give the same choices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Literal

from execstate.adaptive._design import LadderCell, centre_of, choose_round, ladder_cells, stop_reason
from execstate.adaptive._fit import Observation, QuickFit, fit_quick, horizon_interval
from execstate.adaptive._journal import ADAPTIVE_NAME, AdaptiveJournal, AdaptiveRecord
from execstate.errors import SettingsError, UsageError, output_dir, require_file
from execstate.grade import grade_response
from execstate.records import RUN_RESPONSES_NAME, Response, Task, read_jsonl
from execstate.run import (
    RunSummary,
    Setting,
    arun_tasks,
    directory_lock,
    event_loop_run,
    load_settings,
    open_store,
)

CellKey = tuple[str, str, int]
"""(task_id, setting, sample): one cell, as the run engine keys it."""
ADAPTIVE_RULES = ("horizon",)
"""What ``--adaptive`` can steer by."""
DEFAULT_ROUND = 10
"""Cells chosen per setting per round unless ``round_size`` says otherwise."""


@dataclass
class SettingOutcome:
    """Where one setting's adaptive run stands."""

    setting: str
    calls: int
    """Cells chosen for it in all (each recorded once)."""
    answers: int
    """Chosen cells with a graded answer (a no-response is spent but not fitted)."""
    fit: QuickFit
    stop: str | None
    """Why it ended (``STOP_REASONS``), or ``None`` while it goes on (interrupted or not finished)."""


@dataclass
class AdaptiveSummary:
    """What an adaptive invocation did, per setting, and the run summaries of its rounds."""

    out_dir: Path
    outcomes: dict[str, SettingOutcome] = field(default_factory=dict)
    rounds: int = 0
    """Rounds sent by this invocation (a resumed round included)."""
    chosen_now: int = 0
    """Choices journalled by this invocation."""
    runs: list[RunSummary] = field(default_factory=list)
    aborted: dict[str, str] = field(default_factory=dict)
    interrupted: bool = False
    torn: Path | None = None
    """Where a torn last round of ``adaptive.jsonl`` was kept, when one was cut off on opening."""

    @property
    def ok(self) -> bool:
        """Every setting ended by a stop rule, nothing interrupted or aborted."""
        return not self.interrupted and not self.aborted and all(o.stop is not None for o in self.outcomes.values())


@dataclass(frozen=True)
class AdaptiveOptions:
    """How an adaptive run chooses, stops and sends (``run --adaptive`` options; docs/adaptive.md)."""

    budget: int
    """Most cells sent per setting."""
    target_width: float
    """A setting stops when the 95% interval of log2 H50 is narrower than this (doublings of the trace)."""
    rule: str = "horizon"
    """What the choices steer by (``ADAPTIVE_RULES``)."""
    round_size: int = DEFAULT_ROUND
    """Cells chosen per setting per round; a journal is resumed only with its own."""
    seed: int = 0
    """Seed of the order programs take turns in; a journal is resumed only with its own."""
    samples: int = 1
    """How often one rung may be asked (sample k is its k-th ask)."""
    arm: str | None = None
    """The ladder's arm, when it has tasks of several."""
    setting: str | None = None
    """Only the setting of this name."""
    progress: bool | None = None
    batch: bool = False
    batch_fallback: Literal["batch", "live"] = "batch"
    cache: Path | str | None = None
    """``progress``, ``batch``, ``batch_fallback`` and ``cache`` go to each round's ``run.arun_tasks``."""

    def check(self) -> None:
        """``UsageError`` naming the fix for an unknown rule or a non-positive number."""
        if self.rule not in ADAPTIVE_RULES:
            raise UsageError(f"--adaptive {self.rule!r} is not known. Fix: pass one of {', '.join(ADAPTIVE_RULES)}")
        if self.budget < 1 or self.round_size < 1 or self.samples < 1 or not self.target_width > 0:
            raise UsageError(
                f"adaptive testing needs --budget >= 1, --round >= 1, --samples >= 1 and --target-width > 0; got "
                f"budget={self.budget}, round={self.round_size}, samples={self.samples}, "
                f"target_width={self.target_width}. Fix: pass them"
            )


def run_adaptive(
    tasks: Sequence[Task] | Path | str,
    settings: Sequence[Setting] | Path | str,
    out_dir: Path | str,
    options: AdaptiveOptions,
) -> AdaptiveSummary:
    """Adaptive horizon testing of the ladder in ``tasks`` for each setting (blocking; see the module docstring).

    ``tasks`` and ``settings`` are records or the paths of a ``tasks.jsonl`` and a settings TOML, as for
    ``run.run_tasks``. ``UsageError`` naming the fix for unusable options or a journal written with another
    ``seed``/``round_size``/``samples``/``arm``. Use ``arun_adaptive`` inside a running event loop."""
    result: AdaptiveSummary = event_loop_run(arun_adaptive(tasks, settings, out_dir, options))
    return result


async def arun_adaptive(
    tasks: Sequence[Task] | Path | str,
    settings: Sequence[Setting] | Path | str,
    out_dir: Path | str,
    options: AdaptiveOptions,
) -> AdaptiveSummary:
    """The coroutine behind ``run_adaptive`` (same contract)."""
    options.check()
    if isinstance(tasks, (str, Path)):
        task_source: Sequence[Task] | Path = require_file(tasks, "--tasks", "build a ladder with `execstate build`")
        task_list = list(read_jsonl(Path(tasks), Task))
    else:
        task_source = task_list = list(tasks)
    cells = ladder_cells(task_list, options.arm)
    chosen = _select(list(load_settings(settings) if isinstance(settings, (str, Path)) else settings), options.setting)
    out = output_dir(out_dir)
    summary = AdaptiveSummary(out)
    with directory_lock(out, ".adaptive.lock", "adaptive run"):
        ledger = _Ledger(AdaptiveJournal(out / ADAPTIVE_NAME), cells, {t.task_id: t for t in task_list}, options)
        summary.torn = ledger.journal.torn
        active = [s.name for s in chosen]
        sent: set[CellKey] = set()
        while True:
            recorded = _recorded(out)
            pending = ledger.pending(active, recorded)
            if pending and set(pending) <= sent:  # sent this invocation and still unrecorded: re-run later
                break
            if not pending:
                pending = ledger.next_round(active, recorded, summary)
                active = [name for name in active if summary.outcomes[name].stop is None]
                if not pending:
                    break
            sent |= set(pending)
            run = await arun_tasks(
                task_source,
                [s for s in chosen if s.name in {key[1] for key in pending}],
                out,
                samples=options.samples,
                progress=options.progress,
                batch=options.batch,
                batch_fallback=options.batch_fallback,
                cache=options.cache,
                only=pending,
            )
            summary.runs.append(run)
            summary.rounds += 1
            summary.aborted.update(run.aborted)
            active = [name for name in active if name not in run.aborted]
            if run.interrupted:
                summary.interrupted = True
                break
        recorded = _recorded(out)
        for s in chosen:
            if s.name not in summary.outcomes or summary.outcomes[s.name].stop is None:
                summary.outcomes[s.name] = ledger.outcome(s.name, recorded)[0]
    return summary


def _select(settings: list[Setting], name: str | None) -> list[Setting]:
    if name is None:
        return settings
    found = [s for s in settings if s.name == name]
    if not found:
        raise SettingsError(f"no setting named {name!r}. Fix: pass one of {', '.join(s.name for s in settings)}")
    return found


def _recorded(out: Path) -> dict[CellKey, Response]:
    """The cells recorded in ``responses.jsonl`` (a torn last line is repaired, as a run does)."""
    path = out / RUN_RESPONSES_NAME
    if not path.exists():
        return {}
    store, recorded, _ = open_store(path)
    store.close()
    return recorded


class _Ledger:
    """The journal of an adaptive run with what it needs to read it: the ladder, the tasks, the options and the
    grades of the answers read so far (each answer is graded once per invocation)."""

    def __init__(
        self, journal: AdaptiveJournal, cells: list[LadderCell], by_id: dict[str, Task], options: AdaptiveOptions
    ) -> None:
        self.journal, self.cells, self.by_id, self.options = journal, cells, by_id, options
        self.index = {c.task_id: c for c in cells}
        self.centre = centre_of(cells)
        self.grades: dict[CellKey, bool | None] = {}
        self._observations: dict[str, list[Observation]] = {}
        self._check()

    def _check(self) -> None:
        """Refuse to go on with a journal whose choices another seed, round size, sample count or arm made."""
        o = self.options
        for r in self.journal.records:
            if r.seed != o.seed or r.per_round != o.round_size:
                raise UsageError(
                    f"{self.journal.path}: its choices were made with --seed {r.seed} and --round {r.per_round}; "
                    f"this run asks --seed {o.seed} --round {o.round_size}. Fix: pass those to resume, or use a new "
                    "--out"
                )
            if r.kind == "choice" and (r.task_id not in self.index or (r.sample or 0) >= o.samples):
                raise UsageError(
                    f"{self.journal.path}: it chose {r.task_id!r} sample {r.sample}, which this ladder arm and "
                    f"--samples {o.samples} do not offer. Fix: pass the --tasks, --adaptive-arm and --samples of "
                    "that run"
                )

    def pending(self, active: list[str], recorded: Mapping[CellKey, Response]) -> list[CellKey]:
        """Chosen cells of the active settings without a record yet (a round in flight when the run stopped)."""
        keys = [
            (r.task_id, r.setting, r.sample or 0)
            for r in self.journal.records
            if r.kind == "choice" and r.task_id is not None and r.setting in active
        ]
        return [key for key in keys if key not in recorded]

    def _confirm(self, name: str, into: list[tuple[float, float]]) -> tuple[float, float]:
        """The report's interval of log2 H50 on the setting's answers, also appended to ``into``."""
        into.append(horizon_interval(self.observations(name)))
        return into[-1]

    def observations(self, name: str) -> list[Observation]:
        """The graded answers of the setting's chosen cells (as last read by ``outcome``)."""
        return self._observations.get(name, [])

    def outcome(self, name: str, recorded: Mapping[CellKey, Response]) -> tuple[SettingOutcome, Counter[str]]:
        """The setting's quick fit on the graded answers of its chosen cells (not yet stopped), and its asks per
        task."""
        observations: list[Observation] = []
        self._observations[name] = observations
        asked: Counter[str] = Counter()
        for r in self.journal.of(name):
            if r.kind != "choice" or r.task_id is None:
                continue
            asked[r.task_id] += 1
            key = (r.task_id, name, r.sample or 0)
            if key not in self.grades and key in recorded:
                status = grade_response(self.by_id[r.task_id], recorded[key]).status
                self.grades[key] = None if status == "no-response" else status.startswith("correct")
            right = self.grades.get(key)
            if right is not None:
                cell = self.index[r.task_id]
                observations.append(Observation(cell.x, right, cell.program))
        calls = sum(asked.values())
        return SettingOutcome(name, calls, len(observations), fit_quick(observations, self.centre), None), asked

    def next_round(
        self, active: list[str], recorded: Mapping[CellKey, Response], summary: AdaptiveSummary
    ) -> list[CellKey]:
        """Refit each active setting, journal a stop or its next round's choices; the new cells to send."""
        o = self.options
        new: list[AdaptiveRecord] = []
        for name in active:
            outcome, asked = self.outcome(name, recorded)
            fit, calls = outcome.fit, outcome.calls
            exhausted = all(asked[c.task_id] >= o.samples for c in self.cells)
            confirmed: list[tuple[float, float]] = []
            confirm = partial(self._confirm, name, confirmed)
            outcome.stop = stop_reason(
                fit,
                self.cells,
                calls=calls,
                budget=o.budget,
                target_width=o.target_width,
                exhausted=exhausted,
                confirm=confirm,
            )
            summary.outcomes[name] = outcome
            rounds = len({r.round for r in self.journal.of(name) if r.kind == "choice"})
            common = dict(setting=name, round=rounds, per_round=o.round_size, seed=o.seed)
            if outcome.stop is not None:
                record = AdaptiveRecord(
                    kind="stop",
                    round_cells=0,
                    stop=outcome.stop,
                    calls=calls,
                    h50_log2=round(fit.h50_log2, 6),
                    budget=o.budget,
                    target_width=o.target_width,
                    interval=tuple(round(v, 6) for v in fit.interval) if fit.width < float("inf") else None,
                    confirmed=tuple(round(v, 6) for v in confirmed[-1]) if outcome.stop == "width" else None,
                    **common,
                )
                if self.journal.of(name)[-1:] != [record]:  # a re-run of a stopped run adds no second stop
                    new.append(record)
                continue
            n = min(o.round_size, o.budget - calls)
            picks = choose_round(self.cells, fit, asked, n, samples=o.samples, seed=o.seed)
            for i, pick in enumerate(picks):
                new.append(
                    AdaptiveRecord(
                        kind="choice",
                        round_cells=len(picks),
                        task_id=pick.cell.task_id,
                        sample=pick.sample,
                        program=pick.cell.program,
                        rung=pick.cell.rung,
                        log2_trace=round(pick.cell.x, 6),
                        reason={"index": i, **pick.reason},
                        **common,
                    )
                )
        self.journal.append(new)
        summary.chosen_now += sum(r.kind == "choice" for r in new)
        return [(r.task_id, r.setting, r.sample) for r in new if r.task_id is not None and r.sample is not None]


def format_adaptive(summary: AdaptiveSummary) -> str:
    """Human-readable lines of an ``AdaptiveSummary``: per setting its calls, answers, stop and quick horizon."""
    lines = []
    if summary.torn is not None:
        lines.append(f"cut off a torn last round of {ADAPTIVE_NAME} (kept in {summary.torn}); it is chosen again")
    for name, o in summary.outcomes.items():
        lo, hi = o.fit.interval
        interval = f"[{lo:.2f}, {hi:.2f}]" if o.fit.width < float("inf") else "unbounded"
        state = f"stopped: {o.stop}" if o.stop is not None else "not finished"
        lines.append(
            f"{name}: {o.calls} cells chosen, {o.answers} answered; log2 H50 {o.fit.h50_log2:.2f}, 95% interval "
            f"{interval} (quick fit); {state}"
        )
    for name, reason in summary.aborted.items():
        lines.append(f"{name}: STOPPED: {reason}")
    lines.append(
        f"{summary.rounds} rounds sent, {summary.chosen_now} cells chosen now -> "
        f"{summary.out_dir / ADAPTIVE_NAME} and {summary.out_dir / RUN_RESPONSES_NAME}"
    )
    if not summary.ok:
        lines.append("re-run the same command to resume")
    return "\n".join(lines)
