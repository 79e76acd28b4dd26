"""Build stage: case specs -> execution-checked four-arm tasks, and the corpus table of a build."""

from execstate.builder._build import PARTIAL_DIR, BuildResult, build, write_build
from execstate.builder._candidates import Candidate
from execstate.builder._card import CARD_NAME, dataset_card, dataset_features
from execstate.builder._case import HASH_SEEDS, LANGUAGES, BuildOptions, build_case
from execstate.builder._corpus import CORPUS_COLUMNS, corpus, corpus_table
from execstate.builder._cpp_language import CppLanguage
from execstate.builder._executor import EXECUTORS, open_executor
from execstate.builder._language import MEASURE_WALL_SLACK, Language, LanguageError, PythonLanguage, measurement_limits
from execstate.builder._python import AnchorError, Instrumented, instrument, resolve_loop
from execstate.builder._spec import CaseSpec, find_specs, load_spec
from execstate.builder._spec_write import SpecDraft, relative_name, spec_toml, toml_key, toml_value, write_spec
from execstate.builder._study import STUDY_FILE, StudyRoot, find_study
from execstate.errors import SpecError
from execstate.records import tasks_bytes
from execstate.studies import builtin_studies, study_dir

__all__ = [
    "CARD_NAME",
    "CORPUS_COLUMNS",
    "EXECUTORS",
    "HASH_SEEDS",
    "LANGUAGES",
    "MEASURE_WALL_SLACK",
    "PARTIAL_DIR",
    "STUDY_FILE",
    "AnchorError",
    "BuildOptions",
    "BuildResult",
    "Candidate",
    "CaseSpec",
    "CppLanguage",
    "Instrumented",
    "Language",
    "LanguageError",
    "PythonLanguage",
    "SpecDraft",
    "SpecError",
    "StudyRoot",
    "build",
    "build_case",
    "builtin_studies",
    "corpus",
    "corpus_table",
    "dataset_card",
    "dataset_features",
    "find_specs",
    "find_study",
    "instrument",
    "load_spec",
    "measurement_limits",
    "open_executor",
    "relative_name",
    "resolve_loop",
    "spec_toml",
    "study_dir",
    "tasks_bytes",
    "toml_key",
    "toml_value",
    "write_build",
    "write_spec",
]
