"""An integer a program builds is never a harness failure, however many digits it has (CPython converts at most
4,300 to or from text unless told otherwise): built through the builder and through construct, a case whose
checkpoint projects a 100,000-digit integer is admitted or rejected with a named reason, never ``internal``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build_case, load_spec
from execstate.construct import ConstructOptions, construct_problem, read_pool
from execstate.records import Exclusion
from execstate.sandbox import Limits
from execstate.values import any_int, int_text, json_text, json_value, recorded

OPTS = BuildOptions(limits=Limits(wall_s=20, cpu_s=20, memory_mb=1024))
# x gains 200 digits an iteration: 100,001 digits after 500 iterations. The program never converts x to text.
GROWS = """n = int(input())
x = 1
for i in range(n):
    x = x * 10**200 + i
print(x % 1000003)
"""
LIFTS = "import sys\nsys.set_int_max_str_digits(0)\n" + GROWS  # a program that prints big integers lifts the limit
PRINTS = GROWS.replace("print(x % 1000003)", "print(len(str(x)))")  # the program's own conversion


def _x(iterations: int) -> int:
    x = 1
    for i in range(iterations):
        x = x * 10**200 + i
    return x


def _case(root: Path, name: str, source: str, long_n: int, **keys: str) -> Path:
    case = root / name
    case.mkdir(parents=True)
    (case / "main.py").write_text(source)
    (case / "short.txt").write_text("3\n")
    (case / "long.txt").write_text(f"{long_n}\n")
    lines = [f'id = "big/{name}"', 'study = "big"', 'language = "python"', 'program = "main.py"']
    lines += ['short_input = "short.txt"', 'long_input = "long.txt"', *(f"{k} = {v}" for k, v in keys.items())]
    lines += ["[checkpoint]", 'loop_text = "for i in range(n):"', 'variables = ["x", "i"]']
    (case / "case.toml").write_text("\n".join(lines) + "\n")
    return case / "case.toml"


def _state(text: str) -> dict:
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.loads(text)
    finally:
        sys.set_int_max_str_digits(limit)


def test_a_100000_digit_state_is_rejected_by_the_size_check(tmp_path):
    """Its post state is 100,016 bytes: over max_checkpoint_bytes, and the exclusion says so."""
    result = build_case(load_spec(_case(tmp_path, "grows", GROWS, 500)), OPTS)
    assert isinstance(result, Exclusion)
    assert result.check == "checkpoint-size", result.reason
    assert "the post checkpoint printed 100016 bytes, more than max_checkpoint_bytes = 100000" in result.reason


@pytest.mark.parametrize(("source", "n"), [(GROWS, 200), (LIFTS, 480)], ids=["default-limit", "lifted-by-program"])
def test_a_state_of_tens_of_thousands_of_digits_is_admitted_with_its_exact_value(tmp_path, source, n):
    """Inside the size limit, the state's integers are the program's, digit for digit: whether the program
    left the interpreter's limit as it is (40,001 digits after the loop) or lifted it itself (96,001)."""
    result = build_case(load_spec(_case(tmp_path, "fits", source, n)), OPTS)
    assert isinstance(result, list), result
    tasks = {t.arm: t for t in result}
    k = tasks["inside-loop-state"].meta["k"]
    assert k == n // 2 + 1
    # at the top of iteration k the header has bound i = k - 1; the body has run k - 1 times
    assert _state(tasks["inside-loop-state"].oracle) == {"x": _x(k - 1), "i": k - 1}
    assert _state(tasks["post-loop-state"].oracle) == {"x": _x(n), "i": n - 1}
    assert tasks["long-trace-final"].oracle == f"{_x(n) % 1000003}\n"


def test_states_measured_arm_by_arm_print_the_same_big_integers(tmp_path):
    """Measured arm by arm, each state arm's copy runs under the probe: its printed state is the oracle."""
    source = "# measured apart\n" + GROWS  # its own program text: no measurement of another build is reused
    spec = load_spec(_case(tmp_path, "apart", source, 200))
    result = build_case(spec, BuildOptions(limits=OPTS.limits, measure_arms_apart=True))
    assert isinstance(result, list), result
    post = next(t for t in result if t.arm == "post-loop-state")
    assert _state(post.oracle)["x"] == _x(200) and post.metrics.trace_length > 0


def test_a_program_that_converts_a_huge_integer_itself_fails_its_run(tmp_path):
    """The program's own ``str`` meets the interpreter's limit: that is the program's run failing, with its stderr."""
    result = build_case(load_spec(_case(tmp_path, "prints", PRINTS, 500)), OPTS)
    assert isinstance(result, Exclusion)
    assert result.check == "run" and "clean program on the long input" in result.reason
    assert "Exceeds the limit (4300 digits) for integer string conversion" in result.reason


def test_construct_rejects_the_huge_integer_by_its_size_and_keeps_the_record_readable(tmp_path):
    d = tmp_path / "pool" / "grows"
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(GROWS)
    for name, n in (("1", 3), ("2", 500)):
        (d / "tests" / f"{name}.in").write_text(f"{n}\n")
        (d / "tests" / f"{name}.out").write_text(f"{_x(n) % 1000003}\n")
    (problem,) = read_pool(tmp_path / "pool")
    outcome = construct_problem(problem, tmp_path / "specs", ConstructOptions(max_trace=10**7, synthesize=False))
    assert outcome.check is None, outcome.reason  # the loop's other variable, i, makes the spec
    assert load_spec(tmp_path / "specs" / "grows" / "case.toml").checkpoint.variables == ("i",)
    record = json.loads((tmp_path / "specs" / "grows" / "construct.json").read_text())  # plain json.loads reads it
    [x] = [c for c in record["loops"][0]["candidates"] if c["name"] == "x"]
    assert x["rejected"] == "serialized at 100001 characters, over 200"
    head, tail = str(_x(2))[:20], f"{250 - 1:020d}"
    assert x["inside"] == f"<an integer of 50001 digits: {head}...{tail}>"
    assert x["post"].startswith("<an integer of 100001 digits: ")


def test_values_of_any_size_convert_both_ways():
    limit = sys.get_int_max_str_digits()
    assert limit == 4300  # the interpreter's default: what the conversions must not depend on
    for value in (0, 7, -12, 10**3999, 10**4000, -(10**4000) + 1, _x(500), -(3**60000)):
        sys.set_int_max_str_digits(0)
        try:
            text = str(value)
        finally:
            sys.set_int_max_str_digits(limit)
        assert int_text(value) == text and any_int(text) == value
        assert json_value(json_text({"v": [value, "s"]}, separators=(",", ":"))) == {"v": [value, "s"]}
    assert int_text(_x(3)) == "1" + "".join(f"{i:0200d}" for i in range(3))
    assert json_text({"a": 1}, indent=1) == json.dumps({"a": 1}, indent=1)  # small values: json's own text
    assert recorded([1, {"k": -_x(30)}]) == [1, {"k": f"<an integer of 6001 digits: -{'1' + '0' * 19}...{29:020d}>"}]
    assert sys.get_int_max_str_digits() == limit  # nothing here changed the interpreter's limit
