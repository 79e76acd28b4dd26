"""The languages as data: each language's name, files, command-line options and adapter, read without an adapter.

``LANGUAGES`` is the one ``Registry[LanguageEntry]`` of the builder's languages: the built-in ones declared
here, those registered at run time (``execstate.languages.register_language``) and those another installed
package declares in the entry-point group ``execstate.languages`` (``lua = "lua_plugin:ENTRY"``). An entry
names its adapter as ``"module:factory"``, imported when a build first needs the language, and declares the
adapter's command-line options (``CliOption``) as data, so ``execstate build --help`` lists every language's
options having imported this module and the registry only (``tests/test_cli_help.py``). The source
variants' names (``VARIANTS``) are data here for the same reason.

``execstate.languages`` re-exports all of it and adds what needs an adapter (``make_language``). This module
sits beneath the stages, but its built-in entries name the adapter modules (the import graph counts those
strings): no module an adapter imports may import it. An adapter, or another package's language, takes these
types from ``execstate.languages``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate.errors import UsageError
from execstate.registry import Registry


@dataclass(frozen=True)
class CliOption:
    """One command-line option a language's adapter takes (``--cxx``), declared as data so the command line
    offers it without importing the adapter."""

    flag: str
    """The option as typed, ``--cxx``; its value reaches the entry's ``options_from_cli`` under ``dest``."""
    default: str
    """The value when the option is not given (shown in ``--help``)."""
    help: str
    """The option's line in ``execstate build --help``."""

    @property
    def dest(self) -> str:
        """The argparse destination: the flag without dashes, ``-`` as ``_`` (``--cxx-flags`` -> ``cxx_flags``)."""
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class LanguageEntry:
    """One language of the builder, declared once."""

    name: str
    """The ``language`` value of case specs, problem pools and tasks: a short lower-case identifier."""
    adapter: str | Callable[[Any], Any]
    """``"module:factory"`` (imported on first use) or the factory: ``execstate.languages.BuildOptions`` -> the
    ``execstate.languages.Language``. The adapter reads its own options from ``BuildOptions.language_options``
    (``cpp.options.CppOptions``)."""
    program: str
    """The program's file name in a problem pool and a constructed case (``main.py``); its suffix marks
    the language's files (a pool's declared generator, Library Checker's ``gen/*.cpp``)."""
    trace_unit: str
    """What ``Metrics.trace_length`` counts for this language (``docs/metrics.md``)."""
    generator: str | None = None
    """The file name of a pool's seeded input generator in this language (``gen SEED SIZE``), if it has one."""
    line_comment: str = "#"
    """What starts a comment running to the end of the line (the input arm states its question in comments)."""
    cli_options: tuple[CliOption, ...] = ()
    """The adapter's own command-line options (``execstate build --cxx``)."""
    options_from_cli: str | Callable[[dict[str, str]], object] | None = None
    """``"module:attr"`` or the function that turns the values of ``cli_options`` (by ``dest``) into the
    adapter's options object, which goes into ``BuildOptions.language_options``."""

    @property
    def suffix(self) -> str:
        """The suffix of the language's program files (``.py``)."""
        return Path(self.program).suffix

    @property
    def files(self) -> frozenset[str]:
        """The file names a problem pool gives this language's programs: the program, the generator."""
        return frozenset(name for name in (self.program, self.generator) if name)


_NAME = re.compile(r"[a-z][a-z0-9_]{0,30}\Z")


def check_entry(name: str, entry: object) -> None:
    """``UsageError`` unless ``entry`` is a ``LanguageEntry`` whose name is a short lower-case identifier (the
    registry checks every entry so, an entry point's included, when it is loaded)."""
    if not isinstance(entry, LanguageEntry):
        raise UsageError(
            f"language {name!r} is declared as {type(entry).__name__}, not a LanguageEntry. "
            "Fix: declare an execstate.languages.LanguageEntry"
        )
    if not _NAME.match(entry.name):
        raise UsageError(f"language name {entry.name!r} is not a short lower-case identifier. Fix: name it like 'lua'")


_BUILTIN = (
    LanguageEntry(
        "python",
        "execstate.languages.python.language:PythonLanguage.from_options",
        program="main.py",
        trace_unit="instruction events in the program's own code (sys.monitoring or a trace function)",
        generator="gen.py",
    ),
    LanguageEntry(
        "cpp",
        "execstate.languages.cpp.language:CppLanguage.from_options",
        program="main.cpp",
        trace_unit="gcov line-execution counts of the program's own lines (a -O0 --coverage build)",
        generator="gen.cpp",
        line_comment="//",
        cli_options=(
            CliOption("--cxx", "g++", "C++ compiler of C++ cases (default g++; its gcov is used beside it)"),
            CliOption(
                "--cxxflags",
                "-std=c++20 -O2",
                "flags of the C++ binaries that run, one shell-quoted string (default '-std=c++20 -O2'); "
                "measured binaries swap -O* for -O0 --coverage",
            ),
        ),
        options_from_cli="execstate.languages.cpp.options:CppOptions.from_cli",
    ),
)

LANGUAGES: Registry[LanguageEntry] = Registry(
    "language",
    group="execstate.languages",
    builtin={entry.name: entry for entry in _BUILTIN},
    check=check_entry,
    name_of=lambda entry: entry.name,
    fix="register yours first (execstate.languages.register_language) or declare it in your package's "
    '[project.entry-points."execstate.languages"]',
)
"""Every language by the name case specs use: one entry per implementation of ``Language``, in order: the
built-in ones, those registered at run time, then other packages' entry points (sorted)."""
BUILTIN_LANGUAGES: tuple[str, ...] = LANGUAGES.builtin_names()
"""The built-in languages, in registry order (``records.LANGUAGE_NAMES`` must name the same; a test checks)."""

DEFAULT_LANGUAGE = _BUILTIN[0].name
"""The language a command assumes when none is given (``execstate import ... --language``)."""
HELPER_LANGUAGE = _BUILTIN[0].name
"""The language of the builder's own helper programs (input generators, invariant audits) whatever the
case's language, and of the interpreter ``BuildOptions.python`` that the build manifest records."""

VARIANTS: tuple[str, ...] = ("rename", "mislead", "deadcode")
"""Every source variant name a language may offer (``execstate build --variants``; ``docs/variants.md``). The
adapters' variant makers read the same names from ``execstate.languages`` (a test checks they agree)."""


def cli_options() -> list[CliOption]:
    """Every language's command-line options, in registry order (``execstate build`` adds them). Loads each
    language's entry, an entry point's module included, and no adapter."""
    return [option for entry in LANGUAGES.values() for option in entry.cli_options]


__all__ = [
    "BUILTIN_LANGUAGES",
    "DEFAULT_LANGUAGE",
    "HELPER_LANGUAGE",
    "LANGUAGES",
    "VARIANTS",
    "CliOption",
    "LanguageEntry",
    "check_entry",
    "cli_options",
]
