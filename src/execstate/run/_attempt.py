"""What one request attempt comes to: the ``Attempt`` a provider returns, the ``Provider`` protocol, and the
request a cell makes.

A provider sees what a cell asks, never the task: ``Provider.attempt`` gets a ``CellRequest`` (the rendered
messages, the task id and the sample index), rendered once above the providers (``run/_prompt.py``
``cell_request``). Only a provider whose registry entry declares ``needs_task`` (``oracle``, ``synthetic``: they
send no request) is a ``TaskProvider`` and gets the task, oracle included, through ``attempt_task``; the registry
refuses that declaration beside a ``request`` function or a batch form, so a provider that sends requests never
sees the oracle.

A provider never retries and never raises for a failed request: it returns an
``Attempt`` whose ``kind`` tells the policy in ``run/_policy.py`` what to do.

    completed  an answer arrived (any finish reason)     -> recorded, never retried
    retry      429/408/409/425/5xx/529, connection error, -> retried with backoff
               unparseable body, no answer in the body
    timeout    the request hit ``timeout_s``              -> retried only if ``retry_timeouts``
    final      any other 4xx, replay entry missing        -> recorded as no-response now
    abort      401/403/404: key, model or URL is wrong,   -> the setting stops, nothing recorded; the same
               or an account error (billing, quota,          command resumes once the account is fixed
               region: each provider's documented list)

A completed attempt also carries what the vendor says about who answered:
``served_model`` (the snapshot the vendor names in its answer), ``request_id``
and ``service_tier``; each is ``None`` when the vendor does not send it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from execstate.records import Task, Usage

AttemptKind = Literal["completed", "retry", "timeout", "final", "abort"]


@dataclass(frozen=True)
class Attempt:
    """The outcome of one request attempt."""

    kind: AttemptKind
    text: str | None = None
    reasoning: str | None = None
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    error: str | None = None
    retry_after_s: float | None = None
    """Server-requested wait (``Retry-After`` / ``retry-after-ms``), seconds."""
    served_model: str | None = None
    """The model the vendor says answered (Anthropic/OpenAI ``model``, Gemini ``modelVersion``)."""
    request_id: str | None = None
    """The vendor's id of the request (a header such as ``request-id``/``x-request-id``, or the answer's id)."""
    service_tier: str | None = None
    """The service tier the vendor says served the request (``default``, ``flex``, ``priority``, ...)."""


Messages = Sequence[Mapping[str, str]]
"""Chat messages (``role``, ``content``): the SPEC system message, then the user message (``render_messages``)."""


@dataclass(frozen=True)
class CellRequest:
    """What one cell asks a provider: the rendered messages and the ids of the cell, never the task itself."""

    task_id: str
    sample: int
    messages: tuple[Mapping[str, str], ...]


class Provider(Protocol):
    """Sends one attempt for a cell; never retries, never raises for request failures."""

    name: str
    model: str | None
    pipeline_check: bool

    async def attempt(self, request: CellRequest) -> Attempt: ...

    async def aclose(self) -> None: ...


class TaskProvider(Protocol):
    """A provider that answers from the task itself (``ProviderEntry.needs_task``): it sends no request."""

    name: str
    model: str | None
    pipeline_check: bool

    async def attempt_task(self, task: Task, sample: int) -> Attempt: ...

    async def aclose(self) -> None: ...


AnyProvider = Provider | TaskProvider
"""What a ``ProviderEntry`` opens: a provider of messages, or (``needs_task``) one of tasks."""

Opened = tuple[AnyProvider, list[str]]
"""A provider and the secrets (API keys) that must never be written to any record."""


@dataclass(frozen=True)
class WireRequest:
    """The HTTP request one cell makes, known without sending it: the cache's key and the plan's size."""

    url: str
    body: dict[str, Any]


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def unicode_text(text: str) -> str:
    """``text`` with each lone surrogate (a JSON ``\\ud83d`` escape without its pair) replaced by U+FFFD.

    JSON allows such escapes but UTF-8 cannot encode them, so a reply carrying
    one could not be written to ``responses.jsonl``; the replacement is the
    one a UTF-8 decoder makes for a broken sequence.
    """
    return text if text.isascii() else _LONE_SURROGATE.sub("\ufffd", text)


def int_or_none(value: Any) -> int | None:
    """``value`` when it is an int (not a bool), else ``None``: a count the server did not send stays unknown."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None
