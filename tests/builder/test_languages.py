"""The language registry: one entry per language, a third language added by one file and one entry, and no
other module of the package spelling a language's name."""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import replace
from pathlib import Path

import pytest
from pydantic import ValidationError
from toy_lines_language import ENTRY

import execstate
from execstate.builder import BuildOptions, build, load_spec, write_build
from execstate.errors import SpecError, UsageError
from execstate.languages import LANGUAGES, program_languages, register_language, unregister_language
from execstate.records import LANGUAGE_NAMES, Task, read_jsonl
from execstate.sandbox import Limits
from execstate.studies import STUDIES

SRC = Path(execstate.__file__).resolve().parent

PROGRAM = """\
read n
set total 0   # the running sum
set i 0
while i < n
    add total i
    add i 1
end
print total
"""
SPEC = """\
id = "toy/sum"
study = "toy"
language = "lines"
program = "main.lines"
short_input = "short.txt"
long_input = "long.txt"

[checkpoint]
loop_text = "while i < n"
variables = ["total", "i"]
"""


def _case(root: Path) -> Path:
    case = root / "sum"
    case.mkdir(parents=True)
    (case / "main.lines").write_text(PROGRAM, encoding="utf-8")
    (case / "short.txt").write_text("3\n", encoding="utf-8")
    (case / "long.txt").write_text("40\n", encoding="utf-8")
    (case / "case.toml").write_text(SPEC, encoding="utf-8")
    return case


@pytest.fixture
def lines():
    register_language(ENTRY)
    try:
        yield ENTRY
    finally:
        unregister_language(ENTRY.name)


def test_the_records_name_the_registry_languages_and_every_study_uses_registered_ones():
    assert tuple(LANGUAGES) == LANGUAGE_NAMES
    assert list(program_languages()) == ["main.py", "main.cpp"]
    assert {lang for study in STUDIES.values() for lang in study.languages} <= set(LANGUAGES)


def test_an_unknown_language_names_the_available_ones(tmp_path):
    spec = _case(tmp_path) / "case.toml"
    with pytest.raises(SpecError) as err:
        load_spec(spec)
    assert str(err.value).startswith(f"{spec} [language]: unknown language 'lines' (available: python, cpp). Fix:")


def test_a_third_language_builds_through_the_normal_build(tmp_path, lines):
    """One adapter file and one registry entry: the unchanged builder admits the case with oracles it ran."""
    result = build([_case(tmp_path / "specs")], options=BuildOptions(limits=Limits(wall_s=10, cpu_s=10)))
    assert result.exclusions == []
    by_arm = {t.arm: t for t in result.tasks}
    assert list(by_arm) == ["short-trace-final", "long-trace-final", "inside-loop-state", "post-loop-state"]
    assert {t.language for t in result.tasks} == {"lines"}
    assert by_arm["short-trace-final"].oracle == "3\n"
    assert by_arm["long-trace-final"].oracle == f"{sum(range(40))}\n"
    k = by_arm["inside-loop-state"].meta["k"]
    assert (k, by_arm["inside-loop-state"].meta["K"]) == (21, 40)
    assert by_arm["inside-loop-state"].oracle == f'{{"total":{sum(range(k - 1))},"i":{k - 1}}}\n'
    assert by_arm["post-loop-state"].oracle == f'{{"total":{sum(range(40))},"i":40}}\n'
    assert f"@inside {k} total i" in by_arm["inside-loop-state"].source
    assert all(t.meta["lines_interpreter"] == "lines 1" and t.meta["hash_seeds"] == [0, 1] for t in result.tasks)
    short, long = (by_arm[a].metrics.trace_length for a in ("short-trace-final", "long-trace-final"))
    assert short is not None and long is not None and short < long
    write_build(result, tmp_path / "out")
    assert list(read_jsonl(tmp_path / "out" / "tasks.jsonl", Task)) == result.tasks
    unregister_language(ENTRY.name)
    with pytest.raises(ValidationError, match="unknown language 'lines'"):
        Task.model_validate(result.tasks[0].model_dump())
    register_language(ENTRY)  # for the fixture's clean-up


def test_an_adapters_spec_problem_is_reported_once_with_the_spec_file(tmp_path, lines):
    """The adapter raises SpecProblem(key, problem, fix) where it finds it; the exclusion names the file once."""
    spec = _case(tmp_path) / "case.toml"
    spec.write_text(SPEC.replace('["total", "i"]', '["totl"]'), encoding="utf-8")
    (excluded,) = build([spec]).exclusions
    assert excluded.check == "spec"
    assert (
        excluded.reason
        == f"{spec.resolve()} [checkpoint.variables]: no variable named totl. Fix: name program variables"
    )


def test_registering_refuses_a_name_or_file_another_language_has(lines):
    with pytest.raises(UsageError, match="'python' already has the name"):
        register_language(replace(ENTRY, name="python"))
    with pytest.raises(UsageError, match=r"'python' already has the file suffix '\.py'"):
        register_language(replace(ENTRY, name="lines2", program="main.py"))
    with pytest.raises(UsageError, match=r"'python' already has the file name 'gen\.py'"):
        register_language(replace(ENTRY, name="lines2", generator="gen.py"))
    with pytest.raises(UsageError, match="not a language registered at run time"):
        unregister_language("cpp")


ADAPTERS_AND_REGISTRY = ("language_entries.py", "languages/python/language.py", "languages/cpp/")
"""Where language names are spelled: the registry's entries and the adapters (the C++ adapter is a package)."""
OTHER_SPELLINGS: dict[str, tuple[int, str]] = {
    "records.py": (2, "LANGUAGE_NAMES, the public format's closed set; a test checks the registry agrees"),
    "studies/__init__.py": (12, "data: each study declares its cases' languages, as a case spec's `language` does"),
    "analyze/_config.py": (2, "a setting of an analysis, recorded in analysis.json: its cohorts' language"),
    "analyze/_paired.py": (1, "the paired cohorts' language, the paper's design (analyze/_config.py)"),
    "sandbox/_root.py": (1, "the Python interpreter the sandbox starts: an executable's name in the private root"),
    "sandbox/_pid1.py": (1, "the sandbox's Python init, when its compiled init is missing"),
    "metrics/_probe.py": (2, "the key `python` of the probe's result: the interpreter's version"),
    "metrics/_report.py": (1, "the same key in `execstate metrics` output"),
    "metrics/cpp/_compile.py": (1, "the folder name of the C++ compile cache"),
    "environments/_install.py": (
        1,
        "the key `python` of an environment's record and cache key: the interpreter's version",
    ),
    "analyze/_twins.py": (6, "the paired language gap's two sides, the languages of the built-in twin pairs"),
    "view/_trace.py": (1, "the true trace is recorded by a Python tracer: other languages' cells say they have none"),
    "testing/horizon.py": (1, "a test double: the language of the synthetic ladder tasks it writes"),
    "testing/synthetic_run.py": (11, "a test double: the languages of the synthetic run's tasks and their meta"),
}
"""Every other string literal equal to a language name, with why it is not a module spelling a language.
Each count is exact: one more literal anywhere fails the test."""


def _name_literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each string literal in ``path`` whose value is a language name."""
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type == tokenize.STRING:
            try:
                value = ast.literal_eval(tok.string)
            except (ValueError, SyntaxError):
                continue  # an f-string's pieces, a byte string of a pattern...
            if value in LANGUAGE_NAMES:
                found.append((tok.start[0], tok.line.strip()))
    return found


def _package_modules() -> dict[str, Path]:
    """Every module of the package but the studies' folders (their programs are data, not code)."""
    modules = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if not (rel.startswith("studies/") and rel.count("/") > 1):
            modules[rel] = path
    return modules


def test_no_module_outside_the_adapters_and_the_registry_spells_a_language_name():
    spelled = {rel: hits for rel, path in _package_modules().items() if (hits := _name_literals(path))}
    outside = {rel: hits for rel, hits in spelled.items() if not rel.startswith(ADAPTERS_AND_REGISTRY)}
    assert {rel: len(hits) for rel, hits in outside.items()} == {rel: n for rel, (n, _) in OTHER_SPELLINGS.items()}
    assert all(text.startswith("LANGUAGE_NAMES") for _, text in outside["records.py"])
    assert {"language_entries.py", "languages/python/language.py", "languages/cpp/language.py"} <= set(spelled)


def test_the_spelling_scan_finds_a_planted_name(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('LANG = "cpp"\nif lang == \'python\':\n    pass\nNOT = f"python"\nTEXT = "python3"\n')
    assert [line for line, _ in _name_literals(planted)] == [1, 2]


def test_the_builtin_languages_are_the_records_closed_set():
    from execstate.languages import BUILTIN_LANGUAGES

    assert BUILTIN_LANGUAGES == LANGUAGE_NAMES


def test_a_third_language_brings_its_own_command_line_option(tmp_path, lines, capsys):
    """The toy adapter declares ``--lines-tag`` in its registry entry: ``execstate build`` offers it once the
    language is registered and hands its value to the adapter, with no line of the command line changed."""
    from execstate.cli import main

    out = tmp_path / "out"
    argv = ["build", str(_case(tmp_path / "specs")), "--out", str(out), "--timeout", "10"]
    assert main([*argv, "--lines-tag", "from-the-cli"]) == 0
    tasks = list(read_jsonl(out / "tasks.jsonl", Task))
    assert len(tasks) == 4 and {t.meta["lines_tag"] for t in tasks} == {"from-the-cli"}
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    assert "--lines-tag" in capsys.readouterr().out
    unregister_language(ENTRY.name)
    try:
        with pytest.raises(SystemExit):
            main(["build", "--help"])
        assert "--lines-tag" not in capsys.readouterr().out  # gone with its language
    finally:
        register_language(ENTRY)  # for the fixture's clean-up


def test_the_command_line_names_no_language_and_no_language_option():
    """``cli/`` offers each language's options from the registry: no language name, no adapter option flag
    and no adapter module appears in it."""
    flags = {o.flag for entry in LANGUAGES.values() for o in entry.cli_options}
    assert "--cxx" in flags  # the C++ adapter's own options are declared in its registry entry
    for path in sorted((SRC / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert not literals & (flags | set(LANGUAGE_NAMES)), (path.name, literals & (flags | set(LANGUAGE_NAMES)))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        adapters = {m for m in imported if m.startswith(("execstate.languages.", "execstate.builder.cpp"))}
        assert not adapters, (path.name, adapters)
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
        }
        assert not {n for n in names if n.startswith(("Cpp", "Python")) and n.endswith(("Options", "Language"))}


def test_the_languages_are_one_registry_declared_as_data():
    """``execstate.languages.LANGUAGES`` is the ``Registry[LanguageEntry]`` of ``execstate.language_entries``
    (entry-point group ``execstate.languages``): its built-in entries name their adapters as strings, so reading
    them imports no adapter, and a miss names the close languages."""
    from execstate import language_entries
    from execstate.registry import Registry

    assert isinstance(LANGUAGES, Registry) and LANGUAGES is language_entries.LANGUAGES
    assert LANGUAGES.group == "execstate.languages"
    assert all(isinstance(LANGUAGES.get(name).adapter, str) for name in LANGUAGE_NAMES)
    with pytest.raises(UsageError, match="unknown language 'pyhton'; did you mean 'python'"):
        LANGUAGES.get("pyhton")


def test_a_registered_language_is_a_registry_entry(lines):
    assert LANGUAGES.get("lines") is ENTRY and list(LANGUAGES)[-1] == "lines"
    with pytest.raises(UsageError, match="not a short lower-case identifier"):
        register_language(replace(ENTRY, name="Lines", program="main.l2"))
