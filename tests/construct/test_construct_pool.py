"""The problem pool format: the shipped pools read as they are, problem.toml is checked, writes are atomic."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from execstate.construct import (
    Generator,
    NewTest,
    ProblemLimits,
    read_pool,
    read_problem,
    slug,
    write_problem,
)
from execstate.construct._pool import natural_key, problem_toml
from execstate.errors import InputFileError, SpecError


def _problem(root: Path, name: str = "p", program: str = "main.py", toml: str | None = None, tests: int = 2) -> Path:
    d = root / name
    (d / "tests").mkdir(parents=True)
    (d / program).write_text("print(input())\n")
    for n in range(1, tests + 1):
        (d / "tests" / f"{n}.in").write_text(f"{n}\n")
        (d / "tests" / f"{n}.out").write_text(f"{n}\n")
    if toml is not None:
        (d / "problem.toml").write_text(toml)
    return d


def test_codecontests_py_reads_as_40_python_problems(shared_data):
    problems = read_pool(shared_data / "codecontests-py")
    assert len(problems) == 40
    assert [p.id for p in problems] == sorted(p.id for p in problems)
    assert {p.language for p in problems} == {"python"}
    assert all(p.program.name == "main.py" and p.generator is None for p in problems)
    assert all(len(p.tests) >= 9 and all(t.output is not None and t.input.is_file() for t in p.tests) for p in problems)
    first = problems[0]
    assert first.id == "1003_f_abbreviation_11357"
    assert [t.name for t in first.tests] == [str(n) for n in range(1, 11)]  # natural order: 10 last
    assert first.rule == "json-or-tokens" and first.study is None


def test_library_checker_reads_as_12_cpp_problems_with_seed_only_generators(shared_data):
    problems = {p.id: p for p in read_pool(shared_data / "library-checker")}
    assert len(problems) == 12
    assert all(p.language == "cpp" and len(p.tests) == 4 for p in problems.values())
    for p in problems.values():
        assert p.generator is not None and p.generator.takes_size is False and p.generator.language == "cpp"
        assert p.generator.path.is_file() and p.generator.path.parent.name == "gen"
        assert p.limits.time_s == 5.0  # info.toml's timelimit
    # the generator tests/MANIFEST.tsv names (the one checked with smaller params.h sizes)
    assert problems["unionfind"].generator.path.name == "max_random.cpp"
    assert problems["zalgorithm"].generator.path.name == "fib_str.cpp"


def test_one_problem_directory_is_a_pool_of_one(shared_data):
    [problem] = read_pool(shared_data / "library-checker" / "unionfind")
    assert problem.id == "unionfind" and problem.dir.name == "unionfind"


def test_problem_toml_sets_every_field(tmp_path):
    toml = """id = "renamed"
study = "codecontests"
[limits]
time_s = 2
memory_mb = 256
[generator]
file = "gens/make.py"
takes_size = false
[source]
dataset = "mine"
rating = 1500
"""
    d = _problem(tmp_path, toml=toml)
    (d / "gens").mkdir()
    (d / "gens" / "make.py").write_text("print(1)\n")
    p = read_problem(d)
    assert (p.id, p.study, p.rule) == ("renamed", "codecontests", "int-alpha-tokens")
    assert p.limits == ProblemLimits(2.0, 256)
    assert p.generator == Generator(d / "gens" / "make.py", "python", takes_size=False)
    assert dict(p.source) == {"dataset": "mine", "rating": 1500}
    explicit = _problem(tmp_path, "q", toml='study = "codecontests"\ngrading_rule = "bytes"\n')
    assert read_problem(explicit).rule == "bytes"


def test_gen_py_and_gen_cpp_take_seed_and_size(tmp_path):
    d = _problem(tmp_path, tests=0)
    (d / "gen.cpp").write_text("int main() {}\n")
    p = read_problem(d)
    assert p.tests == () and p.generator == Generator(d / "gen.cpp", "cpp", takes_size=True)


@pytest.mark.parametrize(
    ("toml", "key", "needle"),
    [
        ("id = [broken", None, "not valid TOML"),
        ("colour = 1", "colour", "unknown key"),
        ('grading_rule = "fuzzy"', "grading_rule", "unknown rule"),
        ('id = "a/b"', "id", "not a plain name"),
        ("study = 3", "study", "non-empty string"),
        ("[limits]\ntime_s = -1", "limits.time_s", "positive"),
        ("[limits]\nmemory_mb = 1.5", "limits.memory_mb", "positive integer"),
        ("[limits]\nwall = 1", "limits.wall", "unknown key"),
        ('[generator]\nfile = "../outside.py"', "generator.file", "not a file"),
        ('[generator]\nfile = "main.py"\ntakes_size = "yes"', "generator.takes_size", "true or false"),
        ("generator = 3", "generator", "expected a table"),
        ("[source]\nnested = { a = 1 }", "source", "strings and numbers"),
    ],
)
def test_a_broken_problem_toml_names_the_file_the_key_and_the_fix(tmp_path, toml, key, needle):
    d = _problem(tmp_path, toml=toml)
    (tmp_path / "outside.py").write_text("print(1)\n")
    with pytest.raises(SpecError) as info:
        read_pool(tmp_path)
    message = str(info.value)
    assert str(d / "problem.toml") in message and needle in message and "Fix:" in message
    assert info.value.key == key


@pytest.mark.parametrize(
    ("setup", "needle"),
    [
        (lambda d: (d / "main.cpp").write_text("int main(){}\n"), "both main.py and main.cpp"),
        (lambda d: (d / "main.py").unlink(), "neither main.py nor main.cpp"),
        (lambda d: (d / "tests" / "9.out").write_text("x\n"), "9.out has no matching .in file"),
        (lambda d: [p.unlink() for p in (d / "tests").iterdir()], "no tests/*.in and no generator"),
    ],
)
def test_a_broken_problem_directory_is_an_input_file_error(tmp_path, setup, needle):
    setup(_problem(tmp_path))
    with pytest.raises(InputFileError, match="Fix:") as info:
        read_pool(tmp_path)
    assert needle in str(info.value)


def test_pool_order_ids_and_unfinished_writes(tmp_path):
    for name in ("b", "a", "c10", "c9"):
        _problem(tmp_path, name)
    (tmp_path / ".a.tmp123").mkdir()  # an interrupted write_problem leaves a hidden directory
    (tmp_path / "import.json").write_text("{}")
    assert [p.id for p in read_pool(tmp_path)] == ["a", "b", "c10", "c9"]  # by directory name
    (tmp_path / "c9" / "problem.toml").write_text('id = "a"\n')
    with pytest.raises(SpecError, match="already used by"):
        read_pool(tmp_path)
    with pytest.raises(InputFileError, match="not a directory"):
        read_pool(tmp_path / "missing")
    with pytest.raises(InputFileError, match="no problem directories"):
        read_pool(tmp_path / "a" / "tests")


def test_write_problem_round_trips_and_never_overwrites_unless_asked(tmp_path):
    tests = [NewTest("public-2", b"2\n", b"2\n"), NewTest("public-10", b"10\n", None), NewTest("x", b"\x00\xff", b"")]
    limits = ProblemLimits(time_s=3.5, memory_mb=512)
    source = {"dataset": "t", "quote": 'a "b"\n\\', "n": 3, "ok": True}
    d = write_problem(
        tmp_path, "p1", "print(1)\r\n", "python", tests, study="codecontests", limits=limits, source=source
    )
    p = read_problem(d)
    assert (p.id, p.language, p.study, p.rule, p.limits, dict(p.source)) == (
        "p1", "python", "codecontests", "int-alpha-tokens", limits, source,
    )  # fmt: skip
    assert p.program.read_bytes() == b"print(1)\r\n"  # newlines kept as given
    assert [(t.name, t.input.read_bytes(), t.output and t.output.read_bytes()) for t in p.tests] == [
        ("public-2", b"2\n", b"2\n"), ("public-10", b"10\n", None), ("x", b"\x00\xff", b""),
    ]  # fmt: skip
    with pytest.raises(InputFileError, match="already exists"):
        write_problem(tmp_path, "p1", "print(2)\n", "python", tests)
    assert p.program.read_bytes() == b"print(1)\r\n"
    write_problem(tmp_path, "p1", "int main() {}\n", "cpp", tests[:1], overwrite=True)
    again = read_problem(d)
    assert again.language == "cpp" and len(again.tests) == 1 and not (d / "main.py").exists()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["p1"]  # no temporary directory is left


@pytest.mark.parametrize("bad", ["", "../up", "a/b", ".hidden", "sp ace"])
def test_write_problem_refuses_names_that_are_not_plain(tmp_path, bad):
    with pytest.raises(InputFileError, match="not a plain name"):
        write_problem(tmp_path, bad, "print(1)\n", "python", [NewTest("1", b"", None)])
    with pytest.raises(InputFileError, match="not a plain name"):
        write_problem(tmp_path, "ok", "print(1)\n", "python", [NewTest(bad or "/", b"", None)])
    assert list(tmp_path.iterdir()) == []


def test_write_problem_needs_tests_with_distinct_names(tmp_path):
    with pytest.raises(InputFileError, match="has no tests"):
        write_problem(tmp_path, "p", "print(1)\n", "python", [])
    with pytest.raises(InputFileError, match="two tests share a name"):
        write_problem(tmp_path, "p", "print(1)\n", "python", [NewTest("1", b"", None), NewTest("1", b"x", None)])
    assert list(tmp_path.iterdir()) == []


def test_slug_and_natural_order():
    assert slug("1003_F. Abbreviation") == "1003_f_abbreviation"
    assert slug("  ***  ") == ""
    assert slug("x" * 300) == "x" * 120
    assert sorted(["t10", "t2", "t1", "a"], key=natural_key) == ["a", "t1", "t2", "t10"]


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.text(min_size=1, max_size=12),
        st.one_of(st.text(max_size=40), st.integers(-(2**63), 2**63 - 1), st.booleans()),
        max_size=5,
    )
)
def test_problem_toml_round_trips_any_provenance_text(source):
    """Any text survives as TOML: quotes, backslashes, control characters, DEL, astral characters."""
    parsed = tomllib.loads(problem_toml("p", study="s", source=source))
    expected = {
        k: v.encode("utf-8", "backslashreplace").decode() if isinstance(v, str) else v for k, v in source.items()
    }
    assert parsed["id"] == "p" and parsed.get("source", {}) == expected
