"""A simulated predictor for offline pipeline checks: seeded, deterministic, never a model.

It answers each cell from the task's oracle, wrong with a probability that
rises with the task's trace length and state size, so the main job's report
exercises every statistic (paired decrements, regressions, series tests) with
known ground truth. Every record it writes is flagged ``pipeline_check``.

    P(correct) = sigmoid(skill - slope * log2(1 + trace_length) + arm_bonus)

A wrong answer is the oracle with one number changed by one (or, without a
number, one character changed); one answer in ten drops the envelope and puts
prose before the JSON object, to exercise conservative extraction.

Invariant-pilot tasks (a ``PromptVariant`` in their meta) are answered under
their contract (a ``{"rationale", "output"}`` object for
``rationale-then-output``), with a simulated effect of guidance
(``GUIDED_BONUS`` on the logit, none for placebo) and simulated reasoning-token
usage (fewer tokens with guidance), so the pilot's tables have known inputs.
"""

from __future__ import annotations

import hashlib
import json
import math
import re

from execstate.records import Task, Usage, prompt_variant
from execstate.run._providers import Attempt

_ARM_BONUS = {
    "short-trace-final": 1.0,
    "function-output": 1.0,
    "long-trace-final": 0.0,
    "inside-loop-state": -0.3,
    "post-loop-state": -0.2,
}
_NUMBER = re.compile(r"-?\d+")
GUIDED_BONUS = 0.6
"""Logit added to a guided pilot task's chance of a right answer (simulated; placebo gets none)."""


def _unit(*parts: object) -> float:
    """A deterministic number in [0, 1) from the parts (same parts, same number, on any machine)."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def wrong_answer(oracle: str, u: float) -> str:
    """The oracle with one integer moved by one, or one character changed; never equal to the oracle."""
    numbers = list(_NUMBER.finditer(oracle))
    if numbers:
        m = numbers[int(u * len(numbers))]
        return oracle[: m.start()] + str(int(m.group()) + 1) + oracle[m.end() :]
    text = oracle.rstrip("\n") or "?"
    i = int(u * len(text))
    return text[:i] + ("x" if text[i] != "x" else "y") + text[i + 1 :]


class SyntheticProvider:
    """Simulated answers for a pipeline check; ``skill`` and ``slope`` set the error curve."""

    name = "synthetic"
    pipeline_check = True

    def __init__(self, setting_name: str, skill: float = 4.0, slope: float = 0.25) -> None:
        self.seed, self.skill, self.slope = setting_name, skill, slope
        self.model: str | None = f"synthetic(skill={skill:g}, slope={slope:g})"

    def p_correct(self, task: Task) -> float:
        trace = task.metrics.trace_length or 0
        logit = self.skill - self.slope * math.log2(1 + trace) + _ARM_BONUS.get(task.arm, 0.0)
        if "prompt" in task.meta and prompt_variant(task).condition == "guided":
            logit += GUIDED_BONUS
        return 1 / (1 + math.exp(-logit))

    async def attempt(self, task: Task, sample: int) -> Attempt:
        correct = _unit(self.seed, task.task_id, sample, "correct") < self.p_correct(task)
        answer = task.oracle if correct else wrong_answer(task.oracle, _unit(self.seed, task.task_id, sample, "edit"))
        envelope = json.dumps({"output": answer}, ensure_ascii=False)
        if "prompt" in task.meta:
            return self._pilot_attempt(task, sample, answer)
        if _unit(self.seed, task.task_id, sample, "envelope") < 0.1:
            envelope = "Tracing the program step by step, the answer is:\n" + envelope
        return Attempt("completed", text=envelope, finish_reason="stop")

    def _pilot_attempt(self, task: Task, sample: int, answer: str) -> Attempt:
        """A pilot task's answer under its contract, with simulated reasoning tokens."""
        variant = prompt_variant(task)
        if variant.contract == "rationale-then-output":
            rationale = f"Simulated rationale ({variant.condition}): follow the loop to its end."
            text = json.dumps({"rationale": rationale, "output": answer}, ensure_ascii=False)
        else:
            text = json.dumps({"output": answer}, ensure_ascii=False)
        scale = 0.85 if variant.condition == "guided" else 1.0
        jitter = 0.75 + 0.5 * _unit(self.seed, task.task_id, sample, "tokens")
        reasoning = round(120 * math.log2(2 + (task.metrics.trace_length or 0)) * scale * jitter)
        usage = Usage(reasoning_tokens=reasoning, completion_tokens=reasoning + len(text) // 4)
        return Attempt("completed", text=text, finish_reason="stop", usage=usage)

    async def aclose(self) -> None:
        return None
