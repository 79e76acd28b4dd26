"""CRUXEval's own output-prediction check, reproduced: ``assert <oracle> == <generation>`` run in the sandbox.

CRUXEval (``evaluation/utils_general.py``) scores an output prediction ``g``
of item ``(code, input, output)`` as follows (an input prediction, a call
``g = f(...)``, the same way, except that the text rule fails a ``g`` *without*
``f(``): if the text ``f(<input>)`` occurs in ``g`` it is wrong; otherwise the program ``{code}\\nassert
{output} == {g}`` is executed with a 3-second limit, and the generation is
right when it runs without raising. Because ``g`` is pasted into Python
source, an expression counts (``10 + 10 + 4``), a trailing ``, 'message'``
becomes the assert's message, and a bare tuple ``1, 2`` compares only its
first element (the rest is the message).

Here those programs never run in execstate's process: they are sent in
batches to ``_cruxeval_check.py`` inside ``execstate.sandbox`` (one process per
batch, one timer per check, the batch's wall limit as a last resort). A check
that crashes or hangs its process is failed, as CRUXEval fails it, and the
rest of its batch runs again in a fresh process, so one check never decides
another's verdict.

Every check runs once under each hash seed of ``GRADE_HASH_SEEDS`` (``run_seeded_checks``: one sandboxed
process per batch and seed, the seed given as ``PYTHONHASHSEED``), so a verdict that depends on the order in
which a set of strings iterates is seen as such (``_seeds``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate import sandbox
from execstate.grade._seeds import GRADE_HASH_SEEDS

_WORKER = Path(__file__).with_name("_cruxeval_check.py")
TIMEOUT_S = 3.0
"""CRUXEval's per-check time limit (``check_correctness(program, 3)``)."""


Check = str | dict[str, Any]
"""A check program (CRUXEval's), or a call check ``{"code", "args", "kwargs"}`` (``_call_rule``)."""


@dataclass(frozen=True)
class Verdict:
    """CRUXEval's outcome of one generation: ``passed`` (correct), or why not."""

    passed: bool
    outcome: str
    """``passed``, ``calls f(<input>)``, ``timed out``, ``failed: <exception>`` or ``crashed: <sandbox status>``;
    a call check that returned: ``returned`` (the value is in ``returned``)."""
    returned: str | None = None
    """A call check's ``repr`` of the value ``f`` returned (None: it did not return, or not a call check)."""


def _verdict(line_outcome: str) -> Verdict:
    if line_outcome.startswith("returned "):
        try:
            value = json.loads(line_outcome.removeprefix("returned "))
        except ValueError:
            return Verdict(False, "failed: the worker's answer was not readable")
        if isinstance(value, str):
            return Verdict(False, "returned", value)
    return Verdict(line_outcome == "passed", line_outcome)


def check_program(item: Mapping[str, Any], generation: str, task: str = "output") -> str | None:
    """The program CRUXEval executes for ``generation``, or None when its text rule fails it unexecuted.

    ``task="output"``: a generation containing ``f(<input>)`` fails. ``task="input"`` (a generation is a call
    such as ``f('abc')``): one not containing ``f(`` fails. Both then run ``{code}\\nassert {output} ==
    {generation}`` (``evaluation/utils_general.py``, ``evaluate_score``).
    """
    if task == "output" and f"f({item['input']})" in generation:
        return None
    if task == "input" and "f(" not in generation:
        return None
    return f"{item['code']}\nassert {item['output']} == {generation}"


def run_checks(
    programs: Sequence[Check], timeout_s: float = TIMEOUT_S, batch_size: int = 400, workers: int = 2, seed: int = 0
) -> list[Verdict]:
    """Run each program in the sandbox as CRUXEval's ``check_correctness`` would, under the hash seed ``seed``;
    one verdict per program, in order (``run_seeded_checks`` with one seed)."""
    return [runs[0] for runs in run_seeded_checks(programs, (seed,), timeout_s, batch_size, workers)]


def run_seeded_checks(
    programs: Sequence[Check],
    seeds: Sequence[int] = GRADE_HASH_SEEDS,
    timeout_s: float = TIMEOUT_S,
    batch_size: int = 400,
    workers: int = 2,
) -> list[tuple[Verdict, ...]]:
    """Run each program in the sandbox as CRUXEval's ``check_correctness`` would, once under each hash seed of
    ``seeds``: per program, in order, its verdict under each seed, in ``seeds`` order.

    A call check (a dict) is run the same way and answers with the ``repr`` of ``f``'s value.

    ``batch_size`` programs share one sandboxed process per seed (each under its own
    ``timeout_s`` timer); ``workers`` batches run at once. Raises
    ``SandboxUnavailable`` on a machine without the sandbox: model text is
    never executed anywhere else.
    """
    indexed = list(enumerate(programs))
    batches = [indexed[i : i + batch_size] for i in range(0, len(indexed), batch_size)]
    jobs = [(s, batch) for s in range(len(seeds)) for batch in batches]  # one sandboxed process per batch and seed
    verdicts: list[dict[int, Verdict]] = [{} for _ in seeds]

    def run(job: tuple[int, list[tuple[int, Check]]]) -> tuple[int, dict[int, Verdict]]:
        return job[0], _run_batch(job[1], timeout_s, seeds[job[0]])

    with ThreadPoolExecutor(max(1, workers)) as pool:
        for s, found in pool.map(run, jobs):
            verdicts[s].update(found)
    return [tuple(by_seed[i] for by_seed in verdicts) for i in range(len(programs))]


def _run_batch(batch: list[tuple[int, Check]], timeout_s: float, seed: int) -> dict[int, Verdict]:
    """Verdicts of one batch under hash seed ``seed``; after a process dies mid-batch, its current check fails
    and the rest run anew."""
    verdicts: dict[int, Verdict] = {}
    pending = batch
    while pending:
        result = _sandboxed(pending, timeout_s, seed)
        expected = {i for i, _ in pending}
        for line in result.stdout.decode("utf-8", "replace").splitlines():
            index, _, outcome = line.partition("\t")
            if index.isdigit() and int(index) in expected and int(index) not in verdicts:
                verdicts[int(index)] = _verdict(outcome)
        rest = [(i, p) for i, p in pending if i not in verdicts]
        if rest:
            stuck = rest[0][0]  # checks run in order: the first without a verdict is the one that ended the process
            verdicts[stuck] = Verdict(False, f"crashed: {result.describe()}")
            rest = rest[1:]
        pending = rest
    return verdicts


def _sandboxed(batch: list[tuple[int, Check]], timeout_s: float, seed: int) -> sandbox.SandboxResult:
    payload = json.dumps({"timeout_s": timeout_s, "checks": batch}, ensure_ascii=False).encode("utf-8")
    budget = 10.0 + len(batch) * (timeout_s + 1.0)  # never reached unless the per-check limits fail
    limits = sandbox.Limits(wall_s=budget, cpu_s=budget, memory_mb=2048)
    env = sandbox.scrubbed_env(seed)
    return sandbox.run_script(
        sys.executable, _WORKER, ["{cwd}/batch.json"], limits=limits, env=env, files={"batch.json": payload}
    )
