"""Admit one case: run the nine checks of SPEC section 4 and make its four tasks.

Language-specific work goes through a ``Language`` adapter; nothing here
knows which language the program is written in.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from execstate.builder._fresh import Fresh, NoCandidate, NotRefreshable, choose_fresh
from execstate.builder._invariant import InvariantRefused, audit_invariant
from execstate.builder._language import (
    STATE_FAILED,
    CheckpointMeasuring,
    CheckpointStates,
    Endpoint,
    Instrumented,
    Language,
    Variation,
)
from execstate.builder._languages import helper_language, language_entry, make_language
from execstate.builder._measurements import ONE_RUN, measure_checkpoints_once, measure_once
from execstate.builder._neighbours import (
    NEIGHBOUR_REACH,
    gallop_points,
    inside_neighbours,
    post_neighbours,
    sweep_iterations,
)
from execstate.builder._options import BuildOptions
from execstate.builder._python import source_lines
from execstate.builder._spec import CaseSpec, InputSource
from execstate.environments import Environment, EnvironmentUnavailable, prepare, undeclared_import
from execstate.errors import SpecError, SpecProblem, remove_tree
from execstate.metrics import Measurement
from execstate.records import SWEEP_SEPARATOR, Exclusion, Metrics, Task, fresh_twin
from execstate.sandbox import SandboxFault, SandboxResult

_PACKAGE = Path(__file__).parent.parent
"""The ``execstate`` package folder: frames in it locate an unexpected exception."""


class Excluded(Exception):
    """A case that cannot become tasks: the check it failed (``check``) and the evidence (``reason``).

    The one exception for an exclusion. Raised inside a case build, it becomes the case's
    ``Exclusion`` record (``check`` one of ``records.Check``); raised while construct makes a
    problem's spec, it becomes the problem's ``Outcome``, whose ``check`` may also name the
    construction step that failed (``tests``, ``inputs``, ``loops``, ``projection``).
    """

    def __init__(self, check: str, reason: str) -> None:
        super().__init__(reason)
        self.check, self.reason = check, reason


@dataclass
class _Case:
    spec: CaseSpec
    lang: Language
    source: str
    workdir: Path
    generators: Language
    """Input generators are helper programs: Python whatever the case's language (``helper_language``)."""
    opts: BuildOptions
    env: Environment | None = None
    """The case's declared environment, prepared (None: the standard library only)."""

    def run(self, source: str, stdin: bytes, variation: Variation | None = None) -> SandboxResult:
        return self.lang.run(source, stdin, self.workdir, seed=variation.seed if variation else 0)


def build_case(spec: CaseSpec, opts: BuildOptions, fresh: Fresh | None = None) -> list[Task] | Exclusion:
    """Four tasks in arm order, or the exclusion naming the failed check and its evidence.

    Never raises for one case's trouble: any exception becomes an exclusion
    (``run`` for a ``SandboxFault``, the program's doing; else ``internal``: ``failed_case``).
    ``fresh``: build the case on fresh inputs drawn from its seed (``execstate.builder._fresh``); the
    records of a case so built carry the id ``<id>~fresh`` (those of a case that cannot be refreshed, kept
    with its published inputs, its own id).
    """
    tmp = Path(tempfile.mkdtemp(prefix="execstate-case-"))
    ids = [spec.id if fresh is None else fresh_twin(spec.id)]
    try:
        return _admit(spec, opts, tmp, fresh, ids)
    except Excluded as exc:
        return Exclusion(case_id=ids[-1], check=exc.check, reason=exc.reason, spec_path=str(spec.spec_path))
    except SpecProblem as exc:
        reported = exc if isinstance(exc, SpecError) else exc.at(spec.spec_path)
        return Exclusion(case_id=ids[-1], check="spec", reason=str(reported), spec_path=str(spec.spec_path))
    except Exception as exc:  # one bad case never stops the batch
        return failed_case(ids[-1], exc, str(spec.spec_path))
    finally:
        remove_tree(tmp)


def failed_case(case_id: str, exc: BaseException, spec_path: str | None = None) -> Exclusion:
    """The exclusion for an exception out of building a case, decided by its type.

    A ``SandboxFault`` is the program's doing (e.g. a working directory it left unremovable): a ``run``
    exclusion with the fault's own message and fix. Anything else is the builder's: ``internal``,
    naming the exception and the last frame in execstate it came through.
    """
    if isinstance(exc, SandboxFault):
        return Exclusion(case_id=case_id, check="run", reason=f"running the program: {exc}", spec_path=spec_path)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).is_relative_to(_PACKAGE)]
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    return Exclusion(
        case_id=case_id,
        check="internal",
        reason=f"the builder failed on this case: {type(exc).__name__}: {exc}{where}. Fix: report it with the case",
        spec_path=spec_path,
    )


def _admit(spec: CaseSpec, opts: BuildOptions, tmp: Path, fresh: Fresh | None, ids: list[str]) -> list[Task]:
    """The case's tasks; ``ids[-1]`` is the id its records carry (a fresh build's case that cannot be
    refreshed appends its published id)."""
    lang, generators = make_language(spec.language, opts), helper_language(opts, "gen.py")
    env = _environment(spec, opts)
    if env is not None:  # the program and its generators alike see the declared packages and headers
        lang, generators = lang.with_environment(env), generators.with_environment(env)
    source = _read_source(spec)
    loop_line = _locate_loop(spec, lang, source)
    case = _Case(spec, lang, source, tmp, generators, opts, env)
    short, long = _make_input(case, spec.short_input, "short_input"), _make_input(case, spec.long_input, "long_input")
    if fresh is None:
        return _admit_inputs(case, loop_line, short, long, None, ids)
    failed: list[tuple[dict, Excluded]] = []
    for drawn_short, drawn_long, fresh_meta in _fresh_inputs(case, fresh, short, long, ids):
        record = fresh_meta["fresh"]
        if failed:  # closer candidates failed a check: the record says which and why
            record["failed_checks"] = [
                {"candidate": r["candidate"], "check": e.check, "reason": e.reason[:300]} for r, e in failed
            ]
        try:
            return _admit_inputs(case, loop_line, drawn_short, drawn_long, fresh_meta, ids)
        except Excluded as exc:
            if record is False:
                raise
            failed.append((record, exc))
    first, closest = failed[0]
    raise Excluded(
        closest.check,
        f"fresh candidate #{first['candidate']} (the closest in long trace): {closest.reason}"
        + (
            f"; the {len(failed) - 1} other candidate(s) within the bounds failed a check too"
            if len(failed) > 1
            else ""
        ),
    )


def _admit_inputs(
    case: _Case, loop_line: int, short: bytes, long: bytes, fresh_meta: dict | None, ids: list[str]
) -> list[Task]:
    """The nine checks and the tasks of ``case`` on these inputs (``fresh_meta``: the keys a fresh build adds)."""
    spec, lang, source, env = case.spec, case.lang, case.source, case.env
    outs = {name: _clean_outputs(case, name, data) for name, data in (("short", short), ("long", long))}
    traces = {name: _trace_lengths(case, data, name, outs[name]) for name, data in (("short", short), ("long", long))}
    if not max(traces["short"]) < min(traces["long"]):
        raise Excluded(
            "trace-order",
            f"trace length of the short input {traces['short']} is not strictly below "
            f"that of the long input {traces['long']} in three measurements",
        )
    K = _count_iterations(case, loop_line, long)
    if K < 2:
        raise Excluded(
            "iterations",
            f"the selected loop (line {loop_line}) runs {K} iteration(s) on the long input; at least 2 are needed",
        )
    k = spec.checkpoint.inside_iteration or K // 2 + 1
    if k > K:
        raise Excluded("reachability", f"inside_iteration {k} exceeds the {K} iterations of the loop on the long input")
    variables = spec.checkpoint.variables
    inst = {arm: lang.instrument(source, loop_line, variables, arm, k) for arm in ("inside", "post")}
    states = _states_together(case, loop_line, long, k, K)
    oracles = {arm: states.oracle(arm) if states else _state_oracle(case, inst[arm], long, arm) for arm in inst}
    _check_fields(oracles["inside"], oracles["post"])
    for arm in ("inside", "post"):
        _check_preservation(case, inst[arm], arm, {"short": (short, outs["short"]), "long": (long, outs["long"])})
    meta = {
        "k": k,
        "K": K,
        "loop_line": loop_line,
        "loop_header": source_lines(source)[loop_line - 1].strip(),
        "variables": list(variables),
        "trace_short": traces["short"][0],
        "trace_long": traces["long"][0],
        "hash_seeds": [v.seed for v in lang.variations],
        "instrument_prefix": inst["inside"].prefix,
    }
    if spec.provenance:
        meta["provenance"] = dict(spec.provenance)
    if fresh_meta is not None:
        meta.update(fresh_meta)
    if env is not None:
        meta["environment"] = env.record()
    if spec.invariant is not None:
        meta["invariant"] = _audit(case, {"short": (short, outs["short"]), "long": (long, outs["long"])}, oracles)
    probe = states.prober(_prober(case, loop_line, long)) if states else _prober(case, loop_line, long)
    near = {"inside": inside_neighbours(probe, k, K), "post": post_neighbours(probe, k, K, oracles["post"])}
    ends = {
        "inside": Endpoint(loop_line, variables, "inside", k, inst["inside"]),
        "post": Endpoint(loop_line, variables, "post", k, inst["post"]),
    }
    plan = _plan(source, short, long, outs, oracles, Endpoint(loop_line, variables), ends, near)
    if spec.input_arm:
        plan.append(_input_row(spec, source, short, outs["short"].decode("utf-8"), Endpoint(loop_line, variables)))
    tasks = _tasks(case, plan + _sweep_plan(case, loop_line, K, long, oracles["inside"], states), meta)
    if ids[-1] == spec.id:
        return tasks
    cut = len(spec.id)
    return [t.model_copy(update={"case_id": ids[-1], "task_id": ids[-1] + t.task_id[cut:]}) for t in tasks]


def _fresh_inputs(
    case: _Case, fresh: Fresh, short: bytes, long: bytes, ids: list[str]
) -> list[tuple[bytes, bytes, dict]]:
    """The inputs and meta of a ``--fresh`` build: drawn ones, best first (``meta["fresh"]``: how), or the published
    ones with ``meta["fresh"] = False`` and ``meta["fresh_note"]`` saying why (the published id appended to ``ids``)."""
    try:
        ranked = choose_fresh(case, fresh, short, long)
    except NotRefreshable as exc:
        if fresh.only:
            raise Excluded("fresh", f"not refreshable: {exc}") from None
        ids.append(case.spec.id)
        return [(short, long, {"fresh": False, "fresh_note": f"not refreshable: {exc}"})]
    except NoCandidate as exc:
        raise Excluded("fresh", str(exc)) from None
    return [(drawn_short, drawn_long, {"fresh": record}) for drawn_short, drawn_long, record in ranked]


def _prober(case: _Case, loop_line: int, data: bytes) -> Callable[[str, int], str | None]:
    """``probe(mode, k)`` for neighbour oracles: one run at another iteration; None if it fails."""

    def probe(mode: str, k: int) -> str | None:
        inst = case.lang.instrument(case.source, loop_line, case.spec.checkpoint.variables, mode, k)  # type: ignore[arg-type]
        res = case.run(inst.source, data)
        text = res.stdout.decode("utf-8", "replace") if res.ok else ""
        return text[:-1] if text.count("\n") == 1 and text.endswith("\n") else None

    return probe


def _sweep_plan(
    case: _Case, loop_line: int, K: int, long: bytes, inside_oracle: str, states: _States | None
) -> list[tuple]:
    """Plan rows of the extra inside tasks of a checkpoint sweep (SPEC 11), checked like the inside arm."""
    rows = []
    for kk in sweep_iterations(case.spec.checkpoint, K):
        if kk > K:
            raise Excluded("reachability", f"sweep iteration {kk} exceeds the {K} iterations of the loop")
        ins = case.lang.instrument(case.source, loop_line, case.spec.checkpoint.variables, "inside", kk)
        known = states.sweep_oracle(kk) if states else None
        oracle = known or _state_oracle(case, ins, long, f"inside@k{kk}")
        a, b = json.loads(oracle), json.loads(inside_oracle)
        if list(a) != list(b):
            raise Excluded("fields", f"sweep checkpoint k={kk} emits keys {list(a)}, the inside arm {list(b)}")
        suffix = f"{SWEEP_SEPARATOR}{kk}"
        end = Endpoint(loop_line, case.spec.checkpoint.variables, "inside", kk, ins)
        rows.append(("inside-loop-state", ins.source, long, oracle, "json", end, suffix, {"k": kk, "sweep": True}))
    return rows


POST_WINDOW = 64
"""Iterations on each side of k whose post states the states copy prints (the neighbour search rarely
looks further; beyond, each is one run of the post copy, as without the states copy)."""


@dataclass
class _States:
    """The states of one run per seed of the states copy (``CheckpointStates``), parsed.

    ``runs[i]`` holds the ``i``-th variation's run: ``inside`` (iteration -> state line, None where the
    projection failed) and ``post`` (the iterations of each loop execution within the window, and its
    exit state line or None). Every state is exactly what the inside or post copy of that iteration prints.
    """

    case: _Case
    loop_line: int
    data: bytes
    k: int
    window: tuple[int, int]
    runs: list[tuple[dict[int, str | None], list[tuple[frozenset[int], str | None]]]]
    marks: frozenset[int] = frozenset()
    """Iterations beyond the window whose post states the reference run printed too (``gallop_points``)."""

    def _post(self, run: int, j: int) -> tuple[bool, str | None]:
        """(found, state): the exit state of the execution holding iteration ``j`` in run ``run``."""
        for iterations, state in self.runs[run][1]:
            if j in iterations:
                return True, state
        return False, None

    def _checked(self, arm: str, lines: list[str | None]) -> str | None:
        """The oracle from the seeds' lines, checked as ``_state_oracle`` checks the copies' outputs; None
        when a seed has no line (that path tells why, with the failing run's own evidence)."""
        if any(line is None for line in lines):
            return None
        texts = [(line or "").encode("utf-8") + b"\n" for line in lines]
        _check_state_outputs(self.case, arm, texts)
        return texts[0].decode("utf-8")

    def oracle(self, arm: str) -> str:
        """The inside or post oracle; the per-copy runs (``_state_oracle``) when a seed's run lacks it."""
        if arm == "inside":
            lines = [run[0].get(self.k) for run in self.runs]
        else:
            lines = [self._post(i, self.k)[1] for i in range(len(self.runs))]
        found = self._checked(arm, lines)
        if found is not None:
            return found
        variables = self.case.spec.checkpoint.variables
        inst = self.case.lang.instrument(self.case.source, self.loop_line, variables, arm, self.k)  # type: ignore[arg-type]
        return _state_oracle(self.case, inst, self.data, arm)

    def sweep_oracle(self, kk: int) -> str | None:
        return self._checked(f"inside@k{kk}", [run[0].get(kk) for run in self.runs])

    def prober(self, separate: Callable[[str, int], str | None]) -> Callable[[str, int], str | None]:
        """The neighbour probe answered from the reference run, and by ``separate`` beyond what it printed."""

        def probe(mode: str, j: int) -> str | None:
            inside, _ = self.runs[0]
            if mode == "inside" and j in inside:
                return inside[j]
            if mode == "post" and (self.window[0] <= j <= self.window[1] or j in self.marks):
                return self._post(0, j)[1]  # an execution that never exits normally prints nothing: None
            return separate(mode, j)

        return probe


def _states_together(case: _Case, loop_line: int, long: bytes, k: int, K: int) -> _States | None:
    """One run per seed of the states copy, parsed; None when the language has no states copy, a run
    failed (the per-copy runs then decide, with their own evidence) or ``per_arm_measurements`` is on."""
    lang = case.lang
    if not ONE_RUN[0] or not isinstance(lang, CheckpointStates):
        return None
    sweep = [kk for kk in sweep_iterations(case.spec.checkpoint, K) if kk <= K]
    near = range(max(1, k - NEIGHBOUR_REACH), min(K, k + NEIGHBOUR_REACH) + 1)
    window = (max(1, k - POST_WINDOW), min(K, k + POST_WINDOW))
    marks = tuple(j for j in gallop_points(k, K) if not window[0] <= j <= window[1])
    runs: list[tuple[dict[int, str | None], list[tuple[frozenset[int], str | None]]]] = []
    for i, variation in enumerate(lang.variations):
        inside = (k, *sweep, *(near if i == 0 else ()))
        copy = lang.states_copy(
            case.source,
            loop_line,
            case.spec.checkpoint.variables,
            k,
            tuple(inside),
            window,
            stop=i > 0,
            marks=() if i > 0 else marks,
        )
        res = case.run(copy.source, long, variation)
        if not res.ok:
            return None
        parsed = _parse_states(res.stdout)
        if parsed is None:
            return None
        runs.append(parsed)
    return _States(case, loop_line, long, k, window, runs, frozenset(marks))


def _parse_states(out: bytes) -> tuple[dict[int, str | None], list[tuple[frozenset[int], str | None]]] | None:
    inside: dict[int, str | None] = {}
    post: list[tuple[frozenset[int], str | None]] = []
    try:
        for line in out.decode("utf-8").split("\n")[:-1]:
            label, _, state = line.partition("\t")
            value = None if state == STATE_FAILED else state
            if label.startswith("inside@"):
                inside[int(label[7:])] = value
            elif label.startswith("post@"):
                post.append((frozenset(int(j) for j in label[5:].split(",")), value))
            else:
                return None
    except ValueError:  # not UTF-8, or not a label the copy prints
        return None
    return inside, post


def _audit(case: _Case, runs: dict[str, tuple[bytes, bytes]], oracles: dict[str, str]) -> dict:
    """The audited ``[invariant]`` for the tasks' meta; ``Excluded("invariant")`` when it is refused."""
    checker = helper_language(case.opts, "check.py")
    try:
        return audit_invariant(
            case.spec,
            case.source,
            [(name, data, out) for name, (data, out) in runs.items()],
            lambda data: case.run(case.source, data),
            lambda text, stdin: checker.run(text, stdin, case.workdir),
            {"long": runs["long"][1].decode("utf-8"), **oracles},
        )
    except InvariantRefused as exc:
        raise Excluded("invariant", f"{case.spec.spec_path} [invariant]: {exc}") from None


def _environment(spec: CaseSpec, opts: BuildOptions) -> Environment | None:
    """The spec's declared environment, installed (cached) for the build's interpreter; None if it declares none."""
    if spec.environment is None:
        return None
    try:
        return prepare(spec.environment, opts.python)
    except EnvironmentUnavailable as exc:
        raise Excluded("spec", f"{spec.spec_path} [environment]: {exc}") from None


def _read_source(spec: CaseSpec) -> str:
    try:
        return spec.program.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(spec.spec_path, "program", f"{spec.program} is not UTF-8 ({exc})", "save it as UTF-8") from None


def _locate_loop(spec: CaseSpec, lang: Language, source: str) -> int:
    try:
        cp = spec.checkpoint
        return lang.locate_loop(source, cp.loop, cp.loop_text, cp.variables)
    except SpecProblem as exc:
        problem = f"{spec.program}: {exc.problem}" if exc.key == "program" else exc.problem
        raise SpecError(spec.spec_path, exc.key, problem, exc.fix) from None
    except (RecursionError, MemoryError) as exc:
        problem = f"{spec.program} is nested too deeply to compile ({type(exc).__name__})"
        raise SpecError(spec.spec_path, "program", problem, "flatten the most deeply nested expression") from None


def _make_input(case: _Case, src: InputSource, key: str) -> bytes:
    if src.file is not None:
        _check_input_size(case, key, f"file {src.file.name}", src.file.stat().st_size)
        data = src.file.read_bytes()
    else:
        assert src.generator is not None
        try:
            text = src.generator.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            problem = f"{src.generator.name} is not UTF-8 ({exc})"
            raise SpecError(case.spec.spec_path, key, problem, "save it as UTF-8") from None
        res = case.generators.run(text, b"", case.workdir, args=src.args)
        if not res.ok:
            raise SpecError(
                case.spec.spec_path,
                key,
                f"input generator {src.generator.name} failed: {res.describe()}",
                "make the generator exit 0 and print the input on stdout",
            )
        data = res.stdout
        _check_input_size(case, key, f"output of generator {src.generator.name}", len(data))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise SpecError(case.spec.spec_path, key, "the input is not UTF-8 text", "provide a UTF-8 input") from None
    return data


def _check_input_size(case: _Case, key: str, origin: str, size: int) -> None:
    limit = case.opts.max_input_bytes
    if size > limit:
        raise Excluded(
            "input-size",
            f"{key} ({origin}) is {size} bytes, more than max_input_bytes = {limit}; "
            "use a shorter input or raise BuildOptions.max_input_bytes",
        )


def _clean_outputs(case: _Case, name: str, data: bytes) -> bytes:
    reference, *others = case.lang.variations
    first = case.run(case.source, data, reference)
    if not first.ok:
        undeclared = undeclared_import(first.stderr, "the case spec")  # names the module and the declaration
        raise Excluded("run", f"clean program on the {name} input: {undeclared or first.describe()}")
    for variation in others:
        other = case.run(case.source, data, variation)
        if not other.ok:
            raise Excluded("run", f"clean program on the {name} input, {variation.name}: {other.describe()}")
        if other.stdout != first.stdout:
            raise Excluded(
                "determinism",
                f"stdout on the {name} input differs between {reference.name} and {variation.name}: "
                f"{_clip(first.stdout)} vs {_clip(other.stdout)}",
            )
    try:
        first.stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise Excluded("run", f"stdout on the {name} input is not UTF-8 text") from None
    return first.stdout


def _trace_lengths(case: _Case, data: bytes, name: str, expected: bytes) -> list[int]:
    values = []
    for repeat in range(3):
        m = measure_once(case.lang, case.source, data, None, state=False, repeat=repeat)
        if m.status != "ok" or m.trace_length is None:
            raise Excluded("run", f"measuring the trace length on the {name} input: {m.status}; {m.detail}")
        _check_measured_stdout(m, expected, f"the clean program on the {name} input", "clean run")
        values.append(m.trace_length)
    return values


def _check_measured_stdout(m: Measurement, expected: bytes, what: str, run: str) -> None:
    """A measurement counts the run the task shows only if it printed the same bytes."""
    if m.stdout != expected:
        raise Excluded(
            "measurement",
            f"measuring {what} printed {_clip(m.stdout)}, not the {run}'s stdout {_clip(expected)}; "
            "the program behaves differently when measured, so its metrics would describe another run",
        )


def _count_iterations(case: _Case, loop_line: int, data: bytes) -> int:
    counted = case.lang.instrument(case.source, loop_line, case.spec.checkpoint.variables, "count")
    res = case.run(counted.source, data)
    K = case.lang.iterations(res)
    if K is None:
        raise Excluded("run", f"counting iterations of the selected loop failed: {res.describe()}")
    return K


def _state_oracle(case: _Case, inst: Instrumented, data: bytes, arm: str) -> str:
    variations = case.lang.variations
    results = [case.run(inst.source, data, variation) for variation in variations]
    for variation, res in zip(variations, results):
        if not res.ok:
            raise _checkpoint_failure(case.lang, arm, variation, res)
        if not res.stdout:
            raise Excluded(
                "reachability",
                f"the {arm} checkpoint never fired on the long input (the program ran to its end without reaching it)",
            )
    texts = [r.stdout for r in results]
    _check_state_outputs(case, arm, texts)
    text = texts[0].decode("utf-8")
    if text.count("\n") != 1 or not text.endswith("\n"):
        raise Excluded("reachability", f"the {arm} checkpoint output is not exactly one line: {_clip(texts[0])}")
    return text


def _check_state_outputs(case: _Case, arm: str, texts: list[bytes]) -> None:
    """Checks ``checkpoint-size`` and ``oracle-determinism`` on what one checkpoint printed in each variation."""
    limit = case.opts.max_checkpoint_bytes
    if max(map(len, texts)) > limit:
        raise Excluded(
            "checkpoint-size",
            f"the {arm} checkpoint printed {max(map(len, texts))} bytes, more than max_checkpoint_bytes = {limit}; "
            "project fewer or smaller variables or raise BuildOptions.max_checkpoint_bytes",
        )
    if len(set(texts)) > 1:
        raise Excluded(
            "oracle-determinism",
            f"the {arm} checkpoint emitted different states across "
            f"{', '.join(v.name for v in case.lang.variations)}: " + " vs ".join(_clip(t) for t in texts),
        )


def _checkpoint_failure(lang: Language, arm: str, variation: Variation, res: SandboxResult) -> Excluded:
    fault = lang.checkpoint_fault(res.stderr)
    if fault is not None and fault[0] == "unbound":
        return Excluded(
            "reachability",
            f"a projected variable is not bound at the {arm} checkpoint ({fault[1]}); "
            "project variables assigned before the loop starts",
        )
    if fault is not None:
        return Excluded("fields", f"{arm} checkpoint: {fault[1]}")
    return Excluded("run", f"instrumented program ({arm}), {variation.name}: {res.describe()}")


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", type(None): "null", list: "array", dict: "object"}[type(value)]


def _check_fields(inside: str, post: str) -> None:
    a, b = json.loads(inside), json.loads(post)
    if list(a) != list(b):
        raise Excluded("fields", f"checkpoints emit different keys: {list(a)} vs {list(b)}")
    differing = [key for key in a if _json_type(a[key]) != _json_type(b[key])]
    if differing:
        detail = ", ".join(f"{key}: {_json_type(a[key])} vs {_json_type(b[key])}" for key in differing)
        raise Excluded("fields", f"top-level JSON types differ between inside and post ({detail})")
    if inside == post:
        raise Excluded("change", f"no projected field changes between the checkpoints: both are {inside.strip()}")


def _check_preservation(case: _Case, inst: Instrumented, arm: str, inputs: dict) -> None:
    variant = case.lang.disabled(inst)
    for name, (data, expected) in inputs.items():
        res = case.run(variant, data)
        if not res.ok or res.stdout != expected:
            raise Excluded(
                "preservation",
                f"the {arm} instrumented copy with its checkpoint disabled does not "
                f"reproduce the clean output on the {name} input: "
                f"{res.describe() if not res.ok else _clip(res.stdout)} vs {_clip(expected)}",
            )


def _clip(data: bytes, n: int = 120) -> str:
    text = data.decode("utf-8", "replace")
    return repr(text if len(text) <= n else text[:n] + f"... ({len(text)} chars)")


def _plan(
    source: str, short: bytes, long: bytes, outs: dict, oracles: dict, clean: Endpoint, ends: dict, near: dict
) -> list[tuple]:
    """Rows (arm, shown source, input, oracle, answer kind, measured endpoint, id suffix, extra meta).

    Extra meta holds neighbour oracles (``neighbours``), which no prompt shows: a state arm's states at
    nearby checkpoints, a final arm's output on the other arm's input.
    """
    state = {arm: {"neighbours": near[arm]} for arm in ("inside", "post")}
    final = {name: outs[name].decode("utf-8") for name in ("short", "long")}
    return [
        ("short-trace-final", source, short, final["short"], "text", clean, "", _other_output("long", final["long"])),
        ("long-trace-final", source, long, final["long"], "text", clean, "", _other_output("short", final["short"])),
        (
            "inside-loop-state",
            ends["inside"].inst.source,
            long,
            oracles["inside"],
            "json",
            ends["inside"],
            "",
            state["inside"],
        ),
        ("post-loop-state", ends["post"].inst.source, long, oracles["post"], "json", ends["post"], "", state["post"]),
    ]


def _shown_meta(extra: dict) -> dict:
    """A plan row's extra meta, without what only decides the task's fields (``shown_input``)."""
    return {key: value for key, value in extra.items() if key != "shown_input"}


INPUT_QUESTION = (
    "Input prediction: give a standard input on which this program prints exactly the following output "
    "(any such input is right; it is run to check):"
)
"""The first comment line the input arm adds below the program (``short-trace-input``)."""


def _input_row(spec: CaseSpec, source: str, short: bytes, output: str, clean: Endpoint) -> tuple:
    """The plan row of the input arm: the clean program with the question and the short output in comments
    below it; no input shown; the oracle is the short input (one right answer), and ``meta.output`` the output
    an answered input must make the program print under ``meta.output_rule`` (the case's grading rule)."""
    mark = language_entry(spec.language).line_comment
    lines = [INPUT_QUESTION, *(output[:-1] if output.endswith("\n") else output).split("\n")]
    shown = source.rstrip("\n") + "\n\n" + "".join(f"{mark} {line}".rstrip() + "\n" for line in lines)
    extra = {"output": output, "output_rule": spec.grading_rule, "shown_input": ""}
    return ("short-trace-input", shown, short, short.decode("utf-8"), "text", clean, "", extra)


MAX_NEIGHBOUR_OUTPUT = 10_000
"""A final arm's meta keeps the other input's output only up to this many characters (the sibling task has it)."""


def _other_output(name: str, output: str) -> dict:
    """A final arm's neighbour oracle: the output on the other arm's input, when it is short enough."""
    return {"neighbours": [{"input": name, "output": output}]} if len(output) <= MAX_NEIGHBOUR_OUTPUT else {}


def _measure_together(case: _Case, plan: list[tuple]) -> dict[int, Measurement]:
    """Measurements of the plan's rows on the long input from one run (``CheckpointMeasuring``), by row.

    The clean run to its end is the long final arm's row; each state row's metrics are its snapshot.
    Empty when the language cannot, the program cannot be measured so (the adapter says None: each
    row is then measured on its own, with the same numbers), or ``per_arm_measurements`` is on.
    """
    lang = case.lang
    finals = [i for i, row in enumerate(plan) if row[0] == "long-trace-final"]
    if not ONE_RUN[0] or not isinstance(lang, CheckpointMeasuring) or len(finals) != 1:
        return {}
    final = finals[0]
    long = plan[final][2]
    states = [i for i, row in enumerate(plan) if row[5].inst is not None and row[2] == long]
    if not states:
        return {}
    got = measure_checkpoints_once(lang, case.source, long, plan[final][5], tuple(plan[i][5] for i in states))
    if got is None:
        return {}
    whole, parts = got
    return {final: whole, **dict(zip(states, parts))}


def _tasks(case: _Case, plan: list[tuple], meta: dict) -> list[Task]:
    spec, source = case.spec, case.source
    sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
    cyc = case.lang.cyclomatic(source)
    toolchain: dict = {}
    tasks = []
    together = _measure_together(case, plan)
    for i, (arm, text, data, oracle, kind, end, suffix, extra) in enumerate(plan):
        m = together.get(i) or measure_once(case.lang, source, data, end, state=True)
        if m.status != "ok":
            raise Excluded("run", f"measuring metrics of {arm}{suffix}: {m.status}; {m.detail}")
        expected = extra.get("output", oracle)  # the input arm's oracle is an input; its run prints meta.output
        if not (i in together and end.inst is not None and not m.stdout):  # a snapshot prints nothing of its own:
            # the run it was taken in is the long final row's, whose stdout is checked
            _check_measured_stdout(m, expected.encode("utf-8"), arm, "instrumented run" if end.inst else "clean run")
        toolchain = case.lang.task_meta(m)
        tasks.append(
            Task(
                task_id=f"{spec.id}/{arm}{suffix}",
                case_id=spec.id,
                study=spec.study,
                language=spec.language,
                arm=arm,
                source=text,
                input=extra.get("shown_input", data.decode("utf-8", "replace")),
                oracle=oracle,
                answer_kind=kind,
                grading_rule="program-input" if "output_rule" in extra else spec.grading_rule,
                source_sha256=sha,
                metrics=Metrics(
                    trace_length=m.trace_length, peak_state=m.peak_state, state_load=m.state_load, cyclomatic=cyc
                ),
                meta={**meta, **toolchain, "spec": spec.spec_path.name, **_shown_meta(extra)},
            )
        )
    return tasks
