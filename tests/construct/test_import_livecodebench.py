"""LiveCodeBench records -> a pool: stdin problems, compressed private tests, a pickle naming a global refused."""

from __future__ import annotations

import json
import os
import pickle
import tomllib

import pytest
from dataset_shapes import SUM_PY, compress, compressed_tests, lcb_record, lcb_tests
from hypothesis import given, settings
from hypothesis import strategies as st

from execstate.construct import import_livecodebench, read_pool, unpickle_plain
from execstate.construct._livecodebench import RefusedGlobal, decode_test_cases
from execstate.construct._sources import BadRecord
from execstate.errors import RecordError, UsageError

PUBLIC = lcb_tests([("1 2\n", "3\n")])
PRIVATE = lcb_tests([("-5 2\n", "-3\n"), ("7 8\n", "15\n")])


class _System:
    """Pickles as a call of os.system (a STACK_GLOBAL opcode, protocol 4)."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def _global_pickles(canary) -> list[bytes]:
    command = f"touch {canary}"
    protocol0 = b"cos\nsystem\n(" + pickle.dumps(command, protocol=0)[:-1] + b"tR."  # GLOBAL + REDUCE
    return [protocol0, pickle.dumps(_System(command), protocol=4)]


@pytest.fixture()
def files(tmp_path):
    canary = tmp_path / "canary"
    records = [
        lcb_record("abc301_a", "hard", PUBLIC, compressed_tests(PRIVATE)),
        lcb_record("abc301_b", "hard", PUBLIC, PRIVATE),  # private tests as plain JSON
        lcb_record("abc301_c", "easy", PUBLIC, PRIVATE),
        lcb_record("2844", "hard", lcb_tests([("[1,2]", "3")], "functional"), []),  # no func_name in its metadata
        lcb_record("abc301_e", "hard", PUBLIC, compress(_global_pickles(canary)[0])),
        lcb_record("abc301_f", "hard", PUBLIC, compress(_global_pickles(canary)[1])),
        lcb_record("abc301_g", "hard", PUBLIC, "not json and not base64!"),
        lcb_record("abc301_h", "hard", PUBLIC, compress(pickle.dumps(["a list, not a JSON string"]))),
        lcb_record("abc301_i", "hard", PUBLIC, PRIVATE),  # no entry in the solutions file
        lcb_record("abc301_j", "hard", PUBLIC, PRIVATE),  # no code graded true
        {**lcb_record("abc301_k", "hard", PUBLIC, PRIVATE), "difficulty": None},
    ]
    lines = [json.dumps(r) for r in records]
    lines.insert(3, '{"question_id": "abc301_d", "public_test_cases": "[{\\"inp')  # corrupted line
    (tmp_path / "lcb.jsonl").write_text("\n".join(lines) + "\n")
    ids = [r["question_id"] for r in records if r["question_id"] != "abc301_i"]
    solutions = [
        {"question_id": q, "question_title": "t", "code_list": ["print(0)\n", SUM_PY], "graded_list": [False, True]}
        for q in ids
    ]
    solutions[ids.index("abc301_j")]["graded_list"] = [False, False]
    solutions += [{"question_id": "abc301_a", "code_list": ["print(1)"], "graded_list": [True]}, ["not an object"]]
    (tmp_path / "solutions.json").write_text(json.dumps(solutions))
    return tmp_path, canary


def test_stdin_problems_of_the_difficulty_are_imported_with_every_test(files):
    root, _ = files
    report = import_livecodebench(root / "lcb.jsonl", root / "solutions.json", root / "pool", difficulty="hard")
    assert [i.id for i in report.imported] == ["abc301_a", "abc301_b"]
    assert (
        report.imported[0].detail.startswith("code 1 of ")
        and "1 public and 2 private tests" in report.imported[0].detail
    )
    a, b = read_pool(root / "pool")
    assert a.program.read_text() == SUM_PY  # the first code whose grade is true
    assert [(t.name, t.input.read_bytes(), t.output.read_bytes()) for t in a.tests] == [
        ("private-1", b"-5 2\n", b"-3\n"), ("private-2", b"7 8\n", b"15\n"), ("public-1", b"1 2\n", b"3\n"),
    ]  # fmt: skip
    assert [t.input.read_bytes() for t in b.tests] == [t.input.read_bytes() for t in a.tests]
    assert (a.language, a.study, a.rule) == ("python", "lcb_python", "json-or-tokens")
    toml = tomllib.loads((a.dir / "problem.toml").read_text())
    assert toml["source"] | {"solutions": "-"} == {
        "dataset": "livecodebench", "question_id": "abc301_a", "platform": "atcoder", "difficulty": "hard",
        "contest_id": "abc300", "contest_date": "2023-04-29T00:00:00", "solutions": "-", "code_index": 1,
    }  # fmt: skip


def test_every_other_record_has_a_reason_and_no_global_is_ever_called(files):
    root, canary = files
    report = import_livecodebench(root / "lcb.jsonl", root / "solutions.json", root / "pool", difficulty="hard")
    assert not canary.exists()
    by_id = {s.id: (s.kind, s.reason) for s in report.skipped}
    assert by_id["abc301_c"] == ("filtered", "difficulty 'easy', not 'hard'")
    assert by_id["2844"] == ("unsupported", "a function-call problem whose metadata names no func_name: the call is unknown")  # fmt: skip
    for qid in ("abc301_e", "abc301_f"):
        kind, reason = by_id[qid]
        assert kind == "refused" and "the pickle names the global" in reason and "system" in reason, reason
    assert by_id["abc301_g"][0] == "invalid" and "neither JSON nor base64 of zlib of a pickle" in by_id["abc301_g"][1]
    assert by_id["abc301_h"] == ("invalid", "field 'private_test_cases': the pickle holds a list, not a JSON string")
    assert by_id["abc301_i"] == ("no-solution", "the solutions file has no entry for it")
    assert by_id["abc301_j"][0] == "no-solution" and "no code with grade true among 2" in by_id["abc301_j"][1]
    unnamed = {s.record.rsplit(":", 1)[-1]: (s.kind, s.reason) for s in report.skipped if s.id is None}
    assert unnamed["4"][0] == "invalid" and "not valid JSON" in unnamed["4"][1]
    assert unnamed["12"] == ("invalid", "field 'difficulty': expected a non-empty string, got None")
    entries = [s for s in report.skipped if "solutions.json[" in s.record]
    assert [(s.kind, s.id) for s in entries] == [("duplicate", "abc301_a"), ("invalid", None)]
    assert len(report.skipped) == 9 + 1 + 2  # nine records, the corrupted line, two solutions-file entries
    assert json.loads(report.path.read_text())["skipped"] == [s.model_dump(mode="json") for s in report.skipped]


def test_without_a_difficulty_every_stdin_problem_and_cpp_code(files):
    root, _ = files
    report = import_livecodebench(
        root / "lcb.jsonl", root / "solutions.json", root / "pool", language="cpp", study="lcb_cpp", limit=3
    )
    assert [i.id for i in report.imported] == ["abc301_a", "abc301_b", "abc301_c"]
    assert {(p.language, p.program.name, p.study) for p in read_pool(root / "pool")} == {("cpp", "main.cpp", "lcb_cpp")}


def test_a_global_is_refused_without_being_looked_up(tmp_path):
    canary = tmp_path / "canary"
    for data in _global_pickles(canary):
        with pytest.raises(RefusedGlobal, match=r"(os|posix)\.system"):
            unpickle_plain(data)
        with pytest.raises(BadRecord) as info:
            decode_test_cases(compress(data), "private_test_cases")
        assert info.value.kind == "refused"
    assert not canary.exists()
    assert pickle.loads(_global_pickles(canary)[0]) == 0 and canary.exists()  # the pickles really do run it


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=30), st.text(max_size=30)), max_size=5), st.integers(0, 5))
def test_compressed_private_tests_decode_to_the_same_tests(pairs, protocol):
    tests = lcb_tests(pairs)
    encoded = compress(pickle.dumps(json.dumps(tests), protocol=protocol))
    decoded = decode_test_cases(encoded, "private_test_cases")
    assert decoded == decode_test_cases(json.dumps(tests), "private_test_cases")
    assert [(t.input.decode(), t.output.decode()) for t in decoded] == pairs


def test_a_bad_solutions_file_or_option_fails_before_anything_is_written(files):
    root, _ = files
    (root / "bad.json").write_text('{"question_id": "x"}')
    with pytest.raises(RecordError, match="expected a JSON list"):
        import_livecodebench(root / "lcb.jsonl", root / "bad.json", root / "pool")
    with pytest.raises(UsageError, match="difficulty 'extreme' is unknown"):
        import_livecodebench(root / "lcb.jsonl", root / "solutions.json", root / "pool", difficulty="extreme")
    assert not (root / "pool").exists()
