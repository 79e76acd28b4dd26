"""The text g++ compiles for a program: its own lines, numbered as in the file, whatever its directives say.

Bundled contest sources (oj-bundle and the like) carry ``#line N "path"`` directives (and
preprocessed ones GNU linemarkers, ``# N "path"``). In a ``--coverage`` build they hand the
counts of the lines that follow to another file name and line number, so gcov's counts of
``main.cpp`` would miss the program's own lines or put them on other lines. Every copy that is
compiled (``compile_cpp``: the runs, the instrumented copies and the measured build) therefore
has each such directive blanked: its text becomes an empty line (a directive continued with
``\\`` keeps its line breaks), every other line keeps its number and bytes. The only other effect
is on ``__LINE__``/``__FILE__`` and diagnostics, which then name the lines of the file the task
shows.

The measured (``-O0 --coverage``) copy also has each ``#pragma GCC optimize(...)`` blanked: the
measured build is unoptimised by definition (SPEC 6), and the pragma would optimise the functions
after it. The builds that run keep it.

A directive is found only where the preprocessor would see one: at the start of a logical line,
outside comments, string and character literals and raw strings.
"""

from __future__ import annotations

import re

_LINE_DIRECTIVE = re.compile(r"#[ \t]*(?:line(?![A-Za-z0-9_])|[0-9])")
_OPTIMIZE_PRAGMA = re.compile(r"#[ \t]*pragma[ \t]+GCC[ \t]+optimize(?![A-Za-z0-9_])")
_RAW_PREFIXES = ("R", "u8R", "uR", "UR", "LR")


def compiled_text(source: str, *, coverage: bool) -> str:
    """``source`` with its line directives (and, for the measured build, its ``#pragma GCC optimize``) blanked."""
    if "#" not in source:
        return source
    wanted = (_LINE_DIRECTIVE, _OPTIMIZE_PRAGMA) if coverage else (_LINE_DIRECTIVE,)
    spans = [span for span in directive_spans(source) if any(p.match(source, span[0]) for p in wanted)]
    if not spans:
        return source
    out: list[str] = []
    last = 0
    for start, end in spans:
        before = source.rfind("\n", 0, start) + 1
        if not source[before:start].strip(" \t"):  # blanks before the `#` go too: the line is left empty
            start = before
        out.append(source[last:start])
        out.append(re.sub(r"[^\r\n]", "", source[start:end]))  # only the line breaks stay
        last = end
    out.append(source[last:])
    return "".join(out)


def line_directives(source: str) -> list[int]:
    """The 1-based lines where a ``#line`` directive or a linemarker starts (what ``compiled_text`` blanks)."""
    return [source.count("\n", 0, s) + 1 for s, _ in directive_spans(source) if _LINE_DIRECTIVE.match(source, s)]


def directive_spans(source: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every preprocessing directive: from its ``#`` to the end of its logical line
    (the line break not included)."""
    spans: list[tuple[int, int]] = []
    n = len(source)
    i = 0
    line_start = True  # only blanks and comments since the last line break
    word_start = -1  # where the identifier or number the scan is in began (-1: not in one)
    while i < n:
        c = source[i]
        if c == "\n":
            line_start, word_start = True, -1
            i += 1
        elif c in " \t\r\f\v":
            word_start = -1
            i += 1
        elif source.startswith("//", i):
            i = _logical_line_end(source, i)
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = n if end < 0 else end + 2
            word_start = -1
        elif c == "#" and line_start:
            end = _logical_line_end(source, i)
            spans.append((i, end))
            i, word_start = end, -1
        elif c == '"':
            word = source[word_start:i] if word_start >= 0 else ""
            if word in _RAW_PREFIXES:
                i = _raw_string_end(source, i)
            else:
                i = _quoted_end(source, i, '"')
            line_start, word_start = False, -1
        elif c == "'":
            if word_start >= 0 and source[word_start].isdigit():  # a digit separator: 1'000'000
                i += 1
            else:
                i = _quoted_end(source, i, "'")
                word_start = -1
            line_start = False
        elif c.isalnum() or c == "_" or (c == "." and word_start >= 0 and source[word_start].isdigit()):
            if word_start < 0:
                word_start = i
            line_start = False
            i += 1
        elif c == "\\" and source.startswith("\n", i + 1):  # a spliced line break is no line break
            i += 2
        elif c == "\\" and source.startswith("\r\n", i + 1):
            i += 3
        else:
            line_start, word_start = False, -1
            i += 1
    return spans


def _logical_line_end(source: str, i: int) -> int:
    """The offset of the line break that ends the logical line holding ``i`` (``\\``-continued lines joined)."""
    while True:
        end = source.find("\n", i)
        if end < 0:
            return len(source)
        body = source[:end].rstrip("\r")
        if not body.endswith("\\"):
            return end
        i = end + 1


def _quoted_end(source: str, i: int, quote: str) -> int:
    """The offset after the literal opened by ``quote`` at ``i`` (an unterminated one ends at its line break)."""
    j = i + 1
    n = len(source)
    while j < n:
        c = source[j]
        if c == "\\":
            j += 2
        elif c == quote:
            return j + 1
        elif c == "\n":
            return j
        else:
            j += 1
    return n


def _raw_string_end(source: str, i: int) -> int:
    """The offset after the raw string whose ``"`` is at ``i`` (``R"delim( ... )delim"``)."""
    open_paren = source.find("(", i + 1)
    if open_paren < 0 or open_paren - i - 1 > 16:
        return _quoted_end(source, i, '"')
    closing = ")" + source[i + 1 : open_paren] + '"'
    end = source.find(closing, open_paren + 1)
    return len(source) if end < 0 else end + len(closing)
