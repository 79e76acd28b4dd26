"""Throughput of ``execstate run`` against a loopback server with fixed latency, as a fraction of ideal.

Ideal throughput with C requests in flight and a server latency of L seconds is
C / L requests per second. The server runs in its own process
(``python -m execstate.testing.loopback``: a bare asyncio protocol that answers
each request exactly L seconds after reading it, at ~0.05 ms of CPU each), so
the client's CPU time per request (user + system, from ``getrusage``) is the
client's alone. Each row runs the whole library path as ``execstate run``
does: read and validate ``tasks.jsonl``, preflight, retry policy,
group-committed fsync-ed ``responses.jsonl`` and the manifest.

Two ratios are printed:

- ``whole``: all requests / wall time of the whole call, start-up included.
  This is the number the target (>= 0.9 of ideal) is about.
- ``steady``: records finished per second between the end of the first round
  and the start of the last (from the ``finished_at`` stamps in
  ``responses.jsonl``), i.e. without start-up and ramp.

The interpreter matters at C=256: on Python 3.11 aiohttp writes each request
body from a separately scheduled task (one extra pass of the event loop per
request, which adds up in the bursts a fixed-latency server produces); on
3.12+ that write starts eagerly. The first line names the interpreter.

With ``--compare`` it also times, side by side on the same event loop, bare
POSTs with no recording at all: through aiohttp (the floor under
``run_tasks``) and through httpx, each worker owning a one-connection
``AsyncClient`` (httpx's cheapest arrangement; one shared pool of C
connections is far slower still). The httpx row is why the provider uses
aiohttp: its CPU per request alone caps throughput below the target at C=256.

--smoke: latency 0.05 s, 3 rounds, concurrency 4, with the --compare rows.

    python benchmarks/runner.py [--latency 0.2] [--rounds 50] [--concurrency 64 256] [--compare] [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib.util
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import aiohttp
import yarl

try:
    import httpx
except ImportError:  # only this benchmark's side-by-side transport needs it
    sys.exit("benchmarks/runner.py compares against httpx: pip install -e '.[bench]'")

from execstate.records import Response, Task, read_jsonl, write_jsonl
from execstate.run import Setting, event_loop_run, run_tasks


def _cpu_s() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def _tasks(n: int) -> list[Task]:
    return [
        Task(
            task_id=f"bench/{i}/short-trace-final",
            case_id=f"bench/{i}",
            study="bench",
            language="python",
            arm="short-trace-final",
            source=f"print({i})\n",
            input="",
            oracle=str(i),
            answer_kind="text",
            grading_rule="json-or-tokens",
            source_sha256="0" * 64,
        )
        for i in range(n)
    ]


def start_server(latency: float) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "execstate.testing.loopback", "--latency", str(latency)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("PORT "):
        proc.kill()
        raise RuntimeError(f"loopback server did not start: {line!r}")
    return proc, f"http://127.0.0.1:{int(line.split()[1])}/v1"


def bench_run_tasks(url: str, concurrency: int, rounds: int) -> tuple[int, float, float, float]:
    """(requests, wall seconds, client CPU seconds, steady-state requests/s) for one full ``run_tasks``."""
    n = concurrency * rounds
    setting = Setting(name=f"bench-c{concurrency}", base_url=url, model="loopback", concurrency=concurrency)
    with tempfile.TemporaryDirectory() as tmp:
        tasks = Path(tmp) / "tasks.jsonl"
        write_jsonl(tasks, _tasks(n))  # the input file, as `execstate run --tasks FILE` reads it
        cpu0, t0 = _cpu_s(), time.perf_counter()
        summary = run_tasks(tasks, [setting], Path(tmp) / "out", progress=False)
        wall, cpu = time.perf_counter() - t0, _cpu_s() - cpu0
        finished = sorted(
            datetime.fromisoformat(str(r.finished_at)).timestamp()
            for r in read_jsonl(Path(tmp) / "out" / "responses.jsonl", Response)
        )
    if summary.new_records != n or summary.recorded[setting.name]["completed"] != n:
        raise RuntimeError(f"expected {n} completed records, got {summary.recorded}")
    return n, wall, cpu, steady_rate(finished, concurrency)


def steady_rate(finished: list[float], concurrency: int) -> float:
    """Records per second from the end of the first round to the start of the last (sorted stamps)."""
    first, last = concurrency - 1, len(finished) - concurrency - 1
    if last <= first:
        return float("nan")
    return (last - first) / (finished[last] - finished[first])


def bench_aiohttp(url: str, concurrency: int, rounds: int) -> tuple[int, float, float, float]:
    """Bare aiohttp POSTs over one session with ``concurrency`` connections, nothing recorded."""
    n = concurrency * rounds
    body = json.dumps({"model": "loopback", "messages": [{"role": "user", "content": "x" * 300}]}).encode()
    target = yarl.URL(url + "/chat/completions")

    async def go() -> None:
        connector = aiohttp.TCPConnector(limit=concurrency)
        async with aiohttp.ClientSession(connector=connector) as session:
            todo = iter(range(n))

            async def worker() -> None:
                for _ in todo:
                    async with session.post(target, data=body) as r:
                        json.loads(await r.read())

            await asyncio.gather(*(worker() for _ in range(concurrency)))

    cpu0, t0 = _cpu_s(), time.perf_counter()
    event_loop_run(go())
    return n, time.perf_counter() - t0, _cpu_s() - cpu0, float("nan")


def bench_httpx(url: str, concurrency: int, rounds: int) -> tuple[int, float, float, float]:
    """Bare httpx POSTs, one one-connection client per worker, nothing recorded."""
    n = concurrency * rounds
    body = json.dumps({"model": "loopback", "messages": [{"role": "user", "content": "x" * 300}]}).encode()
    ssl_context = httpx.create_ssl_context()  # shared: building one per client costs ~75 ms each

    async def go() -> None:
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        clients = [httpx.AsyncClient(limits=limits, timeout=None, verify=ssl_context) for _ in range(concurrency)]
        todo = iter(range(n))

        async def worker(client: httpx.AsyncClient) -> None:
            for _ in todo:
                r = await client.post(url + "/chat/completions", content=body)
                json.loads(r.content)

        await asyncio.gather(*(worker(c) for c in clients))
        for c in clients:
            await c.aclose()

    cpu0, t0 = _cpu_s(), time.perf_counter()
    event_loop_run(go())
    return n, time.perf_counter() - t0, _cpu_s() - cpu0, float("nan")


def server_cpu_s(pid: int) -> float:
    """User + system CPU seconds of the server process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _row(
    label: str, concurrency: int, latency: float, n: int, wall: float, cpu: float, steady: float, server_cpu: float
) -> str:
    achieved, ideal = n / wall, concurrency / latency
    ceiling = n / cpu  # requests per second if the client had one core to itself
    steady_text = "  --  " if steady != steady else f"{steady / ideal:5.3f}"
    return (
        f"{label:<24} c={concurrency:<4} n={n:<6} {achieved:7.1f} req/s  ideal {ideal:7.1f}  "
        f"ratio whole {achieved / ideal:5.3f} steady {steady_text}  client CPU {cpu / n * 1e3:5.3f} ms/req "
        f"(one-core ceiling {ceiling / ideal:4.1f}x ideal)  server CPU {server_cpu / n * 1e3:5.3f} ms/req"
    )


def _measure(
    proc: subprocess.Popen[str], bench: Callable[[], tuple[int, float, float, float]]
) -> tuple[int, float, float, float, float]:
    s0 = server_cpu_s(proc.pid)
    n, wall, cpu, steady = bench()
    return n, wall, cpu, steady, server_cpu_s(proc.pid) - s0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument(
        "--rounds",
        type=int,
        default=50,
        help="requests per worker (n = concurrency x rounds); 50 amortizes start-up (preflight, manifest)",
    )
    ap.add_argument("--concurrency", type=int, nargs="+", default=[64, 256])
    ap.add_argument("--compare", action="store_true", help="also time bare aiohttp and bare httpx")
    ap.add_argument("--smoke", action="store_true", help="a few requests through every row: does it still run?")
    args = ap.parse_args()
    if args.smoke:  # smaller defaults; options given on the command line still win
        ap.set_defaults(latency=0.05, rounds=3, concurrency=[4], compare=True)
        args = ap.parse_args()
    proc, url = start_server(args.latency)
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    print(
        f"Python {platform.python_version()}, aiohttp {aiohttp.__version__}, {loop} event loop; "
        f"loopback latency {args.latency} s; load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    try:
        for c in args.concurrency:
            row = _measure(proc, functools.partial(bench_run_tasks, url, c, args.rounds))
            print(_row("run_tasks (aiohttp)", c, args.latency, *row), flush=True)
            if args.compare:
                row = _measure(proc, functools.partial(bench_aiohttp, url, c, args.rounds))
                print(_row("bare aiohttp, no records", c, args.latency, *row), flush=True)
                row = _measure(proc, functools.partial(bench_httpx, url, c, args.rounds))
                print(_row("bare httpx, no records", c, args.latency, *row), flush=True)
    finally:
        proc.kill()
        proc.wait()
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
