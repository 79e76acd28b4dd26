"""Import the bundled CRUXEval benchmark (800 Python function-call items) as execstate tasks.

The data file ``cruxeval.jsonl`` is a verbatim copy of facebookresearch/cruxeval
``data/cruxeval.jsonl`` (MIT licence, ``LICENSE`` in this folder). Each item is
``{"code", "input", "output", "id"}``: a function ``f``, the text of its call
arguments, and the Python literal of ``f(<input>)``.

Each item becomes two tasks of case ``cruxeval/<id>``, written in that order:

- ``function-output`` (CRUXEval-O, rule ``python-literal``): the program is the
  function followed by ``print(repr(f(<input>)))``, stdin is empty, the oracle
  is the output literal; exactly what CRUXEval's output-prediction prompt
  (``assert f(<input>) == ??``) asks for. ``meta["call"]`` holds that call text.
- ``function-input`` (CRUXEval-I, rule ``python-call``): the program is the
  function followed by a comment that asks for a call ``f(<arguments>)`` with
  literal arguments whose value is the output (CRUXEval's ``assert f(??) ==
  <output>``), stdin is empty, the oracle is the item's own call
  ``f(<input>)``; any call that returns the output is right
  (``execstate.grade``, docs/grade.md). ``meta["output"]`` holds the target.
  Ten items' inputs are expressions (``dict(did=0)``), so their oracle is the
  same call written with literals (``LITERAL_CALLS``). Two items' own calls
  pass a function (``sample_344``, ``sample_364``: a ``lambda``), which no
  literal can be: their tasks say so (``meta["lambda_arguments"] = True`` and
  one more comment line), and for them alone the rule also accepts ``lambda``
  arguments (``takes_function``). 800 input tasks.
"""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path
from typing import Any

from execstate.arms import arm_names
from execstate.errors import RecordError
from execstate.metrics import cyclomatic
from execstate.records import Arm, GradingRule, Metrics, Task

DATA_PATH = Path(__file__).with_name("cruxeval.jsonl")
"""The bundled copy of CRUXEval's ``cruxeval.jsonl``."""
STUDY = "cruxeval"


def _function_arms() -> tuple[Arm, Arm]:
    """execstate's two function arms in arm order: output prediction (``function-output``, CRUXEval-O), then
    input prediction (``function-input``, CRUXEval-I)."""
    output_arm, input_arm = arm_names(family="function", builtin=True)
    return output_arm, input_arm


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


def _output_source(item: dict[str, Any]) -> str:
    """The case's clean program: the function, then the line printing its call's literal."""
    return f"{item['code'].rstrip()}\n\n\nprint(repr(f({item['input']})))\n"


def _task(item: dict[str, Any], arm: Arm, source: str, oracle: str, rule: GradingRule, meta: dict[str, str]) -> Task:
    """One task of item ``item``; ``meta`` goes between the item's id and the origin. Both arms' source_sha256
    is the clean program's (``_output_source``), so an item is one source cluster, as the arms of a case are."""
    case_id = f"{STUDY}/{item['id']}"
    return Task(
        task_id=f"{case_id}/{arm}",
        case_id=case_id,
        study=STUDY,
        language="python",
        arm=arm,
        source=source,
        input="",
        oracle=oracle,
        answer_kind="text",
        grading_rule=rule,
        metrics=Metrics(cyclomatic=cyclomatic(item["code"])),
        source_sha256=hashlib.sha256(_output_source(item).encode("utf-8")).hexdigest(),
        meta={"cruxeval_id": item["id"], **meta, "origin": "facebookresearch/cruxeval data/cruxeval.jsonl (MIT)"},
    )


def item_task(item: dict[str, Any]) -> Task:
    """The execstate task of one CRUXEval item.

    The fixed SPEC prompt asks for a program's exact output, so the task's
    program is the function followed by the line that prints the literal of the
    call, ``print(repr(f(<input>)))``, and its stdin is empty. The oracle is
    CRUXEval's released output literal; ``python-literal`` compares by value.
    """
    meta = {"call": f"f({item['input']})", "arguments": item["input"]}
    return _task(item, _function_arms()[0], _output_source(item), item["output"], "python-literal", meta)


INPUT_QUESTION = (
    "# Input prediction: find any input such that executing f on it leads to the given output.\n"
    "# The exact output asked for is that input written as one call of f with Python literal\n"
    "# arguments, f(<arguments>), for which this holds:\n"
    "#     f(<arguments>) == {output}\n"
)
"""The lines after the function of a ``function-input`` task (``{output}`` replaced literally): comments, so
the program still only defines ``f`` and the grader can run it as shown."""
LAMBDA_NOTE = "# An argument that is a function may be written as a lambda expression.\n"
"""The line added to ``INPUT_QUESTION`` on the tasks whose item's own call passes a function."""


LITERAL_CALLS = {
    "sample_152": "f('AAAAAAAAAAAAAAAAAAAA')",
    "sample_239": "f('0 t 1cos ', 'st 0\\t\\n  ')",
    "sample_258": "f([1, 2, 7, 9], 3, 3, 2)",
    "sample_378": "f({'did': 0}, 'u')",
    "sample_459": "f(['b', 'vzjmc', 'f', 'ae', '0'], {})",
    "sample_522": "f([" + ", ".join(map(str, range(100, 120))) + "])",
    "sample_694": "f({'e': 1, 'd': 2, 'c': 3})",
    "sample_720": "f(['bfreratrrbdbzagbretaredtroefcoiqrrneaosf'], 'n')",
    "sample_760": "f({'f': 1, 'h': 2, 'j': 3, 'k': 4})",
    "sample_770": "f('$78', '$')",
}
"""The ``function-input`` oracle of the items whose own input is an expression, not literals
(``''.join(['A'] * 20)``, ``dict(did=0)``, ``thigh_o_two[:]``, ``range(100, 120)``, ...): the same
arguments written as literals (``range`` as the list of its numbers, which gives the same output). A test
runs ``f`` on each and checks it returns the item's output."""


def takes_function(arguments: str) -> bool:
    """Whether an item's own call arguments (its ``input`` text) pass a ``lambda``: the items whose
    ``function-input`` answers may have ``lambda`` arguments (``sample_344``, ``sample_364``). Parses the
    text, never evaluates it; False for text that is not call arguments."""
    try:
        call = ast.parse(f"f({arguments})", mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if not isinstance(call, ast.Call):
        return False
    return any(isinstance(a, ast.Lambda) for a in [*call.args, *(k.value for k in call.keywords)])


def item_input_task(item: dict[str, Any]) -> Task:
    """The CRUXEval-I (input prediction) task of one item: the function and the target output in, a call out.

    The program is the function followed by ``INPUT_QUESTION``; its stdin is empty. The oracle is the
    item's own call ``f(<input>)`` (its literal form ``LITERAL_CALLS`` when the input is an expression).
    Rule ``python-call`` accepts any call of ``f`` with literal arguments whose value, computed in the
    sandbox, equals ``meta["output"]`` as a Python literal; when the item's own call passes a function
    (``takes_function``), the task says so with ``LAMBDA_NOTE`` and ``meta["lambda_arguments"] = True``,
    and ``lambda`` arguments are accepted too.
    """
    call = LITERAL_CALLS.get(item["id"], f"f({item['input']})")
    question = INPUT_QUESTION.replace("{output}", item["output"])
    meta: dict[str, Any] = {"output": item["output"], "arguments": item["input"]}
    if takes_function(item["input"]):
        question += LAMBDA_NOTE
        meta["lambda_arguments"] = True
    source = f"{item['code'].rstrip()}\n\n\n" + question
    return _task(item, _function_arms()[1], source, call, "python-call", meta)


def cruxeval_tasks(path: Path | str | None = None) -> list[Task]:
    """All CRUXEval items as tasks, in file order, each item's ``function-output`` task then its
    ``function-input`` task (bundled data by default): 800 + 800."""
    tasks = []
    for item in load_items(path).values():
        tasks.append(item_task(item))
        tasks.append(item_input_task(item))
    return tasks
