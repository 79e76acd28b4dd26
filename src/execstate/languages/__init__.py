"""Languages: what the builder and construct need from a programming language, below both.

The ``Language`` protocol (``_protocol``: run, instrument, measure a program; ``ConstructLanguage`` also
proposes checkpoints), the registry (``_registry``: every language a case spec may name, its adapter
named as ``"module:factory"`` and imported on first use, its command-line options declared as data; the
entries themselves live in ``execstate.language_entries``, beneath this package, so ``execstate --help``
reads them without importing it), the options of a build (``BuildOptions``) and the candidates a checkpoint
may project. The adapters are sub-packages: ``python`` (CPython, measured by ``sys.monitoring`` or a trace
function) and ``cpp`` (g++ and gcov). A new language is one adapter package and one ``register_language``
call, or an entry point of the group ``execstate.languages`` (``docs/extending.md``).
"""

from execstate.language_entries import (
    BUILTIN_LANGUAGES,
    DEFAULT_LANGUAGE,
    HELPER_LANGUAGE,
    LANGUAGES,
    CliOption,
    LanguageEntry,
    cli_options,
)
from execstate.languages._candidates import MUTATORS, Candidate, python_candidates, python_loops
from execstate.languages._options import BuildOptions
from execstate.languages._protocol import (
    COUNT_MARKER,
    DEFAULT_TRACE_STEPS,
    MEASURE_WALL_SLACK,
    STATE_FAILED,
    BranchLine,
    CheckpointMeasuring,
    CheckpointStates,
    ConstructLanguage,
    Endpoint,
    Instrumented,
    Language,
    LineCounting,
    LoopTracing,
    Mode,
    SourceVarying,
    StatePredicting,
    Variation,
    line_of_text,
    measurement_limits,
    refusal_line,
    source_lines,
)
from execstate.languages._registry import (
    construct_language,
    generator_languages,
    helper_language,
    language_entry,
    language_of_file,
    make_language,
    options_from_cli,
    program_languages,
    register_language,
    unregister_language,
)
from execstate.languages._variants import VARIANTS, SourceVariant

__all__ = [
    "BUILTIN_LANGUAGES",
    "COUNT_MARKER",
    "DEFAULT_LANGUAGE",
    "DEFAULT_TRACE_STEPS",
    "HELPER_LANGUAGE",
    "LANGUAGES",
    "MEASURE_WALL_SLACK",
    "MUTATORS",
    "STATE_FAILED",
    "VARIANTS",
    "BranchLine",
    "BuildOptions",
    "Candidate",
    "CheckpointMeasuring",
    "CheckpointStates",
    "CliOption",
    "ConstructLanguage",
    "Endpoint",
    "Instrumented",
    "Language",
    "LanguageEntry",
    "LineCounting",
    "LoopTracing",
    "Mode",
    "SourceVariant",
    "SourceVarying",
    "StatePredicting",
    "Variation",
    "cli_options",
    "construct_language",
    "generator_languages",
    "helper_language",
    "language_entry",
    "language_of_file",
    "line_of_text",
    "make_language",
    "measurement_limits",
    "options_from_cli",
    "program_languages",
    "python_candidates",
    "python_loops",
    "refusal_line",
    "register_language",
    "source_lines",
    "unregister_language",
]
