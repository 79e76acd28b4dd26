"""Import the bundled CRUXEval benchmark (800 Python function-call items) as execstate tasks.

The data file ``cruxeval.jsonl`` is a verbatim copy of facebookresearch/cruxeval
``data/cruxeval.jsonl`` (MIT licence, ``LICENSE`` in this folder). Each item is
``{"code", "input", "output", "id"}``: a function ``f``, the text of its call
arguments, and the Python literal of ``f(<input>)``.

Mapping to a Task (arm ``function-output``, study ``cruxeval``, rule
``python-literal``): ``source`` = the function code, ``input`` = the call
argument text, ``oracle`` = the output literal. With the fixed SPEC 7 prompt
the model sees ``<program>`` = the function and ``<input>`` = the arguments and
is asked for the exact output; its answer is graded as the Python literal of
the return value, i.e. exactly what CRUXEval's output-prediction prompt
(``assert f(<input>) == ??``) asks for. ``meta["call"]`` holds that call text.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from execstate.errors import RecordError
from execstate.metrics import cyclomatic
from execstate.records import Metrics, Task

DATA_PATH = Path(__file__).with_name("cruxeval.jsonl")
"""The bundled copy of CRUXEval's ``cruxeval.jsonl``."""
STUDY = "cruxeval"


def load_items(path: Path | str | None = None) -> dict[str, dict[str, Any]]:
    """CRUXEval items by id (``sample_0`` ...), in file order; ``path`` defaults to the bundled copy.

    Raises ``ValueError`` naming the file and line of a malformed item or repeated id.
    """
    path = Path(path) if path is not None else DATA_PATH
    items: dict[str, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                key = item["id"]
                if not all(isinstance(item[k], str) for k in ("code", "input", "output", "id")):
                    raise ValueError("code, input, output and id must be strings")
            except (ValueError, KeyError, TypeError) as exc:
                raise RecordError(
                    f"{path}:{lineno}: not a CRUXEval item {{code, input, output, id}}: {exc}. "
                    "Fix: pass CRUXEval's cruxeval.jsonl"
                ) from None
            if key in items:
                raise RecordError(f"{path}:{lineno}: CRUXEval id {key!r} repeated. Fix: keep one line per id")
            items[key] = item
    return items


def item_task(item: dict[str, Any]) -> Task:
    """The execstate task of one CRUXEval item.

    The fixed SPEC prompt asks for a program's exact output, so the task's
    program is the function followed by the line that prints the literal of the
    call, ``print(repr(f(<input>)))``, and its stdin is empty. The oracle is
    CRUXEval's released output literal; ``python-literal`` compares by value.
    """
    case_id = f"{STUDY}/{item['id']}"
    call = f"f({item['input']})"
    source = f"{item['code'].rstrip()}\n\n\nprint(repr({call}))\n"
    return Task(
        task_id=f"{case_id}/function-output",
        case_id=case_id,
        study=STUDY,
        language="python",
        arm="function-output",
        source=source,
        input="",
        oracle=item["output"],
        answer_kind="text",
        grading_rule="python-literal",
        metrics=Metrics(cyclomatic=cyclomatic(item["code"])),
        source_sha256=hashlib.sha256(source.encode("utf-8")).hexdigest(),
        meta={
            "cruxeval_id": item["id"],
            "call": call,
            "arguments": item["input"],
            "origin": "facebookresearch/cruxeval data/cruxeval.jsonl (MIT)",
        },
    )


def cruxeval_tasks(path: Path | str | None = None) -> list[Task]:
    """All CRUXEval items as ``function-output`` tasks, in file order (bundled data by default)."""
    return [item_task(item) for item in load_items(path).values()]
