"""An arm registered at run time with a ``plan`` hook is built exactly like the built-in further arms: a case
asks for it (``arms`` in its spec, or the build's ``add_arms``), the builder calls the hook with an
``ArmContext`` of the checked case, and the row becomes a task after the paper's four."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from execstate.arms import ArmSpec, register_arm, unregister_arm
from execstate.builder import ArmContext, BuildOptions, NotPosed, PlanRow, build_case, load_spec
from execstate.builder._further import hooked_rows
from execstate.errors import SpecError, UsageError
from execstate.studies import study_dir

CASE = study_dir("classic") / "bisection" / "case.toml"
TOY = "toy-output-length"
RULED = "toy-ruled"


def output_length(ctx: ArmContext, spec: ArmSpec) -> PlanRow | NotPosed:
    """The toy arm's row: the clean program on the short input; its oracle the length of what it prints."""
    out = ctx.output("short").decode("utf-8")
    if not out:
        return NotPosed(spec.name, "the program prints nothing on the short input")
    extra = {"expected_output": out, "toy": True}
    return PlanRow(spec.name, ctx.source, ctx.input("short"), str(len(out)), "text", endpoint=ctx.clean, extra=extra)


@pytest.fixture
def toy_arms() -> Iterator[None]:
    register_arm(ArmSpec(TOY, "further", "count", "text", 95, label="length", plan=output_length))
    register_arm(
        ArmSpec(RULED, "further", "count", "text", 96, default_rule="integer", capability="LoopTracing",
                plan=output_length)
    )  # fmt: skip
    try:
        yield
    finally:
        unregister_arm(TOY)
        unregister_arm(RULED)


def test_a_registered_arm_is_built_by_its_plan_hook_after_the_paper_arms(toy_arms: None) -> None:
    spec = load_spec(CASE)
    tasks = build_case(spec, BuildOptions(add_arms=(RULED, TOY)))
    assert isinstance(tasks, list), tasks
    assert [t.arm for t in tasks] == [*spec.arms, TOY, RULED]
    toy, ruled = tasks[-2:]
    short = next(t for t in tasks if t.arm == "short-trace-final")
    assert toy.task_id == f"{spec.id}/{TOY}" and toy.case_id == spec.id
    assert toy.oracle == str(len(short.oracle)) and toy.oracle != "0"  # from the program's execution
    assert toy.answer_kind == "text" and toy.input == short.input and toy.source == short.source
    assert toy.grading_rule == spec.grading_rule  # the spec names no default rule: the case's
    assert toy.meta["toy"] is True and "expected_output" not in toy.meta
    assert toy.metrics == short.metrics  # the same clean run on the short input, measured alike
    assert ruled.grading_rule == "integer" and ruled.oracle == toy.oracle  # its spec's default rule


class _Lang:
    name = "bare"


def test_an_arm_whose_capability_the_language_lacks_is_not_posed_saying_which(toy_arms: None) -> None:
    case = SimpleNamespace(
        lang=_Lang(), source="print(1)\n", spec=SimpleNamespace(checkpoint=SimpleNamespace(variables=("x",)))
    )
    ctx = ArmContext(case, 3, 2, {"short": (b"1\n", b"1\n"), "long": (b"9\n", b"9\n")})  # type: ignore[arg-type]
    rows, not_posed = hooked_rows(ctx, {TOY, RULED})
    assert [r.arm for r in rows] == [TOY] and rows[0].oracle == "2"
    assert not_posed == [NotPosed(RULED, f"the bare adapter has no LoopTracing (the {RULED} arm needs it)")]
    register_arm(ArmSpec("toy-odd", "further", "count", "text", 97, capability="NoSuchProtocol", plan=output_length))
    try:
        with pytest.raises(UsageError, match="NoSuchProtocol"):
            hooked_rows(ctx, {"toy-odd"})
    finally:
        unregister_arm("toy-odd")


def test_a_case_spec_may_list_a_registered_arm_and_an_unknown_one_is_refused_naming_the_known(
    toy_arms: None, tmp_path: Path
) -> None:
    for name in ("main.py", "gen.py"):
        (tmp_path / name).write_bytes((CASE.parent / name).read_bytes())
    text = CASE.read_text(encoding="utf-8")
    (tmp_path / "study.toml").write_text("", encoding="utf-8")
    (tmp_path / "case.toml").write_text(f'arms = ["{TOY}", "short-trace-final"]\n' + text, encoding="utf-8")
    spec = load_spec(tmp_path / "case.toml")
    assert spec.arms == ("short-trace-final", TOY)  # in arm order whatever the list's
    (tmp_path / "case.toml").write_text('arms = ["no-such-arm"]\n' + text, encoding="utf-8")
    with pytest.raises(SpecError, match=f"unknown arm 'no-such-arm' \\(known: .*{TOY}"):
        load_spec(tmp_path / "case.toml")
