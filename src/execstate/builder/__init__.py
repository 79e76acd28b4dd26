"""Build stage: case specs -> execution-checked tasks (the paper's four arms and any arm a case asks for), and the
corpus table of a build.

An arm with a ``plan`` hook (``execstate.arms.ArmSpec.plan``) is built by calling ``hook(ctx, spec)`` with an
``ArmContext`` (what the checks established about the case) for a ``PlanRow`` or a ``NotPosed``."""

from execstate.builder._build import (
    PARTIAL_DIR,
    BuildResult,
    add_ladder,
    add_variants,
    build,
    combine_builds,
    write_build,
)
from execstate.builder._card import CARD_NAME, dataset_card, dataset_features
from execstate.builder._case import Excluded, build_case
from execstate.builder._fresh import SEED_ENV, Fresh
from execstate.builder._further import ArmContext, NotPosed, not_posed_of
from execstate.builder._ladder import Ladder, rung_id, sized_generator
from execstate.builder._measurements import Measurements, MeasurementStats
from execstate.builder._plan import PlanRow
from execstate.builder._spec import CaseSpec, default_arms, find_specs, load_spec
from execstate.builder._verify_fresh import FreshVerification, verify_fresh
from execstate.corpus import CORPUS_COLUMNS, FRESH_CORPUS_COLUMNS, corpus, corpus_table, fresh_corpus
from execstate.errors import SpecError, SpecProblem
from execstate.executors import EXECUTORS, open_executor
from execstate.languages import BuildOptions  # the options a build takes; the rest is execstate.languages
from execstate.records import tasks_bytes
from execstate.studies import (  # a study's folder: its root, defaults and spec files
    STUDY_FILE,
    SpecDraft,
    StudyRoot,
    builtin_studies,
    find_study,
    relative_name,
    spec_toml,
    study_dir,
    toml_key,
    toml_value,
    write_spec,
)

__all__ = [
    "CARD_NAME",
    "CORPUS_COLUMNS",
    "EXECUTORS",
    "FRESH_CORPUS_COLUMNS",
    "PARTIAL_DIR",
    "SEED_ENV",
    "STUDY_FILE",
    "ArmContext",
    "BuildOptions",
    "BuildResult",
    "CaseSpec",
    "Excluded",
    "Fresh",
    "FreshVerification",
    "Ladder",
    "MeasurementStats",
    "Measurements",
    "NotPosed",
    "PlanRow",
    "SpecDraft",
    "SpecError",
    "SpecProblem",
    "StudyRoot",
    "add_ladder",
    "add_variants",
    "build",
    "build_case",
    "builtin_studies",
    "combine_builds",
    "corpus",
    "corpus_table",
    "dataset_card",
    "dataset_features",
    "default_arms",
    "find_specs",
    "find_study",
    "fresh_corpus",
    "load_spec",
    "not_posed_of",
    "open_executor",
    "relative_name",
    "rung_id",
    "sized_generator",
    "spec_toml",
    "study_dir",
    "tasks_bytes",
    "toml_key",
    "toml_value",
    "verify_fresh",
    "write_build",
    "write_spec",
]
