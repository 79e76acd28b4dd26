"""Synthetic tasks and grades with a known error model, for tests, benchmarks and demos.

The default shape mirrors the paper: five studies (classic 30, lcb_python 283,
lcb_cpp 35, codecontests 22, networkx 30 cases sharing one source), four arms,
seven settings, so 1,600 tasks and 11,200 graded cells. Error log odds are
``setting_base + arm_shift + log(trace_odds_ratio) * centred log2 trace`` plus an
optional per-source random effect, so the regression's trace odds ratio per
doubling is known. Nothing here is a model's result.
"""

from __future__ import annotations

import hashlib

import numpy as np

from execstate.arms import arm_names, arm_spec
from execstate.records import Grade, Metrics, Task
from execstate.studies import default_grading_rule, get_study, shared_source_studies

STUDIES: tuple[tuple[str, str, int], ...] = tuple(
    (name, get_study(name).languages[0], cases)  # each study's language, as the study registry declares it
    for name, cases in (("classic", 30), ("lcb_python", 283), ("lcb_cpp", 35), ("codecontests", 22), ("networkx", 30))
)
SETTINGS: dict[str, float] = {
    "alpha-high": -1.2,
    "alpha-off": 1.0,
    "beta-high": -0.4,
    "gamma-high": -0.7,
    "gamma-off": 2.2,
    "delta-high": 0.3,
    "delta-off": 2.6,
}
"""Setting name -> baseline error log odds."""
_ARM_SHIFTS = (-1.5, 0.0, 0.6, 0.8)
"""The error log odds shift of each paired arm, in arm order (short, long, inside, post)."""


def _arm_shifts() -> dict[str, float]:
    """Paired arm -> its error log odds shift (``_ARM_SHIFTS``); other arms shift nothing."""
    return dict(zip(arm_names(group="paper", builtin=True), _ARM_SHIFTS, strict=True))


def _case_tasks(study: str, language: str, index: int, rng: np.random.Generator) -> list[Task]:
    """The four tasks of one synthetic case, with correlated positive metrics."""
    shared = study in shared_source_studies()
    source = f"# synthetic {study} program {0 if shared else index}\nprint(sum(map(int, input().split())))\n"
    sha = hashlib.sha256(source.encode()).hexdigest()
    case_id = f"{study}/case{index:03d}"
    cyclomatic = 88 if shared else int(rng.integers(3, 60))
    long_trace = rng.normal(13.0, 2.0)
    tasks = []
    for arm in arm_names(group="paper", builtin=True):
        spec = arm_spec(arm)
        log_trace = long_trace - (rng.uniform(2, 5) if spec.input_name == "short" else 0.0)
        if spec.checkpoint == "inside":
            log_trace -= 1.0
        log_peak = 2.0 + 0.4 * (log_trace - 11) + rng.normal(0, 1.0)
        trace, peak = int(2**log_trace) + 1, max(1, int(2**log_peak))
        load = max(peak, int(2 ** (log_trace + log_peak - 3.0 + rng.normal(0, 0.3))))
        state = spec.family == "state"
        tasks.append(
            Task(
                task_id=f"{case_id}/{arm}",
                case_id=case_id,
                study=study,
                language=language,
                arm=arm,
                source=source,
                input=f"{index} {int(2**long_trace)}\n",
                oracle='{"x":1}' if state else str(index),
                answer_kind="json" if state else "text",
                grading_rule=default_grading_rule(study),
                source_sha256=sha,
                metrics=Metrics(trace_length=trace, peak_state=peak, state_load=load, cyclomatic=cyclomatic),
            )
        )
    return tasks


def synthetic_tasks(seed: int = 0, studies=STUDIES) -> list[Task]:
    """Tasks of every study in ``studies`` (name, language, cases), four arms per case."""
    rng = np.random.default_rng(seed)
    return [t for study, language, n in studies for i in range(n) for t in _case_tasks(study, language, i, rng)]


def synthetic_grades(
    tasks: list[Task],
    seed: int = 0,
    settings: dict[str, float] | None = None,
    trace_odds_ratio: float = 1.3,
    cluster_sd: float = 0.0,
    no_response_rate: float = 0.003,
    invalid_rate: float = 0.1,
) -> list[Grade]:
    """One grade per task x setting drawn from the known error model (see the module docstring)."""
    rng = np.random.default_rng(seed + 1)
    settings = SETTINGS if settings is None else settings
    log_trace = np.log2([t.metrics.trace_length or 1 for t in tasks])
    centred = log_trace - log_trace.mean()
    shas = sorted({t.source_sha256 for t in tasks})
    effect = dict(zip(shas, rng.normal(0, cluster_sd, len(shas)) if cluster_sd else np.zeros(len(shas))))
    shift = _arm_shifts()
    grades = []
    for setting, base in settings.items():
        eta = np.array([base + shift.get(t.arm, 0.0) + effect[t.source_sha256] for t in tasks])
        eta += np.log(trace_odds_ratio) * centred
        wrong = rng.random(len(tasks)) < 1 / (1 + np.exp(-eta))
        invalid = rng.random(len(tasks)) < invalid_rate
        missing = rng.random(len(tasks)) < no_response_rate
        for task, w, inv, miss in zip(tasks, wrong, invalid, missing):
            status = "no-response" if miss else f"{'wrong' if w else 'correct'}-{'invalid' if inv else 'valid'}"
            answer = None if miss else ("999" if w else task.oracle)
            grades.append(
                Grade(
                    task_id=task.task_id,
                    setting=setting,
                    status=status,
                    envelope_valid=None if miss else not inv,
                    answer=answer,
                    rule=task.grading_rule,
                )
            )
    return grades
