"""Build stage: case specs -> execution-checked four-arm tasks, and the corpus table of a build."""

from execstate.builder._build import PARTIAL_DIR, BuildResult, add_variants, build, combine_builds, write_build
from execstate.builder._card import CARD_NAME, dataset_card, dataset_features
from execstate.builder._case import Excluded, build_case
from execstate.builder._corpus import CORPUS_COLUMNS, FRESH_CORPUS_COLUMNS, corpus, corpus_table, fresh_corpus
from execstate.builder._executor import EXECUTORS, open_executor
from execstate.builder._fresh import SEED_ENV, Fresh
from execstate.builder._further import NotPosed, not_posed_of
from execstate.builder._measurements import (
    MeasurementStats,
    forget_measurements,
    measure_once,
    measure_once_predicted,
)
from execstate.builder._spec import CaseSpec, find_specs, load_spec
from execstate.builder._spec_write import SpecDraft, relative_name, spec_toml, toml_key, toml_value, write_spec
from execstate.builder._study import STUDY_FILE, StudyRoot, find_study
from execstate.builder._verify_fresh import FreshVerification, verify_fresh
from execstate.errors import SpecError, SpecProblem
from execstate.languages import BuildOptions  # the options a build takes; the rest is execstate.languages
from execstate.records import tasks_bytes
from execstate.studies import builtin_studies, study_dir

__all__ = [
    "CARD_NAME",
    "CORPUS_COLUMNS",
    "EXECUTORS",
    "FRESH_CORPUS_COLUMNS",
    "PARTIAL_DIR",
    "SEED_ENV",
    "STUDY_FILE",
    "BuildOptions",
    "BuildResult",
    "CaseSpec",
    "Excluded",
    "Fresh",
    "FreshVerification",
    "MeasurementStats",
    "NotPosed",
    "SpecDraft",
    "SpecError",
    "SpecProblem",
    "StudyRoot",
    "add_variants",
    "build",
    "build_case",
    "builtin_studies",
    "combine_builds",
    "corpus",
    "corpus_table",
    "dataset_card",
    "dataset_features",
    "find_specs",
    "find_study",
    "forget_measurements",
    "fresh_corpus",
    "load_spec",
    "measure_once",
    "measure_once_predicted",
    "not_posed_of",
    "open_executor",
    "relative_name",
    "spec_toml",
    "study_dir",
    "tasks_bytes",
    "toml_key",
    "toml_value",
    "verify_fresh",
    "write_build",
    "write_spec",
]
