"""Providers: one module per way of answering a cell, behind a registry as open as the language registry.

A new provider is one module that defines a ``ProviderEntry`` and one call to
``register_provider`` (or, for a built-in, one line in ``_BUILTIN`` of ``run/_settings.py``, where the registry
lives beside the settings it validates).
"""

from execstate.run._attempt import (
    AnyProvider,
    Attempt,
    AttemptKind,
    CellRequest,
    Messages,
    Provider,
    TaskProvider,
    WireRequest,
    int_or_none,
    unicode_text,
)
from execstate.run._settings import (
    Opened,
    ProviderEntry,
    provider_entry,
    provider_names,
    register_provider,
    unregister_provider,
)
from execstate.run.providers._http import (
    ABORT_STATUSES,
    RETRY_STATUSES,
    Deadline,
    HttpProvider,
    SseEvent,
    env_proxy,
    json_object,
    keepalive_socket,
    reachable,
    retry_after_s,
    sse_events,
    status_attempt,
)

__all__ = [
    "ABORT_STATUSES",
    "RETRY_STATUSES",
    "AnyProvider",
    "Attempt",
    "AttemptKind",
    "CellRequest",
    "Deadline",
    "HttpProvider",
    "Messages",
    "Opened",
    "Provider",
    "ProviderEntry",
    "SseEvent",
    "TaskProvider",
    "WireRequest",
    "env_proxy",
    "int_or_none",
    "json_object",
    "keepalive_socket",
    "provider_entry",
    "provider_names",
    "reachable",
    "register_provider",
    "retry_after_s",
    "sse_events",
    "status_attempt",
    "unicode_text",
    "unregister_provider",
]
