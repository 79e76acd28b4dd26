"""The pure oracle-equivalence rules: does an extracted answer equal a task's oracle (SPEC section 9)?

``_rules`` makes each a grading rule of the registry (``RULE_REGISTRY``). Every rule here is a pure
function ``(answer, oracle) -> bool`` that never raises: anything that cannot be parsed, or is too large or
deep to compare, is simply not equal. Answers are parsed (``json``, ``ast.literal_eval``), never evaluated.

Rules (decisions where SPEC 9 is silent are marked *decided*):

``json-or-tokens``
    If the oracle parses as JSON, the answer must parse as JSON and be
    structurally equal: numbers by exact value (``1 == 1.0``; floats are IEEE
    doubles as Python reads them), bools are not numbers, object key order is
    ignored. *Decided:* ``NaN``/``Infinity`` are not JSON, an object with a
    repeated key does not parse (it is ambiguous), surrounding whitespace is
    allowed on both sides. Otherwise the two texts' whitespace-separated
    token lists (``str.split()``) must be equal.
``int-alpha-tokens``
    The ordered sequences of tokens ``[+-]?[0-9]+`` (compared as integers, so
    ``007 == 7`` and ``-0 == 0``) and runs of letters (*decided:* Unicode
    letters, case-sensitive) must be equal; every other character separates.
``bytes``
    The answer must equal the oracle exactly, after removing the oracle's one
    final newline (stdout's). The answer itself is not stripped.
``python-literal``
    Both sides (outer whitespace stripped) are read with ``ast.literal_eval``
    and compared with Python ``==`` -- the comparison CRUXEval's own
    ``assert <output> == <generation>`` makes (so ``True == 1`` and ``1 == 1.0``).
    An answer that is not a literal is wrong.

``integer``
    (A line count.) The answer, outer whitespace stripped, must be one
    decimal integer, ``[+-]?[0-9]+``, equal to the oracle's by value
    (``+07 == 7``); ``7.0``, ``7 times`` or ``"7"`` are wrong.

A ``loop-trace`` task (a JSON list of states) is graded by the case's rule on
the whole answer, and its steps one by one (``step_marks``): step ``i`` is
right when the answer's ``i``-th item is a JSON value equal to the oracle's
``i``-th state; the grade records the marks and the longest correct prefix.

Two rules are not pure functions of the two texts: ``python-call`` (input
prediction) runs the task's function in the sandbox (``_call_rule``) and
``program-input`` the task's program (``_program_input``); they are executed
rules of the registry, which the grader applies in batches, not ``answer_matches``.
"""

from __future__ import annotations

import ast
import json
import re
from decimal import Decimal
from functools import lru_cache
from typing import Any

_NUMBER = (int, float, Decimal)
_INT_ALPHA = re.compile(r"[+-]?[0-9]+|[^\W\d_]+")
_PARSE_FAILURES = (ValueError, TypeError, SyntaxError, RecursionError, MemoryError, OverflowError)


class _Unparsable:
    """Marker for an oracle that does not parse (cached like a parsed value)."""


_UNPARSABLE = _Unparsable()


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise ValueError("repeated key in JSON object")
    return obj


def _parse_int(text: str) -> int | Decimal:
    return int(text) if len(text) <= 4000 else Decimal(text)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_int=_parse_int, parse_constant=_reject_constant)


def _parse_json(text: str) -> Any:
    try:
        return _DECODER.decode(text.strip())
    except _PARSE_FAILURES:
        return _UNPARSABLE


@lru_cache(maxsize=4096)
def _parse_json_oracle(oracle: str) -> Any:
    return _parse_json(oracle)


def json_equal(a: Any, b: Any) -> bool:
    """Structural equality of two decoded JSON values (iterative, so depth is no problem)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, bool) or isinstance(y, bool):
            if not (isinstance(x, bool) and isinstance(y, bool) and x == y):
                return False
        elif (
            (isinstance(x, _NUMBER) and isinstance(y, _NUMBER))
            or (isinstance(x, str) and isinstance(y, str))
            or x is None
            or y is None
        ):
            if x != y:
                return False
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        else:
            return False
    return True


def json_or_tokens(answer: str, oracle: str) -> bool:
    """Rule ``json-or-tokens``: JSON values when the oracle is JSON, else whitespace tokens."""
    want = _parse_json_oracle(oracle)
    if want is _UNPARSABLE:
        return answer.split() == oracle.split()
    got = _parse_json(answer)
    return got is not _UNPARSABLE and json_equal(got, want)


def _int_alpha_tokens(text: str) -> list[tuple[bool, str]]:
    tokens = []
    for tok in _INT_ALPHA.findall(text):
        if tok[-1].isdigit():  # [0-9] run: normalise sign and leading zeros, no int() size limit
            digits = tok.lstrip("+-").lstrip("0") or "0"
            tokens.append((True, "-" + digits if tok[0] == "-" and digits != "0" else digits))
        else:
            tokens.append((False, tok))
    return tokens


def int_alpha_tokens(answer: str, oracle: str) -> bool:
    """Rule ``int-alpha-tokens``: signed integers by value and letter runs, in order."""
    return _int_alpha_tokens(answer) == _int_alpha_tokens(oracle)


def bytes_equal(answer: str, oracle: str) -> bool:
    """Rule ``bytes``: exact equality with the oracle minus its one final newline."""
    return answer == oracle.removesuffix("\n")


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text.strip())
    except _PARSE_FAILURES:
        return _UNPARSABLE


def is_python_literal(text: str) -> bool:
    """True when ``ast.literal_eval`` reads ``text`` (outer whitespace stripped); never raises."""
    return _literal(text) is not _UNPARSABLE


@lru_cache(maxsize=4096)
def _literal_oracle(oracle: str) -> Any:
    return _literal(oracle)


def python_literal(answer: str, oracle: str) -> bool:
    """Rule ``python-literal``: ``ast.literal_eval`` both sides, compare with ``==``."""
    want = _literal_oracle(oracle)
    got = _literal(answer)
    if want is _UNPARSABLE or got is _UNPARSABLE:
        return False
    try:
        return bool(got == want)
    except _PARSE_FAILURES:
        return False


_INTEGER = re.compile(r"[+-]?[0-9]+")


def integer(answer: str, oracle: str) -> bool:
    """Rule ``integer`` (a line count): the answer, outer whitespace stripped, is one decimal integer (an optional
    sign, digits only) equal to the oracle's."""
    got, want = answer.strip(), oracle.strip()
    return bool(_INTEGER.fullmatch(got)) and _int_alpha_tokens(got) == _int_alpha_tokens(want)


def step_marks(answer: str | None, oracle: str) -> str:
    """A ``loop-trace`` answer's steps against the oracle's list: ``1`` where the answer's item at that position is
    a JSON value equal to the oracle's step (``json_equal``: numbers by value, key order ignored), else ``0``; all
    ``0`` when the answer is not a JSON list (or there is none). One character per oracle step."""
    want = _parse_json_oracle(oracle)
    if not isinstance(want, list):
        raise ValueError("a loop-trace oracle is a JSON list")
    got = _parse_json(answer) if answer is not None else _UNPARSABLE
    items = got if isinstance(got, list) else []
    return "".join("1" if i < len(items) and json_equal(items[i], step) else "0" for i, step in enumerate(want))


def correct_prefix(marks: str) -> int:
    """The longest correct prefix of ``step_marks``: how many steps were right before the first wrong one."""
    return len(marks) - len(marks.lstrip("1"))
