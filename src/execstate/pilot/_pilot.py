"""``execstate pilot`` as one call: build the pilot cases, run every condition x contract x sample, grade, tabulate.

Layout of ``out``::

    build/                      the cases' build (tasks.jsonl, excluded.jsonl, manifest.json)
    pilot_tasks.jsonl           one task per case x condition x contract (long-trace-final, prompt variant in meta)
    run/                        responses.jsonl, run_manifest.json: the resumable run (``execstate run``'s machinery)
    grades.jsonl                one grade per planned cell
    predictions.jsonl           one PilotPrediction per planned cell (answer, rationale, token use)
    tables/                     pilot_table9, pilot_movement, pilot_tokens (.csv, .md, .json)
    report.md, report.html      the report section

Every cell is its own request in a fresh conversation. Re-running the same
command resumes the run (recorded cells are kept) and rewrites the later files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from execstate.builder import PARTIAL_DIR, BuildOptions, build, write_build
from execstate.errors import InputFileError, Interrupted, SettingsError, output_dir, require_file
from execstate.grade import grade_all
from execstate.pilot._tables import PilotPrediction, pilot_predictions, pilot_tables
from execstate.pilot._tasks import DEFAULT_CONDITIONS, pilot_tasks
from execstate.records import CONTRACTS, Condition, Contract, Response, read_jsonl, write_jsonl
from execstate.report import page, table_section
from execstate.run import RESPONSES_NAME, RunSummary, Setting, load_settings, run_tasks
from execstate.studies import PILOT_STUDY, study_dir
from execstate.tables import Table, to_markdown, write_tables

PILOT_CHECK_SETTING = Setting(name="synthetic-pipeline-check", provider="synthetic", concurrency=64)
"""The offline setting the pilot uses without a settings file: a pipeline check, never a model."""


@dataclass(frozen=True)
class PilotResult:
    """What a pilot run wrote and planned."""

    out_dir: Path
    tables: list[Table]
    predictions: list[PilotPrediction]
    planned: int
    """Cells planned: cases x conditions x contracts x samples x settings."""
    left_out: list[str] = field(default_factory=list)
    """Cases built but left out: no audited invariant."""
    excluded: list[str] = field(default_factory=list)
    """Cases the builder excluded (an invariant refused, or a failed admission check), as ``id: check``."""
    summary: RunSummary | None = None

    @property
    def pipeline_check(self) -> bool:
        return bool(self.predictions) and all(p.pipeline_check for p in self.predictions)

    @property
    def complete(self) -> bool:
        return self.summary is None or self.summary.ok


def run_pilot(
    out: Path | str,
    *,
    cases: Sequence[Path] = (),
    settings: Sequence[Setting] | Path | str | None = None,
    samples: int = 3,
    conditions: Sequence[Condition] = DEFAULT_CONDITIONS,
    contracts: Sequence[Contract] = CONTRACTS,
    jobs: int = 2,
    options: BuildOptions | None = None,
    progress: bool | None = None,
    log: Callable[[str], None] = print,
) -> PilotResult:
    """Build ``cases`` (default: the built-in pilot set), run the pilot on ``settings`` and write ``out``.

    ``settings``: records or a settings TOML; default the offline synthetic pipeline check. Raises
    ``UsageError`` for a bad plan, ``InputFileError`` when no case has an audited invariant.
    """
    out = output_dir(out)
    paths = list(cases) or [study_dir(PILOT_STUDY)]
    if isinstance(settings, (str, Path)):
        require_file(settings, "--settings", "pass a settings TOML with [[setting]] tables")
    chosen = list(load_settings(settings) if isinstance(settings, (str, Path)) else settings or [PILOT_CHECK_SETTING])
    log(f"[1/4] building the pilot cases of {', '.join(map(str, paths))} -> {out / 'build'}")
    built = build(paths, jobs=jobs, options=options, partial=out / "build" / PARTIAL_DIR)
    write_build(built, out / "build")
    built.raise_if_interrupted(out / "build")
    tasks, left_out = pilot_tasks(built.tasks, conditions, contracts)
    excluded = [f"{e.case_id}: {e.check}" for e in built.exclusions]
    if not tasks:
        raise InputFileError(
            f"no pilot case has an audited invariant ({len(left_out)} without [invariant], "
            f"{len(excluded)} excluded: see {out / 'build' / 'excluded.jsonl'}). "
            "Fix: give each case an [invariant] table whose audit passes (docs/pilot.md)"
        )
    write_jsonl(out / "pilot_tasks.jsonl", tasks)
    log(f"[2/4] running {len(tasks)} pilot tasks x {samples} sample(s) on {', '.join(s.name for s in chosen)}")
    summary = run_tasks(tasks, chosen, out / "run", samples=samples, progress=progress)
    responses = list(read_jsonl(out / "run" / RESPONSES_NAME, Response))
    planned_ids = {t.task_id for t in tasks}
    names = {s.name for s in chosen}
    responses = [r for r in responses if r.task_id in planned_ids and r.setting in names and r.sample < samples]
    log(f"[3/4] grading {len(responses)} responses -> {out / 'grades.jsonl'}")
    recorded = _recorded_only(responses, summary)
    grades = grade_all(tasks, recorded, settings=[s.name for s in chosen], samples=samples)
    write_jsonl(out / "grades.jsonl", grades)
    predictions = pilot_predictions(tasks, recorded, grades)
    write_jsonl(out / "predictions.jsonl", predictions)
    tables = pilot_tables(predictions, list(conditions))
    result = PilotResult(out, tables, predictions, len(grades), left_out, excluded, summary)
    log(f"[4/4] tables and report section -> {out / 'tables'}, {out / 'report.html'}")
    write_tables(tables, out / "tables")
    (out / "report.md").write_text(pilot_markdown(result), encoding="utf-8", newline="")
    (out / "report.html").write_text(
        page("execstate invariant pilot", _banner(result), [("pilot", "Invariant pilot", pilot_section_html(result))]),
        encoding="utf-8",
        newline="",
    )
    return result


def _recorded_only(responses: list[Response], summary: RunSummary) -> list[Response]:
    """The responses; an incomplete run (interrupted, a setting aborted) is graded only once it is resumed."""
    if summary.ok:
        return responses
    problem = f"the pilot run is incomplete: {summary.missing} planned cell(s) have no response"
    if summary.interrupted:
        raise Interrupted(f"{problem} (stopped). Fix: run the same command again to resume it")
    raise SettingsError(
        f"{problem}; stopped setting(s): {summary.aborted}. Fix: correct the setting, then run the same command again"
    )


def _banner(result: PilotResult) -> str | None:
    if not result.pipeline_check:
        return None
    return (
        "PIPELINE CHECK: these answers came from the offline synthetic provider (a simulated predictor with a "
        "built-in guidance effect); the numbers verify the pilot's machinery, they are not a model's results."
    )


def _plan_text(result: PilotResult) -> list[str]:
    cases = sorted({p.case_id for p in result.predictions})
    lines = [
        f"{len(cases)} program(s), {result.planned} planned cells; every cell a fresh, independent request.",
        "Conditions: baseline = the fixed prompt (SPEC 7); guided = plus one paragraph stating the case's audited "
        "invariant; placebo = plus an audited but irrelevant true statement.",
    ]
    if result.left_out:
        lines.append(f"Left out (no [invariant]): {', '.join(result.left_out)}.")
    if result.excluded:
        lines.append(f"Excluded by the builder: {', '.join(result.excluded)}.")
    return lines


def pilot_markdown(result: PilotResult) -> str:
    """The pilot's report section as Markdown (banner, plan, the three tables)."""
    banner = _banner(result)
    parts = ["## Invariant-guidance pilot (paper Appendix F)\n"]
    if banner:
        parts.append(f"**{banner}**\n")
    parts.append("\n".join(f"- {line}" for line in _plan_text(result)) + "\n")
    parts += [to_markdown(t) for t in result.tables]
    return "\n".join(parts)


def pilot_section_html(result: PilotResult) -> str:
    """The pilot's report section as HTML (for ``report.html`` and the main job's report)."""
    banner = _banner(result)
    top = f'<p class="banner">{escape(banner)}</p>' if banner else ""
    plan = "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in _plan_text(result)) + "</ul>"
    return top + plan + "".join(table_section(t) for t in result.tables)
