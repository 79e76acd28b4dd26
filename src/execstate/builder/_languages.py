"""The builder's language registry: every language a case spec may name, declared once; adapters made on first use.

Whatever the rest of execstate needs to know about a language it asks here: spec validation
(``language_entry``), construct's pool reading (``program_languages``, ``generator_languages``),
the importers and the command line (``language_entry(name, option=...)``), the builder
(``make_language``). An entry names its adapter as ``"module:factory"``, imported when a build
first needs the language (a build without C++ cases never loads the C++ parser), or gives the
factory itself. ``register_language`` adds a language at run time (see
``tests/builder/toy_lines_language.py``); ``records.LANGUAGE_NAMES`` lists the built-in ones.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from execstate.errors import SpecProblem, UsageError
from execstate.records import LANGUAGE_NAMES, accept_language

if TYPE_CHECKING:
    from execstate.builder._language import ConstructLanguage, Language
    from execstate.builder._options import BuildOptions


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
    toolchain_key: str
    """The ``Task.meta`` key holding the version of the interpreter or compiler that ran and measured the task."""
    trace_unit: str
    """What ``Metrics.trace_length`` counts for this language (``docs/metrics.md``)."""
    generator: str | None = None
    """The file name of a pool's seeded input generator in this language (``gen SEED SIZE``), if it has one."""
    line_comment: str = "#"
    """What starts a comment running to the end of the line (the input arm states its question in comments)."""

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
        "execstate.builder._python_language:PythonLanguage.from_options",
        program="main.py",
        toolchain_key="python",
        trace_unit="instruction events in the program's own code (sys.monitoring or a trace function)",
        generator="gen.py",
    ),
    "cpp": LanguageEntry(
        "cpp",
        "execstate.builder.cpp.language:CppLanguage.from_options",
        program="main.cpp",
        toolchain_key="compiler",
        trace_unit="gcov line-execution counts of the program's own lines (a -O0 --coverage build)",
        generator="gen.cpp",
        line_comment="//",
    ),
}
"""The builder's languages by the name case specs use: one entry per implementation of ``Language``."""
assert tuple(LANGUAGES) == LANGUAGE_NAMES, "records.LANGUAGE_NAMES must name the registry's languages, in its order"

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
        "(execstate.builder.register_language)",
    )


def make_language(name: str, opts: BuildOptions) -> Language:
    """The adapter of language ``name`` under ``opts`` (``SpecProblem`` for an unknown name)."""
    adapter = language_entry(name).adapter
    factory = _imported(adapter) if isinstance(adapter, str) else adapter
    return factory(opts)


def _imported(path: str) -> Callable[[BuildOptions], Language]:
    """The object ``"module:attr.attr"`` names, importing the module (the first use of a language)."""
    module, _, attrs = path.partition(":")
    found: Any = importlib.import_module(module)
    for attr in attrs.split("."):
        found = getattr(found, attr)
    return found


def construct_language(name: str, opts: BuildOptions) -> ConstructLanguage | None:
    """The adapter of ``name`` if it can also propose checkpoints (``ConstructLanguage``), else None."""
    from execstate.builder._language import ConstructLanguage

    lang = make_language(name, opts)
    return lang if isinstance(lang, ConstructLanguage) else None


def helper_language(opts: BuildOptions, filename: str) -> Language:
    """The adapter that runs one of the builder's helper programs (``HELPER_LANGUAGE``) named ``filename``
    (``gen.py``, ``check.py``), under the build's limits."""
    from execstate.builder._python_language import PythonLanguage

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
    LANGUAGES[entry.name] = entry
    accept_language(entry.name)


def unregister_language(name: str) -> None:
    """Remove a language ``register_language`` added; ``UsageError`` for a built-in or unknown one."""
    if name in LANGUAGE_NAMES or name not in LANGUAGES:
        raise UsageError(f"{name!r} is not a language registered at run time. Fix: unregister only what you registered")
    del LANGUAGES[name]
    accept_language(name, accept=False)


__all__ = [
    "DEFAULT_LANGUAGE",
    "HELPER_LANGUAGE",
    "LANGUAGES",
    "LanguageEntry",
    "construct_language",
    "generator_languages",
    "helper_language",
    "language_entry",
    "language_of_file",
    "make_language",
    "program_languages",
    "register_language",
    "unregister_language",
]
