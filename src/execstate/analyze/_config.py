"""Declared choices of an analysis: seeds, replicate counts, cohorts, the BH family."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from execstate.analyze._arms import final_arm
from execstate.analyze._cells import DYNAMIC_METRICS
from execstate.errors import UsageError
from execstate.studies import shared_source_studies

_DEFAULTS = {"replicates": 10_000, "permutations": 10_000}


def _shared_source_study() -> str | None:
    """The one registered study whose cases share a source; ``None`` if there is none."""
    shared = shared_source_studies()
    return shared[0] if shared else None


@dataclass(frozen=True)
class Cohort:
    """A declared subset of the paired comparison (paper Table 7)."""

    name: str
    settings: tuple[str, ...] | None = None
    """Settings included; ``None`` means every setting in the grades."""
    exclude_studies: tuple[str, ...] = ()
    studies: tuple[str, ...] | None = None
    """Studies included; ``None`` means every study (less ``exclude_studies``)."""


@dataclass(frozen=True)
class BHFamily:
    """The declared Benjamini-Hochberg family: estimable series tests matching all fields."""

    language: str = "python"
    arms: tuple[str, ...] = field(default_factory=lambda: (final_arm("long"),))
    """Default: the paper's final arm on the long input."""
    metrics: tuple[str, ...] = DYNAMIC_METRICS


@dataclass(frozen=True)
class AnalysisConfig:
    """Everything an analysis depends on besides its inputs; recorded in ``analysis.json``."""

    seed: int = 20250101
    """Base seed; each bootstrap/permutation derives its own stream from it and its row key."""
    replicates: int = _DEFAULTS["replicates"]
    """Cluster-bootstrap replicates per paired row."""
    permutations: int = _DEFAULTS["permutations"]
    """Label shuffles per series test."""
    level: float = 0.95
    high_settings: tuple[str, ...] | None = None
    """The high-reasoning cohort's settings; ``None``: settings whose name ends in ``-high``."""
    exclude_study: str | None = field(default_factory=_shared_source_study)
    """The study left out by the sensitivity cohorts and by the regression; default: the study the
    registry flags as sharing one source across its cases (``networkx``), ``None`` for none."""
    cohorts: tuple[Cohort, ...] | None = None
    """Paired cohorts; ``None``: all Python, high settings, both again without ``exclude_study``, and one
    per Python study with pairs (``study:<name>``)."""
    regression_language: str = "python"
    bh_family: BHFamily = field(default_factory=BHFamily)
    bh_alpha: float = 0.05
    figure_studies: tuple[str, ...] | None = None
    """Studies that get per-study figures; ``None``: every study in the tasks."""

    def __post_init__(self) -> None:
        for name in ("replicates", "permutations"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise UsageError(
                    f"{name} must be a positive whole number, got {value!r}. "
                    f"Fix: pass --{name} 1000 or more (default {_DEFAULTS[name]})"
                )
        if not 0 < self.level < 1:
            raise UsageError(f"level must lie strictly between 0 and 1, got {self.level!r}. Fix: use e.g. 0.95")
        if not 0 < self.bh_alpha < 1:
            raise UsageError(f"bh_alpha must lie strictly between 0 and 1, got {self.bh_alpha!r}. Fix: use 0.05")

    def high(self, settings: Iterable[str]) -> tuple[str, ...]:
        """The high-reasoning settings among ``settings`` (declared, or by the ``-high`` suffix)."""
        if self.high_settings is not None:
            return tuple(self.high_settings)
        return tuple(sorted(s for s in settings if s.endswith("-high")))

    def declared_cohorts(self, settings: Iterable[str], studies: Iterable[str] = ()) -> tuple[Cohort, ...]:
        """The paired cohorts to report, in report order; ``studies``: the Python studies with final pairs."""
        if self.cohorts is not None:
            return self.cohorts
        high = self.high(settings)
        cohorts = [Cohort("all-python"), Cohort("all-python/high", settings=high)]
        if self.exclude_study:
            ex = (self.exclude_study,)
            cohorts += [
                Cohort(f"exclude-{self.exclude_study}", exclude_studies=ex),
                Cohort(f"exclude-{self.exclude_study}/high", settings=high, exclude_studies=ex),
            ]
        cohorts += [Cohort(f"study:{name}", studies=(name,)) for name in sorted(set(studies))]
        return tuple(cohorts)

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form for the analysis record."""
        return asdict(self)
