"""The study root and study.toml: defaults a case overrides, sources that widen the root, and every refusal."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from execstate.builder import SpecDraft, SpecError, find_study, load_spec, spec_toml, toml_value, write_spec

PROGRAM = "n = int(input())\ntotal = 0\nfor i in range(n):\n    total += i\nprint(total)\n"
STUDY = """study = "s"
language = "python"
program = "main.py"

[checkpoint]
loop_text = "for i in range(n):"
variables = ["total"]
"""


def _study(root: Path, text: str = STUDY) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "main.py").write_text(PROGRAM)
    (root / "study.toml").write_text(text)
    return root


def _case(folder: Path, text: str = 'short_input = "short.txt"\nlong_input = "long.txt"\n') -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "short.txt").write_text("5\n")
    (folder / "long.txt").write_text("50\n")
    (folder / "case.toml").write_text(text)
    return folder / "case.toml"


def test_a_case_takes_the_study_defaults_and_its_id_from_its_folder(tmp_path):
    root = _study(tmp_path / "s")
    spec = load_spec(_case(root / "cases" / "c1"))
    assert (spec.id, spec.study, spec.language) == ("s/c1", "s", "python")
    assert spec.program == (root / "main.py").resolve()  # relative to study.toml, not to the case
    assert spec.checkpoint.loop_text == "for i in range(n):" and spec.checkpoint.variables == ("total",)
    assert spec.grading_rule == "json-or-tokens"


def test_a_case_overrides_a_default_and_replaces_the_default_checkpoint_whole(tmp_path):
    root = _study(tmp_path / "s")
    (root / "cases" / "c1").mkdir(parents=True)
    (root / "cases" / "c1" / "other.py").write_text(PROGRAM)
    text = 'id = "s/named"\nprogram = "other.py"\nshort_input = "short.txt"\nlong_input = "long.txt"\n'
    text += '[checkpoint]\nloop = 3\nvariables = ["i"]\n'
    spec = load_spec(_case(root / "cases" / "c1", text))
    assert spec.id == "s/named" and spec.program == (root / "cases" / "c1" / "other.py").resolve()
    # replaced as a whole: the default's loop_text is not merged in beside the case's loop
    assert (spec.checkpoint.loop, spec.checkpoint.loop_text, spec.checkpoint.variables) == (3, None, ("i",))


def test_the_nearest_study_toml_is_the_root(tmp_path):
    _study(tmp_path / "outer")
    inner = _study(tmp_path / "outer" / "inner", STUDY.replace('study = "s"', 'study = "t"'))
    spec = load_spec(_case(inner / "c"))
    assert spec.id == "t/c" and find_study(inner / "c" / "case.toml").root == inner.resolve()


def test_other_tools_tables_are_allowed_in_study_toml(tmp_path):
    root = _study(tmp_path / "s", STUDY + "\n[generator]\ncandidates = 3\n\n[bands]\nedges = [[1, 2]]\n")
    assert load_spec(_case(root / "c")).id == "s/c"


def test_an_environment_default_names_include_folders_relative_to_study_toml(tmp_path):
    root = _study(tmp_path / "s", 'environment = { preset = "atcoder", include = ["acl"] }\n' + STUDY)
    (root / "acl").mkdir()
    spec = load_spec(_case(root / "cases" / "c"))
    assert spec.environment is not None and spec.environment.preset == "atcoder"
    assert spec.environment.include_dirs == ((root / "acl").resolve(),)
    own = load_spec(_case(root / "d", 'short_input = "short.txt"\nlong_input = "long.txt"\nenvironment = "atcoder"\n'))
    assert own.environment is not None and own.environment.include == ()  # the case's own replaces the default


@pytest.mark.parametrize(
    ("extra", "key", "fix"),
    [
        ("flavour = 1\n", "flavour", "remove it or use one of: study, language"),
        ("environment = 1\n", "environment", 'write environment = "atcoder"'),
        ('environment = { include = ["../acl"] }\n', "environment.include", "name folders beside the declaring file"),
        ('short_input = "x.txt"\n', "short_input", "state short_input in each case.toml"),
        ("sources = 3\n", "sources", 'write sources = ["../classic"]'),
        ('sources = ["/etc"]\n', "sources", "relative to study.toml's folder"),
        ('sources = ["../nowhere"]\n', "sources", "name an existing folder"),
    ],
)
def test_a_broken_study_toml_is_refused_naming_the_file_the_key_and_the_fix(tmp_path, extra, key, fix):
    root = _study(tmp_path / "s", extra + STUDY)
    with pytest.raises(SpecError) as caught:
        load_spec(_case(root / "c"))
    assert caught.value.path == root / "study.toml" and caught.value.key == key and fix in caught.value.fix


def test_a_bad_default_is_reported_against_study_toml(tmp_path):
    root = _study(tmp_path / "s", STUDY.replace('program = "main.py"', 'program = "gone.py"'))
    with pytest.raises(SpecError, match=r"study\.toml \[program\]: file .*gone\.py does not exist"):
        load_spec(_case(root / "c"))
    root = _study(tmp_path / "t", STUDY.replace('variables = ["total"]', "variables = []"))
    with pytest.raises(SpecError) as caught:
        load_spec(_case(root / "c"))
    assert caught.value.path == root / "study.toml" and caught.value.key == "checkpoint.variables"


def test_a_case_cannot_name_sources(tmp_path):
    root = _study(tmp_path / "s")
    with pytest.raises(SpecError, match=r"\[sources\]: only a study\.toml .*Fix: move sources to the study\.toml"):
        load_spec(_case(root / "c", 'sources = ["../x"]\nshort_input = "short.txt"\nlong_input = "long.txt"\n'))


def test_a_missing_key_names_where_it_may_go(tmp_path):
    with pytest.raises(SpecError, match=r"\[program\]: required key is missing\. Fix: .*or as a default in a study"):
        load_spec(
            _case(tmp_path / "c", 'id = "s/c"\nstudy = "s"\nlanguage = "python"\nshort_input = "a"\nlong_input = "b"\n')
        )


def _sibling(tmp_path: Path) -> Path:
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "data.txt").write_text("50\n")
    return shared


def test_sources_let_specs_name_files_beside_the_study(tmp_path):
    _sibling(tmp_path)
    root = _study(tmp_path / "s", 'sources = ["../shared"]\n' + STUDY)
    spec = load_spec(_case(root / "c", 'short_input = "short.txt"\nlong_input = "../../shared/data.txt"\n'))
    assert spec.long_input.file == (tmp_path / "shared" / "data.txt").resolve()
    assert find_study(root / "c" / "case.toml").sources == ((tmp_path / "shared").resolve(),)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ('"../../shared/data.txt"', "leads to .*outside the study root"),  # a sibling not listed in sources
        ('"../../../etc/passwd"', "leads to .*outside the study root"),  # .. beyond the root
        ('"/etc/passwd"', "is an absolute path"),
        ('"link.txt"', "is a symlink to .*outside the study root"),
    ],
)
def test_paths_that_escape_the_study_root_are_refused(tmp_path, value, problem):
    _sibling(tmp_path)
    root = _study(tmp_path / "s")
    spec = _case(root / "c", f'short_input = "short.txt"\nlong_input = {value}\n')
    (root / "c" / "link.txt").symlink_to(tmp_path / "shared" / "data.txt")
    with pytest.raises(SpecError) as caught:
        load_spec(spec)
    assert caught.value.path == spec and caught.value.key == "long_input"
    assert re.search(problem, caught.value.problem), caught.value.problem
    assert "sources" in caught.value.fix or "relative to" in caught.value.fix


def test_a_symlinked_source_folder_does_not_open_what_it_points_past(tmp_path):
    shared = _sibling(tmp_path)
    (shared / "out.txt").symlink_to(tmp_path / "secret.txt")
    (tmp_path / "secret.txt").write_text("50\n")
    root = _study(tmp_path / "s", 'sources = ["../shared"]\n' + STUDY)
    with pytest.raises(SpecError, match=r"is a symlink to .*outside the study root .* and its sources"):
        load_spec(_case(root / "c", 'short_input = "short.txt"\nlong_input = "../../shared/out.txt"\n'))


# --- the writer --------------------------------------------------------------------------------------------


def test_what_the_writer_writes_reads_back_through_load_spec(tmp_path):
    _sibling(tmp_path)
    write_spec(tmp_path / "s" / "study.toml", SpecDraft(comment="defaults\nof s", study="s", sources=("../shared",)))
    (tmp_path / "s" / "main.py").write_text(PROGRAM)
    case = tmp_path / "s" / "c"
    _case(case)
    draft = SpecDraft(
        comment="made by a test",
        language="python",
        program="../main.py",
        short_input="short.txt",
        long_input={"generator": "../../shared/gen.py", "args": ["7", "x y"]},
        grading_rule="bytes",
        checkpoint={"loop_text": "for i in range(n):", "variables": ["total", "i"], "inside_iteration": 2},
        provenance={"seed": 1, "odd key": 'a "quoted"\nline', "ratio": 0.5, "ok": True, "list": [1, "two"]},
        invariant={"text": "t", "check": "short.txt"},
    )
    (tmp_path / "shared" / "gen.py").write_text("print(5)\n")
    spec = load_spec(write_spec(case / "case.toml", draft))
    assert (spec.id, spec.study, spec.grading_rule) == ("s/c", "s", "bytes")
    assert spec.program == (tmp_path / "s" / "main.py").resolve()
    assert spec.long_input.generator == (tmp_path / "shared" / "gen.py").resolve()
    assert spec.long_input.args == ("7", "x y")
    assert spec.checkpoint.variables == ("total", "i") and spec.checkpoint.inside_iteration == 2
    assert spec.provenance == dict(draft.provenance or {})
    assert spec.invariant is not None and spec.invariant.text == "t"
    assert (case / "case.toml").read_text().startswith("# made by a test\nlanguage = ")
    assert not list(case.glob(".case.toml.*"))  # the temporary file was renamed, not left


def test_empty_keys_are_left_out():
    assert spec_toml(SpecDraft(short_input="a", provenance={})) == 'short_input = "a"\n'


@given(st.text())
def test_any_string_round_trips_through_toml_value(text):
    written = toml_value(text)
    expected = text.encode("utf-8", "backslashreplace").decode("utf-8")
    assert tomllib.loads(f"v = {written}")["v"] == expected
