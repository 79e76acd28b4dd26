"""Parse and validate case specs (SPEC section 3) into typed records."""

from __future__ import annotations

import keyword
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from execstate.arms import arm_names, arm_order
from execstate.environments import EnvironmentSpec, parse_environment
from execstate.errors import SpecError, SpecProblem
from execstate.languages import DEFAULT_TRACE_STEPS, language_entry
from execstate.records import GRADING_RULES
from execstate.studies import SOURCES_KEY, STUDY_FILE, default_grading_rule, find_study, resolve_file, with_defaults

_TOP_KEYS = {
    "id",
    "study",
    "language",
    "program",
    "short_input",
    "long_input",
    "grading_rule",
    "checkpoint",
    "provenance",
    "invariant",
    "environment",
    "input_arm",
    "arms",
}
_REQUIRED = ("id", "study", "language", "program", "short_input", "long_input")
_DEFAULTABLE = ("study", "language", "program")
_CHECKPOINT_KEYS = {"loop", "loop_text", "variables", "inside_iteration", "inside_iterations", "sweep", "trace_steps"}
_INPUT_KEYS = {"generator", "args"}
_INVARIANT_KEYS = {"text", "check", "inputs", "placebo"}


def default_arms() -> tuple[str, ...]:
    """The arms of a case whose spec names none: execstate's own ``paper`` arms, whatever a plug-in adds."""
    return arm_names(group="paper", builtin=True)


class InputSource(BaseModel):
    """Where an input comes from: a file, or a generator program's stdout."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    file: Path | None = None
    generator: Path | None = None
    args: tuple[str, ...] = ()


class Checkpoint(BaseModel):
    """The selected loop and the ordered projection."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    loop: int | None = None
    """1-based line of the loop header, as given or resolved from ``loop_text``."""
    loop_text: str | None = None
    variables: tuple[str, ...]
    inside_iteration: int | None = None
    inside_iterations: tuple[int, ...] = ()
    """Extra inside checkpoints (SPEC 11 sweeps): one extra task ``<case>/inside-loop-state@k<k>`` each."""
    sweep: int | None = None
    """Extra inside checkpoints at ``sweep`` evenly spaced iterations 1..K (rounded; repeats dropped)."""
    trace_steps: int = DEFAULT_TRACE_STEPS
    """The ``loop-trace`` arm's cap: at most this many steps (iterations) in its list (at least 2)."""


class Invariant(BaseModel):
    """The ``[invariant]`` table: an audited, answer-free statement about the program (docs/pilot.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    text: str
    """The paragraph a guided prompt shows the model."""
    check: Path
    """The audit: a Python script run in the sandbox that exits 0 when every statement of the table holds."""
    inputs: tuple[Path, ...] = ()
    """Extra (small) inputs the clean program runs on; their outputs go to the audit with the short and long runs."""
    placebo: str | None = None
    """An audited but irrelevant true statement about the program (the placebo condition)."""


class CaseSpec(BaseModel):
    """One validated case spec; paths are absolute."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    schema_version: int = 1
    id: str
    study: str
    language: str
    """A language of the builder's registry (``execstate.languages.LANGUAGES``)."""
    program: Path
    short_input: InputSource
    long_input: InputSource
    grading_rule: str
    checkpoint: Checkpoint
    spec_path: Path
    provenance: dict[str, Any] = {}
    """The ``[provenance]`` table: what ``execstate construct`` chose and measured (copied into the tasks' meta)."""
    invariant: Invariant | None = None
    """The optional ``[invariant]`` table; the builder audits it (check ``invariant``)."""
    environment: EnvironmentSpec | None = None
    """``environment = "<preset>"`` or the ``[environment]`` table: packages and include directories its programs
    use (``execstate.environments``); None: the standard library only."""
    input_arm: bool = False
    """``input_arm = true``: the case also gets the input arm ``short-trace-input`` (the program and its short
    output shown; any standard input on which it prints that output is right). Off for the paper's grid."""
    arms: tuple[str, ...] = Field(default_factory=default_arms)
    """``arms = [...]``: which case arms (an arm whose spec has ``case_arm``) the case's tasks are, in arm order
    whatever the list's; default the paper's four (``default_arms``). A ``study.toml`` may give it for all its
    cases."""


def load_spec(path: Path) -> CaseSpec:
    """Read and validate one case spec over its study's defaults; raises ``SpecError`` on any problem.

    The study root, the defaults of ``study.toml`` and where a named file may lie:
    ``execstate.studies.find_study`` (docs/spec.md, section 3). A problem with a key a
    default gave is reported against the ``study.toml`` that gives it.
    """
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpecError(path, None, "case spec file not found", "check the path") from None
    except IsADirectoryError:
        raise SpecError(path, None, "is a directory, not a case spec file", "rename that directory") from None
    except OSError as exc:
        raise SpecError(path, None, f"cannot read the case spec ({exc.strerror})", "check the file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise SpecError(path, None, f"not valid TOML ({exc})", "correct the TOML syntax") from None
    except ValueError as exc:  # tomllib's int() of a number past Python's 4,300-digit limit
        raise SpecError(path, None, f"holds a number too long to read ({exc})", "write it as a string") from None
    if SOURCES_KEY in raw:
        fix = f"move sources to the {STUDY_FILE} of the study root (docs/spec.md, section 3)"
        raise SpecError(path, SOURCES_KEY, "only a study.toml may widen the folders specs may name", fix)
    _check_keys(path, raw, _TOP_KEYS, "")
    raw, stated = with_defaults(path, raw, find_study(path))
    for key in _REQUIRED:
        if key not in raw:
            default = f" here or as a default in a {STUDY_FILE} above" if key in _DEFAULTABLE else ""
            raise SpecError(path, key, "required key is missing", f"add `{key} = ...`{default} (see SPEC section 3)")
    case_id, study = _str(stated["id"], raw, "id"), _str(stated["study"], raw, "study")
    if not case_id.isprintable() or len(case_id) > 200:
        problem = f"id {case_id[:200]!r} has control characters or is over 200 characters"
        raise SpecError(path, "id", problem, 'use id = "<study>/<name>"')
    if not case_id.startswith(study + "/") or len(case_id) == len(study) + 1:
        raise SpecError(path, "id", f"id {case_id!r} is not of the form '<study>/<name>'", f'use id = "{study}/<name>"')
    language = _str(stated["language"], raw, "language")
    try:
        language_entry(language)
    except SpecProblem as exc:
        raise exc.at(stated["language"]) from None
    rule = raw.get("grading_rule", default_grading_rule(study))
    if rule not in GRADING_RULES:
        where = stated["grading_rule"]
        raise SpecError(where, "grading_rule", f"unknown rule {rule!r}", f"use one of {', '.join(GRADING_RULES)}")
    program = resolve_file(stated["program"], "program", _str(stated["program"], raw, "program"))
    if "checkpoint" not in raw:
        raise SpecError(
            path,
            "checkpoint",
            "no [checkpoint] table; automatic loop selection is not available yet",
            f"add [checkpoint] with `loop` or `loop_text` and `variables`, here or in a {STUDY_FILE} above",
        )
    return CaseSpec(
        id=case_id,
        study=study,
        language=language,
        program=program,
        short_input=_input(path, raw, "short_input"),
        long_input=_input(path, raw, "long_input"),
        grading_rule=rule,
        checkpoint=_checkpoint(stated["checkpoint"], raw["checkpoint"]),
        spec_path=path.resolve(),
        provenance=_provenance(path, raw.get("provenance", {})),
        invariant=_invariant(path, raw["invariant"]) if "invariant" in raw else None,
        environment=_environment(stated["environment"], raw["environment"]) if "environment" in raw else None,
        input_arm=_flag(stated["input_arm"], raw, "input_arm") if "input_arm" in raw else False,
        arms=_arms(stated["arms"], raw["arms"]) if "arms" in raw else default_arms(),
    )


def _arms(path: Path, value: Any) -> tuple[str, ...]:
    """The ``arms`` list, in arm order: each a case arm of the registry (built-in, registered or installed)."""
    known = arm_names(case_arm=True)
    listed = ", ".join(f'"{name}"' for name in known)
    fix = f"write arms = [{listed}] or a part of it, or remove the key"
    if not isinstance(value, list) or not value or not all(isinstance(a, str) for a in value):
        raise SpecError(path, "arms", f"expected a non-empty list of arm names, got {value!r}", fix)
    unknown = [a for a in value if a not in known]
    if unknown or len(set(value)) != len(value):
        what = f"unknown arm {unknown[0]!r}" if unknown else "an arm is listed twice"
        raise SpecError(path, "arms", f"{what} (known: {', '.join(known)})", fix)
    return tuple(sorted(value, key=arm_order))


def _flag(path: Path, raw: dict, key: str) -> bool:
    value = raw[key]
    if not isinstance(value, bool):
        raise SpecError(path, key, f"expected true or false, got {value!r}", f"write {key} = true")
    return value


def _environment(path: Path, value: Any) -> EnvironmentSpec:
    """The ``environment`` key or table stated in ``path`` (the case spec, or the ``study.toml`` giving it as a
    default); include directories are relative to that file's folder and must lie inside it."""
    try:
        return parse_environment(value, path.parent)
    except SpecProblem as exc:
        raise exc.at(path) from None


def _invariant(path: Path, table: Any) -> Invariant:
    """The ``[invariant]`` table: ``text`` and ``check`` required, ``inputs`` and ``placebo`` optional."""
    if not isinstance(table, dict):
        raise SpecError(path, "invariant", "expected a table", 'write [invariant] with text = "..." and check = "..."')
    _check_keys(path, table, _INVARIANT_KEYS, "invariant.")
    for key in ("text", "check"):
        if key not in table:
            fix = 'add text = "<the statement shown to the model>"' if key == "text" else 'add check = "audit.py"'
            raise SpecError(path, f"invariant.{key}", "required key is missing", fix)
    texts = {key: table.get(key) for key in ("text", "placebo")}
    for key, value in texts.items():
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise SpecError(
                path, f"invariant.{key}", f"expected a non-empty string, got {value!r}", f'write {key} = "..."'
            )
    inputs = table.get("inputs", [])
    if not isinstance(inputs, list) or not all(isinstance(i, str) for i in inputs):
        raise SpecError(
            path, "invariant.inputs", f"expected a list of file names, got {inputs!r}", 'write inputs = ["small1.txt"]'
        )
    return Invariant(
        text=str(table["text"]).strip(),
        check=resolve_file(path, "invariant.check", _str(path, table, "check")),
        inputs=tuple(resolve_file(path, "invariant.inputs", name) for name in inputs),
        placebo=str(texts["placebo"]).strip() if texts["placebo"] is not None else None,
    )


def _provenance(path: Path, table: Any) -> dict[str, Any]:
    """The optional ``[provenance]`` table: flat keys with strings, numbers, booleans or lists of them."""
    if not isinstance(table, dict):
        raise SpecError(path, "provenance", "must be a table", "write it as [provenance] with key = value lines")

    def plain(value: Any) -> bool:
        return isinstance(value, (str, int, float, bool))

    for key, value in table.items():
        if not (plain(value) or (isinstance(value, list) and all(plain(v) for v in value))):
            problem = f"value of {key!r} is a {type(value).__name__}"
            raise SpecError(path, f"provenance.{key}", problem, "use a string, number, boolean or a list of them")
    return dict(table)


def _check_keys(path: Path, table: dict, allowed: set[str], prefix: str) -> None:
    for key in table:
        if key not in allowed:
            raise SpecError(path, prefix + key, "unknown key", f"remove it or use one of: {', '.join(sorted(allowed))}")


def _str(path: Path, raw: dict, key: str) -> str:
    value = raw[key]
    if not isinstance(value, str) or not value:
        raise SpecError(path, key, f"expected a non-empty string, got {value!r}", f'write {key} = "..."')
    return value


def _input(path: Path, raw: dict, key: str) -> InputSource:
    value = raw[key]
    if isinstance(value, str):
        return InputSource(file=resolve_file(path, key, value))
    if not isinstance(value, dict):
        raise SpecError(
            path,
            key,
            f"expected a file name or {{ generator = ..., args = [...] }}, got {value!r}",
            f'write {key} = "input.txt" or {key} = {{ generator = "gen.py", args = ["1"] }}',
        )
    _check_keys(path, value, _INPUT_KEYS, key + ".")
    if "generator" not in value:
        raise SpecError(path, key + ".generator", "missing generator program", 'add generator = "gen.py"')
    args = value.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, (str, int)) for a in args):
        raise SpecError(path, key + ".args", f"expected a list of strings, got {args!r}", 'write args = ["1002"]')
    gen = resolve_file(path, key + ".generator", str(value["generator"]))
    return InputSource(generator=gen, args=tuple(str(a) for a in args))


def _checkpoint(path: Path, table: object) -> Checkpoint:
    if not isinstance(table, dict):
        raise SpecError(path, "checkpoint", "expected a table", "write a [checkpoint] table")
    _check_keys(path, table, _CHECKPOINT_KEYS, "checkpoint.")
    loop, text = table.get("loop"), table.get("loop_text")
    if (loop is None) == (text is None):
        raise SpecError(
            path,
            "checkpoint.loop",
            "give exactly one of `loop` (a line number) and `loop_text`",
            "keep one of the two keys",
        )
    if loop is not None and (not isinstance(loop, int) or isinstance(loop, bool) or loop < 1):
        raise SpecError(path, "checkpoint.loop", f"expected a 1-based line number, got {loop!r}", "write loop = 12")
    if text is not None and (not isinstance(text, str) or not text.strip()):
        raise SpecError(
            path, "checkpoint.loop_text", "expected the loop header's exact text", 'write loop_text = "for ch in S:"'
        )
    variables = table.get("variables")
    if not isinstance(variables, list) or not variables:
        raise SpecError(
            path,
            "checkpoint.variables",
            "expected a non-empty list of variable names",
            'write variables = ["ans", "cnt"]',
        )
    for name in variables:
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise SpecError(
                path,
                "checkpoint.variables",
                f"{name!r} is not a Python identifier",
                'list plain variable names such as "total"',
            )
    if len(set(variables)) != len(variables):
        raise SpecError(path, "checkpoint.variables", "a variable is listed twice", "list each name once")
    k = table.get("inside_iteration")
    if k is not None and (not isinstance(k, int) or isinstance(k, bool) or k < 1):
        raise SpecError(
            path,
            "checkpoint.inside_iteration",
            f"expected a positive integer, got {k!r}",
            "write inside_iteration = 502 or remove the key",
        )
    steps = table.get("trace_steps", DEFAULT_TRACE_STEPS)
    if not (_positive(steps) and steps >= 2):
        raise SpecError(
            path,
            "checkpoint.trace_steps",
            f"expected a whole number of at least 2, got {steps!r}",
            f"write trace_steps = {DEFAULT_TRACE_STEPS} or remove the key",
        )
    return Checkpoint(
        loop=loop,
        loop_text=text.strip() if text else None,
        variables=tuple(variables),
        inside_iteration=k,
        trace_steps=steps,
        **_sweep_keys(path, table),
    )


def _positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _sweep_keys(path: Path, table: dict) -> dict[str, Any]:
    """``inside_iterations`` (a list of positive iterations) and ``sweep`` (a count of at least 2)."""
    ks = table.get("inside_iterations", [])
    if not isinstance(ks, list) or not all(_positive(k) for k in ks) or len(set(ks)) != len(ks):
        raise SpecError(
            path,
            "checkpoint.inside_iterations",
            f"expected a list of distinct positive iterations, got {ks!r}",
            "write inside_iterations = [2, 50, 400] or remove the key",
        )
    n = table.get("sweep")
    if n is not None and not (_positive(n) and n >= 2):
        raise SpecError(
            path, "checkpoint.sweep", f"expected a whole number of at least 2, got {n!r}", "write sweep = 5"
        )
    return {"inside_iterations": tuple(ks), "sweep": n}


def find_specs(paths: list[Path]) -> list[Path]:
    """Expand each path: a file is a spec; a directory is searched recursively for ``case.toml``."""
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found.extend(sorted(p.rglob("case.toml")))
        else:
            found.append(p)
    return found
