"""Cost per correct answer by hand, the flag for unreported reasoning tokens, budgets, and manifests unchanged."""

from __future__ import annotations

import json

import pytest
from _leaderboard_runs import CONFIG, make_run

from execstate.leaderboard import cost_rows, response_cost, write_leaderboard
from execstate.records import RUN_MANIFEST_NAME, Grade, Response, Usage, read_jsonl, write_jsonl
from execstate.run import Setting
from execstate.testing.synthetic import synthetic_tasks

PRICES = {"price_input_per_mtok": 2.0, "price_output_per_mtok": 10.0}


def _response(task_id: str, prompt, completion, reasoning, finish="stop") -> Response:
    usage = Usage(prompt_tokens=prompt, completion_tokens=completion, reasoning_tokens=reasoning)
    return Response(task_id=task_id, setting="s", status="completed", text="x", finish_reason=finish, usage=usage)


def _grade(task_id: str, status: str) -> Grade:
    return Grade(task_id=task_id, setting="s", status=status, rule="exact")


@pytest.fixture()
def fixture():
    tasks = synthetic_tasks(studies=(("classic", "python", 1),))  # four tasks, one per arm
    ids = [t.task_id for t in tasks]
    responses = [
        _response(ids[0], 1000, 500, 300),
        _response(ids[1], 2000, 100, None, finish="length"),
        _response(ids[2], 400, 50, 0),
    ]
    grades = [_grade(ids[0], "correct-valid"), _grade(ids[1], "wrong-invalid"), _grade(ids[2], "correct-valid")]
    grades.append(_grade(ids[3], "no-response"))
    return tasks, grades, responses


def test_cost_per_correct_answer_equals_a_hand_computation(fixture):
    tasks, grades, responses = fixture
    rows = {r["arm"]: r for r in cost_rows(tasks, grades, responses, {"s": PRICES})}
    # (1000*2 + 500*10) + (2000*2 + 100*10) + (400*2 + 50*10) = 7000 + 5000 + 1300 = 13300 per million
    assert rows["all"]["cost"] == pytest.approx(0.0133)
    assert rows["all"]["correct"] == 2 and rows["all"]["cost_per_correct"] == pytest.approx(0.0133 / 2)
    assert rows["all"]["responses"] == 3 and rows["all"]["mean_output_tokens"] == pytest.approx(650 / 3)
    assert rows["short-trace-final"]["cost_per_correct"] == pytest.approx(0.007)
    assert (
        rows["long-trace-final"]["cost"] == pytest.approx(0.005)
        and rows["long-trace-final"]["cost_per_correct"] is None
    )
    assert rows["all"]["reasoning_tokens"] == 300 and rows["all"]["flag"] is None  # reasoning "off": no flag


def test_a_reasoning_price_prices_reasoning_tokens_apart(fixture):
    tasks, grades, responses = fixture
    prices = {**PRICES, "price_reasoning_per_mtok": 20.0}
    # 1000*2 + 200*10 + 300*20 = 10000; the response without a reasoning count is priced all as output: 5000
    assert response_cost(responses[0], prices) == pytest.approx(0.01)
    assert response_cost(responses[1], prices) == pytest.approx(0.005)
    all_row = cost_rows(tasks, grades, responses, {"s": prices})[0]
    assert all_row["cost"] == pytest.approx(0.01 + 0.005 + 0.0013)


def test_unpriced_settings_have_no_cost_but_tokens(fixture):
    tasks, grades, responses = fixture
    row = cost_rows(tasks, grades, responses, {"s": {"price_output_per_mtok": 1.0}})[0]
    assert row["cost"] is None and row["cost_per_correct"] is None and row["completion_tokens"] == 650


def test_a_missing_reasoning_token_count_is_flagged(fixture):
    tasks, grades, responses = fixture
    row = cost_rows(tasks, grades, responses, {"s": {**PRICES, "reasoning": "high"}})[0]
    assert row["flag"] is not None and "1 of 3 responses report no reasoning tokens" in row["flag"]
    assert row["reasoning_tokens"] == 300  # the known counts, the unknown one not taken as zero


def test_a_reasoning_run_that_never_reports_reasoning_tokens_is_flagged_on_the_page(runs, tmp_path):
    replay = tmp_path / "replay.jsonl"
    replay.write_text(
        "".join(json.dumps({"task_id": t.task_id, "text": json.dumps({"output": t.oracle})}) + "\n" for t in runs.tasks)
    )
    setting = Setting(name="replayed-high", provider="replay", replay_file=str(replay), reasoning="high")
    run = make_run(tmp_path, runs.root / "tasks.jsonl", setting)
    files = write_leaderboard([runs.dirs["strong"], run], tmp_path / "board", CONFIG)
    flags = {r["setting"]: r["flag"] for r in files.board.overall}
    assert flags["strong"] is None
    assert "reasoning 'high' declared, but 160 of 160 responses report no reasoning tokens" in flags["replayed-high"]
    assert "report no reasoning tokens" in files.html.read_text(encoding="utf-8")


def test_leaderboard_costs_come_from_the_run_manifest_prices(runs, tmp_path):
    files = write_leaderboard([runs.dirs["strong-twin"]], tmp_path, CONFIG)
    row = files.board.overall[0]
    responses = [r for r in read_jsonl(runs.dirs["strong-twin"] / "responses.jsonl", Response)]
    by_hand = sum(r.usage.prompt_tokens * 1.0 + r.usage.completion_tokens * 4.0 for r in responses) / 1e6
    assert row["cost"] == pytest.approx(by_hand) and row["cost_per_correct"] == pytest.approx(by_hand / row["correct"])
    assert "Accuracy vs total cost" in files.html.read_text(encoding="utf-8")


def test_budget_matched_accuracy_counts_only_responses_that_stopped(runs, tmp_path):
    files = write_leaderboard([runs.dirs["weak"]], tmp_path, CONFIG)
    row = next(r for r in files.board.budget if r["arm"] == "all")
    responses = {(r.task_id, r.sample): r for r in read_jsonl(runs.dirs["weak"] / "responses.jsonl", Response)}
    grades = list(read_jsonl(runs.dirs["weak"] / "grades.jsonl", Grade))
    stopped = [g for g in grades if responses[(g.task_id, g.sample)].finish_reason == "stop"]
    assert 0 < len(stopped) < len(grades) and row["stopped"] == len(stopped)
    assert row["acc_stopped_pct"] == pytest.approx(
        100 * sum(g.status.startswith("correct") for g in stopped) / len(stopped)
    )
    cut = sum(r.finish_reason == "length" for r in responses.values())
    assert row["truncated_pct"] == pytest.approx(100 * cut / len(responses))


def test_prices_and_skill_leave_the_manifest_of_a_setting_without_them_unchanged(runs, tmp_path):
    plain = json.loads((runs.dirs["strong"] / RUN_MANIFEST_NAME).read_text())["settings"]["strong"]
    assert not any(k.startswith("price_") for k in plain) and plain["synthetic_skill"] == 6.0
    priced = json.loads((runs.dirs["strong-twin"] / RUN_MANIFEST_NAME).read_text())["settings"]["strong-twin"]
    assert priced["price_input_per_mtok"] == 1.0 and priced["price_output_per_mtok"] == 4.0
    assert "price_reasoning_per_mtok" not in priced
    write_jsonl(tmp_path / "tasks.jsonl", runs.tasks[:4])
    default = make_run(tmp_path, tmp_path / "tasks.jsonl", Setting(name="d", provider="synthetic"))
    recorded = json.loads((default / RUN_MANIFEST_NAME).read_text())["settings"]["d"]
    assert not {"synthetic_skill", "price_input_per_mtok", "price_output_per_mtok"} & set(recorded)


def test_synthetic_skill_is_refused_for_other_providers():
    with pytest.raises(ValueError, match="synthetic_skill is a knob of provider 'synthetic' only"):
        Setting(name="o", provider="oracle", synthetic_skill=1.0)


def test_batch_cells_cost_the_batch_price(fixture):
    tasks, grades, responses = fixture
    batched = [r.model_copy(update={"batch_id": "batch_1"}) for r in responses]
    live = cost_rows(tasks, grades, responses, {"s": PRICES})[0]["cost"]
    # default: half of every price (OpenAI's and Anthropic's batch discount)
    assert cost_rows(tasks, grades, batched, {"s": PRICES})[0]["cost"] == pytest.approx(live / 2)
    assert cost_rows(tasks, grades, batched, {"s": {**PRICES, "price_batch_factor": 0.25}})[0]["cost"] == pytest.approx(
        live / 4
    )
    # explicit batch prices win over the factor: (1000*1 + 500*4) = 3000 per million for the first response
    explicit = {**PRICES, "price_batch_input_per_mtok": 1.0, "price_batch_output_per_mtok": 4.0}
    assert response_cost(batched[0], explicit) == pytest.approx(0.003)
    # a reasoning price keeps its ratio to the output price (20/10 of 4.0): 1000*1 + 200*4 + 300*8 = 4200
    assert response_cost(batched[0], {**explicit, "price_reasoning_per_mtok": 20.0}) == pytest.approx(0.0042)
    # a mixed run: only the batch cells are discounted
    mixed = [batched[0], *responses[1:]]
    assert cost_rows(tasks, grades, mixed, {"s": PRICES})[0]["cost"] == pytest.approx(live - 0.007 / 2)
