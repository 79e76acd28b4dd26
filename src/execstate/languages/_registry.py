"""The language registry's functions: spec validation, adapters made on first use, run-time registration.

The entries themselves are data in ``execstate.language_entries`` (``LANGUAGES``, a ``Registry[LanguageEntry]``
with the entry-point group ``execstate.languages``), beneath this package so the command line reads the
languages' options without importing it. Whatever the rest of execstate needs to know about a language it
asks here: spec validation (``language_entry``), construct's pool reading (``program_languages``,
``generator_languages``), the importers and the command line (``language_entry(name, option=...)``), the
builder (``make_language``). ``register_language`` adds a language at run time (see
``tests/builder/toy_lines_language.py``); ``records.LANGUAGE_NAMES`` lists the built-in ones.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from execstate.errors import SpecProblem, UsageError, load_attr
from execstate.language_entries import BUILTIN_LANGUAGES, DEFAULT_LANGUAGE, LANGUAGES, LanguageEntry, check_entry
from execstate.registry import RegistryMiss

if TYPE_CHECKING:
    from execstate.languages._options import BuildOptions
    from execstate.languages._protocol import ConstructLanguage, Language


def language_entry(name: str, *, option: str | None = None) -> LanguageEntry:
    """The entry of ``name``; ``SpecProblem`` (key ``language``) naming the available ones when there is none,
    or ``UsageError`` naming the command-line ``option`` that gave it. A language another package declares
    (entry point) is loaded here, and from then on this process's records may name it."""
    if name in LANGUAGES:
        entry = LANGUAGES.get(name)
        if name not in BUILTIN_LANGUAGES:
            from execstate.records import accept_language  # records is pydantic: not needed to read the registry

            accept_language(name)
        return entry
    available = ", ".join(LANGUAGES.declared())
    if option is not None:
        raise UsageError(f"{option} {name!r} is not a language of the builder (available: {available}). Fix: pass one")
    raise SpecProblem(
        "language",
        f"unknown language {name!r} (available: {available})",
        f'write language = "{DEFAULT_LANGUAGE}" or another available one, or register yours first '
        "(execstate.languages.register_language, or your package's entry-point group execstate.languages)",
    )


def make_language(name: str, opts: BuildOptions) -> Language:
    """The adapter of language ``name`` under ``opts`` (``SpecProblem`` for an unknown name)."""
    adapter = language_entry(name).adapter
    factory: Callable[[BuildOptions], Language] = load_attr(adapter) if isinstance(adapter, str) else adapter
    return factory(opts)


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


def register_language(entry: LanguageEntry) -> None:
    """Add a language to the registry of this process, so case specs, pools and tasks may name it.

    ``UsageError`` for a name that is not a short lower-case identifier, or a name, program or
    generator file name another language already has. Tasks naming it are valid records in this
    process only (``records.LANGUAGE_NAMES`` is the public format's set; see docs/extending.md).
    """
    check_entry(entry.name, entry)
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

    LANGUAGES.register(entry.name, entry)
    accept_language(entry.name)


def unregister_language(name: str) -> None:
    """Remove a language ``register_language`` added; ``UsageError`` for a built-in, an entry point's or an
    unknown one."""
    from execstate.records import accept_language

    if not _registered_at_run_time(name):
        raise UsageError(f"{name!r} is not a language registered at run time. Fix: unregister only what you registered")
    LANGUAGES.unregister(name)
    accept_language(name, accept=False)


def _registered_at_run_time(name: str) -> bool:
    """Whether ``name`` came from ``register_language``: neither built in nor an entry point (declared as a
    ``"module:attr"`` string) but an entry object."""
    if name in BUILTIN_LANGUAGES:
        return False
    try:
        return isinstance(LANGUAGES.target(name), LanguageEntry)
    except RegistryMiss:
        return False


__all__ = [
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
