"""Parse an ``environment`` declaration (a case spec's, a problem's, a pool's) into a typed, checked record.

Two forms, both in TOML::

    environment = "atcoder"                        # a shipped preset (``PRESETS``)

    [environment]
    preset = "atcoder"                             # optional
    packages = ["sortedcontainers==2.4.0"]         # third-party Python packages, each pinned exactly
    include = ["ac-library"]                       # C++ include directories (``g++ -I``), inside ``base``

A preset's packages and the listed ones are one requirement set; naming a
package twice with two versions is an error. Only exact pins (``name==version``)
are accepted: the set is a cache key and a record, so it must say what runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate.environments._presets import PRESETS
from execstate.errors import SpecProblem

_KEYS = ("preset", "packages", "include")
_PIN = re.compile(r"([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)==([A-Za-z0-9][A-Za-z0-9.+!_-]*)")
_EXAMPLE = 'environment = "atcoder" or [environment] packages = ["sortedcontainers==2.4.0"]'


class EnvironmentProblem(SpecProblem):
    """A declaration that cannot be used; ``key`` names the key to fix (``environment.packages``).

    A ``SpecProblem``: the reader of the declaring file attaches it (``at``).
    """


@dataclass(frozen=True)
class EnvironmentSpec:
    """What a declaration asks for; empty fields ask for nothing."""

    preset: str | None = None
    """The preset named (``PRESETS``), whose packages ``requirements`` includes."""
    packages: tuple[str, ...] = ()
    """The packages listed beside the preset, as ``name==version`` with the name canonical (PEP 503)."""
    include: tuple[str, ...] = ()
    """The include directories as declared (relative to the declaring file's folder)."""
    include_dirs: tuple[Path, ...] = ()
    """The same directories, resolved (absolute)."""

    @property
    def requirements(self) -> tuple[str, ...]:
        """Every package to install, sorted: the preset's and the listed ones."""
        return tuple(sorted({*PRESETS.get(self.preset or "", ()), *self.packages}))

    def is_empty(self) -> bool:
        return not (self.requirements or self.include)

    def declaration(self) -> str | dict[str, Any]:
        """The declaration as a TOML value: the preset's name when that is all it says, else the table."""
        if self.preset is not None and not self.packages and not self.include:
            return self.preset
        table: dict[str, Any] = {} if self.preset is None else {"preset": self.preset}
        table.update({key: list(v) for key, v in (("packages", self.packages), ("include", self.include)) if v})
        return table


def canonical_name(name: str) -> str:
    """A distribution name as PEP 503 compares it: lower case, runs of ``-``, ``_``, ``.`` as one ``-``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_environment(value: Any, base: Path | None = None) -> EnvironmentSpec:
    """The declaration ``value`` (a TOML string or table), include directories resolved against ``base``.

    ``EnvironmentProblem`` (key, problem, fix) for an unknown preset or key, a
    package that is not an exact pin, a package named twice with two versions,
    and an include directory that is missing, absolute, or outside ``base``
    (``base`` None: include directories are refused).
    """
    if isinstance(value, str):
        value = {"preset": value}
    if not isinstance(value, dict):
        raise EnvironmentProblem(
            "environment", f"expected a preset name or a table, got {value!r}", f"write {_EXAMPLE}"
        )
    unknown = sorted(set(value) - set(_KEYS))
    if unknown:
        raise EnvironmentProblem(f"environment.{unknown[0]}", "unknown key", f"use one of: {', '.join(_KEYS)}")
    preset = _preset(value.get("preset"))
    packages = _packages(value.get("packages", []), PRESETS.get(preset or "", ()))
    include, dirs = _include(value.get("include", []), base)
    return EnvironmentSpec(preset, packages, include, dirs)


def _preset(name: Any) -> str | None:
    if name is None:
        return None
    if name not in PRESETS:
        known = ", ".join(f'"{p}"' for p in sorted(PRESETS))
        problem = f"unknown preset {name!r}"
        raise EnvironmentProblem("environment", problem, f"use one of {known}, or list packages = [...]")
    return str(name)


def _packages(value: Any, preset: tuple[str, ...]) -> tuple[str, ...]:
    fix = 'list exact pins, e.g. packages = ["sortedcontainers==2.4.0", "numpy==2.2.6"]'
    if not isinstance(value, list):
        raise EnvironmentProblem("environment.packages", f"expected a list of pins, got {value!r}", fix)
    versions = {pin.partition("==")[0]: pin for pin in preset}
    found: list[str] = []
    for item in value:
        match = _PIN.fullmatch(item.strip()) if isinstance(item, str) else None
        if match is None:
            raise EnvironmentProblem("environment.packages", f"{item!r} is not of the form name==version", fix)
        pin = f"{canonical_name(match.group(1))}=={match.group(2)}"
        name = pin.partition("==")[0]
        if name in versions and versions[name] != pin:
            problem = f"{name} is asked for twice: {versions[name]} and {pin}"
            raise EnvironmentProblem("environment.packages", problem, f"keep one version of {name}")
        versions[name] = pin
        if pin not in preset and pin not in found:
            found.append(pin)
    return tuple(found)


def _include(value: Any, base: Path | None) -> tuple[tuple[str, ...], tuple[Path, ...]]:
    fix = 'name folders beside the declaring file, e.g. include = ["ac-library"]'
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise EnvironmentProblem("environment.include", f"expected a list of folder names, got {value!r}", fix)
    if value and base is None:
        raise EnvironmentProblem("environment.include", "include directories cannot be declared here", fix)
    dirs: list[Path] = []
    for name in value:
        assert base is not None
        root = base.resolve()
        target = (root / name).resolve()
        if Path(name).is_absolute() or not target.is_relative_to(root):
            raise EnvironmentProblem("environment.include", f"{name!r} leads outside {root}", fix)
        if not target.is_dir():
            raise EnvironmentProblem("environment.include", f"{root / name} is not a directory", fix)
        dirs.append(target)
    return tuple(value), tuple(dirs)
