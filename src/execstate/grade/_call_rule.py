"""The ``python-call`` rule of input prediction: a call of ``f`` with literal arguments, decided by running ``f``.

An answer is right when it is exactly one call of ``f`` whose positional and
keyword arguments are Python literals, and ``f`` run on those arguments
returns the target output: the ``repr`` of the value equals the output under
the ``python-literal`` rule (both read with ``ast.literal_eval``, compared with
``==``, as for output prediction). Any input that gives the output is right,
not only the item's own.

The answer is parsed here with ``ast`` (``ast.literal_eval`` on each argument
node) and never evaluated in execstate's process; the function runs in the
sandbox (``_cruxeval_upstream.run_seeded_checks``: batches of calls share one
sandboxed worker process per hash seed, each call under its own time limit). An
answer that is not such a call is wrong without running anything, with the
reason; so is one on which ``f`` raises, runs out of time or crashes its
process. Each call runs once under every hash seed of ``GRADE_HASH_SEEDS``
(``PYTHONHASHSEED`` 0 to 7); an answer is right only when it is right under all
of them, and one right under some and wrong under others is wrong and flagged
``seed-dependent`` (``_seeds``, ``agreed``).

One exception to "literals only", for the items whose own call passes a
function (CRUXEval's ``sample_344`` and ``sample_364``, whose input holds a
``lambda``): with ``lambdas=True`` an argument may also be a ``lambda``
expression, since no literal is a function. Its text is still only parsed
here; it is evaluated inside the sandboxed worker, in ``f``'s namespace, as
CRUXEval's own check evaluates the whole generation there. Every other task
keeps the literal-only rule (a lambda argument is ``wrong-invalid``).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from execstate.errors import RecordError
from execstate.grade._cruxeval_upstream import TIMEOUT_S, Verdict, run_seeded_checks
from execstate.grade._match import python_literal
from execstate.grade._seeds import SEED_NAMES, seed_dependence
from execstate.records import Task

FUNCTION = "f"
"""The name the answered call must call (CRUXEval's functions are all ``f``)."""
_SHOWN = 80
_PARSE_FAILURES = (SyntaxError, ValueError, TypeError, RecursionError, MemoryError, OverflowError)


@dataclass(frozen=True)
class Call:
    """A parsed answer: the source text of each literal argument, positional then keyword."""

    args: tuple[str, ...]
    kwargs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class CallVerdict:
    """The rule's verdict on one answer."""

    correct: bool
    is_call: bool
    """The answer is one call of ``f`` with literal arguments (False: wrong-invalid, nothing was run)."""
    reason: str | None
    """Why it is wrong (None when correct)."""
    outcome: str = "returned the output"
    """One of ``OUTCOMES``: what happened to the answer (a seed-dependent one: what its first wrong run gave)."""
    seed_dependent: bool = False
    """Right under some hash seeds and wrong under others (so wrong; ``reason`` names the seeds)."""


OUTCOMES = ("returned the output", "returned another value", "invalid call", "raised", "timed out", "crashed")
"""How an answer can end under the rule, in report order."""


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _literal_text(source: str, node: ast.expr, what: str, lambdas: bool = False) -> str:
    """The source text of a literal argument node (or of a ``lambda`` one, with ``lambdas``); ``ValueError``
    naming ``what`` when it is neither."""
    segment = ast.get_source_segment(source, node) or ""
    if lambdas and isinstance(node, ast.Lambda):
        return segment
    try:
        ast.literal_eval(node)
    except _PARSE_FAILURES:
        raise ValueError(f"{what} is not a Python literal: {_shown(segment)}") from None
    return segment


def parse_call(answer: str, function: str = FUNCTION, lambdas: bool = False) -> Call | str:
    """The call ``answer`` states (outer whitespace stripped), or the reason it is not one call of ``function``
    with literal arguments (or ``lambda`` expressions too, with ``lambdas``: see the module's text). Never
    evaluates the text and never raises for any string."""
    text = answer.strip()
    try:
        node = ast.parse(text, mode="eval").body
    except _PARSE_FAILURES as exc:
        return f"not a Python expression ({type(exc).__name__})"
    if not isinstance(node, ast.Call):
        return f"not a call of {function}: a {type(node).__name__} expression"
    if not (isinstance(node.func, ast.Name) and node.func.id == function):
        return f"calls {_shown(ast.get_source_segment(text, node.func) or '?')}, not {function}"
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return "unpacks its arguments (* or **)"
    names = [k.arg for k in node.keywords if k.arg is not None]
    if len(set(names)) != len(names):
        return "repeats a keyword argument"
    try:
        args = tuple(_literal_text(text, a, f"argument {i}", lambdas) for i, a in enumerate(node.args, 1))
        kwargs = tuple(
            (k.arg, _literal_text(text, k.value, f"argument {k.arg}", lambdas)) for k in node.keywords if k.arg
        )
    except ValueError as exc:
        return str(exc)
    return Call(args, kwargs)


def _not_returned(verdict: Verdict) -> CallVerdict:
    kind, _, detail = verdict.outcome.partition(": ")
    if kind == "timed out":
        return CallVerdict(False, True, f"{FUNCTION} ran out of time on the answered input", "timed out")
    if kind == "failed":
        return CallVerdict(False, True, f"{FUNCTION} raised on the answered input: {detail}", "raised")
    return CallVerdict(False, True, f"{FUNCTION} did not return: {verdict.outcome}", "crashed")


def agreed(verdicts: Sequence[CallVerdict], names: Sequence[str]) -> CallVerdict:
    """The one verdict of an answer run once per name of ``names`` (``verdicts``, in that order): right only when
    right in every run; the first run's verdict when every run agrees, else wrong and ``seed_dependent``."""
    wrong = next((v for v in verdicts if not v.correct), verdicts[0])
    reason = seed_dependence([v.correct for v in verdicts], names, wrong.reason)
    if reason is None:
        return verdicts[0]
    return CallVerdict(False, wrong.is_call, reason, wrong.outcome, seed_dependent=True)


def _returned(verdict: Verdict, output: str) -> CallVerdict:
    """The verdict on one run of a call whose value must be ``output``."""
    if verdict.returned is None:
        return _not_returned(verdict)
    if python_literal(verdict.returned, output):
        return CallVerdict(True, True, None)
    return CallVerdict(False, True, f"{FUNCTION} returned {_shown(verdict.returned)}", "returned another value")


def check_calls(
    cases: Sequence[tuple[str, str, str]],
    timeout_s: float = TIMEOUT_S,
    workers: int = 2,
    lambdas: Sequence[bool] | None = None,
) -> list[CallVerdict]:
    """The verdict on each ``(code, answer, output)``: ``code`` defines ``f``, ``answer`` is the model's extracted
    answer, ``output`` the target literal. One verdict per case, in order. ``lambdas[i]`` lets case ``i``'s
    arguments be ``lambda`` expressions too (the items whose own call passes a function); none by default.

    Calls run in the sandbox, batched (one worker process per batch and hash seed, ``workers`` batches at once),
    each under ``timeout_s`` and once under every seed of ``GRADE_HASH_SEEDS`` (a verdict that differs across
    them is wrong and ``seed_dependent``, ``agreed``); raises ``SandboxUnavailable`` where there is no sandbox,
    never running model text elsewhere.
    """
    allowed = list(lambdas) if lambdas is not None else [False] * len(cases)
    if len(allowed) != len(cases):
        raise ValueError(f"lambdas has {len(allowed)} entries for {len(cases)} cases")
    parsed = [parse_call(answer, lambdas=allow) for (_, answer, _), allow in zip(cases, allowed)]
    checks = [
        {"code": code, "args": list(p.args), "kwargs": [list(kw) for kw in p.kwargs], "lambdas": allow}
        for (code, _, _), p, allow in zip(cases, parsed, allowed)
        if isinstance(p, Call)
    ]
    ran = iter(run_seeded_checks(checks, timeout_s=timeout_s, workers=workers) if checks else [])
    verdicts = []
    for (_, _, output), p in zip(cases, parsed):
        if not isinstance(p, Call):
            verdicts.append(CallVerdict(False, False, f"invalid call: {p}", "invalid call"))
            continue
        verdicts.append(agreed([_returned(v, output) for v in next(ran)], SEED_NAMES))
    return verdicts


def python_call_verdicts(answers: Sequence[tuple[Task, str]]) -> list[CallVerdict]:
    """The ``python-call`` rule of the registry: the verdict on each ``(task, extracted answer)``, in order, run
    in the sandbox in batches (``check_calls``) against the task's target ``meta.output``."""
    cases = []
    for task, answer in answers:
        if "output" not in task.meta:
            raise RecordError(
                f"task {task.task_id} has rule {task.grading_rule} but no meta.output (the value the call must "
                "return). Fix: grade a tasks file written by `execstate build`"
            )
        cases.append((task.source, answer, str(task.meta["output"])))
    return check_calls(cases, lambdas=[bool(task.meta.get("lambda_arguments")) for task, _ in answers])
