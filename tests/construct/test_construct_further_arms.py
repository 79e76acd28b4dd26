"""``construct --add-arms``: the written spec states the arms and its provenance the line the line count marks,
as the build chooses it; without the option the spec is what it was."""

from __future__ import annotations

import tomllib
from pathlib import Path

from execstate.builder import BuildOptions, build
from execstate.construct import ConstructOptions, construct_problem, read_pool
from execstate.records import CASE_ARMS
from execstate.sandbox import Limits

PROGRAM = """n = int(input())
values = list(map(int, input().split()))
best = 0
odd = 0
for v in values:
    if v % 7 == 0:
        best = max(best, v)
    if v % 2 == 1:
        odd += 1
print(best, odd)
"""
FAST = Limits(wall_s=5.0, cpu_s=5.0, memory_mb=1024)


def _pool(root: Path) -> Path:
    d = root / "sevens"
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(PROGRAM)
    for i, n in enumerate((12, 30, 400, 3000), 1):
        values = [(j * 37 + 11) % 101 for j in range(n)]
        (d / "tests" / f"{i}.in").write_text(f"{n}\n{' '.join(map(str, values))}\n")
        best = max([v for v in values if v % 7 == 0], default=0)
        (d / "tests" / f"{i}.out").write_text(f"{best} {sum(v % 2 for v in values)}\n")
    return root


def _spec(tmp_path: Path, name: str, arms: tuple[str, ...]) -> tuple[dict, Path]:
    (problem,) = read_pool(_pool(tmp_path / f"pool-{name}"))
    out = tmp_path / name
    opts = ConstructOptions(
        build=BuildOptions(limits=FAST, add_arms=arms), study="arms", max_trace=200_000, synthesize=False
    )
    outcome = construct_problem(problem, out, opts)
    assert outcome.spec_dir is not None, outcome.reason
    return tomllib.loads((outcome.spec_dir / "case.toml").read_text()), outcome.spec_dir


def test_construct_writes_the_arms_and_the_chosen_line(tmp_path: Path) -> None:
    plain, _ = _spec(tmp_path, "plain", ())
    assert "arms" not in plain and "count_line" not in plain["provenance"]
    spec, spec_dir = _spec(tmp_path, "arms", ("loop-trace", "line-count"))
    assert spec["arms"] == list(CASE_ARMS)
    built = build([spec_dir])
    assert [t.arm for t in built.tasks] == list(CASE_ARMS)
    count = next(t for t in built.tasks if t.arm == "line-count")
    chosen = count.meta["line_count"]
    assert spec["provenance"]["count_line"] == chosen["line"] == 7  # the sevens are the rarer branch
    assert spec["provenance"]["count_branch_line"] == chosen["branch_line"] == 6
    assert spec["provenance"]["count_imbalance"] == chosen["imbalance"] > 0.5
    assert count.meta["provenance"]["count_line"] == 7
    assert {k: v for k, v in spec["provenance"].items() if not k.startswith("count_")} == plain["provenance"]
