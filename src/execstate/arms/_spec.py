"""The ``ArmSpec`` type (``execstate.arms`` has the registry; ``_builtin`` execstate's own arms)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from execstate.errors import UsageError
from execstate.registry import resolve

ArmGroup = Literal["paper", "extra", "further"]
GROUPS: tuple[ArmGroup, ...] = ("paper", "extra", "further")

Hook = str | Callable[..., Any] | None
"""A hook: ``"module:attr"`` (imported on first use) or the callable itself."""


@dataclass(frozen=True)
class ArmSpec:
    """One arm, declared once."""

    name: str
    """The arm as written in ``Task.arm`` and task ids (``<case id>/<arm>``)."""
    group: ArmGroup
    """``paper`` (the four arms of the paired analyses), ``extra`` (tabulated after them, never paired) or
    ``further`` (only when a case asks; ``paper_tasks`` leaves them out; analysed in their own sections)."""
    family: str
    """What kind of question: ``final`` (a program's output), ``state`` (a checkpoint's state), ``function``
    (a call's value or input), ``input`` (an input for an output), ``trace`` (states over steps), ``count``
    (an integer about the run), or a plug-in's own word."""
    answer_kind: Literal["text", "json"]
    """``text`` or ``json``: how the answer is shown and parsed (``Task.answer_kind``)."""
    order: int
    """Where its tasks come among a case's tasks (ascending; ties by name)."""
    label: str = ""
    """A short label for tables and figures (``short``, ``inside``); the name when empty."""
    color: str | None = None
    """Its colour in figures (``#4c72b0``); grey when None."""
    default_rule: str | None = None
    """The grading rule its tasks get when the case names none; None: the study's rule."""
    input_name: str | None = None
    """The input the arm is asked on, ``short`` or ``long``, when it is one of the case's two."""
    checkpoint: str | None = None
    """The checkpoint of a state arm: ``inside`` or ``post``."""
    case_arm: bool = True
    """True when a case spec's ``arms`` may list it (built from a program case); False for arms made by a
    dataset loader (CRUXEval's function arms) or a spec switch (the input arm)."""
    capability: str | None = None
    """The language protocol the arm needs (``LoopTracing``); a language without it does not pose the arm."""
    plan: Hook = None
    """``"module:attr"`` of the builder hook that makes the arm's plan row (see the module docstring)."""
    grade_detail: Hook = None
    """``"module:attr"`` of the grader hook adding fields to a grade."""
    simulate: Hook = None
    """``"module:attr"`` of the synthetic provider's answer model for the arm."""
    synthetic_bonus: float = 0.0
    """The synthetic provider's logit shift for the arm (how much easier than a long final output)."""
    description: str = ""

    @property
    def short(self) -> str:
        """The label, or the name when the spec has none."""
        return self.label or self.name

    @property
    def paired(self) -> bool:
        """True for the paper's four arms: the paired analyses compare them."""
        return self.group == "paper"

    @property
    def in_paper_tables(self) -> bool:
        """True for arms the paper's tables count (``paper`` and ``extra``); further arms have their own."""
        return self.group != "further"


def check_spec(name: str, spec: object) -> None:
    """``UsageError`` unless ``spec`` is a well-formed ``ArmSpec``."""
    if not isinstance(spec, ArmSpec):
        raise UsageError(f"arm {name!r} is a {type(spec).__name__}, not an ArmSpec. Fix: point it at an ArmSpec")
    if spec.group not in GROUPS:
        raise UsageError(f"arm {name!r} has group {spec.group!r}; it must be one of {', '.join(GROUPS)}")
    if spec.answer_kind not in ("text", "json"):
        raise UsageError(f"arm {name!r} has answer_kind {spec.answer_kind!r}; it must be 'text' or 'json'")


def load_hook(hook: Hook) -> Callable[..., Any] | None:
    """The hook's callable (``"module:attr"`` imported now), or None when the arm has none."""
    return resolve(hook)
