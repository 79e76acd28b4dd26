"""Program values as JSON text and back, whatever their size.

CPython refuses to convert an int of more than ``sys.get_int_max_str_digits()`` digits (4,300 by
default) to or from text: a guard against hostile input, which a program's own value is not. A
program that builds a 100,000-digit integer in its loop makes a state the harness must read (to see
its JSON type and size) and record (``construct.json``) like any other: these functions do, without
changing the interpreter's limit for anyone else in the process.
"""

from __future__ import annotations

import json
import math
import re
import secrets
from typing import Any

_DIGITS_AT_ONCE = 4000
"""Digits ``int`` and ``str`` convert in one call: under CPython's default limit (4,300)."""
_SMALL = 10**_DIGITS_AT_ONCE


def any_int(text: str) -> int:
    """The integer a decimal literal of any length stands for (halves converted apiece)."""
    digits = text.lstrip("+-")
    if len(digits) <= _DIGITS_AT_ONCE:
        return int(text)
    half = len(digits) // 2
    value = any_int(digits[:-half]) * 10**half + any_int(digits[-half:])
    return -value if text.startswith("-") else value


def int_text(value: int) -> str:
    """The decimal text of an integer of any size (``str`` for one of at most 4,000 digits)."""
    if -_SMALL < value < _SMALL:
        return str(value)
    if value < 0:
        return "-" + int_text(-value)
    half = int(value.bit_length() * math.log10(2)) // 2
    high, low = divmod(value, 10**half)
    return int_text(high) + int_text(low).zfill(half)


_DECODER = json.JSONDecoder(parse_int=any_int)


def json_value(text: str | bytes) -> Any:
    """A JSON text decoded, its integers of any length; ``ValueError`` when it is not JSON."""
    return _DECODER.decode(text.decode("utf-8") if isinstance(text, bytes) else text)


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps(value, **options)``, and the same text when ``value`` holds an integer too long for it."""
    try:
        return json.dumps(value, **options)
    except ValueError as exc:
        if "string conversion" not in str(exc):
            raise
    mark = secrets.token_hex(8)  # drawn after the value exists: no string of the program's can hold it
    texts: list[str] = []

    def swap(item: Any) -> Any:
        if isinstance(item, int) and not isinstance(item, bool) and not -_SMALL < item < _SMALL:
            texts.append(int_text(item))
            return f"{mark}:{len(texts) - 1}"
        if isinstance(item, (list, tuple)):
            return [swap(x) for x in item]
        if isinstance(item, dict):
            return {key: swap(x) for key, x in item.items()}
        return item

    marked = json.dumps(swap(value), **options)
    return re.sub(f'"{mark}:([0-9]+)"', lambda found: texts[int(found.group(1))], marked)


_SHOWN_DIGITS = 20
"""Leading and trailing digits ``recorded`` keeps of an integer too long for ``json.loads``."""


def recorded(value: Any) -> Any:
    """``value`` as ``construct.json`` records it: as it is, but an integer of more than 4,000 digits as a string
    naming its length and its first and last digits (any reader's ``json.loads`` refuses more than 4,300; such
    a value is always rejected as too long to project, and the record says so)."""
    if isinstance(value, int) and not isinstance(value, bool) and not -_SMALL < value < _SMALL:
        text = int_text(value)
        sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
        shown = f"{digits[:_SHOWN_DIGITS]}...{digits[-_SHOWN_DIGITS:]}"
        return f"<an integer of {len(digits)} digits: {sign}{shown}>"
    if isinstance(value, list):
        return [recorded(item) for item in value]
    if isinstance(value, dict):
        return {key: recorded(item) for key, item in value.items()}
    return value


__all__ = ["any_int", "int_text", "json_text", "json_value", "recorded"]
