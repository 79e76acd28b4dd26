"""The dataset card (``README.md`` beside ``tasks.jsonl``): fields, studies, sources, licences, counts, schema.

The card follows the Hugging Face dataset-card layout: a YAML header (here
written in YAML's JSON-compatible flow style) naming the data file and its
fixed column types, then Markdown. ``datasets.load_dataset(BUILD_DIR)`` reads
the header, so the columns get these types whatever the rows hold;
``load_dataset("json", data_files=".../tasks.jsonl")`` infers the same types
from the rows (``Task.meta`` is written as a JSON string for that reason).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from execstate.features import dataset_features
from execstate.records import LANGUAGE_NAMES, BuildManifest, Exclusion, Task
from execstate.studies import STUDIES, study_source

CARD_NAME = "README.md"

TASK_FIELDS: dict[str, str] = {
    "schema_version": "version of the record layout (execstate's `docs/records.md` has the change log)",
    "task_id": "`<case_id>/<arm>`, unique",
    "case_id": "`<study>/<name>`: the case the task belongs to",
    "study": "the study (table below)",
    "language": " or ".join(f"`{name}`" for name in LANGUAGE_NAMES),
    "arm": "the question asked: `short-trace-final`, `long-trace-final`, `inside-loop-state`, "
    "`post-loop-state` (or, for CRUXEval, `function-output` and `function-input`: the value a call returns, "
    "or a call `f(...)` that returns a given value; or the further arms `loop-trace`, the states at the top of the "
    "first iterations of the checkpoint's loop run as a JSON list, and `line-count`, how many times a marked line "
    "runs on the short input)",
    "source": "the exact program text shown to the model",
    "input": "the exact standard-input text shown to the model",
    "oracle": "the expected answer, produced by execution (exact stdout; for `function-input` the item's own "
    "call, one right answer among any that return the output); never shown to a model",
    "answer_kind": "`text` or `json`",
    "grading_rule": "how an answer is compared with the oracle (`json-or-tokens`, `int-alpha-tokens`, `bytes`, "
    "`python-literal`; `python-call`: the answer is a call of `f` with literal arguments (or `lambda` ones where "
    "`meta.lambda_arguments` says so), right when `f` run on them in a sandbox returns the output; `integer`: a "
    "line count, one decimal integer)",
    "source_sha256": "SHA-256 of the clean source: the source cluster",
    "metrics": "`trace_length`, `peak_state`, `state_load`, `cyclomatic` (null: not measured)",
    "meta": "a JSON object encoded as a string: selection choices, checkpoint k and K, interpreter or "
    "compiler versions, provenance (its keys differ between studies)",
}
"""One line per ``Task`` field; a test keeps it complete."""


def dataset_card(tasks: Sequence[Task], exclusions: Sequence[Exclusion], manifest: BuildManifest) -> str:
    """The Markdown dataset card of one build (deterministic: the same build gives the same bytes)."""
    studies = sorted({t.study for t in tasks} | {_study_of(e) for e in exclusions} - {""})
    licences = {STUDIES[s].licence if s in STUDIES else None for s in studies}
    header = {
        "license": _hf_licence(licences),
        "pretty_name": "execstate tasks",
        "tags": ["code", "program-execution", "execstate"],
        "configs": [{"config_name": "default", "data_files": [{"split": "train", "path": "tasks.jsonl"}]}],
        "dataset_info": {"features": dataset_features(Task)},
    }
    lines = ["---", *(f"{key}: {json.dumps(value)}" for key, value in header.items()), "---", ""]
    lines += [
        "# execstate tasks",
        "",
        f"{len(tasks)} tasks from {manifest.cases_admitted} admitted cases ({manifest.cases_excluded} excluded), "
        f"built by execstate {manifest.execstate_version} with Python {manifest.python}"
        + (f" and {manifest.compiler}" if manifest.compiler else "")
        + f". `tasks.jsonl` SHA-256: `{manifest.tasks_sha256}`.",
        "",
        "Each task asks for the exact output (or the state at a loop checkpoint) of a program on an input; the "
        'oracle comes from running it. Load with `datasets.load_dataset("json", data_files="tasks.jsonl")` '
        '(or `load_dataset("<this folder>")`, which uses the schema above); '
        '`json.loads(row["meta"])` gives a task\'s meta object.',
        "",
        *_fields_table(),
        "",
        *_studies_table(tasks, exclusions, studies),
        "",
        *_counts_table(tasks),
        *_fresh_lines(manifest),
    ]
    return "\n".join(lines) + "\n"


def _fresh_lines(manifest: BuildManifest) -> list[str]:
    """A ``--fresh`` build's paragraph: what was re-issued on fresh inputs and the seed's commitment."""
    fresh = manifest.fresh
    if fresh is None:
        return []
    kept = fresh["not_refreshable"]
    return [
        "",
        "## Fresh inputs",
        "",
        f"{len(fresh['refreshed'])} case(s) were re-issued on fresh inputs (`execstate build --fresh`; case ids end "
        f"in `~fresh`, `meta.fresh` says how each input was drawn); {len(kept)} could not be refreshed"
        + (" and keep their published inputs (`meta.fresh` is false)" if kept and not fresh["only"] else "")
        + f". The seed is not published with them; its commitment is `{fresh['commitment']}` "
        "(`execstate verify-fresh tasks.jsonl --seed SEED` checks the tasks once it is revealed).",
    ]


def _study_of(exclusion: Exclusion) -> str:
    """The study of an excluded case: its id's prefix when that names a registered study, else ``""``."""
    prefix = exclusion.case_id.split("/")[0]
    return prefix if prefix in STUDIES else ""


def _hf_licence(licences: set[str | None]) -> str:
    known = {"MIT": "mit", "Apache-2.0": "apache-2.0", "CC-BY-4.0": "cc-by-4.0", "BSD-3-Clause": "bsd-3-clause"}
    if len(licences) == 1 and (only := next(iter(licences))) in known:
        return known[str(only)]
    return "other"


def _fields_table() -> list[str]:
    rows = []
    for feature in dataset_features(Task):
        kind = feature.get("dtype") or ("struct" if "struct" in feature else f"list of {feature.get('list')}")
        rows.append(f"| `{feature['name']}` | {kind} | {TASK_FIELDS[feature['name']]} |")
    return ["## Fields", "", "| field | type | meaning |", "| --- | --- | --- |", *rows]


def _studies_table(tasks: Sequence[Task], exclusions: Sequence[Exclusion], studies: list[str]) -> list[str]:
    cases = Counter(study for study, _ in {(t.study, t.case_id) for t in tasks})
    n_tasks = Counter(t.study for t in tasks)
    excluded = Counter(_study_of(e) for e in exclusions)
    rows = []
    for name in studies:
        said = study_source(name)
        rows.append(
            f"| {name} | {said['description']} | {said['source']} | {said['licence']} | {cases[name]} | "
            f"{excluded[name]} | {n_tasks[name]} |"
        )
    return [
        "## Studies, sources and licences",
        "",
        "| study | description | source | licence | cases | excluded | tasks |",
        "| --- | --- | --- | --- | ---: | ---: | ---: |",
        *rows,
    ]


def _counts_table(tasks: Sequence[Task]) -> list[str]:
    counts = Counter((t.study, t.language, t.arm) for t in tasks)
    rows = [f"| {s} | {lang} | {arm} | {n} |" for (s, lang, arm), n in sorted(counts.items())]
    return [
        "## Tasks by study, language and arm",
        "",
        "| study | language | arm | tasks |",
        "| --- | --- | --- | ---: |",
        *rows,
    ]
