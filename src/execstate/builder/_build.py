"""Build a batch of case specs into tasks.jsonl, excluded.jsonl and manifest.json."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import platform
import signal
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate import __version__
from execstate.builder._card import CARD_NAME, dataset_card
from execstate.builder._case import build_case, failed_case
from execstate.builder._fresh import Fresh
from execstate.builder._further import not_kept_of, not_posed_of
from execstate.builder._ladder import Ladder, ladder_of
from execstate.builder._measurements import Measurements
from execstate.builder._spec import CaseSpec, find_specs, load_spec
from execstate.builder._twins import PROOF_SEEDS, fresh_aliases, pinned_fresh, prove_twins, twin_links, unfollowed
from execstate.errors import Interrupted, SpecError, output_dir, remove_tree
from execstate.executors import open_executor
from execstate.languages import HELPER_LANGUAGE, BuildOptions, make_language
from execstate.records import FRESH_SUFFIX, BuildManifest, Exclusion, Task, is_fresh, is_variant, tasks_bytes
from execstate.sandbox import kill_all
from execstate.studies import builtin_study


@dataclass(frozen=True)
class BuildResult:
    """What a build produced, in stable order (tasks by case id then arm)."""

    tasks: list[Task]
    exclusions: list[Exclusion]
    manifest: BuildManifest

    def raise_if_interrupted(self, out: Path | str) -> None:
        """``Interrupted`` naming what was kept and what was not, if the build was stopped before its end."""
        m = self.manifest
        if m.interrupted:
            raise Interrupted(
                f"stopped before the end: the records of {m.cases_admitted + m.cases_excluded} finished "
                f"case(s) are in {out}; {len(m.cases_interrupted)} case(s) were stopped while running and "
                f"{len(m.cases_not_started)} never started (manifest.json lists them). "
                "Fix: run the same command again to build every case"
            )


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
    stop: threading.Event | None = None,
    partial: Path | str | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    fresh: Fresh | None = None,
    ladder: Ladder | None = None,
    memo: Measurements | None = None,
) -> BuildResult:
    """Build every case spec found under ``paths`` and in the built-in ``studies``.

    One bad case never stops the batch. Imported studies (``cruxeval``) add their
    ready tasks as admitted cases. ``progress(done, total, case_id)`` is called
    after each built case. ``ValueError`` for an unknown study name.

    Stopping: once ``stop`` is set no case starts, the running programs are
    killed (``sandbox.kill_all``) and the result holds the finished cases, with
    the cases that were running listed in ``manifest.cases_interrupted`` (not as
    exclusions). Called from the main thread, ``build`` sets ``stop`` on SIGINT
    and SIGTERM. ``partial``: a directory (emptied first) where each finished
    case's records are appended as it finishes, so no finished work is lost.
    ``executor="dask"`` builds the cases on the Dask cluster at ``scheduler`` instead of
    ``jobs`` local threads (at most ``jobs`` cases are in flight there too).

    ``fresh``: build every case on fresh inputs drawn from ``fresh.seed`` (``execstate.builder.Fresh``,
    docs/fresh.md); imported studies' ready tasks are left out, since they have no inputs to draw. The
    manifest's ``fresh`` says which cases were refreshed and why the others were not; no file holds the seed.

    ``ladder``: build every case's input ladder instead (``execstate.builder.Ladder``, docs/ladder.md): the rungs'
    tasks only (imported studies' ready tasks are left out); the manifest's ``ladder`` holds the request and, per
    case, the rungs found, the missing ones with the nearest traces, or why the case has none.

    The build owns its measurement memo (``Measurements``): its cases share it, and it is closed at its end, so
    a second build in the same process measures afresh. ``memo``: a caller's memo instead, left open, so that a
    later build of the same programs on the same inputs (the pipeline's variants build, which rebuilds the
    originals) takes their measurements from it; the caller closes it.
    """
    stop = threading.Event() if stop is None else stop
    owned = memo is None
    memo = Measurements() if memo is None else memo
    with _stop_on_signals(stop), contextlib.closing(memo) if owned else contextlib.nullcontext():
        study_specs, imported = study_paths_and_tasks(list(studies))
        imported = imported if fresh is None and ladder is None else []
        spec_files = find_specs(list(paths) + study_specs)
        specs, exclusions = _load_specs(spec_files)
        links = twin_links(specs)
        if fresh is not None and links:  # a twin draws its fresh inputs from its original's seeds
            fresh = dataclasses.replace(fresh, aliases=fresh_aliases(links))
        collect = _Collector(_Partial(Path(partial) if partial is not None else None), len(specs), progress)
        collect.exclusions(exclusions)
        interrupted, not_started = _run_cases(
            specs, options or BuildOptions(), jobs, stop, collect, executor, scheduler, fresh, memo, ladder
        )
        redo = unfollowed(collect.results, links) if fresh is not None and not stop.is_set() else {}
        if redo and fresh is not None:  # twins whose ranking chose another candidate: built on their original's
            again = [s for s in specs if s.id in redo]
            collect.forget(again)
            _run_cases(
                again,
                options or BuildOptions(),
                jobs,
                stop,
                collect,
                executor,
                scheduler,
                pinned_fresh(fresh, redo),
                memo,
            )
    results = collect.results
    for task in imported:
        results.setdefault(task.case_id, []).append(task)
    tasks = [t for cid in sorted(results) for t in results[cid]]
    twins = None
    if links:
        seeds = PROOF_SEEDS if fresh is None else ()  # a fresh build's tasks are themselves on fresh inputs
        tasks, twins = prove_twins(tasks, specs, links, options or BuildOptions(), seeds=seeds, jobs=jobs)
    exclusions = sorted(collect.excluded, key=lambda e: (e.case_id, e.spec_path or ""))
    helper_key = make_language(HELPER_LANGUAGE, options or BuildOptions()).toolchain_key
    manifest = _manifest(spec_files, tasks, exclusions, len(results), (interrupted, not_started), helper_key)
    for name in sorted({spec.language for spec in specs}):
        manifest = manifest.model_copy(update=make_language(name, options or BuildOptions()).build_meta())
    if fresh is not None:
        manifest = manifest.model_copy(update={"fresh": _fresh_summary(fresh, tasks, exclusions)})
    if twins is not None:
        manifest = manifest.model_copy(update={"twins": twins})
    if ladder is not None:
        cases = {cid: collect.ladders[cid] for cid in sorted(collect.ladders)}
        manifest = manifest.model_copy(update={"ladder": {**ladder.record(), "cases": cases}})
    not_posed = [n for cid in sorted(collect.not_posed) for n in collect.not_posed[cid]]
    if not_posed:
        manifest = manifest.model_copy(update={"not_posed": not_posed})
    opts = options or BuildOptions()
    if opts.variants:
        record = {
            "names": list(opts.variants),
            "seed": opts.variant_seed,
            "kept": sorted({t.case_id for t in tasks if "variant_of" in t.meta}),
            "not_kept": [n for cid in sorted(collect.not_kept) for n in collect.not_kept[cid]],
        }
        manifest = manifest.model_copy(update={"variants": record})
    return BuildResult(tasks, exclusions, manifest)


def combine_builds(published: BuildResult, fresh: BuildResult) -> BuildResult:
    """One build of ``published``'s cases and ``fresh``'s (a ``--fresh`` build): tasks by case id (each fresh case
    right after its published twin), every exclusion, and one manifest counting both and holding ``fresh``'s
    commitment, so that the later stages read one ``tasks.jsonl``."""
    tasks = sorted([*published.tasks, *fresh.tasks], key=lambda t: t.case_id)  # stable: arm order kept
    exclusions = sorted([*published.exclusions, *fresh.exclusions], key=lambda e: (e.case_id, e.spec_path or ""))
    a, b = published.manifest, fresh.manifest
    by_check = Counter(a.exclusions_by_check) + Counter(b.exclusions_by_check)
    manifest = a.model_copy(
        update={
            "specs": [*a.specs, *(s for s in b.specs if s not in a.specs)],
            "cases_admitted": a.cases_admitted + b.cases_admitted,
            "cases_excluded": len(exclusions),
            "tasks": len(tasks),
            "tasks_sha256": hashlib.sha256(tasks_bytes(tasks)).hexdigest(),
            "exclusions_by_check": dict(sorted(by_check.items())),
            "interrupted": a.interrupted or b.interrupted,
            "cases_interrupted": [*a.cases_interrupted, *b.cases_interrupted],
            "cases_not_started": [*a.cases_not_started, *b.cases_not_started],
            "fresh": b.fresh,
            "twins": _both_twins(a.twins, b.twins),
            "not_posed": sorted([*a.not_posed, *b.not_posed], key=lambda n: n["case_id"]),
        }
    )
    return BuildResult(tasks, exclusions, manifest)


def _both_twins(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any] | None:
    """One ``twins`` record of a published and a fresh build: the published one's seeds, both builds' pairs."""
    if a is None or b is None:
        return a or b
    return {"seeds": a["seeds"], **{k: [*a[k], *b[k]] for k in ("proven", "not_proven")}}


def add_variants(built: BuildResult, varied: BuildResult) -> BuildResult:
    """``built`` with the source-variant cases of ``varied`` (a ``--variants`` build of some of its cases): their
    tasks, each right after its original's, and ``varied``'s variant record in the manifest, so the later stages
    read one ``tasks.jsonl``. ``varied``'s own originals (built again to make the variants) are left out."""
    extra = [t for t in varied.tasks if is_variant(t)]
    tasks = sorted([*built.tasks, *extra], key=lambda t: t.case_id)  # stable: arm order kept
    m = built.manifest
    manifest = m.model_copy(
        update={
            "cases_admitted": m.cases_admitted + len({t.case_id for t in extra}),
            "tasks": len(tasks),
            "tasks_sha256": hashlib.sha256(tasks_bytes(tasks)).hexdigest(),
            "variants": varied.manifest.variants,
        }
    )
    return BuildResult(tasks, built.exclusions, manifest)


def add_ladder(built: BuildResult, laddered: BuildResult) -> BuildResult:
    """``built`` with the rung tasks of ``laddered`` (a ``--ladder`` build): tasks by case id (each case's rungs right
    after it), ``laddered``'s ladder record in the manifest, its cases with rungs counted as admitted, so the later
    stages read one ``tasks.jsonl``."""
    tasks = sorted([*built.tasks, *laddered.tasks], key=lambda t: t.case_id)  # stable: arm order kept
    m = built.manifest
    manifest = m.model_copy(
        update={
            "cases_admitted": m.cases_admitted + laddered.manifest.cases_admitted,
            "tasks": len(tasks),
            "tasks_sha256": hashlib.sha256(tasks_bytes(tasks)).hexdigest(),
            "interrupted": m.interrupted or laddered.manifest.interrupted,
            "ladder": laddered.manifest.ladder,
        }
    )
    return BuildResult(tasks, built.exclusions, manifest)


def _fresh_summary(fresh: Fresh, tasks: list[Task], exclusions: list[Exclusion]) -> dict[str, Any]:
    """The manifest's record of a ``--fresh`` build: the seed's commitment, what was refreshed and what not."""
    refreshed = sorted({t.case_id for t in tasks if is_fresh(t)})
    kept = {t.case_id: str(t.meta.get("fresh_note", "")) for t in tasks if t.meta.get("fresh") is False}
    left_out = {
        e.case_id: e.reason for e in exclusions if e.check == "fresh" and e.reason.startswith("not refreshable")
    }
    return {
        "commitment": fresh.commitment,
        "candidates": fresh.candidates,
        "only": fresh.only,
        "refreshed": refreshed,
        "not_refreshable": dict(sorted({**kept, **left_out}.items())),
    }


@contextlib.contextmanager
def _stop_on_signals(stop: threading.Event) -> Iterator[None]:
    """In the main thread, let SIGINT and SIGTERM set ``stop`` until the block ends (then restore the handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signals = (signal.SIGINT, signal.SIGTERM)
    previous = {sig: signal.getsignal(sig) for sig in signals}
    for sig in signals:
        signal.signal(sig, lambda signum, frame: stop.set())
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


def _load_specs(spec_files: list[Path]) -> tuple[list[CaseSpec], list[Exclusion]]:
    """Parse every spec; a spec that cannot be used becomes a ``spec`` exclusion (duplicates too)."""
    specs, exclusions = [], []
    for path in spec_files:
        try:
            specs.append(load_spec(path))
        except SpecError as exc:
            exclusions.append(Exclusion(case_id=_guess_id(path), check="spec", reason=str(exc), spec_path=str(path)))
        except Exception as exc:  # one bad spec never stops the batch
            exclusions.append(failed_case(_guess_id(path), exc, str(path)))
    specs, dupes = _dedupe(specs)
    return specs, exclusions + dupes


class _Collector:
    """Takes each finished case's outcome (in the main thread): keeps it, appends it to the partial files, reports."""

    def __init__(self, partial: _Partial, total: int, progress: Callable[[int, int, str], None] | None) -> None:
        self.partial, self.total, self.progress = partial, total, progress
        self.results: dict[str, list[Task]] = {}
        self.excluded: list[Exclusion] = []
        self.not_posed: dict[str, list[dict[str, str]]] = {}
        self.not_kept: dict[str, list[dict[str, str]]] = {}
        self.ladders: dict[str, dict[str, Any]] = {}
        self.done = 0

    def forget(self, specs: list[CaseSpec]) -> None:
        """Drop what ``specs`` produced, to build them again (a fresh twin pinned to its original's candidate); the
        partial files keep the first outcome, the final files only the second."""
        ids = {s.id for s in specs}
        for case_id in ids:
            self.results.pop(case_id, None)
            self.not_posed.pop(case_id, None)
            self.not_kept.pop(case_id, None)
        self.excluded = [e for e in self.excluded if e.case_id.removesuffix(FRESH_SUFFIX) not in ids]
        self.total += len(specs)

    def exclusions(self, exclusions: list[Exclusion]) -> None:
        self.excluded += exclusions
        self.partial.add("excluded.jsonl", exclusions)

    def __call__(self, spec: CaseSpec, out: list[Task] | Exclusion) -> None:
        entry = None if isinstance(out, Exclusion) else ladder_of(out)
        if entry is not None:
            self.ladders[spec.id] = entry
        if isinstance(out, Exclusion):
            self.exclusions([out])
        elif entry is not None and not out:  # a case without rungs is not admitted (nor excluded)
            pass
        else:
            self.results[spec.id] = out
            self.not_posed[spec.id] = [n.record(out[0].case_id if out else spec.id) for n in not_posed_of(out)]
            self.not_kept[spec.id] = not_kept_of(out)
            self.partial.add("tasks.jsonl", out)
        self.done += 1
        if self.progress:
            self.progress(self.done, self.total, spec.id)


def _run_cases(
    specs: list[CaseSpec],
    opts: BuildOptions,
    jobs: int,
    stop: threading.Event,
    record: _Collector,
    executor: str = "local",
    scheduler: str | None = None,
    fresh: Fresh | None = None,
    memo: Measurements | None = None,
    ladder: Ladder | None = None,
) -> tuple[list[str], list[str]]:
    """Build ``specs``, at most ``jobs`` at a time, handing each outcome to ``record`` as it finishes.

    Submits a case only when a worker is free, so that after ``stop`` no case
    starts. Returns the ids of the cases running and not started when it stopped.
    """
    if executor != "local":
        with open_executor(executor, jobs, scheduler, processes=False) as remote:
            return _schedule(specs, opts, jobs, stop, record, remote, fresh=fresh, memo=memo, ladder=ladder)
    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="execstate-case")
    return _schedule(specs, opts, jobs, stop, record, pool, local=True, fresh=fresh, memo=memo, ladder=ladder)


def _schedule(
    specs: list[CaseSpec],
    opts: BuildOptions,
    jobs: int,
    stop: threading.Event,
    record: _Collector,
    pool: Executor,
    *,
    local: bool = False,
    fresh: Fresh | None = None,
    memo: Measurements | None = None,
    ladder: Ladder | None = None,
) -> tuple[list[str], list[str]]:
    queue = list(reversed(specs))
    running: dict[Future, CaseSpec] = {}
    try:
        while queue or running:
            while queue and len(running) < max(1, jobs) and not stop.is_set():
                spec = queue.pop()
                running[pool.submit(build_case, spec, opts, fresh, memo, ladder)] = spec
            done, _ = wait(running, timeout=_POLL_S, return_when=FIRST_COMPLETED)
            if stop.is_set():
                break
            for fut in done:
                spec = running.pop(fut)
                record(spec, _outcome(fut, spec))
    finally:
        if local:
            stragglers = _drain(running) if running else False
            pool.shutdown(wait=not stragglers, cancel_futures=True)
        else:  # a cluster's workers: cancel what runs there, the client closes with the context
            for fut in running:
                fut.cancel()
    return [s.id for s in running.values()], [s.id for s in reversed(queue)]


_POLL_S = 0.1
_DRAIN_S = 30.0


def _drain(running: dict[Future, CaseSpec]) -> bool:
    """Kill the running cases' programs until their threads end; True if some still run after ``_DRAIN_S``."""
    deadline = time.monotonic() + _DRAIN_S
    pending = set(running)
    while pending and time.monotonic() < deadline:
        kill_all()  # again and again: a case may start its next program before it notices
        pending = wait(pending, timeout=0.05)[1]
    return bool(pending)


def _outcome(fut: Future, spec: CaseSpec) -> list[Task] | Exclusion:
    try:
        return fut.result()
    except Exception as exc:  # build_case does not raise; if it ever does, the batch goes on
        return failed_case(spec.id, exc, str(spec.spec_path))


class _Partial:
    """Appends finished cases' records to ``tasks.jsonl`` and ``excluded.jsonl`` in a directory, as they finish."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        if directory is not None:
            remove_tree(directory)  # a symlink planted there is removed, never followed
            directory.mkdir(parents=True)

    def add(self, name: str, records: Sequence[Task | Exclusion]) -> None:
        if self.directory is None or not records:
            return
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW
        with os.fdopen(os.open(self.directory / name, flags, 0o644), "w", encoding="utf-8", newline="\n") as fh:
            fh.write("".join(r.to_json_line() + "\n" for r in records))


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


def _manifest(
    spec_files, tasks, exclusions, admitted, unfinished: tuple[list[str], list[str]], key: str
) -> BuildManifest:
    """``key``: the helper language's toolchain key, under which tasks record the interpreter's version."""
    by_check = dict(Counter(e.check for e in exclusions))  # in the exclusions' order, as manifests have it
    python = next((t.meta[key] for t in tasks if key in t.meta), platform.python_version())
    return BuildManifest(
        execstate_version=__version__,
        python=python,
        specs=[str(p) for p in spec_files],
        cases_admitted=admitted,
        cases_excluded=len(exclusions),
        tasks=len(tasks),
        tasks_sha256=hashlib.sha256(tasks_bytes(tasks)).hexdigest(),
        exclusions_by_check=by_check,
        interrupted=any(unfinished),
        cases_interrupted=unfinished[0],
        cases_not_started=unfinished[1],
        environments=_environments(tasks),
    )


def _environments(tasks: list[Task]) -> list[dict[str, Any]]:
    """The distinct ``meta["environment"]`` records of ``tasks``, in a fixed order."""
    found = {json.dumps(t.meta["environment"], sort_keys=True) for t in tasks if "environment" in t.meta}
    return [json.loads(text) for text in sorted(found)]


def write_build(result: BuildResult, out: Path | str) -> None:
    """Write ``tasks.jsonl``, ``excluded.jsonl``, ``manifest.json`` and the dataset card ``README.md`` into ``out``.

    ``out`` is created if missing.

    Each file is written to a new temporary file in ``out`` and renamed over
    the old one, so a symlink planted at one of the names is replaced, never
    written through. Then ``out/.partial`` (``build(partial=...)``) is removed.
    """
    out = output_dir(out)
    _replace(out / "tasks.jsonl", tasks_bytes(result.tasks))
    _replace(out / "excluded.jsonl", "".join(e.to_json_line() + "\n" for e in result.exclusions).encode("utf-8"))
    manifest = json.dumps(result.manifest.model_dump(mode="json"), indent=2) + "\n"
    _replace(out / "manifest.json", manifest.encode("utf-8"))
    card = dataset_card(result.tasks, result.exclusions, result.manifest)
    _replace(out / CARD_NAME, card.encode("utf-8"))
    remove_tree(out / PARTIAL_DIR)


PARTIAL_DIR = ".partial"
"""Where the command line has ``build`` append finished cases' records under ``--out``; ``write_build`` removes it."""


def _replace(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), 0o644)
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
