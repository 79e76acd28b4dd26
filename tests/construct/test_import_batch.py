"""The importers' batch runner: record order whatever the finishing order, failures as records, Ctrl-C keeps what finished."""

from __future__ import annotations

import time

from execstate.construct._report import Imported, Pending, Skipped, run_batch


def _imported(n: int, delay: float = 0.0):
    def work() -> Imported:
        time.sleep(delay)
        return Imported(id=f"p{n}", record=f"r{n}", path=f"pool/p{n}")

    return work


def test_outcomes_come_in_record_order_and_a_crash_is_a_record():
    def crash() -> Imported:
        raise RuntimeError("boom")

    items = [
        Pending("r0", "p0", _imported(0, 0.2)),
        Skipped(record="r1", kind="filtered", reason="difficulty 'easy', not 'hard'"),
        Pending("r2", "p2", crash),
        *[Pending(f"r{n}", f"p{n}", _imported(n, 0.01 * (9 - n))) for n in range(3, 9)],
    ]
    seen: list[tuple[int, str]] = []
    outcomes, interrupted = run_batch(items, 3, lambda done, o: seen.append((done, o.record)))
    assert not interrupted
    assert [o.record for o in outcomes] == [f"r{n}" for n in range(9)]
    assert seen == [(n + 1, f"r{n}") for n in range(9)]
    crashed = outcomes[2]
    assert isinstance(crashed, Skipped) and crashed.kind == "error" and crashed.id == "p2"
    assert crashed.reason == "the importer failed on this record: RuntimeError: boom"


def test_an_interrupt_keeps_what_finished_and_every_problem_written():
    def interrupt() -> Imported:
        time.sleep(0.2)  # p1 below finishes first: it was written, so the report must list it
        raise KeyboardInterrupt

    items = iter([Pending("r0", "p0", interrupt), Pending("r1", "p1", _imported(1)), Pending("r2", "p2", _imported(2))])
    outcomes, interrupted = run_batch(items, 2, None)
    assert interrupted
    assert [o.record for o in outcomes] == ["r1", "r2"]
