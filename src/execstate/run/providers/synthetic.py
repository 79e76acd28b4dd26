"""A simulated predictor for offline pipeline checks: seeded, deterministic, never a model.

It answers each cell from the task's oracle, wrong with a probability that
rises with the task's trace length and state size, so the main job's report
exercises every statistic (paired decrements, regressions, series tests) with
known ground truth. Every record it writes is flagged ``pipeline_check``.

    P(correct) = sigmoid(skill - slope * log2(1 + trace_length) + arm_bonus [+ contamination] [- variant_penalty])

``arm_bonus`` is the arm spec's ``synthetic_bonus`` (``execstate.arms``): how much easier the arm is than a
long final output.

``contamination`` (0 unless a setting's ``synthetic_contamination`` sets it) is
added for every task that is not fresh (``records.is_fresh``): a simulated model
that has seen the published inputs, for the published-vs-fresh analysis.
``variant_penalty`` (0 unless a setting's ``synthetic_variant_penalty`` sets it) is
subtracted for every task of a source variant (``meta["variant_of"]``): a simulated
model that leans on the published surface, for the original-vs-variant analysis.

An arm whose spec has a ``simulate`` hook is answered by it (``hook(task, draws, right) -> str``: the task, the
cell's seeded ``CellDraws`` and whether the cell's main draw came out right). Every other arm is answered with
the oracle when right, else wrong in one of the kinds the wrong-answer taxonomy tells apart (SPEC 11), chosen
by a seeded draw from the arm's family: mostly the oracle with one number changed by one (or, without a number,
one character changed); for a ``state`` arm sometimes the state at a neighbouring checkpoint
(``meta["neighbours"]``), the object without its braces (not JSON) or without its last field; for a ``final``,
``function`` or ``input`` arm sometimes the output on the other arm's input or a number far off; for any other
family (a ``count``, a plug-in's arm) always the near miss. One answer
in ten drops the envelope and puts prose before the JSON object, to exercise
conservative extraction. A few responses (more on long traces) are cut off:
``finish_reason = "length"`` and half an envelope, so no answer. Token usage
is reported: reasoning tokens grow with the trace, completion tokens add the
answer's length.

A ``loop-trace`` task is answered step by step (its ``simulate`` hook, ``simulate_trace``): step i (1-based) is
right with probability ``sigmoid(logit - step_decay * (i - 1))`` (the logit above; ``step_decay`` 0.35 unless a
setting's ``synthetic_step_decay`` sets it), each step its own seeded draw, and every wrong step's object is the
oracle's with one number moved by one, so the step curve falls with i. A ``line-count`` task is right with
the probability above, else the count is off by one (the near miss).

Invariant-pilot tasks (a ``PromptVariant`` in their meta) are answered under
their contract (a ``{"rationale", "output"}`` object for
``rationale-then-output``), wrong as the oracle with one number changed by
one, with a simulated effect of guidance (``GUIDED_BONUS`` on the logit, none
for placebo) and simulated reasoning-token usage (fewer tokens with
guidance), so the pilot's tables have known inputs.

A set execution horizon (``synthetic_horizon`` H > 0 and ``synthetic_slope`` s > 0, docs/horizon.md) replaces the
curve above on the rungs of input ladders (``meta["ladder"]``, the tasks the horizon is measured on; every other
task is answered as without it). With T the task's counted trace length (``metrics.trace_length``):

    P(correct) = 1 / (1 + (T / H)^s) = sigmoid(s * ln 2 * (log2 H - log2 T) + arm_bonus')

so a final-output rung at T = H is right half the time, at T = H / 2^(2/s) 80% of the time, and the fitted
horizon of ``execstate.analyze`` has a known truth (log2 H50 = log2 H, slope -s ln 2 per doubling).
``arm_bonus'`` is 0 for an arm of the ``final`` family and the arm's ``synthetic_bonus`` for any other (a state
arm's horizon is then H * 2^(bonus / (s ln 2))); contamination, variant penalty and guidance add as above. A
response cut off by the output budget is drawn only among the wrong cells of such a task, so P(graded right) is
exactly the formula. The model string records both (``horizon=H, horizon_slope=s``; ``set_horizon`` reads it).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from execstate.arms import arm_spec
from execstate.errors import UsageError
from execstate.records import Task, Usage, is_fresh, prompt_variant
from execstate.registry import resolve
from execstate.run._attempt import Attempt
from execstate.run._settings import Opened, ProviderEntry, Setting
from execstate.values import json_text, json_value

_NUMBER = re.compile(r"-?\d+")
STEP_DECAY = 0.35
"""Logit a loop-trace step loses per step after the first (the default of ``synthetic_step_decay``)."""
GUIDED_BONUS = 0.6
"""Logit added to a guided pilot task's chance of a right answer (simulated; placebo gets none)."""
HORIZON_SLOPE = 1.0
"""The default ``synthetic_slope``: log odds of a right ladder answer lost per doubling of the trace, over ln 2."""
_HORIZON_MODEL = re.compile(r"[(,] ?horizon=([0-9.eE+-]+), horizon_slope=([0-9.eE+-]+)[,)]")
_OUTPUT_FAMILIES = ("final", "function", "input")
"""Arm families whose answer is a program's or a call's output: wrong as another input's output or a far number."""


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


def _wrong_step(step: object, u: float) -> str:
    """One step of a loop trace answered wrong: its canonical JSON with one number moved by one (or one
    character changed); ``null`` when that change leaves no JSON (a step without a number)."""
    text = json_text(step, ensure_ascii=False, separators=(",", ":"))
    changed = wrong_answer(text, u)
    try:
        json_value(changed)
    except ValueError:
        return "null"
    return changed


def loop_trace_answer(task: Task, right: list[bool], u: list[float]) -> str:
    """The oracle's list of steps with step i kept where ``right[i]``, else changed (``_wrong_step`` with
    ``u[i]``); one line of JSON, as the oracle is."""
    steps = json_value(task.oracle)
    texts = [
        json_text(step, ensure_ascii=False, separators=(",", ":")) if ok else _wrong_step(step, v)
        for step, ok, v in zip(steps, right, u)
    ]
    return "[" + ",".join(texts) + "]"


def realistic_wrong(task: Task, kind: float, u: float) -> str:
    """A wrong answer of a kind picked by ``kind`` in [0, 1) from those of the arm's family (see the module
    docstring); never the oracle."""
    oracle = task.oracle.rstrip("\n")
    near = [n for n in task.meta.get("neighbours", []) if n.get("state", n.get("output", "")).rstrip("\n") != oracle]
    family = arm_spec(task.arm).family
    if family not in ("state", *_OUTPUT_FAMILIES):
        return wrong_answer(task.oracle, u)
    if family == "state":
        states = [n["state"] for n in sorted(near, key=lambda n: abs(n["d"]))[:2]]
        if kind < 0.35 and states:
            return states[int(u * len(states))]
        if kind < 0.45:
            return oracle.strip()[1:-1] or "?"
        if kind < 0.55 and oracle.count(":") > 1:
            fields = json_value(oracle)  # integers of any size: a program's state may hold one
            return json_text(dict(list(fields.items())[:-1]), separators=(",", ":"))
    elif kind < 0.25 and near:
        return near[0]["output"].rstrip("\n")
    elif kind < 0.4 and _NUMBER.search(oracle):
        m = _NUMBER.search(oracle)
        assert m is not None
        return oracle[: m.start()] + str(int(m.group()) + 17) + oracle[m.end() :]
    return wrong_answer(task.oracle, u)


class SyntheticProvider:
    """Simulated answers for a pipeline check; ``skill`` and ``slope`` set the error curve."""

    name = "synthetic"
    pipeline_check = True

    def __init__(
        self,
        setting_name: str,
        skill: float = 4.0,
        slope: float = 0.25,
        contamination: float = 0.0,
        step_decay: float = STEP_DECAY,
        variant_penalty: float = 0.0,
        horizon: float | None = None,
        horizon_slope: float = HORIZON_SLOPE,
    ) -> None:
        self.seed, self.skill, self.slope, self.contamination = setting_name, skill, slope, contamination
        self.step_decay, self.variant_penalty = step_decay, variant_penalty
        self.horizon, self.horizon_slope = horizon, horizon_slope
        knob = f", contamination={contamination:g}" if contamination else ""
        knob += f", step_decay={step_decay:g}" if step_decay != STEP_DECAY else ""
        knob += f", variant_penalty={variant_penalty:g}" if variant_penalty else ""
        knob += f", horizon={horizon!r}, horizon_slope={horizon_slope!r}" if horizon is not None else ""
        self.model: str | None = f"synthetic(skill={skill:g}, slope={slope:g}{knob})"

    def p_correct(self, task: Task) -> float:
        """P(right answer); for a loop-trace task, P(its first step is right)."""
        return 1 / (1 + math.exp(-self._logit(task)))

    def p_step(self, task: Task, step: int) -> float:
        """P(step ``step`` (1-based) of a loop-trace task is right): the logit less ``step_decay`` per step."""
        return 1 / (1 + math.exp(-(self._logit(task) - self.step_decay * (step - 1))))

    def on_horizon(self, task: Task) -> bool:
        """True when the set horizon answers ``task``: one is set and the task is a ladder rung."""
        return self.horizon is not None and bool(task.meta.get("ladder"))

    def _logit(self, task: Task) -> float:
        trace = task.metrics.trace_length or 0
        spec = arm_spec(task.arm)
        if self.on_horizon(task):
            assert self.horizon is not None
            bonus = 0.0 if spec.family == "final" else spec.synthetic_bonus
            logit = self.horizon_slope * math.log(2) * (math.log2(self.horizon) - math.log2(max(trace, 1))) + bonus
        else:
            logit = self.skill - self.slope * math.log2(1 + trace) + spec.synthetic_bonus
        if "prompt" in task.meta and prompt_variant(task).condition == "guided":
            logit += GUIDED_BONUS
        if not is_fresh(task):
            logit += self.contamination
        if "variant_of" in task.meta:
            logit -= self.variant_penalty
        return logit

    def p_truncated(self, task: Task) -> float:
        """Chance that a response is cut by the output budget: 4% to 12%, rising with log trace length."""
        return 0.04 + 0.08 * min(1.0, math.log2(1 + (task.metrics.trace_length or 0)) / 24)

    async def attempt_task(self, task: Task, sample: int) -> Attempt:
        draws = CellDraws(self, task, sample)
        draw = draws.uniform
        correct = draw("correct") < self.p_correct(task)
        if "prompt" in task.meta:
            return self._pilot_attempt(
                task, sample, task.oracle if correct else wrong_answer(task.oracle, draw("edit"))
            )
        answer = simulated_answer(task, draws, correct)
        envelope = json.dumps({"output": answer}, ensure_ascii=False)
        if draw("envelope") < 0.1:
            envelope = "Tracing the program step by step, the answer is:\n" + envelope
        reasoning = int(64 * math.log2(2 + (task.metrics.trace_length or 0)) * (1 + draw("tokens")))
        finish = "stop"
        cut = not correct or not self.on_horizon(task)  # on the horizon only a wrong cell may be cut
        if cut and draw("length") < self.p_truncated(task):
            envelope, finish, reasoning = envelope[: len(envelope) // 2], "length", reasoning * 4
        usage = Usage(
            prompt_tokens=len(task.source) // 4,
            completion_tokens=reasoning + len(envelope) // 4,
            reasoning_tokens=reasoning,
        )
        return Attempt("completed", text=envelope, finish_reason=finish, usage=usage)

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


@dataclass(frozen=True)
class CellDraws:
    """The seeded randomness of one synthetic cell (setting x task x sample), as an arm's ``simulate`` hook gets it.

    ``uniform(label)`` is a number in [0, 1) fixed by the setting, the task, the sample and ``label`` (the same
    on any machine; use one label per independent choice); ``chance(shift)`` is the provider's probability of a
    right answer to the task with its logit moved by ``shift``; ``provider`` holds the setting's knobs
    (``step_decay``, ``skill``)."""

    provider: SyntheticProvider
    task: Task
    sample: int

    def uniform(self, label: str) -> float:
        """A deterministic number in [0, 1) for this cell and ``label``."""
        return _unit(self.provider.seed, self.task.task_id, self.sample, label)

    def chance(self, shift: float = 0.0) -> float:
        """P(right) for the task with the provider's logit plus ``shift`` (``chance()`` is ``p_correct``)."""
        return 1 / (1 + math.exp(-(self.provider._logit(self.task) + shift)))


def simulated_answer(task: Task, draws: CellDraws, right: bool) -> str:
    """The answer text of one cell (see the module docstring): the arm's ``simulate`` hook's when its spec has
    one, else the oracle when ``right`` and a wrong answer of the arm's family otherwise (``realistic_wrong``).

    ``UsageError`` naming the hook when it returns anything but a string."""
    hook = arm_spec(task.arm).simulate
    if hook is None:
        return task.oracle if right else realistic_wrong(task, draws.uniform("kind"), draws.uniform("edit"))
    answer = resolve(hook)(task, draws, right)
    if not isinstance(answer, str):
        raise UsageError(
            f"the simulate hook of arm {task.arm!r} returned a {type(answer).__name__}, not the answer text. "
            "Fix: return the answer as a string (JSON text for a json arm)"
        )
    return answer


def simulate_trace(task: Task, draws: CellDraws, right: bool) -> str:
    """The ``simulate`` hook of a loop trace: each step its own draw, step i right with probability
    ``provider.p_step(task, i)`` (falling by ``step_decay`` per step); ``right``, the cell's overall draw, is not
    used (the answer is right exactly when every step is)."""
    m = len(json_value(task.oracle))
    steps = [draws.uniform(f"step{i}") < draws.provider.p_step(task, i) for i in range(1, m + 1)]
    return loop_trace_answer(task, steps, [draws.uniform(f"edit{i}") for i in range(1, m + 1)])


class SyntheticOptions(BaseModel):
    """The keys a ``synthetic`` setting adds (flat in its ``[[setting]]`` table)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    synthetic_contamination: float = Field(default=0.0, allow_inf_nan=False)
    """Logit added to the chance of a right answer on every task that is not fresh (``records.is_fresh``), so
    the simulated predictor does better on published inputs than on fresh ones, as a model trained on them
    would. 0 (the default) answers exactly as without it. Written to the run manifest only when not 0."""
    synthetic_skill: float = Field(default=4.0, allow_inf_nan=False)
    """The simulated predictor's logit intercept (higher: fewer errors). 4 (the default) answers exactly as
    before it existed. Written to the run manifest only when not 4."""
    synthetic_step_decay: float = Field(default=STEP_DECAY, allow_inf_nan=False)
    """Logit a ``loop-trace`` task's step loses per step after the first: step i is right with probability
    sigmoid(logit - decay * (i - 1)), so accuracy falls along the trace (0: every step as likely right as the
    first). Answers to every other arm do not depend on it. Written to the run manifest only when not 0.35."""
    synthetic_variant_penalty: float = Field(default=0.0, allow_inf_nan=False)
    """Logit subtracted from the chance of a right answer on every task of a source variant (``meta["variant_of"]``,
    docs/variants.md), so the simulated predictor does worse on a renamed or padded program than on the published
    one, as a model leaning on names or memory would. 0 (the default) answers exactly as without it. Written to the
    run manifest only when not 0."""
    synthetic_horizon: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    """The set execution horizon H, in counted trace events: on a ladder rung (``meta["ladder"]``) the chance of a
    right answer is 1 / (1 + (T / H)^synthetic_slope) at trace length T (see the module docstring), so the
    analysis's fitted horizon has a known truth (docs/horizon.md). None (the default): no horizon, every task
    answered as before. Written to the run manifest only when set."""
    synthetic_slope: float = Field(default=HORIZON_SLOPE, gt=0, allow_inf_nan=False)
    """How sharply a set horizon falls: the exponent s of (T / H)^s, i.e. s * ln 2 log odds per doubling of the
    trace (1, the default: 80% right at H / 4, 20% at 4 H). Used only with ``synthetic_horizon``."""


def set_horizon(model: str) -> tuple[float, float] | None:
    """(horizon, slope) from a synthetic response's ``model`` string when it has a set horizon, else None."""
    found = _HORIZON_MODEL.search(model)
    return (float(found.group(1)), float(found.group(2))) if found else None


async def _open(setting: Setting) -> Opened:
    options = setting.options(SyntheticOptions)
    return SyntheticProvider(
        setting.name,
        skill=options.synthetic_skill,
        contamination=options.synthetic_contamination,
        step_decay=options.synthetic_step_decay,
        variant_penalty=options.synthetic_variant_penalty,
        horizon=options.synthetic_horizon,
        horizon_slope=options.synthetic_slope,
    ), []


ENTRY = ProviderEntry(
    name="synthetic",
    open=_open,
    options=SyntheticOptions,
    needs_task=True,
    description="a seeded simulated predictor whose errors rise with trace length (a pipeline check)",
)
