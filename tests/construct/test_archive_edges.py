"""What archives feed construct that a judge takes in its stride (issue 57): a test input holding an integer of
200,000 digits, and a test file whose last line ends in a lone CR. Neither is ever ``internal``.

An integer token of more than ``MAX_INT_DIGITS`` digits is a word of digits (its length is its size); a lone CR
is a line end, served as LF like a CRLF. The sweep of point 4 is here too: every place where a number from an
archive reaches a conversion of the harness (``int``, ``float``, ``str``/``json`` of a big integer) has a test.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from dataset_shapes import PYTHON3, cc_record, write_jsonl

from execstate.builder import load_spec
from execstate.construct import ConstructOptions, construct_problem, import_codecontests, read_pool
from execstate.construct._calls import CallTarget, call_test
from execstate.construct._livecodebench import _cases
from execstate.construct._pool import as_served, natural_key
from execstate.construct._properties import infer_shapes
from execstate.construct._shape import INT, MAX_INT_DIGITS, Word, check, describe
from execstate.construct._sources import BadRecord
from execstate.errors import SpecError
from execstate.sandbox import Limits

RNG = random.Random(57)
HUGE = "9" + "".join(RNG.choice("0123456789") for _ in range(199_999))
"""A 200,000-digit number, as in the AtCoder test that ended construct as ``internal``."""
LARGE = HUGE[:99_381]
"""The other one: 99,381 digits."""

# Reads the number as its digits (as accepted solutions do): one loop iteration a digit. ``input()`` keeps a CR.
DIGITS = """s = input()
total = 0
for ch in s:
    total += int(ch)
print(total % 9)
"""


def _digit_sum(text: str) -> int:
    return sum(map(int, text)) % 9


# ---------------------------------------------------------------- shapes of huge integers


def test_an_integer_token_past_the_cap_is_a_word_of_digits():
    assert INT.fullmatch("9" * MAX_INT_DIGITS) and INT.fullmatch("-" + "9" * MAX_INT_DIGITS)
    assert INT.fullmatch("9" * (MAX_INT_DIGITS + 1)) is None and INT.fullmatch(HUGE) is None
    inferred = infer_shapes([b"12\n", b"345\n", (HUGE + "\n").encode(), b"7\n"])
    assert inferred.reason is None and inferred.shapes
    best = inferred.shapes[0]
    (line,) = best.items
    (field,) = line.fields  # type: ignore[union-attr]
    assert isinstance(field, Word) and set(field.alphabet) <= set("0123456789")
    assert check(best, (HUGE + "\n").encode()) is None  # the sample fits the shape inferred from it


def test_a_huge_integer_beside_a_count_is_inferred_and_checked():
    samples = [b"3\n1 2 3\n", f"2\n{LARGE} 5\n".encode()]
    inferred = infer_shapes(samples)
    assert inferred.reason is None
    assert describe(inferred.shapes[0]).startswith("n:int[2..")  # the count stays an integer variable
    assert all(check(inferred.shapes[0], s) is None for s in samples)


def test_a_huge_token_where_the_shape_has_an_integer_is_a_mismatch():
    inferred = infer_shapes([b"3\n", b"10\n"])
    assert check(inferred.shapes[0], b"5\n") is None
    assert "not an integer" in (check(inferred.shapes[0], (HUGE + "\n").encode()) or "")


def test_tree_rows_with_a_huge_first_token_are_no_edges():
    # the rows' first two tokens look like node numbers; a 200,000-digit one is not converted
    samples = [b"2\n1 2\n2 3\n", f"1\n{HUGE} 1\n".encode()]
    inferred = infer_shapes(samples)
    assert inferred.reason is None and all(check(inferred.shapes[0], s) is None for s in samples)
    assert describe(inferred.shapes[0]).startswith("n:int[1..size] / n*(str[")


def _pool(root: Path, name: str, inputs: list[str], eol: str = "\n", last_eol: str | None = None) -> Path:
    d = root / name
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(DIGITS)
    for i, text in enumerate(inputs, 1):
        (d / "tests" / f"{i}.in").write_bytes((text + (eol if last_eol is None else last_eol)).encode())
        (d / "tests" / f"{i}.out").write_bytes(f"{_digit_sum(text)}{eol}".encode())
    return root


def _options(**keys: object) -> ConstructOptions:
    """A small trace cap: the 200,000-digit input is over it, so the long input is synthesized."""
    return ConstructOptions(study="edges", max_trace=20_000, **keys)  # type: ignore[arg-type]


def test_construct_on_huge_integer_inputs_is_a_spec_or_a_reason(tmp_path):
    pool = _pool(tmp_path / "pool", "huge", ["12", "345", LARGE, HUGE, "7"])
    (problem,) = read_pool(pool)
    outcome = construct_problem(problem, tmp_path / "specs", _options())
    assert outcome.check != "internal", outcome.reason
    record = json.loads((tmp_path / "specs" / "huge" / "construct.json").read_text())
    if outcome.check is None:
        assert (tmp_path / "specs" / "huge" / "case.toml").is_file()
    else:
        assert outcome.reason
    shapes = record.get("synthesis", {}).get("shapes", [])
    assert shapes and shapes[0]["shape"].startswith("str[")  # the huge token was read as a word of digits


# ---------------------------------------------------------------- lone CR line ends


def test_as_served_makes_a_lone_cr_lf():
    assert as_served(b"12\r") == b"12\n"
    assert as_served(b"3\nab\ncd\r") == b"3\nab\ncd\n"  # LF lines, then a last one with CR alone
    assert as_served(b"3\r\nab\r\ncd\r") == b"3\nab\ncd\n"  # CRLF lines, then CR alone
    assert as_served(b"old\rmac\rfile\r") == b"old\nmac\nfile\n"
    assert as_served(b"a\r\r\n") == b"a\n\n"  # a CR, then a CRLF: two line ends
    for kept in (b"\xff\r", b"nul\x00\r", b"no cr\n"):
        assert as_served(kept) is kept


WORDS = ["12", "3456", "7" * 40, "1234567890" * 30]


@pytest.fixture(scope="module")
def lone_cr(tmp_path_factory):
    root = tmp_path_factory.mktemp("lone-cr")
    built = {}
    for label, eol, last in (("lf", "\n", None), ("cr", "\n", "\r")):
        pool = _pool(root / f"pool-{label}", "digits", WORDS, eol, last)
        (problem,) = read_pool(pool)
        out = root / f"specs-{label}"
        built[label] = (construct_problem(problem, out, _options(synthesize=False)), out / "digits")
    return built


def test_a_pool_whose_inputs_end_in_a_lone_cr_constructs_like_its_lf_twin(lone_cr):
    (lf, lf_dir), (cr, cr_dir) = lone_cr["lf"], lone_cr["cr"]
    assert lf.check is None and cr.check is None, (lf.reason, cr.reason)
    a, b = load_spec(lf_dir / "case.toml"), load_spec(cr_dir / "case.toml")
    assert (a.checkpoint.loop_text, a.checkpoint.variables) == (b.checkpoint.loop_text, b.checkpoint.variables)
    for arm in ("short_input", "long_input"):
        assert getattr(a, arm).file.read_bytes() == getattr(b, arm).file.read_bytes()
    assert dict(b.provenance) == {**a.provenance, "short_line_ends": "crlf-to-lf", "long_line_ends": "crlf-to-lf"}
    rows = json.loads((cr_dir / "construct.json").read_text())["inputs"]
    assert [r.get("line_ends") for r in rows] == ["crlf-to-lf"] * len(WORDS)


def test_keep_crlf_keeps_a_lone_cr_and_the_program_fails_on_it(tmp_path):
    pool = _pool(tmp_path / "pool", "digits", WORDS, "\n", "\r")
    (problem,) = read_pool(pool)
    outcome = construct_problem(problem, tmp_path / "specs", _options(synthesize=False, keep_crlf=True))
    assert outcome.check == "tests" and "invalid literal for int()" in (outcome.reason or "")


# ---------------------------------------------------------------- the sweep: other archive numbers


def test_a_pool_file_name_of_superscript_digits_sorts_without_error():
    assert natural_key("²") == ((1, "²"),)  # str.isdigit, but int() refuses it
    assert natural_key("t" + "9" * 5000) == ((1, "t"), (0, int("9" * 4000) * 10**1000 + int("9" * 1000)))


def _problem_toml(root: Path, text: str) -> Path:
    d = root / "p"
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text("print(input())\n")
    (d / "tests" / "1.in").write_text("1\n")
    (d / "problem.toml").write_text(text)
    return root


@pytest.mark.parametrize(
    ("toml", "key"),
    [
        ("[limits]\ntime_s = " + "9" * 5000 + "\n", None),  # tomllib's int() refuses it
        ("[limits]\ntime_s = " + "9" * 400 + "\n", "limits.time_s"),  # float() of it would overflow
        ("[limits]\ntime_s = nan\n", "limits.time_s"),
        ("[limits]\nmemory_mb = " + "9" * 400 + "\n", "limits.memory_mb"),
    ],
    ids=["5000-digit", "400-digit-time", "nan-time", "400-digit-memory"],
)
def test_a_problem_toml_with_an_absurd_number_is_a_spec_error(tmp_path, toml, key):
    with pytest.raises(SpecError) as caught:
        read_pool(_problem_toml(tmp_path, toml))
    assert caught.value.key == key and "Fix:" in str(caught.value)


def test_a_codecontests_time_limit_past_floats_range_is_left_out(tmp_path):
    record = cc_record("1A. Echo", [(PYTHON3, "print(input())\n")], public_tests=[("5\n", "5\n")])
    record["time_limit"] = {"seconds": int("9" * 400), "nanos": "x"}
    big = dict(record, name="1B. Echo", cf_rating=int("9" * 4000))  # json and toml convert 4,000 digits
    records = write_jsonl(tmp_path / "cc.jsonl", [record, big])
    report = import_codecontests(records, tmp_path / "pool", limits=Limits(wall_s=5, cpu_s=5, memory_mb=512), jobs=1)
    assert len(report.imported) == 2, report.skipped
    pool = {p.id: p for p in read_pool(tmp_path / "pool")}
    assert "time_limit_s" not in pool["1a_echo"].source
    assert pool["1b_echo"].source["cf_rating"] == int("9" * 4000)


def test_a_codecontests_record_with_a_5000_digit_number_is_skipped_with_a_reason(tmp_path):
    record = cc_record("1C. Echo", [(PYTHON3, "print(input())\n")], public_tests=[("5\n", "5\n")])
    text = json.dumps(record)[:-1] + ', "cf_rating": ' + "9" * 5000 + "}"
    records = tmp_path / "cc.jsonl"
    records.write_text(text + "\n")
    report = import_codecontests(records, tmp_path / "pool", limits=Limits(wall_s=5, cpu_s=5, memory_mb=512), jobs=1)
    assert report.imported == [] and report.skipped[0].kind == "invalid"
    assert "a JSON number too long to read" in report.skipped[0].reason and "4300 digits" in report.skipped[0].reason


def test_a_call_test_with_an_integer_too_long_for_the_driver_is_unsupported_with_the_reason():
    target = CallTarget("f", False, 1, 1)
    with pytest.raises(BadRecord) as caught:
        call_test("1", {"input": "9" * 5000, "output": "1"}, target)
    assert caught.value.kind == "unsupported" and "too long for the driver's json" in caught.value.reason
    with pytest.raises(BadRecord) as caught:
        call_test("2", {"input": "1", "output": "9" * 5000}, target)
    assert caught.value.kind == "unsupported" and "its output" in caught.value.reason
    with pytest.raises(BadRecord) as caught:
        call_test("3", {"input": "{", "output": "1"}, target)
    assert "is not a JSON value" in caught.value.reason


def test_livecodebench_test_cases_with_a_5000_digit_number_are_invalid_with_the_reason():
    with pytest.raises(BadRecord) as caught:
        _cases('[{"input": "1", "output": ' + "9" * 5000 + "}]", "public_test_cases")
    assert caught.value.kind == "invalid" and "public_test_cases" in caught.value.reason
    assert "a JSON number too long to read" in caught.value.reason  # not "neither JSON nor base64"
