"""execstate.export stage: tasks as other harnesses' task files (Inspect), graded runs as Inspect logs; record
schemas for Hugging Face datasets."""

from execstate.export._datasets import hf_features
from execstate.export._inspect import INSPECT_FILE, execstate_scorer, export_inspect, inspect_samples, inspect_task
from execstate.export._inspect_log import LOG_FORMATS, export_inspect_log, inspect_logs, run_folder_files

__all__ = [
    "INSPECT_FILE",
    "LOG_FORMATS",
    "execstate_scorer",
    "export_inspect",
    "export_inspect_log",
    "hf_features",
    "inspect_logs",
    "inspect_samples",
    "inspect_task",
    "run_folder_files",
]
