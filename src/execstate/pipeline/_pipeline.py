"""The whole pipeline as one call: build -> run -> grade -> tables -> analyze -> report.

Each stage writes its own file under ``out`` and the next stage reads only
that file, so any stage can be re-run alone. Without a settings file the run
uses two offline providers, ``oracle`` (answers every task right) and
``synthetic`` (a seeded simulated predictor whose errors rise with trace
length): pipeline checks whose every grade is labelled as such, never a
model's result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from execstate.builder import (
    PARTIAL_DIR,
    BuildOptions,
    Fresh,
    Ladder,
    Measurements,
    add_ladder,
    add_variants,
    build,
    combine_builds,
    corpus,
    fresh_corpus,
    write_build,
)
from execstate.errors import SettingsError, output_dir, require_file
from execstate.grade import accuracy_tables, grade_all, write_tables
from execstate.pilot import pilot_section_html, run_pilot
from execstate.records import Response, read_jsonl, write_jsonl
from execstate.report import analyze_files
from execstate.run import RESPONSES_NAME, Setting, load_settings, run_tasks
from execstate.studies import STUDIES, main_fresh_studies, main_grid_studies, main_variant_studies
from execstate.tables import to_markdown

DEFAULT_STUDIES: tuple[str, ...] = tuple(main_grid_studies())
"""Every built-in study of the main grid in the registry (the pilot's study runs apart: ``execstate pilot``)."""
SYNTHETIC_CONTAMINATION = 1.0
"""The main job's synthetic setting answers published tasks with this logit bonus over fresh ones (a simulated
contamination), so the report's published-vs-fresh table has a gap of known sign (docs/fresh.md)."""
SYNTHETIC_VARIANT_PENALTY = 1.0
"""The main job's synthetic setting answers source-variant tasks with this logit less than their originals (a
simulated reliance on the published source), so the report's variant table has a gap of known sign
(docs/variants.md)."""
SYNTHETIC_HORIZON = 1024.0
"""The main job's synthetic setting answers the rungs of an input ladder with this set execution horizon (counted
events, ``synthetic_slope`` 1: right half the time at 2^10 events), so the report's horizon section shows the
recovered horizon beside the set one (docs/horizon.md); every other task is answered as without it."""
ORACLE_SETTING = Setting(name="oracle-pipeline-check", provider="oracle", concurrency=64)
SYNTHETIC_SETTING = Setting(
    name="synthetic-pipeline-check",
    provider="synthetic",
    concurrency=64,
    synthetic_contamination=SYNTHETIC_CONTAMINATION,
    synthetic_variant_penalty=SYNTHETIC_VARIANT_PENALTY,
    synthetic_horizon=SYNTHETIC_HORIZON,
)
PIPELINE_CHECK_SETTINGS = (ORACLE_SETTING, SYNTHETIC_SETTING)
DEMO_FRESH_SEED = "execstate-demo-fresh-seed"
"""The public seed of the offline main job's fresh copy of the classic study (a demonstration: a real fresh
build keeps its seed secret until it reveals it, docs/fresh.md)."""
FRESH_STUDIES: tuple[str, ...] = tuple(main_fresh_studies())
"""The studies the main job also builds on fresh inputs, beside the published ones: those whose study entry says
so (``Study.main_fresh``, ``execstate.studies``) when this module was imported; ``run_pipeline`` asks the registry
itself (``main_fresh_studies``), so a study registered later counts too."""
PIPELINE_MEMO_ENTRIES = 8192
"""Measurements the main job's memo keeps, shared by its main build and its variants build (which builds the
varied studies' originals again): enough for every built-in study's, so the originals' come from it."""

MAIN_VARIANTS: tuple[str, ...] = ("rename", "mislead")
"""The source variants the offline main job builds of the studies whose entry asks for them
(``Study.main_variants``)."""


MAIN_LADDER = Ladder(low=2**8, high=2**12)
"""The input ladder the offline main job builds (``execstate pipeline``; docs/ladder.md): a few rungs, within the
main job's time, of the classic cases ``MAIN_LADDER_CASES``, so the report has rung tasks to fit a horizon to."""
MAIN_LADDER_CASES: tuple[str, ...] = ("decode_ways", "insertion_sort", "josephus", "kadane", "lis", "run_length")
"""The classic cases (folder names) whose ladder the main job builds: cheap programs whose sized generators reach
every rung from 2^8 (docs/ladder.md, "Counts")."""


@dataclass(frozen=True)
class PipelineResult:
    """Where every stage wrote its output."""

    tasks: Path
    responses: Path
    grades: Path
    tables: Path
    report: Path
    pipeline_check: bool
    pilot: Path | None = None
    """The invariant pilot's output directory (offline pipeline check only), None when it did not run."""


def run_pipeline(
    out: Path,
    *,
    studies: tuple[str, ...] = DEFAULT_STUDIES,
    paths: tuple[Path, ...] = (),
    settings_file: Path | None = None,
    setting: str | None = None,
    samples: int = 1,
    limit: int | None = None,
    settings: Sequence[Setting] | None = None,
    jobs: int = 2,
    options: BuildOptions | None = None,
    pilot: bool = True,
    fresh: str | None = None,
    variants: tuple[str, ...] | None = None,
    ladder: Ladder | None = None,
    log=print,
) -> PipelineResult:
    """Build ``studies`` and ``paths``, run every task on the settings (default: the oracle pipeline
    check), grade every planned cell, and write tables, analysis and ``report.html`` under ``out``.

    ``limit`` runs, grades and analyses only the first N tasks of the build (in ``tasks.jsonl`` order:
    case by case, four arms each); ``settings`` passes settings as records instead of ``settings_file``.
    Re-running resumes the run stage (recorded responses are kept) and rewrites the later stages.
    Offline (no settings file) and with ``pilot``, the built-in invariant pilot runs too, as a pipeline
    check on the synthetic provider, into ``out/pilot``, and the report gets its section.
    ``Interrupted`` after writing the finished cases when SIGINT or SIGTERM stops the build.

    ``fresh``: the seed of a fresh copy (``--fresh-only``) of the ``studies`` whose entry has ``main_fresh``,
    built beside the published cases into the same ``tasks.jsonl`` (docs/fresh.md), so the analysis compares
    published and fresh inputs; offline (no settings) it defaults to ``DEMO_FRESH_SEED``; ``""`` builds none.
    ``variants``: the source variants (docs/variants.md) of the ``studies`` whose entry has ``main_variants``,
    built beside them, so the analysis compares originals and variants; offline it defaults to
    ``MAIN_VARIANTS``; ``()``: none.
    ``ladder``: also build the input ladder (docs/ladder.md) of the classic cases ``MAIN_LADDER_CASES``, when
    ``classic`` is among ``studies``: their rung tasks (``<case>~rung<k>``) join the same ``tasks.jsonl``; None
    (the default here; ``execstate pipeline`` passes ``MAIN_LADDER`` offline) builds none.
    """
    out = Path(out)
    output_dir(out / "build")  # a file in the way fails before any case is built
    log(
        f"[1/5] building {', '.join(studies) or 'no built-in study'}"
        + (f" and {len(paths)} path(s)" if paths else "")
        + f" -> {out / 'build'}"
    )
    memo = Measurements(max_entries=PIPELINE_MEMO_ENTRIES)  # the variants build rebuilds originals measured here
    built = build(
        list(paths), studies=list(studies), jobs=jobs, options=options, partial=out / "build" / PARTIAL_DIR, memo=memo
    )
    offline = settings_file is None and settings is None
    seed = fresh if fresh is not None else (DEMO_FRESH_SEED if offline else "")
    refresh = [name for name in main_fresh_studies() if name in studies] if seed else []
    if refresh and not built.manifest.interrupted:
        log(f"      and a fresh copy of {', '.join(refresh)} (build --fresh, docs/fresh.md)")
        again = build([], studies=refresh, jobs=jobs, options=options, fresh=Fresh(seed, only=True))
        built = combine_builds(built, again)
    names = variants if variants is not None else (MAIN_VARIANTS if offline else ())
    vary = [name for name in main_variant_studies() if name in studies] if names else []
    if vary and not built.manifest.interrupted:
        log(f"      and {', '.join(names)} variants of {', '.join(vary)} (build --variants, docs/variants.md)")
        base = options or BuildOptions()
        varied = build([], studies=vary, jobs=jobs, options=dataclasses.replace(base, variants=tuple(names)), memo=memo)
        built = add_variants(built, varied)
    memo.close()
    rungs = _ladder_paths() if ladder is not None and "classic" in studies else []
    if ladder is not None and rungs and not built.manifest.interrupted:
        log(
            f"      and the input ladder of {len(rungs)} classic case(s), {ladder.low}..{ladder.high} events "
            "(build --ladder)"
        )
        built = add_ladder(built, build(rungs, jobs=jobs, options=options, ladder=ladder))
    write_build(built, out / "build")
    built.raise_if_interrupted(out / "build")
    log(
        f"      admitted {built.manifest.cases_admitted} cases ({built.manifest.tasks} tasks), "
        f"excluded {built.manifest.cases_excluded}"
    )
    log(to_markdown(corpus(built.tasks)))
    if built.manifest.fresh is not None:
        log(to_markdown(fresh_corpus(built.tasks)))
    chosen = _settings(settings_file, settings, setting)
    selected = built.tasks if limit is None else built.tasks[:limit]
    log(f"[2/5] running {len(selected)} tasks on {', '.join(s.name for s in chosen)} -> {out / 'run'}")
    # the file, not the records: the run manifest then names it, so `grade --run` and `leaderboard` read the run
    run_tasks(out / "build" / "tasks.jsonl", chosen, out / "run", samples=samples, limit=limit)
    wanted = ({t.task_id for t in selected}, {s.name for s in chosen})
    responses = [  # an earlier run into the directory may have asked for more tasks or settings
        r
        for r in read_jsonl(out / "run" / RESPONSES_NAME, Response)
        if r.task_id in wanted[0] and r.setting in wanted[1]
    ]
    log(f"[3/5] grading {len(responses)} responses -> {out / 'grades.jsonl'}")
    grades = grade_all(selected, responses, settings=[s.name for s in chosen], samples=samples)
    write_jsonl(out / "grades.jsonl", grades)
    log(f"[4/5] accuracy tables -> {out / 'tables'}")
    write_tables(accuracy_tables(selected, grades), out / "tables")
    sections = []
    if pilot and settings_file is None and settings is None:
        log(f"      invariant pilot (pipeline check) -> {out / 'pilot'}")
        result = run_pilot(out / "pilot", jobs=jobs, options=options, progress=False, log=lambda *_: None)
        sections.append(("pilot", "Invariant pilot", pilot_section_html(result)))
    log(f"[5/5] analysis and report -> {out / 'report'}")
    analyze_files(
        out / "build" / "tasks.jsonl",
        out / "grades.jsonl",
        out / "report",
        task_ids=None if limit is None else wanted[0],
        sections=sections,
        responses_path=out / "run" / RESPONSES_NAME,
    )
    check = all(g.pipeline_check for g in grades)
    return PipelineResult(
        out / "build" / "tasks.jsonl",
        out / "run" / RESPONSES_NAME,
        out / "grades.jsonl",
        out / "tables",
        out / "report" / "report.html",
        check,
        out / "pilot" if sections else None,
    )


def _ladder_paths() -> list[Path]:
    """The spec folders of the classic cases ``MAIN_LADDER_CASES`` that the registered classic study holds."""
    folder = STUDIES["classic"].cases_dir if "classic" in STUDIES else None
    if folder is None:
        return []
    return [folder / name for name in MAIN_LADDER_CASES if (folder / name / "case.toml").is_file()]


def _settings(settings_file: Path | None, settings: Sequence[Setting] | None, name: str | None) -> list[Setting]:
    """The settings to run: records, else the file's, else the pipeline checks; ``name`` keeps one of them."""
    if settings_file is not None:
        require_file(settings_file, "--settings", "pass a settings TOML with [[setting]] tables")
    if settings is not None:
        every = list(settings)
    else:
        every = load_settings(settings_file) if settings_file else list(PIPELINE_CHECK_SETTINGS)
    chosen = [s for s in every if s.name == name] if name else every
    if not chosen:
        names = ", ".join(s.name for s in every)
        raise SettingsError(
            f"no setting named {name!r} in {settings_file or 'the pipeline checks'}. Fix: pass one of {names}"
        )
    return chosen
