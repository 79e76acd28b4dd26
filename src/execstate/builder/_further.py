"""The arms made by a ``plan`` hook (the further arms: loop trace, line count, and a plug-in's) of a checked case.

A case gets them only when its spec's ``arms`` (or the build's ``add_arms``) asks. They are made after the
nine checks admitted the case, from its checked runs (``ArmContext``): for each asked arm whose spec has a
``plan`` hook, in arm order, the builder calls ``hook(ctx, spec)`` for a ``PlanRow`` or a ``NotPosed``. An arm
that cannot be posed on a case is not an exclusion: the case keeps its other tasks, and the reason is recorded
(``NotPosed``, the manifest's ``not_posed``): a language without the arm's ``capability``, a check a hook's
oracle failed (``Excluded`` raised by the helpers of ``ArmContext``), or the hook's own reason.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from execstate import languages
from execstate.arms import ArmSpec, arm_specs
from execstate.builder._checks import Excluded, check_preservation
from execstate.builder._context import CaseContext
from execstate.builder._plan import PlanRow
from execstate.builder._spec import CaseSpec
from execstate.builder._states import state_oracle
from execstate.errors import UsageError, load_attr
from execstate.languages import (
    BranchLine,
    Endpoint,
    Instrumented,
    Language,
    LineCounting,
    LoopTracing,
    language_entry,
    source_lines,
)
from execstate.records import Task
from execstate.values import json_value

COUNT_MARK = "<-- count this line"
"""The comment that marks a line-count task's line, after the language's comment sign."""
COUNT_QUESTION = (
    "Line count: how many times does the line marked `{mark}` (line {line}) execute when this program "
    "runs on the input below? Give that number as the output."
)
"""The comment line a line-count task adds below the program."""


@dataclass(frozen=True)
class NotPosed:
    """An arm a case asked for and did not get, and why (a plan hook's answer when it cannot pose the arm)."""

    arm: str
    reason: str

    def record(self, case_id: str) -> dict[str, str]:
        """The manifest's ``not_posed`` entry."""
        return {"case_id": case_id, "arm": self.arm, "reason": self.reason}


class CaseTasks(list[Task]):
    """A case's tasks, in plan order, and the further arms it asked for but did not get (``not_posed``) and the
    source variants the build asked for that were not kept (``not_kept``: ``{"case_id", "variant", "reason"}``)."""

    def __init__(self, tasks: list[Task] | None = None, not_posed: list[NotPosed] | None = None) -> None:
        super().__init__(tasks or [])
        self.not_posed: list[NotPosed] = list(not_posed or [])
        self.not_kept: list[dict[str, str]] = []


def not_posed_of(tasks: list[Task]) -> list[NotPosed]:
    """The further arms ``build_case``'s tasks say were not posed (none for a plain list)."""
    return list(getattr(tasks, "not_posed", []))


def not_kept_of(tasks: list[Task]) -> list[dict[str, str]]:
    """The source variants ``build_case``'s tasks say were not kept (none for a plain list)."""
    return list(getattr(tasks, "not_kept", []))


@dataclass(frozen=True)
class ArmContext:
    """What a plan hook reads of a case the nine checks admitted: the case (its language adapter, clean source
    and spec), its selected loop and inside iteration, and its two inputs with their clean stdout.

    Its helpers run the checks the state arms' oracles pass; each raises ``Excluded`` when one fails, which the
    builder records as the arm's ``NotPosed`` (``check <name>: <reason>``)."""

    case: CaseContext
    """The case being built: ``run`` and ``instrument`` its program, its folder and the build's options."""
    loop_line: int
    """The selected loop's header line."""
    k: int
    """The inside checkpoint's iteration."""
    runs: dict[str, tuple[bytes, bytes]]
    """``short`` and ``long``: the input and the clean program's stdout on it."""

    @property
    def lang(self) -> Language:
        """The adapter of the program's language (check ``spec.capability``'s protocol with ``isinstance``)."""
        return self.case.lang

    @property
    def source(self) -> str:
        """The clean program's text."""
        return self.case.source

    @property
    def spec(self) -> CaseSpec:
        """The case spec (its id, checkpoint variables, ``trace_steps``, grading rule)."""
        return self.case.spec

    @property
    def clean(self) -> Endpoint:
        """The endpoint of the clean program run to its end (what a row showing the clean program measures)."""
        return Endpoint(self.loop_line, self.spec.checkpoint.variables)

    def input(self, name: str) -> bytes:
        """The ``short`` or ``long`` input."""
        return self.runs[name][0]

    def output(self, name: str) -> bytes:
        """The clean program's stdout on the ``short`` or ``long`` input."""
        return self.runs[name][1]

    def state_oracle(self, inst: Instrumented, data: bytes, label: str) -> str:
        """The line the copy ``inst`` prints on ``data``, from one run per variation, checked like a state arm's
        oracle (``label`` names it in a failed check's reason)."""
        return state_oracle(self.case, inst, data, label)

    def check_preservation(self, inst: Instrumented, label: str) -> None:
        """``preservation``: ``inst`` with its checkpoint disabled prints the clean stdout on both inputs."""
        check_preservation(self.case, inst, label, self.runs)


def hooked_rows(ctx: ArmContext, asked: Collection[str]) -> tuple[list[PlanRow], list[NotPosed]]:
    """The rows of the ``asked`` arms that have a ``plan`` hook, in arm order, and those not posed, with why."""
    rows, not_posed = [], []
    for spec in arm_specs(case_arm=True):
        if spec.name not in asked or spec.plan is None:
            continue
        row = _hooked_row(ctx, spec)
        if isinstance(row, NotPosed):
            not_posed.append(row)
        elif row.arm != spec.name:
            raise UsageError(f"the plan hook of arm {spec.name!r} made a row of arm {row.arm!r}. Fix: use spec.name")
        else:
            rows.append(row)
    return rows, not_posed


def _hooked_row(ctx: ArmContext, spec: ArmSpec) -> PlanRow | NotPosed:
    """The arm's row from its hook; ``NotPosed`` when the language lacks its capability or a check fails."""
    if spec.capability is not None and not _capable(ctx.lang, spec.capability):
        why = f"the {ctx.lang.name} adapter has no {spec.capability} (the {spec.name} arm needs it)"
        return NotPosed(spec.name, why)
    hook = load_attr(spec.plan) if isinstance(spec.plan, str) else spec.plan
    assert hook is not None  # hooked_rows asks only the arms that have one
    try:
        return hook(ctx, spec)
    except Excluded as exc:
        return NotPosed(spec.name, f"check {exc.check}: {exc.reason}")


def _capable(lang: Language, capability: str) -> bool:
    """True when ``lang`` implements the protocol of ``execstate.languages`` named ``capability``."""
    protocol = getattr(languages, capability, None)
    if isinstance(protocol, type):
        try:
            return isinstance(lang, protocol)
        except TypeError:  # a protocol that is not runtime_checkable
            pass
    why = f"an arm needs capability {capability!r}, which is not a runtime-checkable protocol of execstate.languages"
    raise UsageError(f"{why}. Fix: name one, e.g. LoopTracing")


def loop_trace_row(ctx: ArmContext, spec: ArmSpec) -> PlanRow | NotPosed:
    """The loop-trace row: the trace copy at ``k`` on the long input (``LoopTracing.trace_copy``), its oracle
    the list it prints, checked like a state oracle; ``NotPosed`` when the loop run holding ``k`` has reached
    only one iteration there."""
    lang, variables, cap = ctx.lang, ctx.spec.checkpoint.variables, ctx.spec.checkpoint.trace_steps
    assert isinstance(lang, LoopTracing)  # the builder checked spec.capability
    inst = lang.trace_copy(ctx.source, ctx.loop_line, variables, ctx.k, cap)
    long = ctx.input("long")
    oracle = ctx.state_oracle(inst, long, spec.name)
    ctx.check_preservation(inst, spec.name)
    steps = json_value(oracle)
    if not isinstance(steps, list) or len(steps) < 2:
        why = f"iteration {ctx.k} is the first of its loop run: a trace of 1 step (at least 2 are posed)"
        return NotPosed(spec.name, why)
    end = Endpoint(ctx.loop_line, variables, "inside", ctx.k, inst)
    extra = {"trace_steps": len(steps), "trace_cap": cap}
    return PlanRow(spec.name, inst.source, long, oracle, answer_kind="json", endpoint=end, extra=extra)


def line_count_row(ctx: ArmContext, spec: ArmSpec) -> PlanRow | NotPosed:
    """The line-count row: the clean program on the short input with one line marked (``choose_line``), its
    oracle how many times that line ran there, equal in every variation and in the clean program."""
    lang, source, case = ctx.lang, ctx.source, ctx.case
    assert isinstance(lang, LineCounting)  # the builder checked spec.capability
    short, short_out = ctx.runs["short"]
    offered = lang.branch_lines(source, ctx.loop_line)
    if not offered:
        return NotPosed(spec.name, "no statement alone on its line opens an arm of a branch in the loop's body")
    seeds = [v.seed for v in lang.variations]
    counts = lang.line_counts(source, short, case.workdir, seed=seeds[0])
    counted = lang.instrument(source, ctx.loop_line, ctx.spec.checkpoint.variables, "count")
    iterations = lang.iterations(case.run(counted.source, short))
    if counts is None or iterations is None:
        return NotPosed(spec.name, "counting the program's lines or loop iterations on the short input failed")
    chosen = choose_line(offered, counts, iterations)
    if chosen is None:
        why = (
            f"no offered line (of {len(offered)}) is under a branch both taken and not taken on the short input "
            f"with a count other than the loop's {iterations} iterations"
        )
        return NotPosed(spec.name, why)
    line, taken, evaluated = chosen
    shown = mark_line(source, line.line, language_entry(ctx.spec.language).line_comment)
    for seed in seeds:
        got = lang.line_counts(shown, short, case.workdir, seed=seed)
        if got is None or got.get(line.line, 0) != taken:
            found = "no count" if got is None else got.get(line.line, 0)
            why = f"line {line.line} ran {taken} times in the clean program but {found} in the marked one (seed {seed})"
            return NotPosed(spec.name, why)
    res = case.run(shown, short)
    if not res.ok or res.stdout != short_out:
        return NotPosed(spec.name, f"the marked program does not print the clean output: {res.describe()}")
    record = {
        "line": line.line,
        "text": source_lines(source)[line.line - 1].strip(),
        "branch_line": line.branch_line,
        "arm": line.arm,
        "taken": taken,
        "evaluated": evaluated,
        "imbalance": imbalance(taken, evaluated),
        "loop_iterations": iterations,
    }
    extra = {"line_count": record, "expected_output": short_out.decode("utf-8")}
    return PlanRow(spec.name, shown, short, str(taken), answer_kind="text", endpoint=ctx.clean, extra=extra)


def imbalance(taken: int, evaluated: int) -> float:
    """How unbalanced a branch is between taken and not taken: ``|taken - not taken| / evaluated``, 0 to 1."""
    return round(abs(2 * taken - evaluated) / evaluated, 6)


def choose_line(
    offered: list[BranchLine], counts: dict[int, int], iterations: int
) -> tuple[BranchLine, int, int] | None:
    """The line a line count marks, with its count and its branch's evaluations; None when none qualifies.

    A line qualifies when its branch was both taken and not taken (``0 < taken < evaluated``) and it ran
    neither 0 times nor as many times as the loop iterated. Of those, the most unbalanced branch
    (``imbalance``) wins; ties go to the first line.
    """
    best: tuple[float, int, BranchLine, int, int] | None = None
    for line in offered:
        taken, evaluated = counts.get(line.line, 0), counts.get(line.branch_line, 0)
        if not 0 < taken < evaluated or taken == iterations:
            continue
        key = (imbalance(taken, evaluated), -line.line)
        if best is None or key > best[:2]:
            best = (*key, line, taken, evaluated)
    return None if best is None else best[2:]


def mark_line(source: str, line: int, comment: str) -> str:
    """``source`` with ``line`` marked by a trailing comment and the question in comment lines below the program."""
    lines = source_lines(source)
    text = lines[line - 1]
    body = text.rstrip("\r\n")
    lines[line - 1] = f"{body.rstrip()}  {comment} {COUNT_MARK}" + text[len(body) :]
    shown = "".join(lines)
    end = "\r\n" if "\r\n" in source else "\n"
    if not shown.endswith(("\n", "\r")):
        shown += end
    question = COUNT_QUESTION.format(mark=COUNT_MARK, line=line)
    return shown + end + f"{comment} {question}" + end


__all__ = [
    "COUNT_MARK",
    "COUNT_QUESTION",
    "ArmContext",
    "CaseTasks",
    "NotPosed",
    "choose_line",
    "hooked_rows",
    "imbalance",
    "line_count_row",
    "loop_trace_row",
    "mark_line",
    "not_kept_of",
    "not_posed_of",
]
