"""The pieces of the further arms: the spec keys, the Python trace copy and branch lines, the chosen line, the
marked program, and the ``integer`` rule and step marks of the grader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execstate.builder import load_spec
from execstate.builder._further import choose_line, imbalance, mark_line
from execstate.errors import SpecError
from execstate.grade._rules import answer_matches, correct_prefix, step_marks
from execstate.languages import BranchLine
from execstate.languages.python.branches import branch_lines
from execstate.languages.python.language import PythonLanguage
from execstate.records import ARMS

PROGRAM = """\
n = int(input())
total = 0
best = 0
for i in range(n):
    if i % 3 == 0:
        total += i
    elif i % 3 == 1:
        best = max(best, i)
    else:
        total -= 1
    if i > 100: total = 0
    if i == 2:
        pass
    j = 0
    while j < i:
        j += 2
        if j > 4:
            total += sum(x for x in range(j))
print(total, best)
"""


def _spec(tmp_path: Path, extra: str, checkpoint: str = "") -> Path:
    (tmp_path / "main.py").write_text(PROGRAM, encoding="utf-8")
    (tmp_path / "in.txt").write_text("10\n", encoding="utf-8")
    path = tmp_path / "case.toml"
    path.write_text(
        'id = "mine/c"\nstudy = "mine"\nlanguage = "python"\nprogram = "main.py"\n'
        'short_input = "in.txt"\nlong_input = "in.txt"\n'
        f'{extra}\n[checkpoint]\nloop = 4\nvariables = ["total"]\n{checkpoint}',
        encoding="utf-8",
    )
    return path


def test_the_arms_key_orders_and_validates(tmp_path: Path) -> None:
    assert load_spec(_spec(tmp_path, "")).arms == ARMS
    spec = load_spec(_spec(tmp_path, 'arms = ["line-count", "short-trace-final"]'))
    assert spec.arms == ("short-trace-final", "line-count")
    assert spec.checkpoint.trace_steps == 8
    for bad, words in (
        ('arms = ["loop-trace", "loop-trace"]', "listed twice"),
        ('arms = ["output"]', "unknown arm 'output'"),
        ("arms = []", "non-empty list"),
    ):
        with pytest.raises(SpecError, match=words):
            load_spec(_spec(tmp_path, bad))
    assert load_spec(_spec(tmp_path, "", "trace_steps = 3")).checkpoint.trace_steps == 3
    with pytest.raises(SpecError, match="trace_steps"):
        load_spec(_spec(tmp_path, "", "trace_steps = 1"))


def test_branch_lines_offer_only_plain_one_line_arms() -> None:
    assert branch_lines(PROGRAM, 4) == [
        BranchLine(6, 5, "then"),
        BranchLine(8, 7, "then"),
        BranchLine(10, 7, "else"),
    ]  # not line 11 (the arm shares the if's line), 13 (pass), 18 (a generator expression)
    assert branch_lines(PROGRAM, 15) == []


def test_the_trace_copy_keeps_each_runs_first_steps(tmp_path: Path) -> None:
    lang = PythonLanguage()
    copy = lang.trace_copy(PROGRAM, 15, ("j", "total"), 20, 3)
    res = lang.run(copy.source, b"10\n", tmp_path)
    assert res.ok
    # iterations of the while loop per run: i=1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4 (cumulative 16), 8: 4 -> 20 is
    # the fourth of i=8's run, so the list holds that run's first three states (j = 0, 2, 4)
    steps = json.loads(res.stdout)
    assert [s["j"] for s in steps] == [0, 2, 4]
    assert lang.run(lang.disabled(copy), b"10\n", tmp_path).stdout == lang.run(PROGRAM, b"10\n", tmp_path).stdout


def test_the_chosen_line_is_the_most_unbalanced_qualifying_one() -> None:
    offered = [BranchLine(6, 5, "then"), BranchLine(8, 7, "then"), BranchLine(10, 7, "else")]
    counts = {5: 10, 6: 4, 7: 6, 8: 3, 10: 3}
    assert choose_line(offered, counts, 10) == (offered[0], 4, 10)  # 0.2 beats 0.0 and 0.0
    assert choose_line(offered, {**counts, 6: 10}, 10) == (offered[1], 3, 6)  # always taken: not a branch here
    assert choose_line(offered, {**counts, 6: 0, 8: 3, 10: 3}, 10) == (offered[1], 3, 6)  # a tie: the first line
    assert choose_line(offered, {5: 4, 6: 4, 7: 0}, 4) is None
    assert imbalance(1, 1000) == 0.998


def test_the_marked_program_keeps_line_ends() -> None:
    crlf = "a = 1\r\nif a:\r\n    b = 2\r\nprint(a)"
    shown = mark_line(crlf, 3, "#")
    assert shown.startswith("a = 1\r\nif a:\r\n    b = 2  # <-- count this line\r\nprint(a)\r\n\r\n# Line count:")
    assert shown.endswith("Give that number as the output.\r\n")


def test_the_integer_rule_and_step_marks() -> None:
    assert answer_matches("integer", " +07 ", "7") and answer_matches("integer", "-0", "0")
    assert not any(answer_matches("integer", a, "7") for a in ("7.0", "7 times", '"7"', "", "0x7", "seven"))
    oracle = '[{"a":1},{"a":2},{"a":3},{"a":4}]\n'
    assert step_marks('[{"a":1},{"a":2},{"a":0},{"a":4}]', oracle) == "1101"
    assert step_marks('[{"a":1.0}]', oracle) == "1000"
    assert step_marks('{"a":1}', oracle) == "0000" and step_marks(None, oracle) == "0000"
    assert [correct_prefix(m) for m in ("1101", "0111", "1111", "")] == [2, 0, 4, 0]
