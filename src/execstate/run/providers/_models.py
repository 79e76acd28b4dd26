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
# ``openai`` (chat ``reasoning_effort``) and ``openai-responses`` (``reasoning.effort``) share these rows. The
# effort values are the ones OpenAI's 400 ``unsupported_value`` names for each model; reasoning models take only
# the default ``temperature``/``top_p`` (GPT-5.2 and later: any value, but only with effort ``none``).

_OPENAI_REASONING = "https://platform.openai.com/docs/guides/reasoning"
_OPENAI_LATEST = "https://platform.openai.com/docs/guides/latest-model"
_OPENAI_MODELS = "https://platform.openai.com/docs/models/"
_GPT5_1 = ("none", "low", "medium", "high")
_GPT5_2 = ("none", "low", "medium", "high", "xhigh")
_O_SERIES = ("low", "medium", "high")


def _openai(
    family: str, efforts: tuple[str, ...], off: str | None, sampling: str, source: str, cap: int | None = None
) -> ModelCaps:
    thinking = ("effort",) if efforts else ()
    return ModelCaps(family, source, thinking, efforts, off, sampling, cap)


OPENAI_MODELS: dict[str, ModelCaps] = {
    row.family: row
    for row in (
        # GPT-5 (Aug 2025): minimal is the lowest effort; it cannot turn reasoning off.
        _openai("gpt-5", ("minimal", "low", "medium", "high"), "minimal", "default-only", _OPENAI_REASONING, 128_000),
        _openai("gpt-5-pro", ("high",), None, "default-only", _OPENAI_MODELS + "gpt-5-pro"),
        _openai("gpt-5-codex", _O_SERIES, None, "default-only", _OPENAI_MODELS + "gpt-5-codex"),
        _openai("gpt-5-chat", (), "omit", "send", _OPENAI_MODELS + "gpt-5-chat-latest"),
        # GPT-5.1: none (the default) turns reasoning off; minimal is refused.
        _openai("gpt-5.1", _GPT5_1, "none", "default-only", _OPENAI_MODELS + "gpt-5.1", 128_000),
        _openai("gpt-5.1-codex", _O_SERIES, None, "default-only", _OPENAI_MODELS + "gpt-5.1-codex"),
        _openai("gpt-5.1-codex-max", (*_O_SERIES, "xhigh"), None, "default-only", _OPENAI_MODELS + "gpt-5.1-codex-max"),
        _openai("gpt-5.1-chat", ("medium",), None, "default-only", _OPENAI_MODELS + "gpt-5.1-chat-latest"),
        # GPT-5.2 and later (gpt-5.2, gpt-5.4, ...): xhigh added; temperature/top_p only with effort none.
        _openai("gpt-5.", _GPT5_2, "none", "without-thinking", _OPENAI_LATEST, 128_000),
        _openai("gpt-5.2-pro", ("medium", "high", "xhigh"), None, "default-only", _OPENAI_MODELS + "gpt-5.2-pro"),
        _openai("gpt-5.2-codex", (*_O_SERIES, "xhigh"), None, "default-only", _OPENAI_MODELS + "gpt-5.2-codex"),
        _openai("gpt-5.2-chat", ("medium",), None, "default-only", _OPENAI_MODELS + "gpt-5.2-chat-latest"),
        # o-series: low, medium, high; reasoning cannot be turned off.
        _openai("o1", _O_SERIES, None, "default-only", _OPENAI_REASONING, 100_000),
        _openai("o3", _O_SERIES, None, "default-only", _OPENAI_REASONING, 100_000),
        _openai("o4-mini", _O_SERIES, None, "default-only", _OPENAI_REASONING, 100_000),
        # Non-reasoning models: no effort at all, sampling keys sent.
        _openai("gpt-4.1", (), "omit", "send", _OPENAI_MODELS + "gpt-4.1", 32_768),
        _openai("gpt-4o", (), "omit", "send", _OPENAI_MODELS + "gpt-4o", 16_384),
    )
}
"""OpenAI model families, longest prefix first wins (``gpt-5-mini`` and ``gpt-5-nano`` are rows of ``gpt-5``)."""

OPENAI_DEFAULT = ModelCaps("default", "default", ("effort",), (), "omit", "send")
"""A model no row names (a local server's, a newer one): ``reasoning`` sent as it is, ``off`` sends no effort,
sampling keys sent; ``efforts`` empty means not known, so nothing is refused."""


# -- Gemini -----------------------------------------------------------------------------------------------
# ``thinking``: ``budget`` (``thinkingBudget``, Gemini 2.5), ``level`` (``thinkingLevel``, Gemini 3 and later),
# or empty (no ``thinkingConfig`` at all). ``efforts``: the levels a level model takes, lowest first. ``off``:
# ``budget 0`` where thinking can be turned off, else ``None``. The budget ranges are in ``GEMINI_BUDGETS``.

GEMINI_THINKING_DOCS = "https://ai.google.dev/gemini-api/docs/thinking"
GEMINI_3_DOCS = "https://ai.google.dev/gemini-api/docs/gemini-3"
GEMINI_MODELS_DOCS = "https://ai.google.dev/gemini-api/docs/models"
GEMINI_OUTPUT_CAP = 65_536
"""``outputTokenLimit`` of the 2.5 and 3 models (the models page; ``models.get`` says the same)."""

GEMINI_LEVELS = ("minimal", "low", "medium", "high")

GEMINI_MODELS: dict[str, ModelCaps] = {
    "gemini-2.5-flash": ModelCaps(
        "gemini-2.5-flash", GEMINI_THINKING_DOCS, ("budget",), (), "budget 0", "send", GEMINI_OUTPUT_CAP
    ),
    "gemini-2.5-flash-lite": ModelCaps(
        "gemini-2.5-flash-lite", GEMINI_THINKING_DOCS, ("budget",), (), "budget 0", "send", GEMINI_OUTPUT_CAP
    ),
    "gemini-2.5-pro": ModelCaps(
        "gemini-2.5-pro", GEMINI_THINKING_DOCS, ("budget",), (), None, "send", GEMINI_OUTPUT_CAP
    ),
    "gemini-3-pro": ModelCaps(
        "gemini-3-pro", GEMINI_3_DOCS, ("level",), ("low", "high"), None, "send", GEMINI_OUTPUT_CAP
    ),
    "gemini-3-flash": ModelCaps(
        "gemini-3-flash", GEMINI_3_DOCS, ("level",), GEMINI_LEVELS, None, "send", GEMINI_OUTPUT_CAP
    ),
    "gemini-3.1-pro": ModelCaps(
        "gemini-3.1-pro", GEMINI_THINKING_DOCS, ("level",), ("low", "medium", "high"), None, "send", GEMINI_OUTPUT_CAP
    ),
    "gemini-3.1-flash-lite": ModelCaps(
        "gemini-3.1-flash-lite", GEMINI_THINKING_DOCS, ("level",), GEMINI_LEVELS, None, "send", GEMINI_OUTPUT_CAP
    ),
    "gemini-2.0": ModelCaps("gemini-2.0", GEMINI_MODELS_DOCS, (), (), "no thinkingConfig", "send", 8_192),
    "gemini-1.": ModelCaps("gemini-1.", GEMINI_MODELS_DOCS, (), (), "no thinkingConfig", "send", 8_192),
    "gemma": ModelCaps("gemma", GEMINI_MODELS_DOCS, (), (), "no thinkingConfig", "send", None),
}
"""Gemini families by model-id prefix (the longest wins: ``gemini-2.5-flash-lite`` before ``gemini-2.5-flash``)."""

GEMINI_BUDGETS: dict[str, tuple[int, int]] = {
    "gemini-2.5-flash": (0, 24_576),
    "gemini-2.5-flash-lite": (512, 24_576),
    "gemini-2.5-pro": (128, 32_768),
}
"""``thinkingBudget`` ranges of the budget families (``-1``, dynamic thinking, is accepted by all); 2.5
Flash-Lite takes 0 (off) or 512-24576, 2.5 Pro cannot go below 128 (it cannot turn thinking off)."""

GEMINI_DEFAULT = ModelCaps("default", "default", ("level",), GEMINI_LEVELS, None, "send", None)
"""A model the table does not know: Gemini's current form (thinking levels, the four of them), no known cap."""
