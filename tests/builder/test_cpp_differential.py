"""Differential test: ``instrument_cpp``'s checkpoints equal an independent observer's, on generated C++ programs.

Each program comes from ``cpp_differential/programs.py`` (a seeded generator: nested and sequential loops
of every kind, ``continue``, ``break``, early ``return``, brace-less bodies, loops in functions called
several times, ints read from stdin). The reference is computed WITHOUT ``instrument_cpp``: the generator
renders a second, observer copy of the program from its own syntax tree, which logs every entry to the
selected loop's body and every exit of the loop statement with the full projection (its own JSON
writer); K, the inside state at k and the post state are computed from that trace in Python. Then the
``count``, ``observe``, ``inside`` and ``post`` copies and the preservation variant, made by
``instrument_cpp``, must agree with it byte for byte, at up to four k per program (1, floor(K/2)+1, K
and a random one; K+1 for every tenth program, where nothing may fire). The selected loop is one that runs
(nine times in ten), favouring loops that some execution leaves by ``return``.

To stay fast, the programs are compiled in batches of up to 100: each program lives in its own namespace, so one
translation unit holds a batch of copies (each with its own inserted prefix) and a ``main`` that runs the
program its first argument names. Every binary runs through ``execstate.sandbox.run``.

Size: 100 programs by default (about 600 checkpoints compared; half the test suite's former 200, which took
258 s of a CI run on 2 busy cores); ``EXECSTATE_CPP_DIFFERENTIAL=<n>`` runs n instead (e.g. 40 for a quick check,
2000 for a long one). The generator's coverage floors below scale with n.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cpp_differential.programs import Program, generate, main_line, render
from cpp_differential.toolchain import compile_cpp, execute, needs_gxx

from execstate.languages._protocol import COUNT_MARKER
from execstate.languages.cpp.instrument import instrument_cpp
from execstate.languages.cpp.protocol import parse_slots
from execstate.languages.cpp.syntax import check_variables_cpp, resolve_loop_cpp

PROGRAMS = int(os.environ.get("EXECSTATE_CPP_DIFFERENTIAL", "100"))
BATCH = 100
COMPILERS = 2
RUNNERS = 4


def _batch_source(copies: list[tuple[Program, str, str | None]]) -> str:
    """One translation unit from complete programs: each without its ``main``, then a dispatcher.

    ``copies``: (program, text, the inserted prefix or None); a prefix is renamed per program (it occurs
    nowhere in the clean text, so the renaming touches only inserted names).
    """
    parts = []
    for index, (program, text, prefix) in enumerate(copies):
        tail = main_line(program.name) + "\n"
        assert text.endswith(tail), program.name
        body = text[: -len(tail)]
        if prefix is not None:
            body = body.replace(prefix, f"_es{index}x_")
        parts.append(body)
    calls = "".join(f'    if (!std::strcmp(argv[1], "{p.name}")) return {p.name}::run();\n' for p, _, _ in copies)
    parts.append(
        f"#include <cstring>\nint main(int argc, char** argv) {{\n    if (argc < 2) return 99;\n{calls}"
        "    return 98;\n}\n"
    )
    return "".join(parts)


class _Bench:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.compile_pool = ThreadPoolExecutor(COMPILERS)
        self.run_pool = ThreadPoolExecutor(RUNNERS)

    def compile_all(self, units: dict[str, str]) -> dict[str, Path]:
        def one(item: tuple[str, str]) -> tuple[str, Path]:
            name, source = item
            exe, diagnostics = compile_cpp(source, self.root / name, name)
            assert exe is not None, f"{name} does not compile:\n{diagnostics[-3000:]}"
            return name, exe

        return dict(self.compile_pool.map(one, units.items()))

    def run_all(self, jobs: dict[tuple, tuple[Path, Program]]):
        def one(item):
            key, (exe, program) = item
            return key, execute(exe, program.stdin, (program.name,))

        return dict(self.run_pool.map(one, jobs.items()))


def _trace(stderr: bytes) -> dict[int, list[tuple[str, int, str]]]:
    """The observer's events per loop: {loop: [(T or X, execution, projection JSON)]}."""
    events: dict[int, list[tuple[str, int, str]]] = {}
    for line in stderr.decode().splitlines():
        m = re.fullmatch(r"([TX]) (\d+) (\d+) (\{.*\})", line)
        assert m, line
        events.setdefault(int(m.group(2)), []).append((m.group(1), int(m.group(3)), m.group(4)))
    return events


def _post(events: list[tuple[str, int, str]], k: int) -> str | None:
    seen = 0
    target = None
    for tag, run, js in events:
        if tag == "T":
            seen += 1
            if seen == k:
                target = run
        elif target is not None and run == target:
            return js
    return None


def _slots(js: str) -> int:
    return sum(len(v) if isinstance(v, list) else 1 for v in json.loads(js).values())


@needs_gxx
def test_instrument_cpp_agrees_with_an_independent_observer(tmp_path):
    programs = {p.name: p for p in (generate(seed) for seed in range(PROGRAMS))}
    batches = [list(programs.values())[i : i + BATCH] for i in range(0, len(programs), BATCH)]
    bench = _Bench(tmp_path)
    problems: list[str] = []

    # Phase 1: the clean programs and their observer copies (which trace every loop).
    units: dict[str, str] = {}
    for b, batch in enumerate(batches):
        units[f"b{b}-clean"] = _batch_source([(p, render(p)[0], None) for p in batch])
        units[f"b{b}-observer"] = _batch_source([(p, render(p, observer=True)[0], None) for p in batch])
    exes = bench.compile_all(units)
    jobs = {
        (p.name, v): (exes[f"b{b}-{v}"], p)
        for b, batch in enumerate(batches)
        for p in batch
        for v in ("clean", "observer")
    }
    first = bench.run_all(jobs)
    for key, res in first.items():
        assert res.ok, f"{key}: {res.describe()}"

    # Select a loop per program (one that runs, nine times in ten) and plan the k to check.
    rng = random.Random(2024)
    stats: Counter[str] = Counter()
    traces: dict[str, list[tuple[str, int, str]]] = {}
    plans: dict[str, list[int]] = {}
    clean: dict[str, tuple[str, int]] = {}
    for i, p in enumerate(programs.values()):
        if first[(p.name, "observer")].stdout != first[(p.name, "clean")].stdout:
            problems.append(f"{p.name}: the observer changed the program's output")
        per_loop = _trace(first[(p.name, "observer")].stderr)
        running = sorted(ident for ident in p.loops if per_loop.get(ident))
        # Loops with an execution left by `return` (no exit event) are rarer: favour them a little.
        left = [i for i in running if len({r for _, r, _ in per_loop[i]}) > sum(t == "X" for t, _, _ in per_loop[i])]
        roll = rng.random()
        p.selected = rng.choice(left if left and roll < 0.3 else running if running and roll < 0.9 else sorted(p.loops))
        text, line = clean[p.name] = render(p)
        assert resolve_loop_cpp(text, line, None) == line
        check_variables_cpp(text, line, p.variables)  # the generator projects only names in scope
        events = traces[p.name] = per_loop.get(p.selected, [])
        K = sum(tag == "T" for tag, _, _ in events)
        runs = {run for tag, run, _ in events if tag == "T"}
        stats["K=0"] += K == 0
        stats["several executions"] += len(runs) > 1
        stats["an execution left without exit"] += len(runs) > sum(tag == "X" for tag, _, _ in events)
        stats["in a function"] += p.loop.function != "run"
        stats["brace-less body"] += not p.loop.braces
        stats[f"kind {p.loop.kind}"] += 1
        ks = {1, K // 2 + 1, K, rng.randint(1, max(K, 1))} if K else {1}
        if i % 10 == 0:
            ks.add(K + 1)
        plans[p.name] = sorted(ks)

    # Phase 2: count, observe and the preservation variant; inside and post at every planned k.
    units = {}
    unit_of: dict[tuple[str, str, int], str] = {}
    for b, batch in enumerate(batches):
        variants = [("count", 0), ("observe", 0), ("preserve", 0)]
        variants += [(mode, j) for j in range(max(len(plans[p.name]) for p in batch)) for mode in ("inside", "post")]
        for mode, j in variants:
            copies = []
            for p in batch:
                if j < len(plans[p.name]):
                    text, line = clean[p.name]
                    k = plans[p.name][j]
                    kind = "inside" if mode == "preserve" else mode
                    inst = instrument_cpp(text, line, p.variables, kind, k, active=mode != "preserve")
                    copies.append((p, inst.source, inst.prefix))
                    unit_of[(p.name, mode, j)] = f"b{b}-{mode}{j}"
            units[f"b{b}-{mode}{j}"] = _batch_source(copies)
    exes = bench.compile_all(units)
    results = bench.run_all({key: (exes[unit], programs[key[0]]) for key, unit in unit_of.items()})
    checked = fired_post = 0
    for (name, mode, j), res in sorted(results.items()):
        events, k = traces[name], plans[name][j]
        iterations = [js for tag, _, js in events if tag == "T"]
        clean_out = first[(name, "clean")].stdout
        if not res.ok:
            problems.append(f"{name} {mode} k={k}: {res.describe()}")
        elif mode in ("count", "observe", "preserve"):
            if res.stdout != clean_out:
                problems.append(f"{name} {mode}: printed {res.stdout[-200:]!r}, the clean run {clean_out[-200:]!r}")
            if mode == "count":
                found = re.findall(rb"\n" + COUNT_MARKER.encode() + rb"(\d+)\n", res.stderr)
                if sum(int(n) for n in found) != len(iterations):  # every copy in the batch reports; others 0
                    problems.append(f"{name}: count reported {found}, the observer saw K={len(iterations)}")
            if mode == "observe":
                trace = parse_slots(res.stderr)
                got = [(run, slots) for run, slots, repeat in trace.events for _ in range(max(repeat, 1))]
                want = [(run, _slots(js) if tag == "T" else -1) for tag, run, js in events]
                if got != want:
                    problems.append(f"{name}: observe recorded {got[:12]}..., the observer {want[:12]}...")
        else:
            want_js = iterations[k - 1] if mode == "inside" and k <= len(iterations) else None
            if mode == "post":
                want_js = _post(events, k)
                fired_post += want_js is not None
            expected = b"" if want_js is None else want_js.encode() + b"\n"
            checked += 1
            if res.stdout != expected:
                problems.append(f"{name} {mode} k={k}: got {res.stdout!r}, expected {expected!r}")
    bench.compile_pool.shutdown()
    bench.run_pool.shutdown()
    assert not problems, (
        f"{len(problems)} disagreements, first: " + "\n".join(problems[:8]) + (f"\n(the sources are under {tmp_path})")
    )
    stats["checkpoints compared"], stats["post checkpoints that fire"] = checked, fired_post
    print(f"\n{len(programs)} programs: {dict(sorted(stats.items()))}")
    # The generator must keep exercising what it is for.
    n = len(programs) / 200
    assert checked >= 4 * len(programs) and fired_post >= len(programs) // 2, stats
    assert stats["several executions"] >= 20 * n and stats["an execution left without exit"] >= 5 * n, stats
    assert stats["in a function"] >= 20 * n and stats["brace-less body"] >= 20 * n, stats
