"""What each vendor's models accept: one table per provider, keyed by model family, each row naming the vendor
page it comes from.

A provider resolves a setting's ``ModelCaps`` before the setting's first cell:
the row of the longest family prefix that the model id starts with, then the
setting's overrides (``effort``, ``max_output_limit``, ``sampling`` and the
provider's own style key), then, when the provider opens, the vendor's models
endpoint where it says what the model accepts (Anthropic ``GET /v1/models/{id}``,
Gemini ``models.get``), which can refuse the setting before any cell is sent
but never changes the request (so ``run --plan`` and the response cache, which
never go online, build the same request a live run sends). The resolved
capabilities are written once to ``OUT/models.json`` and the run manifest.

A model no row matches gets the provider's ``DEFAULT`` row (the vendor's
current general form), recorded with ``source = "default"`` so the manifest
says it was not looked up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class ModelCaps:
    """What one model accepts, in the vendor's words, and where that was read."""

    family: str
    """The table row's family prefix (``claude-opus-4-7``), or ``default``."""
    source: str
    """The vendor page the row comes from, the models endpoint's URL, or ``default``/``setting``."""
    thinking: tuple[str, ...] = ()
    """Thinking forms the model accepts, in the vendor's words (Anthropic ``adaptive``/``enabled``, Gemini
    ``budget``/``level``, OpenAI ``effort``); empty: the model does not reason on request."""
    efforts: tuple[str, ...] = ()
    """Effort or level values the model accepts, in the vendor's words (``none``, ``minimal``, ..., ``max``)."""
    off: str | None = None
    """What ``reasoning = "off"`` is sent as (``disabled``, ``none``, ``minimal``, ``budget 0``, ``omit``); ``None``
    when the model cannot turn reasoning off (the setting is refused, naming the lowest value it has)."""
    sampling: str = "send"
    """``send``: ``temperature``/``top_p`` accepted; ``one``: one of the two, not both; ``default-only``: only
    their defaults (reasoning models); ``without-thinking``: only with thinking off."""
    max_output_tokens: int | None = None
    """The model's output cap (``max_tokens`` above it is refused); ``None``: not known."""
    notes: tuple[str, ...] = field(default_factory=tuple)
    """What the provider decided from these (``reasoning 'off' sent as effort 'none'``, ``top_p dropped``)."""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}

    def noting(self, *lines: str) -> ModelCaps:
        return replace(self, notes=(*self.notes, *lines))


def family_row(table: Mapping[str, ModelCaps], model: str | None, default: ModelCaps) -> ModelCaps:
    """The row whose family is the longest prefix of ``model`` (case-insensitive, a ``models/`` path and a
    ``-YYYYMMDD``/``@`` date suffix do not matter), else ``default``."""
    name = (model or "").lower().removeprefix("models/")
    best: str | None = None
    for family in table:
        if name.startswith(family) and (best is None or len(family) > len(best)):
            best = family
    return table[best] if best is not None else default


def accepted(values: Sequence[str]) -> str:
    """``'low', 'high'`` for an error message."""
    return ", ".join(repr(v) for v in values) if values else "(none)"


# -- Anthropic --------------------------------------------------------------------------------------------
# Thinking forms: ``adaptive`` (``thinking = {type = "adaptive"}`` with ``output_config.effort``) and ``enabled``
# (``budget_tokens``); efforts: the ``output_config.effort`` values the model takes. ``off`` is ``omit``
# everywhere: without a ``thinking`` field these models do not think. Sampling: ``one`` = temperature or top_p,
# not both (400 "cannot both be specified for this model"); ``default-only`` = neither ("`temperature` is
# deprecated for this model"). Output caps from each model's overview page.

_CLAUDE_DOCS = "https://platform.claude.com/docs/en"
_ALL_EFFORTS = ("low", "medium", "high", "xhigh", "max")


def _claude(
    family: str, page: str, thinking: tuple[str, ...], efforts: tuple[str, ...], sampling: str, cap: int
) -> ModelCaps:
    return ModelCaps(
        family=family,
        source=f"{_CLAUDE_DOCS}/{page}",
        thinking=thinking,
        efforts=efforts,
        off="omit",
        sampling=sampling,
        max_output_tokens=cap,
    )


ANTHROPIC_MODELS: dict[str, ModelCaps] = {
    row.family: row
    for row in (
        # Adaptive only: "enabled" is a 400; temperature/top_p/top_k removed; xhigh new (migration guide, effort page).
        _claude("claude-opus-4-8", "models/opus-4-8/overview", ("adaptive",), _ALL_EFFORTS, "default-only", 128_000),
        _claude(
            "claude-opus-4-7",
            "about-claude/models/migration-guide#migrating-to-claude-opus-4-7",
            ("adaptive",),
            _ALL_EFFORTS,
            "default-only",
            128_000,
        ),
        # Adaptive and (deprecated) enabled; effort low..max without xhigh (adaptive-thinking and effort pages).
        _claude(
            "claude-opus-4-6",
            "models/opus-4-6/overview",
            ("adaptive", "enabled"),
            ("low", "medium", "high", "max"),
            "one",
            128_000,
        ),
        _claude(
            "claude-sonnet-4-6",
            "models/sonnet-4-6/overview",
            ("adaptive", "enabled"),
            ("low", "medium", "high", "max"),
            "one",
            128_000,
        ),
        # Enabled (budget_tokens) only (extended-thinking page); Opus 4.5 also takes effort low|medium|high.
        _claude("claude-opus-4-5", "models/opus-4-5/overview", ("enabled",), ("low", "medium", "high"), "one", 64_000),
        _claude("claude-sonnet-4-5", "build-with-claude/extended-thinking", ("enabled",), (), "one", 64_000),
        _claude("claude-haiku-4-5", "build-with-claude/extended-thinking", ("enabled",), (), "one", 64_000),
        _claude("claude-opus-4-1", "build-with-claude/extended-thinking", ("enabled",), (), "one", 32_000),
        _claude("claude-opus-4", "build-with-claude/extended-thinking", ("enabled",), (), "send", 32_000),
        _claude("claude-sonnet-4", "build-with-claude/extended-thinking", ("enabled",), (), "send", 64_000),
        _claude("claude-3-7-sonnet", "build-with-claude/extended-thinking", ("enabled",), (), "send", 64_000),
    )
}
"""Anthropic model families; the longest prefix of the model id wins (``claude-opus-4-1-20250805``)."""

ANTHROPIC_DEFAULT = ModelCaps(
    family="default",
    source="default",
    thinking=("adaptive",),
    efforts=_ALL_EFFORTS,
    off="omit",
    sampling="default-only",
    max_output_tokens=None,
)
"""A Claude model newer than the table: the current form (adaptive thinking, every effort, no sampling keys, cap not
known); ``thinking_style``, ``effort``, ``max_output_limit`` and ``sampling`` override it, and the models endpoint
refuses the setting before its first cell where the model disagrees."""


# -- OpenAI -----------------------------------------------------------------------------------------------
# (rows: the OpenAI providers' table; filled in by the providers' modules)


# -- Gemini -----------------------------------------------------------------------------------------------
# (rows: the Gemini provider's table; filled in by the provider's module)
