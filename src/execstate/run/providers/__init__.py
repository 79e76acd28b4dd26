"""Providers: one module per way of answering a cell, behind a registry as open as the language registry.

A new provider is one module that defines a ``ProviderEntry`` (``run/_settings.py``) and one registry line:
``register_provider`` at run time, an entry point in the ``execstate.providers`` group of another package, or,
for a built-in, one line in ``BUILTIN`` of ``run/providers/_registry.py`` (which sits above the provider modules).
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
from execstate.run._settings import Opened, ProviderEntry
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
from execstate.run.providers._registry import (
    PROVIDERS,
    provider_entry,
    provider_names,
    register_provider,
    unregister_provider,
)
from execstate.run.providers._wire import (
    ACCOUNT_ERRORS,
    BatchApi,
    BatchFailed,
    BatchHttp,
    BatchStatus,
    ResultsGone,
    account_error,
    batch_delay_s,
)

__all__ = [
    "ABORT_STATUSES",
    "ACCOUNT_ERRORS",
    "PROVIDERS",
    "RETRY_STATUSES",
    "AnyProvider",
    "Attempt",
    "AttemptKind",
    "BatchApi",
    "BatchFailed",
    "BatchHttp",
    "BatchStatus",
    "CellRequest",
    "Deadline",
    "HttpProvider",
    "Messages",
    "Opened",
    "Provider",
    "ProviderEntry",
    "ResultsGone",
    "SseEvent",
    "TaskProvider",
    "WireRequest",
    "account_error",
    "batch_delay_s",
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
