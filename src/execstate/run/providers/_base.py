"""What every provider shares: the ``Attempt`` it returns, the ``Provider`` protocol and the registry.

A provider never retries and never raises for a failed request: it returns an
``Attempt`` whose ``kind`` tells the policy in ``run/_policy.py`` what to do.

    completed  an answer arrived (any finish reason)     -> recorded, never retried
    retry      429/408/409/425/5xx/529, connection error, -> retried with backoff
               unparseable body, no answer in the body
    timeout    the request hit ``timeout_s``              -> retried only if ``retry_timeouts``
    final      any other 4xx, replay entry missing        -> recorded as no-response now
    abort      401/403/404: key, model or URL is wrong    -> the setting stops, nothing recorded

The registry maps a setting's ``provider`` to a ``ProviderEntry``: how to open
the provider, which provider-only keys a setting may carry (validated by the
entry's ``options`` model, never by name elsewhere), which common keys it
needs, and, for providers that speak HTTP, the request a cell makes (for the
response cache and ``run --plan``) and the batch form, if the vendor has one.
Built-in providers are named by ``"module:attr"`` and imported on first use;
``register_provider`` adds one from any package.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel

from execstate.errors import SettingsError
from execstate.records import Task, Usage

if TYPE_CHECKING:
    from execstate.run._settings import Setting

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


class Provider(Protocol):
    """Sends one attempt for a cell; never retries, never raises for request failures."""

    name: str
    model: str | None
    pipeline_check: bool

    async def attempt(self, task: Task, sample: int) -> Attempt: ...

    async def aclose(self) -> None: ...


Opened = tuple[Provider, list[str]]
"""A provider and the secrets (API keys) that must never be written to any record."""


@dataclass(frozen=True)
class WireRequest:
    """The HTTP request one cell makes, known without sending it: the cache's key and the plan's size."""

    url: str
    body: dict[str, Any]


@dataclass(frozen=True)
class ProviderEntry:
    """One provider kind a setting can name (``provider = "<name>"``)."""

    name: str
    open: Callable[[Setting], Awaitable[Opened]]
    """Make the provider for a setting (check its key variable, reach its endpoint if it has one)."""
    options: type[BaseModel] | None = None
    """The provider-only keys of a setting table, as a pydantic model (``extra="forbid"``); ``None``: none."""
    needs: tuple[str, ...] = ()
    """Common setting keys that must be set for this provider (``model``, ``base_url``)."""
    default_base_url: str | None = None
    """The vendor's API root, used when a setting gives no ``base_url``."""
    request: Callable[[Setting, Task, int], WireRequest] | None = None
    """The request a cell sends; ``None`` for providers that send none (no cache, nothing to plan)."""
    batch: Any = None
    """The vendor's batch form (``run._batch.BatchApi``), or ``None`` when the provider has none."""
    check: Callable[[Setting], None] | None = None
    """Extra validation of a setting (raise ``ValueError`` with the fix); run after ``options``."""
    description: str = ""


_BUILTIN: dict[str, str] = {
    "openai": "execstate.run.providers.openai:ENTRY",
    "openai-responses": "execstate.run.providers.openai_responses:ENTRY",
    "anthropic": "execstate.run.providers.anthropic:ENTRY",
    "gemini": "execstate.run.providers.gemini:ENTRY",
    "oracle": "execstate.run.providers.oracle:ENTRY",
    "replay": "execstate.run.providers.replay:ENTRY",
    "synthetic": "execstate.run.providers.synthetic:ENTRY",
}
_REGISTERED: dict[str, ProviderEntry] = {}
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


def register_provider(entry: ProviderEntry, *, replace: bool = False) -> None:
    """Make ``provider = entry.name`` usable in settings (from any package: one entry per provider).

    Raises ``SettingsError`` when the name is malformed or taken (``replace=True`` replaces a registered one).
    """
    if not _NAME.match(entry.name):
        raise SettingsError(f"provider name {entry.name!r} must be lower-case letters, digits, '-' or '_'")
    if not replace and (entry.name in _REGISTERED or entry.name in _BUILTIN):
        raise SettingsError(f"provider {entry.name!r} is already registered; pass replace=True to replace it")
    _REGISTERED[entry.name] = entry


def unregister_provider(name: str) -> None:
    """Forget a provider added by ``register_provider`` (built-in ones stay)."""
    _REGISTERED.pop(name, None)


def provider_names() -> list[str]:
    """Every provider a setting can name, built-in and registered, sorted."""
    return sorted(set(_BUILTIN) | set(_REGISTERED))


def provider_entry(name: str) -> ProviderEntry:
    """The entry of provider ``name``; ``SettingsError`` naming the known ones when there is none."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    target = _BUILTIN.get(name)
    if target is None:
        raise SettingsError(
            f"unknown provider {name!r}; known: {', '.join(provider_names())} "
            "(a package adds one with execstate.run.register_provider)"
        )
    module, _, attr = target.partition(":")
    entry = getattr(importlib.import_module(module), attr)
    _REGISTERED[name] = entry
    return entry


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
