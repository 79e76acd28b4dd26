"""The provider registry: every name a setting's ``provider`` may take, built in or from another package.

It sits above the provider modules it names (they import ``run/_settings.py`` and ``run/providers/_wire.py``, never this
module), so counting its ``"module:attr"`` strings as imports leaves no circle. A built-in provider is one line
in ``BUILTIN``, imported the first time a setting names it; another package declares one in its
``pyproject.toml``::

    [project.entry-points."execstate.providers"]
    toy = "toy_plugin.provider:ENTRY"

and any settings file given to ``execstate run`` may then say ``provider = "toy"``; a test or a notebook calls
``register_provider``. A name that is nowhere is a ``RegistryMiss`` naming the closest names and the fix.
"""

from __future__ import annotations

import re

from execstate.errors import SettingsError
from execstate.registry import Registry
from execstate.run._settings import ProviderEntry, use_provider_registry

BUILTIN: dict[str, str] = {
    "openai": "execstate.run.providers.openai_batch:OPENAI_ENTRY",
    "openai-responses": "execstate.run.providers.openai_batch:RESPONSES_ENTRY",
    "anthropic": "execstate.run.providers.anthropic_batch:ENTRY",
    "gemini": "execstate.run.providers.gemini_batch:ENTRY",
    "oracle": "execstate.run.providers.oracle:ENTRY",
    "replay": "execstate.run.providers.replay:ENTRY",
    "synthetic": "execstate.run.providers.synthetic:ENTRY",
}
"""execstate's own providers: name -> the module attribute holding its ``ProviderEntry``. A provider with a batch
form is registered from its batch module, which adds the form to the live entry (the batch module imports the
live one, never the reverse)."""

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


def _check_entry(name: str, entry: ProviderEntry) -> None:
    """Refuse a malformed name, path keys that are no option, and an entry that would show the task (its oracle)
    to a provider that sends requests."""
    if not isinstance(entry, ProviderEntry):
        raise SettingsError(f"provider {name!r} is a {type(entry).__name__}, not a ProviderEntry")
    if not _NAME.match(name):
        raise SettingsError(f"provider name {name!r} must be lower-case letters, digits, '-' or '_'")
    if entry.needs_task and (entry.request is not None or entry.batch is not None):
        raise SettingsError(
            f"provider {name!r} declares needs_task beside a request function or a batch form; a provider "
            "that sends requests gets the rendered messages only (CellRequest), never the task and its oracle"
        )
    own = set(entry.options.model_fields) if entry.options is not None else set()
    stray = [k for k in entry.path_keys if k not in own]
    if stray:
        raise SettingsError(f"provider {name!r} declares path_keys {stray} that are not keys of its options model")


PROVIDERS: Registry[ProviderEntry] = Registry(
    "provider",
    group="execstate.providers",
    builtin=BUILTIN,
    check=_check_entry,
    name_of=lambda entry: entry.name,
    fix=(
        "register one with execstate.run.register_provider, or declare it in another package's "
        '[project.entry-points."execstate.providers"] as name = "module:ENTRY"'
    ),
)
"""Every provider a setting can name."""

use_provider_registry(PROVIDERS)


def register_provider(entry: ProviderEntry, *, replace: bool = False) -> None:
    """Make ``provider = entry.name`` usable in settings (from any package: one entry per provider).

    Raises ``SettingsError`` when the name is malformed or the entry refused, ``UsageError`` when the name is
    taken (``replace=True`` replaces a registered one).
    """
    PROVIDERS.register(entry.name, entry, replace=replace)


def unregister_provider(name: str) -> None:
    """Forget a provider added by ``register_provider`` (built-in and entry-point ones stay)."""
    PROVIDERS.unregister(name)


def provider_names() -> list[str]:
    """Every provider a setting can name, built-in, registered and from entry points, sorted."""
    return sorted(PROVIDERS.names())


def provider_entry(name: str) -> ProviderEntry:
    """The entry of provider ``name``; ``RegistryMiss`` (a ``UsageError``) naming close names and the fix."""
    return PROVIDERS.get(name)


__all__ = ["BUILTIN", "PROVIDERS", "provider_entry", "provider_names", "register_provider", "unregister_provider"]
