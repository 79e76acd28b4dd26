"""The knobs of a build: limits, measurement and size bounds, and each language's own options."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TypeVar

from execstate.errors import UsageError
from execstate.metrics import Budget
from execstate.sandbox import Limits

_Options = TypeVar("_Options")


@dataclass(frozen=True)
class BuildOptions:
    """Knobs of a build. ``python`` is the interpreter of Python: it runs the builder's helper programs
    (input generators, invariant audits) whatever the case's language, and runs and measures Python programs.

    Every run of a program, measurements included, gets ``limits``; a measurement's
    CPU time is ``measure_factor`` times theirs (10: 200 s of CPU to the 20 s runs of the defaults) and its
    wall clock three times that (``measurement_limits``). These clocks are only a safety net: what decides is
    the counted budgets (``trace_budget``, ``state_budget``, ``object_budget``), reached far sooner. An input
    (file or generator output) longer than ``max_input_bytes``, or a state arm's checkpoint line longer than
    ``max_checkpoint_bytes``, excludes the case (checks ``input-size``, ``checkpoint-size``).
    """

    limits: Limits = field(default_factory=Limits)
    python: str = sys.executable
    measure_factor: float = 10.0
    max_input_bytes: int = 1_000_000
    max_checkpoint_bytes: int = 100_000
    language_options: tuple[object, ...] = ()
    """Options of particular languages, each an instance of the options type its adapter declares
    (``cpp.options.CppOptions(cxx=..., cxxflags=...)``); a language finds none here: its type's defaults."""
    trace_budget: int | None = 20_000_000
    """Counted budget of a measurement: instruction events (Python; C++: line executions). A measurement that
    exceeds one stops there (status ``budget``) and excludes the case naming it, the same on every machine;
    ``limits`` and ``measure_factor`` are only a safety net far above the budgets (docs/protocol.md)."""
    state_budget: int | None = 5_000_000_000
    """Counted budget of a measurement: state slots walked over the run (the sum ``state_load`` is)."""
    object_budget: int | None = 200_000_000
    """Counted budget of a measurement: containers and instances walked over the run (a state of many small
    objects costs more to walk than ``state_budget`` shows)."""
    add_arms: tuple[str, ...] = ()
    """Case arms (an arm whose spec has ``case_arm``, e.g. the further arms ``loop-trace`` and ``line-count``) every
    case of the build gets on top of the arms its spec asks for (``arms``, default the paper's four):
    ``execstate build --add-arms``."""
    variants: tuple[str, ...] = ()
    """Source variants every admitted case is also built as (``execstate build --variants``): ``rename``, ``mislead``,
    ``deadcode``; each kept only when it passes the checks and behaves as the original (docs/variants.md)."""
    variant_seed: int = 0
    """Mixed with each case's id and the variant's name into the seed of its variant (``--variant-seed``)."""
    measure_arms_apart: bool = False
    """Measure every arm of a long input by its own run instead of one run for all of them (the reference
    the one-run measurement is checked against: the same numbers, only slower)."""

    def __post_init__(self) -> None:
        budgets = ("trace_budget", "state_budget", "object_budget")
        for name in ("measure_factor", "max_input_bytes", "max_checkpoint_bytes", *budgets):
            if name in budgets and getattr(self, name) is None:
                continue
            if not getattr(self, name) > 0:
                raise UsageError(
                    f"BuildOptions.{name} must be positive, got {getattr(self, name)!r}. "
                    f"Fix: pass a positive {name} (default {getattr(BuildOptions, name)!r})"
                )
        from execstate.arms import arm_names

        known = arm_names(case_arm=True)
        unknown = [a for a in self.add_arms if a not in known]
        if unknown:
            raise UsageError(
                f"BuildOptions.add_arms names {', '.join(map(repr, unknown))}, not an arm a case can ask for. "
                f"Fix: add any of {', '.join(known)} (the paper's four arms are built by default)"
            )
        from execstate.languages._variants import VARIANTS

        odd = [v for v in self.variants if v not in VARIANTS]
        if odd or len(set(self.variants)) != len(self.variants):
            raise UsageError(
                f"BuildOptions.variants must name distinct variants among {', '.join(VARIANTS)}, got "
                f"{list(self.variants)!r}. Fix: e.g. variants=('rename', 'mislead')"
            )
        kinds = [type(o) for o in self.language_options]
        if len(set(kinds)) != len(kinds):
            raise UsageError(
                "BuildOptions.language_options holds two options of one type. Fix: give each language's options once"
            )

    def budget(self) -> Budget:
        """The counted budgets of every measurement of the build."""
        return Budget(self.trace_budget, self.state_budget, self.object_budget)

    def options(self, kind: type[_Options]) -> _Options:
        """The ``kind`` instance of ``language_options``, else ``kind()`` (an adapter asks for its own type)."""
        found = next((o for o in self.language_options if isinstance(o, kind)), None)
        return found if found is not None else kind()
