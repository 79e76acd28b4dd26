"""Batch submission at the vendors' half price (``execstate run --batch``): OpenAI's Batch API (over
``/v1/chat/completions`` and ``/v1/responses``) and Anthropic's Message Batches API.

A setting run in batches sends its pending cells as vendor batches of at most
``batch_max_requests`` requests and under the form's ``max_requests``/``max_bytes`` (the vendor's limits),
at most ``batch_open`` in flight, polls each every ``batch_poll_s`` until it has
ended, then records one ``Response`` per cell carrying the batch's id in
``batch_id``. Cells the response cache answers are not sent.

The journal ``OUT/batches.jsonl`` (``run/_journal.py``) makes this safe to kill at any moment: every
submission and closing is fsync-ed there before the run goes on, and a batch submitted but never closed is
polled again on start, never submitted twice.

A cell whose request comes back expired, canceled, errored with a retryable
error (429, 5xx, overloaded, a body without an answer) or missing from the
results goes back to pending and is sent again in a next batch, or live with
``fallback="live"``. After ``max_attempts`` batches it is recorded as
``no-response`` with one error line per batch naming why. A result's request
refused for good (a 400) is recorded as ``no-response`` at once; 401/403/404 on
any batch call stop the setting as they do live, and so does an account error
(``ACCOUNT_ERRORS``) on a call or in a result: the cells it touched are not recorded and stay pending.

The vendors' batch forms and the HTTP client of their calls are ``run/providers/_wire.py``'s; the batch side
of a whole invocation (the journal opened once, resuming, cancelling) is ``run/_batches.py``'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
from collections import Counter
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from execstate.errors import UsageError, load_attr
from execstate.records import Response, Task
from execstate.run._attempt import AnyProvider, Attempt
from execstate.run._backoff import SettingAborted, Sleep, redact
from execstate.run._journal import (
    BatchJournal,
    JournalState,
    OpenBatch,
    custom_id,
    now_iso,
    unspend,
)
from execstate.run._policy import run_cell
from execstate.run._progress import RunProgress
from execstate.run._prompt import render_messages
from execstate.run._record import CellRecorder
from execstate.run._settings import Setting
from execstate.run._store import CellKey, ResponseStore
from execstate.run.providers import (
    BatchApi,
    BatchFailed,
    BatchHttp,
    BatchStatus,
    ResultsGone,
    batch_delay_s,
    provider_entry,
)

if TYPE_CHECKING:
    from execstate.run._cache import ResponseCache

Fallback = Literal["batch", "live"]
FALLBACKS: tuple[Fallback, ...] = ("batch", "live")

log = logging.getLogger("execstate.run.batch")


# -- what a run reports ----------------------------------------------------------------------------


@dataclass
class BatchCounts:
    """What one invocation did with one setting's batches."""

    submitted: int = 0
    """Batches submitted by this invocation (re-send batches included)."""
    resumed: int = 0
    """Batches submitted by an earlier invocation, still open at start, polled again (never re-submitted)."""
    resent: int = 0
    """Cells sent again (in a later batch, or live) after coming back expired, canceled or with a retryable error."""
    cells: int = 0
    """Cells submitted in batches by this invocation."""
    live: int = 0
    """Cells answered live by the ``live`` fallback."""
    cached: int = 0
    """Cells answered by the response cache inside ``run_batched`` (the runner looks the cache up before)."""
    failed: int = 0
    """Whole-batch failures (refused at creation or ended ``failed``): each re-submitted after a delay."""
    gone: int = 0
    """Ended batches whose results were gone (archived, expired, 404): their cells sent again."""


def batch_form(provider: str) -> BatchApi | None:
    """Provider ``provider``'s batch form (``ProviderEntry.batch``: an object or ``"module:attr"``), or ``None``."""
    entry = provider_entry(provider)
    form = entry.batch
    if isinstance(form, str):
        form = load_attr(form)
    return form


# -- the driver ------------------------------------------------------------------------------------


MAX_REQUESTS = 50_000
"""Requests per batch when the form names no ``max_requests`` (OpenAI's limit, the lower of the two)."""
MAX_BYTES = 200_000_000
"""Bytes per batch when the form names no ``max_bytes`` (OpenAI's 200 MB input file, the lower of the two)."""
LINE_OVERHEAD = 100
"""Bytes added to each request's JSON when estimating a batch's size (the form's own wrapping of a line)."""


@dataclass(frozen=True)
class _Request:
    custom_id: str
    cell: tuple[str, int]
    body: dict[str, Any]
    size: int
    """Estimated bytes of the request in the batch (its JSON + ``LINE_OVERHEAD``)."""


def split_requests(requests: Sequence[_Request], max_requests: int, max_bytes: int) -> list[list[_Request]]:
    """Consecutive chunks of at most ``max_requests`` requests and ``max_bytes`` estimated bytes each (a
    request larger than ``max_bytes`` alone goes in a chunk of its own: the vendor refuses it whole)."""
    chunks: list[list[_Request]] = []
    chunk: list[_Request] = []
    size = 0
    for request in requests:
        if chunk and (len(chunk) >= max_requests or size + request.size > max_bytes):
            chunks.append(chunk)
            chunk, size = [], 0
        chunk.append(request)
        size += request.size
    if chunk:
        chunks.append(chunk)
    return chunks


class _Display:
    """The setting's progress bar label: submitted, in-progress and done cells of its batches."""

    def __init__(self, progress: RunProgress, name: str) -> None:
        self.progress = progress
        self.name = name
        self.submitted = 0
        self.in_progress = 0
        self.done = 0

    def show(self) -> None:
        label = f"{self.name} [batch: {self.submitted} submitted, {self.in_progress} in progress, {self.done} done]"
        self.progress.describe(self.name, label)


class _Driver:
    def __init__(
        self,
        setting: Setting,
        form: BatchApi,
        provider: AnyProvider,
        journal: BatchJournal,
        state: JournalState,
        recorder: CellRecorder,
        *,
        pending: set[CellKey],
        skip: Container[CellKey],
        tasks: Mapping[str, Task],
        secrets: tuple[str, ...],
        fallback: Fallback,
        counts: BatchCounts,
        rng: random.Random,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.setting = setting
        self.name = setting.name
        self.form = form
        self.provider = provider
        self.journal = journal
        self.state = state
        self.recorder = recorder
        """Where every record goes, batched or live: the store, the response cache, the progress bar."""
        self.pending = pending
        self.skip = skip
        self.tasks = tasks
        self.secrets = secrets
        self.fallback = fallback
        self.progress = recorder.progress
        self.counts = counts
        self.rng = rng
        self.http = BatchHttp(setting, rng, secrets)
        self.submit_http = BatchHttp(setting, rng, secrets, submitting=True)
        self.sleep = sleep
        self.failures = 0
        """Whole-batch failures of this setting in this invocation."""
        self.max_requests = min(setting.batch_max_requests, getattr(form, "max_requests", None) or MAX_REQUESTS)
        self.max_bytes = getattr(form, "max_bytes", None) or MAX_BYTES
        self._in_flight = 0
        self._slots = asyncio.Condition()
        self.written: set[CellKey] = set()
        self.live_slots = asyncio.Semaphore(setting.concurrency)
        self.display = _Display(self.progress, self.name)
        self._tg: asyncio.TaskGroup | None = None

    # the flow

    async def run(self, fresh: list[tuple[Task, int]], live: list[tuple[Task, int]]) -> None:
        mine = [b for b in self.state.open.values() if b.setting == self.name]
        try:
            async with asyncio.TaskGroup() as tg:
                self._tg = tg
                for batch in mine:
                    self.counts.resumed += 1
                    self.display.submitted += len(batch.cells)
                    self.display.in_progress += len(batch.cells)
                    log.info("setting %s: resuming batch %s (%d cells)", self.name, batch.batch_id, len(batch.cells))
                    self._in_flight += 1  # a resumed batch is in flight: it is followed at once, never queued
                    tg.create_task(self._follow(batch))
                self.display.show()
                for cell in live:
                    tg.create_task(self._live(cell))
                await self._submit_all(fresh)
        except BaseExceptionGroup as group:
            aborted, rest = group.split(SettingAborted)
            if aborted is not None and rest is None:  # only setting-wide stops: raise the first one as itself
                raise _first(aborted) from None
            raise
        finally:
            await self.http.aclose()
            await self.submit_http.aclose()

    # batches in flight (``batch_open``)

    async def _take_slot(self) -> None:
        async with self._slots:
            await self._slots.wait_for(lambda: self._in_flight < self.setting.batch_open)
            self._in_flight += 1

    async def _free_slot(self) -> None:
        async with self._slots:
            self._in_flight -= 1
            self._slots.notify_all()

    # submitting

    def _requests(self, cells: Sequence[tuple[Task, int]]) -> list[_Request]:
        out: list[_Request] = []
        ids: set[str] = set()
        for task, sample in cells:
            cid = base = custom_id(task.task_id, sample)
            n = 0
            while cid in ids:  # never in practice (96 bits of hash); kept unique regardless
                n += 1
                cid = f"{base}-{n}"
            ids.add(cid)
            body = self.form.body(self.setting, render_messages(task))
            size = len(json.dumps({"custom_id": cid, "params": body}, ensure_ascii=False).encode("utf-8"))
            out.append(_Request(cid, (task.task_id, sample), body, size + LINE_OVERHEAD))
        return out

    async def _submit_all(self, cells: Sequence[tuple[Task, int]]) -> None:
        """Submit ``cells`` in batches under the count and byte limits, at most ``batch_open`` in flight."""
        assert self._tg is not None
        for chunk in split_requests(self._requests(cells), self.max_requests, self.max_bytes):
            await self._take_slot()
            try:
                batch = await self._submit(chunk)
            except BaseException:
                await self._free_slot()
                raise
            self._tg.create_task(self._follow(batch))

    async def _submit(self, chunk: list[_Request]) -> OpenBatch:
        """Submit one batch and journal it, re-submitting after ``batch_delay_s`` while it fails as a whole."""
        while True:
            try:
                return await self._submit_once(chunk)
            except BatchFailed as exc:
                await self._batch_failed(str(exc), None, len(chunk))

    async def _submit_once(self, chunk: list[_Request]) -> OpenBatch:
        """A cancel while the vendor may be accepting the batch waits for the answer, so an accepted batch is
        always journaled (and resumed, never submitted twice) unless the process dies."""
        work = asyncio.ensure_future(self._submit_and_journal(chunk))
        try:
            return await asyncio.shield(work)
        except asyncio.CancelledError:
            with contextlib.suppress(BaseException):
                await work
            raise

    async def _submit_and_journal(self, chunk: list[_Request]) -> OpenBatch:
        ids = {r.custom_id: r.cell for r in chunk}
        batch_id = await self.form.submit(self.submit_http, self.setting, [(r.custom_id, r.body) for r in chunk])
        at = now_iso()
        self.journal.append(
            {
                "event": "submitted",
                "setting": self.name,
                "provider": self.setting.provider,
                "batch_id": batch_id,
                "cells": [[t, k] for t, k in ids.values()],
                "custom_ids": list(ids),
                "at": at,
            }
        )
        batch = OpenBatch(self.name, self.setting.provider, batch_id, at, ids)
        self.state.open[(self.name, batch_id)] = batch
        for task_id, sample in ids.values():
            key = (task_id, self.name, sample)
            self.state.rounds[key] += 1
            self.state.first_at.setdefault(key, at)
        self.counts.submitted += 1
        self.counts.cells += len(ids)
        self.display.submitted += len(ids)
        self.display.in_progress += len(ids)
        self.display.show()
        log.info("setting %s: submitted batch %s (%d cells)", self.name, batch_id, len(ids))
        return batch

    async def _batch_failed(self, reason: str, batch_id: str | None, cells: int) -> None:
        """Journal a whole-batch failure; stop the setting after ``batch_max_failures`` of them in this
        invocation, else wait ``batch_delay_s`` (the caller then re-submits)."""
        self.failures += 1
        self.counts.failed += 1
        stop = self.failures > self.setting.batch_max_failures
        delay = None if stop else batch_delay_s(self.setting, self.failures, self.rng)
        reason = redact(reason, self.secrets)
        self.journal.append(
            {
                "event": "failed",
                "setting": self.name,
                "batch_id": batch_id,
                "at": now_iso(),
                "reason": reason,
                "failure": self.failures,
                "delay_s": None if delay is None else round(delay, 6),
                "cells": cells,
            }
        )
        log.warning("setting %s: batch failed as a whole (%d): %s", self.name, self.failures, reason)
        if delay is None:
            raise SettingAborted(
                f"setting {self.name!r}: a batch failed as a whole {self.failures} times (batch_max_failures = "
                f"{self.setting.batch_max_failures}); last: {reason}. No cell was recorded for it: fix the cause "
                "and re-run the same command to resume"
            )
        await self.sleep(delay)

    # following

    async def _follow(self, batch: OpenBatch) -> None:
        """Poll ``batch`` until it ends, then record it, or re-send its cells when it failed as a whole or its
        results are gone; its ``batch_open`` slot is freed before anything is submitted again."""
        held = True

        async def free() -> None:
            nonlocal held
            if held:
                held = False
                await self._free_slot()

        try:
            while True:
                status = await self.form.poll(self.http, self.setting, batch.batch_id)
                if status.ended:
                    break
                await asyncio.sleep(self.setting.batch_poll_s)
            log.info("setting %s: batch %s ended (%s, %s)", self.name, batch.batch_id, status.status, status.counts)
            judge = getattr(self.form, "failure", None)
            failure: Attempt | None = judge(status) if judge is not None else None
            if failure is not None:
                again = self._close_unspent(batch, status.status, f"failed: {failure.error}")
                if failure.kind == "abort":
                    raise SettingAborted(
                        f"setting {self.name!r}: batch {batch.batch_id}: {failure.error} (an account error: no "
                        "cell recorded for it; fix the account and re-run the same command)"
                    )
                await free()
                await self._batch_failed(str(failure.error), batch.batch_id, len(batch.cells))
                await self._submit_all(again)
                return
            try:
                found, missing = await self.form.results(self.http, self.setting, status)
            except ResultsGone as exc:
                again = self._close_unspent(batch, status.status, f"results gone: {exc}")
                self.counts.gone += 1
                self.counts.resent += len(again)
                log.warning(
                    "setting %s: the results of batch %s are gone; %d cells go again",
                    self.name,
                    batch.batch_id,
                    len(again),
                )
                await free()
                await self._submit_all(again)
                return
            again = await self._settle(batch, status, found, missing)
        finally:
            await free()
        await self._send_again(batch, again)

    def _close_unspent(self, batch: OpenBatch, status: str, reason: str) -> list[tuple[Task, int]]:
        """Journal ``batch`` closed without a result (its round not counted against its cells); the cells
        still to answer."""
        cells = list(batch.cells.values())
        self.journal.append(
            {
                "event": "closed",
                "setting": self.name,
                "batch_id": batch.batch_id,
                "at": now_iso(),
                "status": status,
                "reason": redact(reason, self.secrets),
                "counts": {"unspent": len(cells)},
                "resend": [],
                "unspent": [[t, k] for t, k in cells],
            }
        )
        del self.state.open[(self.name, batch.batch_id)]
        unspend(self.state, self.name, cells)
        self.display.in_progress -= len(cells)
        self.display.submitted -= len(cells)
        self.display.show()
        keys = [(t, self.name, k) for t, k in cells]
        return [
            (self.tasks[k[0]], k[2])
            for k in keys
            if k in self.pending and k not in self.skip and k not in self.written and k[0] in self.tasks
        ]

    async def _settle(
        self, batch: OpenBatch, status: BatchStatus, found: dict[str, Attempt], missing: str
    ) -> list[tuple[Task, int]]:
        """Record the batch's results durably and journal it closed; the cells to send again."""
        records: list[Response] = []
        resend: list[tuple[CellKey, str]] = []
        unspent: list[CellKey] = []
        aborted: str | None = None
        counts: Counter[str] = Counter()
        for cid, (task_id, sample) in batch.cells.items():
            key = (task_id, self.name, sample)
            if key in self.skip or key in self.written:
                counts["already-recorded"] += 1
                continue
            attempt = found.get(cid) or Attempt("retry", error=missing)
            round_no = max(self.state.rounds[key], 1)
            line = redact(f"attempt {round_no}: batch {batch.batch_id}: {attempt.error}", self.secrets)
            errors = list(self.state.errors.get(key, [])) + ([line] if attempt.error else [])
            if attempt.kind == "completed":
                records.append(self._record(key, attempt, round_no, errors, batch))
                counts["completed"] += 1
            elif attempt.kind == "abort":
                aborted = aborted or line
                unspent.append(key)
                counts["aborted"] += 1
            elif _again(attempt, self.setting) and round_no < self.setting.max_attempts:
                resend.append((key, line))
                counts["resend"] += 1
            else:
                records.append(self._record(key, attempt, round_no, errors, batch))
                counts["no-response"] += 1
        # durable (appended and fsync-ed) before the batch is journaled closed; cached and counted as live cells are
        self.recorder.record(
            self.setting, [(self.tasks.get(r.task_id), r) for r in records], durable=True, counted=self.pending
        )
        self.written.update((r.task_id, r.setting, r.sample) for r in records)
        event: dict[str, Any] = {
            "event": "closed",
            "setting": self.name,
            "batch_id": batch.batch_id,
            "at": now_iso(),
            "status": status.status,
            "counts": dict(counts),
            "resend": [[k[0], k[2], line] for k, line in resend],
        }
        if unspent:
            event["unspent"] = [[k[0], k[2]] for k in unspent]
        self.journal.append(event)
        del self.state.open[(self.name, batch.batch_id)]
        unspend(self.state, self.name, [(k[0], k[2]) for k in unspent])
        for key, line in resend:
            self.state.errors.setdefault(key, []).append(line)
        self.display.in_progress -= len(batch.cells)
        self.display.done += len(records)
        self.display.show()
        if aborted is not None:
            raise SettingAborted(
                f"setting {self.name!r}: {aborted} (an account error: no cell recorded for it; fix the account "
                "and re-run the same command)"
            )
        return [(self.tasks[k[0]], k[2]) for k, _ in resend if k in self.pending and k[0] in self.tasks]

    async def _send_again(self, batch: OpenBatch, again: list[tuple[Task, int]]) -> None:
        if not again:
            return
        self.counts.resent += len(again)
        for _ in again:
            self.progress.note(self.name, "retry", advance=False)
        log.info("setting %s: %d cells of batch %s go again (%s)", self.name, len(again), batch.batch_id, self.fallback)
        if self.fallback == "live":
            assert self._tg is not None
            for cell in again:
                self._tg.create_task(self._live(cell))
        else:
            await self._submit_all(again)

    def _record(self, key: CellKey, attempt: Attempt, rounds: int, errors: list[str], batch: OpenBatch) -> Response:
        completed = attempt.kind == "completed"
        return Response(
            task_id=key[0],
            setting=self.name,
            sample=key[2],
            status="completed" if completed else "no-response",
            text=attempt.text if completed else None,
            reasoning=attempt.reasoning if completed else None,
            finish_reason=attempt.finish_reason if completed else None,
            usage=attempt.usage,
            latency_s=None,  # a batch request's own time is not reported
            attempts=rounds,
            errors=errors,
            started_at=self.state.first_at.get(key, batch.at),
            finished_at=now_iso(),
            provider=self.provider.name,
            model=self.provider.model,
            pipeline_check=self.provider.pipeline_check,
            batch_id=batch.batch_id,
            served_model=attempt.served_model if completed else None,
            request_id=attempt.request_id if completed else None,
            service_tier=attempt.service_tier if completed else None,
        )

    async def _live(self, cell: tuple[Task, int]) -> None:
        """The live fallback: one cell through the normal policy; earlier batch rounds count as attempts."""
        task, sample = cell
        key = (task.task_id, self.name, sample)
        async with self.live_slots:
            rec = await run_cell(
                self.provider,
                self.setting,
                task,
                sample,
                secrets=self.secrets,
                rng=self.rng,
                on_retry=lambda: self.progress.note(self.name, "retry", advance=False),
            )
        rounds = self.state.rounds[key]
        if rounds:
            shifted = [_ATTEMPT.sub(lambda m: f"attempt {int(m.group(1)) + rounds}:", e, count=1) for e in rec.errors]
            rec = rec.model_copy(
                update={"attempts": rec.attempts + rounds, "errors": self.state.errors.get(key, []) + shifted}
            )
        self.recorder.record(self.setting, [(task, rec)], counted=self.pending)
        self.written.add(key)
        self.counts.live += 1


_ATTEMPT = re.compile(r"^attempt (\d+):")


def _first(group: BaseExceptionGroup[Any]) -> BaseException:
    first = group.exceptions[0]
    return _first(first) if isinstance(first, BaseExceptionGroup) else first


def _again(attempt: Attempt, setting: Setting) -> bool:
    return attempt.kind == "retry" or (attempt.kind == "timeout" and setting.retry_timeouts)


async def run_batched(
    setting: Setting,
    cells: Sequence[tuple[Task, int]],
    *,
    provider: AnyProvider,
    journal: BatchJournal,
    state: JournalState,
    store: ResponseStore,
    form: BatchApi | None = None,
    tasks: Mapping[str, Task] | None = None,
    skip: Container[CellKey] = (),
    secrets: tuple[str, ...] = (),
    cache: ResponseCache | None = None,
    lookup: bool = True,
    fallback: Fallback = "batch",
    submit: bool = True,
    progress: RunProgress | None = None,
    counts: BatchCounts | None = None,
    rng: random.Random | None = None,
    put: Callable[[Response], None] | None = None,
    sleep: Sleep = asyncio.sleep,
) -> BatchCounts:
    """Answer one setting's pending ``cells`` through its vendor's batch API; return what was done.

    ``cells`` are the setting's planned cells without a record. Those carried by a batch still open in
    ``state`` (the journal) are not submitted again: that batch is polled until it ends. With a ``cache``,
    cells it answers are recorded from it (when ``lookup``) and completed answers are stored in it. Every
    record, batched or live, goes through one ``CellRecorder`` (``run/_record.py``) over ``store``, ``cache``,
    ``put`` and ``progress``, the path the runner's live cells take.
    The rest go in batches of ``batch_max_requests``. ``fallback="live"`` sends cells that come back from
    a batch (and pending cells an earlier batch sent back) live through ``provider``; ``submit=False``
    only resumes open batches and sends every other cell live. Results of cells in ``skip`` (recorded
    some other way) are dropped. Records go to ``store`` synchronously (live ones through ``put`` when
    given). Raises ``SettingAborted`` on a refused key (401/403), an unknown batch or model (404), a
    refused batch (4xx) or a vendor that stays unreachable.
    """
    form = form or batch_form(setting.provider)
    if form is None:
        raise UsageError(f"setting {setting.name!r}: provider {setting.provider!r} has no batch API")
    if fallback not in FALLBACKS:
        raise UsageError(f"batch fallback must be one of {', '.join(FALLBACKS)}, got {fallback!r}")
    name = setting.name
    if progress is None:
        progress = RunProgress(False)
        progress.add(name, len(cells))
    recorder = CellRecorder(store, progress, cache=cache, put=put)
    counts = counts if counts is not None else BatchCounts()
    task_map = dict(tasks) if tasks is not None else {t.task_id: t for t, _ in cells}
    pending = {(t.task_id, name, k) for t, k in cells}
    in_open = {(t, name, k) for b in state.open.values() if b.setting == name for t, k in b.cells.values()}
    rest = [(t, k) for t, k in cells if (t.task_id, name, k) not in in_open]
    if cache is not None and lookup:
        hits: list[Response] = []
        missed: list[tuple[Task, int]] = []
        for task, sample in rest:
            hit = cache.lookup(setting, task, sample)
            if hit is None:
                missed.append((task, sample))
            else:
                hits.append(hit)
        recorder.record(setting, [(None, rec) for rec in hits], durable=True)
        counts.cached += len(hits)
        rest = missed
    if not submit:  # not a batch run now: only open batches are followed, everything else goes live
        fresh, live, fallback = [], rest, "live"
    elif fallback == "live":
        fresh = [c for c in rest if not state.rounds[(c[0].task_id, name, c[1])]]
        live = [c for c in rest if state.rounds[(c[0].task_id, name, c[1])]]
    else:
        fresh, live = rest, []
    driver = _Driver(
        setting,
        form,
        provider,
        journal,
        state,
        recorder,
        pending=pending,
        skip=skip,
        tasks=task_map,
        secrets=secrets,
        fallback=fallback,
        counts=counts,
        rng=rng or random.Random(),
        sleep=sleep,
    )
    await driver.run(fresh, live)
    return counts
