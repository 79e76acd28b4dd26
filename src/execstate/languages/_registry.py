"""The language registry: every language a case spec may name, declared once; adapters made on first use.

Whatever the rest of execstate needs to know about a language it asks here: spec validation
(``language_entry``), construct's pool reading (``program_languages``, ``generator_languages``),
the importers and the command line (``language_entry(name, option=...)``), the builder
(``make_language``). An entry names its adapter as ``"module:factory"``, imported when a build
first needs the language (a build without C++ cases never loads the C++ parser), or gives the
factory itself, and declares the command-line options of its adapter (``cli_options``), which
``execstate build`` and ``construct`` offer without naming any language. ``register_language``
adds a language at run time (see ``tests/builder/toy_lines_language.py``);
``records.LANGUAGE_NAMES`` lists the built-in ones. This module imports nothing heavy: the command
line reads it to build its parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from execstate.errors import SpecProblem, UsageError, load_attr

if TYPE_CHECKING:
    from execstate.languages._options import BuildOptions
    from execstate.languages._protocol import ConstructLanguage, Language


@dataclass(frozen=True)
class CliOption:
    """One command-line option a language's adapter takes (``--cxx``), declared as data so the command line
    offers it without importing the adapter."""

    flag: str
    """The option as typed, ``--cxx``; its value reaches ``options_from_cli`` under ``dest``."""
    default: str
    help: str

    @property
    def dest(self) -> str:
        """The argparse destination: the flag without dashes, ``-`` as ``_`` (``--cxx-flags`` -> ``cxx_flags``)."""
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True)
class LanguageEntry:
    """One language of the builder, declared once."""

    name: str
    """The ``language`` value of case specs, problem pools and tasks."""
    adapter: str | Callable[[BuildOptions], Language]
    """``"module:factory"`` (imported on first use) or the factory: ``BuildOptions`` -> the ``Language``.
    The adapter reads its own options from ``BuildOptions.language_options`` (``cpp.options.CppOptions``)."""
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


LANGUAGES: dict[str, LanguageEntry] = {
    "python": LanguageEntry(
        "python",
        "execstate.languages.python.language:PythonLanguage.from_options",
        program="main.py",
        trace_unit="instruction events in the program's own code (sys.monitoring or a trace function)",
        generator="gen.py",
    ),
    "cpp": LanguageEntry(
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
}
"""The languages by the name case specs use: one entry per implementation of ``Language``."""
BUILTIN_LANGUAGES = tuple(LANGUAGES)
"""The built-in languages, in registry order (``records.LANGUAGE_NAMES`` must name the same; a test checks)."""

DEFAULT_LANGUAGE = "python"
"""The language a command assumes when none is given (``execstate import ... --language``)."""
HELPER_LANGUAGE = "python"
"""The language of the builder's own helper programs (input generators, invariant audits) whatever the
case's language, and of the interpreter ``BuildOptions.python`` that the build manifest records."""


def language_entry(name: str, *, option: str | None = None) -> LanguageEntry:
    """The entry of ``name``; ``SpecProblem`` (key ``language``) naming the available ones when there is none,
    or ``UsageError`` naming the command-line ``option`` that gave it."""
    entry = LANGUAGES.get(name)
    if entry is not None:
        return entry
    available = ", ".join(LANGUAGES)
    if option is not None:
        raise UsageError(f"{option} {name!r} is not a language of the builder (available: {available}). Fix: pass one")
    raise SpecProblem(
        "language",
        f"unknown language {name!r} (available: {available})",
        f'write language = "{next(iter(LANGUAGES))}" or another available one, or register yours first '
        "(execstate.languages.register_language)",
    )


def make_language(name: str, opts: BuildOptions) -> Language:
    """The adapter of language ``name`` under ``opts`` (``SpecProblem`` for an unknown name)."""
    adapter = language_entry(name).adapter
    factory: Callable[[BuildOptions], Language] = load_attr(adapter) if isinstance(adapter, str) else adapter
    return factory(opts)


def cli_options() -> list[CliOption]:
    """Every registered language's command-line options, in registry order (the command line adds them)."""
    return [option for entry in LANGUAGES.values() for option in entry.cli_options]


def options_from_cli(values: dict[str, str]) -> tuple[object, ...]:
    """The languages' options objects from the parsed values of ``cli_options`` (by ``dest``; a missing value
    is the option's default), for ``BuildOptions.language_options``."""
    made: list[object] = []
    for entry in LANGUAGES.values():
        if entry.options_from_cli is None:
            continue
        given = {o.dest: values.get(o.dest, o.default) for o in entry.cli_options}
        make = entry.options_from_cli
        made.append((load_attr(make) if isinstance(make, str) else make)(given))
    return tuple(made)


def construct_language(name: str, opts: BuildOptions) -> ConstructLanguage | None:
    """The adapter of ``name`` if it can also propose checkpoints (``ConstructLanguage``), else None."""
    from execstate.languages._protocol import ConstructLanguage

    lang = make_language(name, opts)
    return lang if isinstance(lang, ConstructLanguage) else None


def helper_language(opts: BuildOptions, filename: str) -> Language:
    """The adapter that runs one of the builder's helper programs (``HELPER_LANGUAGE``) named ``filename``
    (``gen.py``, ``check.py``), under the build's limits."""
    from execstate.languages.python.language import PythonLanguage

    return PythonLanguage(opts.limits, opts.python, filename=filename)


def program_languages() -> dict[str, str]:
    """A problem's program file name -> its language (``main.py`` -> ``python``), in registry order."""
    return {entry.program: entry.name for entry in LANGUAGES.values()}


def generator_languages() -> dict[str, str]:
    """The file names of a pool's seeded generators (called ``gen SEED SIZE``) -> their language."""
    return {entry.generator: entry.name for entry in LANGUAGES.values() if entry.generator}


def language_of_file(name: str | Path) -> str | None:
    """The language whose programs end like ``name`` (``gen/random.cpp`` -> ``cpp``); None if none does."""
    suffix = Path(name).suffix
    return next((entry.name for entry in LANGUAGES.values() if suffix and entry.suffix == suffix), None)


_NAME = re.compile(r"[a-z][a-z0-9_]{0,30}\Z")


def register_language(entry: LanguageEntry) -> None:
    """Add a language to the registry of this process, so case specs, pools and tasks may name it.

    ``UsageError`` for a name that is not a short lower-case identifier, or a name, program or
    generator file name another language already has. Tasks naming it are valid records in this
    process only (``records.LANGUAGE_NAMES`` is the public format's set; see docs/extending.md).
    """
    if not _NAME.match(entry.name):
        raise UsageError(f"language name {entry.name!r} is not a short lower-case identifier. Fix: name it like 'lua'")
    for other in LANGUAGES.values():
        if other.name == entry.name:
            clash = "the name"
        elif other.suffix == entry.suffix:
            clash = f"the file suffix {entry.suffix!r}"
        elif entry.files & other.files:
            clash = f"the file name {sorted(entry.files & other.files)[0]!r}"
        else:
            continue
        raise UsageError(f"language {other.name!r} already has {clash}. Fix: choose another for {entry.name!r}")
    from execstate.records import accept_language  # records is pydantic: not needed to read the registry

    LANGUAGES[entry.name] = entry
    accept_language(entry.name)


def unregister_language(name: str) -> None:
    """Remove a language ``register_language`` added; ``UsageError`` for a built-in or unknown one."""
    from execstate.records import LANGUAGE_NAMES, accept_language

    if name in LANGUAGE_NAMES or name not in LANGUAGES:
        raise UsageError(f"{name!r} is not a language registered at run time. Fix: unregister only what you registered")
    del LANGUAGES[name]
    accept_language(name, accept=False)


__all__ = [
    "BUILTIN_LANGUAGES",
    "DEFAULT_LANGUAGE",
    "HELPER_LANGUAGE",
    "LANGUAGES",
    "CliOption",
    "LanguageEntry",
    "cli_options",
    "construct_language",
    "generator_languages",
    "helper_language",
    "language_entry",
    "language_of_file",
    "make_language",
    "options_from_cli",
    "program_languages",
    "register_language",
    "unregister_language",
]
