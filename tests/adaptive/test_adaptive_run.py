"""The adaptive engine end to end: rounds through the run engine, one record per chosen cell, the journal,
reproducibility, resuming after SIGKILL, and the ``run --adaptive`` options."""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from adaptive_ladder import ladder, marker, p_right

from execstate.adaptive import ADAPTIVE_NAME, AdaptiveOptions, AdaptiveRecord, run_adaptive
from execstate.cli import main
from execstate.records import Response, write_jsonl
from execstate.run import Setting
from execstate.testing.loopback import Hold, Reply, Request, ScriptedServer, completion

SYNTHETIC = Setting.model_validate({"name": "syn", "provider": "synthetic", "synthetic_skill": 3.0})
"""Right with probability sigmoid(3 - 0.25 log2(1 + trace)): 73% on the lowest rung (2^8), 50% at 2^12, 35% on
the top one (2^16); too shallow for 24 calls to narrow the interval to 0.5, so the run ends on its budget."""


def _options(budget: int, round_size: int) -> AdaptiveOptions:
    return AdaptiveOptions(budget=budget, target_width=0.5, round_size=round_size, progress=False)


def _records(path: Path) -> list[AdaptiveRecord]:
    return [AdaptiveRecord.model_validate_json(line) for line in path.read_text().splitlines()]


def _responses(out: Path) -> list[Response]:
    return [Response.model_validate_json(line) for line in (out / "responses.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def synthetic_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("adaptive") / "out"
    summary = run_adaptive(ladder(6, 9), [SYNTHETIC], out, _options(24, 5))
    return out, summary


def test_every_choice_is_sent_and_recorded_once(synthetic_run) -> None:
    out, summary = synthetic_run
    records = _records(out / ADAPTIVE_NAME)
    choices = [r for r in records if r.kind == "choice"]
    assert len(choices) == 24 and summary.outcomes["syn"].calls == 24
    cells = Counter((r.task_id, r.setting, r.sample) for r in _responses(out))
    assert set(cells) == {(r.task_id, r.setting, r.sample) for r in choices}
    assert set(cells.values()) == {1}
    assert [r.round_cells for r in choices] == [5] * 20 + [4] * 4  # the last round holds what the budget leaves
    stops = [r for r in records if r.kind == "stop"]
    assert len(stops) == 1 and stops[0].stop == "budget" and stops[0].calls == 24
    assert all(r.reason and r.reason["rule"] == "information" for r in choices)


def test_re_running_a_finished_run_sends_nothing_and_writes_nothing(synthetic_run) -> None:
    out, _ = synthetic_run
    before = ((out / ADAPTIVE_NAME).read_bytes(), (out / "responses.jsonl").read_bytes())
    again = run_adaptive(ladder(6, 9), [SYNTHETIC], out, _options(24, 5))
    assert again.rounds == 0 and again.chosen_now == 0
    assert ((out / ADAPTIVE_NAME).read_bytes(), (out / "responses.jsonl").read_bytes()) == before


def test_the_same_answers_give_the_same_choices(synthetic_run, tmp_path: Path) -> None:
    out, _ = synthetic_run
    run_adaptive(ladder(6, 9), [SYNTHETIC], tmp_path, _options(24, 5))
    assert (tmp_path / ADAPTIVE_NAME).read_bytes() == (out / ADAPTIVE_NAME).read_bytes()


def test_a_larger_budget_goes_on_from_where_the_run_stopped(synthetic_run, tmp_path: Path) -> None:
    out, _ = synthetic_run
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in (ADAPTIVE_NAME, "responses.jsonl", "run_manifest.json"):
        (copy / name).write_bytes((out / name).read_bytes())
    more = run_adaptive(ladder(6, 9), [SYNTHETIC], copy, _options(30, 5))
    assert more.chosen_now == 6 and more.outcomes["syn"].calls == 30
    assert [r.stop for r in _records(copy / ADAPTIVE_NAME) if r.kind == "stop"] == ["budget", "budget"]


def test_another_seed_or_round_size_is_refused_on_resume(synthetic_run) -> None:
    out, _ = synthetic_run
    from execstate.errors import UsageError

    with pytest.raises(UsageError, match="--seed 0 and --round 5"):
        run_adaptive(ladder(6, 9), [SYNTHETIC], out, _options(24, 6))


# -- SIGKILL mid-run, through the command line, against a scripted endpoint ------------------------------------

HORIZON, SLOPE = 12.5, 1.5
BUDGET, ROUND = 32, 8
KILL_AFTER = 20
"""Requests answered before the server starts holding: the run is killed in its third round."""


def _right(program: int, rung: int) -> bool:
    """The scripted endpoint's answer, fixed per cell: right with probability ``p_right`` of the rung."""
    u = int(hashlib.sha256(f"{program}/{rung}".encode()).hexdigest()[:8], 16) / 2**32
    return u < p_right(8 + rung, HORIZON, SLOPE)


def _script(mode: dict[str, int]):
    def script(req: Request) -> Hold | Reply:
        program, rung = marker(req.system_text)
        text = f"{program}-{rung}" if _right(program, rung) else "wrong"
        reply = Reply(body=completion(json.dumps({"output": text})))
        return Hold(then=reply) if req.index >= mode["hold_from"] else reply

    return script


def _command(tmp_path: Path, url: str, out: Path) -> list[str]:
    tasks = tmp_path / "tasks.jsonl"
    if not tasks.exists():
        write_jsonl(tasks, ladder(8, 10))
        (tmp_path / "settings.toml").write_text(
            f'[[setting]]\nname = "ep"\nbase_url = "{url}"\nmodel = "m"\nconcurrency = 4\n'
            "backoff_initial_s = 0.001\nbackoff_max_s = 0.01\n"
        )
    return [
        sys.executable, "-m", "execstate.cli", "run", "--tasks", str(tasks), "--settings",
        str(tmp_path / "settings.toml"), "--out", str(out), "--adaptive", "horizon", "--budget", str(BUDGET),
        "--target-width", "0.01", "--round", str(ROUND), "--seed", "5",
    ]  # fmt: skip


def _complete_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _wait_until(predicate, what: str, timeout: float = 90.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


def test_sigkill_mid_round_then_resume_makes_the_same_choices(serve, tmp_path: Path) -> None:
    mode = {"hold_from": 10**9}
    server: ScriptedServer = serve(_script(mode))
    reference = tmp_path / "reference"
    command = _command(tmp_path, server.url, reference)  # writes the tasks and the settings
    options = AdaptiveOptions(budget=BUDGET, target_width=0.01, round_size=ROUND, seed=5, progress=False)
    run_adaptive(tmp_path / "tasks.jsonl", tmp_path / "settings.toml", reference, options)  # uninterrupted, here
    assert command[command.index("--budget") + 1] == str(BUDGET)

    out = tmp_path / "killed"
    mode["hold_from"] = len(server.requests) + KILL_AFTER
    proc = subprocess.Popen(_command(tmp_path, server.url, out), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        server.wait_for_requests(mode["hold_from"] + 1, timeout=120)  # the third round is in flight
        _wait_until(lambda: _complete_lines(out / "responses.jsonl") >= KILL_AFTER, "the answered cells' records")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        mode["hold_from"] = 10**9
        server.release_all()
    assert _complete_lines(out / "responses.jsonl") == KILL_AFTER
    assert len([r for r in _records(out / ADAPTIVE_NAME) if r.kind == "choice"]) == 3 * ROUND

    again = subprocess.run(_command(tmp_path, server.url, out), capture_output=True, timeout=300)
    assert again.returncode == 0, again.stderr.decode()[-2000:]
    assert (out / ADAPTIVE_NAME).read_bytes() == (reference / ADAPTIVE_NAME).read_bytes()
    cells = Counter((r.task_id, r.sample) for r in _responses(out))
    assert len(cells) == BUDGET and set(cells.values()) == {1}
    choices = {(r.task_id, r.sample) for r in _records(out / ADAPTIVE_NAME) if r.kind == "choice"}
    assert set(cells) == choices


def test_adaptive_options_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, ladder(2, 2))
    settings = tmp_path / "s.toml"
    settings.write_text('[[setting]]\nname = "syn"\nprovider = "synthetic"\n')
    base = ["run", "--tasks", str(tasks), "--settings", str(settings), "--out", str(tmp_path / "o")]
    assert main([*base, "--adaptive", "horizon"]) != 0
    assert "--budget N and --target-width W" in capsys.readouterr().err
    assert main([*base, "--adaptive", "horizon", "--budget", "3", "--target-width", "1", "--plan"]) != 0
    assert "does not combine with --plan" in capsys.readouterr().err
    assert main([*base, "--adaptive", "horizon", "--budget", "3", "--target-width", "1"]) in (0, 1)
    printed = capsys.readouterr().out
    assert "syn: 3 cells chosen, 3 answered" in printed and "stopped: budget" in printed


# -- rounds as vendor batches -----------------------------------------------------------------------------------


def _batch_answer(body: dict) -> str:
    program, rung = marker(json.dumps(body))
    return json.dumps({"output": f"{program}-{rung}" if _right(program, rung) else "wrong"})


def test_each_round_goes_out_as_one_vendor_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from execstate.testing.fake_batch import FakeOpenAIBatch

    monkeypatch.setenv("EXECSTATE_TEST_ADAPTIVE_KEY", "sk-adaptive")
    with FakeOpenAIBatch(key="sk-adaptive", answer=_batch_answer, hold=False) as fake:
        setting = Setting.model_validate(
            dict(
                name="b", provider="openai", base_url=fake.url + "/v1", model="m",
                api_key_env="EXECSTATE_TEST_ADAPTIVE_KEY", batch_poll_s=0.005,
            )
        )  # fmt: skip
        options = AdaptiveOptions(budget=12, target_width=0.01, round_size=4, batch=True, progress=False)
        summary = run_adaptive(ladder(4, 6), [setting], tmp_path, options)
        created = list(fake.created)
    assert summary.rounds == 3 and len(created) == 3  # one batch per round
    records = _responses(tmp_path)
    assert len(records) == 12 and {r.batch_id for r in records} == set(created)
    choices = [r for r in _records(tmp_path / ADAPTIVE_NAME) if r.kind == "choice"]
    assert {(r.task_id, r.sample) for r in choices} == {(r.task_id, r.sample) for r in records}


def test_a_synthetic_setting_with_a_set_horizon_is_found_with_a_confirmed_width(tmp_path: Path) -> None:
    """The real engine, provider and grading: a synthetic setting with horizon 2^12 (slope 2) on a 10-program
    ladder of 11 rungs (110 cells). The run stops on a width the report's fit confirms, within the budget of one
    grid, and that interval holds log2 12."""
    from execstate.testing.horizon import synthetic_ladder

    setting = Setting.model_validate(
        {"name": "h12", "provider": "synthetic", "synthetic_horizon": 4096.0, "synthetic_slope": 2.0}
    )
    options = AdaptiveOptions(budget=110, target_width=1.2, round_size=10, samples=4, progress=False)
    summary = run_adaptive(synthetic_ladder(10, 7, 17), [setting], tmp_path, options)
    [stop] = [r for r in _records(tmp_path / ADAPTIVE_NAME) if r.kind == "stop"]
    assert stop.stop == "width" and stop.confirmed is not None
    lo, hi = stop.confirmed
    assert hi - lo < 1.2 and lo <= 12.0 <= hi
    assert summary.outcomes["h12"].calls == stop.calls < 110
