"""Providers: one module per way of answering a cell, behind a registry as open as the language registry.

A new provider is one module that defines a ``ProviderEntry`` and one call to
``register_provider`` (or, for a built-in, one line in ``_base._BUILTIN``).
"""

from execstate.run.providers._base import (
    Attempt,
    AttemptKind,
    Opened,
    Provider,
    ProviderEntry,
    WireRequest,
    int_or_none,
    provider_entry,
    provider_names,
    register_provider,
    unicode_text,
    unregister_provider,
)
from execstate.run.providers._http import (
    ABORT_STATUSES,
    RETRY_STATUSES,
    Deadline,
    HttpProvider,
    env_proxy,
    json_object,
    keepalive_socket,
    reachable,
    retry_after_s,
    status_attempt,
)

__all__ = [
    "ABORT_STATUSES",
    "RETRY_STATUSES",
    "Attempt",
    "AttemptKind",
    "Deadline",
    "HttpProvider",
    "Opened",
    "Provider",
    "ProviderEntry",
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
    "status_attempt",
    "unicode_text",
    "unregister_provider",
]
