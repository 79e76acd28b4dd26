"""The arms the analyses group and order, read from the arm registry (``execstate.arms``): none is named here.

The paper's tables list the arms of groups ``paper`` and ``extra`` in arm order; the paired comparison pairs the
paper's final arms on the short and the long input; the taxonomy compares a final answer with the output of the
case's other input. A plug-in's arm of one of these groups goes where a built-in one does.
"""

from __future__ import annotations

from execstate.arms import arm_names, arm_specs

TABLE_GROUPS = ("paper", "extra")
"""The arm groups the paper's tables count (``ArmSpec.in_paper_tables``)."""
_OTHER_INPUT = {"short": "long", "long": "short"}


def table_arms() -> tuple[str, ...]:
    """The arms the paper's tables count, in arm order (the four paper arms, then the extra ones)."""
    return arm_names(group=TABLE_GROUPS)


def paper_arms() -> tuple[str, ...]:
    """The paper's four arms, in arm order."""
    return arm_names(group="paper")


def final_arm(input_name: str) -> str:
    """The paper's final-output arm asked on the case's ``input_name`` input (``short`` or ``long``)."""
    found = [s.name for s in arm_specs(group="paper", family="final") if s.input_name == input_name]
    if len(found) != 1:
        raise ValueError(f"the arm registry has {len(found)} paper final arms on the {input_name} input, not one")
    return found[0]


def other_input_finals() -> dict[str, str]:
    """Each final-output arm -> the final-output arm asked on the case's other input (short <-> long)."""
    finals = arm_specs(family="final")
    on = {s.input_name: s.name for s in finals if s.input_name}
    other = {s.name: _OTHER_INPUT.get(s.input_name or "", "") for s in finals}
    return {name: on[input_name] for name, input_name in other.items() if input_name in on}
