"""Long inputs for problems that only have samples: infer the input's shape, write ``gen.py``, grow it until the cap.

When neither a problem's tests nor its own generator give a short/long pair,
the constructor calls ``synthesize``: the shapes inferred from the passing test
inputs (``_properties.infer_shapes``) are tried best first; each is written as a
``gen.py`` (``_genpy.generator_source``) and asked for seed ``SEED`` and sizes
``generator_sizes`` (2, 4, 8, ...) until an input is over the trace cap, fails,
or the trace stops growing. A synthesized input counts only if

- it has its shape (``_shape.check``: the generator printed what it should),
- the program runs it cleanly: exit 0, nothing on stderr, within the limits,
  the same output under two hash seeds,
- the problem's ``validator.py``, when it has one, exits 0 on it.

The short input always comes from the tests. A chosen synthesized long input
is written as ``gen.py`` beside the spec, with ``long_input = { generator =
"gen.py", args = [SEED, SIZE] }``, so a rebuild re-creates the same bytes.
``retry_long`` gives a problem one more long input when every loop failed on
the first (see there). Every input row records its ``origin``: ``test``,
``generator`` or ``synthesized``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from execstate.builder import BuildOptions
from execstate.construct._genpy import generator_source
from execstate.construct._pool import Problem
from execstate.construct._properties import infer_shapes
from execstate.construct._shape import Shape, check, describe
from execstate.languages import ConstructLanguage, helper_language

SEED = 1
"""The seed every synthesized input is drawn with (the generator's first argument)."""
MAX_TRIED = 3
"""Shapes tried, best first, before the problem is given up."""
STALL = 3
"""Sizes in a row whose input grows but whose trace does not before growing stops (a size floor is no stall)."""
MAX_TIMEOUT_RETRIES = 3
"""Smaller synthesized long inputs tried after measurements that ran out of time (each at most half the last)."""
OVERSHOOT = 2
"""Growing stops when the next size's trace, extrapolated from the last two, is over this many times the cap."""


class Work(Protocol):
    """What synthesis needs of the constructor's per-problem work (``_construct._Work``)."""

    problem: Problem
    source: str
    lang: ConstructLanguage
    build_opts: BuildOptions
    record: dict[str, Any]

    @property
    def tmp(self) -> Any: ...

    @property
    def opts(self) -> Any: ...

    def run(self, source: str, data: bytes) -> Any: ...

    def trace(self, data: bytes) -> int | None: ...

    @property
    def untraced(self) -> str:
        """Why the last ``trace`` that returned None could not measure."""
        ...


Choose = Callable[[Any, list[dict[str, Any]]], "tuple[dict[str, Any], dict[str, Any]] | None"]


def synthesize(work: Work, rows: list[dict[str, Any]], choose: Choose) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Add synthesized inputs to ``rows`` and choose again (``choose``); the first shape whose long input wins.

    Records what was tried in ``work.record["synthesis"]``: the number of samples and, per shape,
    its description and outcome, or the reason no shape was inferred.
    """
    samples = [r["data"] for r in rows if r.get("origin") == "test" and "data" in r]
    inferred = infer_shapes(samples)
    tried: list[dict[str, Any]] = []
    work.record["synthesis"] = {"samples": len(samples), "shapes": tried}
    if inferred.reason is not None:
        work.record["synthesis"]["reason"] = inferred.reason
        return None
    for index, shape in enumerate(inferred.shapes[:MAX_TRIED], start=1):
        entry = {"shape": describe(shape)}
        tried.append(entry)
        grown = _grow(work, shape, index)
        rows += grown
        chosen = choose(work, rows)
        if chosen is not None and chosen[1].get("origin") == "synthesized":
            entry["outcome"] = f"chosen: {chosen[1]['input']}"
            return chosen
        entry["outcome"] = _why_not(grown)
    return None


def retry_long(
    work: Work,
    rows: list[dict[str, Any]],
    short: dict[str, Any],
    long: dict[str, Any],
    failed: tuple[str, str],
    choose: Choose,
) -> dict[str, Any] | None:
    """Another long input after every loop failed on this one (``failed``: the last check and reason), or None.

    - On a test's (or the generator's) long input whose loops all failed the projection (no build
      check: that would fail again), a synthesized one: variables too long to show, or equal at
      both checkpoints, on one long input are often fine on another.
    - On a synthesized long input whose measurement exceeded a budget (its state cost was predicted
      under it, wrongly) or ran out of time, the largest synthesized one
      at most half its trace that is still ``min_ratio`` times the short's: state measurement costs
      grow with the trace, and the cap says nothing of how big a program's state is.

    The first is tried once, the second up to ``MAX_TIMEOUT_RETRIES`` times (halving the trace each
    time), and in this order only (a synthesized long input that replaced a test's may
    still be replaced by a smaller one); the failed attempts are kept in ``work.record["first_pair"]``
    and ``work.record["timeout_pairs"]``.
    """
    check_, reason = failed
    loops = work.record.get("loops", [])
    if long.get("origin") == "synthesized":
        timeouts = work.record.get("timeout_pairs", [])
        spent = check_ == "budget" or (check_ == "run" and "timeout" in reason)
        if not spent or len(timeouts) >= MAX_TIMEOUT_RETRIES:
            return None
        work.record["timeout_pairs"] = [*timeouts, {"long": long["input"], "check": check_, "loops": loops}]
        smaller = [
            r for r in rows if r.get("origin") == "synthesized" and r.get("trace", long["trace"]) <= long["trace"] // 2
        ]
        chosen = choose(work, [short, *(r for r in smaller if "rejected" not in r)])
        return chosen[1] if chosen is not None else None
    if "first_pair" in work.record or "timeout_pairs" in work.record:
        return None
    if check_ != "projection" or any(str(loop.get("rejected", "")).startswith("excluded by") for loop in loops):
        return None
    work.record["first_pair"] = {"long": long["input"], "check": check_, "loops": loops}
    chosen = synthesize(
        work, rows, lambda work_, rs: choose(work_, [r for r in rs if r is short or r["origin"] == "synthesized"])
    )
    return chosen[1] if chosen is not None else None


def _why_not(grown: list[dict[str, Any]]) -> str:
    last = grown[-1] if grown else {}
    if "rejected" in last:
        return f"no long input: {last['input']}: {last['rejected']}"
    return "no long input: no synthesized trace is at least min_ratio times the short one's within max_trace"


def _grow(work: Work, shape: Shape, index: int) -> list[dict[str, Any]]:
    """Inputs of ``shape`` at growing sizes, up to the first that fails, is over a cap, or stops the growth."""
    text = generator_source(shape, work.problem.id)
    runner = helper_language(work.build_opts, "gen.py")  # the builder's helper language, whatever the program's
    assert runner is not None
    rows: list[dict[str, Any]] = []
    grown: list[tuple[int, int]] = []  # (bytes, trace) of each usable size
    for size in work.opts.generator_sizes:
        args = (str(SEED), str(size))
        label = f"synthesized #{index} seed={SEED} size={size}"
        row: dict[str, Any] = {"input": label, "origin": "synthesized", "shape": describe(shape)}
        rows.append(row)
        made = runner.run(text, b"", work.tmp, args=args)
        if not made.ok:
            row["rejected"] = f"gen.py fails: {made.describe()}"
            break
        data = bytes(made.stdout)
        row["bytes"] = len(data)
        problem = _unusable(work, shape, data)
        if problem is not None:
            row["rejected"] = problem
            break
        trace = work.trace(data)
        if trace is None:
            row["rejected"] = work.untraced
            break
        row.update(trace=trace, data=data, generator=text, args=list(args))
        if trace > work.opts.max_trace:
            row["rejected"] = f"trace {trace} is over max_trace ({work.opts.max_trace})"
            break
        grown.append((len(data), trace))
        if len(grown) > STALL and grown[-1][0] > grown[-1 - STALL][0] and trace <= grown[-1 - STALL][1]:
            row["stopped"] = f"the input grew over the last {STALL} sizes but its trace did not"
            break
        ahead = trace * trace // max(grown[-2][1], 1) if len(grown) >= 2 else 0
        if ahead > OVERSHOOT * work.opts.max_trace:  # measuring an input far over the cap costs much and tells nothing
            row["stopped"] = f"the next size's trace would be about {ahead}, over {OVERSHOOT}x max_trace"
            break
    return rows


def _unusable(work: Work, shape: Shape, data: bytes) -> str | None:
    """Why a synthesized input does not count (see the module docstring), or None."""
    if len(data) > work.build_opts.max_input_bytes:
        return f"over max_input_bytes ({work.build_opts.max_input_bytes})"
    bad = check(shape, data)
    if bad is not None:
        return f"gen.py printed an input outside its shape: {bad}"
    first = work.run(work.source, data)
    if not first.ok or first.stderr.strip():
        return f"the program does not run it cleanly: {first.describe()}"
    second = work.lang.run(work.source, data, work.tmp, seed=1)
    if not second.ok or second.stdout != first.stdout:
        return "the program's output differs between two runs (hash seeds 0 and 1)"
    validator = work.problem.validator
    if validator is not None:
        checker = helper_language(work.build_opts, validator.name)
        assert checker is not None
        verdict = checker.run(validator.read_text(encoding="utf-8"), data, work.tmp)
        if not verdict.ok:
            return f"{validator.name} rejects it: {verdict.describe()}"
    return None


def synthesis_note(record: dict[str, Any]) -> str:
    """What synthesis tried, to end a rejection's reason with ("" when it was not tried)."""
    tried = record.get("synthesis")
    if tried is None:
        return ""
    if "reason" in tried:
        return f"; no input shape could be inferred from the samples ({tried['reason']})"
    return f"; nor in {len(tried['shapes'])} synthesized input shape(s) (construct.json: synthesis)"


def origins(short: dict[str, Any], long: dict[str, Any]) -> dict[str, str]:
    """The spec's ``[provenance]`` keys that say where each input came from (and the synthesized long's shape)."""
    out = {"short_origin": short.get("origin", "test"), "long_origin": long.get("origin", "test")}
    if long.get("origin") == "synthesized":
        out["long_shape"] = long["shape"]
    return out
