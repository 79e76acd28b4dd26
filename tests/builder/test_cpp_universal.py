"""One build of a C++ checkpoint copy serves every k: the universal build prints what each copy's own build prints.

Its projection is chosen at run time too (issue 53): construct's probe of every candidate, its trial build and the
final build of a loop run one binary (the inside, post, trace and observe copies: ``every_mode_cpp``)."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from execstate.languages.cpp.instrument import instrument_cpp
from execstate.languages.cpp.language import CppLanguage
from execstate.languages.cpp.protocol import HEADER_PATH, REFUSAL_MARKER
from execstate.languages.cpp.universal import (
    ASSERTED,
    DEFERRED,
    K_CALL,
    VARS_ENV,
    universal_copy,
    universal_projection,
    wide_universal,
    written_back,
)
from execstate.metrics.cpp import Compiled, Compiler, compile_cpp, run_binary
from execstate.metrics.cpp._compile import compile_stats

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASES = ("abc310_e_cpp", "cpp_string_vector", "cpp_while_break")
"""Three of the C++ examples (a contest program, a string state, a loop left by ``break``): every copy of each is
compiled on its own here (about 10 s each). Every example's tasks, built through the universal builds, are checked
against independent reference functions in tests/builder/test_build.py."""


@pytest.fixture(scope="module")
def lang(tmp_path_factory, cpp_cache_with_headers) -> CppLanguage:
    """A compile cache of this module's own (it counts its compiles), given the precompiled headers already made."""
    return CppLanguage(compiler=Compiler(cache_dir=cpp_cache_with_headers(tmp_path_factory.mktemp("cpp-cache"))))


def _own_build(lang: CppLanguage, source: str, stdin: bytes) -> tuple[str, bytes, int | None]:
    """What the copy's own binary (its text compiled as shown) prints on ``stdin``."""
    built = compile_cpp(source, include_dirs=(HEADER_PATH.parent,), compiler=lang.compiler, first_header=HEADER_PATH)
    assert isinstance(built, Compiled), built
    res = run_binary(built, stdin, lang.limits)
    return res.status, res.stdout, res.exit_code


@pytest.mark.parametrize("case", CASES)
def test_every_copy_of_an_example_prints_as_its_own_build_from_one_universal_build(lang, case):
    spec = tomllib.loads((EXAMPLES / case / "case.toml").read_text())
    source = (EXAMPLES / case / "main.cpp").read_text()
    stdin = (EXAMPLES / case / "short.txt").read_bytes()
    variables = tuple(spec["checkpoint"]["variables"])
    line = lang.locate_loop(source, spec["checkpoint"].get("loop"), spec["checkpoint"].get("loop_text"), variables)
    copies = [lang.instrument(source, line, variables, mode, k) for mode in ("inside", "post") for k in (1, 3, 50)]
    copies.append(lang.trace_copy(source, line, variables, 2, 3))
    shared = {universal_copy(c.source).source for c in copies if universal_copy(c.source) is not None}
    assert len(shared) == 3  # inside, post and trace: one text each for every k
    for copy in copies:
        for text in (copy.source, lang.disabled(copy)):
            res = lang.run(text, stdin, Path("."))
            assert (res.status, res.stdout, res.exit_code) == _own_build(lang, text, stdin)


def test_a_universal_copy_writes_back_to_the_copy_byte_for_byte(lang):
    source = (EXAMPLES / "cpp_while_break" / "main.cpp").read_text()
    line = lang.locate_loop(source, None, "while (true) {", ("a", "b"))
    copy = lang.instrument(source, line, ("a", "b"), "post", 7)
    universal = universal_copy(copy.source)
    assert universal is not None and (universal.k, universal.active) == (7, True)
    assert universal.settings == {"EXECSTATE_CHECKPOINT_K": "7", "EXECSTATE_CHECKPOINT_ACTIVE": "1"}
    assert K_CALL in universal.source and "== 7" not in universal.source
    assert universal_copy(lang.disabled(copy)).source == universal.source  # the preservation variant: the same build
    assert universal_copy(source) is None  # a clean program runs as it is
    assert universal_copy(lang.instrument(source, line, ("a", "b"), "count").source) is None


def _example(lang: CppLanguage, case: str) -> tuple[str, int, tuple[str, ...], tuple[str, ...], bytes]:
    spec = tomllib.loads((EXAMPLES / case / "case.toml").read_text())
    source = (EXAMPLES / case / "main.cpp").read_text()
    variables = tuple(spec["checkpoint"]["variables"])
    line = lang.locate_loop(source, spec["checkpoint"].get("loop"), spec["checkpoint"].get("loop_text"), variables)
    candidates = tuple(c.name for c in lang.candidates(source, line))
    return source, line, candidates, variables, (EXAMPLES / case / "short.txt").read_bytes()


def test_the_probe_trial_and_final_copies_of_a_loop_share_one_build(lang):
    source, line, candidates, variables, stdin = _example(lang, "abc310_e_cpp")
    assert set(variables) < set(candidates)  # the probe shows more than the chosen
    for mode in ("inside", "post"):  # construct's probe: every candidate
        res = lang.run(lang.instrument(source, line, candidates, mode, 2).source, stdin, Path("."))
        assert res.ok and res.stdout.count(b'":') == len(candidates)
    chosen = tuple(reversed(variables))  # another order than the candidates'
    before = compile_stats().runs
    copies = [lang.instrument(source, line, chosen, mode, k) for mode in ("inside", "post") for k in (1, 3)]
    outputs = []
    for copy in copies:
        assert wide_universal(copy.source) is not None
        for text in (copy.source, lang.disabled(copy)):
            res = lang.run(text, stdin, Path("."))
            outputs.append((text, (res.status, res.stdout, res.exit_code)))
    assert compile_stats().runs == before  # the probe's two builds served them all
    trace = lang.trace_copy(source, line, chosen, 3, 2)
    res = lang.run(trace.source, stdin, Path("."))
    outputs.append((trace.source, (res.status, res.stdout, res.exit_code)))
    assert compile_stats().runs == before  # the trace copy too: the loop's every-mode build (every_mode_cpp)
    for text, printed in outputs[::3]:  # a copy's own build is a compile each: every third is enough
        assert printed == _own_build(lang, text, stdin)
    assert outputs[0][1][1].startswith(b'{"' + chosen[0].encode() + b'":')


def test_what_is_written_back_is_the_copy_byte_for_byte(lang):
    source, line, candidates, variables, _ = _example(lang, "cpp_range_for")
    wide = lang.instrument(source, line, candidates, "inside", 5).source
    chosen = (variables[1], variables[0])
    copy = lang.instrument(source, line, chosen, "inside", 7).source
    universal = universal_projection(
        copy, lang.instrument(source, line, candidates, "inside", 7).source, chosen, candidates
    )
    assert universal is not None
    assert universal.settings[VARS_ENV] == ",".join(str(candidates.index(v)) for v in chosen)
    assert written_back(universal, chosen, candidates) == copy
    assert "emit_chosen(" in universal.source and "emit(" not in universal.source.replace("emit_chosen(", "")
    at_5 = universal_projection(copy, wide, chosen, candidates)  # the wide copy of another k: written back, k=5
    assert at_5 is None
    same = universal_projection(lang.instrument(source, line, chosen, "inside", 5).source, wide, chosen, candidates)
    assert same is not None and same.source == universal.source  # one text for every k
    assert universal_projection(copy, wide, ("nowhere",), candidates) is None  # not a candidate
    other = lang.instrument(source, line, candidates, "post", 7).source
    assert universal_projection(copy, other, chosen, candidates) is None  # another mode: the check fails


def test_a_candidate_the_emitter_refuses_is_refused_at_run_time_by_the_loop_s_one_build(lang):
    """The loop's shared build compiles whatever its candidates' types (its assertions are ``DEFERRED``): a copy
    showing a variable the emitter cannot serialize runs as that build and is refused when its checkpoint prints
    it, naming the variable and its type; the copies of the other candidates run as the same build. One compile,
    none refused."""
    source = (
        "#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n    int n; cin >> n;\n"
        "    unordered_map<int, int> seen;\n    long long s = 0;\n    for (int i = 0; i < n; i++) {\n"
        "        s += i;\n        seen[i] = 1;\n    }\n    cout << s << endl;\n}\n"
    )
    root = lang.compiler.cache_root()

    def programs() -> tuple[int, int]:  # builds and refusals of programs in this module's cache
        return len([*root.glob("bin/*/*/meta.json")]), len([*root.glob("fail/*/*/meta.json")])

    before = programs()
    for mode in ("inside", "post"):
        res = lang.run(lang.instrument(source, 7, ("seen", "s"), mode, 2).source, b"5\n", Path("."))
        assert (res.status, res.exit_code, res.stdout) == ("crash", 3, b"")
        fault = lang.checkpoint_fault(res.stderr)
        assert fault == (
            "refused",
            f"{REFUSAL_MARKER}seen': its type std::unordered_map<int, int> is not one the header serializes "
            "(execstate_emit.hpp)",
        )
    after = programs()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 0)  # the loop's every-mode build, no refusal
    res = lang.run(lang.instrument(source, 7, ("s",), "inside", 3).source, b"5\n", Path("."))
    assert (res.status, res.stdout) == ("ok", b'{"s":1}\n')  # the top of iteration 3: 0 + 1
    post = lang.run(lang.instrument(source, 7, ("s",), "post", 3).source, b"5\n", Path("."))
    assert (post.status, post.stdout) == ("ok", b'{"s":10}\n')  # after the loop: 0 + 1 + 2 + 3 + 4
    assert programs() == after  # the same build, in inside and post mode


def test_a_copy_compiled_as_itself_is_refused_by_the_compiler(lang, tmp_path):
    """Without a shared text standing for it (here: an observe copy this process did not make), a copy showing a
    variable the emitter cannot serialize is compiled as it is and fails its static assertion, which names it."""
    source = (
        "#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n    int n; cin >> n;\n"
        "    queue<int> q;\n    for (int i = 0; i < n; i++) {\n        q.push(i);\n    }\n"
        "    cout << q.size() << endl;\n}\n"
    )
    copy = instrument_cpp(source, 6, ("q",), "observe").source
    assert DEFERRED not in copy and ASSERTED in copy
    res = lang.run(copy, b"3\n", tmp_path)
    assert res.status == "crash" and "cannot serialize" in res.detail
    fault = lang.checkpoint_fault(res.stderr)
    assert fault is not None and fault[1].endswith(f"static assertion failed: {REFUSAL_MARKER}q'")
