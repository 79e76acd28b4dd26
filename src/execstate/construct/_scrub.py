"""Scrub machine-specific directories from construction records, so the same pool gives the same bytes."""

from __future__ import annotations

import re
from typing import Any

_DIRECTORY = re.compile(r"(?<![\w.])/(?:[^\s\"'|:,;()<>/]+/)+(?=[^\s\"'|:,;()<>/])")


def scrub(value: Any) -> Any:
    """``value`` with the directory part of every absolute path removed from its strings.

    Failure messages quote the sandbox's fresh directories (``/tmp/execstate-run-x7f.../work/main.py``);
    without them the same pool gives the same ``construct.json`` (and ``select.json``) byte for byte.
    Lists and dicts are scrubbed recursively; other values are returned as they are.
    """
    if isinstance(value, str):
        return _DIRECTORY.sub("", value)
    if isinstance(value, list):
        return [scrub(v) for v in value]
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items()}
    return value
