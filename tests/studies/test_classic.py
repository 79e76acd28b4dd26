"""The classic study's thirty programs: layout, correctness, loop bounds and complexity.

Every program runs in a subprocess on its generated short and long inputs and
its stdout is compared with an independent reference (``_classic_reference``).
A test-side probe (``_classic_probe``, independent of the builder) checks the
properties the case specs promise: the short input runs the selected loop
3-10 times, the long one 200-2000 times, and the projected variables are
bound before the loop, JSON-representable and not all unchanged between the
inside and post checkpoints.
"""

from __future__ import annotations

import ast
import json
import os
import statistics
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from _classic_probe import checkpoints, cyclomatic, find_loop, is_finite_json
from _classic_reference import REFERENCE

from execstate.studies.classic import AREAS, CASES_DIR, case_dirs

NAMES = [path.name for path in case_dirs()]
SPEC_KEYS = {"id", "study", "language", "program", "short_input", "long_input", "grading_rule", "checkpoint"}
CHECKPOINT_KEYS = {"loop", "loop_text", "variables", "inside_iteration"}


@cache
def spec(name: str) -> dict[str, Any]:
    """The parsed case.toml of case ``name``."""
    return tomllib.loads((CASES_DIR / name / "case.toml").read_text())


@cache
def generated(name: str, which: str) -> str:
    """The input that case ``name``'s generator prints for ``which`` (short_input/long_input)."""
    gen = spec(name)[which]
    done = subprocess.run(
        [sys.executable, gen["generator"], *gen["args"]],
        cwd=CASES_DIR / name,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def run_program(name: str, stdin: str, hash_seed: str = "0") -> str:
    """Run case ``name``'s clean program on ``stdin`` and return its stdout (exit 0 required)."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    done = subprocess.run(
        [sys.executable, "main.py"],
        cwd=CASES_DIR / name,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert done.returncode == 0, f"{name} exited {done.returncode}: {done.stderr[-1500:]}"
    return done.stdout


def test_thirty_cases_in_seven_areas() -> None:
    assert len(NAMES) == 30
    assert sorted(AREAS) == NAMES, "AREAS must name exactly the case directories"
    per_area = {area: sum(1 for a in AREAS.values() if a == area) for area in set(AREAS.values())}
    assert len(per_area) == 7
    assert min(per_area.values()) >= 3, per_area


@pytest.mark.parametrize("name", NAMES)
def test_case_spec_shape(name: str) -> None:
    data = spec(name)
    assert set(data) <= SPEC_KEYS, f"unknown keys {set(data) - SPEC_KEYS}"
    assert data["id"] == f"classic/{name}"
    assert (data["study"], data["language"], data["program"]) == ("classic", "python", "main.py")
    for which in ("short_input", "long_input"):
        gen = data[which]
        assert (CASES_DIR / name / gen["generator"]).is_file()
        assert all(isinstance(arg, str) for arg in gen["args"])
    checkpoint = data["checkpoint"]
    assert set(checkpoint) <= CHECKPOINT_KEYS
    assert "loop_text" in checkpoint and "loop" not in checkpoint
    variables = checkpoint["variables"]
    assert 1 <= len(variables) <= 3 and len(set(variables)) == len(variables)


@pytest.mark.parametrize("name", NAMES)
def test_generator_is_deterministic(name: str) -> None:
    for which in ("short_input", "long_input"):
        gen = spec(name)[which]
        again = subprocess.run(
            [sys.executable, gen["generator"], *gen["args"]],
            cwd=CASES_DIR / name,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
        assert again == generated(name, which)
    assert len(generated(name, "short_input")) < len(generated(name, "long_input"))


@pytest.mark.parametrize("which", ["short_input", "long_input"])
@pytest.mark.parametrize("name", NAMES)
def test_output_matches_reference(name: str, which: str) -> None:
    stdin = generated(name, which)
    REFERENCE[name](stdin, run_program(name, stdin))


@pytest.mark.parametrize("name", NAMES)
def test_output_ignores_hash_seed(name: str) -> None:
    stdin = generated(name, "long_input")
    assert run_program(name, stdin, hash_seed="1") == run_program(name, stdin, hash_seed="2")


def names_bound_before(source: str, loop_text: str) -> set[str]:
    """Names a projection may use: parameters, names assigned before the loop, and the loop target."""
    tree = ast.parse(source)
    loop = find_loop(source, loop_text)
    scope: ast.AST = tree
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.lineno < loop.lineno <= (node.end_lineno or 0):
            scope = node  # innermost wins: ast.walk visits outer functions first
    names = {arg.arg for arg in scope.args.args} if isinstance(scope, ast.FunctionDef) else set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.lineno < loop.lineno:
            names.add(node.id)
    if isinstance(loop, ast.For):
        names |= {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    return names


@pytest.mark.parametrize("name", NAMES)
def test_projection_bound_before_loop(name: str) -> None:
    checkpoint = spec(name)["checkpoint"]
    source = (CASES_DIR / name / "main.py").read_text()
    missing = set(checkpoint["variables"]) - names_bound_before(source, checkpoint["loop_text"])
    assert not missing, f"{name}: {missing} not bound before the loop starts"


def json_type(value: Any) -> str:
    """The JSON type name of a decoded value (ints and floats are both numbers)."""
    if value is None or isinstance(value, bool):
        return repr(value) if value is None else "bool"
    for kind, name in ((int, "number"), (float, "number"), (str, "string"), (list, "array"), (dict, "object")):
        if isinstance(value, kind):
            return name
    raise TypeError(type(value))


@pytest.mark.parametrize("name", NAMES)
def test_loop_bounds_and_checkpoints(name: str) -> None:
    checkpoint = spec(name)["checkpoint"]
    program = CASES_DIR / name / "main.py"
    args = (program, checkpoint["loop_text"], checkpoint["variables"])
    short = checkpoints(*args, generated(name, "short_input"), checkpoint.get("inside_iteration", 0))
    assert 3 <= short.count <= 10, f"short input runs the loop {short.count} times"
    long = checkpoints(*args, generated(name, "long_input"), checkpoint.get("inside_iteration", 0))
    assert 200 <= long.count <= 2000, f"long input runs the loop {long.count} times"
    assert long.inside is not None and long.post is not None, "a checkpoint did not fire"
    assert list(long.inside) == list(long.post) == checkpoint["variables"]
    for snapshot in (long.inside, long.post):
        assert all(is_finite_json(value) for value in snapshot.values()), snapshot
    assert list(map(json_type, long.inside.values())) == list(map(json_type, long.post.values()))
    assert long.inside != long.post, "no projected variable changes between the checkpoints"


def test_cyclomatic_spread() -> None:
    values = {name: cyclomatic((CASES_DIR / name / "main.py").read_text()) for name in NAMES}
    assert all(5 <= v <= 13 for v in values.values()), values
    assert 7 <= statistics.median(values.values()) <= 8, values


def test_probe_counts_a_known_loop(tmp_path: Path) -> None:
    program = tmp_path / "main.py"
    program.write_text("total = 0\nfor x in range(int(input())):\n    total += x\nprint(total)\n")
    result = checkpoints(program, "for x in range(int(input())):", ["total", "x"], "6\n")
    assert (result.count, result.stdout) == (6, "15\n")
    assert result.inside == {"total": 3, "x": 3}  # top of iteration 4: after 0 + 1 + 2
    assert result.post == {"total": 15, "x": 5}


def test_builder_agrees_with_the_probe() -> None:
    """Build two cheap cases with the real builder; its oracles must match the test-side probe."""
    from execstate.builder import build, study_dir

    names = ["decode_ways", "integer_sqrt"]
    assert study_dir("classic") == CASES_DIR
    result = build([CASES_DIR / name / "case.toml" for name in names], jobs=1)
    assert not result.exclusions, [(e.case_id, e.check, e.reason) for e in result.exclusions]
    oracles = {(t.case_id, t.arm): t.oracle for t in result.tasks}
    assert len(oracles) == 11  # four arms each; decode_ways's loop trace and line count, integer_sqrt's loop trace
    for name in names:
        checkpoint = spec(name)["checkpoint"]
        for which, arm in (("short_input", "short-trace-final"), ("long_input", "long-trace-final")):
            assert oracles[(f"classic/{name}", arm)] == run_program(name, generated(name, which))
        seen = checkpoints(
            CASES_DIR / name / "main.py",
            checkpoint["loop_text"],
            checkpoint["variables"],
            generated(name, "long_input"),
        )
        for arm, snapshot in (("inside-loop-state", seen.inside), ("post-loop-state", seen.post)):
            assert json.loads(oracles[(f"classic/{name}", arm)]) == snapshot
