"""execstate.grade stage: envelope check, answer extraction, grading rules (one registry), accuracy tables."""

from execstate.grade._call_rule import CallVerdict, check_calls, parse_call
from execstate.grade._cruxeval import CruxevalScore, pass_at_k, read_generations, score_file, score_generations
from execstate.grade._envelope import Extraction, extract, extract_rationale
from execstate.grade._grader import Cell, GradePlanError, grade_all, grade_response, plan_cells
from execstate.grade._plan import GRADES_NAME, GradeRun, RunPlan, grade_run, load_run_plan, plan_run_cells
from execstate.grade._rules import (
    EXECUTED_RULES,
    RULE_REGISTRY,
    RULES,
    RuleSpec,
    answer_matches,
    is_executed,
    json_equal,
    register_rule,
    rule_spec,
    rule_verdicts,
    unregister_rule,
)
from execstate.grade._seeds import GRADE_HASH_SEEDS
from execstate.grade._tables import AccuracyTables, accuracy_tables, format_markdown, print_tables, write_tables

__all__ = [
    "EXECUTED_RULES",
    "GRADES_NAME",
    "GRADE_HASH_SEEDS",
    "RULES",
    "RULE_REGISTRY",
    "AccuracyTables",
    "CallVerdict",
    "Cell",
    "CruxevalScore",
    "Extraction",
    "GradePlanError",
    "GradeRun",
    "RuleSpec",
    "RunPlan",
    "accuracy_tables",
    "answer_matches",
    "check_calls",
    "extract",
    "extract_rationale",
    "format_markdown",
    "grade_all",
    "grade_response",
    "grade_run",
    "is_executed",
    "json_equal",
    "load_run_plan",
    "parse_call",
    "pass_at_k",
    "plan_cells",
    "plan_run_cells",
    "print_tables",
    "read_generations",
    "register_rule",
    "rule_spec",
    "rule_verdicts",
    "score_file",
    "score_generations",
    "unregister_rule",
    "write_tables",
]
