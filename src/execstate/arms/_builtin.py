"""execstate's own arms (SPEC 7; the further arms of docs/further-arms.md). The order numbers leave room for a
plug-in's arms between them."""

from __future__ import annotations

from execstate.arms._spec import ArmSpec

SHORT_FINAL = ArmSpec(
    "short-trace-final", "paper", "final", "text", 10, label="short", color="#4c72b0", input_name="short",
    synthetic_bonus=1.0, description="the program's exact stdout on the short input",
)  # fmt: skip
LONG_FINAL = ArmSpec(
    "long-trace-final", "paper", "final", "text", 20, label="long", color="#dd8452", input_name="long",
    synthetic_bonus=0.0, description="the program's exact stdout on the long input",
)  # fmt: skip
INSIDE_STATE = ArmSpec(
    "inside-loop-state", "paper", "state", "json", 30, label="inside", color="#55a868", input_name="long",
    checkpoint="inside", synthetic_bonus=-0.3,
    description="the projection at the top of the k-th iteration of the chosen loop, on the long input",
)  # fmt: skip
POST_STATE = ArmSpec(
    "post-loop-state", "paper", "state", "json", 40, label="post", color="#c44e52", input_name="long",
    checkpoint="post", synthetic_bonus=-0.2,
    description="the projection right after the k-th execution of the chosen loop ends, on the long input",
)  # fmt: skip
FUNCTION_OUTPUT = ArmSpec(
    "function-output", "extra", "function", "text", 50, label="function-output", color="#8172b3",
    case_arm=False, synthetic_bonus=1.0, description="CRUXEval-O: the value a function call returns",
)  # fmt: skip
FUNCTION_INPUT = ArmSpec(
    "function-input", "extra", "function", "text", 60, label="function-input", color="#937860",
    case_arm=False, synthetic_bonus=0.5, description="CRUXEval-I: a call of the function that returns a given value",
)  # fmt: skip
PROGRAM_INPUT = ArmSpec(
    "short-trace-input", "extra", "input", "text", 70, label="short-trace-input", color="#da8bc3",
    input_name="short", case_arm=False, default_rule="program-input", synthetic_bonus=0.5,
    description="a standard input on which the program prints the short input's output (input_arm = true)",
)  # fmt: skip
LOOP_TRACE = ArmSpec(
    "loop-trace", "further", "trace", "json", 80, label="trace", input_name="long", checkpoint="inside",
    capability="LoopTracing", synthetic_bonus=0.0, plan="execstate.builder._further:loop_trace_row",
    grade_detail="execstate.grade._grader:trace_steps", simulate="execstate.run.providers.synthetic:simulate_trace",
    description="the projection at the top of each of the first m iterations of the inside checkpoint's loop run",
)  # fmt: skip
LINE_COUNT = ArmSpec(
    "line-count", "further", "count", "text", 90, label="count", input_name="short", capability="LineCounting",
    default_rule="integer", synthetic_bonus=0.5, plan="execstate.builder._further:line_count_row",
    description="how many times one marked line of the program runs on the short input",
)  # fmt: skip
