"""One registry type for every open vocabulary of execstate: providers, languages, studies, arms, analysis
sections and grading rules.

A ``Registry[T]`` maps a name to an entry of type ``T``. An entry is declared in one of three ways:

- built in, as ``"package.module:attr"`` (imported the first time the entry is asked for, so a command imports
  only what it uses) or as the object itself;
- at run time, with ``register`` (a test, a notebook);
- by another installed package, through the registry's entry-point group (``[project.entry-points."execstate.arms"]``
  in its ``pyproject.toml``: ``toy-arm = "toy_plugin.arms:TOY_ARM"``). Entry points are read once per process,
  the first time a name is not found among the others or the whole list is asked for.

A name that is nowhere gets a ``RegistryMiss`` (a ``UsageError``) naming the kind, the closest known names and
how to add one. This module imports nothing from execstate but ``errors``: every layer may read a registry.
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from execstate.errors import UsageError, load_attr

T = TypeVar("T")

ENTRY_POINT_PREFIX = "execstate."
"""Entry-point groups are ``execstate.<kind>s``: ``execstate.providers``, ``execstate.arms``, ..."""


class RegistryMiss(UsageError, KeyError):
    """A name no registry entry has: the message names the kind, close names and the fix."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class Registry(Generic[T]):
    """Named entries of one kind, built-in (lazily imported), registered at run time, or from entry points.

    ``check`` validates an entry when it is loaded (a wrong type or a name that disagrees); ``name_of`` reads an
    entry's own name, which must equal the name it is registered under when given. ``home`` (``"execstate."``)
    marks entry points whose target is execstate's own: they count as built-in (``home_names``).
    """

    def __init__(
        self,
        kind: str,
        *,
        group: str | None = None,
        builtin: Mapping[str, str | T] | None = None,
        check: Callable[[str, T], None] | None = None,
        name_of: Callable[[T], str] | None = None,
        fix: str = "",
        home: str | None = None,
    ) -> None:
        self.kind = kind
        """What an entry is, for messages: ``arm``, ``provider``."""
        self.group = group or f"{ENTRY_POINT_PREFIX}{kind.replace(' ', '_')}s"
        """The entry-point group other packages declare entries in."""
        self._builtin: dict[str, str | T] = dict(builtin or {})
        self._registered: dict[str, T] = {}
        self._loaded: dict[str, T] = {}
        self._entry_points: dict[str, str] | None = None
        self._check = check
        self._name_of = name_of
        self._fix = fix
        self._lock = threading.RLock()
        self._home = home

    # ------------------------------------------------------------------ declaring
    def register(self, name: str, entry: T, *, replace: bool = False) -> None:
        """Add ``entry`` under ``name`` for this process; ``UsageError`` if the name is taken and not ``replace``."""
        with self._lock:
            if not replace and name in self.declared():
                raise UsageError(f"{self.kind} {name!r} is already registered; pass replace=True to replace it")
            self._validate(name, entry)
            self._registered[name] = entry
            self._loaded.pop(name, None)

    def unregister(self, name: str) -> None:
        """Remove an entry added with ``register`` (built-in and entry-point entries stay)."""
        with self._lock:
            self._registered.pop(name, None)
            self._loaded.pop(name, None)

    # ------------------------------------------------------------------ reading
    def builtin_names(self) -> tuple[str, ...]:
        """The built-in names, in declaration order."""
        return tuple(self._builtin)

    def home_names(self) -> tuple[str, ...]:
        """execstate's own names: the built-in ones, then entry points whose target is under ``home`` (a registry
        whose built-in entries must not be named from below declares them as execstate's own entry points)."""
        own = [n for n, target in self._plugins().items() if self._home and target.startswith(self._home)]
        return (*self._builtin, *(n for n in own if n not in self._builtin))

    def declared(self) -> list[str]:
        """Every name, in order: built-in, registered at run time, then entry points (sorted). Loads no entry."""
        names = list(self.home_names())
        names += [n for n in self._registered if n not in names]
        names += sorted(n for n in self._plugins() if n not in names)
        return names

    def names(self) -> list[str]:
        """Alias of ``declared``: every name this registry answers."""
        return self.declared()

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._builtin or name in self._registered or name in self._plugins())

    def __iter__(self) -> Iterator[str]:
        return iter(self.declared())

    def __len__(self) -> int:
        return len(self.declared())

    def target(self, name: str) -> str | T:
        """How ``name`` is declared, without loading it: a ``"module:attr"`` string or the entry itself."""
        if name in self._registered:
            return self._registered[name]
        if name in self._builtin:
            return self._builtin[name]
        plugins = self._plugins()
        if name in plugins:
            return plugins[name]
        raise self.miss(name)

    def get(self, name: str) -> T:
        """The entry ``name``, imported on first use; ``RegistryMiss`` naming close names when there is none."""
        with self._lock:
            if name in self._registered:
                return self._registered[name]
            if name in self._loaded:
                return self._loaded[name]
            declared = self.target(name)
            entry: T = resolve(declared)
            self._validate(name, entry)
            self._loaded[name] = entry
            return entry

    def __getitem__(self, name: str) -> T:
        return self.get(name)

    def items(self) -> list[tuple[str, T]]:
        """Every entry, loaded, in ``declared`` order."""
        return [(name, self.get(name)) for name in self.declared()]

    def values(self) -> list[T]:
        return [entry for _, entry in self.items()]

    def miss(self, name: str) -> RegistryMiss:
        """The error for an unknown ``name``: close names, every known name, and how to add one."""
        known = self.declared()
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        listed = ", ".join(known) if known else "none"
        fix = self._fix or (
            f"register one (Registry.register) or declare it in another package's "
            f'[project.entry-points."{self.group}"]'
        )
        return RegistryMiss(
            f"unknown {self.kind} {name!r}{hint} (known: {listed}). Fix: name a known {self.kind}, or {fix}"
        )

    # ------------------------------------------------------------------ internals
    def _validate(self, name: str, entry: T) -> None:
        if self._name_of is not None:
            own = self._name_of(entry)
            if own != name:
                raise UsageError(f"{self.kind} entry registered as {name!r} calls itself {own!r}; the two must agree")
        if self._check is not None:
            self._check(name, entry)

    def _plugins(self) -> dict[str, str]:
        """Entry-point name -> ``"module:attr"``, read once per process."""
        if self._entry_points is None:
            with self._lock:
                if self._entry_points is None:
                    self._entry_points = {ep.name: ep.value for ep in entry_points(self.group)}
        return self._entry_points

    def refresh(self) -> None:
        """Forget what entry points said and what was loaded from them (a package was installed meanwhile)."""
        with self._lock:
            self._entry_points = None
            self._loaded.clear()


def resolve(target: Any) -> Any:
    """``target`` itself, or the object it names when it is a ``"module:attr"`` string (imported now): how a
    registry entry or a hook declared lazily becomes the object."""
    return load_attr(target) if isinstance(target, str) else target


def entry_points(group: str) -> list[Any]:
    """The installed entry points of ``group`` (``importlib.metadata``), the first distribution of a name winning.

    ``importlib.metadata`` is imported here, on first use: it costs several times a bare interpreter's start, and
    ``execstate --help`` reads no registry (``benchmarks/cli.py``)."""
    from importlib import metadata

    seen: dict[str, Any] = {}
    for ep in metadata.entry_points(group=group):
        seen.setdefault(ep.name, ep)
    return list(seen.values())


__all__ = ["ENTRY_POINT_PREFIX", "Registry", "RegistryMiss", "entry_points", "resolve"]
