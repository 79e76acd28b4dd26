"""The further arms of a checked case: its loop trace and its line count (``records.FURTHER_ARMS``).

A case gets them only when its spec's ``arms`` (or the build's ``add_arms``) asks. They are made after the
nine checks admitted the case, from its checked runs, and each is checked as the state arms are (its oracle
from one run per variation, equal across them, its copy preserving the clean output). A further arm that
cannot be posed on a case is not an exclusion: the case keeps its other tasks, and the reason is recorded
(``NotPosed``, the manifest's ``not_posed``).
"""

from __future__ import annotations

from dataclasses import dataclass

from execstate.builder._checks import Excluded, check_preservation
from execstate.builder._context import CaseContext
from execstate.builder._plan import PlanRow
from execstate.builder._states import state_oracle
from execstate.languages import BranchLine, Endpoint, LineCounting, LoopTracing, language_entry, source_lines
from execstate.records import LINE_COUNT_ARM, LOOP_TRACE_ARM, Task
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
    """A further arm a case asked for and did not get, and why."""

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


def trace_row(case: CaseContext, loop_line: int, k: int, runs: dict[str, tuple[bytes, bytes]]) -> PlanRow | NotPosed:
    """The ``loop-trace`` row: the trace copy at ``k`` on the long input (``LoopTracing.trace_copy``), its oracle
    the list it prints, checked like a state oracle; ``NotPosed`` when the language cannot, a check fails, or
    the loop run holding ``k`` has reached only one iteration there."""
    lang, spec = case.lang, case.spec
    if not isinstance(lang, LoopTracing):
        return NotPosed(LOOP_TRACE_ARM, f"the {lang.name} adapter makes no loop-trace copy (LoopTracing)")
    cap = spec.checkpoint.trace_steps
    inst = lang.trace_copy(case.source, loop_line, spec.checkpoint.variables, k, cap)
    long = runs["long"][0]
    try:
        oracle = state_oracle(case, inst, long, LOOP_TRACE_ARM)
        check_preservation(case, inst, LOOP_TRACE_ARM, runs)
    except Excluded as exc:
        return NotPosed(LOOP_TRACE_ARM, f"check {exc.check}: {exc.reason}")
    steps = json_value(oracle)
    if not isinstance(steps, list) or len(steps) < 2:
        why = f"iteration {k} is the first of its loop run: a trace of 1 step (at least 2 are posed)"
        return NotPosed(LOOP_TRACE_ARM, why)
    end = Endpoint(loop_line, spec.checkpoint.variables, "inside", k, inst)
    extra = {"trace_steps": len(steps), "trace_cap": cap}
    return PlanRow(LOOP_TRACE_ARM, inst.source, long, oracle, answer_kind="json", endpoint=end, extra=extra)


def count_row(case: CaseContext, loop_line: int, runs: dict[str, tuple[bytes, bytes]]) -> PlanRow | NotPosed:
    """The ``line-count`` row: the clean program on the short input with one line marked (``choose_line``), its
    oracle how many times that line ran there, equal in every variation and in the clean program."""
    lang, spec = case.lang, case.spec
    if not isinstance(lang, LineCounting):
        return NotPosed(LINE_COUNT_ARM, f"the {lang.name} adapter counts no lines (LineCounting)")
    short, short_out = runs["short"]
    offered = lang.branch_lines(case.source, loop_line)
    if not offered:
        return NotPosed(LINE_COUNT_ARM, "no statement alone on its line opens an arm of a branch in the loop's body")
    seeds = [v.seed for v in lang.variations]
    counts = lang.line_counts(case.source, short, case.workdir, seed=seeds[0])
    counted = lang.instrument(case.source, loop_line, spec.checkpoint.variables, "count")
    iterations = lang.iterations(case.run(counted.source, short))
    if counts is None or iterations is None:
        return NotPosed(LINE_COUNT_ARM, "counting the program's lines or loop iterations on the short input failed")
    chosen = choose_line(offered, counts, iterations)
    if chosen is None:
        why = (
            f"no offered line (of {len(offered)}) is under a branch both taken and not taken on the short input "
            f"with a count other than the loop's {iterations} iterations"
        )
        return NotPosed(LINE_COUNT_ARM, why)
    line, taken, evaluated = chosen
    mark = language_entry(spec.language).line_comment
    shown = mark_line(case.source, line.line, mark)
    for seed in seeds:
        got = lang.line_counts(shown, short, case.workdir, seed=seed)
        if got is None or got.get(line.line, 0) != taken:
            found = "no count" if got is None else got.get(line.line, 0)
            why = f"line {line.line} ran {taken} times in the clean program but {found} in the marked one (seed {seed})"
            return NotPosed(LINE_COUNT_ARM, why)
    res = case.run(shown, short)
    if not res.ok or res.stdout != short_out:
        return NotPosed(LINE_COUNT_ARM, f"the marked program does not print the clean output: {res.describe()}")
    record = {
        "line": line.line,
        "text": source_lines(case.source)[line.line - 1].strip(),
        "branch_line": line.branch_line,
        "arm": line.arm,
        "taken": taken,
        "evaluated": evaluated,
        "imbalance": imbalance(taken, evaluated),
        "loop_iterations": iterations,
    }
    extra = {"line_count": record, "expected_output": short_out.decode("utf-8"), "grading_rule": "integer"}
    clean = Endpoint(loop_line, spec.checkpoint.variables)
    return PlanRow(LINE_COUNT_ARM, shown, short, str(taken), answer_kind="text", endpoint=clean, extra=extra)


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
    "CaseTasks",
    "NotPosed",
    "choose_line",
    "count_row",
    "imbalance",
    "mark_line",
    "not_kept_of",
    "not_posed_of",
    "trace_row",
]
