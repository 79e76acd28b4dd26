"""Automatic case construction (SPEC section 5): a problem and its pool of inputs -> one case spec.

For each problem the constructor

1. runs the program on every test input in the sandbox: a wrong answer or a
   crash on a test with an expected output excludes the problem (check
   ``tests``); an input the program cannot finish within the limits is only
   unusable (a slow interpreter is not a wrong program);
2. measures the trace length of every passing input, smallest inputs first
   (once two inputs are over the cap, larger ones are not measured);
3. picks short = the passing input with the smallest trace and long = the one
   with the largest trace not above ``max_trace`` that is at least
   ``min_ratio`` times short in each of three repeated measurements; with no
   such input and a generator that takes a size, asks it for inputs of sizes
   ``generator_sizes`` (seed ``GENERATOR_SEED``) until the bounds are met;
4. counts every loop's iterations on the long input and tries the loops that
   run at least twice, most iterations first (ties: first line), at most
   ``max_loops`` of them;
5. for a loop, probes the candidate variables (``ConstructLanguage.candidates``) at
   both checkpoints and keeps those that are JSON-representable with at most
   ``max_value_chars`` characters each and of one JSON type at both; prefers
   scalars, then variables the loop both reads and writes, then first
   assignment; takes up to ``max_variables``, swapping the last for the best
   changing one when none of them changes;
6. builds the proposed spec with the unchanged builder (``build_case``): the
   first loop whose spec is admitted wins; each rejection is recorded.

Everything it considered, with its numbers and why it lost, goes to
``construct.json`` beside the spec; the chosen numbers also go to the spec's
``[provenance]`` table, which the builder copies into each task's ``meta``.
Nothing here depends on time or on the order problems finish in: the same
pool gives the same specs byte for byte. ``execstate build`` then admits or
excludes the written specs by the nine checks, like any hand-written spec.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from execstate.arms import arm_order
from execstate.builder import (
    BuildOptions,
    Excluded,
    Measurements,
    build_case,
    default_arms,
    load_spec,
    not_posed_of,
)
from execstate.construct._driver import DRIVER_LOOP, driver_start
from execstate.construct._environment import environment_suggestion, prepare_for, undeclared_reason
from execstate.construct._fanout import fan_out
from execstate.construct._pool import CRLF_TO_LF, Problem, as_served
from execstate.construct._scrub import scrub
from execstate.construct._specs import RECORD_NAME, ChosenCase, check_written, ensure_sources, write_case
from execstate.construct._synthesize import (
    origins,
    retry_long,
    synthesis_note,
    synthesize,
)
from execstate.environments import EnvironmentSpec, EnvironmentUnavailable
from execstate.errors import SpecProblem, clip_text, one_line, remove_tree
from execstate.grade import answer_matches
from execstate.languages import (
    Candidate,
    ConstructLanguage,
    Language,
    StatePredicting,
    construct_language,
    make_language,
)
from execstate.metrics import Measurement
from execstate.records import Task
from execstate.studies import default_grading_rule
from execstate.values import json_text, json_value, recorded

GENERATOR_SEED = 1
PREDICT_STRIDE = 127
"""The sampled walk that predicts a long input's state cost walks every this-many-th observation (a prime:
a loop body's period rarely aliases with it); its estimate is within about 1% on the built-in pools."""


@dataclass(frozen=True)
class ConstructOptions:
    """Knobs of construction; every default is SPEC section 5's."""

    build: BuildOptions = field(default_factory=BuildOptions)
    """Limits and toolchains of every run (a problem's own limits override the time and memory)."""
    max_trace: int = 2_000_000
    """Cap on the long input's trace length (instruction events for Python, line executions for C++)."""
    min_ratio: float = 4.0
    """The long input's trace must be at least this many times the short one's, in each of three measurements."""
    max_variables: int = 3
    max_value_chars: int = 200
    max_loops: int = 3
    """Loops tried through the nine checks before the problem is given up."""
    generator_sizes: tuple[int, ...] = tuple(2**i for i in range(1, 21))
    prefer_branch_preserving: bool = False
    synthesize: bool = True
    """Without a short/long pair from the tests or a generator, infer the input's shape from the samples and
    grow a written ``gen.py`` (``_synthesize.py``); False: such a problem is rejected (check ``inputs``)."""
    study: str | None = None
    """Study of the written specs (default: the problem's ``problem.toml`` study, else ``constructed``)."""
    vendor: bool = False
    """Copy the program and inputs into each spec folder (a self-contained export) instead of naming
    the pool's files (``construct/_specs.py``)."""
    environment: EnvironmentSpec | None = None
    """The pool's environment, for problems whose ``problem.toml`` declares none (``--environment``)."""
    keep_crlf: bool = False
    """Use the pool's test files as they are; else (default) a text file's CRLF line ends are used as LF, as
    judges serve them (``as_served``; recorded in ``construct.json`` and the spec's ``[provenance]``)."""


@dataclass
class Outcome:
    """What construction made of one problem: a spec directory, or the reason there is none."""

    problem: str
    case_id: str | None
    spec_dir: Path | None
    check: str | None = None
    """Why no spec: ``tests``, ``inputs``, ``loops``, ``projection`` or a build check; None when a spec was written."""
    reason: str | None = None
    record: dict[str, Any] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    """Wall time by phase (``tests``, ``measure``, ``loops``, ``check``); kept out of ``construct.json``."""


_SHOWN_CHARS = 160  # characters of a program's output (or an expected output) quoted in a rejection reason


class _Work:
    """One problem's construction: its language, source, scratch directory and the record being written."""

    def __init__(self, problem: Problem, opts: ConstructOptions, tmp: Path) -> None:
        self.problem, self.opts, self.tmp = problem, opts, tmp
        self.memo = Measurements()
        """The problem's measurement memo: its trace measurements and every trial build's (``build_case``)."""
        limits = opts.build.limits
        if problem.limits.time_s is not None:
            limits = replace(
                limits, wall_s=max(limits.wall_s, problem.limits.time_s), cpu_s=max(limits.cpu_s, problem.limits.time_s)
            )
        if problem.limits.memory_mb is not None:
            limits = replace(limits, memory_mb=max(limits.memory_mb, problem.limits.memory_mb))
        # a measurement stops at the first event past max_trace: an input over the cap costs no more than the cap
        cap = opts.max_trace if opts.build.trace_budget is None else min(opts.build.trace_budget, opts.max_trace)
        self.build_opts = replace(opts.build, limits=limits, trace_budget=cap)
        lang = construct_language(problem.language, self.build_opts)
        if lang is None:
            raise Excluded("spec", f"language {problem.language!r} cannot propose checkpoints (no ConstructLanguage)")
        self.environment = problem.environment or opts.environment
        try:
            self.env = prepare_for(self.environment, self.build_opts.python)
        except EnvironmentUnavailable as exc:
            raise Excluded("spec", str(exc)) from None
        self.lang: ConstructLanguage = lang.with_environment(self.env) if self.env is not None else lang
        self.source, inlined = lang.program_text(problem.program)
        if opts.study is not None and not problem.rule_given:  # the caller's study decides its default rule
            problem = replace(problem, rule=default_grading_rule(opts.study))
            self.problem = problem
        self.record: dict[str, Any] = {"problem": problem.id, "language": problem.language, "rule": problem.rule}
        if inlined:
            self.record["inlined_headers"] = inlined
        if self.env is not None:
            self.record["environment"] = self.env.record()
        self.seconds: dict[str, float] = {}
        self._phase: tuple[str, float] | None = None
        self.untraced = ""
        """Why the last ``trace`` that returned None could not measure (``untraced_reason``)."""
        self.over_cap = False
        """Whether the last ``trace`` that returned None stopped past ``max_trace`` (its trace budget)."""

    def phase(self, name: str | None) -> None:
        """Charge the time since the last call to the phase then named; start ``name``."""
        now = time.perf_counter()
        if self._phase is not None:
            self.seconds[self._phase[0]] = self.seconds.get(self._phase[0], 0.0) + now - self._phase[1]
        self._phase = (name, now) if name is not None else None

    def run(self, source: str, data: bytes):
        return self.lang.run(source, data, self.tmp)

    def predicted_over(self, row: dict[str, Any]) -> str | None:
        """Why walking the state of ``row``'s input in full would exceed a budget, predicted from a sampled walk
        (``StatePredicting``; once per input), or None. The row records the estimate (``predicted_state_load``,
        ``predicted_state_objects``): the full measurement of a long input it lets through may still stop at a
        budget (costing at most that budget), and then a smaller long input is tried (``retry_long``)."""
        budget = self.build_opts.budget()
        if not isinstance(self.lang, StatePredicting) or (budget.state_slots is None and budget.state_objects is None):
            return None
        if "predicted" not in row:
            m = self.memo.measure_once_predicted(self.lang, self.source, row["data"], PREDICT_STRIDE)
            row["predicted"] = m
            if m.ok:
                row["predicted_state_load"] = (m.state_load or 0) * PREDICT_STRIDE
                row["predicted_state_objects"] = (m.state_objects or 0) * PREDICT_STRIDE
        m = row["predicted"]
        sampled = f"a walk of every {PREDICT_STRIDE}th observation, times {PREDICT_STRIDE}"
        if m.status == "budget":  # the sampled walk stopped at 1/PREDICT_STRIDE of a budget
            if m.exceeded == "trace":
                return f"over the trace budget: {m.detail}"
            if m.exceeded == "objects":
                return f"predicted over the state-object budget of {budget.state_objects} ({sampled})"
            return f"predicted over the state budget of {budget.state_slots} ({sampled})"
        if not m.ok:
            return None  # the full measurement says what fails, as it would without a prediction
        if budget.state_slots is not None and row["predicted_state_load"] > budget.state_slots:
            return (
                f"predicted state load {row['predicted_state_load']} ({sampled}) is over the state budget of "
                f"{budget.state_slots}"
            )
        if budget.state_objects is not None and row["predicted_state_objects"] > budget.state_objects:
            return (
                f"predicted {row['predicted_state_objects']} containers and instances walked ({sampled}) is over "
                f"the state-object budget of {budget.state_objects}"
            )
        return None

    def trace(self, data: bytes) -> int | None:
        m = self.memo.measure_once(self.lang, self.source, data, None, state=False)
        if m.status == "ok":
            return m.trace_length
        self.over_cap = m.status == "budget" and m.exceeded == "trace"
        if self.over_cap:
            self.untraced = f"trace over max_trace ({self.opts.max_trace}): its measurement stopped past the cap"
        else:
            self.untraced = untraced_reason(m)
        return None


LIMIT_STATUSES = ("timeout", "memory", "output-limit")
"""The measurement failures that are a limit reached (CPU or wall time, memory, output)."""


def untraced_reason(m: Measurement) -> str:
    """An input's rejection when its trace length could not be measured: a limit only when one was reached,
    else what failed (a compile error, gcov counting no line of the program, a crash) with its evidence."""
    if m.status in LIMIT_STATUSES:
        return f"its trace length could not be measured within the limits ({one_line(m.detail)})"
    return f"its trace length could not be measured ({m.status}): {one_line(m.detail)}"


# ---------------------------------------------------------------- inputs


def _inputs(work: _Work) -> list[dict[str, Any]]:
    """Run every test; a failed one rejects the problem. The passing inputs with their trace lengths."""
    rows: list[dict[str, Any]] = []
    for test in work.problem.tests:
        given = _served(work, test.input.read_bytes())
        data = given.served
        row: dict[str, Any] = {
            "input": f"tests/{test.input.name}",
            "bytes": len(data),
            "expected": test.output is not None,
            "origin": "test",
        }
        if given.changed:
            row["line_ends"] = CRLF_TO_LF
        rows.append(row)
        if len(data) > work.build_opts.max_input_bytes:
            row["rejected"] = f"over max_input_bytes ({work.build_opts.max_input_bytes})"
            continue
        res = work.run(work.source, data)
        if res.status in ("timeout", "memory"):
            row["rejected"] = f"the program does not finish within the limits ({res.describe()})"
            continue
        if not res.ok:
            raise Excluded("tests", f"the program fails its test {test.name}: {undeclared_reason(res)}")
        if test.output is not None:
            out = _served(work, test.output.read_bytes())
            if out.changed:
                row["expected_line_ends"] = CRLF_TO_LF
            expected = out.served.decode("utf-8", "replace")
            if not answer_matches(work.problem.rule, res.stdout.decode("utf-8", "replace"), expected):
                raise Excluded(
                    "tests",
                    f"the program fails its test {test.name} under rule {work.problem.rule}: printed "
                    f"{clip_text(res.stdout, _SHOWN_CHARS)!r}, expected {clip_text(expected, _SHOWN_CHARS)!r}",
                )
        row["data"] = data
    _measure_all(work, [r for r in rows if "data" in r])
    return rows


class _Served(NamedTuple):
    served: bytes
    changed: bool


def _served(work: _Work, data: bytes) -> _Served:
    """A test file's bytes as a judge serves them (``as_served``), unless ``keep_crlf``; and whether they changed."""
    served = data if work.opts.keep_crlf else as_served(data)
    return _Served(served, served is not data)


def _line_ends(short: dict[str, Any], long: dict[str, Any]) -> dict[str, str]:
    """``short_line_ends``/``long_line_ends`` of the spec's ``[provenance]``: ``crlf-to-lf`` for a pool test file
    whose CRLF line ends the case uses as LF; nothing for a file used as it is."""
    rows = {"short": short, "long": long}
    return {f"{arm}_line_ends": row["line_ends"] for arm, row in rows.items() if "line_ends" in row}


def _measure_all(work: _Work, rows: list[dict[str, Any]]) -> None:
    work.phase("measure")
    over = 0
    for row in sorted(rows, key=lambda r: (r["bytes"], r["input"])):
        if over >= 2:
            row["rejected"] = "not measured: two smaller inputs are already over max_trace"
            continue
        trace = work.trace(row["data"])
        if trace is None:
            row["rejected"] = work.untraced
            over += work.over_cap
            continue
        row["trace"] = trace
        if trace > work.opts.max_trace:
            over += 1
            row["rejected"] = f"trace {trace} is over max_trace ({work.opts.max_trace})"


def _generated(work: _Work) -> list[dict[str, Any]]:
    """Inputs of growing size from the problem's generator, up to the first over the cap."""
    gen = work.problem.generator
    if gen is None or not gen.takes_size:
        return []
    rows: list[dict[str, Any]] = []
    text = gen.path.read_text(encoding="utf-8")
    runner = make_language(gen.language, work.build_opts)
    assert runner is not None
    runner = runner.with_environment(work.env) if work.env is not None else runner
    for size in work.opts.generator_sizes:
        row: dict[str, Any] = {
            "input": f"generator seed={GENERATOR_SEED} size={size}",
            "expected": False,
            "origin": "generator",
        }
        rows.append(row)
        made = _generate(runner, text, size, work.tmp)
        if isinstance(made, str):
            row["rejected"] = made
            break
        row["bytes"] = len(made)
        if len(made) > work.build_opts.max_input_bytes:
            row["rejected"] = f"over max_input_bytes ({work.build_opts.max_input_bytes})"
            break
        res = work.run(work.source, made)
        if not res.ok:
            row["rejected"] = f"the program fails on it: {res.describe()}"
            break
        trace = work.trace(made)
        if trace is None:
            row["rejected"] = work.untraced
            break
        row["trace"], row["data"] = trace, made
        if trace > work.opts.max_trace:
            row["rejected"] = f"trace {trace} is over max_trace ({work.opts.max_trace})"
            break
    return rows


def _generate(runner: Language, text: str, size: int, tmp: Path) -> bytes | str:
    res = runner.run(text, b"", tmp, args=(str(GENERATOR_SEED), str(size)))
    if not res.ok:
        return f"the generator fails for size {size}: {res.describe()}"
    return bytes(res.stdout)


def _choose_inputs(work: _Work, rows: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    usable = [r for r in rows if "trace" in r and "rejected" not in r]
    if len(usable) < 2:
        return None
    firsts = [r for r in usable if r["origin"] != "synthesized"]  # the short input is a test's (or the generator's)
    if not firsts:
        return None
    short = min(firsts, key=lambda r: (r["trace"], r["bytes"], r["input"]))
    longs = sorted(
        (r for r in usable if r is not short and r["trace"] >= work.opts.min_ratio * short["trace"]),
        key=lambda r: (-r["trace"], r["bytes"], r["input"]),
    )
    for r in usable:
        if r is not short and r not in longs:
            r.setdefault(
                "lost", f"trace {r['trace']} is under {work.opts.min_ratio}x the short input's {short['trace']}"
            )
    if work.opts.prefer_branch_preserving:
        longs.sort(key=lambda r: not _branch_preserving(work, short, r))
    for long in longs:
        over = work.predicted_over(long)
        if over is not None:
            long["lost"] = over
            continue
        shorts = [work.trace(short["data"]) for _ in range(3)]
        longs3 = [work.trace(long["data"]) for _ in range(3)]
        if None in shorts or None in longs3:
            long["lost"] = f"a repeated measurement failed: {work.untraced}"
            continue
        if min(longs3) >= work.opts.min_ratio * max(shorts):  # type: ignore[type-var, operator]
            short["repeated"], long["repeated"] = shorts, longs3
            return short, long
        long["lost"] = f"repeated traces {longs3} are not {work.opts.min_ratio}x the short's {shorts}"
    return None


def _branch_preserving(work: _Work, short: dict[str, Any], long: dict[str, Any]) -> bool:
    """Whether the two inputs take the same set of branch outcomes (``ConstructLanguage.branch_outcomes``)."""
    for r in (short, long):
        if "branches" not in r:
            r["branches"] = work.lang.branch_outcomes(work.source, r["data"], work.tmp)
    return short["branches"] is not None and short["branches"] == long["branches"]


# ---------------------------------------------------------------- loops and projections


def _loops(work: _Work, long: bytes) -> list[dict[str, Any]]:
    """Every loop with its iteration count on the long input, best first (most iterations, then first line)."""
    rows = []
    driver = driver_start(work.source)  # a function-call problem's driver (construct/_driver.py) is not the program's
    pending: list[tuple[dict[str, Any], str]] = []  # the loops to count, with their own count copy
    for line in work.lang.loops(work.source):
        row: dict[str, Any] = {"line": line, "header": work.source.split("\n")[line - 1].strip()}
        rows.append(row)
        if driver is not None and line >= driver:
            row["rejected"] = DRIVER_LOOP
            continue
        try:
            work.lang.locate_loop(work.source, line, None, ())
            counted = work.lang.instrument(work.source, line, (), "count")
        except SpecProblem as exc:
            row["rejected"] = exc.problem
            continue
        pending.append((row, counted.source))
    # a language that counts every loop in one build (C++: one compile, not one per loop) says so; a loop it
    # did not count is counted by its own copy, as every loop is otherwise
    count_all = getattr(work.lang, "loop_iterations", None)
    shared = count_all(work.source, [r["line"] for r, _ in pending], long, work.tmp) if count_all else {}
    for row, counted_source in pending:
        K = shared[row["line"]] if row["line"] in shared else work.lang.iterations(work.run(counted_source, long))
        row["iterations"] = K
        if K is None:
            row["rejected"] = "counting its iterations failed"
        elif K < 2:
            row["rejected"] = f"runs {K} time(s) on the long input; at least 2 are needed"
    return sorted(rows, key=lambda r: (-(r.get("iterations") or 0) if "rejected" not in r else 1, r["line"]))


def _probe(work: _Work, line: int, names: tuple[str, ...], k: int, long: bytes) -> dict[str, tuple[Any, Any]] | str:
    """The JSON values of ``names`` at the inside and post checkpoints, or why they could not be read."""
    found: list[dict[str, Any]] = []
    for mode in ("inside", "post"):
        inst = work.lang.instrument(work.source, line, names, mode, k)
        res = work.run(inst.source, long)
        if not res.ok:
            return f"{mode} checkpoint: {res.describe()}"
        try:
            found.append(json_value(res.stdout))  # a program's integer may have any number of digits
        except ValueError:
            return f"{mode} checkpoint printed no JSON: {clip_text(res.stdout, _SHOWN_CHARS)!r}"
    return {name: (found[0].get(name), found[1].get(name)) for name in names}


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _python_type(value: Any) -> str:
    """The Python type name of a decoded JSON value (``int``, ``float``, ``str``, ``bool``, ``NoneType``, ``list``,
    ``dict``): stricter than ``records.json_type``, whose ``number`` is both an integer and a float, so a variable
    that is an integer at one checkpoint and a float at the other is not proposed."""
    return type(value).__name__ if not isinstance(value, bool) else "bool"


def _projection(work: _Work, line: int, K: int, long: bytes) -> tuple[list[str], list[dict[str, Any]]]:
    """The chosen variables of the loop at ``line`` and a row per candidate (its values, or why it lost)."""
    k = K // 2 + 1
    rows: list[dict[str, Any]] = []
    ok: list[Candidate] = []
    for cand in work.lang.candidates(work.source, line):
        row: dict[str, Any] = {"name": cand.name, "reads": cand.read, "first": list(cand.first)}
        rows.append(row)
        try:
            work.lang.locate_loop(work.source, line, None, (cand.name,))
        except SpecProblem as exc:
            row["rejected"] = exc.problem
            continue
        ok.append(cand)
    values = _probe(work, line, tuple(c.name for c in ok), k, long) if ok else {}
    if isinstance(values, str):  # one of them cannot be shown: probe each alone
        values = {}
        for cand in ok:
            one = _probe(work, line, (cand.name,), k, long)
            if isinstance(one, str):
                next(r for r in rows if r["name"] == cand.name)["rejected"] = one
            else:
                values.update(one)
    kept: list[tuple[tuple[bool, bool, tuple[int, int]], str, bool]] = []
    for cand in ok:
        row = next(r for r in rows if r["name"] == cand.name)
        if cand.name not in values:
            continue
        inside, post = values[cand.name]
        row["inside"], row["post"] = recorded(inside), recorded(post)
        sizes = [len(json_text(v, ensure_ascii=False, separators=(",", ":"))) for v in (inside, post)]
        if max(sizes) > work.opts.max_value_chars:
            row["rejected"] = f"serialized at {max(sizes)} characters, over {work.opts.max_value_chars}"
        elif _python_type(inside) != _python_type(post):
            row["rejected"] = f"JSON type {_python_type(inside)} inside, {_python_type(post)} after the loop"
        else:
            kept.append(((not _scalar(inside), not cand.read, cand.first), cand.name, inside != post))
    kept.sort()
    chosen = kept[: work.opts.max_variables]
    if chosen and not any(changes for _, _, changes in chosen):
        changing = next((c for c in kept if c[2]), None)
        chosen = chosen[:-1] + [changing] if changing is not None else []
    names = [name for _, name, _ in chosen]
    for row in rows:
        if "rejected" not in row and row["name"] not in names:
            row["lost"] = "ranked lower (scalars first, then read-and-written, then first assignment)"
    return names, rows


# ---------------------------------------------------------------- the spec


def _anchor(work: _Work, loop: dict[str, Any]) -> dict[str, Any]:
    """The loop's header text when it is unique in the program (it survives edits above it), else its line."""
    header = loop["header"]
    lines_with_header = [i for i, text in enumerate(work.source.split("\n")) if text.strip() == header]
    return {"loop_text": header} if len(lines_with_header) == 1 else {"loop": loop["line"]}


def _record_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in ("data", "branches", "generator", "predicted")} for r in rows]


def _with_further_arms(case: ChosenCase, built: list[Task], added: tuple[str, ...], loop: dict) -> ChosenCase:
    """``case`` as written when construction adds further arms (``BuildOptions.add_arms``): its spec states them
    (``arms``) and its provenance the line its line count marks (``count_line``, ``count_branch_line``,
    ``count_imbalance``), as the trial build chose it; an arm the trial did not pose goes in the loop's record."""
    if not added:
        return case
    missing = {n.arm: n.reason for n in not_posed_of(built)}
    if missing:
        loop["not_posed"] = missing
    prov = dict(case.provenance)
    count = next((t for t in built if "line_count" in t.meta), None)
    if count is not None:
        chosen = count.meta["line_count"]
        prov |= {
            "count_line": chosen["line"],
            "count_branch_line": chosen["branch_line"],
            "count_imbalance": chosen["imbalance"],
        }
    return replace(case, provenance=prov, arms=tuple(sorted({*default_arms(), *added}, key=arm_order)))


def construct_problem(problem: Problem, out: Path | str, opts: ConstructOptions | None = None) -> Outcome:
    """Construct ``problem``'s case spec into ``out/<problem id>/``; never raises for the problem's faults.

    The directory receives ``construct.json`` in every case and, when a loop's spec
    was admitted by the nine checks, ``case.toml`` naming the program and the two inputs
    (the pool's files, or copies with ``opts.vendor``; ``construct/_specs.py``). Naming the
    pool's files may write ``out/study.toml`` (``ensure_sources``).
    """
    opts = opts or ConstructOptions()
    if not opts.vendor:
        ensure_sources(Path(out), [problem.dir.parent])
    spec_dir = Path(out) / problem.id
    study = opts.study or problem.study or "constructed"
    case_id = f"{study}/{problem.id}"
    remove_tree(spec_dir)  # a problem's directory is remade whole: nothing stale survives
    tmp = Path(tempfile.mkdtemp(prefix="execstate-construct-"))
    outcome = Outcome(problem.id, None, None)
    record: dict[str, Any] = {"problem": problem.id}
    work: _Work | None = None
    try:
        work = _Work(problem, opts, tmp)
        record = work.record
        outcome = _construct(work, spec_dir, case_id, study)
    except Excluded as exc:
        outcome = Outcome(problem.id, None, None, exc.check, exc.reason)
    except Exception as exc:  # one bad problem never stops the batch
        outcome = Outcome(problem.id, None, None, "internal", f"{type(exc).__name__}: {exc}")
    finally:
        remove_tree(tmp)
    if work is not None:
        work.phase(None)
        work.memo.close()
        outcome.seconds = work.seconds
    outcome.reason = scrub(outcome.reason)
    if isinstance(record.get("inputs"), list):  # a step that failed early may have left the raw rows (bytes)
        record["inputs"] = _record_rows(record["inputs"])
    record.update({"case_id": outcome.case_id, "check": outcome.check, "reason": outcome.reason})
    record = scrub(record)
    record = {k: v for k, v in record.items() if v is not None or k in ("case_id",)}
    outcome.record = record
    spec_dir.mkdir(parents=True, exist_ok=True)
    (spec_dir / RECORD_NAME).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return outcome


def _construct(work: _Work, spec_dir: Path, case_id: str, study: str) -> Outcome:
    work.phase("tests")
    rows = _inputs(work)
    work.record["inputs"] = rows
    chosen = _choose_inputs(work, rows)
    if chosen is None:
        gen_rows = _generated(work)
        rows += gen_rows
        chosen = _choose_inputs(work, rows)
    if chosen is None and work.opts.synthesize:
        chosen = synthesize(work, rows, _choose_inputs)
    work.record["inputs"] = _record_rows(rows)
    if chosen is None:
        raise Excluded(
            "inputs",
            f"no pair of passing inputs has a long trace at most {work.opts.max_trace} and at least "
            f"{work.opts.min_ratio}x the short one's" + synthesis_note(work.record),
        )
    short, long = chosen
    while True:  # retry_long gives a few other long inputs at most (a synthesized one, then smaller ones)
        try:
            return _with_pair(work, short, long, spec_dir, case_id, study)
        except Excluded as exc:
            failed = (exc.check, exc.reason)
            retry = retry_long(work, rows, short, long, failed, _choose_inputs) if work.opts.synthesize else None
            work.record["inputs"] = _record_rows(rows)
            if retry is None:
                raise
            long = retry


def _with_pair(
    work: _Work, short: dict[str, Any], long: dict[str, Any], spec_dir: Path, case_id: str, study: str
) -> Outcome:
    """The spec of the first loop (best first) admitted on this pair of inputs; ``Excluded`` with the last reason."""
    work.record["short"], work.record["long"] = short["input"], long["input"]
    work.phase("loops")
    loops = _loops(work, long["data"])
    work.record["loops"] = loops
    tried = 0
    last: tuple[str, str] = ("loops", "no loop runs at least twice on the long input")
    for loop in loops:
        if "rejected" in loop:
            continue
        if tried >= work.opts.max_loops:
            loop["lost"] = f"not tried: {work.opts.max_loops} loops were tried first"
            continue
        tried += 1
        work.phase("loops")
        names, cands = _projection(work, loop["line"], loop["iterations"], long["data"])
        loop["candidates"] = cands
        if not names:
            loop["rejected"] = "no candidate variable is representable and changes between the checkpoints"
            last = ("projection", f"loop on line {loop['line']}: {loop['rejected']}")
            continue
        loop["variables"] = names
        prov = {
            "problem": work.problem.id,
            "short_input": short["input"],
            "long_input": long["input"],
            "short_trace": short["trace"],
            "long_trace": long["trace"],
            "loop_iterations": loop["iterations"],
            **origins(short, long),
            **_line_ends(short, long),
        }
        prov["branch_preserving"] = _branch_preserving(work, short, long)
        prov |= {k: v for k, v in work.problem.provenance.items() if k not in prov}  # problem.toml's [provenance]
        case = ChosenCase(
            work.problem,
            case_id,
            study,
            work.source,
            _anchor(work, loop),
            tuple(names),
            prov,
            short["data"],
            long["data"],
            environment=work.environment,
            long_generator=long.get("generator") if long.get("origin") == "synthesized" else None,
            long_args=tuple(long.get("args", ())),
        )
        # the trial is a self-contained copy: admission does not depend on where the files lie
        trial = write_case(work.tmp / f"trial-{loop['line']}", case, vendor=True)
        work.phase("check")
        built = build_case(load_spec(trial), work.build_opts, memo=work.memo)
        if isinstance(built, list):
            case = _with_further_arms(case, built, work.build_opts.add_arms, loop)
            check_written(write_case(spec_dir, case, vendor=work.opts.vendor), case)
            loop["chosen"] = True
            return Outcome(work.problem.id, case_id, spec_dir)
        loop["rejected"] = f"excluded by {built.check}: {built.reason}"
        last = (built.check, f"loop on line {loop['line']}: excluded by {built.check}: {built.reason}")
    raise Excluded(*last)


# ---------------------------------------------------------------- a pool


@dataclass
class ConstructResult:
    """Every problem's outcome, in problem order."""

    outcomes: list[Outcome]

    @property
    def written(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.spec_dir is not None]

    @property
    def rejected(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.spec_dir is None]


def _one(args: tuple[Problem, str, ConstructOptions]) -> Outcome:
    problem, out, opts = args
    return construct_problem(problem, out, opts)


def construct(
    problems: list[Problem],
    out: Path | str,
    opts: ConstructOptions | None = None,
    *,
    jobs: int = 2,
    executor: str = "local",
    scheduler: str | None = None,
    progress: Callable[[Outcome, int, int], None] | None = None,
) -> ConstructResult:
    """Construct every problem into ``out`` (one directory each) and write ``out/construct.json``.

    Per-problem work runs on a process pool of ``jobs`` workers (``executor="local"``), or on
    the Dask cluster at ``scheduler`` (``executor="dask"``; a ``distributed`` address); both give
    byte-identical output. ``progress(outcome, done, total)`` is called as problems finish.
    """
    opts = opts or ConstructOptions()
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    if not opts.vendor:  # once, before the workers: each then finds the pools already listed
        ensure_sources(root, [p.dir.parent for p in problems])
    work = [(p, str(root), opts) for p in problems]
    results: dict[str, Outcome] = {}
    for outcome in fan_out(_one, work, jobs, executor, scheduler):
        results[outcome.problem] = outcome
        if progress is not None:
            progress(outcome, len(results), len(work))
    outcomes = [results[p.id] for p in problems]
    summary = {
        "problems": len(outcomes),
        "specs": len([o for o in outcomes if o.spec_dir is not None]),
        "outcomes": [
            {"problem": o.problem, "case_id": o.case_id, "check": o.check, "reason": o.reason} for o in outcomes
        ],
    }
    hint = environment_suggestion(outcomes)
    if hint is not None:
        summary["suggestion"] = hint
    (root / RECORD_NAME).write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return ConstructResult(outcomes)


__all__ = ["ConstructOptions", "ConstructResult", "Outcome", "construct", "construct_problem"]
