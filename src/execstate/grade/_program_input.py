"""The ``program-input`` rule of the optional input arm (``short-trace-input``): decided by running the program.

An answer is a standard input. It is right when the task's program, run on it in the sandbox (the builder's
language adapter: the interpreter or the compiled binary, with the build's default limits), exits 0 and prints
the target output (``meta.output``) under the case's own grading rule (``meta.output_rule``), so any input that
works is right, not only the short input the task was made from. The program shown ends with comment lines
stating the question; they do not change what it does. Nothing of the answer runs in execstate's process: it
is only the program's standard input.

The program runs once per grading run of its language (``_seeds.grading_variations``): for Python, whose
determinism runs are hash seeds, once under each of ``GRADE_HASH_SEEDS`` (``PYTHONHASHSEED`` 0 to 7); for a
language whose runs take no seed (C++) once per run of its own (``Language.variations``, the runs the
builder's ``determinism`` check compares). The answer is right only when it is right in every run; right in
some and wrong in others, it is wrong and flagged ``seed-dependent``, its reason naming the runs
(``_call_rule.agreed``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from execstate.builder import BuildOptions
from execstate.errors import RecordError, remove_tree
from execstate.grade._call_rule import CallVerdict, agreed
from execstate.grade._seeds import grading_variations
from execstate.languages import make_language
from execstate.records import Task
from execstate.sandbox import SandboxResult

_SHOWN = 80


Matches = Callable[[str, str, str], bool]
"""``(rule, answer, oracle) -> bool``: the registry's ``answer_matches`` (given by the caller, which sits above)."""


def check_program_inputs(
    answers: Sequence[tuple[Task, str]], matches: Matches, options: BuildOptions | None = None
) -> list[CallVerdict]:
    """The verdict on each ``(task, answered input)``, in order: the program run on the input in the sandbox, its
    output compared with ``meta.output`` by ``matches(meta.output_rule, printed, output)``."""
    opts = options or BuildOptions()
    work = Path(tempfile.mkdtemp(prefix="execstate-grade-input-"))
    try:
        return [_verdict(task, answer, opts, work, matches) for task, answer in answers]
    finally:
        remove_tree(work)


def _verdict(task: Task, answer: str, opts: BuildOptions, work: Path, matches: Matches) -> CallVerdict:
    if "output" not in task.meta or "output_rule" not in task.meta:
        raise RecordError(
            f"task {task.task_id} has rule program-input but no meta.output and meta.output_rule (what the program "
            "must print, and how it is compared). Fix: grade a tasks file written by `execstate build`"
        )
    lang = make_language(task.language, opts)
    data = answer.encode("utf-8", "surrogatepass")
    variations = grading_variations(lang.variations)
    runs = [_run_verdict(task, lang.run(task.source, data, work, seed=v.seed), matches) for v in variations]
    return agreed(runs, [v.name for v in variations])


def _run_verdict(task: Task, res: SandboxResult, matches: Matches) -> CallVerdict:
    """The verdict on one run of the program on the answered input."""
    if not res.ok:
        return CallVerdict(False, True, f"the program fails on this input: {res.describe()}"[:300], "raised")
    printed = res.stdout.decode("utf-8", "replace")
    if matches(str(task.meta["output_rule"]), printed, str(task.meta["output"])):
        return CallVerdict(True, True, None)
    shown = printed if len(printed) <= _SHOWN else printed[: _SHOWN - 3] + "..."
    return CallVerdict(False, True, f"the program prints {shown!r} on this input", "returned another value")


__all__ = ["check_program_inputs"]
