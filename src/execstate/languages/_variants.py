"""What every language's source variants are (issue 44): the result type shared by the adapters' variant makers.

A variant is a program text with the original's meaning (renamed identifiers, dead code), made by an adapter
(``python.variants.make_variant``, ``cpp.variants.make_variant_cpp``) as a pure function of the source, the
variant's name and a seed; the builder keeps it only when execution shows it behaves as the original.
"""

from __future__ import annotations

from dataclasses import dataclass, field

VARIANTS = ("rename", "mislead", "deadcode")
"""Every variant name a language may offer."""


@dataclass(frozen=True)
class SourceVariant:
    """A variant of a program: its text, how its names map from the original's, and where its lines went."""

    name: str
    """``rename``, ``mislead`` or ``deadcode``."""
    seed: int
    source: str
    mapping: dict[str, str] = field(default_factory=dict)
    """Original name -> the variant's (empty for ``deadcode``)."""
    lines: dict[int, int] = field(default_factory=dict)
    """Original line -> the variant's, for every line of the original (the identity unless code was inserted)."""


__all__ = ["VARIANTS", "SourceVariant"]
