"""Response envelope check and conservative answer extraction (SPEC section 9).

A response has a *valid envelope* when its text, outer whitespace stripped, is
a JSON object whose only key is ``output`` and whose value is a string. An
invalid envelope still yields an answer when

(a) the stripped text is one Markdown code fence (```` ``` ```` or ``~~~``, an
    optional info string such as ``json``) around exactly such an object, else
(b) some substring of the text parses as a JSON object with a string
    ``output`` key: the one that *ends last* wins (so an outer object beats an
    object nested in it, and a later object beats an earlier one).

Nothing is ever taken from prose. The text is only parsed with ``json``; it is
never evaluated. Decisions where SPEC 9 is silent:

- An object that repeats the ``output`` key is ambiguous: it is neither a
  valid envelope nor an extraction candidate.
- JSON's non-standard constants (``NaN``, ``Infinity``) do not parse.
- Search (b) tries every ``{`` that is followed (after whitespace) by ``"``
  and precedes the last ``"output":`` key, from the end of the text
  backwards, with Python's C JSON decoder. Its work is bounded by
  ``EXTRACTION_WORK_FACTOR`` x the text length (characters the decoder reads,
  plus a fixed cost per attempt and a constant); adversarial text (e.g.
  megabytes of unterminated nesting) exhausts the budget and the best
  candidate found so far (among the later starts) is used. Realistic
  responses never come near the bound.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

EXTRACTION_WORK_FACTOR = 8
"""Decoder work budget for search (b), in multiples of the response length."""
EXTRACTION_WORK_MIN = 1 << 16
"""Decoder work budget added to every search, in characters."""

_WINDOW = 4096
_LOOKAHEAD = 16
_ATTEMPT_COST = 128
"""Work charged per decoding attempt on top of the characters read (its fixed overhead)."""

Method = Literal["envelope", "fence", "last-object"]

_OBJECT_START = re.compile(r'\{[ \t\n\r]*"')
# The key "output" as JSON may spell any letter as a \\uXXXX escape.
_OUTPUT_KEY = re.compile(
    "".join(f"(?:{c}|\\\\u00{ord(c):02x}|\\\\u00{ord(c):02X})" for c in "output").join(['"', '"[ \t\n\r]*:'])
)
_FENCE = re.compile(r"\A(?P<fence>```|~~~)[^\n`{]*\n?(?P<body>.*?)(?P=fence)\Z", re.DOTALL)


@dataclass(frozen=True)
class Extraction:
    """What the envelope check and extraction found in one response text."""

    envelope_valid: bool
    """True only for a stripped text that is exactly ``{"output": <string>}``."""
    answer: str | None
    """The extracted answer text; None when the response has no answer."""
    method: Method | None
    """How the answer was found; None when there is none."""
    rationale: str | None = None
    """The ``rationale`` string of a ``rationale-then-output`` response (kept, never graded); None otherwise."""


class _Pairs(list[tuple[str, Any]]):
    """A decoded JSON object kept as its key/value pairs (order and repeats preserved)."""


def _parse_int(text: str) -> int | Decimal:
    # Python refuses int() on > 4300 digits; Decimal keeps the exact value.
    return int(text) if len(text) <= 4000 else Decimal(text)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(object_pairs_hook=_Pairs, parse_int=_parse_int, parse_constant=_reject_constant)


def _output_of(value: Any, *, only_key: bool) -> str | None:
    """The string under the single ``output`` key of a decoded object, else None."""
    if not isinstance(value, _Pairs):
        return None
    outputs = [v for k, v in value if k == "output"]
    if len(outputs) != 1 or not isinstance(outputs[0], str):
        return None
    if only_key and len(value) != 1:
        return None
    return outputs[0]


def _envelope_answer(text: str) -> str | None:
    """The answer when ``text`` (already stripped) is exactly a valid envelope object."""
    if not text.startswith("{"):
        return None
    try:
        value = _DECODER.decode(text)
    except (ValueError, RecursionError, MemoryError):
        return None
    return _output_of(value, only_key=True)


def _fenced_answer(text: str) -> str | None:
    """The answer when ``text`` (already stripped) is one code fence around a valid envelope."""
    match = _FENCE.match(text)
    if match is None:
        return None
    return _envelope_answer(match.group("body").strip())


def _decode_at(text: str, start: int) -> tuple[Any, int, int]:
    """Decode the JSON value starting at ``start``: (value or None, end or -1, work done).

    Decodes growing windows of the text rather than the whole text: the json
    module's error path scans the document back to its start (line/column
    numbers), which would make many failed attempts quadratic. A failure well
    inside a window is final (the decoder reads left to right with a few
    characters of lookahead); a failure near a window's end grows the window.
    """
    window = _WINDOW
    while True:
        stop = min(len(text), start + window)
        chunk = text[start:stop]
        try:
            value, end = _DECODER.raw_decode(chunk)
            return value, start + end, end
        except json.JSONDecodeError as exc:
            # "Unterminated string" reports where the string starts, not where the window ended.
            truncated = exc.pos >= len(chunk) - _LOOKAHEAD or exc.msg.startswith("Unterminated string")
            if stop == len(text) or not truncated:
                return None, -1, exc.pos
        except (ValueError, RecursionError, MemoryError):
            return None, -1, len(chunk)
        window *= 4


def _last_object_answer(text: str) -> str | None:
    """The ``output`` string of the qualifying JSON object that ends last in ``text``."""
    found = _last_object(text)
    return None if found is None else _output_of(found, only_key=False)


def _last_object(text: str) -> _Pairs | None:
    """The qualifying JSON object (a string ``output`` key) that ends last in ``text``."""
    budget = EXTRACTION_WORK_FACTOR * len(text) + EXTRACTION_WORK_MIN
    last_key = max((m.start() for m in _OUTPUT_KEY.finditer(text)), default=-1)
    # A qualifying object contains an ``output`` key, so it starts before the last one.
    starts = [m.start() for m in _OBJECT_START.finditer(text, 0, last_key + 1)]
    best_end, best = -1, None
    for start in reversed(starts):
        if budget <= 0:
            break
        value, end, work = _decode_at(text, start)
        budget -= work + _ATTEMPT_COST
        if _output_of(value, only_key=False) is not None and end > best_end:
            best_end, best = end, value
    return best


def extract(text: str | None) -> Extraction:
    """Check the envelope of one response text and extract its answer.

    Never raises; ``None`` text counts as the empty response (no answer).
    """
    stripped = (text or "").strip()
    answer = _envelope_answer(stripped)
    if answer is not None:
        return Extraction(True, answer, "envelope")
    answer = _fenced_answer(stripped)
    if answer is not None:
        return Extraction(False, answer, "fence")
    answer = _last_object_answer(stripped)
    if answer is not None:
        return Extraction(False, answer, "last-object")
    return Extraction(False, None, None)


def _rationale_pair(value: Any) -> tuple[str, str] | None:
    """(rationale, output) when ``value`` is exactly ``{"rationale": <string>, "output": <string>}`` in that order."""
    if not isinstance(value, _Pairs) or [k for k, _ in value] != ["rationale", "output"]:
        return None
    (_, rationale), (_, output) = value
    return (rationale, output) if isinstance(rationale, str) and isinstance(output, str) else None


def _decoded(text: str) -> Any:
    if not text.startswith("{"):
        return None
    try:
        return _DECODER.decode(text)
    except (ValueError, RecursionError, MemoryError):
        return None


def extract_rationale(text: str | None) -> Extraction:
    """Check a ``rationale-then-output`` response and extract its ``output`` (graded) and ``rationale`` (kept).

    Valid envelope: the stripped text is exactly ``{"rationale": <string>, "output": <string>}``, keys in
    that order. Otherwise the same conservative extraction as ``extract``: one code fence around such an
    object, else the last JSON object with a string ``output`` key (its ``rationale`` kept when it is a
    string). Never raises.
    """
    stripped = (text or "").strip()
    pair = _rationale_pair(_decoded(stripped))
    if pair is not None:
        return Extraction(True, pair[1], "envelope", pair[0])
    fence = _FENCE.match(stripped)
    pair = _rationale_pair(_decoded(fence.group("body").strip())) if fence else None
    if pair is not None:
        return Extraction(False, pair[1], "fence", pair[0])
    last = _last_object(stripped)
    if last is None:
        return Extraction(False, None, None)
    rationales = [v for k, v in last if k == "rationale" and isinstance(v, str)]
    return Extraction(False, _output_of(last, only_key=False), "last-object", rationales[0] if rationales else None)
