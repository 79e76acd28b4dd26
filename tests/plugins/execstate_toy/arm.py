"""The toy arm ``output-length``: how many characters the program prints on the short input.

Its oracle comes from execution: the builder's ``ArmContext`` holds the clean program's stdout on the short input,
and the plan hook counts it. The task shows the clean program and the short input, like the short final arm.
"""

from __future__ import annotations

from execstate.arms import ArmSpec
from execstate.builder import ArmContext, NotPosed, PlanRow

NAME = "output-length"


def plan_row(ctx: ArmContext, spec: ArmSpec) -> PlanRow | NotPosed:
    """The arm's row for a checked case: the clean program on the short input, the oracle its output's length."""
    output = ctx.output("short").decode("utf-8")
    if not output:
        return NotPosed(spec.name, "the program prints nothing on the short input")
    # The oracle is not the program's stdout: ``expected_output`` tells the measured run what it must print.
    extra = {"expected_output": output}
    return PlanRow(spec.name, ctx.source, ctx.input("short"), str(len(output)), "text", endpoint=ctx.clean, extra=extra)


ARM = ArmSpec(
    NAME,
    "further",
    "count",
    "text",
    95,
    label="length",
    color="#64b5cd",
    default_rule="integer",
    plan="execstate_toy.arm:plan_row",
    synthetic_bonus=0.5,
    description="how many characters the program prints on the short input",
)
