"""A program with only line comments added stands for the program: its runs and measurements are the program's.

The builder poses a line count on the clean program with one line marked by a trailing comment and the question
in comment lines below it (``mark_line``), then checks that the marked text prints the clean output and that the
marked line runs as often as in the clean program. For C++ each check was two compiles (the run's build and the
measured build) of a text the compiler cannot tell from the clean program's: a comment is replaced by whitespace
before preprocessing, so the two texts are the same program, line for line, and gcov counts the same lines.

``only_comments_added(source, text)`` proves that, rather than trusting it: every line of ``text`` is the line of
``source`` with the same number, except that a line may gain a ``//`` comment after its last character and the last
line a line end, and the lines after ``source``'s are blank or ``//`` comments. A line may gain a comment only
where a comment can start: its last character is code or ends a comment, not inside a string, character or
raw-string literal, an open comment, or a preprocessor directive (tree-sitter-cpp's parse of ``source``, which
must parse without error), and it is not a backslash (a line continuation). An added comment neither ends
with a backslash nor holds ``??`` (a trigraph under an old standard). ``commented_original(text)`` is the
program of the recent ones this process measured (``universal.remember_program``) that ``text`` stands for,
else None: the C++ adapter then runs and measures that program's builds in place of compiling the marked text
twice.
"""

from __future__ import annotations

import re

from execstate.languages._protocol import source_lines
from execstate.languages.cpp.syntax import Node, parse
from execstate.languages.cpp.universal import recent_programs

_ADDED = re.compile(r"[ \t]+//[^\r\n]*")  # what a marked line gains: whitespace and a line comment
_TAIL = re.compile(r"[ \t]*(//[^\r\n]*)?")  # a line after the program's: blank or a line comment
_NOT_CODE = frozenset(
    {
        "comment",
        "string_literal",
        "raw_string_literal",
        "char_literal",
        "concatenated_string",
        "system_lib_string",
        "string_content",
        "raw_string_content",
        "raw_string_delimiter",
        "escape_sequence",
        "preproc_arg",
        "preproc_def",
        "preproc_function_def",
        "preproc_call",
        "preproc_include",
        "preproc_params",
    }
)


def commented_original(text: str) -> str | None:
    """The most recent remembered program (``universal.remember_program``) that ``text`` differs from only by
    added comments, else None."""
    for source in recent_programs(shorter_than=len(text)):
        if only_comments_added(source, text):
            return source
    return None


def _safe_comment(comment: str) -> bool:
    return not comment.rstrip().endswith("\\") and "??" not in comment


def only_comments_added(source: str, text: str) -> bool:
    """Whether ``text`` is ``source`` with line comments added as the module says, and nothing else."""
    s_lines, t_lines = source_lines(source), source_lines(text)
    if len(t_lines) < len(s_lines) or not s_lines:
        return False
    marked: list[int] = []
    for i, (a, b) in enumerate(zip(s_lines, t_lines, strict=False)):
        if a == b:
            continue
        a_body, b_body = a.rstrip("\r\n"), b.rstrip("\r\n")
        a_end, b_end = a[len(a_body) :], b[len(b_body) :]
        last = i == len(s_lines) - 1
        if a_end != b_end and not (last and a_end == "" and b_end):
            return False
        if a_body == b_body:
            continue  # the last line gained its line end
        code = a_body.rstrip()
        added = b_body[len(code) :] if b_body.startswith(code) else None
        if added is None or not code or not _ADDED.fullmatch(added) or not _safe_comment(added):
            return False
        marked.append(i)
    for extra in t_lines[len(s_lines) :]:
        body = extra.rstrip("\r\n")
        if not _TAIL.fullmatch(body) or not _safe_comment(body):
            return False
    if not marked and len(t_lines) == len(s_lines):
        return text == source
    data, root = parse(source)
    if root.has_error:
        return False
    ends = [_line_end_byte(data, s_lines, i) for i in marked]
    if len(t_lines) > len(s_lines):
        ends.append(len(data.rstrip()))  # the lines added below: the program must end in code or a closed comment
    return all(_ends_in_code(data, root, end) for end in ends)


def _line_end_byte(data: bytes, lines: list[str], i: int) -> int:
    """The byte offset just past line ``i``'s last character other than whitespace."""
    start = sum(len(line.encode("utf-8")) for line in lines[:i])
    return start + len(lines[i].rstrip().encode("utf-8"))


def _ends_in_code(data: bytes, root: Node, end: int) -> bool:
    """Whether a ``//`` comment may start right after byte ``end`` (the last character before it is ``end - 1``)."""
    if end <= 0:
        return False  # an empty program: nothing to mark
    if data[end - 1 : end] == b"\\":
        return False
    node = root.descendant_for_byte_range(end - 1, end)
    while node is not None:
        if node.type in _NOT_CODE:
            seen = data[node.start_byte : node.end_byte]
            closed_comment = node.type == "comment" and (
                seen.startswith(b"//") or (seen.startswith(b"/*") and seen.endswith(b"*/") and len(seen) >= 4)
            )
            if not (closed_comment and node.end_byte == end):  # a comment that ends the line: the mark joins it
                return False
        node = node.parent
    return True


__all__ = ["commented_original", "only_comments_added"]
