"""Build stage: case specs -> execution-checked four-arm tasks."""

from execstate.build._build import BuildResult, build, study_dir, tasks_bytes, write_build
from execstate.build._case import BuildOptions, build_case
from execstate.build._language import Language, LanguageError, PythonLanguage
from execstate.build._python import AnchorError, Instrumented, instrument, resolve_loop
from execstate.build._spec import CaseSpec, SpecError, find_specs, load_spec

__all__ = [
    "AnchorError", "BuildOptions", "Language", "LanguageError", "PythonLanguage", "BuildResult", "CaseSpec", "Instrumented", "SpecError", "build",
    "build_case", "find_specs", "instrument", "load_spec", "resolve_loop", "study_dir", "tasks_bytes",
    "write_build",
]
