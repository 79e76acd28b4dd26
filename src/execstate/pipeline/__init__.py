"""The whole pipeline as one call: build, run, grade, tables, analysis, report."""

from execstate.pipeline._local import LOCAL_PORT, run_local_model
from execstate.pipeline._pipeline import (
    DEFAULT_STUDIES,
    DEMO_FRESH_SEED,
    FRESH_STUDIES,
    MAIN_LADDER,
    MAIN_LADDER_CASES,
    ORACLE_SETTING,
    PIPELINE_CHECK_SETTINGS,
    SYNTHETIC_HORIZON,
    SYNTHETIC_SETTING,
    PipelineResult,
    run_pipeline,
)

__all__ = [
    "DEFAULT_STUDIES",
    "DEMO_FRESH_SEED",
    "FRESH_STUDIES",
    "LOCAL_PORT",
    "MAIN_LADDER",
    "MAIN_LADDER_CASES",
    "ORACLE_SETTING",
    "PIPELINE_CHECK_SETTINGS",
    "SYNTHETIC_HORIZON",
    "SYNTHETIC_SETTING",
    "PipelineResult",
    "run_local_model",
    "run_pipeline",
]
