"""The task plan: one ``PlanRow`` per task a case becomes, in task order, made from its checked runs.

The final and state arms' rows (``arm_rows``), then the input arm's (``input_row``, when the spec asks for
it), then a checkpoint sweep's extra inside rows (``_states.sweep_rows``), then the rows of the arms with a
``plan`` hook (``_further``). ``_tasks`` measures each row and makes it a ``Task``. Which arm is which comes
from the arm specs (``execstate.arms``): the rows here are made from what the checks ran (a sweep's rows need
runs of their own).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from execstate.arms import ArmSpec, arm_specs
from execstate.builder._spec import CaseSpec
from execstate.errors import UsageError
from execstate.languages import Endpoint, Instrumented, language_entry
from execstate.records import Arm

CheckpointMode = Literal["inside", "post"]
"""The two checkpoints of a case: at iteration k of the loop, and at the exit of the execution holding it."""
CHECKPOINTS: tuple[CheckpointMode, ...] = ("inside", "post")
"""The checkpoints every case is checked at, whichever arms it asks for."""


def _built_here(family: str) -> list[ArmSpec]:
    """The arms of ``family`` this module makes (those without a ``plan`` hook), in arm order."""
    return [s for s in arm_specs(family=family) if s.plan is None]


def final_arms() -> dict[str, Arm]:
    """Each input's final arm (family ``final``, keyed by ``input_name``), in arm order."""
    return {str(s.input_name): s.name for s in _built_here("final")}


def state_arms() -> dict[CheckpointMode, Arm]:
    """Each checkpoint's state arm (family ``state``, keyed by ``checkpoint``), in arm order."""
    return {mode: s.name for s in _built_here("state") for mode in CHECKPOINTS if s.checkpoint == mode}


def input_arm() -> Arm:
    """The input arm (the one arm of family ``input``), asked by ``input_arm = true``."""
    found = _built_here("input")
    if len(found) != 1:
        names = ", ".join(s.name for s in found) or "none"
        raise UsageError(f"the input arm is the one arm of family 'input'; found {names}. Fix: declare exactly one")
    return found[0].name


@dataclass(frozen=True)
class PlanRow:
    """One task to make: what its prompt shows, what answers it, and what its metrics measure."""

    arm: Arm
    """The task's arm; its id is ``<case id>/<arm><suffix>``."""
    source: str
    """The program the prompt shows: the clean program (final arms), the arm's instrumented copy (state
    arms), or the clean program with the question below it in comments (input arm)."""
    stdin: bytes
    """The input the program runs on: measured, and shown in the prompt unless ``extra`` says otherwise."""
    oracle: str
    """The right answer: the clean stdout, the checkpoint's state line, or (input arm) the short input."""
    answer_kind: Literal["text", "json"]
    """``json`` for a state line, ``text`` otherwise."""
    endpoint: Endpoint
    """What the metrics measure: the clean program to its end, or the row's copy to its checkpoint."""
    suffix: str = ""
    """Appended to the arm in the task id: empty, or ``@k<k>`` for a sweep's extra inside task."""
    extra: dict[str, Any] = field(default_factory=dict)
    """The row's own meta keys, which no prompt shows: ``neighbours`` (neighbour oracles), the input arm's
    ``output`` and ``output_rule``, a sweep's ``k`` and ``sweep``, a loop trace's ``trace_steps`` and
    ``trace_cap``, a line count's ``line_count``; and what only decides the task's fields, never written to
    meta (``shown_meta``): ``shown_input``, the prompt's input when it is not ``stdin``; ``expected_output``,
    the stdout the measured run must print when the oracle is not it (a line count); ``grading_rule``, the
    task's rule when it is not the case's."""

    def shown_meta(self) -> dict[str, Any]:
        """``extra`` without what only decides the task's fields (``ROW_ONLY_KEYS``)."""
        return {key: value for key, value in self.extra.items() if key not in ROW_ONLY_KEYS}


ROW_ONLY_KEYS = ("shown_input", "expected_output", "grading_rule")
"""Keys of ``PlanRow.extra`` that decide a task's fields and are not written to its meta."""


def arm_rows(
    source: str,
    clean: Endpoint,
    k: int,
    runs: dict[str, tuple[bytes, bytes]],
    inst: dict[CheckpointMode, Instrumented],
    oracles: dict[CheckpointMode, str],
    near: dict[CheckpointMode, list[dict]],
) -> list[PlanRow]:
    """The final and state arms' rows in arm order: the final arms run the clean program (``clean``) on each
    input (``runs``: input name -> (input, clean stdout)); each state arm its copy at ``k`` (``inst``) on the long.

    ``extra`` holds neighbour oracles (``neighbours``): a state arm's states at nearby checkpoints
    (``near``), a final arm's output on the other arm's input.
    """
    finals = final_arms()
    final = {name: runs[name][1].decode("utf-8") for name in finals}
    rows = []
    for name, arm in finals.items():
        other = "long" if name == "short" else "short"
        neighbours = _other_output(other, final[other])
        rows.append(
            PlanRow(arm, source, runs[name][0], final[name], answer_kind="text", endpoint=clean, extra=neighbours)
        )
    for mode, arm in state_arms().items():
        end = Endpoint(clean.loop_line, clean.variables, mode, k, inst[mode])
        neighbours = {"neighbours": near[mode]}
        rows.append(
            PlanRow(
                arm,
                inst[mode].source,
                runs["long"][0],
                oracles[mode],
                answer_kind="json",
                endpoint=end,
                extra=neighbours,
            )
        )
    return rows


MAX_NEIGHBOUR_OUTPUT = 10_000
"""A final arm's meta keeps the other input's output only up to this many characters (the sibling task has it)."""


def _other_output(name: str, output: str) -> dict:
    """A final arm's neighbour oracle: the output on the other arm's input, when it is short enough."""
    return {"neighbours": [{"input": name, "output": output}]} if len(output) <= MAX_NEIGHBOUR_OUTPUT else {}


INPUT_QUESTION = (
    "Input prediction: give a standard input on which this program prints exactly the following output "
    "(any such input is right; it is run to check):"
)
"""The first comment line the input arm adds below the program."""


def input_row(spec: CaseSpec, source: str, short: bytes, output: str, clean: Endpoint) -> PlanRow:
    """The plan row of the input arm: the clean program with the question and the short output in comments
    below it; no input shown; the oracle is the short input (one right answer), and ``meta.output`` the output
    an answered input must make the program print under ``meta.output_rule`` (the case's grading rule)."""
    lines = [INPUT_QUESTION, *(output[:-1] if output.endswith("\n") else output).split("\n")]
    mark = language_entry(spec.language).line_comment
    shown = source.rstrip("\n") + "\n\n" + "".join(f"{mark} {line}".rstrip() + "\n" for line in lines)
    extra = {"output": output, "output_rule": spec.grading_rule, "shown_input": ""}
    return PlanRow(input_arm(), shown, short, short.decode("utf-8"), answer_kind="text", endpoint=clean, extra=extra)


__all__ = [
    "CHECKPOINTS",
    "INPUT_QUESTION",
    "MAX_NEIGHBOUR_OUTPUT",
    "CheckpointMode",
    "PlanRow",
    "arm_rows",
    "final_arms",
    "input_arm",
    "input_row",
    "state_arms",
]
