"""From tasks and grades to an output directory: analysis.json, tables, figures, report.html.

Layout of ``out_dir``::

    analysis.json          every analysis row (paired, regression, series, ...) + inputs + config
    tables/<name>.csv|.md  one file pair per table, plus tables/tables.md
    tables/<section>/      each analysis section's tables (execstate.analyze.SECTIONS): tables/beyond/ the
                           rows beyond the paper; tables/fresh/, tables/further/, tables/variants/ (only with
                           fresh, further-arm or source-variant tasks)
    figures/<name>.svg|.png
    report.html            one self-contained page

Nothing in the outputs depends on the time, the working directory or the
order of evaluation, so a re-run writes identical bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from execstate import __version__
from execstate.analyze import Analysis, AnalysisConfig, analyze, joinable_grades, write_analysis_json
from execstate.errors import InputFileError, output_dir
from execstate.records import Grade, Response, Task, read_jsonl
from execstate.report._figures import FigureOut, start_figures
from execstate.report._html import esc, figure_html, page, table_section, task_browser, view_href
from execstate.report._sections import show_sections
from execstate.studies import study_source
from execstate.tables import Table, make_table, write_tables


@dataclass(frozen=True)
class ReportFiles:
    """Where everything was written."""

    out_dir: Path
    analysis_json: Path
    report_html: Path
    tables: list[Path] = field(default_factory=list)
    figures: list[Path] = field(default_factory=list)


def pipeline_check_banner(grades: list[Grade]) -> str | None:
    """The warning a page opens with when some settings' answers came from a pipeline-check provider, else None."""
    checks = sorted({g.setting for g in grades if g.pipeline_check})
    if not checks:
        return None
    return (
        "PIPELINE CHECK: the answers of setting(s) " + ", ".join(checks) + " came from an offline "
        "pipeline-check provider (oracle or synthetic). Their numbers verify the pipeline; they are not a "
        "model's results."
    )


_PAIRED_COLS = [
    "cohort",
    "setting",
    "settings",
    "pairs",
    "incomplete_pairs",
    "sources",
    "short_correct",
    "long_correct",
    "correct_to_wrong",
    "wrong_to_correct",
    "decrement_pp",
    "ci_low",
    "ci_high",
]
_REG_COLS = [
    "model",
    "predictor",
    "n",
    "clusters",
    "odds_ratio",
    "ci_low",
    "ci_high",
    "p",
    "coef",
    "se",
    "df",
    "status",
]
_FIT_COLS = [
    "model",
    "status",
    "n",
    "clusters",
    "parameters",
    "converged",
    "iterations",
    "condition_number",
    "max_abs_score",
    "cov_positive_definite",
    "dropped_columns",
    "excluded_missing_metric",
    "excluded_nonpositive_metric",
    "excluded_separated_rows",
    "separated_levels",
    "warnings",
]
_SERIES_COLS = [
    "language",
    "study",
    "setting",
    "arm",
    "metric",
    "n",
    "failures",
    "excluded",
    "status",
    "theta",
    "p",
    "nominal_support",
    "odds_ratio",
    "ci_low",
    "ci_high",
    "p_wald",
    "logit_status",
    "p_bh",
    "bh_reject",
]


def accuracy_section_tables(a: Analysis) -> list[Table]:
    """Corpus, the studies' sources and the three accuracy tables, as the analysis computed them."""
    note = "C/R = correct/completed, C/N = correct/planned, in percent."
    titles = {
        "corpus": "Corpus (paper Table 2)",
        "accuracy_by_arm": "Accuracy by arm and setting (Table 3)",
        "accuracy_by_setting": "Accuracy by setting (Table 4)",
        "accuracy_by_study": "Accuracy by study and setting (Table 5)",
    }
    tables = [make_table(n, t, a.accuracy[n], note="" if n == "corpus" else note) for n, t in titles.items()]
    return [tables[0], studies_table([str(r["study"]) for r in a.accuracy["corpus"]]), *tables[1:]]


def studies_table(studies: Sequence[str]) -> Table:
    """Where each study of the corpus comes from: the registry's description, source (with its version) and
    licence (``execstate.studies.study_source``, as the dataset card says it)."""
    rows = [{"study": name, **study_source(name)} for name in dict.fromkeys(studies)]
    return make_table("studies", "Studies, sources and licences", rows, ["study", "description", "source", "licence"])


def analysis_tables(a: Analysis) -> list[Table]:
    """The tables of the paired comparison, the regression and the series tests."""
    fam = a.config.bh_family
    return [
        make_table(
            "paired",
            "Paired short- vs long-input final output (Table 7)",
            a.paired,
            _PAIRED_COLS,
            note=f"Decrement in percentage points; {a.config.level:.0%} source-cluster percentile "
            f"interval, {a.config.replicates} replicates.",
        ),
        make_table(
            "regression",
            "Cluster-robust logistic regression of error (Table 6)",
            a.regression,
            _REG_COLS,
            note="Odds ratio per doubling of the metric; source-cluster sandwich covariance, t(G-1).",
        ),
        make_table("regression_fits", "Regression fits: convergence and conditioning", a.regression_fits, _FIT_COLS),
        make_table("correlations", "Correlations of the log2 predictors", a.correlations),
        make_table(
            "series_summary",
            "Series tests summarised (Table 8, Section 5.3)",
            a.series_summary,
            note="supported = theta > 0.5 and permutation p < 0.05 (unadjusted).",
        ),
        make_table(
            "series_bh_family",
            "Series in the Benjamini-Hochberg family",
            [r for r in a.series if r["bh_family"]],
            _SERIES_COLS,
            note=f"Family: {fam.language}, arms {', '.join(fam.arms)}, metrics {', '.join(fam.metrics)}, "
            f"estimable series only; alpha {a.config.bh_alpha}.",
        ),
        make_table("series", "All series tests", a.series, _SERIES_COLS),
    ]


def _pct(k: Any, n: Any) -> str:
    return f"{100 * k / n:.1f}% ({k}/{n})" if n else "-"


def headline_tables(a: Analysis) -> list[Table]:
    """The numbers the report opens with: C/R by setting x arm, and the first cohort's paired decrement."""
    rows = a.accuracy["accuracy_by_arm"]
    arms = list(dict.fromkeys(r["arm"] for r in rows))
    by_setting: dict[str, dict[str, Any]] = {}
    for r in rows:
        by_setting.setdefault(r["setting"], {"setting": r["setting"]})[r["arm"]] = _pct(r["correct"], r["completed"])
    accuracy = make_table(
        "headline_accuracy",
        "Accuracy by setting and arm",
        list(by_setting.values()),
        ["setting", *arms],
        note="C/R: correct of completed responses (correct/completed). C/N and counts: the Accuracy section.",
    )
    cohort = a.paired[0]["cohort"] if a.paired else None
    paired = [
        {
            "setting": r["setting"],
            "pairs": r["pairs"],
            "short correct": r["short_correct"],
            "long correct": r["long_correct"],
            "decrement (pp)": r["decrement_pp"],
            "interval": "-" if r["ci_low"] is None else f"[{r['ci_low']:.1f}, {r['ci_high']:.1f}]",
        }
        for r in a.paired
        if r["cohort"] == cohort
    ]
    decrement = make_table(
        "headline_paired",
        f"Paired short-minus-long decrement ({cohort or 'no Python pairs'})",
        paired,
        note=f"Final-output accuracy on the short input minus the long input, same cases, percentage points; "
        f"{a.config.level:.0%} source-cluster bootstrap interval. All cohorts: the Paired comparison section.",
    )
    return [accuracy, decrement]


def _inputs_html(a: Analysis, files: dict[str, str], sections: Sequence[str] = ()) -> str:
    """The Inputs list: the files' hashes, the counts, ``sections``' lines (what each section took), the config."""
    i = a.inputs
    items = [f"{name}: sha256 {sha}" for name, sha in files.items()] + [
        f"graded cells {i['cells']}, completed {i['completed']}, correct {i['correct']}",
        "settings: " + ", ".join(i["settings"]),
        "studies: " + ", ".join(i["studies"]),
        f"grades of unknown tasks (left out): {len(i['unknown_task_ids'])}"
        + (": " + ", ".join(i["unknown_task_ids"][:20]) if i["unknown_task_ids"] else ""),
        f"cells graded more than once (first kept): {len(i['duplicate_cells'])}",
        *sections,
        f"seed {a.config.seed}, {a.config.replicates} bootstrap replicates, {a.config.permutations} permutations",
        f"execstate {__version__}",
    ]
    return "<ul>" + "".join(f"<li>{esc(x)}</li>" for x in items) + "</ul>"


def _sections(
    a: Analysis,
    acc: list[Table],
    tabs: list[Table],
    figs: list[FigureOut],
    browser: str,
    files: dict[str, str],
    beyond: str = "",
    inputs: Sequence[str] = (),
    view_link: str | None = None,
) -> list[tuple[str, str, str]]:
    by = {t.name: t for t in acc + tabs}
    s = lambda *names: "".join(table_section(by[n]) for n in names)
    link = (lambda row: view_href(view_link, row)) if view_link else None
    linked = lambda *names: "".join(table_section(by[n], link) for n in names)
    all_series = f"<details><summary>All {len(a.series)} series tests</summary>{s('series')}</details>"
    omitted = "".join(f'<p class="note">{esc(d["reason"])}</p>' for d in a.figures.values() if d["figure"] == "omitted")
    return [
        ("headline", "Headline", "".join(table_section(t) for t in headline_tables(a))),
        ("inputs", "Inputs", _inputs_html(a, files, inputs)),
        ("corpus", "Corpus", s("corpus", "studies")),
        ("accuracy", "Accuracy", linked("accuracy_by_arm", "accuracy_by_setting", "accuracy_by_study")),
        ("paired", "Paired comparison", s("paired")),
        ("regression", "Regression", s("regression", "regression_fits", "correlations")),
        ("series", "Series tests", s("series_summary", "series_bh_family") + all_series),
        ("figures", "Figures", omitted + "".join(figure_html(f) for f in figs)),
        ("beyond", "Beyond the paper", beyond),
        (
            "tasks",
            "Tasks",
            f'<p class="note">One entry per case; open a task for its source, input, oracle '
            f"and every setting's answer.</p>{browser}",
        ),
    ]


def _with_extra(base: list[tuple[str, str, str]], extra: Sequence[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    return base[:-1] + list(extra) + base[-1:]  # the task browser stays last


def write_report(
    tasks: list[Task],
    grades: list[Grade],
    out_dir: Path,
    config: AnalysisConfig | None = None,
    files: dict[str, str] | None = None,
    sections: Sequence[tuple[str, str, str]] = (),
    responses: list[Response] | None = None,
    view_link: str | None = None,
) -> ReportFiles:
    """Analyse (``execstate.analyze.analyze``), then write analysis.json and render its tables, figures and
    report.html under ``out_dir``; nothing here computes a number the report shows.

    ``view_link``: the URL of an ``execstate view`` page over the same run (e.g. ``http://127.0.0.1:8765/``);
    each row of the accuracy tables then links into its list filtered to the row (``view_href``). None (the
    default): no links, the page is what it was.

    ``sections``: extra (anchor, heading, inner HTML) sections placed before the task browser (the pilot's).
    ``responses`` (the run's records) add the truncation and token tables of the beyond-the-paper section."""
    config = config or AnalysisConfig()
    if not grades:
        raise InputFileError(
            "there are no grades to analyse. Fix: grade a run first with `execstate grade` and pass its grades.jsonl"
        )
    out_dir = output_dir(out_dir)
    analysis = analyze(tasks, grades, config, responses)
    joined = joinable_grades(tasks, grades)
    acc, tabs = accuracy_section_tables(analysis), analysis_tables(analysis)
    extra: dict[str, Any] = {"files": files or {}, "execstate_version": __version__}
    finish_figures = start_figures(analysis.figures, out_dir / "figures")  # drawn while the rest is written
    json_path = write_analysis_json(analysis, out_dir / "analysis.json", extra)
    table_paths = write_tables(acc + tabs, out_dir / "tables")
    shown = show_sections(analysis, out_dir)
    for folder, folder_tables in shown.tables.items():
        table_paths += write_tables(folder_tables, out_dir / "tables" / folder)
    figs = finish_figures()
    base = _sections(
        analysis, acc, tabs, figs, task_browser(tasks, joined), files or {}, shown.beyond, shown.inputs, view_link
    )
    html_text = page(
        "execstate analysis report", pipeline_check_banner(grades), _with_extra(base, [*shown.pages, *sections])
    )
    html_path = out_dir / "report.html"
    html_path.write_text(html_text, encoding="utf-8", newline="")
    drawn = figs + shown.figures
    return ReportFiles(out_dir, json_path, html_path, table_paths, [p for f in drawn for p in f.paths])


def _sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def analyze_files(
    tasks_path: Path,
    grades_path: Path,
    out_dir: Path,
    config: AnalysisConfig | None = None,
    *,
    task_ids: Collection[str] | None = None,
    sections: Sequence[tuple[str, str, str]] = (),
    responses_path: Path | None = None,
    view_link: str | None = None,
) -> ReportFiles:
    """Read ``tasks.jsonl`` and ``grades.jsonl`` and write the full analysis to ``out_dir``.

    ``task_ids`` keeps only those tasks of the file (a run's planned tasks); default: all of them.
    ``responses_path``: the run's ``responses.jsonl``, for the truncation and token tables.
    ``view_link``: as ``write_report``'s.
    """
    output_dir(out_dir)  # a file in the way fails before the statistics run
    tasks = list(read_jsonl(Path(tasks_path), Task))
    if task_ids is not None:
        tasks = [t for t in tasks if t.task_id in task_ids]
    grades = list(read_jsonl(Path(grades_path), Grade))
    if not grades:
        raise InputFileError(
            f"{grades_path} holds no grades. Fix: pass the grades.jsonl that "
            "`execstate grade` wrote for a run with responses"
        )
    files = {Path(tasks_path).name: _sha256(Path(tasks_path)), Path(grades_path).name: _sha256(Path(grades_path))}
    responses = None
    if responses_path is not None:
        responses = list(read_jsonl(Path(responses_path), Response))
        files[Path(responses_path).name] = _sha256(Path(responses_path))
    return write_report(tasks, grades, Path(out_dir), config, files, sections, responses, view_link)
