"""Invariant-guidance pilot (SPEC 10.7, paper Appendix F): baseline vs guided prompts under two response contracts."""

from execstate.pilot._pilot import PILOT_CHECK_SETTING, PilotResult, pilot_markdown, pilot_section_html, run_pilot
from execstate.pilot._tables import PilotPrediction, movement, pilot_predictions, pilot_tables, table9, token_use
from execstate.pilot._tasks import DEFAULT_CONDITIONS, check_plan, pilot_arm, pilot_task_id, pilot_tasks

__all__ = [
    "DEFAULT_CONDITIONS",
    "PILOT_CHECK_SETTING",
    "PilotPrediction",
    "PilotResult",
    "check_plan",
    "movement",
    "pilot_arm",
    "pilot_markdown",
    "pilot_predictions",
    "pilot_section_html",
    "pilot_tables",
    "pilot_task_id",
    "pilot_tasks",
    "run_pilot",
    "table9",
    "token_use",
]
