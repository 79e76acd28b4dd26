"""Model settings: the ``[[setting]]`` tables of a settings TOML file, validated strictly against the provider
each names, and ``ProviderEntry``, what a provider module declares (the registry of them is
``run/providers/_registry.py``, above the provider modules)."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, Literal, TypeVar, cast, overload

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
    model_validator,
)

from execstate.errors import SettingsError
from execstate.registry import Registry, RegistryMiss
from execstate.run._attempt import Messages, Opened, WireRequest

_Options = TypeVar("_Options", bound=BaseModel)
Reasoning = Literal["off", "minimal", "low", "medium", "high", "xhigh", "max"]
"""One vocabulary for every provider; each maps it to what the setting's model accepts (docs/run.md)."""
Sampling = Literal["auto", "drop", "send"]
STREAM_ABOVE_TOKENS = 21_333
"""``max_output_tokens`` above which a request is streamed when ``stream`` is not set: Anthropic's SDKs
refuse a non-streaming request whose output could take longer than ten minutes from about this cap, and a
long silent request is the one an idle-dropping proxy cuts (docs/run.md, "Streaming")."""

# Fields that change what a request asks for. A resumed run refuses to mix
# responses recorded under different values of these (and of the provider's own
# keys) under one setting name; the other fields (concurrency, timeouts, retry
# knobs, prices, batch) may change between runs.
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
    "effort",
    "max_output_limit",
    "sampling",
)


class _Group(BaseModel):
    """One concern of a setting: a few keys of the flat ``[[setting]]`` table, validated together."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Identity(_Group):
    """Which model answers, through which provider, under which name."""

    name: str = Field(min_length=1)
    """Label used in every record and table."""
    provider: str = "openai"
    """A registered provider (``execstate.run.provider_names()``): ``openai`` (any OpenAI-compatible
    chat-completions endpoint), ``openai-responses``, ``anthropic``, ``gemini`` (the vendors' native APIs),
    ``oracle`` (answers each task with its oracle, a pipeline check), ``replay``, ``synthetic``, or one another
    package declares (entry-point group ``execstate.providers``)."""
    base_url: str | None = None
    """Endpoint root; default: the provider's vendor API root. ``openai``: including the version path,
    e.g. ``http://127.0.0.1:8000/v1``; ``anthropic`` and ``gemini``: without it (``https://api.anthropic.com``)."""
    model: str | None = None
    api_key_env: str | None = None
    """Name of the environment variable holding the key; the key itself is never stored."""


class RequestKeys(_Group):
    """What each request asks of the model beyond the prompt: reasoning, output length, sampling."""

    reasoning: Reasoning = "off"
    """``off`` sends no reasoning field; other values are sent as ``reasoning_field``."""
    reasoning_field: str = "reasoning_effort"
    """Request field that carries the reasoning mode ("" sends none; ``extra_body`` wins)."""
    max_output_tokens: int | None = Field(default=None, gt=0)
    max_tokens_field: str = "max_completion_tokens"
    """Request field that carries ``max_output_tokens`` (``max_tokens`` for older servers)."""
    temperature: float | None = None
    top_p: float | None = None
    extra_body: dict[str, Any] = Field(default_factory=dict)
    """Provider-specific request fields, merged last (they override the fields above)."""
    effort: str | None = None
    """The vendor's own effort or level value, sent as it is instead of the one ``reasoning`` maps to (for a
    model newer than the capability table); ``None``: mapped from ``reasoning``."""
    max_output_limit: int | None = Field(default=None, gt=0)
    """The model's output cap, instead of the one the models endpoint or the capability table gives:
    ``max_output_tokens`` (and a default derived from reasoning) is capped at it."""
    sampling: Sampling = "auto"
    """``temperature``/``top_p``: ``auto`` sends them only where the model accepts them (refusing the setting
    before any request where the model refuses a value given), ``drop`` never sends them, ``send`` always does."""


class Transport(_Group):
    """How requests travel: deadlines, requests in flight, retries, streaming. Free to change between runs."""

    timeout_s: float | None = Field(default=None, gt=0)
    """Whole-request deadline; default 3600 s with reasoning, 1800 s without."""
    concurrency: int = Field(default=8, gt=0)
    """Requests in flight to this setting at once."""
    max_attempts: int = Field(default=6, ge=1)
    """Attempt budget per cell for retryable failures (429, 5xx, connection errors)."""
    backoff_initial_s: float = Field(default=2.0, ge=0)
    """Backoff ceiling of the first retry; it doubles per retry (full jitter)."""
    backoff_max_s: float = Field(default=120.0, ge=0)
    retry_timeouts: bool = False
    """Re-send a request that hit ``timeout_s`` (off by default: the time was likely paid for)."""
    connect_timeout_s: float = Field(default=30.0, gt=0)
    stream: bool | None = None
    """Stream the answer (server-sent events): ``None`` streams when ``max_output_tokens`` is above
    ``STREAM_ABOVE_TOKENS``; a transport choice, not a request field: the records are the same."""


class Batching(_Group):
    """Whether and how cells go through the vendor's batch API."""

    batch: bool = False
    """Send this setting's cells through the vendor's batch API (``openai``, ``anthropic``) instead of live
    requests, as ``execstate run --batch`` does for every setting that has a batch form."""
    batch_poll_s: float = Field(default=30.0, gt=0, allow_inf_nan=False)
    """Seconds between two polls of a submitted batch."""
    batch_max_requests: int = Field(default=10_000, gt=0)
    """Cells per submitted batch (the vendors allow up to 50,000 / 100,000)."""
    batch_open: int = Field(default=4, gt=0)
    """Batches of this setting in flight at once (submitted, not yet ended and recorded); further ones are
    submitted as earlier ones end."""
    batch_max_failures: int = Field(default=3, ge=0)
    """Times a batch that fails as a whole (refused at creation, or ended ``failed``) is re-submitted in one
    invocation before the setting stops; its cells are not spent by such a failure."""
    batch_retry_s: float = Field(default=60.0, ge=0, allow_inf_nan=False)
    """The delay before the first re-submission of a batch that failed as a whole: the n-th waits a uniform
    draw in [d/2, d] with d = ``batch_retry_s`` * 2**(n-1)."""


class Prices(_Group):
    """What a million tokens cost, for ``execstate leaderboard`` only (never sent, never part of a request)."""

    price_input_per_mtok: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """Price of a million prompt tokens (any currency, the same for every setting compared); ``None``: not
    priced. Read by ``execstate leaderboard`` only; written to the run manifest only when set."""
    price_output_per_mtok: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """Price of a million completion tokens (hidden reasoning included unless ``price_reasoning_per_mtok``)."""
    price_reasoning_per_mtok: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    """Price of a million reasoning tokens when it differs from the output price; ``None``: priced as output."""
    price_batch_factor: float = Field(default=0.5, ge=0, allow_inf_nan=False)
    """A cell answered through the vendor's batch API costs this fraction of the prices above (0.5: the
    half price OpenAI and Anthropic charge), unless ``price_batch_input_per_mtok`` and
    ``price_batch_output_per_mtok`` name the batch prices themselves."""
    price_batch_input_per_mtok: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    price_batch_output_per_mtok: float | None = Field(default=None, ge=0, allow_inf_nan=False)


GROUPS: dict[str, type[_Group]] = {
    "identity": Identity,
    "request": RequestKeys,
    "transport": Transport,
    "batching": Batching,
    "prices": Prices,
}
"""A setting's common keys by concern (attribute of ``Setting`` -> its model); the provider's own keys are the
sixth concern, kept as they were written (``Setting.model_extra``, read with ``Setting.options``)."""

FLAT_KEYS: tuple[str, ...] = (
    *("name", "provider", "base_url", "model", "api_key_env", "reasoning", "reasoning_field", "timeout_s"),
    *("max_output_tokens", "max_tokens_field", "concurrency", "temperature", "top_p", "extra_body"),
    *("max_attempts", "backoff_initial_s", "backoff_max_s", "retry_timeouts", "connect_timeout_s"),
    *("price_input_per_mtok", "price_output_per_mtok", "price_reasoning_per_mtok", "price_batch_factor"),
    *("price_batch_input_per_mtok", "price_batch_output_per_mtok", "batch", "batch_poll_s", "batch_max_requests"),
    *("effort", "max_output_limit", "sampling", "stream", "batch_open", "batch_max_failures", "batch_retry_s"),
)
"""Every common key of a ``[[setting]]`` table, in the order a setting is written (``Setting.model_dump``, the
run manifest): the order of the one flat record this once was, so manifests keep their bytes."""

_GROUP_OF: dict[str, str] = {key: group for group, model in GROUPS.items() for key in model.model_fields}
_T = TypeVar("_T")


class _Flat(Generic[_T]):
    """A flat read of a grouped key: ``setting.model`` is ``setting.identity.model``."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.key = name
        self.group = _GROUP_OF[name]

    @overload
    def __get__(self, obj: None, owner: type) -> _Flat[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type) -> _T: ...

    def __get__(self, obj: object | None, owner: type) -> _T | _Flat[_T]:
        return self if obj is None else cast(_T, getattr(getattr(obj, self.group), self.key))


def setting_default(key: str) -> Any:
    """The default of common key ``key`` (``KeyError`` for a key that is no common one)."""
    return GROUPS[_GROUP_OF[key]].model_fields[key].get_default(call_default_factory=True)


class Setting(BaseModel):
    """One model configuration (SPEC section 8), grouped by concern and read or written as one flat table.

    A settings file (and ``Setting(name=..., concurrency=...)``) gives every key flat; they are kept in five
    groups, ``identity``, ``request``, ``transport``, ``batching`` and ``prices`` (``GROUPS``), and read flat
    as well (``setting.model`` is ``setting.identity.model``). A provider's own keys (``replay_file``,
    ``synthetic_skill``, ``thinking_budget``, ...) sit flat in the same table, are validated by the provider's
    ``options`` model (``execstate.run.provider_entry(name).options``) and read with ``options()``. Keys that
    are neither common nor the provider's are refused. ``model_dump`` gives the flat table back, in the order
    of ``FLAT_KEYS`` then the provider's keys.
    """

    model_config = ConfigDict(frozen=True, extra="allow")

    identity: Identity
    request: RequestKeys = RequestKeys()
    transport: Transport = Transport()
    batching: Batching = Batching()
    prices: Prices = Prices()

    name: ClassVar[_Flat[str]] = _Flat()
    provider: ClassVar[_Flat[str]] = _Flat()
    base_url: ClassVar[_Flat[str | None]] = _Flat()
    model: ClassVar[_Flat[str | None]] = _Flat()
    api_key_env: ClassVar[_Flat[str | None]] = _Flat()
    reasoning: ClassVar[_Flat[Reasoning]] = _Flat()
    reasoning_field: ClassVar[_Flat[str]] = _Flat()
    max_output_tokens: ClassVar[_Flat[int | None]] = _Flat()
    max_tokens_field: ClassVar[_Flat[str]] = _Flat()
    temperature: ClassVar[_Flat[float | None]] = _Flat()
    top_p: ClassVar[_Flat[float | None]] = _Flat()
    extra_body: ClassVar[_Flat[dict[str, Any]]] = _Flat()
    effort: ClassVar[_Flat[str | None]] = _Flat()
    max_output_limit: ClassVar[_Flat[int | None]] = _Flat()
    sampling: ClassVar[_Flat[Sampling]] = _Flat()
    timeout_s: ClassVar[_Flat[float | None]] = _Flat()
    concurrency: ClassVar[_Flat[int]] = _Flat()
    max_attempts: ClassVar[_Flat[int]] = _Flat()
    backoff_initial_s: ClassVar[_Flat[float]] = _Flat()
    backoff_max_s: ClassVar[_Flat[float]] = _Flat()
    retry_timeouts: ClassVar[_Flat[bool]] = _Flat()
    connect_timeout_s: ClassVar[_Flat[float]] = _Flat()
    stream: ClassVar[_Flat[bool | None]] = _Flat()
    batch: ClassVar[_Flat[bool]] = _Flat()
    batch_poll_s: ClassVar[_Flat[float]] = _Flat()
    batch_max_requests: ClassVar[_Flat[int]] = _Flat()
    batch_open: ClassVar[_Flat[int]] = _Flat()
    batch_max_failures: ClassVar[_Flat[int]] = _Flat()
    batch_retry_s: ClassVar[_Flat[float]] = _Flat()
    price_input_per_mtok: ClassVar[_Flat[float | None]] = _Flat()
    price_output_per_mtok: ClassVar[_Flat[float | None]] = _Flat()
    price_reasoning_per_mtok: ClassVar[_Flat[float | None]] = _Flat()
    price_batch_factor: ClassVar[_Flat[float]] = _Flat()
    price_batch_input_per_mtok: ClassVar[_Flat[float | None]] = _Flat()
    price_batch_output_per_mtok: ClassVar[_Flat[float | None]] = _Flat()

    def __init__(self, **keys: Any) -> None:
        """A setting from its flat keys (as a ``[[setting]]`` table spells them) or its groups."""
        super().__init__(**keys)

    @model_validator(mode="before")
    @classmethod
    def _grouped(cls, data: Any) -> Any:
        """Sort a flat table's common keys into their groups; the provider's own keys stay flat."""
        if not isinstance(data, dict):
            return data
        out: dict[str, Any] = {}
        groups: dict[str, dict[str, Any]] = {}
        for key, value in data.items():
            if key in _GROUP_OF:
                groups.setdefault(_GROUP_OF[key], {})[key] = value
            else:
                out[key] = value
        for group, keys in groups.items():
            if group in out:
                raise ValueError(f"give {', '.join(keys)} either flat or inside {group}, not both")
            out[group] = keys
        out.setdefault("identity", {})
        return out

    @model_serializer(mode="wrap")
    def _flat(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        nested = handler(self)
        flat = {k: nested[_GROUP_OF[k]][k] for k in FLAT_KEYS if k in nested.get(_GROUP_OF[k], {})}
        return {**flat, **{k: v for k, v in nested.items() if k not in GROUPS}}

    @property
    def streaming(self) -> bool:
        """Whether requests are streamed (``stream``, else ``max_output_tokens > STREAM_ABOVE_TOKENS``)."""
        if self.stream is not None:
            return self.stream
        return self.max_output_tokens is not None and self.max_output_tokens > STREAM_ABOVE_TOKENS

    @model_validator(mode="after")
    def _check_provider_fields(self) -> Setting:
        try:
            entry = _provider(self.provider)
        except (RegistryMiss, SettingsError) as exc:
            raise ValueError(str(exc)) from None
        extra = dict(self.model_extra or {})
        own = set(entry.options.model_fields) if entry.options is not None else set()
        for key in sorted(set(extra) - own):
            raise ValueError(_unknown_key(key, self.provider, own))
        if entry.options is not None:
            try:
                entry.options.model_validate(extra)
            except ValidationError as exc:
                problems = "; ".join(_describe(err) for err in exc.errors())
                raise ValueError(f"provider {self.provider!r}: {problems}") from None
        missing = [k for k in entry.needs if not getattr(self, k)]
        if missing:
            raise ValueError(f"provider {self.provider!r} needs {' and '.join(missing)}")
        if entry.check is not None:
            entry.check(self)
        return self

    def options(self, model: type[_Options]) -> _Options:
        """The provider's own keys of this setting, validated by ``model`` (defaults filled in)."""
        return model.model_validate(self.model_extra or {})

    @property
    def endpoint_root(self) -> str:
        """``base_url``, or the provider's vendor API root when the setting gives none."""
        root = self.base_url or _provider(self.provider).default_base_url
        if not root:
            raise SettingsError(f"setting {self.name!r}: provider {self.provider!r} needs base_url")
        return root

    def option_defaults(self) -> dict[str, Any]:
        """The provider's own keys at their defaults (for keys a setting leaves out)."""
        options = _provider(self.provider).options
        if options is None:
            return {}
        return {
            k: f.default for k, f in options.model_fields.items() if not f.is_required() and f.default_factory is None
        }

    @property
    def effective_timeout_s(self) -> float:
        """``timeout_s``, or the SPEC default: 3600 s with reasoning, 1800 s without."""
        if self.timeout_s is not None:
            return self.timeout_s
        return 1800.0 if self.reasoning == "off" else 3600.0

    def request_fingerprint(self) -> dict[str, Any]:
        """The fields that determine what is asked: ``REQUEST_FIELDS`` and the provider's own keys."""
        own = {**self.option_defaults(), **(self.model_extra or {})}
        return {**{k: getattr(self, k) for k in REQUEST_FIELDS}, **own}

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


# -- the provider a setting names ----------------------------------------------------------------------
# A setting's ``provider`` names a ``ProviderEntry``: how to open the provider, which provider-only keys a
# setting may carry (validated by the entry's ``options`` model, never by name elsewhere), which of them are
# paths, which common keys it needs, and, for providers that speak HTTP, the request a cell makes (for the
# response cache and ``run --plan``) and the batch form, if the vendor has one.


@dataclass(frozen=True)
class ProviderEntry:
    """One provider kind a setting can name (``provider = "<name>"``)."""

    name: str
    open: Callable[[Setting], Awaitable[Opened]]
    """Make the provider for a setting (check its key variable, reach its endpoint if it has one)."""
    options: type[BaseModel] | None = None
    """The provider-only keys of a setting table, as a pydantic model (``extra="forbid"``); ``None``: none."""
    needs: tuple[str, ...] = ()
    """Common setting keys that must be set for this provider (``model``, ``base_url``)."""
    default_base_url: str | None = None
    """The vendor's API root, used when a setting gives no ``base_url``."""
    request: Callable[[Setting, Messages, int], WireRequest] | None = None
    """The request a cell sends, from its rendered messages and sample; ``None`` for providers that send none
    (no cache, nothing to plan)."""
    batch: Any = None
    """The vendor's batch form (``run._wire.BatchApi``, or ``"module:attr"`` naming one), or ``None`` when the
    provider has none."""
    check: Callable[[Setting], None] | None = None
    """Extra validation of a setting (raise ``ValueError`` with the fix); run after ``options``."""
    description: str = ""
    needs_task: bool = False
    """The provider answers from the task itself, oracle included (a ``TaskProvider``: ``attempt_task``), as
    ``oracle`` and ``synthetic`` do; refused beside ``request`` or ``batch``: a provider that sends requests gets
    the rendered messages only (``CellRequest``), never the oracle."""
    path_keys: tuple[str, ...] = ()
    """Keys of ``options`` that name files: a relative path in a settings file is resolved against that file's
    folder (``replay``'s ``replay_file``), so a settings file and its data move together."""


# Every built-in provider module imports this one (for ``Setting`` and ``ProviderEntry``), so the provider
# registry, which names those modules, lives above them (``run/providers/_registry.py``) and this module cannot
# import it: a setting reaches it through the one registry that module hands over when it is imported, which is
# before any setting is made (importing anything under ``execstate.run`` imports it).
_REGISTRY: Registry[ProviderEntry] | None = None


def use_provider_registry(registry: Registry[ProviderEntry]) -> None:
    """Check settings against ``registry`` (called once, by ``run/providers/_registry.py`` as it is imported)."""
    global _REGISTRY
    _REGISTRY = registry


def _provider(name: str) -> ProviderEntry:
    """The entry a setting's ``provider`` names; ``RegistryMiss`` (close names, the fix) when there is none."""
    if _REGISTRY is None:
        raise SettingsError("no provider registry is loaded. Fix: import execstate.run before making a Setting")
    return _REGISTRY.get(name)


def _provider_names() -> list[str]:
    return _REGISTRY.names() if _REGISTRY is not None else []


def load_settings(path: Path | str) -> list[Setting]:
    """Read and validate every ``[[setting]]`` table of a TOML file.

    A relative path under one of the provider's ``path_keys`` (``replay_file``) is made absolute against the
    file's folder.
    Raises ``SettingsError`` naming the file, the setting and the offending key, for every refused setting
    at once (one line each), before any request is sent.
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
    settings: list[Setting] = []
    problems: list[str] = []
    for i, table in enumerate(tables):
        try:
            settings.append(_parse_table(path, i, table))
        except SettingsError as exc:
            problems.append(str(exc))
    if len(problems) == 1:
        raise SettingsError(problems[0])
    if problems:  # every refused setting at once: one edit of the file fixes them all
        raise SettingsError(f"{path}: {len(problems)} settings are refused:\n" + "\n".join(f"  {p}" for p in problems))
    names = [s.name for s in settings]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise SettingsError(f"{path}: setting name(s) {dupes} used more than once; names must be unique")
    return settings


def _parse_table(path: Path, index: int, table: dict[str, Any]) -> Setting:
    label = repr(table.get("name")) if isinstance(table.get("name"), str) else f"#{index + 1}"
    table = _resolve_paths(path.parent, table)
    try:
        return Setting.model_validate(table)
    except ValidationError as exc:
        problems = "; ".join(_describe(err) for err in exc.errors())
        raise SettingsError(f"{path}: setting {label}: {problems}") from None


def _resolve_paths(folder: Path, table: dict[str, Any]) -> dict[str, Any]:
    """``table`` with its provider's path keys (``ProviderEntry.path_keys``) resolved against ``folder``; a table
    whose provider is unknown is left as it is (validating it names the provider as the problem)."""
    name = table.get("provider", setting_default("provider"))
    try:
        keys = _provider(name).path_keys if isinstance(name, str) else ()
    except RegistryMiss:
        return table
    found = {k: table[k] for k in keys if isinstance(table.get(k), str) and table[k]}
    return {**table, **{k: str((folder / v).resolve()) for k, v in found.items()}}


def _unknown_key(key: str, provider: str, own: set[str]) -> str:
    """Why ``key`` is refused: another provider's key, or no key at all (with the ones allowed)."""
    for name in _provider_names():
        options = _provider(name).options
        if options is not None and key in options.model_fields:
            return f"{key} is a knob of provider {name!r} only, not {provider!r}; remove it"
    keys = ", ".join([*FLAT_KEYS, *sorted(own)])
    return f"unknown key {key!r} for provider {provider!r} (allowed: {keys})"


def _describe(err: Any) -> str:
    """One validation error as a settings file's author reads it: the flat key (a group's name left out)."""
    loc = tuple(err.get("loc", ()))
    key = ".".join(str(p) for p in (loc[1:] if loc[:1] and loc[0] in GROUPS else loc)) or "(setting)"
    if err.get("type") == "extra_forbidden":
        return f"unknown key {key!r}"
    if err.get("type") == "missing":
        return f"needs {key}"
    return f"{key}: {err.get('msg')}"
