"""Build stage: case specs -> execution-checked four-arm tasks, and the corpus table of a build."""

from execstate.builder._build import PARTIAL_DIR, BuildResult, build, combine_builds, write_build
from execstate.builder._candidates import Candidate
from execstate.builder._card import CARD_NAME, dataset_card, dataset_features
from execstate.builder._case import Excluded, build_case
from execstate.builder._corpus import CORPUS_COLUMNS, FRESH_CORPUS_COLUMNS, corpus, corpus_table, fresh_corpus
from execstate.builder._executor import EXECUTORS, open_executor
from execstate.builder._fresh import SEED_ENV, Fresh
from execstate.builder._language import (
    MEASURE_WALL_SLACK,
    CheckpointMeasuring,
    CheckpointStates,
    ConstructLanguage,
    Endpoint,
    Instrumented,
    Language,
    Variation,
    measurement_limits,
)
from execstate.builder._languages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    LanguageEntry,
    construct_language,
    generator_languages,
    helper_language,
    language_entry,
    language_of_file,
    make_language,
    program_languages,
    register_language,
    unregister_language,
)
from execstate.builder._measurements import MeasurementStats, forget_measurements, measure_once
from execstate.builder._options import BuildOptions
from execstate.builder._python import instrument, resolve_loop
from execstate.builder._python_language import HASH_SEEDS, PythonLanguage
from execstate.builder._spec import CaseSpec, find_specs, load_spec
from execstate.builder._spec_write import SpecDraft, relative_name, spec_toml, toml_key, toml_value, write_spec
from execstate.builder._study import STUDY_FILE, StudyRoot, find_study
from execstate.builder._verify_fresh import FreshVerification, verify_fresh
from execstate.errors import SpecError, SpecProblem
from execstate.records import tasks_bytes
from execstate.studies import builtin_studies, study_dir

__all__ = [
    "CARD_NAME",
    "CORPUS_COLUMNS",
    "DEFAULT_LANGUAGE",
    "EXECUTORS",
    "FRESH_CORPUS_COLUMNS",
    "HASH_SEEDS",
    "LANGUAGES",
    "MEASURE_WALL_SLACK",
    "PARTIAL_DIR",
    "SEED_ENV",
    "STUDY_FILE",
    "BuildOptions",
    "BuildResult",
    "Candidate",
    "CaseSpec",
    "CheckpointMeasuring",
    "CheckpointStates",
    "ConstructLanguage",
    "Endpoint",
    "Excluded",
    "Fresh",
    "FreshVerification",
    "Instrumented",
    "Language",
    "LanguageEntry",
    "MeasurementStats",
    "PythonLanguage",
    "SpecDraft",
    "SpecError",
    "SpecProblem",
    "StudyRoot",
    "Variation",
    "build",
    "build_case",
    "builtin_studies",
    "combine_builds",
    "construct_language",
    "corpus",
    "corpus_table",
    "dataset_card",
    "dataset_features",
    "find_specs",
    "find_study",
    "forget_measurements",
    "fresh_corpus",
    "generator_languages",
    "helper_language",
    "instrument",
    "language_entry",
    "language_of_file",
    "load_spec",
    "make_language",
    "measure_once",
    "measurement_limits",
    "open_executor",
    "program_languages",
    "register_language",
    "relative_name",
    "resolve_loop",
    "spec_toml",
    "study_dir",
    "tasks_bytes",
    "toml_key",
    "toml_value",
    "unregister_language",
    "verify_fresh",
    "write_build",
    "write_spec",
]
