"""execstate.export stage: tasks as other harnesses' task files (Inspect); record schemas for Hugging Face datasets."""

from execstate.export._datasets import hf_features
from execstate.export._inspect import INSPECT_FILE, execstate_scorer, export_inspect, inspect_samples, inspect_task

__all__ = ["INSPECT_FILE", "execstate_scorer", "export_inspect", "hf_features", "inspect_samples", "inspect_task"]
