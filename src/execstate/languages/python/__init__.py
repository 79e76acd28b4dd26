"""CPython as a language: ``instrument`` (the checkpoint copies of a program, from its syntax tree),
``language`` (``PythonLanguage``, the registry's ``python`` adapter, which also runs the builder's helper
programs) and ``_transitions.py`` (run inside the sandbox to list a loop's state transitions)."""

from execstate.languages.python.instrument import (
    check_variables,
    instrument,
    instrument_with_origins,
    resolve_loop,
)
from execstate.languages.python.language import HASH_SEEDS, PythonLanguage

__all__ = [
    "HASH_SEEDS",
    "PythonLanguage",
    "check_variables",
    "instrument",
    "instrument_with_origins",
    "resolve_loop",
]
