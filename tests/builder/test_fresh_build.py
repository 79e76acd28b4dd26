"""``build --fresh SEED``: the same cases on inputs drawn from a secret seed, committed, verifiable.

The cases here are small programs written for the test; the built-in studies' refreshers (networkx,
library_cpp) are exercised on one case each.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execstate.builder import (
    SEED_ENV,
    BuildOptions,
    Fresh,
    build,
    build_case,
    load_spec,
    verify_fresh,
    write_build,
)
from execstate.builder._fresh import COMMITMENT_PREFIX, fresh_plan
from execstate.cli import main as cli_main
from execstate.errors import UsageError
from execstate.records import FRESH_SUFFIX, Exclusion, Task, fresh_record, read_jsonl
from execstate.studies import STUDIES

SEED = "s3cr3t-seed-90210"

MAIN = """\
n = int(input())
values = list(map(int, input().split()))
best = 0
total = 0
for v in values:
    total += v
    if total > best:
        best = total
    if total < 0:
        total = 0
print(best)
"""

SEEDED_GEN = """\
import os
import sys

size = 3 if sys.argv[1] == "short" else 60
seed = os.environ.get("EXECSTATE_SEED")
state = int(seed) % 2**31 if seed else 12345
state = state * 2 + (sys.argv[1] == "short")
values = []
for _ in range(size):
    state = (state * 1103515245 + 12345) % 2**31
    values.append((state >> 8) % 41 - 20)
print(size)
print(*values)
"""

IGNORING_GEN = """\
import sys

size = 3 if sys.argv[1] == "short" else 60
print(size)
print(*[(i * 7) % 41 - 20 for i in range(size)])
"""


def write_case(root: Path, name: str, gen: str | None) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "main.py").write_text(MAIN)
    if gen is None:
        (d / "short.txt").write_text("3\n1 -2 3\n")
        (d / "long.txt").write_text("12\n" + " ".join(str((i * 5) % 11 - 5) for i in range(12)) + "\n")
        inputs = 'short_input = "short.txt"\nlong_input = "long.txt"\n'
    else:
        (d / "gen.py").write_text(gen)
        inputs = (
            'short_input = { generator = "gen.py", args = ["short"] }\n'
            'long_input = { generator = "gen.py", args = ["long"] }\n'
        )
    (d / "case.toml").write_text(
        f'id = "mine/{name}"\nstudy = "mine"\nlanguage = "python"\nprogram = "main.py"\n{inputs}\n'
        '[checkpoint]\nloop_text = "for v in values:"\nvariables = ["v", "total", "best"]\n'
    )
    return d / "case.toml"


def test_the_commitment_hashes_the_prefixed_seed_and_the_seed_stays_out_of_repr() -> None:
    import hashlib

    fresh = Fresh(SEED)
    assert fresh.commitment == "sha256:" + hashlib.sha256((COMMITMENT_PREFIX + SEED).encode()).hexdigest()
    assert SEED not in repr(fresh)
    seeds = {fresh.case_seed(case, i) for case in ("a/x", "a/y") for i in range(4)}
    assert len(seeds) == 8 and all(0 <= s < 2**56 for s in seeds)
    assert fresh.case_seed("a/x", 0) == Fresh(SEED).case_seed("a/x", 0) != Fresh("other").case_seed("a/x", 0)
    with pytest.raises(UsageError, match="empty"):
        Fresh("  ")


def test_a_generator_case_is_rebuilt_on_fresh_inputs_reproducibly(tmp_path: Path) -> None:
    spec = load_spec(write_case(tmp_path, "kadane", SEEDED_GEN))
    published = build_case(spec, BuildOptions())
    fresh = build_case(spec, BuildOptions(), Fresh(SEED))
    again = build_case(spec, BuildOptions(), Fresh(SEED))
    other = build_case(spec, BuildOptions(), Fresh(SEED + "x"))
    assert isinstance(published, list) and isinstance(fresh, list)
    assert isinstance(again, list) and isinstance(other, list)
    assert [t.task_id for t in fresh] == [
        t.task_id.replace("mine/kadane", "mine/kadane" + FRESH_SUFFIX) for t in published
    ]
    assert {t.case_id for t in fresh} == {"mine/kadane~fresh"}
    by_arm = {t.arm: t for t in fresh}
    old = {t.arm: t for t in published}
    for arm in ("short-trace-final", "long-trace-final"):
        assert by_arm[arm].input != old[arm].input  # a fresh input ...
        assert by_arm[arm].source_sha256 == old[arm].source_sha256  # ... for the same program
    record = fresh_record(by_arm["long-trace-final"])
    assert record is not None and record["of"] == "mine/kadane" and record["commitment"] == Fresh(SEED).commitment
    assert record["trace_long"] == by_arm["long-trace-final"].metrics.trace_length
    assert record["trace_long_published"] == old["long-trace-final"].metrics.trace_length
    assert SEED_ENV in record["long_input"] and len(record["tried"]) == 4
    # the kept candidate is the closest in long trace to the published one
    kept = [c for c in record["tried"] if "rejected" not in c]
    assert (
        record["trace_long"]
        == min(kept, key=lambda c: abs(c["trace_long"] - record["trace_long_published"]))["trace_long"]
    )
    assert [t.to_json_line() for t in fresh] == [t.to_json_line() for t in again]
    assert {t.arm: t.input for t in other}["long-trace-final"] != by_arm["long-trace-final"].input


def test_a_generator_that_ignores_the_seed_and_file_inputs_are_not_refreshable(tmp_path: Path) -> None:
    ignoring = load_spec(write_case(tmp_path, "ignoring", IGNORING_GEN))
    files = load_spec(write_case(tmp_path, "files", None))
    kept = build_case(ignoring, BuildOptions(), Fresh(SEED))
    assert isinstance(kept, list) and {t.case_id for t in kept} == {"mine/ignoring"}
    assert all(t.meta["fresh"] is False for t in kept)
    assert "ignores EXECSTATE_SEED" in kept[0].meta["fresh_note"]
    left_out = build_case(files, BuildOptions(), Fresh(SEED, only=True))
    assert isinstance(left_out, Exclusion) and left_out.check == "fresh"
    assert left_out.case_id == "mine/files~fresh"
    assert "short_input is the file short.txt" in left_out.reason and "not refreshable" in left_out.reason


def test_no_file_a_fresh_build_writes_holds_the_seed(tmp_path: Path) -> None:
    write_case(tmp_path / "cases", "kadane", SEEDED_GEN)
    write_case(tmp_path / "cases", "files", None)
    out = tmp_path / "out"
    result = build([tmp_path / "cases"], fresh=Fresh(SEED), partial=out / ".partial")
    write_build(result, out)
    written = [p for p in out.rglob("*") if p.is_file()]
    assert {p.name for p in written} >= {"tasks.jsonl", "manifest.json", "excluded.jsonl", "README.md"}
    for path in written:
        assert SEED.encode() not in path.read_bytes(), path
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["fresh"]["commitment"] == Fresh(SEED).commitment
    assert manifest["fresh"]["refreshed"] == ["mine/kadane~fresh"]
    assert list(manifest["fresh"]["not_refreshable"]) == ["mine/files"]
    card = (out / "README.md").read_text()
    assert "## Fresh inputs" in card and Fresh(SEED).commitment in card


def test_verify_fresh_passes_with_the_seed_and_names_the_tasks_otherwise(tmp_path: Path, capsys) -> None:
    write_case(tmp_path / "cases", "kadane", SEEDED_GEN)
    out = tmp_path / "out"
    write_build(build([tmp_path / "cases"], fresh=Fresh(SEED)), out)
    tasks = out / "tasks.jsonl"
    assert verify_fresh(tasks, SEED, [tmp_path / "cases"], jobs=1).ok
    wrong = verify_fresh(tasks, "not-the-seed", [tmp_path / "cases"], jobs=1)
    assert not wrong.ok and len(wrong.differing) == 4
    assert all("commitment" in why for why in wrong.differing.values())
    # a fresh task whose input was altered is named, the others verify
    lines = list(read_jsonl(tasks, Task))
    altered = lines[0].model_copy(update={"input": lines[0].input + "\n"})
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(t.to_json_line() + "\n" for t in [altered, *lines[1:]]))
    found = verify_fresh(tampered, SEED, [tmp_path / "cases"], jobs=1)
    assert list(found.differing) == [altered.task_id] and "input" in found.differing[altered.task_id]
    assert (
        cli_main(["verify-fresh", str(tasks), "--seed", SEED, "--cases", str(tmp_path / "cases"), "--jobs", "1"]) == 0
    )
    assert (
        cli_main(["verify-fresh", str(tasks), "--seed", "wrong", "--cases", str(tmp_path / "cases"), "--jobs", "1"])
        == 1
    )
    assert lines[0].task_id in capsys.readouterr().out


def test_the_networkx_refresher_keeps_the_recorded_sizes_and_the_cases_band() -> None:
    study = STUDIES["networkx"]
    assert study.cases_dir is not None
    spec = load_spec(sorted(study.cases_dir.rglob("case.toml"))[0])
    plan = fresh_plan(spec, 1234)
    assert plan.long.args == ("1234", str(spec.provenance["nodes"]))
    assert plan.short.args == ("1234", str(spec.provenance["short_nodes"]))
    assert plan.long_trace_band is not None
    low, high = plan.long_trace_band
    assert low <= int(spec.provenance.get("long_trace", low)) < high or "long_trace" not in spec.provenance


def test_a_library_checker_case_is_refreshed_by_its_own_generator() -> None:
    study = STUDIES["library_cpp"]
    assert study.cases_dir is not None
    spec = load_spec(study.cases_dir / "unionfind" / "case.toml")
    plan = fresh_plan(spec, 99)
    assert '#include "' not in plan.long.source and "#pragma once" not in plan.long.source
    assert "#define N_MAX (long long)5000" in plan.long.source and "(long long)5\n" in plan.short.source
    built = build_case(spec, BuildOptions(), Fresh(SEED))
    published = build_case(spec, BuildOptions())
    assert isinstance(built, list) and isinstance(published, list)
    assert {t.case_id for t in built} == {"library_cpp/unionfind~fresh"}
    fresh_long = next(t for t in built if t.arm == "long-trace-final")
    old_long = next(t for t in published if t.arm == "long-trace-final")
    assert fresh_long.input != old_long.input
    (n, q), (_, q_published) = (t.input.split("\n")[0].split() for t in (fresh_long, old_long))
    assert q == q_published == "5000" and 1 <= int(n) <= 5000  # the size limits of test 4: N_MAX=5000 Q_MAX=5000


def test_the_fresh_corpus_table_gives_published_and_fresh_trace_medians(tmp_path: Path) -> None:
    from execstate.builder import fresh_corpus

    write_case(tmp_path / "cases", "kadane", SEEDED_GEN)
    write_case(tmp_path / "cases", "files", None)
    tasks = build([tmp_path / "cases"], fresh=Fresh(SEED)).tasks
    (row,) = fresh_corpus(tasks).rows
    record = next(r for r in map(fresh_record, tasks) if r is not None)
    assert (row["study"], row["fresh_cases"], row["not_refreshable"]) == ("mine", 1, 1)
    assert row["trace_long_fresh_median"] == record["trace_long"]
    assert row["trace_long_published_median"] == record["trace_long_published"]
    assert row["trace_short_published_median"] == record["trace_short_published"]


def test_when_the_closest_candidate_fails_a_check_the_next_one_is_built(tmp_path: Path, monkeypatch) -> None:
    from execstate.builder import _case

    spec = load_spec(write_case(tmp_path, "kadane", SEEDED_GEN))
    real = _case._admit_inputs
    calls: list[int] = []

    def first_fails(case, loop_line, short, long, fresh_meta, ids):
        calls.append(fresh_meta["fresh"]["candidate"])
        if len(calls) == 1:
            raise _case.Excluded("change", "no projected field changes (made to fail by the test)")
        return real(case, loop_line, short, long, fresh_meta, ids)

    monkeypatch.setattr(_case, "_admit_inputs", first_fails)
    built = build_case(spec, BuildOptions(), Fresh(SEED))
    assert isinstance(built, list) and len(calls) == 2
    record = fresh_record(built[0])
    assert record is not None and record["candidate"] == calls[1] != calls[0]
    assert record["failed_checks"] == [
        {"candidate": calls[0], "check": "change", "reason": "no projected field changes (made to fail by the test)"}
    ]
    monkeypatch.setattr(_case, "_admit_inputs", lambda *a: (_ for _ in ()).throw(_case.Excluded("change", "never")))
    excluded = build_case(spec, BuildOptions(), Fresh(SEED))
    assert isinstance(excluded, Exclusion) and excluded.check == "change"
    assert excluded.case_id == "mine/kadane~fresh" and excluded.reason.startswith("fresh candidate #")
