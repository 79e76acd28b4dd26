"""The fixed prompt of SPEC section 7: one fresh two-message conversation per task."""

from __future__ import annotations

from execstate.records import Task

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


def render_system(source: str, input_text: str) -> str:
    """The system message with the literal source and input substituted, bytes untouched.

    The substitution is positional, so braces or the placeholder text inside the
    program itself are never re-interpreted.
    """
    head, rest = SYSTEM_TEMPLATE.split("{source}")
    middle, tail = rest.split("{input}")
    return head + source + middle + input_text + tail


def render_messages(task: Task) -> list[dict[str, str]]:
    """The chat messages for one task: the system message, then the fixed user message."""
    return [
        {"role": "system", "content": render_system(task.source, task.input)},
        {"role": "user", "content": USER_MESSAGE},
    ]
