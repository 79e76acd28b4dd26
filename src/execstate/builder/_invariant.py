"""Audit a case's ``[invariant]``: its check script must pass in the sandbox, and no statement may state an answer.

The audit is untrusted code like the program itself: a Python script run by
the sandbox (never imported or evaluated here), with one JSON object on its
standard input::

    {"case_id": ..., "language": "python" | "cpp", "source": <the clean program text>,
     "text": <the invariant>, "placebo": <the placebo statement or null>,
     "runs": [{"name": "short" | "long" | <input file name>, "input": ..., "output": ...}, ...]}

``runs`` are executions of the clean program (the short and long inputs, then
the table's ``inputs``), so a check can compare what the invariant predicts
with what the program printed, or recompute a value independently. Exit
status 0 means every statement of the table holds.

Answer-free by construction: the invariant (and the placebo) must not contain
the long-trace-final oracle, any of its lines or multi-digit numbers, the
inside or post checkpoint line, or any of their values (numbers of two or more
digits, strings of two or more characters). Shorter values (single digits,
one letter, booleans) are too common in any statement to be evidence.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from execstate.builder._spec import CaseSpec, Invariant
from execstate.sandbox import SandboxResult

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_TAIL = 600
"""Characters of the check's stderr kept as evidence."""


class InvariantRefused(Exception):
    """The invariant failed its audit or states an answer; the message is the evidence."""


def audit_invariant(
    spec: CaseSpec,
    source: str,
    runs: list[tuple[str, bytes, bytes]],
    run_program: Callable[[bytes], SandboxResult],
    run_check: Callable[[str, bytes], SandboxResult],
    oracles: dict[str, str],
) -> dict[str, Any]:
    """Audit ``spec.invariant`` and return what the tasks' ``meta["invariant"]`` records.

    ``runs`` are (name, input, stdout) of the clean program already run (short,
    long); ``run_program(stdin)`` runs it on each extra input; ``run_check(text,
    stdin)`` runs the check script's text in the sandbox. ``oracles`` maps
    ``long`` (final output), ``inside`` and ``post`` (checkpoint lines) to their
    oracle text. ``InvariantRefused`` names the leaked value or the failed check.
    """
    inv = spec.invariant
    assert inv is not None
    for label, statement in (("invariant", inv.text), ("placebo", inv.placebo)):
        found = leaked_values(statement or "", oracles)
        if found:
            raise InvariantRefused(
                f"the {label} text states an answer of the task ({', '.join(map(repr, found[:5]))} is an oracle "
                "or checkpoint value); state the relation without evaluating it on the task's input"
            )
    all_runs = list(runs) + [(path.name, path.read_bytes(), _extra_run(run_program, path)) for path in inv.inputs]
    stdin = json.dumps(_audit_input(spec, inv, source, all_runs), ensure_ascii=False).encode("utf-8")
    check_text = _read_check(inv.check)
    result = run_check(check_text, stdin)
    if not result.ok:
        err = result.stderr.decode("utf-8", "replace").strip()
        raise InvariantRefused(
            f"the audit {inv.check.name} failed ({result.describe()}): {err[-_TAIL:] or '(no stderr)'}; "
            "fix the invariant or its check"
        )
    return {
        "text": inv.text,
        "placebo": inv.placebo,
        "check": inv.check.name,
        "check_sha256": hashlib.sha256(check_text.encode("utf-8")).hexdigest(),
        "audit_runs": [name for name, _, _ in all_runs],
    }


def _read_check(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InvariantRefused(f"the audit {path.name} is not UTF-8 ({exc}); save it as UTF-8") from None


def _extra_run(run_program: Callable[[bytes], SandboxResult], path: Path) -> bytes:
    result = run_program(path.read_bytes())
    if not result.ok:
        raise InvariantRefused(
            f"the clean program fails on the audit input {path.name}: {result.describe()}; use a legal input"
        )
    return result.stdout


def _audit_input(spec: CaseSpec, inv: Invariant, source: str, runs: list[tuple[str, bytes, bytes]]) -> dict:
    return {
        "case_id": spec.id,
        "language": spec.language,
        "source": source,
        "text": inv.text,
        "placebo": inv.placebo,
        "runs": [
            {"name": name, "input": data.decode("utf-8", "replace"), "output": out.decode("utf-8", "replace")}
            for name, data, out in runs
        ],
    }


def leaked_values(text: str, oracles: dict[str, str]) -> list[str]:
    """The answer values ``text`` contains (see the module docstring), in a stable order; empty when none."""
    numbers = {_norm(n) for n in _NUMBER.findall(text)}
    found = []
    for kind, value in answer_values(oracles):
        if kind == "number":
            hit = value in numbers
        else:
            hit = re.search(r"(?<!\w)" + re.escape(value) + r"(?!\w)", text) is not None
        if hit and value not in found:
            found.append(value)
    return found


def _answer_values(oracles: dict[str, str]) -> Iterator[tuple[str, str]]:
    """("text" | "number", value) for every answer value a statement must not contain."""
    final = oracles.get("long", "")
    yield "text", final.strip()
    for line in final.splitlines():
        yield "text", line.strip()
    for number in _NUMBER.findall(final):
        yield "number", _norm(number)
    for arm in ("inside", "post"):
        line = oracles.get(arm, "").strip()
        yield "text", line
        try:
            state = json.loads(line) if line else {}
        except ValueError:
            continue
        yield from _leaves(state)


def _leaves(value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float)):
        yield from (("number", _norm(n)) for n in _NUMBER.findall(repr(abs(value))))
    elif isinstance(value, str):
        yield "text", value
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)


def _norm(number: str) -> str:
    """A number's digits without leading zeros (``007`` and ``7`` are one value)."""
    return number.lstrip("0") or "0" if not number.startswith("0.") else number


def _significant(kind: str, value: str) -> bool:
    return len(value) >= 2


def answer_values(oracles: dict[str, str]) -> list[tuple[str, str]]:
    """The significant answer values (kind, value) that ``leaked_values`` looks for."""
    return [(k, v) for k, v in _answer_values(oracles) if _significant(k, v)]
