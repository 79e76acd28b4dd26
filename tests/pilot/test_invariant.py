"""The builder's audit of [invariant] tables: a failing check or a stated answer refuses the invariant."""

from __future__ import annotations

from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build_case, load_spec
from execstate.builder._invariant import leaked_values
from execstate.errors import SpecError
from execstate.records import Exclusion

PROGRAM = """n = int(input())
total = 0
for i in range(1, n + 1):
    total += i
print(total)
"""
# short input 3 -> 6; long input 40 -> 820; inside k=21: total=210, i=21; post: total=820, i=40
PASSING_CHECK = """import json, sys
data = json.load(sys.stdin)
for run in data["runs"]:
    n = int(run["input"])
    if int(run["output"]) != n * (n + 1) // 2:
        sys.exit(f"run {run['name']}: {run['output']!r}")
"""
FAILING_CHECK = """import json, sys
data = json.load(sys.stdin)
for run in data["runs"]:
    n = int(run["input"])
    if int(run["output"]) != n * n:
        sys.exit(f"the square law fails on run {run['name']}")
"""
TEXT = "After processing i, total is the triangular number i * (i + 1) / 2."


def _case(tmp_path: Path, text: str = TEXT, check: str = PASSING_CHECK, extra: str = "") -> Path:
    folder = tmp_path / "case"
    folder.mkdir()
    (folder / "main.py").write_text(PROGRAM)
    (folder / "short.txt").write_text("3\n")
    (folder / "long.txt").write_text("40\n")
    (folder / "small.txt").write_text("1\n")
    (folder / "audit.py").write_text(check)
    (folder / "case.toml").write_text(
        'id = "mine/triangle"\nstudy = "mine"\nlanguage = "python"\nprogram = "main.py"\n'
        'short_input = "short.txt"\nlong_input = "long.txt"\n\n'
        '[checkpoint]\nloop_text = "for i in range(1, n + 1):"\nvariables = ["total", "i"]\n\n'
        f'[invariant]\ntext = "{text}"\ncheck = "audit.py"\ninputs = ["small.txt"]\n{extra}'
    )
    return folder / "case.toml"


def _build(spec: Path):
    return build_case(load_spec(spec), BuildOptions())


def test_an_audited_answer_free_invariant_is_admitted_and_recorded(tmp_path):
    tasks = _build(_case(tmp_path, extra='placebo = "The program reads one line."\n'))
    assert not isinstance(tasks, Exclusion), tasks
    meta = tasks[1].meta["invariant"]
    assert meta["text"] == TEXT and meta["placebo"] == "The program reads one line."
    assert meta["audit_runs"] == ["short", "long", "small.txt"] and len(meta["check_sha256"]) == 64


def test_an_invariant_whose_audit_fails_is_refused(tmp_path):
    out = _build(_case(tmp_path, check=FAILING_CHECK))
    assert isinstance(out, Exclusion) and out.check == "invariant"
    assert "audit.py failed" in out.reason and "the square law fails on run short" in out.reason


def test_an_invariant_containing_the_oracle_is_refused(tmp_path):
    out = _build(_case(tmp_path, text="The program prints 820 for this input."))
    assert isinstance(out, Exclusion) and out.check == "invariant"
    assert "'820'" in out.reason and "states an answer" in out.reason


def test_an_invariant_containing_a_checkpoint_value_is_refused(tmp_path):
    out = _build(_case(tmp_path, text="Halfway through, total reaches 210."))
    assert isinstance(out, Exclusion) and out.check == "invariant" and "'210'" in out.reason


def test_a_placebo_containing_the_oracle_is_refused(tmp_path):
    out = _build(_case(tmp_path, extra='placebo = "Its output is 820."\n'))
    assert isinstance(out, Exclusion) and out.check == "invariant" and "placebo" in out.reason


def test_the_audit_runs_in_the_sandbox_not_in_process(tmp_path, monkeypatch):
    """A check that would write outside its run directory cannot; and nothing here imports it."""
    marker = tmp_path / "escaped"
    check = f"import pathlib\npathlib.Path({str(marker)!r}).write_text('x')\n"
    out = _build(_case(tmp_path, check=check))
    assert isinstance(out, Exclusion) and out.check == "invariant"
    assert not marker.exists()


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ('[invariant]\ncheck = "audit.py"\n', "invariant.text"),
        ('[invariant]\ntext = "x"\n', "invariant.check"),
        ('[invariant]\ntext = "x"\ncheck = "missing.py"\n', "invariant.check"),
        ('[invariant]\ntext = "x"\ncheck = "audit.py"\ncolour = 1\n', "invariant.colour"),
    ],
)
def test_a_malformed_invariant_table_names_the_key(tmp_path, table, key):
    spec = _case(tmp_path)
    text = spec.read_text()
    spec.write_text(text[: text.index("[invariant]")] + table)
    with pytest.raises(SpecError) as err:
        load_spec(spec)
    assert err.value.key == key and "Fix:" in str(err.value)


def test_leaked_values_ignore_single_digits_but_catch_numbers_lines_and_strings():
    oracles = {
        "long": "survivor 181\nlast 7\n",
        "inside": '{"idx":3,"name":"abc"}\n',
        "post": '{"idx":12,"name":"z"}\n',
    }
    assert leaked_values("J(m) = (J(m-1) + k) mod m, J(1) = 0; 7 and 3 are digits", oracles) == []
    assert leaked_values("the survivor is 181", oracles) == ["181"]
    assert leaked_values("idx reaches 12", oracles) == ["12"]
    assert leaked_values("it names abc", oracles) == ["abc"]
    assert leaked_values("abcd is another word", oracles) == []
    assert leaked_values("1812 is another number", oracles) == []
