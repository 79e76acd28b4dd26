"""The environment declaration: its two TOML forms, exact pins, presets, include folders, and every refusal."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from execstate.builder import SpecDraft, load_spec, spec_toml
from execstate.construct import environment_suggestion, read_problem
from execstate.environments import (
    ATCODER,
    PRESETS,
    EnvironmentProblem,
    EnvironmentSpec,
    canonical_name,
    declaration_fix,
    missing_header,
    missing_module,
    parse_environment,
    undeclared_import,
)
from execstate.errors import SpecError

REQUIRED_ATCODER = {  # packages AtCoder's judge ships, which contest programs written for it import
    "sortedcontainers",
    "numpy",
    "scipy",
    "networkx",
    "more-itertools",
    "sympy",
    "bitarray",
    "ac-library-python",
}


def test_preset_string_and_table_forms_ask_for_the_same_packages():
    short = parse_environment("atcoder")
    table = parse_environment({"preset": "atcoder"})
    assert short == table
    assert short.requirements == ATCODER
    assert short.packages == ()


def test_atcoder_preset_pins_every_required_package():
    names = {pin.partition("==")[0] for pin in PRESETS["atcoder"]}
    assert names >= REQUIRED_ATCODER
    assert all(pin.count("==") == 1 for pin in ATCODER)
    assert list(ATCODER) == sorted(ATCODER)


def test_packages_are_canonical_exact_pins_and_the_requirement_set_is_sorted():
    spec = parse_environment({"packages": ["Sorted_Containers==2.4.0", "numpy==2.2.6"]})
    assert spec.packages == ("sorted-containers==2.4.0", "numpy==2.2.6")
    assert spec.requirements == ("numpy==2.2.6", "sorted-containers==2.4.0")
    assert canonical_name("More.Itertools") == "more-itertools"


def test_a_preset_package_listed_again_at_its_version_is_not_repeated():
    spec = parse_environment({"preset": "atcoder", "packages": ["numpy==2.2.6", "attrs==23.1.0"]})
    assert spec.packages == ("attrs==23.1.0",)
    assert spec.requirements == tuple(sorted((*ATCODER, "attrs==23.1.0")))


@pytest.mark.parametrize(
    ("value", "key", "words"),
    [
        ("codeforces", "environment", "unknown preset 'codeforces'"),
        (3, "environment", "expected a preset name or a table"),
        ({"packages": ["numpy"]}, "environment.packages", "'numpy' is not of the form name==version"),
        ({"packages": ["numpy>=2"]}, "environment.packages", "not of the form name==version"),
        ({"packages": "numpy==2.2.6"}, "environment.packages", "expected a list of pins"),
        ({"preset": "atcoder", "packages": ["numpy==1.26.4"]}, "environment.packages", "numpy is asked for twice"),
        ({"packages": ["a==1", "A==2"]}, "environment.packages", "a is asked for twice"),
        ({"pakages": []}, "environment.pakages", "unknown key"),
        ({"include": "acl"}, "environment.include", "expected a list of folder names"),
    ],
)
def test_bad_declarations_name_the_key_and_the_fix(value, key, words):
    with pytest.raises(EnvironmentProblem) as err:
        parse_environment(value, Path("/nonexistent"))
    assert err.value.key == key
    assert words in err.value.problem
    assert "Fix: " in str(err.value)


def test_include_folders_must_exist_inside_the_base(tmp_path):
    (tmp_path / "acl" / "atcoder").mkdir(parents=True)
    spec = parse_environment({"include": ["acl"]}, tmp_path)
    assert spec.include == ("acl",)
    assert spec.include_dirs == ((tmp_path / "acl").resolve(),)
    for bad, words in (("../elsewhere", "leads outside"), ("/usr/include", "leads outside"), ("nope", "not a dir")):
        with pytest.raises(EnvironmentProblem, match=words):
            parse_environment({"include": [bad]}, tmp_path)
    with pytest.raises(EnvironmentProblem, match="cannot be declared here"):
        parse_environment({"include": ["acl"]}, None)


def test_toml_round_trip_of_both_forms(tmp_path):
    (tmp_path / "lib").mkdir()
    for spec in (
        parse_environment("atcoder"),
        parse_environment({"preset": "atcoder", "packages": ["attrs==23.1.0"], "include": ["lib"]}, tmp_path),
        parse_environment({"packages": ["sortedcontainers==2.4.0"]}),
    ):
        raw = tomllib.loads(spec_toml(SpecDraft(environment=spec.declaration())))
        assert parse_environment(raw["environment"], tmp_path) == spec


def test_case_spec_reads_the_declaration_and_reports_a_bad_one_as_a_spec_error(tmp_path):
    (tmp_path / "main.py").write_text("print(1)\n")
    (tmp_path / "in.txt").write_text("1\n")
    head = 'id = "s/c"\nstudy = "s"\nlanguage = "python"\nprogram = "main.py"\n'
    head += 'short_input = "in.txt"\nlong_input = "in.txt"\n'
    tail = '\n[checkpoint]\nloop = 1\nvariables = ["x"]\n'
    (tmp_path / "case.toml").write_text(head + 'environment = "atcoder"\n' + tail)
    assert load_spec(tmp_path / "case.toml").environment == parse_environment("atcoder")
    (tmp_path / "case.toml").write_text(head + tail)
    assert load_spec(tmp_path / "case.toml").environment is None
    (tmp_path / "case.toml").write_text(head + tail + '\n[environment]\npackages = ["numpy"]\n')
    with pytest.raises(SpecError) as err:
        load_spec(tmp_path / "case.toml")
    assert err.value.key == "environment.packages"
    assert "name==version" in str(err.value)


def test_missing_module_is_read_from_the_last_traceback_line():
    stderr = (
        b"Traceback (most recent call last):\n  File 'main.py', line 1\nModuleNotFoundError: No module named 'numpy'\n"
    )
    assert missing_module(stderr) == "numpy"
    assert missing_module("ModuleNotFoundError: No module named 'atcoder.dsu'\n") == "atcoder"
    assert missing_module(b"ValueError: bad\n") is None
    assert missing_module(b"print('ModuleNotFoundError: No module named x')\n") is None


@pytest.mark.parametrize(
    ("module", "pin"),
    [
        ("sortedcontainers", "sortedcontainers==2.4.0"),
        ("more_itertools", "more-itertools==10.5.0"),
        ("atcoder", "ac-library-python==0.1.0"),
        ("numpy", "numpy==2.2.6"),
    ],
)
def test_the_fix_names_the_preset_and_the_pinned_package(module, pin):
    fix = declaration_fix(module, "study.toml")
    assert fix == f'add environment = "atcoder" or [environment] packages = ["{pin}"] to study.toml'


def test_an_unknown_module_gets_a_package_line_to_fill_in():
    assert 'packages = ["<the PyPI package that provides frobnicate>==<version>"]' in declaration_fix("frobnicate")
    reason = undeclared_import(b"ModuleNotFoundError: No module named 'sortedcontainers'\n", "case.toml")
    assert reason is not None and "'sortedcontainers'" in reason and 'environment = "atcoder"' in reason


def test_an_empty_declaration_asks_for_nothing():
    assert EnvironmentSpec().is_empty()
    assert parse_environment({}).is_empty()


def test_a_missing_cpp_header_is_named_with_its_include_fix():
    stderr = b"main.cpp:2:10: fatal error: atcoder/dsu: No such file or directory\ncompilation terminated.\n"
    assert missing_header(stderr) == "atcoder/dsu"
    reason = undeclared_import(stderr, "case.toml")
    assert reason is not None and "includes the undeclared header 'atcoder/dsu'" in reason
    assert reason.endswith(
        'Fix: add [environment] include = ["<a folder beside it that holds atcoder/dsu>"] to case.toml'
    )
    assert missing_header(b"main.cpp:3: error: expected ';'\n") is None


def _problem(folder: Path, toml: str) -> Path:
    (folder / "tests").mkdir(parents=True)
    (folder / "main.py").write_text("print(1)\n")
    (folder / "tests" / "1.in").write_text("1\n")
    (folder / "problem.toml").write_text(toml)
    return folder


def test_problem_toml_declares_an_environment(tmp_path):
    (tmp_path / "p" / "acl").mkdir(parents=True)
    problem = read_problem(_problem(tmp_path / "p", 'environment = "atcoder"\n'))
    assert problem.environment == parse_environment("atcoder")
    table = '[environment]\npackages = ["numpy==2.2.6"]\ninclude = ["acl"]\n'
    (tmp_path / "q" / "acl").mkdir(parents=True)
    problem = read_problem(_problem(tmp_path / "q", table))
    assert problem.environment is not None and problem.environment.include_dirs == ((tmp_path / "q" / "acl").resolve(),)
    assert read_problem(_problem(tmp_path / "r", 'id = "r"\n')).environment is None
    with pytest.raises(SpecError) as err:
        read_problem(_problem(tmp_path / "s", 'environment = "judge"\n'))
    assert err.value.key == "environment" and "unknown preset 'judge'" in str(err.value)


def test_written_specs_carry_the_declaration_in_either_form(tmp_path):
    (tmp_path / "acl").mkdir()
    preset = spec_toml(
        SpecDraft(id="s/a", grading_rule="exact", environment=parse_environment("atcoder").declaration())
    )
    assert preset == 'id = "s/a"\ngrading_rule = "exact"\nenvironment = "atcoder"\n'
    spec = parse_environment({"packages": ["numpy==2.2.6"], "include": ["acl"]}, tmp_path)
    text = spec_toml(SpecDraft(id="s/a", provenance={"seed": 1}, environment=spec.declaration()))
    assert text.endswith('\n\n[environment]\npackages = ["numpy==2.2.6"]\ninclude = ["acl"]\n')
    assert parse_environment(tomllib.loads(text)["environment"], tmp_path) == spec
    assert "environment" not in spec_toml(SpecDraft(id="s/a"))


class _Outcome:
    def __init__(self, spec_dir, reason):
        self.spec_dir, self.reason = spec_dir, reason


def test_the_suggestion_needs_every_failure_to_be_an_undeclared_import():
    missing = [undeclared_import(f"ModuleNotFoundError: No module named '{m}'\n") for m in ("numpy", "atcoder")]
    outcomes = [_Outcome(None, missing[0]), _Outcome(None, missing[1]), _Outcome(Path("x"), None)]
    hint = environment_suggestion(outcomes)
    assert hint is not None and "(2)" in hint and "(atcoder, numpy)" in hint
    assert "construct --environment atcoder" in hint
    assert environment_suggestion([*outcomes, _Outcome(None, "the program fails its test 2")]) is None
    assert environment_suggestion([_Outcome(Path("x"), None)]) is None
    odd = undeclared_import("ModuleNotFoundError: No module named 'pandas'\n")
    other = environment_suggestion([_Outcome(None, odd)])
    assert other is not None and "packages = [" in other and "--environment" not in other
