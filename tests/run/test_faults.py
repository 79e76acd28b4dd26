"""The retry policy against a real HTTP server on 127.0.0.1 that injects each fault a provider's API can show
(rate limits, server errors, dropped connections, slow or malformed replies, refused requests).

Every test runs the whole library path (``run_tasks``: preflight, aiohttp
client, policy, durable store) and checks the recorded status, the attempt
count and the number of requests the server actually received.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from run_helpers import answer, fast_setting, make_task, read_records, task_index

from execstate.run import cell_request, run_tasks
from execstate.testing.loopback import Drop, Reply, Request, completion


def _scripted(per_attempt: list[Reply | Drop]):
    """A script answering the n-th request with ``per_attempt[n]`` (the last entry repeats)."""
    seen: Counter[int] = Counter()

    def script(req: Request) -> Reply | Drop:
        i = task_index(req)
        n = seen[i]
        seen[i] += 1
        return per_attempt[min(n, len(per_attempt) - 1)]

    return script


def _run_one(serve, tmp_path: Path, per_attempt: list[Reply | Drop], **setting_over: object):
    server = serve(_scripted(per_attempt))
    summary = run_tasks([make_task(0)], [fast_setting(server.url, **setting_over)], tmp_path / "out", progress=False)
    [rec] = read_records(tmp_path / "out")
    assert summary.new_records == 1 and summary.missing == 0
    return rec, server.requests


OK = Reply(body=completion(answer(0)))


def test_429_with_retry_after_waits_then_completes(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(
        serve, tmp_path, [Reply(429, b'{"error":"slow down"}', {"Retry-After": "1"}), OK], backoff_max_s=5.0
    )
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 2, 2)
    assert reqs[1].received_at - reqs[0].received_at >= 0.95  # Retry-After honoured, not the 1 ms backoff
    assert rec.errors == ['attempt 1: HTTP 429: {"error":"slow down"}']
    assert rec.text == answer(0)


def test_retry_after_ms_header_is_honoured(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(429, headers={"retry-after-ms": "300"}), OK], backoff_max_s=5.0)
    assert (rec.status, rec.attempts) == ("completed", 2)
    assert reqs[1].received_at - reqs[0].received_at >= 0.28


def test_500_is_retried(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(500, b"boom"), OK])
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 2, 2)
    assert rec.errors == ["attempt 1: HTTP 500: boom"]


def test_500_until_budget_is_no_response_with_every_error(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(503, b"down")], max_attempts=4)
    assert (rec.status, rec.attempts, len(reqs)) == ("no-response", 4, 4)
    assert rec.errors == [f"attempt {n}: HTTP 503: down" for n in range(1, 5)]
    assert rec.text is None and rec.finish_reason is None


def test_dropped_connection_is_retried(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Drop(), OK])
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 2, 2)
    assert rec.errors[0].startswith("attempt 1: connection error: ServerDisconnectedError")


def test_response_slower_than_timeout_is_not_resent_by_default(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(body=completion(answer(0)), delay_s=3.0)], timeout_s=0.3)
    assert (rec.status, rec.attempts, len(reqs)) == ("no-response", 1, 1)
    assert rec.errors == ["attempt 1: timeout: no complete response within 0.3 s"]


def test_timeout_is_resent_when_configured(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(delay_s=3.0), OK], timeout_s=0.3, retry_timeouts=True)
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 2, 2)
    assert "timeout" in rec.errors[0]


def test_malformed_json_body_is_a_transport_failure(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(body=b'{"choices": [tru'), OK])
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 2, 2)
    assert rec.errors[0].startswith("attempt 1: malformed response body (16 bytes, not JSON)")


def test_malformed_json_every_time_ends_as_no_response(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(body=b"<html>gateway</html>")], max_attempts=2)
    assert (rec.status, rec.attempts, len(reqs)) == ("no-response", 2, 2)


def test_empty_choices_is_retried(serve, tmp_path: Path) -> None:
    empty = Reply(body={"id": "x", "choices": [], "error": {"message": "overloaded"}})
    rec, reqs = _run_one(serve, tmp_path, [empty, OK])
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 2, 2)
    assert rec.errors == ['attempt 1: response has no choices {"message": "overloaded"}']


def test_finish_reason_length_is_a_completed_answer_never_retried(serve, tmp_path: Path) -> None:
    usage = {"prompt_tokens": 50, "completion_tokens": 4096, "completion_tokens_details": {"reasoning_tokens": 4000}}
    rec, reqs = _run_one(serve, tmp_path, [Reply(body=completion('{"output":"12', "length", usage))])
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 1, 1)
    assert rec.finish_reason == "length" and rec.text == '{"output":"12'
    assert (rec.usage.prompt_tokens, rec.usage.completion_tokens, rec.usage.reasoning_tokens) == (50, 4096, 4000)


def test_null_content_is_a_completed_empty_answer(serve, tmp_path: Path) -> None:
    body = completion("", "length")
    body["choices"][0]["message"]["content"] = None
    rec, reqs = _run_one(serve, tmp_path, [Reply(body=body)])
    assert (rec.status, rec.attempts, rec.text, len(reqs)) == ("completed", 1, "", 1)


def test_a_wrong_answer_is_never_retried(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(body=completion("I think it prints 7"))])
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 1, 1)


def test_400_is_a_final_no_response(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(400, b'{"error":"context length exceeded"}'), OK])
    assert (rec.status, rec.attempts, len(reqs)) == ("no-response", 1, 1)
    assert "context length exceeded" in rec.errors[0]


def test_401_stops_the_setting_without_recording(serve, tmp_path: Path) -> None:
    bad = serve(lambda req: Reply(401, b'{"error":"invalid key"}'))
    good = serve(lambda req: Reply(body=completion(answer(task_index(req)))))
    settings = [fast_setting(bad.url, name="bad"), fast_setting(good.url, name="good")]
    tasks = [make_task(i) for i in range(6)]
    summary = run_tasks(tasks, settings, tmp_path / "out", progress=False)
    records = read_records(tmp_path / "out")
    assert {r.setting for r in records} == {"good"} and len(records) == 6
    assert "invalid key" in summary.aborted["bad"] and not summary.ok
    assert summary.missing == 6
    # The stopped setting resumes later: nothing of it was recorded.
    assert [r.setting for r in read_records(tmp_path / "out")].count("bad") == 0


def test_retry_after_is_capped_by_backoff_max(serve, tmp_path: Path) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(429, headers={"Retry-After": "3600"}), OK], backoff_max_s=0.05)
    assert (rec.status, rec.attempts) == ("completed", 2)
    assert reqs[1].received_at - reqs[0].received_at < 5


@pytest.mark.parametrize("status", [408, 409, 425, 502, 504])
def test_other_transient_statuses_are_retried(serve, tmp_path: Path, status: int) -> None:
    rec, reqs = _run_one(serve, tmp_path, [Reply(status), OK])
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 2, 2)


def test_endpoint_sockets_use_tcp_keepalive() -> None:
    import socket

    from execstate.run.providers import keepalive_socket

    with keepalive_socket((socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", ("127.0.0.1", 0))) as sock:
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        if hasattr(socket, "TCP_KEEPIDLE"):
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 60


def test_a_lone_surrogate_in_the_reply_is_recorded_as_a_replacement_character(serve, tmp_path: Path) -> None:
    # JSON may carry "\ud83d" without its pair; UTF-8 cannot, so the record would be unwritable.
    body = (
        b'{"choices":[{"message":{"content":"{\\"output\\": \\"a\\ud83db \\ud83d\\ude00\\"}"},"finish_reason":"stop"}]}'
    )
    rec, reqs = _run_one(serve, tmp_path, [Reply(body=body)])
    assert (rec.status, rec.attempts, len(reqs)) == ("completed", 1, 1)
    assert rec.text == '{"output": "a\ufffdb \U0001f600"}'


def test_cancelling_a_request_is_not_mistaken_for_its_timeout(serve) -> None:
    import asyncio

    from execstate.run.providers.openai import OpenAIProvider
    from execstate.testing.loopback import Hold

    server = serve(lambda req: Hold())
    provider = OpenAIProvider(fast_setting(server.url, timeout_s=30.0), None)

    async def go() -> None:
        attempt = asyncio.ensure_future(provider.attempt(cell_request(make_task(0), 0)))
        await asyncio.to_thread(server.wait_for_requests, 1)
        attempt.cancel()  # e.g. Ctrl-C: must propagate, not become a recorded "timeout"
        with pytest.raises(asyncio.CancelledError):
            await attempt
        short = OpenAIProvider(fast_setting(server.url, timeout_s=0.2), None)
        try:
            result = await short.attempt(cell_request(make_task(1), 0))  # the deadline alone: a timeout, absorbed
        finally:
            await short.aclose()
        assert (result.kind, result.error) == ("timeout", "timeout: no complete response within 0.2 s")
        assert asyncio.current_task().cancelling() == 0  # type: ignore[union-attr]
        await provider.aclose()

    asyncio.run(go())
    server.release_all()


@pytest.mark.parametrize("key", ["reasoning_content", "reasoning"])
def test_the_servers_separate_reasoning_text_is_kept_beside_the_answer(serve, tmp_path: Path, key: str) -> None:
    body = completion(answer(0))
    body["choices"][0]["message"][key] = "first, x = 0 ..."
    rec, _ = _run_one(serve, tmp_path, [Reply(body=body)])
    assert (rec.status, rec.text, rec.reasoning) == ("completed", answer(0), "first, x = 0 ...")


def test_no_reasoning_field_records_none(serve, tmp_path: Path) -> None:
    rec, _ = _run_one(serve, tmp_path, [OK])
    assert rec.reasoning is None and rec.text == answer(0)
