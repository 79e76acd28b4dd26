"""Typed, versioned records that the pipeline stages exchange through files.

build -> tasks.jsonl (Task), excluded.jsonl (Exclusion), manifest.json (BuildManifest)
run   -> responses.jsonl (Response), run_manifest.json (RunManifest, RunInvocation)
grade -> grades.jsonl (Grade)

Every record is a frozen pydantic model with a ``schema_version``; a stage reads
only these records, so any later stage can be re-run from files alone. The
layouts, and what changed between versions, are in ``docs/records.md``.
"""

from __future__ import annotations

import json
import platform
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_serializer,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from execstate import __version__, arms
from execstate.errors import InputFileError, RecordError, bounded_reason

SCHEMA_VERSION = 1
"""The layout version of every versioned record whose layout has not changed since the first (all but ``Task``)."""
TASK_SCHEMA_VERSION = 2
"""The layout version of ``Task``. 2: ``meta`` is written as a JSON string; 1: as an object (files written
between the two encodings hold a string under version 1). Both read; docs/records.md has the change log."""
_NEWER_VERSION = "schema_version_newer"
"""The validation error type of a record written by a newer execstate (``read_jsonl`` gives it its own fix)."""

RUN_RESPONSES_NAME = "responses.jsonl"
"""A run directory's responses, one ``Response`` per line."""
RUN_MANIFEST_NAME = "run_manifest.json"
"""A run directory's ``RunManifest``."""

Arm = str
"""An arm's name: one of ``execstate.arms.ARM_REGISTRY`` (the built-in arms, or one a package registered).
The arms themselves (groups, labels, hooks) are data in ``execstate.arms``; ``Task`` refuses an unknown arm."""

_MOVED_TO_ARMS = frozenset(
    ("ARMS", "FINAL_ARMS", "STATE_ARMS", "FUNCTION_ARMS", "PROGRAM_INPUT_ARM", "EXTRA_ARMS", "LOOP_TRACE_ARM",
     "LINE_COUNT_ARM", "FURTHER_ARMS", "CASE_ARMS")
)  # fmt: skip


def __getattr__(name: str) -> Any:
    """The arm vocabularies moved to ``execstate.arms``; old imports from here still work."""
    if name in _MOVED_TO_ARMS:
        return getattr(arms, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


GradingRule = Literal[
    "json-or-tokens", "int-alpha-tokens", "bytes", "python-literal", "python-call", "program-input", "integer"
]
GRADING_RULES: tuple[str, ...] = (
    "json-or-tokens",
    "int-alpha-tokens",
    "bytes",
    "python-literal",
    "python-call",
    "program-input",
    "integer",
)

LANGUAGE_NAMES: tuple[str, ...] = ("python", "cpp")
"""The languages of the public task format, in the order of the builder's registry (``execstate.languages.LANGUAGES``,
which asserts they agree). ``Task.language`` is one of these, or a language a program registered at run time
(``execstate.languages.register_language``): records naming it are then read and written by that process only."""
_RUNTIME_LANGUAGES: set[str] = set()


def accept_language(name: str, accept: bool = True) -> None:
    """Let this process's records name ``name`` as their language (``False``: no longer); the registry calls it."""
    if accept:
        _RUNTIME_LANGUAGES.add(name)
    else:
        _RUNTIME_LANGUAGES.discard(name)


Check = Literal[
    "spec",
    "determinism",
    "trace-order",
    "run",
    "reachability",
    "fields",
    "change",
    "oracle-determinism",
    "preservation",
    "iterations",
    "internal",  # the builder itself failed on the case (a bug or a limit of the builder, not a check)
    "input-size",
    "checkpoint-size",
    "measurement",
    "invariant",  # the case's [invariant] failed its audit or states an answer (SPEC 10.7, docs/pilot.md)
    "fresh",  # build --fresh: no fresh candidate within the bounds, or (--fresh-only) not refreshable
    "budget",  # a measurement exceeded a counted budget (trace events, state slots, objects walked)
]

Condition = Literal["baseline", "guided", "placebo"]
CONDITIONS: tuple[Condition, ...] = ("baseline", "guided", "placebo")
"""Prompt conditions of the invariant pilot: the fixed prompt; plus the invariant; plus an irrelevant true fact."""
Contract = Literal["output-only", "rationale-then-output"]
CONTRACTS: tuple[Contract, ...] = ("output-only", "rationale-then-output")
"""Response contracts: the SPEC 7 envelope; a JSON object with ``rationale`` first and ``output`` last."""

ResponseStatus = Literal["completed", "no-response"]
GradeStatus = Literal["correct-valid", "correct-invalid", "wrong-valid", "wrong-invalid", "no-response"]
CORRECT_STATUSES: frozenset[str] = frozenset({"correct-valid", "correct-invalid"})


class Record(BaseModel):
    """Base of every record: immutable, strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_json_line(self) -> str:
        """One canonical JSON line (sorted keys off: declared field order is kept)."""
        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))

    @field_validator("schema_version", check_fields=False)
    @classmethod
    def _known_version(cls, version: int) -> int:
        """A record of an older layout reads as the current one (the class's validators accept the old
        form); a newer one is refused, since its fields may mean what this code cannot know."""
        current = cls.model_fields["schema_version"].default
        if version > current:
            raise PydanticCustomError(
                _NEWER_VERSION,
                "schema_version {version} is newer than this execstate reads ({name} up to {current})",
                {"version": version, "name": cls.__name__, "current": current},
            )
        if version < 1:
            raise ValueError("must be 1 or more")
        return current


class Metrics(Record):
    """Execution metrics of one task (SPEC section 6). ``None`` means not measured."""

    trace_length: int | None = None
    """Instruction events in owned code up to the task's endpoint (Python) or coverage-region counts (C++)."""
    peak_state: int | None = None
    """max_t |S_t| over the observations up to the endpoint."""
    state_load: int | None = None
    """sum_t |S_t| over the observations up to the endpoint."""
    cyclomatic: int | None = None
    """Cyclomatic complexity of the exact clean source."""


class Task(Record):
    """One case x one arm: the exact bytes a model sees plus the oracle (SPEC section 7)."""

    schema_version: int = TASK_SCHEMA_VERSION
    """The layout version (``TASK_SCHEMA_VERSION``); a version-1 line reads as version 2."""
    task_id: str
    """``<case_id>/<arm>``."""
    case_id: str
    """``<study>/<name>``: the case the task belongs to (its spec's ``id``)."""
    study: str
    """The study the case belongs to (``execstate.studies.STUDIES`` or a user's own)."""
    language: str
    """The language of ``source``: one of ``LANGUAGE_NAMES`` (or a language registered at run time in the process)."""
    arm: Arm
    """The question asked: the final output on the short or long input, or the state at a loop checkpoint."""
    source: str
    """Exact program text shown to the model (clean for final arms, instrumented for state arms)."""
    input: str
    """Exact standard-input text."""
    oracle: str
    """Expected answer produced by execution: the exact stdout, trailing newline included (a state arm's
    stdout is one canonical JSON line plus ``\n``). Grading rules decide what the newline means."""
    answer_kind: Literal["text", "json"]
    """``text`` for a program's output (final arms), ``json`` for a checkpoint's state line (state arms)."""
    grading_rule: GradingRule
    """How an answer is compared with ``oracle`` (SPEC 9; ``execstate.grade``)."""
    source_sha256: str
    """SHA-256 of the clean source bytes; the source cluster."""
    metrics: Metrics = Field(default_factory=Metrics)
    """The execution metrics of the shown program on the shown input, up to the arm's endpoint."""
    meta: dict[str, Any] = Field(default_factory=dict)
    """Selection choices: ``k``, ``K``, ``python``, loop line, variables, spec path, ... (docs/records.md lists
    the keys by study and arm).

    Its keys and value types differ between studies and cases, so in files (JSON mode) it is written as
    one compact JSON string (schema version 2): a column reader (Hugging Face ``datasets``, pyarrow,
    pandas) sees one type. Reading accepts that string or, as version-1 files hold, an object."""

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        if value not in LANGUAGE_NAMES and value not in _RUNTIME_LANGUAGES:
            known = ", ".join([*LANGUAGE_NAMES, *sorted(_RUNTIME_LANGUAGES)])
            raise ValueError(f"unknown language {value!r} (known: {known})")
        return value

    @field_validator("arm")
    @classmethod
    def _known_arm(cls, value: str) -> str:
        if not arms.is_arm(value):
            raise ValueError(str(arms.ARM_REGISTRY.miss(value)))
        return value

    @field_validator("meta", mode="before")
    @classmethod
    def _meta_from_json(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        try:
            parsed = json.loads(value)
        except ValueError as exc:
            raise ValueError(f"meta is a string but not JSON ({exc})") from None
        if not isinstance(parsed, dict):
            raise ValueError("meta must encode a JSON object")
        return parsed

    @field_serializer("meta", when_used="json")
    def _meta_to_json(self, value: dict[str, Any]) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class PromptVariant(Record):
    """How a task's prompt departs from the fixed one (the invariant pilot); kept in ``Task.meta["prompt"]``.

    The default (baseline, output-only, no guidance) is the fixed prompt of SPEC 7 exactly.
    """

    condition: Condition = "baseline"
    """What the prompt adds: nothing (``baseline``), the invariant (``guided``), an irrelevant fact (``placebo``)."""
    contract: Contract = "output-only"
    """The answer asked for: the SPEC 7 envelope, or a rationale first and the output last."""
    guidance: str | None = None
    """The one paragraph a guided or placebo prompt adds (the audited statement); None for baseline."""

    @model_validator(mode="after")
    def _guidance_matches_condition(self) -> PromptVariant:
        if (self.condition == "baseline") != (self.guidance is None):
            raise ValueError(f"condition {self.condition!r} needs guidance text exactly when it is not baseline")
        return self


def prompt_variant(task: Task) -> PromptVariant:
    """The task's prompt variant (``meta["prompt"]``); the fixed SPEC 7 prompt when there is none."""
    raw = task.meta.get("prompt")
    return PromptVariant() if raw is None else PromptVariant.model_validate(raw)


SWEEP_SEPARATOR = "@k"
"""A checkpoint-sweep task's id is ``<case_id>/inside-loop-state@k<k>`` (SPEC 11; ``meta["sweep"]`` is true)."""


def is_sweep(task: Task) -> bool:
    """True for an extra inside task of a checkpoint sweep: analysed apart, never in the four-arm tables."""
    return bool(task.meta.get("sweep"))


def is_variant(task: Task) -> bool:
    """True for a task of a source variant (``build --variants``): its case id is ``<case>~<variant>`` and
    ``meta["variant_of"]`` names the original case; analysed only against the original (docs/variants.md)."""
    return "variant_of" in task.meta


TaskKind = Literal["published", "fresh", "variant", "sweep", "ladder", "pilot", "twin"]
"""Where a task comes from, computed from its ``meta`` (files keep their bytes): a ``published`` case's own
inputs, a ``fresh`` re-issue on new inputs (``meta["fresh"]``), a source ``variant`` (``meta["variant_of"]``),
a checkpoint ``sweep`` extra (``meta["sweep"]``), a rung of an input ``ladder`` (``meta["ladder"]``), a
``pilot`` prompt variant (``meta["prompt"]``) or a cross-language ``twin`` of another case (``meta["twin_of"]``,
docs/twins.md)."""
TASK_KINDS: tuple[TaskKind, ...] = ("published", "fresh", "variant", "sweep", "ladder", "pilot", "twin")


def task_kind(task: Task) -> TaskKind:
    """The task's kind (``TaskKind``). A task that is two at once (a fresh task of a sweep) is the first of
    sweep, variant, ladder, pilot, twin, fresh: the kind that keeps it out of the most analyses."""
    meta = task.meta
    if meta.get("sweep"):
        return "sweep"
    if "variant_of" in meta:
        return "variant"
    if meta.get("ladder"):
        return "ladder"
    if "prompt" in meta:
        return "pilot"
    if "twin_of" in meta:
        return "twin"
    if is_fresh(task):
        return "fresh"
    return "published"


PAPER_KINDS: frozenset[TaskKind] = frozenset(("published", "fresh", "pilot"))
"""The kinds the paper's tables take (fresh tasks are split off by the fresh section, pilot tasks by the pilot)."""


def paper_tasks(tasks: Iterable[Task]) -> list[Task]:
    """The tasks of the paper's protocol: the kinds of ``PAPER_KINDS`` asked in an arm the paper's tables count
    (``ArmSpec.in_paper_tables``: not the further arms, which have their own sections)."""
    return [t for t in tasks if task_kind(t) in PAPER_KINDS and arms.arm_spec(t.arm).in_paper_tables]


FRESH_SUFFIX = "~fresh"
"""A fresh task's case id is its published twin's plus this suffix (``classic/heapsort~fresh``)."""


def fresh_record(task_or_meta: Task | Mapping[str, Any]) -> dict[str, Any] | None:
    """A fresh task's ``meta["fresh"]`` object (``of``: the published twin's case id, ``commitment``, and the
    build's notes on how its inputs were drawn); None for a published task, whose ``meta["fresh"]`` is absent
    or ``false`` (a case that could not be refreshed, kept with its inputs)."""
    meta = task_or_meta.meta if isinstance(task_or_meta, Task) else task_or_meta
    record = meta.get("fresh")
    return record if isinstance(record, dict) else None


def is_fresh(task_or_meta: Task | Mapping[str, Any]) -> bool:
    """True for a fresh task (SPEC 11): a published case's program re-issued on newly generated inputs.

    Its ``meta["fresh"]`` is an object (``fresh_record``). A published task has no ``fresh`` key, or
    ``false`` (a case that could not be refreshed, kept with its inputs)."""
    return fresh_record(task_or_meta) is not None


def fresh_twin(case_id: str) -> str:
    """The case id of the fresh twin of the published case ``case_id``."""
    return case_id + FRESH_SUFFIX


def published_case_id(task: Task) -> str:
    """The case id of the published twin of a fresh task (``meta["fresh"]["of"]``); a published task's own."""
    record = fresh_record(task)
    return str(record["of"]) if record is not None else task.case_id


def json_type(value: Any) -> str:
    """The JSON type of a decoded JSON value: ``boolean``, ``number`` (an integer or a float), ``string``,
    ``null``, ``array`` or ``object``; ``other`` for what JSON cannot hold. The fields of a state agree in
    these types at both checkpoints, and a state answer's fields are compared with the oracle's by them."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", type(None): "null", list: "array", dict: "object"}.get(type(value), "other")


class Exclusion(Record):
    """A case that did not become tasks, with the admission check it failed and the evidence."""

    schema_version: int = SCHEMA_VERSION
    """The layout version (``SCHEMA_VERSION``)."""
    case_id: str
    """The case's id; ``?/<folder>`` when its spec could not be read far enough to have one."""
    check: Check
    """The admission check it failed (SPEC 4), ``spec`` for an unusable spec, ``internal`` for a builder fault."""
    reason: str
    """The evidence, as ``bounded_reason`` makes it: control characters escaped, at most 2,000 characters."""
    spec_path: str | None = None
    """The case spec's path as the build was given it (None: not from a spec file)."""

    @field_validator("reason", "case_id", "spec_path")
    @classmethod
    def _bounded(cls, value: str | None) -> str | None:
        return None if value is None else bounded_reason(value)


class BuildManifest(Record):
    """Metadata of one build: what went in, what came out, with which tools."""

    schema_version: int = SCHEMA_VERSION
    """The layout version (``SCHEMA_VERSION``)."""
    execstate_version: str
    """The version of execstate that built."""
    python: str
    """x.y.z of the interpreter that ran the programs."""
    compiler: str | None = None
    """First line of ``g++ --version`` of the compiler that built the C++ cases (None: no C++ case or no compiler)."""
    compiler_flags: list[str] = Field(default_factory=list)
    """Flags of the C++ binaries that ran (the measured ones use ``-O0 --coverage`` instead of ``-O*``)."""
    specs: list[str]
    """Every case spec file found, in build order (as paths were given)."""
    cases_admitted: int
    """Cases that became tasks."""
    cases_excluded: int
    """Cases that became ``Exclusion`` records (the lines of ``excluded.jsonl``)."""
    tasks: int
    """Lines of ``tasks.jsonl``."""
    tasks_sha256: str
    """SHA-256 of ``tasks.jsonl``."""
    exclusions_by_check: dict[str, int] = Field(default_factory=dict)
    """How many exclusions each check made, by check name."""
    interrupted: bool = False
    """The build was stopped (SIGINT, SIGTERM or its ``stop`` event) before every case was built."""
    cases_interrupted: list[str] = Field(default_factory=list)
    """Ids of the cases that were running when the build stopped: killed by the builder, recorded nowhere else."""
    cases_not_started: list[str] = Field(default_factory=list)
    """Ids of the cases the stopped build never started."""
    environments: list[dict[str, Any]] = Field(default_factory=list)
    """Each distinct declared environment of the admitted tasks (their ``meta["environment"]``: preset, python,
    every installed package as ``name==version``, include directories with their SHA-256); empty: none declared."""
    fresh: dict[str, Any] | None = None
    """A ``--fresh`` build's summary (None otherwise): ``commitment`` (``sha256:`` of the prefixed seed; the seed
    is never written), ``refreshed`` (fresh case ids), ``not_refreshable`` (published case id -> why)."""
    variants: dict[str, Any] | None = None
    """A ``--variants`` build's record (None otherwise): ``names`` (the variants asked for), ``seed`` (the build's
    ``variant_seed``), ``kept`` (the variant case ids built), ``not_kept`` (``{"case_id", "variant", "reason"}``)."""
    not_posed: list[dict[str, str]] = Field(default_factory=list)
    """Further arms an admitted case asked for but did not get (``{"case_id", "arm", "reason"}``, in build order):
    a loop trace of fewer than 2 steps, a program with no line a line count may mark. Not exclusions: the case's
    other tasks are built."""
    twins: dict[str, Any] | None = None
    """A build with cross-language twins (docs/twins.md; None otherwise): ``seeds`` (whose fresh inputs both
    programs answered), ``proven`` (twin case ids) and ``not_proven`` (``{"case_id", "twin_of", "difference"}``)."""
    ladder: dict[str, Any] | None = None
    """A ``--ladder`` build's record (None otherwise; docs/ladder.md): the request (``low``, ``high``, ``ratio``,
    ``tolerance``, ``seed``, ``state_arms``, ``probes``, ``targets``; optional ``objects_per_event``: a rung's
    object budget per event of its target, None when the user gave ``--object-budget``) and ``cases``: per case id
    its ``rungs`` found (optional ``object_budget``: the budget a rung was admitted under), its ``missing`` rungs
    with the nearest traces measured (optional ``check`` and ``object_budget`` when a counted budget or the CPU
    limit refused one), or ``none`` saying why it has no ladder."""


class Usage(Record):
    """Token counts the server reported for a response; ``None``: not reported."""

    prompt_tokens: int | None = None
    """Tokens of the prompt."""
    completion_tokens: int | None = None
    """Tokens generated, hidden reasoning included."""
    reasoning_tokens: int | None = None
    """Tokens of hidden reasoning, when the server counts them apart."""
    cache_read_tokens: int | None = None
    """Prompt tokens the vendor served from its prompt cache (OpenAI ``cached_tokens``, Anthropic
    ``cache_read_input_tokens``, Gemini ``cachedContentTokenCount``); ``None``: not reported."""
    cache_creation_tokens: int | None = None
    """Prompt tokens written to the vendor's prompt cache (Anthropic ``cache_creation_input_tokens``)."""


class Response(Record):
    """One finished cell (task x setting x sample) of a model run (SPEC section 8)."""

    schema_version: int = SCHEMA_VERSION
    """The layout version (``SCHEMA_VERSION``)."""
    task_id: str
    """The ``Task.task_id`` asked."""
    setting: str
    """The name of the setting (model configuration) that answered."""
    sample: int = 0
    """0-based index of the sample of this task under this setting."""
    status: ResponseStatus
    """``completed`` (the server answered) or ``no-response`` (every attempt failed or was not retried)."""
    text: str | None = None
    """The answer text as the server sent it (None unless completed); what is graded."""
    reasoning: str | None = None
    """The server's separate reasoning text (``message.reasoning_content`` or ``message.reasoning``)
    when it sends one; kept for analysis, never graded (only ``text`` is)."""
    finish_reason: str | None = None
    """The server's ``finish_reason`` (``stop``, ``length``, ...) of a completed response."""
    usage: Usage = Field(default_factory=Usage)
    """Token counts of the last attempt, as the server reported them."""
    latency_s: float | None = None
    """Wall time of the last attempt, in seconds."""
    attempts: int = 0
    """Attempts made for this cell (retries included)."""
    errors: list[str] = Field(default_factory=list)
    """One line per failed attempt (``attempt N: ...``), secrets replaced by ``***``."""
    started_at: str | None = None
    """When the first attempt started (UTC, ISO 8601 with milliseconds)."""
    finished_at: str | None = None
    """When the last attempt ended (UTC, ISO 8601 with milliseconds)."""
    provider: str | None = None
    """The provider kind that answered (``openai``, ``oracle``, ``replay``, ``synthetic``)."""
    model: str | None = None
    """The model the provider names: an ``openai`` setting's ``model``, or ``oracle``, ``replay:<file>``, ..."""
    pipeline_check: bool = False
    """True when the answer came from the ``oracle`` provider: a pipeline check, not a model result."""
    cached: bool = False
    """True when the answer was read from the response cache (``run --cache``), not sent again; ``usage``
    is the original response's."""
    batch_id: str | None = None
    """The vendor batch that answered the cell (``run --batch``); ``None`` for a live request."""
    served_model: str | None = None
    """The model snapshot the vendor says answered (Anthropic and OpenAI ``model``, Gemini ``modelVersion``);
    ``None`` when the vendor does not say (``model`` is the setting's alias)."""
    request_id: str | None = None
    """The vendor's id of the request that answered (a ``request-id``/``x-request-id`` header or the
    answer's id); ``None`` when not given."""
    service_tier: str | None = None
    """The service tier the vendor says served the request; ``None`` when not given."""

    def to_json_line(self) -> str:
        """One JSON line in declared field order, written by pydantic's serializer.

        A run writes one of these per cell as responses arrive, so it skips the
        ``json.dumps`` round trip of the other records (7x slower). The text is
        the same except that a float is written in shortest form without an
        exponent's leading zero (``0.00001``, not ``1e-05``); both parse to the
        same value. ``text`` must be valid Unicode (no lone surrogates).
        """
        return self.__pydantic_serializer__.to_json(self).decode("utf-8")


class RunInvocation(Record):
    """One invocation of ``run`` on the directory (a resume appends another)."""

    started_at: str
    """When the invocation started (UTC, ISO 8601, seconds)."""
    settings: list[str]
    """The settings it ran, by name."""
    samples: int
    """Samples it asked per task and setting."""
    limit: int | None
    """``run`` asked the first ``limit`` tasks of the file (``None``: all of them)."""
    execstate_version: str = __version__
    """The version of execstate that ran."""
    python: str = Field(default_factory=platform.python_version)
    """x.y.z of the interpreter that ran execstate."""
    cached: dict[str, int] | None = Field(default=None, exclude_if=lambda v: v is None)
    """Cells answered from the response cache (``run --cache``) by setting; written only when a cache was
    used, so other manifests are the bytes they were."""


class RunManifest(Record):
    """Settings (without keys), the task file's hash and the history of invocations."""

    schema_version: int = SCHEMA_VERSION
    """The layout version (``SCHEMA_VERSION``)."""
    tasks_file: str | None
    """Path the tasks were read from, when they came from a file."""
    tasks_sha256: str
    """SHA-256 of the task file bytes (or of the tasks' canonical JSON lines)."""
    tasks: int
    """Tasks in the task file (all of them, whatever ``limit`` an invocation asked)."""
    settings: dict[str, dict[str, Any]]
    """Every setting ever run into this directory, by name: all fields except secrets
    (``api_key_env`` is the variable's name, never its value)."""
    invocations: list[RunInvocation] = Field(default_factory=list)
    """Every invocation of ``run`` on the directory, oldest first; together they plan the cells to grade."""
    models: dict[str, dict[str, Any]] | None = Field(default=None, exclude_if=lambda v: v is None)
    """What each setting's model accepts, as resolved before its first cell (``OUT/models.json``: the
    capability source, thinking forms, effort values, output cap, what ``reasoning`` was sent as), by
    setting name; written only when a provider resolved them, so other manifests are the bytes they were."""


class Grade(Record):
    """The grade of one planned cell (SPEC section 9)."""

    schema_version: int = SCHEMA_VERSION
    """The layout version (``SCHEMA_VERSION``)."""
    task_id: str
    """The ``Task.task_id`` graded."""
    setting: str
    """The setting whose response was graded."""
    sample: int = 0
    """0-based sample index of the cell."""
    status: GradeStatus
    """``correct-``/``wrong-`` (the rule's verdict) + ``valid``/``invalid`` (the envelope), or ``no-response``.
    A completed response without an extractable answer is ``wrong-invalid``: it stays in the denominator."""
    envelope_valid: bool | None = None
    """Whether the response was exactly the SPEC 7 envelope (None for ``no-response``)."""
    answer: str | None = None
    """The extracted answer text (None: none could be extracted, or no response)."""
    rule: str
    """The grading rule applied (the task's ``grading_rule``)."""
    pipeline_check: bool = False
    """Copied from the response: an ``oracle`` answer, not a model result."""
    reason: str | None = None
    """Why an executed rule judged the answer wrong: for ``python-call``, the answer is not a call of ``f`` with
    literal arguments, or ``f`` raised, timed out or returned another value; for ``program-input``, the program
    failed or printed another output on the answered input. None otherwise; written only when set, so the
    grades of every other rule are the lines they were."""
    steps: str | None = None
    """A ``loop-trace`` grade: one character per step of the oracle's list, ``1`` where the answer's step at that
    position has the oracle's values and ``0`` where it does not (missing, or the answer is not a JSON list:
    all ``0``). None for every other arm and for ``no-response``; written only when set."""
    prefix: int | None = None
    """A ``loop-trace`` grade: the longest correct prefix, how many steps were right before the first wrong one
    (the leading ``1`` s of ``steps``). None for every other arm; written only when set."""

    @field_validator("reason")
    @classmethod
    def _bounded_reason(cls, value: str | None) -> str | None:
        return None if value is None else bounded_reason(value)

    def to_json_line(self) -> str:
        """One canonical JSON line in declared field order, without ``reason``, ``steps`` and ``prefix`` when
        they are None (so the grades of every other arm and rule are the lines they were)."""
        data = self.model_dump(mode="json")
        for key in ("reason", "steps", "prefix"):
            if data[key] is None:
                del data[key]
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


R = TypeVar("R", bound=Record)


def write_jsonl(path: Path, records: Iterable[Record]) -> int:
    """Write records one per line (UTF-8, ``\\n`` endings); returns the count."""
    n = 0
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for rec in records:
            fh.write(rec.to_json_line() + "\n")
            n += 1
    return n


def tasks_bytes(tasks: list[Task]) -> bytes:
    """The exact bytes of ``tasks.jsonl``."""
    return "".join(t.to_json_line() + "\n" for t in tasks).encode("utf-8")


def read_jsonl(path: Path, model: type[R]) -> Iterator[R]:
    """Read records of one type; a missing file or a bad line raises ``RecordError`` in one line.

    The message names ``file:line``, the first field at fault and the problem,
    e.g. ``tasks.jsonl:3: field 'arm': Input should be ... (1 more problem)``; a line whose
    ``schema_version`` is newer than this code's says so and that a newer execstate reads it.
    Older versions read as the current one (``Record._known_version``).
    """
    path = Path(path)
    if not path.is_file():
        problem = "is a directory, not a file" if path.is_dir() else "does not exist"
        raise InputFileError(f"{model.__name__} records: {path} {problem}. Fix: pass the file the previous stage wrote")
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield model.model_validate_json(line)
            except ValidationError as exc:
                raise RecordError(f"{path}:{lineno}: {_line_problem(exc, model, path)}") from None


def _line_problem(exc: ValidationError, model: type[Record], path: Path) -> str:
    """What is wrong with a line and its fix: a newer layout needs a newer execstate, anything else a new file."""
    newer = next((e for e in exc.errors(include_url=False) if e["type"] == _NEWER_VERSION), None)
    if newer is not None:
        return (
            f"{newer['msg']}: a newer execstate wrote it. Fix: read {path.name} with an execstate at least as "
            "new as the one that wrote it, or re-create it with this version's stage that writes it"
        )
    return (
        f"{_first_problem(exc, model)}. Fix: correct or remove that line, or re-create {path.name} with the stage "
        "that writes it"
    )


def _first_problem(exc: ValidationError, model: type[Record]) -> str:
    """The first validation problem of a line as ``field 'a.b': message``, plus how many more there are."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    more = f" ({len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    if first["type"] == "json_invalid":
        return f"not valid JSON ({first['msg']}){more}"
    loc = ".".join(str(part) for part in first["loc"])
    if not loc:
        return f"not a {model.__name__} record: {first['msg']}{more}"
    value = repr(first.get("input"))
    value = value if len(value) <= 60 else value[:57] + "..."
    shown = "" if first["type"] == "missing" else f" (got {value})"
    return f"{model.__name__} field {loc!r}: {first['msg']}{shown}{more}"
