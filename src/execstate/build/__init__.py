"""Build stage: case specs -> execution-checked four-arm tasks."""

from execstate.build._build import BuildResult, build, builtin_studies, study_dir, write_build
from execstate.build._case import BuildOptions, build_case
from execstate.build._language import Language, LanguageError, PythonLanguage
from execstate.build._python import AnchorError, Instrumented, instrument, resolve_loop
from execstate.build._spec import CaseSpec, SpecError, find_specs, load_spec
from execstate.records import tasks_bytes

__all__ = [
    "AnchorError", "BuildOptions", "Language", "LanguageError", "PythonLanguage", "BuildResult", "CaseSpec", "Instrumented", "SpecError", "build",
    "build_case", "builtin_studies", "find_specs", "instrument", "load_spec", "resolve_loop", "study_dir", "tasks_bytes",
    "write_build",
]
