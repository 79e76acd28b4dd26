"""The built-in studies' tasks are pinned: every task line's SHA-256 is in a golden file that a test reads.

A refactor of the builder, the spec reader or the studies' layout must leave every ``tasks.jsonl`` line
byte-identical (``source`` and ``source_sha256`` included). The golden file holds one hash per task of
every built-in study; the tests rebuild a sample of cases of each study (every study, in one batch: the
whole set takes minutes) and load CRUXEval whole, and compare line by line.

Regenerate (about 6 minutes on 2 cores; only after a change that is meant to alter tasks, and say so
in the commit and in docs/records.md)::

    python tests/studies/test_study_golden.py --regenerate [STUDY ...]

Naming studies rebuilds only those and keeps the others' hashes.

Metrics depend on the interpreter that measures them, so the Python studies are also pinned as built by
the other CPythons the project supports (``golden/study_tasks.py3.12.sha256.json``, ...); a test rebuilds
the sample with each interpreter that is installed. Regenerate one with::

    python tests/studies/test_study_golden.py --regenerate-with /path/to/python3.12 [STUDY ...]
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build
from execstate.studies import STUDIES, builtin_studies

GOLDEN = Path(__file__).with_name("golden") / "study_tasks.sha256.json"
SAMPLE = {
    # a few cases per study, chosen to cover each layout: classic folders holding their own files, a
    # networkx case that takes its id, program and checkpoint from study.toml, constructed specs naming
    # their pool's program and test inputs, a C++ spec naming its pool and one holding its header-inlined
    # program, and a pilot case ([invariant]) running a classic program through `sources`; 666_a does
    # `from sys import *` (sys.modules is its state: the probe may leave no module of its own there) and
    # has its loop body on its header's line
    "classic": ["bisection", "run_length"],
    "networkx": ["band0_seed23374"],
    "codecontests_py": ["445_b_dzy_loves_chemistry_1921", "103_b_cthulhu_4280", "666_a_reberland_linguistics_4325"],
    "library_cpp": ["zalgorithm", "shortest_path"],
    "pilot": ["decode_ways"],
    "pyperformance": ["fannkuch"],  # a benchmark program from the package, naming its pool's main.py (a quick one)
    "classic_cpp": ["kadane"],  # a C++ twin whose inputs come from its classic twin's gen.py (`sources`)
}


OTHER_PYTHONS = ("3.12", "3.13")
"""Interpreters besides the one running the tests whose builds are pinned (their own golden files)."""
PYTHON_STUDIES = ("classic", "networkx", "codecontests_py", "pilot", "pyperformance")
"""The studies whose tasks an interpreter decides (their metrics); C++ and imported studies do not depend on it."""
BUILT_BY = {"3.12": ("classic", "codecontests_py", "pyperformance"), "3.13": ("networkx", "pilot", "codecontests_py")}
"""The studies whose sample each other interpreter rebuilds here (together every one of ``PYTHON_STUDIES``, and
codecontests_py, the most varied programs, by both): each rebuild takes about 45 CPU seconds per interpreter for
the whole sample, so they share it. ``--regenerate-with`` still rebuilds every study's tasks."""


def _golden_of(minor: str) -> Path:
    return GOLDEN.with_name(f"study_tasks.py{minor}.sha256.json")


PYENV = Path("/root/.pyenv/versions")
"""Where these machines install the other CPythons (pyenv); ``python<minor>`` on PATH is tried too."""


def _interpreter(minor: str) -> str | None:
    """An installed ``python<minor>`` that really is that version, or None."""
    found = sorted(PYENV.glob(f"{minor}.*/bin/python{minor}")) if PYENV.is_dir() else []
    for path in [*map(str, found), shutil.which(f"python{minor}")]:
        if path is None:
            continue
        out = subprocess.run([path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True)
        if out.returncode == 0 and out.stdout.decode().strip() == minor:
            return path
    return None


def _digest(line: str) -> str:
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


def _golden() -> dict[str, dict[str, str]]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def _case_dirs(study: str, names: list[str]) -> list[Path]:
    cases_dir = STUDIES[study].cases_dir
    assert cases_dir is not None
    return [cases_dir / name for name in names]


def test_the_golden_file_covers_every_built_in_study():
    golden = _golden()
    assert sorted(golden) == builtin_studies()
    for study, hashes in golden.items():
        cases_dir = STUDIES[study].cases_dir
        if cases_dir is None:
            continue
        specs = sorted(cases_dir.rglob("case.toml"))
        case_names = {f"{study}/{p.parent.name}" for p in specs}
        assert {task_id.rsplit("/", 1)[0] for task_id in hashes} == case_names


def test_cruxeval_tasks_are_byte_identical_to_the_golden_file():
    tasks = STUDIES["cruxeval"].load_tasks()
    golden = _golden()["cruxeval"]
    assert {t.task_id: _digest(t.to_json_line()) for t in tasks} == golden


@pytest.mark.parametrize("study", sorted(SAMPLE))
def test_a_sample_of_each_built_study_is_byte_identical_to_the_golden_file(study, built_sample):
    golden = _golden()[study]
    mine = {t.task_id: _digest(t.to_json_line()) for t in built_sample if t.study == study}
    assert mine, f"no task of {study} was built"
    assert mine == {task_id: golden[task_id] for task_id in mine}


@pytest.fixture(scope="module")
def built_sample():
    result = build([d for study, cases in SAMPLE.items() for d in _case_dirs(study, cases)], jobs=2)
    assert result.exclusions == []
    return result.tasks


@pytest.mark.parametrize("minor", OTHER_PYTHONS)
def test_the_sample_built_by_another_cpython_is_byte_identical_to_its_golden_file(minor):
    python = _interpreter(minor)
    if python is None:
        pytest.skip(f"python{minor} is not installed")
    golden = json.loads(_golden_of(minor).read_text(encoding="utf-8"))
    assert set(PYTHON_STUDIES) == {study for studies in BUILT_BY.values() for study in studies}
    dirs = [d for study in BUILT_BY[minor] for d in _case_dirs(study, SAMPLE[study])]
    result = build(dirs, jobs=2, options=BuildOptions(python=python))
    assert result.exclusions == []
    mine = {t.task_id: _digest(t.to_json_line()) for t in result.tasks}
    assert len(mine) >= 4 * len(dirs)
    assert mine == {t.task_id: golden[t.study][t.task_id] for t in result.tasks}
    assert {t.meta["python"].rsplit(".", 1)[0] for t in result.tasks} == {minor}  # measured by that interpreter


def _regenerate(studies: list[str], python: str | None = None) -> None:
    target = GOLDEN if python is None else _golden_of(_minor(python))
    table: dict[str, dict[str, str]] = json.loads(target.read_text()) if studies and target.is_file() else {}
    choices = builtin_studies() if python is None else list(PYTHON_STUDIES)
    unknown = sorted(set(studies) - set(choices))
    if unknown:
        sys.exit(f"not studies this golden file pins: {', '.join(unknown)} (choose from {', '.join(choices)})")
    options = BuildOptions() if python is None else BuildOptions(python=python)
    for study in studies or choices:
        result = build([], studies=[study], jobs=2, options=options)
        assert result.exclusions == [], result.exclusions
        table[study] = {t.task_id: _digest(t.to_json_line()) for t in result.tasks}
        print(f"{study}: {len(result.tasks)} tasks", flush=True)
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


def _minor(python: str) -> str:
    out = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True)
    return out.stdout.decode().strip()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--regenerate"]:
        _regenerate(sys.argv[2:])
    elif sys.argv[1:2] == ["--regenerate-with"] and len(sys.argv) >= 3:
        _regenerate(sys.argv[3:], sys.argv[2])
    else:
        sys.exit(
            "usage: python tests/studies/test_study_golden.py --regenerate [STUDY ...]\n"
            "       python tests/studies/test_study_golden.py --regenerate-with PYTHON [STUDY ...]"
        )
