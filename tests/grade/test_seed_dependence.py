"""Grades that do not depend on the hash seed: every executed answer runs under each of ``GRADE_HASH_SEEDS``.

An answer is correct only if it is correct under every seed; when the verdicts differ it is wrong and its
reason says ``seed-dependent`` and names the seeds. Checked where execstate executes answers: the
``python-call`` rule through ``execstate.grade``, ``cruxeval-score`` (both tasks, both modes) and the
``program-input`` rule (a Python program under the eight seeds, a C++ program under its own three runs).

No test here relies on luck: the verdict each example gets under each seed is first found by running it
in a plain subprocess with that ``PYTHONHASHSEED`` (trusted code: CRUXEval's functions and our own answers),
and the flagged examples are asserted to differ across the seeds before the grader is asked about them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from execstate.builder import BuildOptions
from execstate.cli import main
from execstate.grade import GRADE_HASH_SEEDS, answer_matches, grade_all, grade_response
from execstate.grade import _program_input as program_input
from execstate.grade._seeds import SEED_NAMES, grading_variations, seed_dependence
from execstate.languages import Language, Variation, make_language
from execstate.languages.python import HASH_SEEDS
from execstate.records import PROGRAM_INPUT_ARM, Response, Task
from execstate.sandbox import SandboxResult
from execstate.studies.cruxeval import cruxeval_tasks, load_items

SET_ITEM, SET_ANSWER, LIST_ANSWER = "sample_30", "f({'a', 'b', 'c'})", "f(['a', 'b', 'c'])"
"""``f`` keeps the ASCII elements in iteration order; the output is ``['a', 'b', 'c']``: a set of the three
strings gives it only under the seeds that happen to iterate it in that order."""
TAGS_ITEM, TAGS_SET, TAGS_DICT = "sample_664", 'f({"3", "4"})', 'f({"3": "3", "4": "5"})'
"""``f`` joins the keys of ``tags`` (output ``'3 4 '``): a dict keeps its order, a set of strings does not (on
CPython 3.11 ``{"3", "4"}`` iterates as ``3 4`` only under ``PYTHONHASHSEED`` 5 and 6 of 0 to 7)."""

_CALL = """
import ast, json, sys
item, answer = json.loads(sys.stdin.read())
namespace = {}
exec(item["code"], namespace)
print(json.dumps(eval(answer, namespace) == ast.literal_eval(item["output"])))
"""


def _run(args: list[str], stdin: str, seed: int) -> str:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}  # not -I or -E: those ignore PYTHONHASHSEED
    done = subprocess.run(args, input=stdin, env=env, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


def call_verdicts(key: str, answer: str) -> list[bool]:
    """Whether ``answer`` (a call of ``f``) gives the item's output, under each of ``GRADE_HASH_SEEDS``."""
    item = load_items()[key]
    stdin = json.dumps([item, answer])
    return [json.loads(_run([sys.executable, "-c", _CALL], stdin, seed)) for seed in GRADE_HASH_SEEDS]


def expected_reason(verdicts: list[bool]) -> str:
    """The reason's fixed part, written out here rather than taken from the code under test."""
    assert len(verdicts) == len(GRADE_HASH_SEEDS)
    passed = ", ".join(str(s) for s, ok in zip(GRADE_HASH_SEEDS, verdicts) if ok)
    failed = ", ".join(str(s) for s, ok in zip(GRADE_HASH_SEEDS, verdicts) if not ok)
    return f"seed-dependent: correct under PYTHONHASHSEED {passed}; wrong under PYTHONHASHSEED {failed}"


def seed_dependent(verdicts: list[bool]) -> bool:
    return True in verdicts and False in verdicts


def test_grading_seeds_are_the_determinism_seeds_and_five_more() -> None:
    assert HASH_SEEDS == (0, 1, 2)  # the builder's determinism seeds
    assert GRADE_HASH_SEEDS == (0, 1, 2, 3, 4, 5, 6, 7)
    assert GRADE_HASH_SEEDS[: len(HASH_SEEDS)] == HASH_SEEDS  # a prefix: grading sees all the builder sees
    assert len(set(GRADE_HASH_SEEDS)) == len(GRADE_HASH_SEEDS)
    assert tuple(f"PYTHONHASHSEED={seed}" for seed in range(8)) == SEED_NAMES


def test_a_program_is_graded_under_the_eight_seeds_or_under_its_own_runs_when_they_take_no_seed() -> None:
    python = grading_variations(make_language("python", BuildOptions()).variations)
    assert [(v.seed, v.name) for v in python] == [(s, f"PYTHONHASHSEED={s}") for s in GRADE_HASH_SEEDS]
    cpp = make_language("cpp", BuildOptions()).variations
    assert grading_variations(cpp) == cpp and [v.name for v in cpp] == ["run 1 of 3", "run 2 of 3", "run 3 of 3"]


def test_the_reason_names_the_seeds_under_which_the_answer_passed_and_failed() -> None:
    eight = [False] * 8
    assert seed_dependence([True, False, *eight[2:]], SEED_NAMES) == (
        "seed-dependent: correct under PYTHONHASHSEED 0; wrong under PYTHONHASHSEED 1, 2, 3, 4, 5, 6, 7"
    )
    assert seed_dependence([*eight[:5], True, True, False], SEED_NAMES, "f returned 1") == (
        "seed-dependent: correct under PYTHONHASHSEED 5, 6; wrong under PYTHONHASHSEED 0, 1, 2, 3, 4, 7 "
        "(PYTHONHASHSEED=0: f returned 1)"
    )
    assert seed_dependence([True] * 8, SEED_NAMES) is None and seed_dependence(eight, SEED_NAMES) is None
    with pytest.raises(ValueError, match="3 verdicts for 8 runs"):
        seed_dependence([True, False, True], SEED_NAMES)
    runs = ["run 1 of 3", "run 2 of 3", "run 3 of 3"]  # a language whose runs take no seed (C++)
    assert seed_dependence([False, True, True], runs) == (
        "seed-dependent: correct under run 2 of 3, run 3 of 3; wrong under run 1 of 3"
    )


def _input_tasks(*keys: str) -> dict[str, Task]:
    return {
        t.meta["cruxeval_id"]: t
        for t in cruxeval_tasks()
        if t.arm == "function-input" and t.meta["cruxeval_id"] in keys
    }


def _response(task: Task, answer: str, setting: str) -> Response:
    return Response(task_id=task.task_id, setting=setting, status="completed", text=json.dumps({"output": answer}))


def test_python_call_grades_a_set_of_strings_wrong_and_seed_dependent() -> None:
    verdicts = call_verdicts(SET_ITEM, SET_ANSWER)
    assert seed_dependent(verdicts), f"the example must differ across the seeds: {verdicts}"
    assert call_verdicts(SET_ITEM, LIST_ANSWER) == [True] * len(GRADE_HASH_SEEDS)
    task = _input_tasks(SET_ITEM)[SET_ITEM]
    responses = [_response(task, SET_ANSWER, "set"), _response(task, LIST_ANSWER, "list")]
    grades = {g.setting: g for g in grade_all([task], responses)}
    flagged = grades["set"]
    assert flagged.status == "wrong-valid"
    assert (flagged.reason or "").startswith(expected_reason(verdicts) + " (PYTHONHASHSEED=")
    assert "f returned [" in (flagged.reason or "")
    assert grades["list"].status == "correct-valid" and grades["list"].reason is None
    assert grade_response(task, responses[0]) == flagged  # one response graded alone runs every seed too


def test_the_tags_set_answer_is_flagged_seed_dependent_though_the_determinism_seeds_alone_miss_it() -> None:
    """sample_664, the example for eight seeds: ``f({"3", "4"})`` gives ``'3 4 '`` under some seeds and
    ``'4 3 '`` under others, so it is wrong and flagged, its reason naming the seeds under which it passed (on
    CPython 3.11: 5 and 6). The determinism seeds 0, 1 and 2 alone agree on it (all wrong), so graded under
    them only it would be plainly wrong, the luck unseen. The dict answer is right under every seed."""
    verdicts = call_verdicts(TAGS_ITEM, TAGS_SET)
    assert seed_dependent(verdicts), f"the example must differ across the grading seeds: {verdicts}"
    assert not seed_dependent(verdicts[: len(HASH_SEEDS)]), f"the determinism seeds alone must miss it: {verdicts}"
    assert call_verdicts(TAGS_ITEM, TAGS_DICT) == [True] * len(GRADE_HASH_SEEDS)
    task = _input_tasks(TAGS_ITEM)[TAGS_ITEM]
    responses = [_response(task, TAGS_SET, "set"), _response(task, TAGS_DICT, "dict")]
    grades = {g.setting: g for g in grade_all([task], responses)}
    flagged = grades["set"]
    assert flagged.status == "wrong-valid"
    passed = [str(seed) for seed, ok in zip(GRADE_HASH_SEEDS, verdicts) if ok]
    assert f"correct under PYTHONHASHSEED {', '.join(passed)};" in (flagged.reason or "")
    assert flagged.reason == expected_reason(verdicts) + " (PYTHONHASHSEED=0: f returned '4 3 ')"
    assert grades["dict"].status == "correct-valid" and grades["dict"].reason is None
    assert grade_response(task, responses[0]) == flagged


def _write(tmp_path: Path, generations: dict[str, list[str]]) -> tuple[Path, Path]:
    items = load_items()
    data = tmp_path / "items.jsonl"
    data.write_text("".join(json.dumps(items[key]) + "\n" for key in generations), encoding="utf-8")
    path = tmp_path / "generations.json"
    path.write_text(json.dumps(generations), encoding="utf-8")
    return path, data


@pytest.mark.parametrize("mode", ["literal", "upstream"])
def test_cruxeval_score_input_reports_the_seed_dependent_generations(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both set generations are flagged, sample_664's included (wrong under the determinism seeds alone)."""
    for key, answer in ((SET_ITEM, SET_ANSWER), (TAGS_ITEM, TAGS_SET)):
        verdicts = call_verdicts(key, answer)
        assert seed_dependent(verdicts), f"{key}: the example must differ across the seeds: {verdicts}"
    path, data = _write(tmp_path, {SET_ITEM: [LIST_ANSWER, SET_ANSWER], TAGS_ITEM: [TAGS_DICT, TAGS_SET]})
    out = tmp_path / "scored.json"
    argv = ["cruxeval-score", str(path), "--task", "input", "--mode", mode, "--data", str(data), "--out", str(out)]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    flagged = [[SET_ITEM, 1], [TAGS_ITEM, 1]]
    assert report["seed_dependent"] == 2 and report["seed_dependent_generations"] == flagged
    scored = json.loads(out.read_text(encoding="utf-8"))["raw_scored_generations"]
    assert scored == {SET_ITEM: [True, False], TAGS_ITEM: [True, False]}
    assert report["pass_at_1"] == 50.0


@pytest.mark.parametrize("mode", ["literal", "upstream"])
def test_cruxeval_score_input_flags_the_tags_set_generation(
    mode: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A one-item input-generations file: sample_664's ``f({"3", "4"})`` alone, listed as seed-dependent."""
    verdicts = call_verdicts(TAGS_ITEM, TAGS_SET)
    assert seed_dependent(verdicts), f"the example must differ across the seeds: {verdicts}"
    path, data = _write(tmp_path, {TAGS_ITEM: [TAGS_SET]})
    assert main(["cruxeval-score", str(path), "--task", "input", "--mode", mode, "--data", str(data)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["seed_dependent"] == 1 and report["seed_dependent_generations"] == [[TAGS_ITEM, 0]]
    assert report["pass_at_1"] == 0.0


@pytest.mark.parametrize("mode,flagged", [("literal", False), ("upstream", True)])
def test_cruxeval_score_output_reports_them_where_it_executes(
    mode: str, flagged: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An output generation built from a set of strings: ``--mode upstream`` executes it (under each seed) and
    flags it; ``--mode literal`` executes nothing, so it is simply not a literal, and no generation is flagged."""
    generation = "list({'a', 'b', 'c'})"
    verdicts = call_verdicts(SET_ITEM, generation)  # the same order as f's: f keeps the elements as they come
    assert seed_dependent(verdicts), f"the example must differ across the seeds: {verdicts}"
    path, data = _write(tmp_path, {SET_ITEM: [generation, "['a', 'b', 'c']"]})
    assert main(["cruxeval-score", str(path), "--mode", mode, "--data", str(data)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["seed_dependent"] == int(flagged)
    assert report["seed_dependent_generations"] == ([[SET_ITEM, 0]] if flagged else [])
    assert report["pass_at_1"] == 50.0  # the set generation is wrong in both modes, the literal right
    if flagged:
        assert report["outcomes"]["failed"] == 1 and report["outcomes"]["passed"] == 1


# --- program-input: the task's program run on the answered stdin under each seed -----------------------------

PROGRAM = """\
line = input()
if line.startswith("="):
    print(line[1:])
else:
    print(" ".join(set(line.split())))
"""
"""Prints the words of its input in set order, or (after ``=``) as given."""
OUTPUT = "a b c\n"


def _program_task() -> Task:
    """A Python task of rule ``program-input`` asking for an input on which ``PROGRAM`` prints ``OUTPUT`` (made
    from a CRUXEval task's record, validated again)."""
    base = _input_tasks(SET_ITEM)[SET_ITEM].model_dump()
    meta = {"output": OUTPUT, "output_rule": "json-or-tokens"}
    fields = {"task_id": "mine/seeds/short-trace-input", "case_id": "mine/seeds", "arm": PROGRAM_INPUT_ARM}
    fields |= {"source": PROGRAM, "oracle": "=a b c\n", "grading_rule": "program-input", "meta": meta}
    return Task.model_validate(base | fields)


def program_verdicts(stdin: str) -> list[bool]:
    """Whether the program prints ``OUTPUT``'s tokens on ``stdin``, under each of ``GRADE_HASH_SEEDS``."""
    return [_run([sys.executable, "-c", PROGRAM], stdin, seed).split() == OUTPUT.split() for seed in GRADE_HASH_SEEDS]


def test_program_input_grades_an_input_whose_output_follows_set_order_as_seed_dependent() -> None:
    verdicts = program_verdicts("a b c\n")
    assert seed_dependent(verdicts), f"the example must differ across the seeds: {verdicts}"
    assert program_verdicts("=a b c\n") == [True] * len(GRADE_HASH_SEEDS)
    task = _program_task()
    answers = {"set order": "a b c\n", "as given": "=a b c\n", "too few": "=a b\n"}
    grades = {g.setting: g for g in grade_all([task], [_response(task, a, name) for name, a in answers.items()])}
    flagged = grades["set order"]
    assert flagged.status == "wrong-valid"
    assert (flagged.reason or "").startswith(expected_reason(verdicts) + " (PYTHONHASHSEED=")
    assert "the program prints" in (flagged.reason or "")
    assert grades["as given"].status == "correct-valid" and grades["as given"].reason is None
    assert grades["too few"].status == "wrong-valid"
    assert grades["too few"].reason == "the program prints 'a b\\n' on this input"  # wrong under every seed: no flag


def test_the_subprocess_check_sees_the_seed() -> None:
    """The helpers above can tell seeds apart at all (else every precondition would be vacuous)."""
    hashes = {_run([sys.executable, "-c", "print(hash('a'))"], "", seed) for seed in GRADE_HASH_SEEDS}
    assert len(hashes) == len(GRADE_HASH_SEEDS)


CPP_PROGRAM = """\
#include <iostream>
#include <string>
int main() {
    std::string line;
    std::getline(std::cin, line);
    std::cout << line.substr(line.rfind('=') + 1) << std::endl;
    return 0;
}
"""
"""Prints its input's first line after its last ``=``: a C++ program whose runs take no seed."""


class _SpiedLanguage:
    """A language adapter that records the seed of every run it is asked for, and runs it."""

    def __init__(self, language: Language) -> None:
        self.language = language
        self.seeds: list[int] = []

    @property
    def variations(self) -> tuple[Variation, ...]:
        return self.language.variations

    def run(self, source: str, stdin: bytes, workdir: Path, *, seed: int = 0) -> SandboxResult:
        self.seeds.append(seed)
        return self.language.run(source, stdin, workdir, seed=seed)


@pytest.mark.parametrize("language", ["python", "cpp"])
def test_program_input_runs_python_under_the_eight_seeds_and_cpp_under_its_own_three_runs(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if language == "cpp" and shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    spied: list[_SpiedLanguage] = []

    def make(name: str, options: BuildOptions) -> _SpiedLanguage:
        spied.append(_SpiedLanguage(make_language(name, options)))
        return spied[-1]

    monkeypatch.setattr(program_input, "make_language", make)
    task = _program_task()
    if language == "cpp":
        task = Task.model_validate(task.model_dump() | {"language": "cpp", "source": CPP_PROGRAM})
    [verdict] = program_input.check_program_inputs([(task, "=a b c\n")], answer_matches)
    assert verdict.correct and verdict.reason is None
    [lang] = spied
    assert lang.seeds == (list(GRADE_HASH_SEEDS) if language == "python" else [0, 1, 2])
