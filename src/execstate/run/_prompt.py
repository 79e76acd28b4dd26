"""The fixed prompt of SPEC section 7: one fresh two-message conversation per task.

The invariant pilot (SPEC 10.7, docs/pilot.md) varies it in exactly two
places, named by the task's ``PromptVariant``: a guided or placebo prompt adds
one paragraph (``GUIDANCE_TEMPLATE``) before the format line, and the
``rationale-then-output`` contract replaces the format line
(``RATIONALE_FORMAT``). A task without a variant gets the fixed prompt.

The prompt is rendered here, once per cell, above the providers (``cell_request``): a provider that sends
requests sees the messages and the cell's ids, never the task and its oracle.
"""

from __future__ import annotations

from execstate.records import Task, prompt_variant
from execstate.run._attempt import CellRequest

SYSTEM_TEMPLATE = (
    "Given the program and input below, determine the exact output.\n"
    "<program>\n"
    "{source}\n"
    "</program>\n"
    "<input>\n"
    "{input}\n"
    "</input>\n"
    'Respond in this format: {"output":"<exact text>"}'
)
"""The system message; ``{source}`` and ``{input}`` are replaced literally (not ``str.format``)."""

USER_MESSAGE = "Return the requested prediction."

OUTPUT_FORMAT = 'Respond in this format: {"output":"<exact text>"}'
"""The format line of the fixed prompt (the ``output-only`` contract)."""
RATIONALE_FORMAT = 'Respond in this format: {"rationale":"<your reasoning>","output":"<exact text>"}'
"""The format line of the ``rationale-then-output`` contract: only ``output`` is graded."""
GUIDANCE_TEMPLATE = "Invariant (checked against this program): {guidance}\n"
"""The one paragraph a guided (or placebo) prompt adds, right before the format line."""


def render_system(source: str, input_text: str) -> str:
    """The system message with the literal source and input substituted, bytes untouched.

    The substitution is positional, so braces or the placeholder text inside the
    program itself are never re-interpreted.
    """
    head, rest = SYSTEM_TEMPLATE.split("{source}")
    middle, tail = rest.split("{input}")
    return head + source + middle + input_text + tail


def render_variant(system: str, guidance: str | None, rationale: bool) -> str:
    """The fixed system message with the pilot's guidance paragraph and/or rationale format line."""
    head = system.removesuffix(OUTPUT_FORMAT)
    paragraph = GUIDANCE_TEMPLATE.replace("{guidance}", guidance) if guidance is not None else ""
    return head + paragraph + (RATIONALE_FORMAT if rationale else OUTPUT_FORMAT)


def render_messages(task: Task) -> list[dict[str, str]]:
    """The chat messages for one task: the system message, then the fixed user message."""
    system = render_system(task.source, task.input)
    if "prompt" in task.meta:
        variant = prompt_variant(task)
        system = render_variant(system, variant.guidance, variant.contract == "rationale-then-output")
    return [{"role": "system", "content": system}, {"role": "user", "content": USER_MESSAGE}]


def cell_request(task: Task, sample: int) -> CellRequest:
    """What cell (``task``, ``sample``) asks a provider: the rendered messages and the ids, not the task."""
    return CellRequest(task.task_id, sample, tuple(render_messages(task)))
