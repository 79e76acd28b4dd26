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
init-statement that the copy does not move fails this and is run as its own universal build. A shared
text asserts ``DEFERRED`` where a copy asserts ``ASSERTED`` (checked as the copy's, ``asserted``), so it
compiles whatever the types of the wider set, and a copy showing a variable the emitter cannot serialize is
refused when its checkpoint prints it, at run time, in the emitter's words naming the variable and its type.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from execstate.errors import SpecProblem
from execstate.languages._protocol import Instrumented
from execstate.languages.cpp.budget import COUNT_ALL_ENV, COUNT_LOOP_ENV
from execstate.languages.cpp.candidates import cpp_loops
from execstate.languages.cpp.instrument import (
    ASSERTED,
    MODE_CODES,
    MODE_LETTERS,
    MOVED_NOTE,
    ON_CALL,
    REPORT_CALL,
    REPORT_OF_CALL,
    STEPS_CALL,
    CppMode,
    EveryMode,
    count_all_cpp,
    every_mode_cpp,
    instrument_cpp,
    k_call,
    projection_args,
    refusal_asserts,
)
from execstate.languages.cpp.protocol import HEADER_NAME
from execstate.languages.cpp.syntax import expand_loop_macros

if TYPE_CHECKING:
    from pathlib import Path

    from execstate.metrics.cpp import Compiler

K_CALL = "execstate_emit::checkpoint_k()"
ACTIVE_CALL = "execstate_emit::checkpoint_active()"
K_ENV = "EXECSTATE_CHECKPOINT_K"
ACTIVE_ENV = "EXECSTATE_CHECKPOINT_ACTIVE"
_GUARD = re.compile(r"^static const bool (\w+)active = (true|false);$", re.MULTILINE)


VARS_ENV = "EXECSTATE_CHECKPOINT_VARS"
DEFERRED = "static_assert(execstate_emit::shown_or_refused<decltype("
"""How the same assertion starts in a shared text: true for every type, so the text compiles whatever the loop's
candidates are, and the emitter refuses a variable it cannot serialize when the checkpoint shows it, at run time
(``refuse_type`` in ``execstate_emit.hpp``: the refusal's marker and name, with the type, on stderr; exit 3)."""


def deferred(text: str) -> str:
    """A shared text's assertions (``DEFERRED``) where the copy has its own (``ASSERTED``)."""
    return text.replace(ASSERTED, DEFERRED)


def asserted(text: str) -> str:
    """The copy's assertions written back in a shared text (a program that spells ``DEFERRED`` itself then is
    not written back as its copy, which is compiled as it is)."""
    return text.replace(DEFERRED, ASSERTED)


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
    universal = deferred(_guarded(k_places.sub(K_CALL, source)))
    copy = UniversalCopy(universal, int(k), guard.group(2) == "true")
    written_back = asserted(universal).replace(K_CALL, k).replace(ACTIVE_CALL, guard.group(2))
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
    text = _asserts_written_back(asserted(text), variables, wide)
    return text.replace(K_CALL, str(universal.k)).replace(ACTIVE_CALL, "true" if universal.active else "false")


def _asserts_written_back(text: str, variables: tuple[str, ...], wide: tuple[str, ...]) -> str:
    """``text`` with each block of the ``wide`` set's ``static_assert`` lines written as ``variables``' block."""
    lines = [re.escape(a) for a in refusal_asserts(wide)]
    pattern = r"^(?P<indent>[ \t]*)" + lines[0]
    for n, line in enumerate(lines[1:]):
        pattern += (r"(?P<nl>\r?\n)" if n == 0 else r"(?P=nl)") + r"(?P=indent)" + line
    block = re.compile(pattern + r"(?=\r?\n)", re.MULTILINE)
    return block.sub(
        lambda m: (m.groupdict().get("nl") or "\n").join(m.group("indent") + a for a in refusal_asserts(variables)),
        text,
    )


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
    inserted: frozenset[int] = field(default=frozenset(), compare=False)
    """The copy's lines that hold only inserted code (``Instrumented.inserted_lines``; empty: not known)."""


_REMEMBERED = 4096
"""Copies (and universal texts) remembered per process; the oldest are forgotten first."""
_MADE: OrderedDict[str, MadeCopy] = OrderedDict()
_WIDE: OrderedDict[tuple[str, int], tuple[str, ...]] = OrderedDict()
_WIDE_MEMO: OrderedDict[tuple[str, tuple[str, ...]], UniversalCopy | None] = OrderedDict()
_LOCK = threading.Lock()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _remember(table: OrderedDict, key: Any, value: Any, limit: int = _REMEMBERED) -> None:
    table[key] = value
    table.move_to_end(key)
    while len(table) > limit:
        table.popitem(last=False)


class FailedTexts:
    """The texts that did not compile in this process, each with its compiler and include directories, so that
    no text is compiled twice to fail twice. Keyed by the text's SHA-256, not the text, and bounded like the
    other memos here: past ``capacity`` keys the oldest is forgotten (a construct over thousands of programs
    keeps a few MB at most; a forgotten text is only compiled again)."""

    def __init__(self, capacity: int = _REMEMBERED) -> None:
        if capacity < 1:
            raise ValueError(f"FailedTexts capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self._keys: OrderedDict[tuple[str, Compiler, tuple[Path, ...]], None] = OrderedDict()

    def __contains__(self, item: object) -> bool:
        return isinstance(item, tuple) and len(item) == 3 and self._key(item) in self._keys

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, item: tuple[str, Compiler, tuple[Path, ...]]) -> None:
        """Remember ``item`` (text, compiler, include directories) as failed, forgetting the oldest past capacity."""
        _remember(self._keys, self._key(item), None, self.capacity)

    @staticmethod
    def _key(item: tuple[str, Compiler, tuple[Path, ...]]) -> tuple[str, Compiler, tuple[Path, ...]]:
        source, compiler, includes = item
        return _digest(source), compiler, includes


_PROGRAMS: OrderedDict[str, str] = OrderedDict()
_PROGRAMS_KEPT = 64


def remember_program(source: str) -> None:
    """Note ``source`` as a program this process measured (the most recent 64 are kept): a marked line count of
    it stands for it (``commented.commented_original``)."""
    with _LOCK:
        _remember(_PROGRAMS, _digest(source), source, _PROGRAMS_KEPT)


def recent_programs(shorter_than: int) -> list[str]:
    """The remembered programs shorter than ``shorter_than`` characters, the most recent first."""
    with _LOCK:
        return [s for s in reversed(_PROGRAMS.values()) if len(s) < shorter_than]


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
    time among its loop's candidate set (``universal_projection``), or None (not made here, or the check fails)."""
    with _LOCK:
        made = _MADE.get(_digest(copy))
        if made is None:
            return None
        loop = (_digest(made.source), made.loop_line)
        wide = _WIDE.get(loop, ())
        memo = (_digest(copy), wide)
        if memo in _WIDE_MEMO:
            return _WIDE_MEMO[memo]
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


def measured_universal(copy: str, inserted: frozenset[int]) -> UniversalCopy | None:
    """The universal text (``wide_universal``, else ``universal_copy``) that a measured build of checkpoint copy
    ``copy`` can be made of, when no every-mode text counts the copy's lines: one whose lines differ from the
    copy's only on lines that hold inserted code alone (``inserted``, the copy's), so gcov counts the program's
    lines of both alike. None when there is none (or ``inserted`` is not known)."""
    if not inserted:
        return None
    lines = copy.split("\n")
    for universal in (wide_universal(copy), universal_copy(copy)):
        if universal is None:
            continue
        shared = universal.source.split("\n")
        if len(shared) == len(lines) and all(
            a == b or n in inserted for n, (a, b) in enumerate(zip(shared, lines, strict=True), 1)
        ):
            return universal
    return None


MODE_ENV = "EXECSTATE_CHECKPOINT_MODE"
STEPS_ENV = "EXECSTATE_CHECKPOINT_STEPS"


@dataclass(frozen=True)
class EveryModeCopy:
    """A copy as the one build of its loop that serves every mode (``every_mode_cpp``) and the settings that
    make that build this copy."""

    source: str
    """The text compiled (the ``EveryMode`` text of the loop's candidate set)."""
    inserted_lines: frozenset[int]
    """The text's lines that hold only inserted code (not counted in a measured build)."""
    settings: dict[str, str]
    """The environment the run reads: ``EXECSTATE_CHECKPOINT_MODE`` and the copy's k, guard, steps, projection."""
    same_lines: bool
    """Whether a measured (``--coverage``) build of the text counts what the copy's own counts: the program's
    own lines are the copy's, line for line, or differ only by the init-statement the text moves out of a
    header whose condition stays on that line (``_every_mode_copy``); else the copy is measured as itself."""


def every_mode_written_back(
    u: EveryMode, made: MadeCopy, wide: tuple[str, ...], unmoved: EveryMode | None = None
) -> str | None:
    """The copy ``made`` (with projection ``made.variables`` among ``wide``) written back out of ``u``: the lines of
    the other modes dropped, the run-time calls written as the copy's constants and plain calls. When ``u``
    moves the loop's init-statement and the copy does not, the text written back is ``unmoved`` (the same
    loop and set made with ``move=False``), which must be ``u`` with the moved line dropped and the
    init-statement back in the header, line for line; None when it is not (or when it is not given)."""
    letter = MODE_LETTERS[made.mode]
    moves = made.mode == "post" and any(n in made.variables for n in u.init_names)
    base = u
    if u.moved and not moves:
        if unmoved is None or not _moved_back(u, unmoved):
            return None
        base = unmoved
    kept: list[str] = []
    for line, tag in zip(base.source.split("\n"), base.tags, strict=True):
        if tag == "m":
            if moves:
                head, _, _ = line.partition(MOVED_NOTE)
                kept.append(head + MOVED_NOTE + ", ".join(n for n in u.init_names if n in made.variables))
        elif not tag or letter in tag:
            kept.append(line)
    text = "\n".join(kept)
    variables = made.variables
    wide_pairs, pairs = projection_args(wide), projection_args(variables)
    for plain, chosen in _CHOSEN:
        text = text.replace(f"{chosen}{wide_pairs})", f"{plain}{pairs})")
    run = f"{u.prefix}run"
    text = text.replace(
        f"execstate_emit::observe_chosen({', '.join([run, *wide])})",
        f"execstate_emit::observe({', '.join([run, *variables])})",
    )
    text = text.replace("execstate_emit::loop_enter_of()", "execstate_emit::loop_enter()")
    text = text.replace("execstate_emit::loop_exit_of(", "execstate_emit::loop_exit(")
    text = text.replace(REPORT_OF_CALL, REPORT_CALL)
    text = _asserts_written_back(asserted(text), variables, wide)
    text = text.replace(k_call(made.mode), str(made.k)).replace(STEPS_CALL, str(made.steps))
    return text.replace(ON_CALL, "true" if made.active else "false")


_STILL_RUNS = re.compile(r"\bfor\s*\(\s*;\s*[^;\s][^;]*;")
"""A ``for`` header without its init-statement whose condition is still on its line."""


def _header_line(u: EveryMode) -> str:
    """The line of ``u``'s loop header that lost the moved init-statement (the line after the moved one's block)."""
    lines = u.source.split("\n")
    at = u.tags.index("m")
    return next((line for line, tag in zip(lines[at:], u.tags[at:], strict=True) if not tag), "")


def _moved_back(u: EveryMode, unmoved: EveryMode) -> bool:
    """Whether ``unmoved`` is ``u`` with its moved init-statement's line dropped and the statement back in the
    loop's header (``u``'s header holds ``;`` where ``unmoved``'s, or its loop macro's expansion, holds the
    statement), every other line alike."""
    if unmoved.moved or unmoved.prefix != u.prefix:
        return False
    lines = [(line, tag) for line, tag in zip(u.source.split("\n"), u.tags, strict=True) if tag != "m"]
    back = list(zip(unmoved.source.split("\n"), unmoved.tags, strict=True))
    if len(lines) != len(back) or len(lines) != len(u.tags) - 1:
        return False
    differ = [(i, a, b) for i, (a, b) in enumerate(zip(lines, back, strict=True)) if a != b]
    if len(differ) != 1 or differ[0][1][1] or differ[0][2][1]:
        return False
    at, (line, _), (header, _) = differ[0]
    if line == header.replace(u.moved, ";", 1):
        return True
    # a loop macro's invocation (`rep(i, n) {`): the moving text writes it out as its expansion on its line
    expanded = expand_loop_macros(unmoved.source).split("\n")
    return len(expanded) == len(back) and line == expanded[at].replace(u.moved, ";", 1)


_EVERY: OrderedDict[tuple[str, int, tuple[str, ...], bool], EveryMode | None] = OrderedDict()
_EVERY_MEMO: OrderedDict[tuple[str, tuple[str, ...]], EveryModeCopy | None] = OrderedDict()


def _every_mode(source: str, loop_line: int, wide: tuple[str, ...], move: bool) -> EveryMode | None:
    key = (_digest(source), loop_line, wide, move)
    with _LOCK:
        if key in _EVERY:
            return _EVERY[key]
    try:
        found: EveryMode | None = every_mode_cpp(source, loop_line, wide, move=move)
    except (SpecProblem, ValueError):
        found = None
    if found is not None:  # shared by every candidate: a refused type is refused at run time (``DEFERRED``)
        found = replace(found, source=deferred(found.source))
    with _LOCK:
        _remember(_EVERY, key, found)
    return found


def every_mode_copies(copy: str, made: MadeCopy | None = None) -> tuple[EveryModeCopy, ...]:
    """The builds that serve every mode of ``copy``'s loop and can stand for ``copy``, best first: the
    ``every_mode_cpp`` text of the loop's candidate set (``remember_copy``: one build for construct's probe,
    trial and final copies), then that of the copy's own projection (a copy of variables outside that set). Neither
    fails for a type the emitter cannot serialize (``DEFERRED``).
    Each with the settings that make it ``copy``; one is left out when the copy written back out of it
    (``every_mode_written_back``) is not ``copy`` byte for byte. Empty for a copy that is not an inside, post,
    trace, observe or count copy (of a projection) this process made (``made``: how it was made, for a copy not
    remembered)."""
    made = made if made is not None else made_copy(copy)
    if made is None or made.mode not in MODE_LETTERS or not made.variables:
        return ()
    if len(set(made.variables)) != len(made.variables):
        return ()
    with _LOCK:
        wide = _WIDE.get((_digest(made.source), made.loop_line), ())
    sets = [wide] if all(v in wide for v in made.variables) else []
    if made.variables not in sets:
        sets.append(made.variables)
    found = [c for c in (_every_mode_copy(copy, made, among) for among in sets) if c is not None]
    return tuple(found)


def _every_mode_copy(copy: str, made: MadeCopy, wide: tuple[str, ...]) -> EveryModeCopy | None:
    """``copy`` as the every-mode build of its loop with projection ``wide``, or None (the check fails)."""
    memo = (_digest(copy) + made.mode, wide)
    with _LOCK:
        if memo in _EVERY_MEMO:
            return _EVERY_MEMO[memo]
    found: EveryModeCopy | None = None
    u = _every_mode(made.source, made.loop_line, wide, True)
    unmoved = _every_mode(made.source, made.loop_line, wide, False) if u is not None and u.moved else None
    if u is not None and every_mode_written_back(u, made, wide, unmoved) == copy:
        moves = made.mode == "post" and any(n in made.variables for n in u.init_names)
        settings = {
            MODE_ENV: str(MODE_CODES[made.mode]),
            VARS_ENV: ",".join(str(wide.index(v)) for v in made.variables),
        }
        if made.mode != "observe":
            settings |= {K_ENV: str(made.k), ACTIVE_ENV: "1" if made.active else "0"}
        if made.mode == "trace":
            settings[STEPS_ENV] = str(made.steps)
        # a moved init-statement on the line of the loop's condition: gcov counts that line once per entry (from
        # the line before it: the loop's entries; from the body: its iterations) whether or not the
        # statement is on it, and the moved line is inserted (not counted), so the counts are the copy's
        same = not u.moved or moves or _STILL_RUNS.search(_header_line(u)) is not None
        found = EveryModeCopy(u.source, u.inserted_lines, settings, same)
    with _LOCK:
        _remember(_EVERY_MEMO, memo, found)
    return found


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


@dataclass(frozen=True)
class CleanStandIn:
    """The build that runs for a clean program: its copy counting every loop (``count_all_cpp``), silent unless
    asked (``COUNT_ALL_ENV``, ``COUNT_LOOP_ENV``), so the program's runs and its loops' count share one compile."""

    source: str
    loop_lines: tuple[int, ...]
    """The loops the copy counts, in the order it numbers them."""
    settings: dict[str, str]
    """Nothing: the copy runs as the program, its counters reporting nothing."""


_CLEAN: OrderedDict[str, CleanStandIn | None] = OrderedDict()


def clean_stand_in(source: str) -> CleanStandIn | None:
    """The ``CleanStandIn`` of the clean program ``source``, or None: a text holding the emitter's ``#include``
    (a copy), a program without a loop or whose counting copy cannot be made, or one whose copy is not
    ``source`` plus whole inserted lines, braces opening a loop's body and whitespace (``only_added``)."""
    if HEADER_NAME in source:
        return None
    key = _digest(source)
    with _LOCK:
        if key in _CLEAN:
            return _CLEAN[key]
    found: CleanStandIn | None = None
    try:
        lines = tuple(cpp_loops(source))
        counted = count_all_cpp(source, lines) if lines else None
    except (SpecProblem, ValueError, AssertionError):
        counted = None
    if counted is not None and only_added(source, counted):
        found = CleanStandIn(counted.source, lines, {})
    with _LOCK:
        _remember(_CLEAN, key, found)
    return found


def only_added(clean: str, copy: Instrumented) -> bool:
    """Whether ``copy`` is ``clean`` with only whole lines (``copy.inserted_lines``), ``{`` and whitespace added:
    dropping its inserted lines leaves the words (runs of non-blank characters) of ``clean``, in order, with
    only ``{`` words added (a brace-less loop body gets ``{ ... }``, a body that shares the loop's line moves
    onto a line of its own). Linear in the text's length."""
    kept = "\n".join(line for n, line in enumerate(copy.source.split("\n"), 1) if n not in copy.inserted_lines)
    words = iter(kept.split())
    for word in clean.split():
        for other in words:
            if other == word:
                break
            if other != "{":
                return False
        else:
            return False
    return all(other == "{" for other in words)


def _guarded(text: str) -> str:
    """``text`` with its guard constant read at run time."""
    guard = _GUARD.search(text)
    assert guard is not None
    return text[: guard.start(2)] + ACTIVE_CALL + text[guard.end(2) :]


__all__ = [
    "ACTIVE_ENV",
    "ASSERTED",
    "COUNT_ALL_ENV",
    "COUNT_LOOP_ENV",
    "DEFERRED",
    "K_ENV",
    "MODE_ENV",
    "STEPS_ENV",
    "VARS_ENV",
    "CleanStandIn",
    "EveryModeCopy",
    "FailedTexts",
    "MadeCopy",
    "UniversalCopy",
    "asserted",
    "clean_stand_in",
    "count_all_for",
    "deferred",
    "every_mode_copies",
    "every_mode_written_back",
    "made_copy",
    "measured_universal",
    "only_added",
    "recent_programs",
    "remember_copy",
    "remember_count_all",
    "remember_program",
    "universal_copy",
    "universal_projection",
    "wide_universal",
    "written_back",
]
