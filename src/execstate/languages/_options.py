"""The knobs of a build: limits, measurement and size bounds, and each language's own options."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TypeVar

from execstate.errors import UsageError
from execstate.sandbox import Limits

_Options = TypeVar("_Options")


@dataclass(frozen=True)
class BuildOptions:
    """Knobs of a build. ``python`` is the interpreter of Python: it runs the builder's helper programs
    (input generators, invariant audits) whatever the case's language, and runs and measures Python programs.

    Every run of a program, measurements included, gets ``limits``; a measurement's
    CPU time is ``measure_factor`` times theirs (tracing is slower; 6 keeps the 20 s
    runs / 120 s measurements of the defaults) and its wall clock three times that
    (``measurement_limits``: load on the machine cannot time it out). An input (file or generator
    output) longer than ``max_input_bytes``, or a state arm's checkpoint line longer
    than ``max_checkpoint_bytes``, excludes the case (checks ``input-size``,
    ``checkpoint-size``).
    """

    limits: Limits = field(default_factory=Limits)
    python: str = sys.executable
    measure_factor: float = 6.0
    max_input_bytes: int = 1_000_000
    max_checkpoint_bytes: int = 100_000
    language_options: tuple[object, ...] = ()
    """Options of particular languages, each an instance of the options type its adapter declares
    (``cpp.options.CppOptions(cxx=..., cxxflags=...)``); a language finds none here: its type's defaults."""
    measure_arms_apart: bool = False
    """Measure every arm of a long input by its own run instead of one run for all of them (the reference
    the one-run measurement is checked against: the same numbers, only slower)."""

    def __post_init__(self) -> None:
        for name in ("measure_factor", "max_input_bytes", "max_checkpoint_bytes"):
            if not getattr(self, name) > 0:
                raise UsageError(
                    f"BuildOptions.{name} must be positive, got {getattr(self, name)!r}. "
                    f"Fix: pass a positive {name} (default {getattr(BuildOptions, name)!r})"
                )
        kinds = [type(o) for o in self.language_options]
        if len(set(kinds)) != len(kinds):
            raise UsageError(
                "BuildOptions.language_options holds two options of one type. Fix: give each language's options once"
            )

    def options(self, kind: type[_Options]) -> _Options:
        """The ``kind`` instance of ``language_options``, else ``kind()`` (an adapter asks for its own type)."""
        found = next((o for o in self.language_options if isinstance(o, kind)), None)
        return found if found is not None else kind()
