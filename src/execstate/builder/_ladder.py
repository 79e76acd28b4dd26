"""Input ladders (``execstate build --ladder``, docs/ladder.md): each case's inputs on a dial of counted steps.

For every case whose input comes from a generator with a size (``sized_generator``), the builder looks for one
input per target trace length (``Ladder.targets``: ``low``, ``low * ratio``, ... up to ``high``; by default
2^7 to 2^21 events, ratio 2): the input whose counted trace length is nearest the target among those measured,
within ``tolerance`` (by default within 1.25x of it: ``target / 1.25 <= trace <= target * 1.25``).

The search (``_Search``) runs the generator at a size, measures the clean program's trace length on its output
(the build's memo and counted budgets: never a clock) and predicts the size of the next target from the
measured points: trace length is roughly a power of the size, so between the two measured sizes that bracket
a target it interpolates in log-log, and above the largest it extrapolates with the slope of the two largest.
It measures at most ``Ladder.probes`` sizes per target, then the nearest size (and it scaled to the target) from
``SEED_RETRIES`` other seeds; a target no input reaches within the tolerance is a missing rung, recorded with the
nearest traces found (``manifest.ladder``), not an exclusion.

Each rung found is admitted through the nine checks (``_case._admit_inputs``) with the rung's input as the
long input and, as the short input the trace-order check compares it with, the smallest-trace input below it
(the generator's size 0 where it has one, the sizes measured, the published short input). An input that fails a
check gives way to ``RETRIES`` other sizes and ``SEED_RETRIES`` other seeds within the tolerance; an input a counted
budget refuses (``NO_RETRY_CHECKS``) does not: inputs of a similar trace would walk as much, so the rung is missing,
the budget named. Each rung is admitted under its own object budget (``Ladder.object_budget``): by default 2048
containers walked per event of its target (``OBJECTS_PER_EVENT``), at least the build's, as the containers walked
grow as the square of the trace; a ``Ladder(objects_per_event=None)`` keeps the build's on every rung. A rung's tasks
carry the id ``<case>~rung<k>`` (k counts the targets from 0) and ``meta["ladder"]`` =
``{"rung", "target", "trace", "size", "seed", "of"}``; they are the final-output task (``long-trace-final`` on
the rung's input) and, with ``Ladder.state_arms``, the two state arms on it.

Every seed is derived from ``Ladder.seed``, the case id and the retry (``Ladder.case_seed``): the same command
twice gives byte-identical tasks.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from execstate.builder._checks import Excluded
from execstate.builder._context import CaseContext
from execstate.builder._fresh import SEED_ENV, _run_recipe
from execstate.builder._further import CaseTasks
from execstate.builder._plan import final_arms, state_arms
from execstate.builder._spec import CaseSpec
from execstate.errors import UsageError, one_line
from execstate.languages import HELPER_LANGUAGE
from execstate.records import Task
from execstate.studies import InputRecipe

LADDER_SUFFIX = "~rung"
"""A rung's case id is its case's id plus this suffix and the rung's index (``classic/heapsort~rung3``)."""
SIZE_MARKER = "gen.py size N"
"""A ``gen.py`` whose text holds this phrase (in its docstring) prints an input of size N for ``gen.py size N``,
drawn from ``EXECSTATE_SEED`` (the classic generators' size interface, docs/ladder.md)."""
MIN_SIZE = 1
"""The smallest size the search asks a generator for."""
START_TRIES = 4
"""Sizes from ``MIN_SIZE`` up the search tries until the generator prints an input the program runs on."""
MAX_SIZE = 1 << 40
"""The largest size the search asks a generator for (a generator's own limits usually stop it far sooner)."""
RETRIES = 2
"""Other sizes within the tolerance a rung tries when its nearest input fails a check."""
SEED_RETRIES = 3
"""Other seeds a rung tries at its size (when within the tolerance) when those inputs fail a check too."""
OBJECTS_PER_EVENT = 2048
"""A rung's object budget per event of its target (``Ladder.object_budget``): 2^31 (about 2.1 billion containers
walked) at 2^20 events, enough for the classic programs whose state holds one container per item (dijkstra walks
1.46 billion at 2^20, docs/ladder.md)."""
NO_RETRY_CHECKS = frozenset({"budget"})
"""The checks whose refusal of a rung's nearest input is not retried on its alternatives (``not_retried``): a
counted budget (inputs of a similar trace walk about as much). A rung refused by any other check tries ``RETRIES``
sizes and ``SEED_RETRIES`` seeds."""
_CPU_LIMIT = "timeout; CPU limit"
"""In a ``run`` refusal's reason (``_checks.measurement_failed``): a measurement stopped at its CPU limit."""
_STEP_UP = 16.0
"""The most the search multiplies a size by in one step when it extrapolates above every measured size."""


@dataclass(frozen=True)
class Ladder:
    """A ``--ladder`` build's request: the targets (``low`` to ``high`` by ``ratio``), the tolerance, the seed,
    whether rungs get the state arms, and how many sizes the search measures per target at most."""

    low: int = 2**7
    high: int = 2**21
    ratio: float = 2.0
    tolerance: float = 1.25
    """A rung's trace ``t`` is within the tolerance of its target ``T`` when ``T / tolerance <= t <= T * tolerance``."""
    seed: int = 0
    """Mixed into every case's generator seed (``case_seed``)."""
    state_arms: bool = False
    """Also pose the inside and post state arms on every rung (by default only the final output)."""
    probes: int = 8
    """Sizes measured per target at most (beyond those measured for earlier targets)."""
    objects_per_event: int | None = OBJECTS_PER_EVENT
    """A rung's object budget is this many containers walked per event of its target, at least the build's
    (``object_budget``); None: the build's object budget on every rung (``--object-budget`` given)."""

    def __post_init__(self) -> None:
        if self.low < 1 or self.high < self.low:
            raise UsageError(
                f"the ladder's targets run from {self.low} to {self.high} events. Fix: give 1 <= low <= high, "
                "e.g. --ladder-low 128 --ladder-high 2097152"
            )
        if not self.ratio > 1.0:
            raise UsageError(f"the ladder's ratio is {self.ratio}. Fix: give a ratio above 1, e.g. --ladder-ratio 2")
        if not self.tolerance > 1.0:
            raise UsageError(
                f"the ladder's tolerance is {self.tolerance}. Fix: give a factor above 1, e.g. --ladder-tolerance 1.25"
            )
        if self.probes < 1:
            raise UsageError(f"the ladder's probes per target are {self.probes}. Fix: give at least 1")
        if self.objects_per_event is not None and self.objects_per_event < 1:
            raise UsageError(
                f"the ladder's objects per event are {self.objects_per_event}. Fix: give at least 1, or None for the "
                "build's object budget on every rung"
            )

    @property
    def targets(self) -> list[int]:
        """The target trace lengths, lowest first: ``round(low * ratio**k)`` while at most ``high``."""
        found: list[int] = []
        k = 0
        while True:
            target = round(self.low * self.ratio**k)
            if target > self.high * (1 + 1e-12):
                return found
            if not found or target > found[-1]:
                found.append(target)
            k += 1

    def within(self, trace: int, target: int) -> bool:
        """Whether ``trace`` is within the tolerance of ``target``."""
        return target / self.tolerance <= trace <= target * self.tolerance

    def object_budget(self, target: int, build: int | None) -> int | None:
        """The object budget the rung of ``target`` is admitted under: ``max(build, objects_per_event * target)``
        (``build``: the build's ``BuildOptions.object_budget``; None, no budget, stays none), or ``build`` when
        ``objects_per_event`` is None. The containers a measurement walks grow as the square of the trace (the state
        is walked at every line and holds one container per item), so one fixed budget cuts the top rungs of such
        programs; a budget that follows the target admits them, still a count, never a clock."""
        if build is None or self.objects_per_event is None:
            return build
        return max(build, self.objects_per_event * target)

    def case_seed(self, case_id: str, retry: int = 0) -> int:
        """The generator seed of ``case_id``'s rungs: 56 bits of SHA-256 of a fixed prefix, ``seed``, the id and
        ``retry`` (0: the search's seed; 1, 2, ...: the seeds a rung whose input fails a check tries next)."""
        text = f"execstate-ladder-seed-v1\0{self.seed}\0{case_id}\0{retry}"
        return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:7], "big")

    def record(self) -> dict[str, Any]:
        """The request as the manifest's ``ladder`` record holds it."""
        return {
            "low": self.low,
            "high": self.high,
            "ratio": self.ratio,
            "tolerance": self.tolerance,
            "seed": self.seed,
            "state_arms": self.state_arms,
            "probes": self.probes,
            "targets": self.targets,
            "objects_per_event": self.objects_per_event,
        }


def rung_id(case_id: str, rung: int) -> str:
    """The case id of rung ``rung`` of ``case_id``."""
    return f"{case_id}{LADDER_SUFFIX}{rung}"


@dataclass(frozen=True)
class SizedGenerator:
    """A generator that prints an input of a given size from a given seed, and how it is called."""

    name: str
    """The generator's file name (``gen.py``)."""
    source: str
    """Its whole text (a Python helper program)."""
    interface: str
    """``size``: ``gen.py size N`` with the seed in ``EXECSTATE_SEED`` (classic); ``seed-size``: ``gen.py SEED SIZE``
    (construct's synthesized generators, pyperformance's, networkx's ``generator.py SEED NODES``)."""

    def recipe(self, size: int, seed: int) -> InputRecipe:
        """The helper run that prints the input of ``size`` drawn from ``seed``."""
        if self.interface == "size":
            args: tuple[str, ...] = ("size", str(size))
            env: tuple[tuple[str, str], ...] = ((SEED_ENV, str(seed)),)
            shown = f"{self.name} size {size} with {SEED_ENV}={seed}"
        else:
            args, env, shown = (str(seed), str(size)), (), f"{self.name} {seed} {size}"
        return InputRecipe(HELPER_LANGUAGE, self.source, args, env, shown)

    @property
    def describe(self) -> str:
        """How it is called, for records (``gen.py size N with EXECSTATE_SEED=SEED``, ``gen.py SEED N``)."""
        if self.interface == "size":
            return f"{self.name} size N with {SEED_ENV}=SEED"
        return f"{self.name} SEED N"


_GENERATED = re.compile(r"^generator seed=\d+ size=\d+$")
"""pyperformance's provenance of a generated input file (``generator seed=1 size=64``)."""


def sized_generator(spec: CaseSpec) -> SizedGenerator | str:
    """The generator of ``spec``'s inputs that takes a size, or why there is none.

    Recognized: a long input ``{ generator = "gen.py", ... }`` whose text declares the classic size interface
    (``SIZE_MARKER``); a long input ``{ generator = ..., args = [SEED, SIZE] }`` (two integers: construct's
    synthesized generators); a long input file whose provenance says ``generator seed=S size=N`` with a ``gen.py``
    beside the program (pyperformance); networkx's cases (``generator.py SEED NODES`` in the study's folder).
    """
    src = spec.long_input
    if src.generator is not None:
        text = src.generator.read_text(encoding="utf-8")
        if SIZE_MARKER in text:
            return SizedGenerator(src.generator.name, text, "size")
        if len(src.args) == 2 and all(a.isdigit() for a in src.args):
            return SizedGenerator(src.generator.name, text, "seed-size")
        return f"its generator {src.generator.name} declares no size interface (docs/ladder.md)"
    provenance = spec.provenance
    beside = spec.program.parent / "gen.py"
    if _GENERATED.match(str(provenance.get("long_input", ""))) and beside.is_file():
        return SizedGenerator(beside.name, beside.read_text(encoding="utf-8"), "seed-size")
    if spec.study == "networkx" and "nodes" in provenance:
        study_gen = spec.spec_path.parent.parent.parent / "generator.py"
        if study_gen.is_file():
            return SizedGenerator(study_gen.name, study_gen.read_text(encoding="utf-8"), "seed-size")
    name = src.file.name if src.file is not None else "its long input"
    return f"its long input {name} is a file no known generator with a size made"


@dataclass
class _Point:
    """One size the search measured: the input it printed and the program's trace on it (None: none)."""

    size: int
    seed: int = 0
    data: bytes = b""
    trace: int | None = None
    failed: str | None = None
    """Why there is no trace: the generator failed, the input is too long, the program failed or went over a
    counted budget (such a size is treated as too large)."""

    def record(self) -> dict[str, Any]:
        found: dict[str, Any] = {"size": self.size, "trace": self.trace}
        if self.failed:
            found["failed"] = self.failed[:200]
        return found


@dataclass
class _Search:
    """The search over one case's generator sizes: every measured point, by size."""

    case: CaseContext
    gen: SizedGenerator
    seed: int
    ladder: Ladder
    points: dict[int, _Point] = field(default_factory=dict)

    def measure(self, size: int) -> _Point:
        """The point at ``size`` (measured once: the generator run, then the clean program's trace length)."""
        size = max(MIN_SIZE, min(MAX_SIZE, size))
        if size in self.points:
            return self.points[size]
        point = _measure_point(self.case, self.gen, size, self.seed)
        self.points[size] = point
        return point

    def measured(self) -> list[_Point]:
        """The points with a trace, by size."""
        return [p for s, p in sorted(self.points.items()) if p.trace is not None]

    def too_large(self) -> int | None:
        """The smallest measured size above the smallest with a trace that has none (a failure or a budget: every
        larger one is left alone). Sizes below the smallest with a trace may fail: a generator's least size."""
        least = min((s for s, p in self.points.items() if p.trace is not None), default=None)
        failed = [s for s, p in self.points.items() if p.trace is None and (least is None or s > least)]
        return min(failed) if failed else None

    def find(self, target: int) -> _Point | None:
        """The measured point nearest ``target`` within the tolerance, measuring at most ``probes`` new sizes; when
        none is (a trace that jumps between neighbouring sizes), the size whose trace is nearest, and that size scaled
        by target / trace, drawn from up to ``SEED_RETRIES`` other seeds (the first within the tolerance)."""
        for _ in range(self.ladder.probes):
            best = self.nearest(target)
            if best is not None and self.ladder.within(int(best.trace or 0), target):
                return best
            size = self.predict(target)
            if size is None:
                break
            self.measure(size)
        best = self.nearest(target)
        if best is None or self.ladder.within(int(best.trace or 0), target):
            return best
        scaled = max(MIN_SIZE, round(best.size * target / max(1, best.trace or 1)))  # trace as if linear in size
        for retry in range(1, SEED_RETRIES + 1):
            for size in dict.fromkeys((scaled, best.size)):
                other = _measure_point(self.case, self.gen, size, self.ladder.case_seed(self.case.spec.id, retry))
                if other.trace is not None and self.ladder.within(other.trace, target):
                    return other
        return None

    def alternatives(self, found: _Point, target: int) -> Iterator[_Point]:
        """``found``, then (should its input fail a check) up to ``RETRIES`` other sizes within the tolerance,
        nearest ``target`` first: the sizes next to ``found`` are measured only when it is asked for them."""
        yield found
        for size in (found.size - 1, found.size + 1):
            if size >= MIN_SIZE:
                self.measure(size)
        yield from [p for p in self.within(target) if p is not found][:RETRIES]
        for j in range(1, SEED_RETRIES + 1):  # the same size drawn from other seeds
            other = _measure_point(self.case, self.gen, found.size, self.ladder.case_seed(self.case.spec.id, j))
            if other.trace is not None and self.ladder.within(other.trace, target):
                yield other

    def within(self, target: int) -> list[_Point]:
        """The measured points within the tolerance of ``target``, nearest first (the smaller size on a tie)."""
        near = [p for p in self.measured() if self.ladder.within(int(p.trace or 0), target)]
        return sorted(near, key=lambda p: (abs(math.log(max(1, p.trace or 1) / target)), p.size))

    def nearest(self, target: int) -> _Point | None:
        """The measured point whose trace is nearest ``target`` in ratio (the smaller size on a tie)."""
        points = self.measured()
        if not points:
            return None
        return min(points, key=lambda p: (abs(math.log(max(1, p.trace or 1) / target)), p.size))

    def predict(self, target: int) -> int | None:
        """The next size to measure for ``target``, or None when no unmeasured size can come nearer."""
        cap = self.too_large()
        points = [p for p in self.measured() if cap is None or p.size < cap]
        if not points:
            return MIN_SIZE if MIN_SIZE not in self.points else None
        below = [p for p in points if (p.trace or 0) < target]
        lo = below[-1] if below else None
        above = [p for p in points if (p.trace or 0) > target and (lo is None or p.size > lo.size)]
        if lo is not None and above:  # a bracket: interpolate in log-log between its ends
            hi = above[0]
            return _fresh_between(_interpolate(lo, hi, target), lo.size, hi.size, self.points)
        if lo is not None:  # every larger measured trace is under the target: extrapolate upwards
            slope = _slope(below[-2], lo) if len(below) >= 2 else 1.0
            step = min(_STEP_UP, (target / max(1, lo.trace or 1)) ** (1.0 / slope))
            guess = max(lo.size + 1, round(lo.size * step))
            return _fresh_between(guess, lo.size, cap if cap is not None else MAX_SIZE + 1, self.points)
        over = [p for p in points if (p.trace or 0) > target]  # every measured trace is over the target: go down
        bottom = over[0]
        slope = _slope(bottom, over[1]) if len(over) >= 2 else 1.0
        guess = round(bottom.size * (target / (bottom.trace or 1)) ** (1 / slope))
        return _fresh_between(guess, MIN_SIZE - 1, bottom.size, self.points)


def _measure_point(case: CaseContext, gen: SizedGenerator, size: int, seed: int) -> _Point:
    """The generator's input at ``size`` and ``seed`` and the clean program's trace length on it (memo, budgets)."""
    point = _Point(size, seed)
    made = _run_recipe(case, gen.recipe(size, seed))
    if isinstance(made, str):
        point.failed = made
        return point
    point.data = made
    m = case.memo.measure_once(case.lang, case.source, made, None, state=False)
    if m.ok and m.trace_length is not None:
        point.trace = int(m.trace_length)
    else:
        point.failed = f"{m.status}: {one_line(m.detail)}"
    return point


def _slope(a: _Point, b: _Point) -> float:
    """d log(trace) / d log(size) between two measured points, kept within [0.25, 4]."""
    if a.size == b.size or not a.trace or not b.trace or a.trace == b.trace:
        return 1.0
    value = math.log(b.trace / a.trace) / math.log(b.size / a.size)
    return min(4.0, max(0.25, value))


def _interpolate(lo: _Point, hi: _Point, target: int) -> int:
    """The size where the log-log line through ``lo`` and ``hi`` meets ``target``."""
    t_lo, t_hi = math.log(lo.trace or 1), math.log(hi.trace or 1)
    frac = (math.log(target) - t_lo) / (t_hi - t_lo) if t_hi != t_lo else 0.5
    return round(math.exp(math.log(lo.size) + frac * (math.log(hi.size) - math.log(lo.size))))


def _fresh_between(guess: int, lo: int, hi: int, taken: dict[int, _Point]) -> int | None:
    """An unmeasured size strictly between ``lo`` and ``hi``, the nearest to ``guess``; None when there is none."""
    guess = min(hi - 1, max(lo + 1, guess))
    for offset in range(hi - lo):
        for size in (guess - offset, guess + offset):
            if lo < size < hi and size not in taken:
                return size
    return None


class LadderTasks(CaseTasks):
    """A case's rung tasks (rung by rung, each in plan order) and the case's ``manifest.ladder`` entry
    (``ladder``: the rungs found, the missing ones with the nearest traces, the sizes measured)."""

    def __init__(self, tasks: list[Task], record: dict[str, Any]) -> None:
        super().__init__(tasks)
        self.ladder = record


Admit = Callable[[CaseContext, bytes, bytes, dict[str, Any], list[str]], CaseTasks]
"""``_case._admit_inputs`` with the loop line bound: (case, short, long, extra meta, ids) -> the case's tasks."""


def rung_spec(spec: CaseSpec, ladder: Ladder) -> CaseSpec:
    """``spec`` as a rung is built: the final-output arm on the long input (and the state arms on request), its
    inside checkpoint at the rung's own middle iteration, no sweep, input arm or invariant."""
    arms = [final_arms()["long"]]
    if ladder.state_arms:
        arms += list(state_arms().values())
    checkpoint = spec.checkpoint.model_copy(update={"inside_iteration": None, "inside_iterations": (), "sweep": None})
    update = {"arms": tuple(arms), "input_arm": False, "invariant": None, "checkpoint": checkpoint}
    return spec.model_copy(update=update)


def build_ladder(case: CaseContext, ladder: Ladder, published_short: bytes | None, admit: Admit) -> LadderTasks:
    """The rung tasks of ``case`` (built on ``rung_spec``), rung by rung, and its ``manifest.ladder`` entry.

    A case with no generator with a size, or whose generator fails at the smallest size, has no rungs: its entry
    says why (``none``), and it is not an exclusion. ``published_short``: the case's published short input, a
    second candidate for the trace-order check's short input of the lowest rungs (None: none)."""
    spec = case.spec
    gen = sized_generator(spec)
    if isinstance(gen, str):
        return LadderTasks([], {"none": gen})
    seed = ladder.case_seed(spec.id)
    search = _Search(case, gen, seed, ladder)
    first = search.measure(MIN_SIZE)
    for size in range(MIN_SIZE + 1, MIN_SIZE + START_TRIES):  # a generator may need a larger least size
        if first.trace is not None:
            break
        first = search.measure(size)
    if first.trace is None:
        return LadderTasks([], {"none": f"at sizes {MIN_SIZE} to {first.size}: {first.failed}", "seed": seed})
    references = [_measure_point(case, gen, 0, seed)]  # size 0, where the generator has one: the smallest input
    if published_short is not None:
        m = case.memo.measure_once(case.lang, case.source, published_short, None, state=False)
        trace = int(m.trace_length) if m.ok and m.trace_length is not None else None
        references.append(_Point(0, seed, published_short, trace))
    tasks: list[Task] = []
    rungs: list[dict[str, Any]] = []
    missing: list[dict[str, Any]] = []
    for k, target in enumerate(ladder.targets):
        found = search.find(target)
        if found is None:
            near = sorted(search.measured(), key=lambda p: abs(math.log(max(1, p.trace or 1) / target)))[:2]
            missing.append({"rung": k, "target": target, "nearest": [p.record() for p in near]})
            continue
        budget = ladder.object_budget(target, case.opts.object_budget)
        at = _with_object_budget(case, budget)
        failed: list[str] = []
        for point in search.alternatives(found, target):
            made = _admit_rung(at, admit, search, references, point, k, target)
            if not isinstance(made, Excluded):
                tasks.extend(made)
                rung = {"rung": k, "target": target, "trace": point.trace, "size": point.size, "seed": point.seed}
                rungs.append({**rung, "object_budget": budget})
                break
            failed.append(f"size {point.size} (trace {point.trace}): check {made.check}: {made.reason}")
            if not_retried(made):  # its alternatives, of a similar trace, would walk as much
                gap = {"rung": k, "target": target, "nearest": [found.record()], "reason": "; ".join(failed)}
                missing.append({**gap, "check": made.check, "object_budget": budget})
                break
        else:
            missing.append({"rung": k, "target": target, "nearest": [found.record()], "reason": "; ".join(failed)})
    entry = {
        "generator": gen.describe,
        "seed": seed,
        "rungs": rungs,
        "missing": missing,
        "sizes_measured": len(search.points),
    }
    return LadderTasks(tasks, entry)


def _admit_rung(
    case: CaseContext, admit: Admit, search: _Search, references: list[_Point], point: _Point, k: int, target: int
) -> CaseTasks | Excluded:
    """The tasks of rung ``k`` on ``point``'s input, or why it failed (the check, or ``trace-order`` when no
    measured input is shorter to compare it with), its reason on one line."""
    trace = int(point.trace or 0)
    shorts = [p for p in [*search.measured(), *references] if p.trace is not None and p.trace < trace]
    if not shorts:
        return Excluded(
            "trace-order", "no measured input has a shorter trace, to be the trace-order check's short input"
        )
    short = min(shorts, key=lambda p: (p.trace or 0, p.size))
    record = {"rung": k, "target": target, "trace": trace, "size": point.size, "seed": point.seed, "of": case.spec.id}
    try:
        return admit(case, short.data, point.data, {"ladder": record}, [rung_id(case.spec.id, k)])
    except Excluded as exc:
        return Excluded(exc.check, one_line(exc.reason)[:300])


def not_retried(exc: Excluded) -> bool:
    """Whether a rung input's refusal ends the rung without trying its alternatives: a counted budget
    (``NO_RETRY_CHECKS``), or a measurement stopped at its CPU limit (the safety net above the budgets, reached first
    by a walk the budget would stop a little later): inputs of a similar trace walk about as much."""
    return exc.check in NO_RETRY_CHECKS or (exc.check == "run" and _CPU_LIMIT in exc.reason)


def _with_object_budget(case: CaseContext, budget: int | None) -> CaseContext:
    """``case`` measuring under the object budget ``budget`` (its options' and its language adapter's: the adapters
    with a ``budget`` field, Python's and C++'s); ``case`` itself when that is already its budget."""
    if budget == case.opts.object_budget:
        return case
    lang = case.lang
    if dataclasses.is_dataclass(lang) and not isinstance(lang, type) and hasattr(lang, "budget"):
        lang = dataclasses.replace(lang, budget=dataclasses.replace(lang.budget, state_objects=budget))
    return dataclasses.replace(case, opts=dataclasses.replace(case.opts, object_budget=budget), lang=lang)


def ladder_of(tasks: list[Any]) -> dict[str, Any] | None:
    """The ``manifest.ladder`` entry ``build_case``'s tasks carry (None for a plain list)."""
    return getattr(tasks, "ladder", None)


__all__ = [
    "LADDER_SUFFIX",
    "MIN_SIZE",
    "NO_RETRY_CHECKS",
    "OBJECTS_PER_EVENT",
    "SIZE_MARKER",
    "Ladder",
    "LadderTasks",
    "SizedGenerator",
    "build_ladder",
    "ladder_of",
    "not_retried",
    "rung_id",
    "rung_spec",
    "sized_generator",
]
