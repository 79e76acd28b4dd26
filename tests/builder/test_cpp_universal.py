"""One build of a C++ checkpoint copy serves every k: the universal build prints what each copy's own build prints."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from execstate.languages.cpp.language import CppLanguage
from execstate.languages.cpp.protocol import HEADER_PATH
from execstate.languages.cpp.universal import K_CALL, universal_copy
from execstate.metrics.cpp import Compiled, Compiler, compile_cpp, run_binary

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASES = sorted(p.name for p in EXAMPLES.iterdir() if "cpp" in p.name and (p / "case.toml").is_file())


@pytest.fixture(scope="module")
def lang(tmp_path_factory) -> CppLanguage:
    return CppLanguage(compiler=Compiler(cache_dir=tmp_path_factory.mktemp("cpp-cache")))


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
    copies = [lang.instrument(source, line, variables, mode, k) for mode in ("inside", "post") for k in (1, 2, 3, 50)]
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
