"""C++ checkpoint instrumentation (languages/cpp/ + execstate_emit.hpp), each case compiled with g++ -std=c++20
and run through ``execstate.sandbox.run``: the SPEC's worked example, every loop kind, the exits (break,
continue, return, exception, exit(), goto, recursion), scope and type refusals, the JSON of every supported
type, silencing and the preservation variant, count and observe modes, layout and anchors."""

from __future__ import annotations

import json
import math
import random
import struct
from pathlib import Path

import pytest
from cpp_differential.toolchain import build, compile_cpp, execute, needs_gxx

from execstate.errors import SpecProblem
from execstate.languages._protocol import COUNT_MARKER
from execstate.languages.cpp.diagnostics import refused_variables
from execstate.languages.cpp.instrument import choose_prefix_cpp, disabled_cpp, instrument_cpp
from execstate.languages.cpp.protocol import REFUSAL_MARKER, iterations_cpp, parse_slots
from execstate.languages.cpp.syntax import check_variables_cpp, resolve_loop_cpp

ABC310_E = (Path(__file__).resolve().parents[2] / "examples" / "abc310_e_cpp" / "main.cpp").read_text(encoding="utf-8")
SHORT = b"5\n00110\n"
LONG = b"1002\n" + b"01" * 501 + b"\n"
PROJECTION = ("ans", "cnt1", "dp1")


def _instrumented(tmp_path: Path, source: str, line: int, variables, mode, k=1, *, active=True, name=None):
    inst = instrument_cpp(source, line, tuple(variables), mode, k, active=active)
    return inst, build(inst.source, tmp_path, name or f"{mode}{k}{'' if active else 'off'}")


def _state(tmp_path: Path, source: str, loop_text: str, variables, mode: str, k: int, stdin: bytes = b""):
    """The checkpoint's JSON, or None if the run ended (status 0) without one."""
    line = resolve_loop_cpp(source, None, loop_text)
    check_variables_cpp(source, line, tuple(variables))
    _, exe = _instrumented(tmp_path, source, line, variables, mode, k)
    res = execute(exe, stdin)
    assert res.ok, res.describe()
    if res.stdout == b"":
        return None
    assert res.stdout.endswith(b"\n") and res.stdout.count(b"\n") == 1, res.stdout
    return json.loads(res.stdout)


# --- the worked example ---------------------------------------------------------------------------


@needs_gxx
def test_worked_example_abc310_e_every_mode(tmp_path):
    clean = build(ABC310_E, tmp_path, "clean")
    assert execute(clean, SHORT).stdout == b"9\n"
    assert execute(clean, LONG).stdout == b"251502\n"
    line = resolve_loop_cpp(ABC310_E, None, "for (char ch : S) {")
    assert line == 12
    check_variables_cpp(ABC310_E, line, PROJECTION)

    inside, exe = _instrumented(tmp_path, ABC310_E, line, PROJECTION, "inside", 502)
    res = execute(exe, LONG)
    assert (res.ok, res.stdout) == (True, b'{"ans":63250,"cnt1":500,"dp1":500}\n')
    post, exe = _instrumented(tmp_path, ABC310_E, line, PROJECTION, "post", 502)
    res = execute(exe, LONG)
    assert (res.ok, res.stdout) == (True, b'{"ans":251502,"cnt1":2,"dp1":2}\n')

    _, exe = _instrumented(tmp_path, ABC310_E, line, (), "count")
    res = execute(exe, LONG)
    assert res.ok and res.stdout == b"251502\n"
    assert iterations_cpp(res.stderr) == 1002
    assert res.stderr.endswith(f"\n{COUNT_MARKER}1002\n".encode())

    # Preservation: the disabled copy differs from the task's source in exactly its guard constant.
    for inst in (inside, post):
        off = disabled_cpp(inst)
        assert (
            off
            == instrument_cpp(
                ABC310_E, line, PROJECTION, "inside" if inst is inside else "post", 502, active=False
            ).source
        )
        changed = [(a, b) for a, b in zip(inst.source.splitlines(), off.splitlines()) if a != b]
        assert changed == [("static const bool _es_active = true;", "static const bool _es_active = false;")]
        exe = build(off, tmp_path, "off" + ("i" if inst is inside else "p"))
        for stdin in (SHORT, LONG):
            assert execute(exe, stdin).stdout == execute(clean, stdin).stdout

    _, exe = _instrumented(tmp_path, ABC310_E, line, PROJECTION, "observe")
    res = execute(exe, LONG)
    assert res.ok and res.stdout == b"251502\n"
    trace = parse_slots(res.stderr)
    assert trace.events == ((1, 3, 1002), (1, -1, 0))
    assert trace.iterations == 1002
    assert trace.metrics("inside", 502) == (3, 3 * 502)
    assert trace.metrics("post", 502) == trace.metrics("final") == (3, 3 * 1002)


def test_worked_example_layout_is_the_clean_source_plus_whole_lines():
    line = resolve_loop_cpp(ABC310_E, 12, None)
    for mode in ("inside", "post", "count", "observe"):
        inst = instrument_cpp(ABC310_E, line, PROJECTION, mode, 502)
        lines = inst.source.split("\n")
        kept = [text for n, text in enumerate(lines, 1) if n not in inst.inserted_lines]
        assert "\n".join(kept) == ABC310_E, mode
        assert inst.prefix == "_es_"
        assert all(
            "_es_" in lines[n - 1]
            or "execstate" in lines[n - 1]
            or lines[n - 1].strip() in ("}", "//")
            or lines[n - 1].startswith("//")
            for n in inst.inserted_lines
        )
    inside = instrument_cpp(ABC310_E, line, PROJECTION, "inside", 502).source
    assert inside.index("// The program's own output is silenced.") < inside.index("#include <iostream>")


# --- every loop kind --------------------------------------------------------------------------------

KINDS = {
    # name: (loop body program, loop text, projection, K, inside at k=3, post)
    "for": (
        "for (int i = 0; i < n; i += 2) {\n        s += i;\n        last = i;\n    }",
        "for (int i = 0; i < n; i += 2) {",
        5,
        {"s": 2, "last": 2},
        {"s": 20, "last": 8},
    ),
    "range-for": (
        "std::vector<int> v = {5, 1, 4, 2};\n    for (int x : v) {\n        s += x;\n        last = x;\n    }",
        "for (int x : v) {",
        4,
        {"s": 6, "last": 1},
        {"s": 12, "last": 2},
    ),
    "while": (
        "int i = 0;\n    while (i < 5) {\n        s += i;\n        last = i;\n        i++;\n    }",
        "while (i < 5) {",
        5,
        {"s": 1, "last": 1},
        {"s": 10, "last": 4},
    ),
    "do-while": (
        "int i = 10;\n    do {\n        s += i;\n        last = i;\n        i -= 3;\n    } while (i > 0);",
        "do {",
        4,
        {"s": 17, "last": 7},
        {"s": 22, "last": 1},
    ),
    "for, brace-less body on the header line": (
        "for (int i = 0; i < n; i += 2) s += i, last = i;",
        "for (int i = 0; i < n; i += 2) s += i, last = i;",
        5,
        {"s": 2, "last": 2},
        {"s": 20, "last": 8},
    ),
    "while, brace-less body on its own line": (
        "int i = 0;\n    while (i < 5)\n        s += i, last = i, i++;",
        "while (i < 5)",
        5,
        {"s": 1, "last": 1},
        {"s": 10, "last": 4},
    ),
    "do-while, brace-less, one line": (
        "int i = 10;\n    do s += i, last = i, i -= 3; while (i > 0);",
        "do s += i, last = i, i -= 3; while (i > 0);",
        4,
        {"s": 17, "last": 7},
        {"s": 22, "last": 1},
    ),
    "range-for under a brace-less if, with an else": (
        "std::vector<int> v = {5, 1, 4, 2};\n    if (n > 0) for (int x : v) s += x, last = x; else s = -1;",
        "if (n > 0) for (int x : v) s += x, last = x; else s = -1;",
        4,
        {"s": 6, "last": 1},
        {"s": 12, "last": 2},
    ),
}


def _kind_program(loop: str) -> str:
    return (
        "#include <cstdio>\n#include <vector>\n\nint main() {\n    int n = 10;\n    long long s = 0;\n"
        f'    int last = -1;\n    {loop}\n    printf("%lld %d\\n", s, last);\n    return 0;\n}}\n'
    )


@needs_gxx
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_loop_kind(tmp_path, kind):
    loop, text, K, inside, post = KINDS[kind]
    source = _kind_program(loop)
    assert _state(tmp_path, source, text, ("s", "last"), "inside", 3) == inside
    assert _state(tmp_path, source, text, ("s", "last"), "post", 3) == post
    line = resolve_loop_cpp(source, None, text)
    _, exe = _instrumented(tmp_path, source, line, (), "count")
    res = execute(exe)
    assert iterations_cpp(res.stderr) == K
    clean = execute(build(source, tmp_path, "clean")).stdout
    assert res.stdout == clean == f"{post['s']} {post['last']}\n".encode()
    _, exe = _instrumented(tmp_path, source, line, ("s", "last"), "post", 3, active=False)
    assert execute(exe).stdout == clean


# --- exits: break, continue, return, exception, exit(), goto, recursion -----------------------------

BREAK = """\
#include <cstdio>
int main() {
    int s = 0, x = 0;
    for (x = 0; x < 10; x++) {
        if (x == 4) break;
        if (x % 2 == 1) continue;
        s += x;
    }
    printf("%d %d\\n", s, x);
}
"""


@needs_gxx
def test_break_exits_to_the_post_checkpoint_and_continue_still_counts(tmp_path):
    assert _state(tmp_path, BREAK, "for (x = 0; x < 10; x++) {", ("s", "x"), "post", 2) == {"s": 2, "x": 4}
    # Iteration 3 starts after iteration 2 ran `continue`: the increment ran, the body has not.
    assert _state(tmp_path, BREAK, "for (x = 0; x < 10; x++) {", ("s", "x"), "inside", 3) == {"s": 0, "x": 2}
    assert _state(tmp_path, BREAK, "for (x = 0; x < 10; x++) {", ("s", "x"), "inside", 5) == {"s": 2, "x": 4}
    assert _state(tmp_path, BREAK, "for (x = 0; x < 10; x++) {", ("s", "x"), "inside", 6) is None  # K = 5


RETURN = """\
#include <cstdio>
int s = 0;
int find(int limit, int stop) {
    for (int i = 0; i < limit; i++) {
        if (i == stop) return i;
        s += i;
    }
    return -1;
}
int main() {
    int a = find(5, 2);   // iterations 1-3, left by return
    int b = find(3, 9);   // iterations 4-6, normal exit
    printf("%d %d %d\\n", a, b, s);
}
"""


@needs_gxx
def test_a_loop_left_by_return_has_no_post_checkpoint(tmp_path):
    text = "for (int i = 0; i < limit; i++) {"
    for k in (1, 2, 3):
        assert _state(tmp_path, RETURN, text, ("s", "limit"), "post", k) is None
    assert _state(tmp_path, RETURN, text, ("s", "limit"), "post", 4) == {"s": 1 + 3, "limit": 3}
    assert _state(tmp_path, RETURN, text, ("s", "limit", "stop"), "inside", 3) == {"s": 1, "limit": 5, "stop": 2}


EXCEPTION = """\
#include <cstdio>
#include <stdexcept>
int main() {
    int s = 0;
    try {
        for (int i = 0; i < 10; i++) {
            if (i == 3) throw std::runtime_error("stop");
            s += i;
        }
    } catch (const std::exception&) {
        s = -s;
    }
    printf("%d\\n", s);
}
"""

EXIT = """\
#include <cstdio>
#include <cstdlib>
int main() {
    int s = 0;
    while (s < 100) {
        s += 7;
        if (s > 20) { printf("%d\\n", s); exit(0); }
    }
    return 0;
}
"""

GOTO = """\
#include <cstdio>
int main() {
    int s = 0;
    for (int i = 0; i < 10; i++) {
        if (i == 3) goto done;
        s += i;
    }
    s = 100;
done:
    printf("%d\\n", s);
}
"""


@needs_gxx
@pytest.mark.parametrize(
    ("source", "text", "stdout"),
    [
        (EXCEPTION, "for (int i = 0; i < 10; i++) {", b"-3\n"),
        (EXIT, "while (s < 100) {", b"21\n"),
        (GOTO, "for (int i = 0; i < 10; i++) {", b"3\n"),
    ],
    ids=["exception", "exit", "goto"],
)
def test_leaving_by_exception_exit_or_goto_ends_without_a_post_checkpoint(tmp_path, source, text, stdout):
    assert _state(tmp_path, source, text, ("s",), "post", 2) is None
    assert _state(tmp_path, source, text, ("s",), "inside", 2) is not None
    line = resolve_loop_cpp(source, None, text)
    _, exe = _instrumented(tmp_path, source, line, ("s",), "post", 2, active=False)
    assert execute(exe).stdout == stdout


RECURSION = """\
#include <cstdio>
int walk(int d) {
    int t = 0;
    for (int i = 0; i < 2; i++) {
        t += i;
        if (d > 0) t += walk(d - 1);
    }
    return t;
}
int main() { printf("%d\\n", walk(1)); }
"""


@needs_gxx
def test_post_fires_at_the_exit_of_the_execution_that_holds_iteration_k(tmp_path):
    # walk(1) runs execution A (iterations 1 and 4); each of its iterations calls walk(0), whose
    # executions B (2, 3) and C (5, 6) end first. Iteration 1 belongs to A: post is A's exit, not B's.
    text = "for (int i = 0; i < 2; i++) {"
    assert _state(tmp_path, RECURSION, text, ("d", "t"), "post", 1) == {"d": 1, "t": 3}
    assert _state(tmp_path, RECURSION, text, ("d", "t"), "post", 2) == {"d": 0, "t": 1}
    assert _state(tmp_path, RECURSION, text, ("d", "t"), "post", 4) == {"d": 1, "t": 3}
    assert _state(tmp_path, RECURSION, text, ("d", "t"), "inside", 4) == {"d": 1, "t": 1}
    line = resolve_loop_cpp(RECURSION, None, text)
    _, exe = _instrumented(tmp_path, RECURSION, line, ("d", "t"), "observe")
    res = execute(exe)
    assert res.ok and res.stdout == b"3\n"
    trace = parse_slots(res.stderr)
    assert trace.events == ((1, 2, 1), (2, 2, 2), (2, -1, 0), (1, 2, 1), (3, 2, 2), (3, -1, 0), (1, -1, 0))
    assert trace.metrics("post", 1) == (2, 12)
    assert trace.metrics("post", 2) == (2, 6)
    assert trace.metrics("post", 5) == (2, 12)  # C's exit comes after all six iterations
    assert trace.metrics("inside", 4) == (2, 8)
    assert trace.metrics("inside", 7) is None


INIT = """\
#include <cstdio>
int main() {
    int n = 0, hits = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0, step = 3; i < n; i += step) {  // i and step: the init-statement's names
        hits++;
        if (i > 40) break;
    }
    printf("%d\\n", hits);
}
"""


@needs_gxx
def test_a_for_loops_init_names_reach_the_post_checkpoint(tmp_path):
    text = "for (int i = 0, step = 3; i < n; i += step) {  // i and step: the init-statement's names"
    line = resolve_loop_cpp(INIT, None, text)
    inst = instrument_cpp(INIT, line, ("i", "hits"), "post", 2)
    # the declaration moves whole, in front of the loop, inside the inserted block; the header keeps `;`
    assert "    int i = 0, step = 3;  // execstate: moved here from the loop's header" in inst.source
    assert "    for (; i < n; i += step) {  // i and step: the init-statement's names" in inst.source
    # normal exit: i is the value that failed the condition; a break leaves it where it was
    assert _state(tmp_path, INIT, text, ("i", "hits"), "post", 2, stdin=b"10\n") == {"i": 12, "hits": 4}
    assert _state(tmp_path, INIT, text, ("i", "step", "hits"), "post", 2, stdin=b"100\n") == {
        "i": 42,
        "step": 3,
        "hits": 15,
    }
    assert _state(tmp_path, INIT, text, ("i", "hits"), "inside", 2, stdin=b"10\n") == {"i": 3, "hits": 1}


# --- scope ----------------------------------------------------------------------------------------

SCOPES = """\
#include <vector>
int g = 1;
struct Grid {
    int rows = 2;
    std::vector<int> cells;
    int total();
};
int Grid::total() {
    int t = 0;
    for (int c : cells) t += c * rows;
    return t;
}
int f(int p, int q) {
    int a = 0;
    { int sibling = 1; a += sibling; }
    for (int i = 0, j = 5; i < p; i++) {
        int inner = i * j;
        a += inner;
    }
    int after = a;
    auto h = [&a, q](int r) { int s = 0; while (s < r) s += a + q; return s; };
    auto m = [](int r) { int u = 0; while (u < r) u++; return u; };
    return after + h(p) + m(q);
}
int later_global = 0;
"""


def _refusal(source, loop_text, variables) -> str:
    with pytest.raises(SpecProblem) as err:
        check_variables_cpp(source, resolve_loop_cpp(source, None, loop_text), tuple(variables))
    assert err.value.key == "checkpoint.variables"
    return err.value.problem


def test_projected_names_must_be_in_scope_at_the_loop():
    loop = "for (int i = 0, j = 5; i < p; i++) {"
    check_variables_cpp(SCOPES, resolve_loop_cpp(SCOPES, None, loop), ("a", "p", "q", "g"))
    # the init-statement's names: the post copy moves that declaration in front of the loop
    check_variables_cpp(SCOPES, resolve_loop_cpp(SCOPES, None, loop), ("a", "i", "j"))
    assert "'inner' (declared inside the loop body)" in _refusal(SCOPES, loop, ["inner"])
    assert "'after'" in _refusal(SCOPES, loop, ["after"])  # declared after the loop
    assert "'sibling'" in _refusal(SCOPES, loop, ["sibling"])  # a block that ended before the loop
    assert "'later_global'" in _refusal(SCOPES, loop, ["later_global"])
    assert "'t'" in _refusal(SCOPES, loop, ["t"])  # another function's local
    assert "not a C++ variable name" in _refusal(SCOPES, loop, ["a[0]"])
    assert "listed twice" in _refusal(SCOPES, loop, ["a", "a"])


def test_members_captures_and_range_for_elements():
    ranged = "for (int c : cells) t += c * rows;"
    check_variables_cpp(SCOPES, resolve_loop_cpp(SCOPES, None, ranged), ("t", "rows", "cells", "g"))
    assert "'c' is the range-for element of the loop on line 10" in _refusal(SCOPES, ranged, ["c"])
    captured = "auto h = [&a, q](int r) { int s = 0; while (s < r) s += a + q; return s; };"
    check_variables_cpp(SCOPES, resolve_loop_cpp(SCOPES, None, captured), ("a", "q", "r", "s", "g"))
    assert "'p'" in _refusal(SCOPES, captured, ["p"])  # not captured
    plain = "auto m = [](int r) { int u = 0; while (u < r) u++; return u; };"
    check_variables_cpp(SCOPES, resolve_loop_cpp(SCOPES, None, plain), ("u", "r", "g"))
    assert "'a'" in _refusal(SCOPES, plain, ["a"])


# --- types ----------------------------------------------------------------------------------------

TYPES = r"""
#include <array>
#include <cmath>
#include <deque>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>
int main() {
    int i = -7; long long ll = -9223372036854775807LL - 1; unsigned long long ull = 18446744073709551615ULL;
    short sh = -3; unsigned char byte = 200; signed char tiny = -5; bool yes = true;
    char ch = 'q'; char quote = '"'; char nl = '\n';
    __int128 big = (__int128)1 << 100;
    double d = 0.1; float f = 0.1f; long double ld = 2.5L; double e = 1e22; double small = 1e-7; double whole = 3.0;
    std::string text = "a\"b\\c\t\x01 é ✓";
    std::vector<int> v = {3, 1, 2};
    std::vector<bool> flags = {true, false};
    std::array<double, 2> arr = {1.5, -0.0};
    std::deque<std::string> dq = {"x", "y"};
    std::list<char> chars = {'a', 'b'};
    std::set<int> st = {5, 1, 3};
    std::multiset<int> ms = {2, 2};
    std::map<std::string, std::vector<int>> named = {{"b", {2}}, {"a", {}}};
    std::map<int, std::string> numbered = {{2, "two"}, {1, "one"}};
    std::multimap<int, int> mm = {{1, 2}, {1, 3}};
    std::pair<int, std::string> pr = {1, "p"};
    std::tuple<int, bool, std::pair<char, double>> tp = {1, false, {'z', 0.5}};
    int carr[3] = {7, 8, 9};
    std::vector<std::vector<std::pair<int, int>>> nested = {{{1, 2}}, {}};
    std::optional<long long> none_yet; std::optional<int> some = 4; std::vector<std::optional<int>> opts = {1, {}};
    for (int k = 0; k < 1; k++) {
        i += 0;
    }
}
"""
_NAMES = "i ll ull sh byte tiny yes ch quote nl big d f ld e small whole text v flags arr dq chars st ms named numbered"
TYPE_NAMES = tuple(_NAMES.split()) + ("mm", "pr", "tp", "carr", "nested", "none_yet", "some", "opts")
TYPE_JSON = {
    "i": -7,
    "ll": -9223372036854775808,
    "ull": 18446744073709551615,
    "sh": -3,
    "byte": 200,
    "tiny": -5,
    "yes": True,
    "ch": "q",
    "quote": '"',
    "nl": "\n",
    "big": 1 << 100,
    "d": 0.1,
    "f": 0.1,
    "ld": 2.5,
    "e": 1e22,
    "small": 1e-7,
    "whole": 3.0,
    "text": 'a"b\\c\t\x01 é ✓',
    "v": [3, 1, 2],
    "flags": [True, False],
    "arr": [1.5, -0.0],
    "dq": ["x", "y"],
    "chars": ["a", "b"],
    "st": [1, 3, 5],
    "ms": [2, 2],
    "named": {"a": [], "b": [2]},
    "numbered": [[1, "one"], [2, "two"]],
    "mm": [[1, 2], [1, 3]],
    "pr": [1, "p"],
    "tp": [1, False, ["z", 0.5]],
    "carr": [7, 8, 9],
    "nested": [[[1, 2]], []],
    "none_yet": None,  # std::optional: Python's None when empty, else its value
    "some": 4,
    "opts": [1, None],
}


@needs_gxx
def test_every_supported_type_serializes_as_python_json_dumps_would(tmp_path):
    line = resolve_loop_cpp(TYPES, None, "for (int k = 0; k < 1; k++) {")
    check_variables_cpp(TYPES, line, tuple(TYPE_NAMES))
    _, exe = _instrumented(tmp_path, TYPES, line, TYPE_NAMES, "inside", 1)
    res = execute(exe)
    assert res.ok, res.describe()
    expected = json.dumps(TYPE_JSON, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert res.stdout.decode("utf-8") == expected
    # Slots: scalars and strings 1; containers their elements (a map: keys and values), recursively.
    _, exe = _instrumented(tmp_path, TYPES, line, TYPE_NAMES, "observe")
    slots = parse_slots(execute(exe).stderr).events[0][1]
    scalars = 18  # i .. whole, text (big counts 1)
    containers = 3 + 2 + 2 + 2 + 2 + 3 + 2 + (2 + 1) + (2 + 2) + 4 + 2 + (1 + 1 + 2) + 3 + 2
    optionals = 1 + 1 + 2  # an empty optional counts 1 (as None does), a full one its value's slots
    assert slots == scalars + containers + optionals


@needs_gxx
def test_doubles_print_as_python_repr(tmp_path):
    rng = random.Random(310)
    values = [
        0.0,
        -0.0,
        1.0,
        0.1,
        1e16,
        1e15,
        123456789012345678.0,
        1e-4,
        1e-5,
        5e-324,
        1.7976931348623157e308,
        2.0**-1074 * 3,
        0.3,
        2 / 3,
        1e100,
        -1.5e-7,
        100.0,
        1234.5,
    ]
    while len(values) < 300:
        (x,) = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))
        if math.isfinite(x):
            values.append(x)
        values.append(rng.uniform(-1e6, 1e6))
        values.append(float(rng.randint(-(10**18), 10**18)))
    body = ", ".join(v.hex() for v in values)
    source = (
        f"#include <vector>\nint main() {{\n    std::vector<double> xs = {{{body}}};\n"
        "    for (int k = 0; k < 1; k++) {\n        xs.push_back(0);\n    }\n}\n"
    )
    _, exe = _instrumented(tmp_path, source, 4, ("xs",), "inside", 1)
    res = execute(exe)
    assert res.ok, res.describe()
    assert res.stdout.decode() == json.dumps({"xs": values}, separators=(",", ":")) + "\n"


UNSERIALIZABLE = """\
#include <unordered_map>
#include <vector>
int main() {
    std::unordered_map<int, int> seen;
    std::vector<int> order;
    int n = 0;
    for (int i = 0; i < 3; i++) {
        seen[i] = i;
        order.push_back(i);
        n++;
    }
    return n == 3 ? 0 : 1;
}
"""


@needs_gxx
@pytest.mark.parametrize("mode", ["inside", "post", "observe"])
def test_an_unordered_map_is_refused_at_compile_time_naming_the_variable_and_type(tmp_path, mode):
    inst = instrument_cpp(UNSERIALIZABLE, 7, ("n", "seen", "order"), mode, 2)
    exe, diagnostics = compile_cpp(inst.source, tmp_path)
    assert exe is None
    assert f"static assertion failed: {REFUSAL_MARKER}seen'" in diagnostics
    ((name, kind),) = refused_variables(diagnostics)
    assert name == "seen" and kind is not None and kind.startswith("std::unordered_map<int, int")
    # The preservation variant carries the same assertion: the copy never compiles, whatever the guard.
    assert compile_cpp(instrument_cpp(UNSERIALIZABLE, 7, ("seen",), mode, 2, active=False).source, tmp_path)[0] is None
    assert refused_variables("prog.cpp:3:1: error: expected ';'") == []


@needs_gxx
@pytest.mark.parametrize(
    ("declaration", "why"),
    [
        ("double x = 0.0; x = 0.0 / x;", "NaN"),
        ("double x = 1e308; x *= 10;", "NaN or infinite"),
        ('std::string x = "\\xff";', "not UTF-8"),
        ("char x = (char)0xe9;", "byte >= 0x80"),
    ],
)
def test_values_json_cannot_hold_are_refused_at_run_time_with_exit_status_3(tmp_path, declaration, why):
    source = f"#include <string>\nint main() {{\n    {declaration}\n    for (int k = 0; k < 2; k++) {{\n    }}\n}}\n"
    _, exe = _instrumented(tmp_path, source, 4, ("x",), "inside", 1)
    res = execute(exe)
    assert res.exit_code == 3 and res.stdout == b""
    assert f"{REFUSAL_MARKER}x': ".encode() in res.stderr and why.encode() in res.stderr


# --- silencing, preservation, count ----------------------------------------------------------------

NOISY = """\
#include <cstdio>
#include <iostream>
#include <unistd.h>
int total = 0;
void step(int i) {
    printf("printf %d\\n", i);
    std::cout << "cout " << i << '\\n';
    puts("puts");
    write(1, "write\\n", 6);
    std::cerr << "stderr " << i << std::endl;
}
int main() {
    std::ios::sync_with_stdio(false);
    for (int i = 0; i < 3; i++) {
        step(i);
        total += i;
    }
    std::cout << "total " << total << std::endl;
}
"""


@needs_gxx
def test_the_checkpoint_line_is_the_whole_stdout_and_the_disabled_copy_prints_the_clean_bytes(tmp_path):
    line = resolve_loop_cpp(NOISY, None, "for (int i = 0; i < 3; i++) {")
    clean = execute(build(NOISY, tmp_path, "clean"))
    assert b"printf 0" in clean.stdout and b"write" in clean.stdout
    for mode in ("inside", "post"):
        inst, exe = _instrumented(tmp_path, NOISY, line, ("total",), mode, 3)
        res = execute(exe)
        assert res.ok and res.stdout == (b'{"total":1}\n' if mode == "inside" else b'{"total":3}\n')
        assert b"stderr 0" in res.stderr  # only stdout is silenced
        off = execute(build(disabled_cpp(inst), tmp_path, f"off-{mode}"))
        assert off.ok and off.stdout == clean.stdout
    _, exe = _instrumented(tmp_path, NOISY, line, (), "count")
    counted = execute(exe)
    assert counted.stdout == clean.stdout and iterations_cpp(counted.stderr) == 3


CALLED_TWICE = """\
#include <cstdio>
int sum(int n) {
    int s = 0;
    for (int i = 1; i <= n; i++) {
        s += i;
    }
    return s;
}
int main() {
    int a, b;
    if (scanf("%d %d", &a, &b) != 2) return 1;
    int x = sum(a);
    int y = sum(b);
    printf("%d %d\\n", x, y);
    return 0;
}
"""


@needs_gxx
def test_count_is_cumulative_over_every_execution_of_the_loop(tmp_path):
    _, exe = _instrumented(tmp_path, CALLED_TWICE, 4, (), "count")
    res = execute(exe, b"4 6\n")
    assert res.stdout == b"10 21\n" and iterations_cpp(res.stderr) == 10
    assert _state(tmp_path, CALLED_TWICE, "for (int i = 1; i <= n; i++) {", ("s", "n"), "inside", 6, b"4 6\n") == {
        "s": 1,
        "n": 6,
    }
    assert _state(tmp_path, CALLED_TWICE, "for (int i = 1; i <= n; i++) {", ("s", "n"), "post", 6, b"4 6\n") == {
        "s": 21,
        "n": 6,
    }
    assert iterations_cpp(b"no marker") is None


@needs_gxx
def test_observe_records_runs_of_equal_slot_counts(tmp_path):
    source = """\
#include <cstdio>
#include <vector>
int main() {
    std::vector<int> v;
    int n = 0;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 4; i++) {
            if (i % 2 == 0) v.push_back(i);
            n++;
        }
    }
    printf("%d\\n", n);
}
"""
    _, exe = _instrumented(tmp_path, source, 7, ("v", "n"), "observe")
    res = execute(exe)
    assert res.ok and res.stdout == b"8\n"
    assert f"\n{'__execstate_slots__='}1\n".encode() in res.stderr
    trace = parse_slots(res.stderr)
    # v grows at iterations 1 and 3 of each execution: slots 1, 2, 2, 3 | 3, 4, 4, 5.
    assert trace.events == ((1, 1, 1), (1, 2, 2), (1, 3, 1), (1, -1, 0), (2, 3, 1), (2, 4, 2), (2, 5, 1), (2, -1, 0))
    assert trace.metrics("final") == (5, 24)
    assert trace.metrics("inside", 3) == (2, 5)
    assert trace.metrics("post", 2) == (3, 8)


# --- anchors, prefix, layout, macros ---------------------------------------------------------------


def test_resolve_loop_anchors():
    assert resolve_loop_cpp(BREAK, 4, None) == 4
    assert resolve_loop_cpp(BREAK, None, "for (x = 0; x < 10; x++) {") == 4
    with pytest.raises(SpecProblem, match="no line of the program is exactly"):
        resolve_loop_cpp(BREAK, None, "for (x = 0; x < 11; x++) {")
    with pytest.raises(SpecProblem, match=r"is not the header of a for/while/do loop.*lines \[4\]"):
        resolve_loop_cpp(BREAK, 5, None)
    twice = "int main() {\n    int s = 0;\n    for (;;) break;\n    for (;;) break;\n    return s;\n}\n"
    with pytest.raises(SpecProblem, match=r"ambiguous: it occurs on lines \[3, 4\]"):
        resolve_loop_cpp(twice, None, "for (;;) break;")
    nested = "int main() {\n    int s = 0;\n    for (int a = 0; a < 2; a++) for (int b = 0; b < 2; b++) s++;\n}\n"
    with pytest.raises(SpecProblem, match="starts 2 loops"):
        resolve_loop_cpp(nested, 3, None)
    broken = "int main() {\n    int s = 0;\n    for (int a = 0; a < 2; a++) {\n        s += ;\n    }\n}\n"
    with pytest.raises(SpecProblem, match="cannot read the loop on line 3") as err:
        resolve_loop_cpp(broken, 3, None)
    assert err.value.key == "program"


def test_the_prefix_avoids_every_name_in_the_program():
    assert choose_prefix_cpp("int main() { return 0; }") == "_es_"
    assert choose_prefix_cpp("int _es_x; // _es1_ too\nint main() {}") == "_es2_"
    source = "int _es_count = 0;\nint main() {\n    for (int i = 0; i < 3; i++) {\n        _es_count++;\n    }\n}\n"
    inst = instrument_cpp(source, 3, ("_es_count",), "inside", 2)
    assert inst.prefix == "_es1_" and "++_es1_count;" in inst.source


@needs_gxx
def test_macros_config_defines_tabs_and_crlf(tmp_path):
    source = (
        "// a header comment\r\n#define _GLIBCXX_DEBUG\r\n#include <bits/stdc++.h>\r\nusing namespace std;\r\n"
        "#define int long long\r\n#define rep(i, n) for (int i = 0; i < (n); i++)\r\n"
        "signed main() {\r\n\tint n = 3, s = 0;\r\n\tvector<int> v(n);\r\n"
        "\tfor (int i = 0; i < n; i++) { v[i] = i * i; s += v[i]; }  // squares\r\n"
        "\trep(j, 2) s++;\r\n\tcout << s << endl;\r\n}\r\n"
    )
    line = resolve_loop_cpp(source, None, "for (int i = 0; i < n; i++) { v[i] = i * i; s += v[i]; }  // squares")
    check_variables_cpp(source, line, ("s", "v", "n"))
    inst = instrument_cpp(source, line, ("s", "v"), "post", 2)
    assert "\r\n" in inst.source and "\n" not in inst.source.replace("\r\n", "")
    lines = inst.source.split("\r\n")
    assert lines[0] == "// a header comment" and lines[1] == "#define _GLIBCXX_DEBUG"
    assert lines[2].startswith("// --- execstate") and 3 in inst.inserted_lines and 2 not in inst.inserted_lines
    assert "\t{  // execstate (inserted)" in inst.source and "\t\t++_es_count;" in inst.source
    res = execute(build(inst.source, tmp_path))
    assert res.ok and res.stdout == b'{"s":5,"v":[0,1,4]}\n', res.describe()


def test_inserted_lines_exclude_split_and_braced_clean_lines():
    source = "int main() {\n    int s = 0;\n    for (int i = 0; i < 3; i++) s += i;\n    return s;\n}\n"
    inst = instrument_cpp(source, 3, ("s",), "inside", 2)
    lines = inst.source.split("\n")
    header = lines.index("    for (int i = 0; i < 3; i++) {")
    assert header + 1 not in inst.inserted_lines  # the clean header line, which gained a brace
    assert lines.index("        s += i;") + 1 not in inst.inserted_lines
    assert lines.index("    }") + 1 in inst.inserted_lines
    assert {n for n, text in enumerate(lines, 1) if "_es_" in text} <= inst.inserted_lines
