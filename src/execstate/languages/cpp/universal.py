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

The projection can be chosen at run time too (``universal_projection``): the universal text is made
from the copy of the same loop, mode, k and guard instrumented with a WIDER set of variables (every
candidate construct probes, in the order first asked for), whose ``emit``/``state_json`` call reads
``emit_chosen``/``state_json_chosen`` and prints the pairs ``EXECSTATE_CHECKPOINT_VARS`` places
(``2,0``: the third candidate, then the first), in that order: the bytes ``emit`` of those pairs
prints. So construct's probe of all candidates, its trial build and the final build of one loop run
one binary per mode family. What is checked, byte for byte: the universal text with (a) each
``*_chosen(<wide pairs>)`` call written back as the plain call of the chosen pairs, (b) the block of
the wide set's ``static_assert`` lines written back as the chosen set's, and (c) the two calls above
written back as constants must be the copy. A post copy whose wider set moves a loop's
init-statement that the copy does not move fails this and is run as its own universal build; so is
a wider set one of whose types the emitter refuses (the shared text does not compile).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from execstate.errors import SpecProblem
from execstate.languages.cpp.instrument import CppMode, instrument_cpp, projection_args, refusal_asserts

K_CALL = "execstate_emit::checkpoint_k()"
ACTIVE_CALL = "execstate_emit::checkpoint_active()"
K_ENV = "EXECSTATE_CHECKPOINT_K"
ACTIVE_ENV = "EXECSTATE_CHECKPOINT_ACTIVE"
_GUARD = re.compile(r"^static const bool (\w+)active = (true|false);$", re.MULTILINE)


VARS_ENV = "EXECSTATE_CHECKPOINT_VARS"
_CHOSEN = (
    ("execstate_emit::emit(", "execstate_emit::emit_chosen("),
    ("execstate_emit::state_json(", "execstate_emit::state_json_chosen("),
)


@dataclass(frozen=True)
class UniversalCopy:
    """A checkpoint copy as its universal build and the settings that make it that copy."""

    source: str
    """The text every copy of the loop with these variables shares (compiled once)."""
    k: int
    active: bool
    chosen: tuple[int, ...] | None = None
    """The places of the copy's variables among the universal text's candidates (``universal_projection``),
    or None when the text prints the copy's own projection."""

    @property
    def settings(self) -> dict[str, str]:
        """The environment variables the universal build reads (``execstate_emit.hpp``)."""
        found = {K_ENV: str(self.k), ACTIVE_ENV: "1" if self.active else "0"}
        if self.chosen is not None:
            found[VARS_ENV] = ",".join(str(i) for i in self.chosen)
        return found


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


def universal_projection(
    copy: str, wide_copy: str, variables: tuple[str, ...], wide: tuple[str, ...]
) -> UniversalCopy | None:
    """The universal build of ``copy`` (an inside/post/trace copy of ``variables``) whose projection is chosen at
    run time among ``wide``: ``wide_copy`` is the same copy (loop, mode, k, guard, steps) made with ``wide``.
    None unless every variable is in ``wide`` and the written-back text is ``copy`` byte for byte (module
    docstring)."""
    if not variables or len(set(variables)) != len(variables) or any(v not in wide for v in variables):
        return None
    base = universal_copy(wide_copy)
    if base is None:
        return None
    pairs = projection_args(wide)
    text = base.source
    for plain, chosen in _CHOSEN:
        text = text.replace(f"{plain}{pairs})", f"{chosen}{pairs})")
    universal = UniversalCopy(text, base.k, base.active, tuple(wide.index(v) for v in variables))
    return universal if written_back(universal, variables, wide) == copy else None


def written_back(universal: UniversalCopy, variables: tuple[str, ...], wide: tuple[str, ...]) -> str:
    """The copy ``universal`` stands for: its run-time choices (k, guard, the ``variables`` among ``wide``)
    written back as the constants and the projection a copy made with them shows."""
    text = universal.source
    wide_pairs, pairs = projection_args(wide), projection_args(variables)
    for plain, chosen in _CHOSEN:
        text = text.replace(f"{chosen}{wide_pairs})", f"{plain}{pairs})")
    lines = [re.escape(a) for a in refusal_asserts(wide)]
    pattern = r"^(?P<indent>[ \t]*)" + lines[0]
    for n, line in enumerate(lines[1:]):
        pattern += (r"(?P<nl>\r?\n)" if n == 0 else r"(?P=nl)") + r"(?P=indent)" + line
    block = re.compile(pattern + r"(?=\r?\n)", re.MULTILINE)
    text = block.sub(
        lambda m: (m.groupdict().get("nl") or "\n").join(m.group("indent") + a for a in refusal_asserts(variables)),
        text,
    )
    return text.replace(K_CALL, str(universal.k)).replace(ACTIVE_CALL, "true" if universal.active else "false")


@dataclass(frozen=True)
class MadeCopy:
    """How this process made a checkpoint copy (``instrument_cpp`` arguments): what ``wide_universal`` remakes."""

    source: str
    """The clean program."""
    loop_line: int
    variables: tuple[str, ...]
    """The copy's projection, in its order."""
    mode: CppMode
    k: int
    active: bool
    steps: int = 1
    """States a ``trace`` copy keeps (1 for the other modes)."""


_REMEMBERED = 4096
"""Copies (and universal texts) remembered per process; the oldest are forgotten first."""
_MADE: OrderedDict[str, MadeCopy] = OrderedDict()
_WIDE: OrderedDict[tuple[str, int], tuple[str, ...]] = OrderedDict()
_WIDE_MEMO: OrderedDict[tuple[str, tuple[str, ...]], UniversalCopy | None] = OrderedDict()
_LOCK = threading.Lock()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _remember(table: OrderedDict, key: Any, value: Any) -> None:
    table[key] = value
    table.move_to_end(key)
    while len(table) > _REMEMBERED:
        table.popitem(last=False)


def remember_copy(copy: str, made: MadeCopy) -> None:
    """Note that this process made ``copy`` as ``made`` (a ``count`` copy: for ``count_all_for``), and widen a
    checkpoint copy's loop's candidate set by its variables
    (the union of every projection asked for that loop, in the order first asked for: construct's probe of all
    candidates comes first, so its trial build's copies find their variables among them)."""
    if made.mode == "count":
        with _LOCK:
            _remember(_MADE, _digest(copy), made)
        return
    if made.mode not in ("inside", "post", "trace"):
        return
    with _LOCK:
        loop = (_digest(made.source), made.loop_line)
        wide = _WIDE.get(loop, ())
        _remember(_WIDE, loop, wide + tuple(v for v in made.variables if v not in wide))
        _remember(_MADE, _digest(copy), made)


def made_copy(copy: str) -> MadeCopy | None:
    """How this process made ``copy`` (``remember_copy``), or None."""
    with _LOCK:
        return _MADE.get(_digest(copy))


def wide_universal(copy: str) -> UniversalCopy | None:
    """The universal build of a copy this process made (``remember_copy``) with its projection chosen at run
    time among its loop's candidate set (``universal_projection``), or None (not made here, or the check
    fails)."""
    with _LOCK:
        made = _MADE.get(_digest(copy))
        wide = _WIDE.get((_digest(made.source), made.loop_line), ()) if made is not None else ()
        memo = (_digest(copy), wide)
        if memo in _WIDE_MEMO:
            return _WIDE_MEMO[memo]
    if made is None:
        return None
    try:
        wide_copy = instrument_cpp(
            made.source, made.loop_line, wide, made.mode, made.k, active=made.active, steps=made.steps
        )
    except (SpecProblem, ValueError):
        found = None
    else:
        found = universal_projection(copy, wide_copy.source, made.variables, wide)
    with _LOCK:
        _remember(_WIDE_MEMO, memo, found)
    return found


COUNT_LOOP_ENV = "EXECSTATE_COUNT_LOOP"
_COUNT_ALL: OrderedDict[str, tuple[tuple[int, ...], str]] = OrderedDict()


def remember_count_all(source: str, loop_lines: tuple[int, ...], counted: str) -> None:
    """Note that ``counted`` (``count_all_cpp(source, loop_lines)``) built and reported every loop in this
    process: a ``count`` copy of one of those loops made later (``remember_copy``) runs as it (``count_all_for``)."""
    with _LOCK:
        _remember(_COUNT_ALL, _digest(source), (loop_lines, counted))


def count_all_for(copy: str) -> tuple[str, dict[str, str]] | None:
    """The text and environment that stand for ``count`` copy ``copy``: the copy counting every loop of its
    program (``remember_count_all``) with ``EXECSTATE_COUNT_LOOP`` set to this loop's place, so its run writes on
    stderr what the copy's run writes (the program's own output, then ``report_count`` of this loop's K, both
    counted at the same place by ``instrument._at_top``); None when the copy was not made here or its loop
    was not counted with the others."""
    with _LOCK:
        made = _MADE.get(_digest(copy))
        found = _COUNT_ALL.get(_digest(made.source)) if made is not None and made.mode == "count" else None
    if made is None or found is None or made.loop_line not in found[0]:
        return None
    return found[1], {COUNT_LOOP_ENV: str(found[0].index(made.loop_line))}


def _guarded(text: str) -> str:
    """``text`` with its guard constant read at run time."""
    guard = _GUARD.search(text)
    assert guard is not None
    return text[: guard.start(2)] + ACTIVE_CALL + text[guard.end(2) :]


__all__ = [
    "ACTIVE_ENV",
    "COUNT_LOOP_ENV",
    "K_ENV",
    "VARS_ENV",
    "MadeCopy",
    "UniversalCopy",
    "count_all_for",
    "made_copy",
    "remember_copy",
    "remember_count_all",
    "universal_copy",
    "universal_projection",
    "wide_universal",
    "written_back",
]
