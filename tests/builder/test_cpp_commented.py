"""A C++ program with only comments added (a marked line count) runs and is measured as the program (issue 53).

The proof is lexical (``only_comments_added``); these tests check it against the compiler's own preprocessor: every
text it accepts preprocesses to the same tokens on the same lines as the program (``g++ -E``), and texts where an
added ``//`` would change the program are refused.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from execstate.builder._further import COUNT_MARK, mark_line
from execstate.languages._protocol import source_lines
from execstate.languages.cpp.commented import commented_original, only_comments_added
from execstate.languages.cpp.language import CppLanguage
from execstate.languages.cpp.universal import remember_program
from execstate.metrics.cpp import Compiler
from execstate.metrics.cpp._compile import compile_stats

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
ROOT = Path(__file__).resolve().parents[2]

# No #include: the preprocessor's output is the program's own tokens, quick to compare.
HOSTILE = r"""#define SQUARE(x) ((x) * (x)) /* a macro
   whose comment runs on */
#define LONG(a, b) \
    ((a) + \
     (b))
const char* s = "a // not a comment";
const char* r = R"raw(
line one \
line two
)raw";
int f(int n) {
    int t = 0; /* opens
    closes */ t += 1;
    for (int i = 0; i < n; ++i) {
        if (i % 3 == 0)
            t += SQUARE(i);  // a comment of the program's own
        else if (i % 5 == 0)
            t -= 2; /* a closed block comment */
        else
            t -= LONG(i, 1);
        char c = '\\';
        t += c;  // a comment that ends with a backslash \
        t += 1000;
    }
    return t;
}
int main() { return f(7) == 0; }
"""


def _preprocessed(text: str, tmp: Path) -> str:
    src = tmp / "main.cpp"
    src.write_text(text, encoding="utf-8")
    out = subprocess.run(["g++", "-std=c++20", "-E", str(src)], capture_output=True, text=True, check=True, cwd=tmp)
    return out.stdout


def _marked_every_line(source: str) -> list[tuple[int, str]]:
    return [(line, mark_line(source, line, "//")) for line in range(1, len(source_lines(source)) + 1)]


def test_every_accepted_marking_preprocesses_as_the_program(tmp_path):
    programs = [HOSTILE, *(p.read_text() for p in sorted((ROOT / "examples").glob("cpp_*/main.cpp"))[:2])]
    accepted = refused = 0
    for source in programs:
        want = _preprocessed(source, tmp_path)
        for line, text in _marked_every_line(source):
            if only_comments_added(source, text):
                accepted += 1
                assert _preprocessed(text, tmp_path) == want, f"line {line} accepted but the program changed"
            else:
                refused += 1
    assert accepted > 30 and refused > 5


@pytest.mark.parametrize(
    "needle",
    [
        "#define LONG(a, b) \\",  # a line continuation: the comment would swallow the next line
        "line one \\",  # inside a raw string
        "int t = 0; /* opens",  # inside a block comment
        "#define SQUARE(x)",  # a directive's line
        "t += c;  // a comment",  # its own comment ends with a backslash
    ],
)
def test_a_line_where_a_comment_cannot_start_is_refused(needle, tmp_path):
    line = next(i for i, text in enumerate(HOSTILE.splitlines(), 1) if needle in text)
    assert not only_comments_added(HOSTILE, mark_line(HOSTILE, line, "//"))


def test_the_refused_continuation_does_change_the_program(tmp_path):
    line = next(i for i, text in enumerate(HOSTILE.splitlines(), 1) if text.endswith("(b))"))
    marked = mark_line(HOSTILE, line - 2, "//")  # "#define LONG(a, b) \"
    assert _preprocessed(marked, tmp_path) != _preprocessed(HOSTILE, tmp_path)


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.replace("t += 1;", "t += 2;"),  # a token changed
        lambda s: s + "int extra;\n",  # code added below
        lambda s: s.replace("    return t;", "    return t;//x"),  # no space before the comment: refused
        lambda s: s.replace("    return t;\n", "    return t;  // ??/\n"),  # a trigraph
        lambda s: s.replace("    return t;\n", "    return t;\r\n"),  # a line end changed
        lambda s: s.replace("    return t;\n", "    return t;\n\n"),  # a line inserted in the middle
    ],
)
def test_anything_but_added_comments_is_refused(edit):
    edited = edit(HOSTILE)
    assert edited != HOSTILE
    assert not only_comments_added(HOSTILE, edited)


def test_a_line_that_ends_with_a_comment_takes_the_mark():
    for needle in ("// a comment of the program's own", "/* a closed block comment */"):
        line = next(i for i, text in enumerate(HOSTILE.splitlines(), 1) if needle in text)
        assert only_comments_added(HOSTILE, mark_line(HOSTILE, line, "//"))


def test_the_question_below_a_program_without_a_final_line_end():
    source = "int main() {\n    return 0;\n}"
    assert only_comments_added(source, mark_line(source, 2, "//"))
    assert not only_comments_added(source + " /* open", mark_line(source + " /* open", 2, "//"))


@pytest.fixture(scope="module")
def lang(tmp_path_factory, cpp_cache_with_headers) -> CppLanguage:
    cache = cpp_cache_with_headers(tmp_path_factory.mktemp("cpp-cache"))
    return CppLanguage(compiler=Compiler(flags=("-std=c++20", "-O0"), cache_dir=cache))


def test_a_marked_program_runs_and_is_counted_as_the_program_without_a_compile(lang, tmp_path):
    program = ROOT / "examples" / "cpp_function_loop" / "main.cpp"
    source, _ = lang.program_text(program)
    stdin = (program.parent / "short.txt").read_bytes()
    counts = lang.line_counts(source, stdin, tmp_path)
    plain = lang.run(source, stdin, tmp_path)
    assert counts and plain.ok
    for line in sorted(counts)[:3]:
        shown = mark_line(source, line, "//")
        assert COUNT_MARK in shown and commented_original(shown) == source
        before = compile_stats().runs
        assert lang.line_counts(shown, stdin, tmp_path) == counts
        assert lang.run(shown, stdin, tmp_path).stdout == plain.stdout
        assert compile_stats().runs == before  # the program's builds, not the marked text's


def test_an_unremembered_program_is_not_stood_for():
    source = "int main() { return 0; }\n// never run in this process\n"
    assert commented_original(mark_line(source, 1, "//")) is None
    remember_program(source)
    assert commented_original(mark_line(source, 1, "//")) == source


def test_only_the_most_recent_programs_are_remembered():
    first = "int main() { return 1; }\n"
    remember_program(first)
    for i in range(64):
        remember_program(f"int main() {{ return {i + 2}; }}\n")
    assert commented_original(mark_line(first, 1, "//")) is None  # forgotten: the 64 after it are kept
