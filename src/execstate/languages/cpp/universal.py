"""One build of a checkpoint copy for every iteration k: the copy's k and guard chosen at run time.

The builder runs many checkpoint copies of one loop that differ only in the selected iteration k
(the inside and post copies of each arm, the copies it tries while it looks for a k, the trace
copies) and in the guard constant (the preservation variant). Each is a different text, so each
was a compile. ``universal_copy`` turns such a copy into the text every one of them shares: each
place ``instrument_cpp`` wrote k (the guard ``_es_count == k`` and the comments naming k) reads
``execstate_emit::checkpoint_k()`` instead, and the guard constant ``_es_active`` reads
``execstate_emit::checkpoint_active()``; both come from the run's environment (``settings``:
``EXECSTATE_CHECKPOINT_K``, ``EXECSTATE_CHECKPOINT_ACTIVE``; see ``execstate_emit.hpp``).

The task still shows the copy with its constants: only what runs is the universal build. The
derivation is checked, not trusted: the universal text with the two calls written back as the
copy's constants must be the copy, byte for byte, so the two programs differ only in where the
two numbers come from (a copy that does not pass is compiled as it is). The measured
(``--coverage``) builds stay per copy: gcov counts the copy's own lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

K_CALL = "execstate_emit::checkpoint_k()"
ACTIVE_CALL = "execstate_emit::checkpoint_active()"
K_ENV = "EXECSTATE_CHECKPOINT_K"
ACTIVE_ENV = "EXECSTATE_CHECKPOINT_ACTIVE"
_GUARD = re.compile(r"^static const bool (\w+)active = (true|false);$", re.MULTILINE)


@dataclass(frozen=True)
class UniversalCopy:
    """A checkpoint copy as its universal build and the settings that make it that copy."""

    source: str
    """The text every copy of the loop with these variables shares (compiled once)."""
    k: int
    active: bool

    @property
    def settings(self) -> dict[str, str]:
        """The environment variables the universal build reads (``execstate_emit.hpp``)."""
        return {K_ENV: str(self.k), ACTIVE_ENV: "1" if self.active else "0"}


def universal_copy(source: str) -> UniversalCopy | None:
    """The universal build of an ``inside``, ``post`` or ``trace`` copy made by ``instrument_cpp`` (or its
    preservation variant), or None for any other text (a clean program, a ``count`` or ``observe`` copy)."""
    if K_CALL in source or ACTIVE_CALL in source:
        return None
    guard = _GUARD.search(source)
    if guard is None:
        return None
    p = re.escape(guard.group(1))
    k_places = re.compile(
        rf"(?<=\b{p}count == )(\d+)(?=\))"
        r"|(?<=reaches iteration )(\d+)(?= *\r?$)"
        r"|(?<=printed at iteration )(\d+)(?= \()",
        re.MULTILINE,
    )
    found = {m.group(0) for m in k_places.finditer(source)}
    if len(found) != 1:
        return None
    k = found.pop()
    universal = _guarded(k_places.sub(K_CALL, source))
    copy = UniversalCopy(universal, int(k), guard.group(2) == "true")
    written_back = universal.replace(K_CALL, k).replace(ACTIVE_CALL, guard.group(2))
    return copy if written_back == source else None


def _guarded(text: str) -> str:
    """``text`` with its guard constant read at run time."""
    guard = _GUARD.search(text)
    assert guard is not None
    return text[: guard.start(2)] + ACTIVE_CALL + text[guard.end(2) :]


__all__ = ["ACTIVE_ENV", "K_ENV", "UniversalCopy", "universal_copy"]
