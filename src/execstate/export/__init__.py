"""execstate.export stage: built tasks as other harnesses' task files (Inspect), graded by execstate's grader."""

from execstate.export._inspect import INSPECT_FILE, execstate_scorer, export_inspect, inspect_samples, inspect_task

__all__ = ["INSPECT_FILE", "execstate_scorer", "export_inspect", "inspect_samples", "inspect_task"]
