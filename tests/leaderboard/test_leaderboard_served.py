"""The served model snapshot on the leaderboard: shown per setting, and a setting whose snapshot changed during
its run is flagged (row and page banner); the analysis' served table counts each snapshot's answers."""

from __future__ import annotations

from _leaderboard_runs import CONFIG

from execstate.analyze import served_by_setting, served_rows
from execstate.leaderboard import write_leaderboard
from execstate.records import Response, read_jsonl, write_jsonl


def _rewrite(run_dir, snapshot_of) -> list[Response]:
    """Give the run's responses served snapshots (``snapshot_of(index)``), in their recorded order."""
    path = run_dir / "responses.jsonl"
    responses = list(read_jsonl(path, Response))
    changed = [
        r.model_copy(
            update={"served_model": snapshot_of(i), "finished_at": f"2026-12-06T00:{i // 60:02d}:{i % 60:02d}"}
        )
        for i, r in enumerate(responses)
    ]
    write_jsonl(path, changed)
    return changed


def test_served_snapshots_are_shown_and_a_change_is_flagged(runs, tmp_path):
    import shutil

    steady = tmp_path / "strong"
    moved = tmp_path / "weak"
    shutil.copytree(runs.dirs["strong"], steady)
    shutil.copytree(runs.dirs["weak"], moved)
    _rewrite(steady, lambda i: "model-a-20261101")
    half = len(list(read_jsonl(moved / "responses.jsonl", Response))) // 2
    responses = _rewrite(moved, lambda i: "model-b-20261101" if i < half else "model-b-20261201")

    files = write_leaderboard([steady, moved], tmp_path / "board", CONFIG)
    rows = {r["setting"]: r for r in files.board.overall}
    assert rows["strong"]["served_models"] == "model-a-20261101" and rows["strong"]["snapshot_changed"] is False
    assert rows["weak"]["served_models"] == "model-b-20261101; model-b-20261201"
    assert rows["weak"]["snapshot_changed"] is True
    page = files.html.read_text(encoding="utf-8")
    assert "more than one model snapshot" in page and "weak: model-b-20261101; model-b-20261201" in page

    table = [r for r in served_rows(responses) if r["setting"] == "weak"]
    completed = [r for r in responses if r.status == "completed"]
    assert [r["served_model"] for r in table] == ["model-b-20261101", "model-b-20261201"]
    assert sum(r["responses"] for r in table) == len(completed)
    assert table[0]["first_at"] <= table[0]["last_at"] < table[1]["first_at"]


def test_a_provider_that_names_no_snapshot_shows_none_and_no_flag(runs):
    responses = list(read_jsonl(runs.dirs["strong"] / "responses.jsonl", Response))
    assert all(r.served_model is None for r in responses)  # the synthetic provider sends no request
    assert served_by_setting(responses) == {"strong": {"served_models": None, "snapshot_changed": False}}
