"""Model settings: the ``[[setting]]`` tables of a settings TOML file, validated strictly."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from execstate.errors import SettingsError

Provider = Literal["openai", "oracle", "replay", "synthetic"]
"""Names of ``execstate.run._runner.PROVIDERS``; a new provider adds its name here and its factory there."""
Reasoning = Literal["off", "minimal", "low", "medium", "high"]

# Fields that change what a request asks for. A resumed run refuses to mix
# responses recorded under different values of these under one setting name;
# the other fields (concurrency, timeouts, retry knobs) may change between runs.
REQUEST_FIELDS = (
    "provider",
    "base_url",
    "model",
    "reasoning",
    "reasoning_field",
    "max_output_tokens",
    "max_tokens_field",
    "temperature",
    "top_p",
    "extra_body",
    "replay_file",
    "synthetic_contamination",
    "synthetic_skill",
)


class Setting(BaseModel):
    """One model configuration (SPEC section 8). Unknown keys are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    """Label used in every record and table."""
    provider: Provider = "openai"
    """``openai``: any OpenAI-compatible chat-completions endpoint; ``oracle``: answers each
    task with its oracle (a pipeline check); ``replay``: answers from ``replay_file``."""
    base_url: str | None = None
    """Endpoint root including the version path, e.g. ``http://127.0.0.1:8000/v1``."""
    model: str | None = None
    api_key_env: str | None = None
    """Name of the environment variable holding the key; the key itself is never stored."""
    reasoning: Reasoning = "off"
    """``off`` sends no reasoning field; other values are sent as ``reasoning_field``."""
    reasoning_field: str = "reasoning_effort"
    """Request field that carries the reasoning mode ("" sends none; ``extra_body`` wins)."""
    timeout_s: float | None = Field(default=None, gt=0)
    """Whole-request deadline; default 3600 s with reasoning, 1800 s without."""
    max_output_tokens: int | None = Field(default=None, gt=0)
    max_tokens_field: str = "max_completion_tokens"
    """Request field that carries ``max_output_tokens`` (``max_tokens`` for older servers)."""
    concurrency: int = Field(default=8, gt=0)
    """Requests in flight to this setting at once."""
    temperature: float | None = None
    top_p: float | None = None
    extra_body: dict[str, Any] = Field(default_factory=dict)
    """Provider-specific request fields, merged last (they override the fields above)."""
    replay_file: str | None = None
    """``replay`` only: JSONL of ``{task_id, text}`` (optional ``sample``), relative to the TOML."""
    max_attempts: int = Field(default=6, ge=1)
    """Attempt budget per cell for retryable failures (429, 5xx, connection errors)."""
    backoff_initial_s: float = Field(default=2.0, ge=0)
    """Backoff ceiling of the first retry; it doubles per retry (full jitter)."""
    backoff_max_s: float = Field(default=120.0, ge=0)
    retry_timeouts: bool = False
    """Re-send a request that hit ``timeout_s`` (off by default: the time was likely paid for)."""
    connect_timeout_s: float = Field(default=30.0, gt=0)
    synthetic_contamination: float = Field(default=0.0, allow_inf_nan=False)
    """``synthetic`` only: logit added to the chance of a right answer on every task that is not fresh
    (``records.is_fresh``), so the simulated predictor does better on published inputs than on fresh ones,
    as a model trained on them would. 0 (the default) answers exactly as without it; refused for other
    providers. Written to the run manifest only when not 0."""
    synthetic_skill: float = Field(default=4.0, allow_inf_nan=False)
    """``synthetic`` only: the simulated predictor's logit intercept (higher: fewer errors). 4 (the default)
    answers exactly as before it existed; refused for other providers. Written to the run manifest only when
    not 4."""
    price_input_per_mtok: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """Price of a million prompt tokens (any currency, the same for every setting compared); ``None``: not
    priced. Read by ``execstate leaderboard`` only; written to the run manifest only when set."""
    price_output_per_mtok: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """Price of a million completion tokens (hidden reasoning included unless ``price_reasoning_per_mtok``)."""
    price_reasoning_per_mtok: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """Price of a million reasoning tokens when it differs from the output price; ``None``: priced as output."""

    @model_validator(mode="after")
    def _check_provider_fields(self) -> Setting:
        if self.provider == "openai" and not (self.base_url and self.model):
            raise ValueError("provider 'openai' needs base_url and model")
        if self.provider == "replay" and not self.replay_file:
            raise ValueError("provider 'replay' needs replay_file")
        for knob, default in (("synthetic_contamination", 0.0), ("synthetic_skill", 4.0)):
            if self.provider != "synthetic" and getattr(self, knob) != default:
                raise ValueError(f"{knob} is a knob of provider 'synthetic' only, not {self.provider!r}; remove it")
        return self

    @property
    def effective_timeout_s(self) -> float:
        """``timeout_s``, or the SPEC default: 3600 s with reasoning, 1800 s without."""
        if self.timeout_s is not None:
            return self.timeout_s
        return 1800.0 if self.reasoning == "off" else 3600.0

    def request_fingerprint(self) -> dict[str, Any]:
        """The fields that determine what is asked (see ``REQUEST_FIELDS``)."""
        return {k: getattr(self, k) for k in REQUEST_FIELDS}

    def api_key(self) -> str | None:
        """The key from ``api_key_env``; ``None`` when no variable is named.

        Raises ``SettingsError`` when the variable is named but unset or empty.
        """
        if not self.api_key_env:
            return None
        key = os.environ.get(self.api_key_env, "")
        if not key:
            raise SettingsError(
                f"setting {self.name!r}: environment variable {self.api_key_env} is not set; "
                f"export it (e.g. `export {self.api_key_env}=...`) or remove api_key_env"
            )
        return key


def load_settings(path: Path | str) -> list[Setting]:
    """Read and validate every ``[[setting]]`` table of a TOML file.

    Relative ``replay_file`` paths are made absolute against the file's folder.
    Raises ``SettingsError`` naming the file, the setting and the offending key.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read settings: {exc}") from exc
    unknown = sorted(set(data) - {"setting"})
    if unknown:
        raise SettingsError(f"{path}: unknown top-level key(s) {unknown}; settings go in [[setting]] tables")
    tables = data.get("setting")
    if not isinstance(tables, list) or not tables:
        raise SettingsError(f"{path}: no [[setting]] tables found")
    settings = [_parse_table(path, i, table) for i, table in enumerate(tables)]
    names = [s.name for s in settings]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise SettingsError(f"{path}: setting name(s) {dupes} used more than once; names must be unique")
    return settings


def _parse_table(path: Path, index: int, table: dict[str, Any]) -> Setting:
    label = repr(table.get("name")) if isinstance(table.get("name"), str) else f"#{index + 1}"
    if table.get("replay_file"):
        table = {**table, "replay_file": str((path.parent / table["replay_file"]).resolve())}
    try:
        return Setting.model_validate(table)
    except ValidationError as exc:
        problems = "; ".join(_describe(err) for err in exc.errors())
        raise SettingsError(f"{path}: setting {label}: {problems}") from None


def _describe(err: Any) -> str:
    key = ".".join(str(p) for p in err.get("loc", ())) or "(setting)"
    if err.get("type") == "extra_forbidden":
        return f"unknown key {key!r} (allowed: {', '.join(Setting.model_fields)})"
    return f"{key}: {err.get('msg')}"
