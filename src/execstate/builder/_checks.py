"""The nine admission checks of SPEC section 4, in the order the builder runs them, and ``Excluded``.

Cheap checks run first; the first that fails excludes the case (docs/protocol.md, "Admission checks and
their order"). Each ``check_*`` is named for the ``Exclusion.check`` it raises; in the order they run
(SPEC 4's number in brackets):

- ``check_determinism``: ``run`` [3] and ``determinism`` [1], the clean program on each input;
- ``check_trace_order``: ``trace-order`` [2], three measurements per input;
- ``check_iterations``: ``iterations`` [9], K >= 2;
- ``check_reachability``: ``reachability`` [4], k <= K; then, per checkpoint, it fires in every
  variation (``check_fired``: projected names bound), its state fits (``check_checkpoint_size``),
  is the same in every variation (``check_oracle_determinism`` [7]) and is one line (``check_one_line``);
- ``check_fields``: ``fields`` [5], same keys, same JSON types;
- ``check_change``: ``change`` [6];
- ``check_preservation``: ``preservation`` [8].

Around them: ``check_input_size`` (``input-size``, as each input is read) and ``check_measurement``
(``measurement``, on each measurement a task's metrics come from); a checkpoint sweep's extra iterations
are checked like the inside arm (``check_sweep_reachability``, ``check_sweep_fields``).
"""

from __future__ import annotations

from execstate.builder._context import CaseContext
from execstate.environments import undeclared_import
from execstate.languages import Instrumented, Variation
from execstate.metrics import Measurement
from execstate.records import json_type
from execstate.sandbox import SandboxResult
from execstate.values import json_value


class Excluded(Exception):
    """A case that cannot become tasks: the check it failed (``check``) and the evidence (``reason``).

    The one exception for an exclusion. Raised inside a case build, it becomes the case's
    ``Exclusion`` record (``check`` one of ``records.Check``); raised while construct makes a
    problem's spec, it becomes the problem's ``Outcome``, whose ``check`` may also name the
    construction step that failed (``tests``, ``inputs``, ``loops``, ``projection``).
    """

    def __init__(self, check: str, reason: str) -> None:
        super().__init__(reason)
        self.check, self.reason = check, reason


def check_input_size(case: CaseContext, key: str, origin: str, size: int) -> None:
    """``input-size``: an input (a file, or a generator's output) is at most ``max_input_bytes``."""
    limit = case.opts.max_input_bytes
    if size > limit:
        raise Excluded(
            "input-size",
            f"{key} ({origin}) is {size} bytes, more than max_input_bytes = {limit}; "
            "use a shorter input or raise BuildOptions.max_input_bytes",
        )


def check_determinism(case: CaseContext, name: str, data: bytes) -> bytes:
    """``run`` and ``determinism``: the clean program exits 0 on the ``name`` input in every variation and
    prints the same UTF-8 bytes each time; those bytes."""
    reference, *others = case.lang.variations
    first = case.run(case.source, data, reference)
    if not first.ok:
        undeclared = undeclared_import(first.stderr, "the case spec")  # names the module and the declaration
        raise Excluded("run", f"clean program on the {name} input: {undeclared or first.describe()}")
    for variation in others:
        other = case.run(case.source, data, variation)
        if not other.ok:
            raise Excluded("run", f"clean program on the {name} input, {variation.name}: {other.describe()}")
        if other.stdout != first.stdout:
            raise Excluded(
                "determinism",
                f"stdout on the {name} input differs between {reference.name} and {variation.name}: "
                f"{clip(first.stdout)} vs {clip(other.stdout)}",
            )
    try:
        first.stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise Excluded("run", f"stdout on the {name} input is not UTF-8 text") from None
    return first.stdout


def check_trace_order(case: CaseContext, inputs: dict[str, bytes], outs: dict[str, bytes]) -> dict[str, list[int]]:
    """``trace-order``: each of three trace lengths on the short input is below each on the long; the lengths."""
    traces = {name: _trace_lengths(case, data, name, outs[name]) for name, data in inputs.items()}
    if not max(traces["short"]) < min(traces["long"]):
        raise Excluded(
            "trace-order",
            f"trace length of the short input {traces['short']} is not strictly below "
            f"that of the long input {traces['long']} in three measurements",
        )
    return traces


def _trace_lengths(case: CaseContext, data: bytes, name: str, expected: bytes) -> list[int]:
    values = []
    for repeat in range(3):
        m = case.memo.measure_once(case.lang, case.source, data, None, state=False, repeat=repeat)
        if m.status != "ok" or m.trace_length is None:
            raise measurement_failed(m, f"measuring the trace length on the {name} input")
        check_measurement(
            m, expected, f"the clean program on the {name} input", "clean run", measured_output_note(case)
        )
        values.append(m.trace_length)
    return values


def check_iterations(case: CaseContext, loop_line: int, data: bytes) -> int:
    """``iterations``: the selected loop runs K >= 2 iterations on the long input; K."""
    counted = case.lang.instrument(case.source, loop_line, case.spec.checkpoint.variables, "count")
    res = case.run(counted.source, data)
    K = case.lang.iterations(res)
    if K is None:
        raise Excluded("run", f"counting iterations of the selected loop failed: {res.describe()}")
    if K < 2:
        raise Excluded(
            "iterations",
            f"the selected loop (line {loop_line}) runs {K} iteration(s) on the long input; at least 2 are needed",
        )
    return K


def check_reachability(k: int, K: int) -> None:
    """``reachability``: the checkpoint's iteration k is one of the loop's K on the long input."""
    if k > K:
        raise Excluded("reachability", f"inside_iteration {k} exceeds the {K} iterations of the loop on the long input")


def check_fired(case: CaseContext, arm: str, results: list[SandboxResult]) -> None:
    """``reachability`` (or the checkpoint's ``fields``, or ``run``): the ``arm`` copy's run in each variation
    exited 0 having printed its checkpoint, every projected variable bound there."""
    for variation, res in zip(case.lang.variations, results):
        if not res.ok:
            raise _checkpoint_failure(case, arm, variation, res)
        if not res.stdout:
            raise Excluded(
                "reachability",
                f"the {arm} checkpoint never fired on the long input (the program ran to its end without reaching it)",
            )


def _checkpoint_failure(case: CaseContext, arm: str, variation: Variation, res: SandboxResult) -> Excluded:
    fault = case.lang.checkpoint_fault(res.stderr)
    if fault is not None and fault[0] == "unbound":
        return Excluded(
            "reachability",
            f"a projected variable is not bound at the {arm} checkpoint ({fault[1]}); "
            "project variables assigned before the loop starts",
        )
    if fault is not None:
        return Excluded("fields", f"{arm} checkpoint: {fault[1]}")
    return Excluded("run", f"instrumented program ({arm}), {variation.name}: {res.describe()}")


def check_checkpoint_size(case: CaseContext, arm: str, texts: list[bytes]) -> None:
    """``checkpoint-size``: what the checkpoint printed in each variation is at most ``max_checkpoint_bytes``."""
    limit = case.opts.max_checkpoint_bytes
    if max(map(len, texts)) > limit:
        raise Excluded(
            "checkpoint-size",
            f"the {arm} checkpoint printed {max(map(len, texts))} bytes, more than max_checkpoint_bytes = {limit}; "
            "project fewer or smaller variables or raise BuildOptions.max_checkpoint_bytes",
        )


def check_oracle_determinism(case: CaseContext, arm: str, texts: list[bytes]) -> None:
    """``oracle-determinism``: the checkpoint printed the same state in every variation."""
    if len(set(texts)) > 1:
        raise Excluded(
            "oracle-determinism",
            f"the {arm} checkpoint emitted different states across "
            f"{', '.join(v.name for v in case.lang.variations)}: " + " vs ".join(clip(t) for t in texts),
        )


def check_one_line(arm: str, text: bytes) -> None:
    """``reachability``: the checkpoint printed exactly one line (it fired once)."""
    decoded = text.decode("utf-8")
    if decoded.count("\n") != 1 or not decoded.endswith("\n"):
        raise Excluded("reachability", f"the {arm} checkpoint output is not exactly one line: {clip(text)}")


def check_fields(inside: str, post: str) -> None:
    """``fields``: the two checkpoints emit the same keys, in order, with the same top-level JSON types."""
    a, b = json_value(inside), json_value(post)
    if list(a) != list(b):
        raise Excluded("fields", f"checkpoints emit different keys: {list(a)} vs {list(b)}")
    differing = [key for key in a if json_type(a[key]) != json_type(b[key])]
    if differing:
        detail = ", ".join(f"{key}: {json_type(a[key])} vs {json_type(b[key])}" for key in differing)
        raise Excluded("fields", f"top-level JSON types differ between inside and post ({detail})")


def check_change(inside: str, post: str) -> None:
    """``change``: at least one projected field differs between the two checkpoints."""
    if inside == post:
        raise Excluded("change", f"no projected field changes between the checkpoints: both are {inside.strip()}")


def check_preservation(case: CaseContext, inst: Instrumented, arm: str, runs: dict[str, tuple[bytes, bytes]]) -> None:
    """``preservation``: the ``arm`` copy with its checkpoint disabled prints the clean stdout on each input
    (``runs``: input name -> (input, clean stdout))."""
    variant = case.lang.disabled(inst)
    for name, (data, expected) in runs.items():
        res = case.run(variant, data)
        if not res.ok or res.stdout != expected:
            raise Excluded(
                "preservation",
                f"the {arm} instrumented copy with its checkpoint disabled does not "
                f"reproduce the clean output on the {name} input: "
                f"{res.describe() if not res.ok else clip(res.stdout)} vs {clip(expected)}",
            )


def check_sweep_reachability(kk: int, K: int) -> None:
    """``reachability`` of a sweep's extra inside checkpoint (SPEC 11): iteration ``kk`` is one of the K."""
    if kk > K:
        raise Excluded("reachability", f"sweep iteration {kk} exceeds the {K} iterations of the loop")


def check_sweep_fields(kk: int, oracle: str, inside_oracle: str) -> None:
    """``fields`` of a sweep's extra inside checkpoint: it emits the inside arm's keys, in order."""
    a, b = json_value(oracle), json_value(inside_oracle)
    if list(a) != list(b):
        raise Excluded("fields", f"sweep checkpoint k={kk} emits keys {list(a)}, the inside arm {list(b)}")


def check_measurement(m: Measurement, expected: bytes, what: str, run: str, note: str = "") -> None:
    """``measurement``: a measurement counts the run the task shows only if it printed the same bytes.
    ``note``: the language's word on why its measured build may differ (``measured_output_note``)."""
    if m.stdout != expected:
        raise Excluded(
            "measurement",
            f"measuring {what} printed {clip(m.stdout)}, not the {run}'s stdout {clip(expected)}; "
            "the program behaves differently when measured, so its metrics would describe another run"
            + (f" ({note})" if note else ""),
        )


BUDGET_FIX = (
    "Fix: if the case should be measured that far, raise the budget (build/construct --trace-budget, "
    "--state-budget, --object-budget; BuildOptions.trace_budget, state_budget, object_budget)"
)


def measurement_failed(m: Measurement, what: str) -> Excluded:
    """The exclusion of a measurement that is not ok: ``budget`` when a counted budget stopped it (the same on
    every machine; the reason names the budget and its value), else ``run`` with the status and detail."""
    if m.status == "budget":
        return Excluded("budget", f"{what}: {m.detail}. {BUDGET_FIX}")
    return Excluded("run", f"{what}: {m.status}; {m.detail}")


def measured_output_note(case: CaseContext) -> str:
    """What the case's language says about a measured build printing otherwise than the runs (an adapter's
    optional ``measured_output_note(source)``, e.g. C++ names a ``#pragma GCC optimize``); empty if nothing."""
    note = getattr(case.lang, "measured_output_note", None)
    return str(note(case.source)) if callable(note) else ""


def clip(data: bytes, n: int = 120) -> str:
    """``data`` as text for a reason: repr of at most ``n`` characters, with the full length when cut."""
    text = data.decode("utf-8", "replace")
    return repr(text if len(text) <= n else text[:n] + f"... ({len(text)} chars)")


__all__ = [
    "Excluded",
    "check_change",
    "check_checkpoint_size",
    "check_determinism",
    "check_fields",
    "check_fired",
    "check_input_size",
    "check_iterations",
    "check_measurement",
    "check_one_line",
    "check_oracle_determinism",
    "check_preservation",
    "check_reachability",
    "check_sweep_fields",
    "check_sweep_reachability",
    "check_trace_order",
    "clip",
    "measured_output_note",
    "measurement_failed",
]
