"""LeetCode-style problems end to end: imported from LiveCodeBench records, constructed, built, oracles checked.

The 13 problems in ``lcb_calls/`` (``make.py`` writes them) are imported with
their driver, constructed and built; every final oracle is its test's expected
value as canonical JSON, and no checkpoint is ever in the driver.
"""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from pathlib import Path

import pytest
from lcb_calls.make import files

from execstate.builder import build, load_spec
from execstate.construct import ConstructOptions, construct, construct_problem, import_livecodebench, read_pool
from execstate.construct._driver import DRIVER_LOOP, DRIVER_MARKER, canonical_json, driver, driver_start

FIXTURES = Path(__file__).parent / "lcb_calls"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("calls")
    report = import_livecodebench(FIXTURES / "records.jsonl", FIXTURES / "solutions.json", root / "pool")
    result = construct(read_pool(root / "pool"), root / "specs", ConstructOptions(), jobs=2)
    done = build([root / "specs"], jobs=2)
    return root, report, result, done


def _records() -> dict[str, dict]:
    return {r["question_id"]: r for r in map(json.loads, (FIXTURES / "records.jsonl").read_text().splitlines())}


def test_the_fixture_files_are_what_make_writes():
    for name, text in files().items():
        assert (FIXTURES / name).read_text(encoding="utf-8") == text, f"regenerate: python {FIXTURES / 'make.py'}"


def test_every_problem_is_imported_constructed_and_built(built):
    _, report, result, done = built
    assert [i.id for i in report.imported] == sorted(_records()) and not report.skipped
    assert [o.problem for o in result.written] == sorted(_records()), [(o.problem, o.reason) for o in result.rejected]
    assert not done.exclusions
    assert len(done.tasks) == 4 * len(_records())


def test_every_final_oracle_is_the_tests_expected_value(built):
    root, _, _, done = built
    records = _records()
    finals = [t for t in done.tasks if t.arm.endswith("-trace-final")]
    assert len(finals) == 2 * len(records)
    for task in finals:
        problem = task.case_id.split("/")[1]
        chosen = json.loads((root / "specs" / problem / "construct.json").read_text())
        test = chosen["short" if task.arm.startswith("short") else "long"]  # tests/<kind>-<n>.in
        kind, n = Path(test).stem.split("-")
        expected = json.loads(_cases(records[problem], kind)[int(n) - 1]["output"])
        assert task.oracle == canonical_json(expected) + "\n", (task.task_id, task.oracle)
        assert task.input == (root / "pool" / problem / test).read_text()


def _cases(record: dict, kind: str) -> list[dict]:
    text = record[f"{kind}_test_cases"]
    if not text.startswith("["):
        text = pickle.loads(zlib.decompress(base64.b64decode(text)))  # our own fixture: safe to unpickle
    return json.loads(text)


def test_every_arm_shows_the_driver_and_no_checkpoint_is_in_it(built):
    root, _, _, done = built
    for task in done.tasks:
        assert DRIVER_MARKER in task.source and "(*args)" in task.source, task.task_id
    for spec_dir in sorted(p for p in (root / "specs").iterdir() if p.is_dir()):
        spec = load_spec(spec_dir / "case.toml")
        program = spec.program.read_text()  # the pool's driven program, which the spec names
        start = driver_start(program)
        assert start is not None and program.endswith(driver(_call(program)))
        chosen = next(
            row for row in json.loads((spec_dir / "construct.json").read_text())["loops"] if row.get("chosen")
        )
        assert chosen["line"] < start, spec.id


def _call(source: str) -> str:
    return source.split("    result = ", 1)[1].split("(*args)", 1)[0]


DRIVEN_WITH_A_LOOP = """def total(nums):
    s = 0
    for x in nums:
        s += x
    return s


MARKER
import json
import sys

args = [json.loads(line) for line in sys.stdin.read().split("\\n") if line.strip()]
spin = 0
for _ in range(50 * len(args[0])):
    spin += 1
print(json.dumps(total(*args)))
""".replace("MARKER", DRIVER_MARKER)
"""A hand-made driver whose loop runs 50 times as often as the solution's."""


def test_a_loop_in_the_driver_is_never_the_checkpoint_even_when_it_runs_most(tmp_path):
    problem = tmp_path / "pool" / "total"
    (problem / "tests").mkdir(parents=True)
    (problem / "main.py").write_text(DRIVEN_WITH_A_LOOP)
    for n in (2, 40):
        (problem / "tests" / f"{n}.in").write_text(json.dumps(list(range(n))) + "\n")
        (problem / "tests" / f"{n}.out").write_text(f"{sum(range(n))}\n")
    [read] = read_pool(tmp_path / "pool")
    outcome = construct_problem(read, tmp_path / "specs", ConstructOptions(study="mine"))
    assert outcome.check is None, outcome.reason
    loops = {row["line"]: row for row in outcome.record["loops"]}
    driver_loop = DRIVEN_WITH_A_LOOP.split("\n").index("for _ in range(50 * len(args[0])):") + 1
    assert loops[driver_loop]["rejected"] == DRIVER_LOOP and "iterations" not in loops[driver_loop]
    assert loops[3].get("chosen") and load_spec(tmp_path / "specs" / "total" / "case.toml").checkpoint.loop_text == (
        "for x in nums:"
    )
