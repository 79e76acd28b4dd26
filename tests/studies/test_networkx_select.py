"""The NetworkX study's selection: screening by band, deterministic picks, and the thirty shipped cases."""

from __future__ import annotations

import json
import tomllib

import pytest

from execstate.builder import build, load_spec
from execstate.construct import SELECT_NAME, select_cases
from execstate.records import paper_tasks
from execstate.studies import STUDIES
from execstate.testing import tree_bytes

STUDY = STUDIES["networkx"]
assert STUDY.screened is not None and STUDY.cases_dir is not None
FOLDER, CASES = STUDY.screened, STUDY.cases_dir
EDGES = tomllib.loads((FOLDER / "study.toml").read_text())["bands"]["edges"]
CANDIDATES = 60
"""Screened by every selection here: enough for one pick in each of the three bands."""


@pytest.fixture(scope="module")
def selected(tmp_path_factory):
    """``execstate select`` on ``CANDIDATES`` candidates, one pick per band (a band holds about a fifth of the candidates):
    the directory it wrote."""
    from execstate.cli import main

    out = tmp_path_factory.mktemp("select") / "s"
    assert main(["select", "networkx", "--candidates", str(CANDIDATES), "--per-band", "1", "--out", str(out)]) == 0
    return out


def test_a_small_selection_reproduces_byte_for_byte(tmp_path, selected):
    """The library call redoes the command's selection in another directory: the same bytes."""
    one = select_cases(FOLDER, tmp_path / "one", candidates=CANDIDATES, per_band=1)
    assert tree_bytes(tmp_path / "one") == tree_bytes(selected)
    record = one.record
    assert len(one.cases) == 3
    assert [load_spec(case / "case.toml").provenance["band"] for case in one.cases] == [0, 1, 2]
    assert sum(b["population"] for b in record["bands"]) + record["outside_bands"] == CANDIDATES
    for band, (low, high) in zip(record["bands"], EDGES):
        (pick,) = band["picks"]
        assert low <= pick["trace"] < high
    assert json.loads((tmp_path / "one" / SELECT_NAME).read_text()) == record


def test_the_shipped_cases_are_ten_per_band_of_one_source():
    record = json.loads((CASES / SELECT_NAME).read_text())
    assert record["candidates"] == 90_000 and record["per_band"] == 10
    specs = sorted(CASES.glob("*/case.toml"))
    assert len(specs) == 30
    band_of = {}
    for band, (low, high) in zip(record["bands"], EDGES):
        assert len(band["picks"]) == 10
        for pick in band["picks"]:
            assert low <= pick["trace"] < high
            band_of[pick["case"]] = band["band"]
    for path in specs:
        # a case holds its inputs and provenance; study.toml gives the rest, the one program included
        assert sorted(p.name for p in path.parent.iterdir()) == ["case.toml", "long.txt", "short.txt"]
        assert set(tomllib.loads(path.read_text())) == {"short_input", "long_input", "provenance"}
        spec = load_spec(path)
        assert spec.id == f"networkx/{path.parent.name}" and spec.program == (FOLDER / "main.py").resolve()
        assert spec.study == "networkx" and spec.grading_rule == "bytes"
        assert spec.checkpoint.loop_text == "for i, p, q in DEAF.find_entering_edges():"
        assert spec.provenance["band"] == band_of[path.parent.name]


def test_one_shipped_case_per_band_builds_with_its_screened_trace():
    record = json.loads((CASES / SELECT_NAME).read_text())
    picks = [band["picks"][0] for band in record["bands"]]
    result = build([CASES / p["case"] for p in picks], jobs=2)
    assert [e.reason for e in result.exclusions] == [] and len(paper_tasks(result.tasks)) == 12
    assert len({t.source_sha256 for t in result.tasks if t.arm.endswith("final")}) == 1
    for band, pick in enumerate(picks):
        long = next(t for t in result.tasks if t.case_id == f"networkx/{pick['case']}" and t.arm == "long-trace-final")
        assert long.metrics.trace_length == pick["trace"]  # screening counts what the builder measures
        assert long.meta["provenance"]["band"] == band  # the band reaches the tasks, not only the id


def test_the_dask_executor_selects_the_same_cases(tmp_path, selected):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        there = select_cases(
            FOLDER,
            tmp_path / "dask",
            candidates=CANDIDATES,
            per_band=1,
            executor="dask",
            scheduler=cluster.scheduler_address,
        )
    assert there.record == json.loads((selected / SELECT_NAME).read_text())
    assert tree_bytes(tmp_path / "dask") == tree_bytes(selected)


def test_a_selection_outside_the_study_folder_names_the_program_through_its_own_study_toml(selected):
    study = tomllib.loads((selected / "study.toml").read_text())
    assert (
        study["study"] == "networkx"
        and study["checkpoint"] == tomllib.loads((FOLDER / "study.toml").read_text())["checkpoint"]
    )
    for path in sorted(selected.glob("*/case.toml")):
        assert not (path.parent / "main.py").exists()
        assert load_spec(path).program == (FOLDER / "main.py").resolve()


def test_a_vendored_selection_is_self_contained_and_otherwise_the_same(tmp_path, selected):
    select_cases(FOLDER, tmp_path / "v", candidates=CANDIDATES, per_band=1, vendor=True)
    assert not (tmp_path / "v" / "study.toml").exists()
    assert (tmp_path / "v" / SELECT_NAME).read_bytes() == (selected / SELECT_NAME).read_bytes()
    cases = sorted(p.parent.name for p in selected.glob("*/case.toml"))
    assert sorted(p.parent.name for p in (tmp_path / "v").glob("*/case.toml")) == cases
    for name in cases:
        vendored, named = load_spec(tmp_path / "v" / name / "case.toml"), load_spec(selected / name / "case.toml")
        assert vendored.program == (tmp_path / "v" / name / "main.py").resolve()
        assert vendored.program.read_bytes() == named.program.read_bytes()
        same = {"program", "short_input", "long_input", "spec_path"}
        assert vendored.model_dump(exclude=same) == named.model_dump(exclude=same)


def test_the_select_command_redoes_a_small_selection(selected):
    record = json.loads((selected / SELECT_NAME).read_text())
    assert record["candidates"] == CANDIDATES and sum(len(b["picks"]) for b in record["bands"]) == 3
