"""Run tasks x settings x samples against providers, writing exactly one durable record per cell."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import json
import os
import queue
import random
import signal
import threading
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from execstate.errors import RecordError, UsageError, output_dir, require_file
from execstate.records import RUN_RESPONSES_NAME, Response, RunInvocation, RunManifest, Task, read_jsonl
from execstate.run._batch import BatchCounts, Fallback
from execstate.run._batches import BatchRun, CancelledBatch, cancel_open_batches
from execstate.run._cache import ResponseCache
from execstate.run._manifest import (
    check_compatible,
    file_sha256,
    read_manifest,
    tasks_sha256,
    updated_manifest,
    write_manifest,
)
from execstate.run._plan import PlanRow, plan_run
from execstate.run._policy import SettingAborted, run_cell
from execstate.run._progress import RunProgress
from execstate.run._record import CellRecorder
from execstate.run._retry import RETRY_CHOICES, move_no_responses
from execstate.run._settings import Setting, SettingsError, load_settings
from execstate.run._store import CellKey, Repair, ResponseStore, open_store
from execstate.run.providers import AnyProvider, provider_entry

RESPONSES_NAME = RUN_RESPONSES_NAME


@dataclass
class RunSummary:
    """What one invocation did. Counts of new records exclude cells recorded by earlier runs."""

    out_dir: Path
    planned: int
    """Cells asked for: selected tasks x samples x selected settings."""
    already_recorded: int
    """Planned cells found in ``responses.jsonl`` at start and skipped."""
    recorded: dict[str, Counter[str]] = field(default_factory=dict)
    """New records this invocation, by setting then status (``retry`` counts re-sends)."""
    aborted: dict[str, str] = field(default_factory=dict)
    """Settings stopped by a setting-wide error (key refused, unknown model), with the error."""
    interrupted: bool = False
    """Stopped by Ctrl-C / SIGTERM; re-running the same command resumes."""
    repair: Repair | None = None
    cached: dict[str, int] = field(default_factory=dict)
    """Cells recorded from the response cache this invocation, by setting (never sent; not in ``recorded``)."""
    batches: dict[str, BatchCounts] = field(default_factory=dict)
    """Per setting run through vendor batches: batches submitted now, resumed, cells re-sent (``run/_batch.py``)."""
    notes: list[str] = field(default_factory=list)
    """Remarks on how settings were run (a setting asked to batch whose provider has no batch API)."""
    retried: dict[str, int] = field(default_factory=dict)
    """``--retry no-response``: records moved to ``responses.retried.jsonl`` (their cells asked again), by setting."""

    @property
    def new_records(self) -> int:
        return sum(c["completed"] + c["no-response"] for c in self.recorded.values()) + sum(self.cached.values())

    @property
    def missing(self) -> int:
        """Planned cells still without a record (in flight at an interrupt, or in an aborted setting)."""
        return self.planned - self.already_recorded - self.new_records

    @property
    def ok(self) -> bool:
        return not self.interrupted and not self.aborted and self.missing == 0


@dataclass
class _Plan:
    setting: Setting
    cells: list[tuple[Task, int]]


def run_tasks(
    tasks: Sequence[Task] | Path | str,
    settings: Sequence[Setting] | Path | str,
    out_dir: Path | str,
    *,
    setting: str | None = None,
    samples: int = 1,
    limit: int | None = None,
    progress: bool | None = None,
    cache: ResponseCache | Path | str | None = None,
    batch: bool = False,
    batch_fallback: Fallback = "batch",
    retry: str | None = None,
    only: Collection[CellKey] | None = None,
) -> RunSummary:
    """Send every pending (task, setting, sample) cell and append its record to ``out_dir/responses.jsonl``.

    ``tasks`` and ``settings`` are records or the paths of a ``tasks.jsonl`` and
    a settings TOML. ``setting`` selects one setting by name; ``limit`` keeps the
    first N tasks; ``samples`` numbers cells 0..N-1. Cells already recorded are
    skipped, so re-running resumes. ``progress`` forces the bars on or off
    (default: on when stderr is a terminal). ``cache`` (a folder or a
    ``ResponseCache``) answers cells whose exact request was answered before,
    in any run directory, without sending them; completed answers are added
    to it. ``batch`` sends every setting whose provider has a batch API
    (``openai``, ``anthropic``) through the vendor's batches, as a setting with
    ``batch = true`` always is; cells a batch sends back expired or failed go
    in a next batch, or live with ``batch_fallback="live"`` (``run/_batch.py``,
    journal ``out_dir/batches.jsonl``). ``retry="no-response"`` first moves the ``no-response`` records of
    the selected cells whose every error was a transport or vendor-side failure to
    ``out_dir/responses.retried.jsonl`` (``run/_retry.py``), so those cells are asked again. ``only`` (a collection
    of ``(task_id, setting, sample)`` keys) plans just those cells of the product, as adaptive testing does one round
    at a time (``execstate.adaptive``); the manifest still hashes every task. Raises ``SettingsError`` or
    ``StoreError`` before any request is sent when the inputs are unusable.
    Blocking: use ``arun_tasks`` inside a running event loop.
    """
    coro = arun_tasks(
        tasks,
        settings,
        out_dir,
        setting=setting,
        samples=samples,
        limit=limit,
        progress=progress,
        cache=cache,
        batch=batch,
        batch_fallback=batch_fallback,
        retry=retry,
        only=only,
    )
    return event_loop_run(coro)


def plan_tasks(
    tasks: Sequence[Task] | Path | str,
    settings: Sequence[Setting] | Path | str,
    out_dir: Path | str | None,
    *,
    setting: str | None = None,
    samples: int = 1,
    limit: int | None = None,
    cache: ResponseCache | Path | str | None = None,
    batch: bool = False,
) -> list[PlanRow]:
    """What ``run_tasks`` with the same arguments would send and could cost (``run/_plan.py``), per setting.

    Sends nothing, opens no connection, needs no API key and writes nothing to ``out_dir``."""
    task_list, _, _ = _load_tasks(tasks)
    chosen = _select(list(load_settings(settings) if isinstance(settings, (str, Path)) else settings), setting)
    selected = task_list if limit is None else task_list[:limit]
    return plan_run(selected, chosen, out_dir, samples=samples, cache=cache, batch=batch)


def event_loop_run(coro: Any) -> Any:
    """Run on uvloop where installed: it cuts the loop's own cost per request, which decides
    throughput at hundreds of requests in flight (``benchmarks/runner.py``); else plain asyncio."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


async def arun_tasks(
    tasks: Sequence[Task] | Path | str,
    settings: Sequence[Setting] | Path | str,
    out_dir: Path | str,
    *,
    setting: str | None = None,
    samples: int = 1,
    limit: int | None = None,
    progress: bool | None = None,
    cache: ResponseCache | Path | str | None = None,
    batch: bool = False,
    batch_fallback: Fallback = "batch",
    retry: str | None = None,
    only: Collection[CellKey] | None = None,
) -> RunSummary:
    """The coroutine behind ``run_tasks`` (same contract)."""
    if samples < 1 or (limit is not None and limit < 0):
        raise UsageError(
            f"samples must be >= 1 and limit >= 0, got samples={samples}, limit={limit}. "
            "Fix: pass --samples 1 or more and --limit 0 or more"
        )
    if retry is not None and retry not in RETRY_CHOICES:
        raise UsageError(f"retry must be one of {', '.join(RETRY_CHOICES)}, got {retry!r}")
    task_list, sha, tasks_file = _load_tasks(tasks)
    chosen = _select(list(load_settings(settings) if isinstance(settings, (str, Path)) else settings), setting)
    selected = task_list if limit is None else task_list[:limit]
    out = output_dir(out_dir)
    with _exclusive(out):
        old = read_manifest(out)
        check_compatible(old, sha, chosen, out)
        retried: Counter[str] = Counter()
        if retry is not None:  # before the store is opened: the moved cells are then pending like any other
            cells = {(t.task_id, s.name, k) for s in chosen for t in selected for k in range(samples)}
            retried = move_no_responses(out, cells, out / RESPONSES_NAME)
        store, recorded, repair = open_store(out / RESPONSES_NAME)
        wanted = None if only is None else set(only)
        plans = [_plan(s, selected, samples, recorded, wanted) for s in chosen]
        planned = len(selected) * samples * len(chosen)
        if wanted is not None:
            planned = sum((t.task_id, s.name, k) in wanted for s in chosen for t in selected for k in range(samples))
        summary = RunSummary(out, planned, planned - sum(len(p.cells) for p in plans), repair=repair)
        summary.retried = dict(retried)
        batches = BatchRun.open(  # before the cache answers cells: it keeps each setting's plan as made
            out,
            [(p.setting, p.cells) for p in plans],
            batch=batch,
            fallback=batch_fallback,
            recorded=recorded,
            tasks=task_list,
            counts=summary.batches,
            notes=summary.notes,
        )
        response_cache = cache if isinstance(cache, ResponseCache) or cache is None else ResponseCache(cache)
        hits = _answer_from_cache(plans, response_cache, summary) if response_cache is not None else []
        try:
            providers, secrets = await _open_providers([p.setting for p in plans if p.cells])
            try:
                invocation = RunInvocation(
                    started_at=datetime.now(UTC).isoformat(timespec="seconds"),
                    settings=[s.name for s in chosen],
                    samples=samples,
                    limit=limit,
                    cached=dict(summary.cached) if response_cache is not None else None,
                )
                manifest = updated_manifest(old, tasks_file, sha, len(task_list), chosen, invocation)
                manifest = _with_models(out, manifest, providers)
                for name, provider in providers.items():  # how each setting's reasoning and sampling were sent
                    notes = getattr(getattr(provider, "capabilities", None), "notes", ())
                    summary.notes += [f"setting {name!r}: {note}" for note in notes]
                write_manifest(out, manifest)
                store.append(hits)  # cells the cache answered: durable before the first request goes out
                with _collector_frozen():
                    await _execute(
                        plans, providers, secrets, store, summary, RunProgress(progress), batches, response_cache
                    )
            finally:
                for provider in providers.values():
                    await provider.aclose()
        finally:
            store.close()
            if batches is not None:
                batches.close()
    return summary


def manifest_inputs(out_dir: Path | str) -> tuple[Path | None, list[Setting]]:
    """The tasks file and the settings the run manifest of ``out_dir`` records (for ``--retry``/``--cancel``
    without ``--tasks``/``--settings``); raises ``SettingsError`` without a manifest."""
    out = Path(out_dir)
    manifest = read_manifest(out)
    if manifest is None:
        raise SettingsError(f"{out}: no run manifest to read the tasks and settings from. Fix: pass them")
    tasks = Path(manifest.tasks_file) if manifest.tasks_file is not None else None
    return tasks, [Setting.model_validate(s) for s in manifest.settings.values()]


def cancel_batches(
    out_dir: Path | str, settings: Sequence[Setting] | Path | str | None = None, *, setting: str | None = None
) -> list[CancelledBatch]:
    """Cancel at the vendor every batch still open in ``out_dir/batches.jsonl`` (of ``setting`` when given) and
    journal each as ``cancelled``; their cells stay pending for a later run. ``settings`` (records or a settings
    TOML) give each setting's endpoint and key; by default the run manifest's settings. Blocking."""
    result: list[CancelledBatch] = event_loop_run(acancel_batches(out_dir, settings, setting=setting))
    return result


async def acancel_batches(
    out_dir: Path | str, settings: Sequence[Setting] | Path | str | None = None, *, setting: str | None = None
) -> list[CancelledBatch]:
    """The coroutine behind ``cancel_batches`` (same contract)."""
    out = Path(out_dir)
    if not out.is_dir():
        raise UsageError(f"{out}: no such run folder. Fix: pass the --out folder of a batch run")
    with _exclusive(out):
        if settings is None:
            chosen = manifest_inputs(out)[1]
        else:
            chosen = list(load_settings(settings) if isinstance(settings, (str, Path)) else settings)
        return await cancel_open_batches(out, chosen, setting=setting)


MODELS_NAME = "models.json"
"""What each setting's model accepts, as its provider resolved it before the first cell (``ModelCaps``)."""


def _with_models(out: Path, manifest: RunManifest, providers: dict[str, AnyProvider]) -> RunManifest:
    """Record each opened provider's resolved ``capabilities`` in the manifest and ``OUT/models.json``
    (settings resolved by earlier invocations are kept)."""
    resolved: dict[str, dict[str, Any]] = {}
    for name, provider in providers.items():
        caps = getattr(provider, "capabilities", None)
        if caps is not None:
            resolved[name] = caps.to_json() if hasattr(caps, "to_json") else dict(caps)
    if not resolved and manifest.models is None:
        return manifest
    models = {**(manifest.models or {}), **resolved}
    path = out / MODELS_NAME
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(models, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return manifest.model_copy(update={"models": models})


def _answer_from_cache(plans: list[_Plan], cache: ResponseCache, summary: RunSummary) -> list[Response]:
    """The records of the planned cells the cache answers; the plans keep only the others (so a setting
    whose every cell is cached opens no connection). Completed answers of this run go to the cache through the
    run's ``CellRecorder``."""
    answered: list[Response] = []
    for plan in plans:
        hits: list[Response] = []
        rest: list[tuple[Task, int]] = []
        for task, sample in plan.cells:
            hit = cache.lookup(plan.setting, task, sample)
            if hit is None:
                rest.append((task, sample))
            else:
                hits.append(hit)
        answered += hits
        summary.cached[plan.setting.name] = len(hits)
        plan.cells = rest
    return answered


def _load_tasks(tasks: Sequence[Task] | Path | str) -> tuple[list[Task], str, str | None]:
    if isinstance(tasks, (str, Path)):
        path = require_file(tasks, "tasks file", "build it first with `execstate build` and pass its tasks.jsonl")
        task_list, sha, name = list(read_jsonl(path, Task)), file_sha256(path), str(path)
    else:
        task_list, name = list(tasks), None
        sha = tasks_sha256(task_list)
    ids = [t.task_id for t in task_list]
    if len(set(ids)) != len(ids):
        dupes = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise RecordError(f"task ids must be unique; repeated: {dupes}. Fix: pass a tasks file written by a build")
    return task_list, sha, name


def _select(settings: list[Setting], name: str | None) -> list[Setting]:
    if name is None:
        return settings
    chosen = [s for s in settings if s.name == name]
    if not chosen:
        raise SettingsError(
            f"no setting named {name!r}. Fix: pass one of {', '.join(s.name for s in settings)} "
            "(the names of the settings file's [[setting]] tables)"
        )
    return chosen


def _plan(
    setting: Setting,
    tasks: list[Task],
    samples: int,
    recorded: dict[CellKey, Response],
    only: set[CellKey] | None = None,
) -> _Plan:
    # Sample-major order: every task's first sample is asked before any second one.
    cells = [
        (t, k)
        for k in range(samples)
        for t in tasks
        if (key := (t.task_id, setting.name, k)) not in recorded and (only is None or key in only)
    ]
    return _Plan(setting, cells)


async def _open_providers(settings: list[Setting]) -> tuple[dict[str, AnyProvider], tuple[str, ...]]:
    """Build each setting's provider; for endpoints, check the key variable and reachability first."""
    providers: dict[str, AnyProvider] = {}
    secrets: list[str] = []
    try:
        for s in settings:
            providers[s.name], keys = await provider_entry(s.provider).open(s)
            secrets += keys
    except BaseException:
        for p in providers.values():
            await p.aclose()
        raise
    return providers, tuple(secrets)


@contextlib.contextmanager
def _collector_frozen() -> Iterator[None]:
    """Keep the cyclic garbage collector off everything that exists before the run starts.

    The tasks, the resume index and the plans live for the whole run; without
    this, every full collection re-walks them while hundreds of requests wait
    (``benchmarks/runner.py``: about +0.01 of ideal throughput at 256 in
    flight). Objects made during the run are collected as usual. Skipped if
    the caller has already frozen objects, so their freeze is left alone.
    """
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@contextlib.contextmanager
def _exclusive(out: Path, lock: str = ".run.lock", holder: str = "`execstate run`") -> Iterator[None]:
    """Hold an advisory lock so two runs never append to the same directory at once."""
    with open(out / lock, "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SettingsError(f"{out}: another {holder} is writing there; wait for it or stop it") from None
        yield


def directory_lock(out: Path, lock: str, holder: str) -> contextlib.AbstractContextManager[None]:
    """The run's advisory lock under another file name: ``out/<lock>`` held while the block runs, else
    ``SettingsError`` saying another ``holder`` writes there (adaptive testing holds one across its rounds)."""
    return _exclusive(out, lock, holder)


class _Writer:
    """A thread that appends queued records in batches (group commit), keeping fsync off the event loop.

    Records queued while one batch is being written go out together in the
    next single write. A failed write (disk full, ...) stops all writing; the
    next ``put`` raises it, which stops the run.
    """

    _STOP = object()

    def __init__(self, store: ResponseStore) -> None:
        self.store = store
        self.error: Exception | None = None
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._drain, name="execstate-writer", daemon=True)
        self._thread.start()

    def put(self, rec: Response) -> None:
        if self.error is not None:
            raise self.error
        self._queue.put(rec)

    def close(self) -> None:
        """Write everything queued, stop the thread; raise the write error if there was one."""
        self._queue.put(self._STOP)
        self._thread.join()
        if self.error is not None:
            raise self.error

    def _drain(self) -> None:
        stop = False
        while not stop:
            batch: list[Response] = []
            item = self._queue.get()
            while True:
                if item is self._STOP:
                    stop = True
                    break
                batch.append(item)  # type: ignore[arg-type]
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            if batch and self.error is None:
                try:
                    self.store.append(batch)
                except Exception as exc:  # any failure, not only OSError: never drop records silently
                    self.error = exc


async def _execute(
    plans: list[_Plan],
    providers: dict[str, AnyProvider],
    secrets: tuple[str, ...],
    store: ResponseStore,
    summary: RunSummary,
    progress: RunProgress,
    batches: BatchRun | None = None,
    cache: ResponseCache | None = None,
) -> None:
    """Run every plan concurrently; on Ctrl-C/SIGTERM stop, keeping every record already received. Every record,
    live or batched, goes through one ``CellRecorder``: the writer thread, the response cache, the progress bar."""
    writer = _Writer(store)
    recorder = CellRecorder(store, progress, cache=cache, put=writer.put)
    stop = {"requested": False}
    with progress:
        for p in plans:
            progress.add(p.setting.name, len(p.cells))
            summary.recorded[p.setting.name] = progress.counts[p.setting.name]
        work = asyncio.create_task(_run_plans(plans, providers, secrets, recorder, summary, batches))
        try:
            with _cancel_on_signals(work, stop):
                await work
        except asyncio.CancelledError:
            if not stop["requested"]:
                raise
            summary.interrupted = True
        finally:
            writer.close()  # every record received before a stop is written before we return


async def _run_plans(
    plans: list[_Plan],
    providers: dict[str, AnyProvider],
    secrets: tuple[str, ...],
    recorder: CellRecorder,
    summary: RunSummary,
    batches: BatchRun | None = None,
) -> None:
    rng = random.Random()
    async with asyncio.TaskGroup() as tg:
        for p in plans:
            if p.cells and batches is not None and batches.handles(p.setting.name):
                provider = providers[p.setting.name]
                tg.create_task(
                    batches.run(
                        p.setting,
                        p.cells,
                        provider,
                        secrets=secrets,
                        recorder=recorder,
                        aborted=summary.aborted,
                        rng=rng,
                    )
                )
            elif p.cells:
                tg.create_task(_run_plan(p, providers[p.setting.name], secrets, recorder, summary, rng))


async def _run_plan(
    plan: _Plan,
    provider: AnyProvider,
    secrets: tuple[str, ...],
    recorder: CellRecorder,
    summary: RunSummary,
    rng: random.Random,
) -> None:
    """``concurrency`` workers share one iterator of cells; a setting-wide error stops only this setting."""
    name = plan.setting.name
    cells = iter(plan.cells)

    async def worker() -> None:
        for task, sample in cells:
            rec = await run_cell(
                provider,
                plan.setting,
                task,
                sample,
                secrets=secrets,
                rng=rng,
                on_retry=lambda: recorder.progress.note(name, "retry", advance=False),
            )
            recorder.record(plan.setting, [(task, rec)])  # no await between receiving and queueing

    try:
        async with asyncio.TaskGroup() as tg:
            for _ in range(min(plan.setting.concurrency, len(plan.cells))):
                tg.create_task(worker())
                await asyncio.sleep(0)  # ramp up: one new worker per event-loop pass, not all at once
    except* SettingAborted as group:
        summary.aborted[name] = str(group.exceptions[0])


@contextlib.contextmanager
def _cancel_on_signals(work: asyncio.Task[None], stop: dict[str, bool]) -> Iterator[None]:
    """While running, SIGINT/SIGTERM cancel ``work`` instead of raising wherever the loop is."""
    loop = asyncio.get_running_loop()
    installed: list[tuple[signal.Signals, Any]] = []

    def handler() -> None:
        stop["requested"] = True
        work.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            previous = signal.getsignal(sig)
            loop.add_signal_handler(sig, handler)
            installed.append((sig, previous))
        except (ValueError, RuntimeError, NotImplementedError):  # not the main thread, or no signals here
            pass
    try:
        yield
    finally:
        for sig, previous in installed:
            loop.remove_signal_handler(sig)
            signal.signal(sig, previous)
