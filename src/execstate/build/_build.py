"""Build a batch of case specs into tasks.jsonl, excluded.jsonl and manifest.json."""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from execstate import __version__
from execstate.build._case import BuildOptions, build_case
from execstate.build._spec import CaseSpec, find_specs, load_spec
from execstate.errors import SpecError, output_dir
from execstate.records import BuildManifest, Exclusion, Task, tasks_bytes, write_jsonl
from execstate.studies import builtin_study


@dataclass(frozen=True)
class BuildResult:
    """What a build produced, in stable order (tasks by case id then arm)."""

    tasks: list[Task]
    exclusions: list[Exclusion]
    manifest: BuildManifest


def study_paths_and_tasks(names: list[str]) -> tuple[list[Path], list[Task]]:
    """Split built-in study names into spec folders to build and a dataset's ready tasks.

    ``UsageError`` for a name that is not a built-in study (it lists the known ones).
    """
    paths, tasks = [], []
    for name in names:
        study = builtin_study(name)
        if study.cases_dir is not None:
            paths.append(study.cases_dir)
        else:
            tasks.extend(study.load_tasks())
    return paths, tasks


def build(
    paths: list[Path],
    *,
    studies: Sequence[str] = (),
    jobs: int = 1,
    options: BuildOptions | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> BuildResult:
    """Build every case spec found under ``paths`` and in the built-in ``studies``.

    One bad case never stops the batch. Imported studies (``cruxeval``) add their
    ready tasks as admitted cases. ``progress(done, total, case_id)`` is called
    after each built case. ``ValueError`` for an unknown study name.
    """
    study_specs, imported = study_paths_and_tasks(list(studies))
    paths = list(paths) + study_specs
    opts = options or BuildOptions()
    spec_files = find_specs(paths)
    specs, exclusions = [], []
    for path in spec_files:
        try:
            specs.append(load_spec(path))
        except SpecError as exc:
            exclusions.append(Exclusion(case_id=_guess_id(path), check="spec", reason=str(exc), spec_path=str(path)))
    specs, dupes = _dedupe(specs)
    exclusions += dupes
    results: dict[str, list[Task]] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(build_case, spec, opts): spec for spec in specs}
        for n, fut in enumerate(as_completed(futures), 1):
            out = fut.result()
            if isinstance(out, Exclusion):
                exclusions.append(out)
            else:
                results[futures[fut].id] = out
            if progress:
                progress(n, len(specs), futures[fut].id)
    for task in imported:
        results.setdefault(task.case_id, []).append(task)
    tasks = [t for cid in sorted(results) for t in results[cid]]
    exclusions.sort(key=lambda e: (e.case_id, e.spec_path or ""))
    manifest = _manifest(spec_files, tasks, exclusions, len(results))
    return BuildResult(tasks, exclusions, manifest)


def _guess_id(path: Path) -> str:
    return f"?/{path.parent.name}"


def _dedupe(specs: list[CaseSpec]) -> tuple[list[CaseSpec], list[Exclusion]]:
    seen: dict[str, Path] = {}
    keep: list[CaseSpec] = []
    dupes: list[Exclusion] = []
    for spec in specs:
        if spec.id in seen:
            dupes.append(
                Exclusion(
                    case_id=spec.id,
                    check="spec",
                    spec_path=str(spec.spec_path),
                    reason=f"{spec.spec_path}: id {spec.id!r} is already used by {seen[spec.id]}. "
                    "Fix: give every case a unique id",
                )
            )
        else:
            seen[spec.id] = spec.spec_path
            keep.append(spec)
    return keep, dupes


def _manifest(spec_files, tasks, exclusions, admitted) -> BuildManifest:
    by_check: dict[str, int] = {}
    for e in exclusions:
        by_check[e.check] = by_check.get(e.check, 0) + 1
    python = next((t.meta["python"] for t in tasks if "python" in t.meta), platform.python_version())
    return BuildManifest(
        execstate_version=__version__,
        python=python,
        specs=[str(p) for p in spec_files],
        cases_admitted=admitted,
        cases_excluded=len(exclusions),
        tasks=len(tasks),
        tasks_sha256=hashlib.sha256(tasks_bytes(tasks)).hexdigest(),
        exclusions_by_check=by_check,
    )


def write_build(result: BuildResult, out: Path | str) -> None:
    """Write ``tasks.jsonl``, ``excluded.jsonl`` and ``manifest.json`` into ``out`` (created if missing)."""
    out = output_dir(out)
    (out / "tasks.jsonl").write_bytes(tasks_bytes(result.tasks))
    write_jsonl(out / "excluded.jsonl", result.exclusions)
    (out / "manifest.json").write_text(
        json.dumps(result.manifest.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8"
    )
