"""The C++ ``line-count`` protocol: ``CppLanguage.branch_lines`` (the one-line first statements of the arms of the
branches in a loop's body) and ``CppLanguage.line_counts`` (gcov's per-line counts of a clean run), the counts
checked against gcov run here by hand on a build of our own (``g++ --coverage -O0``, ``gcov -t``)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Literal

import pytest
from cpp_differential.toolchain import needs_gxx

from execstate.languages._protocol import BranchLine, LineCounting
from execstate.languages.cpp.language import CppLanguage

LANG = CppLanguage()
needs_gcov = pytest.mark.skipif(shutil.which("gcov") is None, reason="needs gcov (Debian package gcc)")

PROGRAM = """#include <algorithm>
#include <cstdio>
#include <vector>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    std::vector<long long> a(n);
    for (int i = 0; i < n; i++) a[i] = (i * 7) % 10;
    long long x = 0, y = 0;
    if (n > 3) {
        x = 1;
    }
    for (int i = 0; i < n; i++) {
        if (a[i] % 2 == 0) {
            x += a[i];
            y++;
        } else if (a[i] > 5) {
            y += 2;
        } else {
            x -= 1;  // a comment may follow
        }
        if (x > 10) x = 0;
        if (y > 3)
            y -= 3;
        else
            y += 1;
        for (int j = 0; j < a[i]; j++) {
            if (j % 3 == 0) {
                x++;
            }
        }
        if (a[i] == 4) {
            long long t = a[i] * 2; x += t;
        }
        if (a[i] == 1) {
            for (int k = 0; k < 2; k++) y++;
        } else {
            y = [&] { return x % 7; }();
        }
        if (a[i] == 3 ||
            a[i] == 9) {
            x += 5;
        }
        if (a[i] == 2)
        { x += 2;
          y++; }
        auto g = [&](long long v) {
            if (v > 2) {
                return 1;
            }
            return 0;
        };
        x += g(a[i]);
        if (a[i] == 7) { y = std::max(y, 2LL);
        } else {
            y = std::min(y, 9LL);
        }
    }
    printf("%lld %lld\\n", x, y);
}
"""
LOOP = "for (int i = 0; i < n; i++) {"
# (statement, the condition's line, arm), each line unique in PROGRAM
EXPECTED: list[tuple[str, str, Literal["then", "else"]]] = [
    ("x += a[i];", "if (a[i] % 2 == 0) {", "then"),
    ("y += 2;", "} else if (a[i] > 5) {", "then"),
    ("x -= 1;  // a comment may follow", "} else if (a[i] > 5) {", "else"),
    ("y -= 3;", "if (y > 3)", "then"),
    ("y += 1;", "if (y > 3)", "else"),
    ("x++;", "if (j % 3 == 0) {", "then"),
    ("{ x += 2;", "if (a[i] == 2)", "then"),
    ("y = std::min(y, 9LL);", "if (a[i] == 7) { y = std::max(y, 2LL);", "else"),
]
# Not marked: `if (n > 3)` (before the loop), `if (x > 10) x = 0;` (the condition on the statement's line), the
# two statements on one line, the loop, the lambda, the condition on two lines, the `if` inside the lambda `g`,
# and `y = std::max(...)` on its condition's line.
STDIN = b"10\n"  # a = 0 7 4 1 8 5 2 9 6 3


def _line(text: str, source: str = PROGRAM) -> int:
    hits = [n for n, line in enumerate(source.split("\n"), 1) if line.strip() == text]
    assert len(hits) == 1, (text, hits)
    return hits[0]


def _gcov_counts(source: str, stdin: bytes, folder: Path) -> dict[int, int]:
    """Line counts of ``source`` by hand: a ``--coverage -O0`` build run once, read with ``gcov -t``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "prog.cpp").write_text(source, encoding="utf-8", newline="")
    env = {"PATH": "/usr/bin:/bin", "LANG": "C"}
    cmd = ["g++", "-std=c++20", "-O0", "--coverage", "prog.cpp", "-o", "prog"]
    subprocess.run(cmd, cwd=folder, check=True, capture_output=True, env=env, timeout=300)
    subprocess.run(["./prog"], cwd=folder, input=stdin, check=True, capture_output=True, timeout=60)
    text = subprocess.run(["gcov", "-t", "prog.cpp"], cwd=folder, check=True, capture_output=True, env=env).stdout
    counts: dict[int, int] = {}
    source_name = b""
    for m in re.finditer(rb"^ *([^:\n]+): *(\d+):(.*)$", text, flags=re.MULTILINE):
        count, line = m.group(1).strip().rstrip(b"*"), int(m.group(2))
        if line == 0 and m.group(3).startswith(b"Source:"):  # each file's section starts so (std headers too)
            source_name = m.group(3).removeprefix(b"Source:")
        elif source_name == b"prog.cpp" and count != b"-" and line not in counts:  # not per-function repeats
            counts[line] = 0 if count in (b"#####", b"=====") else int(count)
    return counts


def test_the_cpp_adapter_offers_line_counts():
    assert isinstance(LANG, LineCounting)


def test_branch_lines_are_the_one_line_first_statements_of_the_arms():
    expected = [BranchLine(_line(stmt), _line(cond), arm) for stmt, cond, arm in EXPECTED]
    assert LANG.branch_lines(PROGRAM, _line(LOOP)) == sorted(expected, key=lambda b: b.line)


def test_branch_lines_of_an_inner_loop_and_a_loop_macro():
    inner = _line("for (int j = 0; j < a[i]; j++) {")
    assert LANG.branch_lines(PROGRAM, inner) == [BranchLine(_line("x++;"), _line("if (j % 3 == 0) {"), "then")]
    macro = PROGRAM.replace(
        "#include <vector>\n", "#include <vector>\n#define rep(i, n) for (int i = 0; i < (n); ++i)\n"
    )
    macro = macro.replace(LOOP, "rep(i, n) {")
    assert [b.line - 1 for b in LANG.branch_lines(macro, _line(LOOP) + 1)] == [
        b.line for b in LANG.branch_lines(PROGRAM, _line(LOOP))
    ]


@needs_gxx
@needs_gcov
def test_line_counts_are_gcovs_counts_of_a_clean_run(tmp_path):
    counts = LANG.line_counts(PROGRAM, STDIN, tmp_path)
    assert counts is not None
    by_hand = _gcov_counts(PROGRAM, STDIN, tmp_path / "by-hand")
    marked = LANG.branch_lines(PROGRAM, _line(LOOP))
    lines = sorted({b.line for b in marked} | {b.branch_line for b in marked})
    assert [(n, counts.get(n)) for n in lines] == [(n, by_hand.get(n)) for n in lines]
    assert counts == by_hand  # every line of the file alike
    # and what the program's logic says: 10 iterations, a[i] even 5 times, 7 and 9 once each
    assert counts[_line(LOOP)] == 11
    assert counts[_line("x += a[i];")] == 5
    assert counts[_line("y += 2;")] == 2
    assert counts[_line("x -= 1;  // a comment may follow")] == 3
    assert counts[_line("if (y > 3)")] == 10


BUNDLED = """#line 1 "main.cpp"
#include <cstdio>
#line 1 "lib/helper.hpp"
static int twice(int v) { return 2 * v; }
#line 4 "main.cpp"
int main() {
    int s = 0;
    for (int i = 0; i < 5; i++) {
        if (i % 2 == 0) {
            s += twice(i);
        } else {
            s -= 1;
        }
    }
    printf("%d\\n", s);
}
"""


@needs_gxx
@needs_gcov
def test_line_directives_do_not_move_the_counts(tmp_path):
    counts = LANG.line_counts(BUNDLED, b"", tmp_path)
    assert counts is not None
    then, other = _line("s += twice(i);", BUNDLED), _line("s -= 1;", BUNDLED)
    loop = _line("for (int i = 0; i < 5; i++) {", BUNDLED)
    assert LANG.branch_lines(BUNDLED, loop) == [
        BranchLine(then, then - 1, "then"),
        BranchLine(other, then - 1, "else"),
    ]
    assert (counts[loop], counts[then - 1], counts[then], counts[other]) == (6, 5, 3, 2)
    assert counts[_line("static int twice(int v) { return 2 * v; }", BUNDLED)] == 3


@needs_gxx
@needs_gcov
def test_a_failing_run_has_no_line_counts(tmp_path):
    assert LANG.line_counts(PROGRAM, b"", tmp_path) is None  # no n: main returns 1
