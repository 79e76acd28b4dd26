"""Admit one case: read its spec, run the nine checks of SPEC section 4 on its inputs, and make its tasks.

``_admit_inputs`` reads as the checks in the order they run (docs/protocol.md); each is a function of
``_checks``. The state runs they need are ``_states``; the rows that become tasks ``_plan``, measured
and made tasks by ``_tasks``; a fresh build's inputs come from ``_fresh``. Language-specific work goes
through a ``Language`` adapter; nothing here knows which language the program is written in.
"""

from __future__ import annotations

import copy
import dataclasses
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate.builder._checks import (
    Excluded,
    check_change,
    check_determinism,
    check_fields,
    check_iterations,
    check_preservation,
    check_reachability,
    check_trace_order,
)
from execstate.builder._context import CaseContext
from execstate.builder._fresh import Fresh, NoCandidate, NotRefreshable, choose_fresh
from execstate.builder._further import ArmContext, CaseTasks, hooked_rows
from execstate.builder._inputs import case_environment, locate_loop, read_source
from execstate.builder._invariant import InvariantRefused, audit_invariant
from execstate.builder._ladder import Ladder, build_ladder, rung_spec
from execstate.builder._measurements import Measurements
from execstate.builder._neighbours import inside_neighbours, post_neighbours
from execstate.builder._plan import CHECKPOINTS, CheckpointMode, arm_rows, input_row
from execstate.builder._spec import CaseSpec
from execstate.builder._states import POST_WINDOW, CaseStates, state_oracle, sweep_rows
from execstate.builder._tasks import make_tasks
from execstate.builder._variants import differences, variant_id, variant_meta, variant_seed, variant_spec
from execstate.errors import SpecError, SpecProblem, remove_tree
from execstate.languages import (
    BuildOptions,
    Endpoint,
    Instrumented,
    SourceVarying,
    helper_language,
    make_language,
    source_lines,
)
from execstate.records import Exclusion, Task, fresh_twin
from execstate.sandbox import SandboxFault

# Called through this module's names, so that tests (tests/builder) can replace them here.
from execstate.builder._inputs import make_input as _make_input  # isort: skip
from execstate.builder._states import prober as _prober, states_together as _states_together  # isort: skip

__all__ = ["POST_WINDOW", "Excluded", "build_case", "failed_case"]
"""``Excluded`` and ``POST_WINDOW`` are re-exported: their homes are ``_checks`` and ``_states``."""

_PACKAGE = Path(__file__).parent.parent
"""The ``execstate`` package folder: frames in it locate an unexpected exception."""


def build_case(
    spec: CaseSpec,
    opts: BuildOptions,
    fresh: Fresh | None = None,
    memo: Measurements | None = None,
    ladder: Ladder | None = None,
) -> list[Task] | Exclusion:
    """The case's tasks in plan order (by default the paper's four arms), or the exclusion naming the failed
    check and its evidence.

    Never raises for one case's trouble: any exception becomes an exclusion
    (``run`` for a ``SandboxFault``, the program's doing; else ``internal``: ``failed_case``).
    ``fresh``: build the case on fresh inputs drawn from its seed (``execstate.builder._fresh``); the
    records of a case so built carry the id ``<id>~fresh`` (those of a case that cannot be refreshed, kept
    with its published inputs, its own id). ``memo``: the measurement memo of the build the case is part of
    (``build`` passes its own; None: the case's own, gone with it). ``ladder``: build the case's input ladder
    instead (``execstate.builder._ladder``): its rungs' tasks, ``<id>~rung<k>``, with the ladder's record
    (``LadderTasks.ladder``).
    """
    tmp = Path(tempfile.mkdtemp(prefix="execstate-case-"))
    ids = [spec.id if fresh is None else fresh_twin(spec.id)]
    try:
        return _admit(spec, opts, tmp, fresh, ids, Measurements() if memo is None else memo, ladder)
    except Excluded as exc:
        return Exclusion(case_id=ids[-1], check=exc.check, reason=exc.reason, spec_path=str(spec.spec_path))
    except SpecProblem as exc:
        reported = exc if isinstance(exc, SpecError) else exc.at(spec.spec_path)
        return Exclusion(case_id=ids[-1], check="spec", reason=str(reported), spec_path=str(spec.spec_path))
    except Exception as exc:  # one bad case never stops the batch
        return failed_case(ids[-1], exc, str(spec.spec_path))
    finally:
        remove_tree(tmp)


def failed_case(case_id: str, exc: BaseException, spec_path: str | None = None) -> Exclusion:
    """The exclusion for an exception out of building a case, decided by its type.

    A ``SandboxFault`` is the program's doing (e.g. a working directory it left unremovable): a ``run``
    exclusion with the fault's own message and fix. Anything else is the builder's: ``internal``,
    naming the exception and the last frame in execstate it came through.
    """
    if isinstance(exc, SandboxFault):
        return Exclusion(case_id=case_id, check="run", reason=f"running the program: {exc}", spec_path=spec_path)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).is_relative_to(_PACKAGE)]
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    return Exclusion(
        case_id=case_id,
        check="internal",
        reason=f"the builder failed on this case: {type(exc).__name__}: {exc}{where}. Fix: report it with the case",
        spec_path=spec_path,
    )


def _admit(
    spec: CaseSpec,
    opts: BuildOptions,
    tmp: Path,
    fresh: Fresh | None,
    ids: list[str],
    memo: Measurements,
    ladder: Ladder | None = None,
) -> list[Task]:
    """The case's tasks; ``ids[-1]`` is the id its records carry (a fresh build's case that cannot be
    refreshed appends its published id). With ``ladder``, its rungs' tasks instead."""
    if ladder is not None:
        spec = rung_spec(spec, ladder)
    lang, generators = make_language(spec.language, opts), helper_language(opts, "gen.py")
    env = case_environment(spec, opts)
    if env is not None:  # the program and its generators alike see the declared packages and headers
        lang, generators = lang.with_environment(env), generators.with_environment(env)
    source = read_source(spec)
    loop_line = locate_loop(spec, lang, source)
    case = CaseContext(spec, lang, source, tmp, generators, opts, env, memo)
    if ladder is not None:
        short = _make_input(case, spec.short_input, "short_input")
        return build_ladder(case, ladder, short, lambda c, s, x, meta, i: _admit_inputs(c, loop_line, s, x, meta, i))
    short, long = _make_input(case, spec.short_input, "short_input"), _make_input(case, spec.long_input, "long_input")
    if fresh is None:
        tasks = _admit_inputs(case, loop_line, short, long, None, ids)
        return _with_variants(case, loop_line, short, long, None, tasks) if opts.variants else tasks
    tasks, drawn = _admit_fresh(case, loop_line, fresh, short, long, ids)
    return _with_variants(case, loop_line, *drawn, tasks) if opts.variants else tasks


def _with_variants(
    case: CaseContext, loop_line: int, short: bytes, long: bytes, fresh_meta: dict | None, tasks: CaseTasks
) -> CaseTasks:
    """The admitted case's tasks, then those of each of its source variants (``BuildOptions.variants``) that passes
    the checks on the same inputs and answers every task as the original does; the others in ``not_kept``.

    In a fresh build the variants are built on the fresh inputs the original was (``fresh_meta``: its meta keys):
    ``<case>~fresh~<variant>``, the same variant source as the published case's."""
    lang, spec, opts = case.lang, case.spec, case.opts
    base = tasks[0].case_id if tasks else spec.id
    out = CaseTasks(list(tasks), tasks.not_posed)
    for name in opts.variants:
        made_id = variant_id(base, name)
        if not isinstance(lang, SourceVarying) or name not in lang.source_variants:
            out.not_kept.append({"case_id": made_id, "variant": name, "reason": f"the {lang.name} adapter makes none"})
            continue
        made = lang.make_variant(case.source, name, variant_seed(spec.id, name, opts.variant_seed))
        vspec = variant_spec(spec, made, loop_line, made_id)
        vcase = dataclasses.replace(case, spec=vspec, source=made.source)
        meta = copy.deepcopy(fresh_meta)
        try:
            theirs = _admit_inputs(vcase, made.lines[loop_line], short, long, meta, [made_id])
        except Excluded as exc:
            out.not_kept.append({"case_id": made_id, "variant": name, "reason": f"check {exc.check}: {exc.reason}"})
            continue
        differ = differences(list(tasks), list(theirs), made.mapping)
        if differ:
            why = f"it does not behave as the original: {'; '.join(differ[:3])}"
            out.not_kept.append({"case_id": made_id, "variant": name, "reason": why})
            continue
        out.extend(variant_meta(t, base, made) for t in theirs)
    return out


def _admit_fresh(
    case: CaseContext, loop_line: int, fresh: Fresh, short: bytes, long: bytes, ids: list[str]
) -> tuple[CaseTasks, tuple[bytes, bytes, dict]]:
    """The tasks on the first fresh candidate (best first) that passes the checks, with that candidate's inputs and
    meta keys; else ``Excluded`` with the closest one's failed check. A case that cannot be refreshed is built on
    its published inputs."""
    failed: list[tuple[dict, Excluded]] = []
    for drawn_short, drawn_long, fresh_meta in _fresh_inputs(case, fresh, short, long, ids):
        record = fresh_meta["fresh"]
        if failed:  # closer candidates failed a check: the record says which and why
            record["failed_checks"] = [
                {"candidate": r["candidate"], "check": e.check, "reason": e.reason[:300]} for r, e in failed
            ]
        try:
            tasks = _admit_inputs(case, loop_line, drawn_short, drawn_long, fresh_meta, ids)
            return tasks, (drawn_short, drawn_long, fresh_meta)
        except Excluded as exc:
            if record is False:
                raise
            failed.append((record, exc))
    first, closest = failed[0]
    others = len(failed) - 1
    tail = f"; the {others} other candidate(s) within the bounds failed a check too" if others else ""
    raise Excluded(
        closest.check, f"fresh candidate #{first['candidate']} (the closest in long trace): {closest.reason}" + tail
    )


def _fresh_inputs(
    case: CaseContext, fresh: Fresh, short: bytes, long: bytes, ids: list[str]
) -> list[tuple[bytes, bytes, dict]]:
    """The inputs and meta of a ``--fresh`` build: drawn ones, best first (``meta["fresh"]``: how), or the published
    ones with ``meta["fresh"] = False`` and ``meta["fresh_note"]`` saying why (the published id appended to ``ids``)."""
    try:
        ranked = choose_fresh(case, fresh, short, long)
    except NotRefreshable as exc:
        if fresh.only:
            raise Excluded("fresh", f"not refreshable: {exc}") from None
        ids.append(case.spec.id)
        return [(short, long, {"fresh": False, "fresh_note": f"not refreshable: {exc}"})]
    except NoCandidate as exc:
        raise Excluded("fresh", str(exc)) from None
    return [(drawn_short, drawn_long, {"fresh": record}) for drawn_short, drawn_long, record in ranked]


@dataclass(frozen=True)
class _Checked:
    """What the nine checks established about a case on its two inputs: what its tasks are made of."""

    loop_line: int
    """The selected loop's header line."""
    k: int
    """The inside checkpoint's iteration."""
    K: int
    """The selected loop's iterations on the long input."""
    runs: dict[str, tuple[bytes, bytes]]
    """``short`` and ``long``: the input and the clean program's stdout on it."""
    traces: dict[str, list[int]]
    """The three trace lengths on each input."""
    inst: dict[CheckpointMode, Instrumented]
    """The inside and post copies at iteration k."""
    oracles: dict[CheckpointMode, str]
    """Their state lines on the long input."""
    states: CaseStates | None
    """The runs of the states copy on the long input, when there are (``_states.states_together``)."""


def _admit_inputs(
    case: CaseContext, loop_line: int, short: bytes, long: bytes, fresh_meta: dict | None, ids: list[str]
) -> CaseTasks:
    """The nine checks and the tasks of ``case`` on these inputs (``fresh_meta``: the keys a fresh build adds)."""
    inputs = {"short": short, "long": long}
    outs = {name: check_determinism(case, name, data) for name, data in inputs.items()}  # and `run`
    traces = check_trace_order(case, inputs, outs)
    K = check_iterations(case, loop_line, long)
    k = case.spec.checkpoint.inside_iteration or K // 2 + 1
    check_reachability(k, K)
    inst = {mode: case.instrument(loop_line, mode, k) for mode in CHECKPOINTS}
    states = _states_together(case, loop_line, long, k, K)
    # reachability, checkpoint-size and oracle-determinism of each checkpoint's state
    oracles = {mode: states.oracle(mode) if states else state_oracle(case, inst[mode], long, mode) for mode in inst}
    check_fields(oracles["inside"], oracles["post"])
    check_change(oracles["inside"], oracles["post"])
    runs = {name: (data, outs[name]) for name, data in inputs.items()}
    for mode in CHECKPOINTS:
        check_preservation(case, inst[mode], mode, runs)
    return _tasks(case, _Checked(loop_line, k, K, runs, traces, inst, oracles, states), fresh_meta, ids)


def _tasks(case: CaseContext, checked: _Checked, fresh_meta: dict | None, ids: list[str]) -> CaseTasks:
    """The tasks of the checked case, in plan order, their ids made ``ids[-1]``'s; the further arms it asked for
    and did not get in ``not_posed``."""
    spec, c = case.spec, checked
    meta = _meta(case, c, fresh_meta)
    long = c.runs["long"][0]
    probe = c.states.prober(_prober(case, c.loop_line, long)) if c.states else _prober(case, c.loop_line, long)
    near: dict[CheckpointMode, list[dict]] = {
        "inside": inside_neighbours(probe, c.k, c.K),
        "post": post_neighbours(probe, c.k, c.K, c.oracles["post"]),
    }
    clean = Endpoint(c.loop_line, spec.checkpoint.variables)
    arms = {*spec.arms, *case.opts.add_arms}
    plan = [row for row in arm_rows(case.source, clean, c.k, c.runs, c.inst, c.oracles, near) if row.arm in arms]
    if spec.input_arm:
        short, short_out = c.runs["short"]
        plan.append(input_row(spec, case.source, short, short_out.decode("utf-8"), clean))
    plan += sweep_rows(case, c.loop_line, c.K, long, c.oracles["inside"], c.states)
    hooked, not_posed = hooked_rows(ArmContext(case, c.loop_line, c.k, c.runs), arms)
    plan += hooked
    tasks = make_tasks(case, plan, meta)
    if ids[-1] != spec.id:
        cut = len(spec.id)
        tasks = [t.model_copy(update={"case_id": ids[-1], "task_id": ids[-1] + t.task_id[cut:]}) for t in tasks]
    return CaseTasks(tasks, not_posed)


def _meta(case: CaseContext, c: _Checked, fresh_meta: dict | None) -> dict[str, Any]:
    """What every task of the case carries in its meta (before the toolchain's and its row's own keys)."""
    spec, env = case.spec, case.env
    meta: dict[str, Any] = {
        "k": c.k,
        "K": c.K,
        "loop_line": c.loop_line,
        "loop_header": source_lines(case.source)[c.loop_line - 1].strip(),
        "variables": list(spec.checkpoint.variables),
        "trace_short": c.traces["short"][0],
        "trace_long": c.traces["long"][0],
        "hash_seeds": [v.seed for v in case.lang.variations],
        "instrument_prefix": c.inst["inside"].prefix,
    }
    if spec.provenance:
        meta["provenance"] = dict(spec.provenance)
    if fresh_meta is not None:
        meta.update(fresh_meta)
    if env is not None:
        meta["environment"] = env.record()
    if spec.invariant is not None:
        meta["invariant"] = _audit(case, c.runs, c.oracles)
    return meta


def _audit(case: CaseContext, runs: dict[str, tuple[bytes, bytes]], oracles: dict[CheckpointMode, str]) -> dict:
    """The audited ``[invariant]`` for the tasks' meta; ``Excluded("invariant")`` when it is refused."""
    checker = helper_language(case.opts, "check.py")
    try:
        return audit_invariant(
            case.spec,
            case.source,
            [(name, data, out) for name, (data, out) in runs.items()],
            lambda data: case.run(case.source, data),
            lambda text, stdin: checker.run(text, stdin, case.workdir),
            {"long": runs["long"][1].decode("utf-8"), "inside": oracles["inside"], "post": oracles["post"]},
        )
    except InvariantRefused as exc:
        raise Excluded("invariant", f"{case.spec.spec_path} [invariant]: {exc}") from None
