"""Inspect (PyPI ``inspect-ai``) log export: a graded run as Inspect eval logs, one per setting, for ``inspect view``.

``export_inspect_log(OUT, DIR)`` reads a graded run folder (``execstate pipeline --out OUT``, or a folder
of ``execstate run --out OUT`` then ``execstate grade --run OUT``) and writes one log per setting,
``DIR/<time>_execstate_<setting>.json`` (or ``.eval``), with Inspect's own log API
(``inspect_ai.log.write_eval_log``). Each planned cell (task x setting x sample) is one ``EvalSample``: id
the task id, epoch the sample + 1, input the exact messages the run sent, target the oracle, the answer
text (and its reasoning) as the assistant's message and output, the token counts and latency, and one
score ``execstate`` whose value is ``C``/``I`` (``N`` for no response), whose ``answer`` is the grade's
extracted answer and whose ``metadata`` is the whole ``Grade`` record. The sample's metadata holds the
``Task`` record (as the task export's samples do, so ``execstate_scorer`` can score it again) and the
``Response`` record without its texts. docs/interop.md lists the mapping and what is not carried over.

Only writing a log needs ``inspect_ai`` (imported on use).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

from execstate import __version__
from execstate.errors import InputFileError, PlanError, UsageError, output_dir
from execstate.export._inspect import _inspect_ai
from execstate.grade import GRADES_NAME, load_run_plan
from execstate.records import (
    CORRECT_STATUSES,
    RUN_MANIFEST_NAME,
    RUN_RESPONSES_NAME,
    Grade,
    Response,
    Task,
    read_jsonl,
)
from execstate.run import render_messages

SCORER = "execstate"
"""The name of the one score of every exported sample (as ``execstate_scorer`` names its score)."""
LOGS_DIR = "inspect_logs"
"""Where the logs go by default: ``OUT/inspect_logs``."""
_STOP_REASONS = {"stop": "stop", "length": "max_tokens"}
"""execstate's ``finish_reason`` -> Inspect's ``stop_reason`` (anything else: ``unknown``)."""

Cell = tuple[str, str, int]
LogFormat = Literal["json", "eval"]
LOG_FORMATS: tuple[LogFormat, ...] = ("json", "eval")
"""Inspect's log formats ``export_inspect_log`` writes; the first is the default."""


def run_folder_files(out: Path | str, tasks: Path | str | None = None) -> tuple[Path, Path, Path | None]:
    """``(run_dir, grades, tasks)`` of a graded run folder: a pipeline output (``OUT/run``, ``OUT/grades.jsonl``,
    ``OUT/build/tasks.jsonl``) or a ``run`` + ``grade`` folder (``OUT``, ``OUT/grades.jsonl``, the tasks file its
    manifest names). ``tasks`` overrides the tasks file. ``InputFileError`` naming the fix when it is neither."""
    out = Path(out)
    if (out / "run" / RUN_MANIFEST_NAME).is_file():
        run_dir, found = out / "run", out / "build" / "tasks.jsonl"
        default = found if found.is_file() else None
    elif (out / RUN_MANIFEST_NAME).is_file():
        run_dir, default = out, None
    else:
        raise InputFileError(
            f"{out} is not a graded run folder: it has neither run/{RUN_MANIFEST_NAME} (a pipeline output) nor "
            f"{RUN_MANIFEST_NAME} (a run folder). Fix: pass the folder `execstate pipeline --out` or "
            "`execstate run --out` wrote"
        )
    grades = out / GRADES_NAME
    if not grades.is_file():
        raise InputFileError(f"{grades} does not exist. Fix: grade the run first: execstate grade --run {run_dir}")
    return run_dir, grades, Path(tasks) if tasks is not None else default


def export_inspect_log(
    out: Path | str, to: Path | str | None = None, tasks: Path | str | None = None, format: LogFormat = "json"
) -> list[Path]:
    """Write the graded run ``out`` as one Inspect log per setting into ``to`` (default ``OUT/inspect_logs``);
    returns the files written, in the manifest's setting order.

    ``format`` is Inspect's: ``json`` (the default: written and read in time linear in the samples) or
    ``eval`` (a zip, smaller, but this writer's time grows with the square of a log's samples: fine for a
    few thousand cells per setting). The run's plan (``execstate.grade.load_run_plan``: the tasks are
    hash-checked against the run) decides the cells; every planned cell must have a grade (else
    ``PlanError``, nothing written). ``UsageError`` naming the extra when ``inspect_ai`` is not installed.
    """
    if format not in LOG_FORMATS:
        raise UsageError(f"unknown Inspect log format {format!r}. Fix: use one of {', '.join(LOG_FORMATS)}")
    _inspect_ai()
    from inspect_ai.log import write_eval_log

    logs = _logs(out, tasks)
    pending = next(logs, None)  # the run is checked before anything is written
    target = output_dir(Path(to) if to is not None else Path(out) / LOGS_DIR, "--to")
    written = []
    while pending is not None:  # one setting's samples in memory at a time
        setting, log = pending
        created = log.eval.created[:19].replace(":", "-")
        path = target / f"{created}_execstate_{_file_part(setting)}.{format}"
        write_eval_log(log, path, format=format)
        written.append(path)
        del log, pending
        pending = next(logs, None)
    return written


def inspect_logs(out: Path | str, tasks: Path | str | None = None) -> dict[str, Any]:
    """The Inspect ``EvalLog`` of each setting of the graded run ``out``, by setting name (not written)."""
    _inspect_ai()
    return dict(_logs(out, tasks))


def _logs(out: Path | str, tasks: Path | str | None) -> Iterator[tuple[str, Any]]:
    """``(setting, EvalLog)`` of each setting of the run, made when asked; the plan and the grades are checked
    before the first is made."""
    run_dir, grades_path, tasks_path = run_folder_files(out, tasks)
    plan = load_run_plan(run_dir, tasks_path)
    grades = {(g.task_id, g.setting, g.sample): g for g in read_jsonl(grades_path, Grade)}
    missing = [c for c in plan.cells if (c.task_id, c.setting, c.sample) not in grades]
    if missing:
        first = missing[0]
        raise PlanError(
            f"{grades_path}: {len(missing)} planned cell(s) have no grade (first: {first.task_id}, setting "
            f"{first.setting}, sample {first.sample}). Fix: grade the run again: execstate grade --run {run_dir}"
        )
    responses: dict[Cell, Response] = {}
    if (run_dir / RUN_RESPONSES_NAME).is_file():
        responses = {(r.task_id, r.setting, r.sample): r for r in read_jsonl(run_dir / RUN_RESPONSES_NAME, Response)}
    by_id = {t.task_id: t for t in plan.tasks}
    cells: dict[str, list[Cell]] = {name: [] for name in plan.manifest.settings}
    for c in plan.cells:
        cells.setdefault(c.setting, []).append((c.task_id, c.setting, c.sample))
    context = {"tasks_file": str(plan.tasks_path), "tasks_sha256": plan.manifest.tasks_sha256, "run": str(run_dir)}
    for name, chosen in cells.items():
        if chosen:
            yield (
                name,
                _setting_log(name, plan.manifest.settings.get(name, {}), chosen, by_id, grades, responses, context),
            )


def _file_part(name: str) -> str:
    """A setting's name as a file name part (anything but letters, digits, ``.``, ``_``, ``-`` becomes ``-``)."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", name)


def _model_name(entry: dict[str, Any], responses: Sequence[Response]) -> str:
    """Inspect's ``provider/model`` of a setting: its provider and model (the provider again when it names none)."""
    provider = entry.get("provider") or next((r.provider for r in responses if r.provider), None) or "execstate"
    return f"{provider}/{entry.get('model') or provider}"


def _setting_log(
    name: str,
    entry: dict[str, Any],
    cells: list[Cell],
    tasks: dict[str, Task],
    grades: dict[Cell, Grade],
    responses: dict[Cell, Response],
    context: dict[str, str],
) -> Any:
    """One setting's ``EvalLog``: its samples, the accuracy over planned and over completed cells, the usage."""
    from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalMetric, EvalResults, EvalScore, EvalSpec, EvalStats

    answered = [responses[c] for c in cells if c in responses]
    model = _model_name(entry, answered)
    shown: dict[str, tuple[list[Any], dict[str, Any]]] = {}  # per task: its prompt and record, made once
    samples = [_sample(tasks[c[0]], grades[c], responses.get(c), model, shown) for c in cells]
    times = sorted(t for r in answered for t in (r.started_at, r.finished_at) if t)
    created = times[0] if times else "1970-01-01T00:00:00+00:00"
    chosen = [grades[c] for c in cells]
    correct = sum(g.status in CORRECT_STATUSES for g in chosen)
    completed = sum(g.status != "no-response" for g in chosen)
    metrics = {
        "accuracy": EvalMetric(name="accuracy", value=correct / len(chosen)),
        "accuracy_completed": EvalMetric(name="accuracy_completed", value=correct / completed if completed else 0.0),
    }
    spec = EvalSpec(
        created=created,
        task="execstate",
        task_id=context["tasks_sha256"][:22],
        run_id=f"{context['tasks_sha256'][:12]}-{_file_part(name)}",
        dataset=EvalDataset(name=Path(context["tasks_file"]).stem, location=context["tasks_file"], samples=len(tasks)),
        model=model,
        model_base_url=entry.get("base_url"),
        config=EvalConfig(epochs=max(c[2] for c in cells) + 1),
        packages={"execstate": __version__},
        metadata={"execstate": {"setting": name, "setting_record": entry, **context}},
    )
    return EvalLog(
        status="success",
        eval=spec,
        results=EvalResults(
            total_samples=len(samples),
            completed_samples=len(samples),
            scores=[EvalScore(name=SCORER, scorer=SCORER, scored_samples=len(samples), metrics=metrics)],
        ),
        stats=EvalStats(
            started_at=created, completed_at=times[-1] if times else created, model_usage=_usage_sum(samples, model)
        ),
        samples=samples,
    )


def _usage_sum(samples: list[Any], model: str) -> dict[str, Any]:
    """The samples' token counts summed, under the setting's model (empty when none reported any)."""
    from inspect_ai.model import ModelUsage

    usages = [s.output.usage for s in samples if s.output.usage is not None]
    if not usages:
        return {}
    total = ModelUsage()
    for usage in usages:
        total = total + usage
    return {model: total}


def _usage(response: Response) -> Any:
    """Inspect's ``ModelUsage`` of a response; None when the server reported no token counts."""
    from inspect_ai.model import ModelUsage

    u = response.usage
    if u.prompt_tokens is None and u.completion_tokens is None:
        return None
    prompt, completion = u.prompt_tokens or 0, u.completion_tokens or 0
    return ModelUsage(
        input_tokens=prompt,
        output_tokens=completion,
        total_tokens=prompt + completion,
        input_tokens_cache_read=u.cache_read_tokens,
        input_tokens_cache_write=u.cache_creation_tokens,
        reasoning_tokens=u.reasoning_tokens,
    )


def _sample(
    task: Task, grade: Grade, response: Response | None, model: str, shown: dict[str, tuple[list[Any], dict[str, Any]]]
) -> Any:
    """One cell as an ``EvalSample`` (module docstring); ``shown`` caches each task's prompt messages and
    record (every sample of a task shares them)."""
    from inspect_ai.log import EvalSample
    from inspect_ai.model import (
        ChatCompletionChoice,
        ChatMessageAssistant,
        ChatMessageSystem,
        ChatMessageUser,
        ContentReasoning,
        ContentText,
        ModelOutput,
    )
    from inspect_ai.scorer import CORRECT, INCORRECT, NOANSWER, Score

    if task.task_id not in shown:
        prompt: list[Any] = [
            ChatMessageSystem(content=m["content"]) if m["role"] == "system" else ChatMessageUser(content=m["content"])
            for m in render_messages(task)
        ]
        shown[task.task_id] = (prompt, task.model_dump(mode="json"))
    prompt, record = shown[task.task_id]
    messages: list[Any] = list(prompt)
    output = ModelOutput(model=model)
    if response is not None:
        served = response.served_model or response.model or model
        timing = {"usage": _usage(response), "time": response.latency_s}
        if response.status == "completed":
            content: list[Any] = [ContentText(text=response.text or "")]
            if response.reasoning:
                content.insert(0, ContentReasoning(reasoning=response.reasoning))
            reply = ChatMessageAssistant(content=content, model=served, source="generate")
            stop = _STOP_REASONS.get(response.finish_reason or "", "unknown")
            choice = ChatCompletionChoice(message=reply, stop_reason=stop)
            output = ModelOutput(model=served, choices=[choice], **timing)
            messages.append(reply)
        else:
            output = ModelOutput(model=served, error="\n".join(response.errors) or "no response", **timing)
    if grade.status == "no-response":
        value = NOANSWER
    else:
        value = CORRECT if grade.status in CORRECT_STATUSES else INCORRECT
    score = Score(
        value=value,
        answer=grade.answer,
        explanation=grade.reason or grade.status,
        metadata=grade.model_dump(mode="json"),
    )
    meta: dict[str, Any] = {"task": record}
    if response is not None:
        meta["response"] = response.model_dump(mode="json", exclude={"text", "reasoning"})
    return EvalSample(
        id=task.task_id,
        epoch=grade.sample + 1,
        input=prompt,
        target=task.oracle,
        messages=messages,
        output=output,
        scores={SCORER: score},
        metadata=meta,
        model_usage={model: output.usage} if output.usage is not None else {},
        started_at=response.started_at if response is not None else None,
        completed_at=response.finished_at if response is not None else None,
        total_time=response.latency_s if response is not None else None,
    )
