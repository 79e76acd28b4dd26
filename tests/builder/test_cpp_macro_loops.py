"""Loops written through the program's own loop macros (``rep``, ``rrep``, ``each``, nested) are loops.

Each program here has a twin that writes the same loops out with ``for`` on the same lines (the
``#define`` lines stay, unused), so every line-based measurement corresponds: the macro program
must give the twin's loops, candidates, instrumented lines, checkpoint states, and built tasks.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from cpp_differential.toolchain import build as compile_copy
from cpp_differential.toolchain import execute, needs_gxx

from execstate.builder import build
from execstate.errors import SpecProblem
from execstate.languages.cpp.candidates import cpp_candidates, cpp_loops
from execstate.languages.cpp.instrument import instrument_cpp
from execstate.languages.cpp.syntax import check_variables_cpp, expand_loop_macros, program_view, resolve_loop_cpp
from execstate.metrics.cpp import cyclomatic_cpp

DEFINES = (
    "#include <algorithm>\n#include <iostream>\n#include <vector>\n"
    "#define rep(i, n) for (int i = 0; i < (n); ++i)\n"
    "#define rrep(i, n) for (int i = (n) - 1; i >= 0; --i)\n"
    "#define each(x, v) for (auto& x : v)\n"
)
BODY = """int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    long long total = 0, best = 0;
    @rep(i, n)@ {
        a[i] = (i * 7) % 11;
    }
    @rrep(i, n)@ total += a[i] * (i % 3);
    @each(x, a)@ {
        best = std::max(best, x + total % 5);
        x += 1;
    }
    @rep(i, n)@
        @rep(j, i % 4)@ total += a[j];
    std::cout << total << ' ' << best << std::endl;
}
"""
WRITTEN = {
    "rep(i, n)": "for (int i = 0; i < n; ++i)",
    "rrep(i, n)": "for (int i = n - 1; i >= 0; --i)",
    "each(x, a)": "for (auto& x : a)",
    "rep(j, i % 4)": "for (int j = 0; j < i % 4; ++j)",
}


def _program(written: bool) -> str:
    parts = BODY.split("@")
    return DEFINES + "".join(WRITTEN[p] if i % 2 and written else p for i, p in enumerate(parts))


MACROS, TWIN = _program(False), _program(True)
LINES = {"rep": 12, "rrep": 15, "each": 16, "outer": 20, "inner": 21}
# The spec of each case: the macro program's loop_text, the twin's, the projection.
CASES = {
    "rep": ("rep(i, n) {", "for (int i = 0; i < n; ++i) {", ["i", "a"]),
    "rrep": (
        "rrep(i, n) total += a[i] * (i % 3);",
        "for (int i = n - 1; i >= 0; --i) total += a[i] * (i % 3);",
        ["total", "i"],
    ),
    "each": ("each(x, a) {", "for (auto& x : a) {", ["best", "a"]),
    "outer": ("rep(i, n)", "for (int i = 0; i < n; ++i)", ["i", "total"]),
    "inner": ("rep(j, i % 4) total += a[j];", "for (int j = 0; j < i % 4; ++j) total += a[j];", ["total", "j"]),
}


def _differing_lines(a: str, b: str) -> list[int]:
    la, lb = a.split("\n"), b.split("\n")
    assert len(la) == len(lb)
    return [n for n, (x, y) in enumerate(zip(la, lb), 1) if x != y]


# --- recognising loop macros -----------------------------------------------------------------------


def test_the_twins_differ_only_on_the_macro_lines():
    assert _differing_lines(MACROS, TWIN) == sorted(LINES.values())


def test_macro_loops_are_the_loops_and_candidates_of_the_twin():
    assert cpp_loops(MACROS) == cpp_loops(TWIN) == sorted(LINES.values())
    for line in LINES.values():
        # the same names, read or not, first assigned on the same lines (columns follow each text)
        mine = [(c.name, c.read, c.first[0]) for c in cpp_candidates(MACROS, line)]
        assert mine == [(c.name, c.read, c.first[0]) for c in cpp_candidates(TWIN, line)], line
    assert [c.name for c in cpp_candidates(MACROS, LINES["rep"])] == ["i", "a"]
    assert [c.name for c in cpp_candidates(MACROS, LINES["each"])] == ["best"]  # x: the range element


def test_loop_text_names_the_macro_line():
    for name, (loop_text, twin_text, variables) in CASES.items():
        assert resolve_loop_cpp(MACROS, None, loop_text) == LINES[name] == resolve_loop_cpp(TWIN, None, twin_text)
        check_variables_cpp(MACROS, LINES[name], tuple(variables))
    assert resolve_loop_cpp(MACROS, LINES["outer"], None) == LINES["outer"]
    with pytest.raises(SpecProblem, match="range-for element"):
        check_variables_cpp(MACROS, LINES["each"], ("x",))
    with pytest.raises(SpecProblem, match="no variable 'j'"):
        check_variables_cpp(MACROS, LINES["outer"], ("j",))  # the inner macro's counter
    one_line = MACROS.replace("    rep(i, n)\n        rep(j", "    rep(i, n) rep(j")
    with pytest.raises(SpecProblem, match="starts 2 loops"):  # as `for (...) for (...)` on one line
        resolve_loop_cpp(one_line, None, "rep(i, n) rep(j, i % 4) total += a[j];")


def test_which_defines_are_loop_macros():
    source = (
        "#define FOR(i, a, b) for (int i = (a); i < (b); i++)  // half-open\n"
        "#define rep(i, n) FOR(i, 0, n)\n"
        "#define REP(i,n) for(int i=0;i<(int)(n);i++)\n"
        "#define whilst(c) while (c) /* a while loop */\n"
        "#define spread(i, \\\n    n) for (long long i = 0; \\\n    i < (n); i++)\n"
        "#define rep2(i, n) for (int i = 0, i##_end = (n); i < i##_end; ++i)\n"
        "#define overload(...) for (__VA_ARGS__)\n"
        "#define when(i, n) for (int i = 0; i < (n); ++i) if (i % 2)\n"
        "#define SZ(v) ((int)(v).size())\n"
        "#ifdef LOCAL\n#define each(x, v) for (auto x : v)\n#else\n#define each(x, v) for (auto& x : v)\n#endif\n"
        "#define gone(i, n) for (int i = 0; i < (n); ++i)\n#undef gone\n"
        "int main() {\n"
        "    int s = 0, k = 5;\n"
        "    FOR(i, 1, k) s += i;\n"
        '    rep(i, SZ(std::string("a,b"))) s++;\n'
        "    REP(q,-1) s--;\n"
        "    whilst(k-- > 0) s++;\n"
        "    spread(t, 3) s++;\n"
        "    rep2(i, 3) s++;\n"
        "    overload(int i = 0; i < 3; i++) s++;\n"
        "    when(i, 3) s++;\n"
        "    each(x, std::vector<int>(2)) s += x;\n"
        "    gone(i, 3) s++;\n"
        '    // rep(i, 3) in a comment, "rep(i, 3)" in a string\n'
        '    const char* t = "rep(i, 3)";\n'
        "    rep(i,\n        3) s++;\n"
        "    return s + (t != nullptr);\n"
        "}\n"
    )
    view = program_view(source)
    assert [inv.text.decode() for inv in view.invocations] == [
        "FOR(i, 1, k)",
        'rep(i, SZ(std::string("a,b")))',  # the comma inside a string, inside parentheses
        "REP(q,-1)",
        "whilst(k-- > 0)",
        "spread(t, 3)",
    ]  # not: ##, variadic, a trailing statement, two definitions, #undef, comments, strings, two lines
    assert [inv.expansion.decode() for inv in view.invocations] == [
        "for (int i = (1); i < (k); i++)",
        'for (int i = (0); i < (SZ(std::string("a,b"))); i++)',  # through FOR
        "for(int q=0;q<(int)(-1);q++)",
        "while (k-- > 0)",
        "for (long long t = 0; t < (3); t++)",  # the continuation lines joined
    ]
    assert view.source.count("\n") == source.count("\n")
    assert cpp_loops(source) == [21, 22, 23, 24, 25]
    later = "int main() { int s = 0; up(i, 3) s++; }\n#define up(i, n) for (int i = 0; i < (n); ++i)\n"
    assert program_view(later).invocations == ()  # used before its #define: not that macro
    assert program_view("#define dec(i, n) for (int i = n; i > 0; i--)\nint main() { dec(i, -1) {} }\n").source == (
        "#define dec(i, n) for (int i = n; i > 0; i--)\nint main() { for (int i = -1; i > 0; i--) {} }\n"
    )
    spaced = program_view("#define down(i, n) for (int i = 9; i > 0; i-n)\nint main() { down(i, -1) {} }\n")
    assert b"i- -1" in spaced.data  # not `i--1`: the argument stays a token of its own


def test_the_view_maps_back_to_the_program():
    view = program_view(MACROS)
    program = MACROS.encode()
    assert view.program == program and view.data != program
    for inv in view.invocations:
        assert view.clean_offset(inv.view_start) == inv.start == view.clean_offset(inv.view_end - 1)
        assert view.clean_offset(inv.view_end) == inv.end
        assert program[inv.start : inv.end] == inv.text
    tail = view.data.index(b"std::cout")
    assert view.clean_offset(tail) == program.index(b"std::cout")
    assert view.clean_point(tail) == (22, 4)
    plain = program_view(TWIN)
    assert plain.invocations == () and plain.source is TWIN  # no loop macro: the program itself


# --- instrumentation ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["inside", "post", "count", "observe"])
def test_the_copy_is_the_twins_copy_with_the_invocations_as_written(mode):
    program = MACROS
    for name, (_, _, variables) in CASES.items():
        mine = instrument_cpp(program, LINES[name], tuple(variables), mode, 3)
        twin = instrument_cpp(TWIN, LINES[name], tuple(variables), mode, 3)
        assert mine.inserted_lines == twin.inserted_lines, name
        lines = mine.source.split("\n")
        invocations = [
            n for n, line in enumerate(lines, 1) if any(m in line for m in WRITTEN) and "#define" not in line
        ]
        # A post copy that projects the counter moves its declaration: that invocation is written out.
        moved = mode == "post" and name in ("rep", "rrep", "outer", "inner")
        assert len(invocations) == 5 - moved, (name, mode)
        rewritten = [n for n, line in enumerate(lines, 1) if "moved here" in line or line.strip().startswith("for (;")]
        assert len(rewritten) == 2 * moved, (name, mode)
        # Every other line is the twin's: the same insertions at the same places.
        assert set(_differing_lines(mine.source, twin.source)) <= set(invocations + rewritten), (name, mode)


@needs_gxx
def test_crlf_tabs_a_macro_through_a_macro_and_a_while_macro(tmp_path):
    source = (
        "#include <bits/stdc++.h>\r\nusing namespace std;\r\n#define int long long\r\n"
        "#define FOR(i, a, b) for (int i = (a); i < (b); ++i)\r\n#define rep(i, n) FOR(i, 0, n)\r\n"
        "#define loop(c) while (c)\r\n"
        "signed main() {\r\n\tint s = 0, t = 10;\r\n"
        "\trep(i, 4) s += i * i;  // squares\r\n"
        "\tloop(t > 3) { t -= 2; s++; }\r\n"
        "\tcout << s << ' ' << t << endl;\r\n}\r\n"
    )
    assert resolve_loop_cpp(source, None, "rep(i, 4) s += i * i;  // squares") == 9
    check_variables_cpp(source, 9, ("i", "s"))
    post = instrument_cpp(source, 9, ("i", "s"), "post", 2)
    assert "\r\n" in post.source and "\n" not in post.source.replace("\r\n", "")
    assert "\tfor (; i < (4); ++i) {\r\n" in post.source  # the counter moved out: this invocation written out
    res = execute(compile_copy(post.source, tmp_path, "post"))
    assert res.ok and res.stdout == b'{"i":4,"s":14}\n', res.describe()
    inside = instrument_cpp(source, 10, ("t", "s"), "inside", 3)
    assert "\tloop(t > 3) {\r\n\t\t++_es_count;" in inside.source and "\trep(i, 4) s += i * i;" in inside.source
    res = execute(compile_copy(inside.source, tmp_path, "inside"))
    assert res.ok and res.stdout == b'{"t":6,"s":16}\n', res.describe()


# --- through the builder --------------------------------------------------------------------------


def _cases(root: Path, program: str, twin: bool) -> Path:
    root.mkdir()
    (root / "main.cpp").write_text(program)
    (root / "short.txt").write_text("3\n")
    (root / "long.txt").write_text("40\n")
    for name, (loop_text, twin_text, variables) in CASES.items():
        folder = root / name
        folder.mkdir()
        (folder / "case.toml").write_text(
            f'id = "mine/{name}"\nstudy = "mine"\nlanguage = "cpp"\nprogram = "../main.cpp"\n'
            f'short_input = "../short.txt"\nlong_input = "../long.txt"\n[checkpoint]\n'
            f"loop_text = {json.dumps(twin_text if twin else loop_text)}\nvariables = {json.dumps(variables)}\n"
        )
    (root / "study.toml").write_text('study = "mine"\n')
    return root


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
def test_macro_loops_build_the_tasks_of_their_twin(tmp_path):
    macros = build([_cases(tmp_path / "macros", MACROS, False)], jobs=2)
    twin = build([_cases(tmp_path / "twin", TWIN, True)], jobs=2)
    assert macros.exclusions == [] and twin.exclusions == []
    assert len(macros.tasks) == len(twin.tasks) >= 4 * len(CASES)
    assert {t.case_id for t in macros.tasks} == {f"mine/{name}" for name in CASES}
    by_id = {t.task_id: t for t in twin.tasks}
    for task in macros.tasks:
        other = by_id[task.task_id]
        assert task.oracle == other.oracle, task.task_id
        # The program as written (a state arm: its instrumented copy), but for the one invocation a post copy
        # writes out to move the counter it projects in front of the loop, as it does in the twin.
        shown = [line for line in task.source.split("\n") if not line.lstrip().startswith("#")]
        moved = task.arm == "post-loop-state" and task.case_id != "mine/each"
        found = sum(len(re.findall(r"\b" + re.escape(text), line)) for text in WRITTEN for line in shown)
        assert found == 5 - moved, task.task_id
        assert task.meta["loop_line"] == other.meta["loop_line"] == LINES[task.case_id.split("/")[1]]
        assert (task.meta["k"], task.meta["K"]) == (other.meta["k"], other.meta["K"]), task.task_id
        m, t = task.metrics, other.metrics
        assert (m.trace_length, m.peak_state, m.state_load) == (t.trace_length, t.peak_state, t.state_load), (
            task.task_id
        )
        assert m.cyclomatic == t.cyclomatic, task.task_id  # the adapter counts a macro loop as the loop it is
        assert m.trace_length is not None and m.trace_length > 0
    inside = {t.case_id: json.loads(t.oracle) for t in macros.tasks if t.arm == "inside-loop-state"}
    post = {t.case_id: json.loads(t.oracle) for t in macros.tasks if t.arm == "post-loop-state"}
    # inner: k = 60 // 2 + 1 = 31 falls in the run of i = 21 (one iteration), which leaves j = 21 % 4
    assert inside["mine/rrep"]["i"] == 19 and post["mine/rrep"]["i"] == -1  # the moved counter after the loop
    assert post["mine/inner"]["j"] == 1 and set(inside["mine/each"]) == {"best", "a"}
    assert {t.meta["K"] for t in macros.tasks if t.case_id == "mine/inner"} == {sum(i % 4 for i in range(40))}
    assert {t.meta["loop_header"] for t in macros.tasks if t.case_id == "mine/outer"} == {"rep(i, n)"}


def test_the_expanded_view_counts_macro_loops_as_decisions():
    """lizard reads tokens, so the clean macro program has no ``for`` in it; its expanded view has the twin's."""
    program = MACROS
    assert cyclomatic_cpp(expand_loop_macros(program)) == cyclomatic_cpp(TWIN)
    assert cyclomatic_cpp(program) == cyclomatic_cpp(TWIN) - len(LINES)
