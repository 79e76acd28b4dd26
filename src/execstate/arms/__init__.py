"""Arms as data: every question execstate can ask of a case, declared once as an ``ArmSpec`` in one registry.

An arm is the question a task asks: the final output on the short or the long input, the state at a loop
checkpoint, a loop trace, a line count, a function's output. Everything the house needs to know about an arm
it reads from its spec: which group of analyses it belongs to (``paper``: the four arms of the paired
analyses; ``extra``: tabulated after them; ``further``: asked only when a case lists it, analysed in its own
tables), the kind of answer, the default grading rule, its label and colour, the language capability it needs,
and three optional hooks named as ``"module:attr"`` (imported only when used):

- ``plan``: builds the arm's plan row from a checked case (``execstate.builder.ArmContext`` -> ``PlanRow`` or
  ``NotPosed``); the builder calls it for every arm a case asks for that has one;
- ``grade_detail``: the extra fields of a grade (``(task, answer) -> dict``), e.g. a loop trace's steps;
- ``simulate``: how the synthetic provider answers the arm (``(task, draws, right) -> str``, ``draws`` a
  ``CellDraws``: seeded uniforms and chances for the cell); without it the
  synthetic provider answers with the oracle when right and a near miss otherwise, shifting its logit by
  ``synthetic_bonus``.

The built-in arms are in ``_builtin`` (declared as entry points in ``pyproject.toml``); another package adds
one through the entry-point group
``execstate.arms`` (``docs/extending.md``, "a new arm"). Only this package and the registry name arms:
the rest of the library asks ``arm_names(...)`` and ``arm_spec(...)``.
"""

from __future__ import annotations

from execstate.arms._spec import GROUPS, ArmGroup, ArmSpec, Hook, check_spec, load_hook
from execstate.registry import Registry

ARM_REGISTRY: Registry[ArmSpec] = Registry(
    "arm",
    group="execstate.arms",
    home="execstate.",
    check=check_spec,
    name_of=lambda spec: spec.name,
)
"""Every arm by name. The built-in ones are execstate's own entry points (``pyproject.toml``), declared like
a plug-in's: their hooks name the builder, the grader and the synthetic provider, which a module this low
must not name (the import graph counts ``"module:attr"`` strings)."""


def arm_spec(name: str) -> ArmSpec:
    """The spec of arm ``name``; ``RegistryMiss`` naming the known arms when there is none."""
    return ARM_REGISTRY.get(name)


def is_arm(name: object) -> bool:
    """True when ``name`` is a known arm (built-in, registered, or from an installed package)."""
    return isinstance(name, str) and name in ARM_REGISTRY


def arm_specs(
    *,
    group: str | tuple[str, ...] | None = None,
    family: str | tuple[str, ...] | None = None,
    builtin: bool = False,
    case_arm: bool | None = None,
) -> list[ArmSpec]:
    """The specs matching every filter given, in arm order (``order``, then name).

    ``builtin`` keeps only execstate's own arms (the paper's fixed vocabularies, whatever a plug-in adds)."""
    groups = (group,) if isinstance(group, str) else group
    families = (family,) if isinstance(family, str) else family
    names = ARM_REGISTRY.home_names() if builtin else ARM_REGISTRY.declared()
    specs = [ARM_REGISTRY.get(n) for n in names]
    chosen = [
        s
        for s in specs
        if (groups is None or s.group in groups)
        and (families is None or s.family in families)
        and (case_arm is None or s.case_arm == case_arm)
    ]
    return sorted(chosen, key=lambda s: (s.order, s.name))


def arm_names(
    *,
    group: str | tuple[str, ...] | None = None,
    family: str | tuple[str, ...] | None = None,
    builtin: bool = False,
    case_arm: bool | None = None,
) -> tuple[str, ...]:
    """The names of ``arm_specs(...)``, in arm order."""
    return tuple(s.name for s in arm_specs(group=group, family=family, builtin=builtin, case_arm=case_arm))


def arm_order(name: str) -> tuple[int, str]:
    """A sort key putting arms in the order a case's tasks are written (unknown arms last, by name)."""
    return (arm_spec(name).order, name) if is_arm(name) else (10**6, name)


def arm_label(name: str) -> str:
    """The arm's short label (``short``, ``inside``, ``trace``); the name for an unknown arm."""
    return arm_spec(name).short if is_arm(name) else name


def arm_color(name: str, default: str = "#777777") -> str:
    """The arm's figure colour; ``default`` when it has none."""
    color = arm_spec(name).color if is_arm(name) else None
    return color or default


def register_arm(spec: ArmSpec, *, replace: bool = False) -> None:
    """Add an arm for this process (a test, a notebook); a package adds one through its ``execstate.arms``
    entry point instead."""
    ARM_REGISTRY.register(spec.name, spec, replace=replace)


def unregister_arm(name: str) -> None:
    """Remove an arm added with ``register_arm``."""
    ARM_REGISTRY.unregister(name)


# The paper's fixed vocabularies, for readers of the public API (``from execstate.arms import ARMS``). The
# library itself asks ``arm_names(...)``; these name only built-in arms and never change with plug-ins.
ARMS: tuple[str, ...] = ("short-trace-final", "long-trace-final", "inside-loop-state", "post-loop-state")
"""The paper's four arms of a case, in the stable order tasks are written."""
FINAL_ARMS: tuple[str, ...] = ARMS[:2]
STATE_ARMS: tuple[str, ...] = ARMS[2:]
FUNCTION_ARMS: tuple[str, ...] = ("function-output", "function-input")
PROGRAM_INPUT_ARM = "short-trace-input"
EXTRA_ARMS: tuple[str, ...] = (*FUNCTION_ARMS, PROGRAM_INPUT_ARM)
LOOP_TRACE_ARM = "loop-trace"
LINE_COUNT_ARM = "line-count"
FURTHER_ARMS: tuple[str, ...] = (LOOP_TRACE_ARM, LINE_COUNT_ARM)
CASE_ARMS: tuple[str, ...] = (*ARMS, *FURTHER_ARMS)

__all__ = [
    "ARMS",
    "ARM_REGISTRY",
    "CASE_ARMS",
    "EXTRA_ARMS",
    "FINAL_ARMS",
    "FUNCTION_ARMS",
    "FURTHER_ARMS",
    "GROUPS",
    "LINE_COUNT_ARM",
    "LOOP_TRACE_ARM",
    "PROGRAM_INPUT_ARM",
    "STATE_ARMS",
    "ArmGroup",
    "ArmSpec",
    "Hook",
    "arm_color",
    "arm_label",
    "arm_names",
    "arm_order",
    "arm_spec",
    "arm_specs",
    "is_arm",
    "load_hook",
    "register_arm",
    "unregister_arm",
]
