"""The study registry: every study execstate knows by name, its languages, rule and where its cases come from.

A study is a group of cases reported together. Some ship with execstate
(built-in: ``classic`` as a folder of case specs, ``cruxeval`` as a bundled
dataset that loads as ready tasks); the others are the paper's studies whose
cases users build themselves (``study = "networkx"`` in their case specs): the
registry still gives them their default grading rule and tells the analysis
whether all their cases share one source.

The registry is a ``Registry[Study]`` (``STUDY_REGISTRY``, entry-point group ``execstate.studies``):
adding a built-in study is one folder under ``execstate/studies/`` plus one entry in ``_BUILTIN``; another
package adds one through its entry point, a test with ``register_study``. :data:`STUDIES` reads it as a
mapping (``STUDIES[name]``, ``STUDIES.get(name)``, ``name in STUDIES``, iteration in registry order).
This module imports nothing heavy; a dataset loader is named as ``"module:function"`` and imported only
when its tasks are asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from execstate.errors import UsageError, load_attr
from execstate.registry import Registry
from execstate.studies._root import (
    CASE_OWN_KEYS,
    DEFAULT_KEYS,
    SOURCES_KEY,
    STUDY_FILE,
    TOOL_TABLES,
    StudyRoot,
    find_study,
    read_study,
    resolve_file,
    with_defaults,
)
from execstate.studies._spec_write import SpecDraft, relative_name, spec_toml, toml_key, toml_value, write_spec

if TYPE_CHECKING:
    from execstate.records import Task

HERE = Path(__file__).resolve().parent
DEFAULT_GRADING_RULE = "json-or-tokens"
"""The rule of a case whose study is not registered and whose spec names none."""


@dataclass(frozen=True)
class InputRecipe:
    """A program whose standard output is one fresh input; the builder runs it in the sandbox.

    ``language`` is a builder language (``python`` runs as the builder's helper interpreter, ``cpp``
    is compiled like a case's program); ``source`` is its whole text (one file: local headers inlined);
    ``env`` adds environment variables to a Python helper's run (``EXECSTATE_SEED`` for a classic-style
    ``gen.py``). ``describe`` says what it is without the seed, for records (``generator.py <seed> 25``).
    """

    language: str
    source: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    describe: str = ""


@dataclass(frozen=True)
class FreshPlan:
    """How to draw a case's fresh short and long inputs from one derived seed (``execstate build --fresh``).

    ``long_trace_band``: a candidate is kept only when its long input's trace length ``t`` has
    ``low <= t < high`` (a study that selected its cases by band, like networkx, keeps each case in its own).
    """

    short: InputRecipe
    long: InputRecipe
    long_trace_band: tuple[int, int] | None = None


Refresher = Callable[[Path, Mapping[str, Any], Mapping[str, Path | None], int], "FreshPlan | str"]
"""A study's ``refresher``: ``(spec_path, provenance, input_files, seed) -> FreshPlan`` for a case whose
inputs are files (``input_files``: ``short_input`` and ``long_input`` -> the file, or None for a generator),
or a string saying why the case cannot be refreshed."""


@dataclass(frozen=True)
class Study:
    """One registered study."""

    name: str
    languages: tuple[str, ...]
    """Languages its cases are written in."""
    grading_rule: str
    """Default grading rule of its cases (a case spec may override it)."""
    description: str
    cases_dir: Path | None = None
    """Folder searched recursively for ``case.toml`` when the study is built (``--study NAME``)."""
    loader: str | None = None
    """``"module:function"`` returning the study's ready tasks (a dataset imported as tasks)."""
    screened: Path | None = None
    """The folder (program, generator, ``study.toml``) whose candidates ``execstate select`` screens."""
    pool: Path | None = None
    """The problem pool its case specs were constructed from (``execstate construct``), when it ships one."""
    shared_source: bool = False
    """Every case runs one shared source (only the input varies); the analysis's sensitivity
    cohorts and regression leave such a study out, since its cases are one source cluster."""
    main_grid: bool = True
    """False for a study run outside the main grid (the invariant pilot): ``--study NAME`` still builds it,
    but the main job's default studies leave it out."""
    origin: str | None = None
    """Where its programs and inputs come from (a repository or dataset), for dataset cards."""
    licence: str | None = None
    """SPDX identifier of the licence of its programs and data; None when not recorded (user-built studies)."""
    refresher: str | None = None
    """``"module:function"``, a ``Refresher``: how ``build --fresh`` draws new inputs for its cases whose inputs
    are files (a case whose inputs come from a generator needs none: the generator gets ``EXECSTATE_SEED``)."""
    main_fresh: bool = False
    """True: the offline main job (``execstate pipeline``) also builds it on fresh inputs beside the published
    ones, so its report compares them (docs/fresh.md)."""
    main_variants: bool = False
    """True: the offline main job also builds its source variants beside it, so its report compares them
    (docs/variants.md)."""
    twins: Path | None = None
    """Its twin file (``twins.toml``): which of its cases are cross-language twins of which cases of another study,
    and the names of their projected variables there; the builder proves every such pair (docs/twins.md)."""

    @property
    def builtin(self) -> bool:
        """True when execstate ships the study's cases (``--study NAME`` builds it)."""
        return self.cases_dir is not None or self.loader is not None

    def load_tasks(self) -> list[Task]:
        """The ready tasks of a dataset study; ``UsageError`` for a study of case specs."""
        if self.loader is None:
            raise UsageError(f"study {self.name!r} is built from case specs, not loaded as tasks")
        return list(load_attr(self.loader)())

    def fresh_refresher(self) -> Refresher | None:
        """The study's ``refresher`` function, imported now; None when it has none."""
        if self.refresher is None:
            return None
        found: Refresher = load_attr(self.refresher)
        return found


_BUILTIN: dict[str, Study] = {
    s.name: s
    for s in (
        Study(
            "classic",
            ("python",),
            "json-or-tokens",
            "thirty authored textbook algorithms",
            cases_dir=HERE / "classic",
            origin="authored for execstate",
            licence="MIT",
            main_fresh=True,
            main_variants=True,
        ),
        Study(
            "cruxeval",
            ("python",),
            "python-literal",
            "the 800 CRUXEval items as function-output and function-input tasks (MIT)",
            loader="execstate.studies.cruxeval:cruxeval_tasks",
            origin="facebookresearch/cruxeval, data/cruxeval.jsonl",
            licence="MIT",
        ),
        Study(
            "codecontests_py",
            ("python",),
            "int-alpha-tokens",
            "40 CodeContests Python programs with their tests (CC BY 4.0), cases made by execstate construct",
            cases_dir=HERE / "codecontests_py" / "specs",
            pool=HERE / "codecontests_py" / "pool",
            origin="google-deepmind/code_contests (Codeforces problems)",
            licence="CC-BY-4.0",
        ),
        Study(
            "library_cpp",
            ("cpp",),
            "json-or-tokens",
            "12 Library Checker C++ solutions with their tests (Apache-2.0), cases made by execstate construct",
            cases_dir=HERE / "library_cpp" / "specs",
            pool=HERE / "library_cpp" / "pool",
            origin="yosupo06/library-checker-problems",
            licence="Apache-2.0",
            refresher="execstate.studies.library_cpp:fresh_plan",
        ),
        Study(
            "pyperformance",
            ("python",),
            "json-or-tokens",
            "CPython's pyperformance benchmarks (pure Python, deterministic) as stdin programs sized by their input",
            cases_dir=HERE / "pyperformance" / "specs",
            pool=HERE / "pyperformance" / "pool",
            origin="python/pyperformance 1.14.0 (PyPI), data-files/benchmarks/bm_*/run_benchmark.py",
            licence="MIT",
            refresher="execstate.studies.pyperformance:fresh_plan",
        ),
        Study("lcb_python", ("python",), "json-or-tokens", "LiveCodeBench Hard, Python solutions"),
        Study("lcb_cpp", ("cpp",), "json-or-tokens", "LiveCodeBench Hard, C++ solutions"),
        Study(
            "codecontests",
            ("cpp",),
            "int-alpha-tokens",
            "CodeContests, C++ solutions",
            origin="google-deepmind/code_contests",
            licence="CC-BY-4.0",
        ),
        Study(
            "networkx",
            ("python",),
            "bytes",
            "NetworkX network simplex on thirty min-cost-flow inputs selected by trace-length band",
            cases_dir=HERE / "networkx" / "cases",
            screened=HERE / "networkx",
            shared_source=True,
            origin="networkx/networkx network_simplex (the routine); inputs generated by execstate",
            licence="BSD-3-Clause",
            refresher="execstate.studies.networkx:fresh_plan",
        ),
        Study(
            "classic_cpp",
            ("cpp",),
            "json-or-tokens",
            "the classic study's thirty algorithms written by hand in C++17, twins of the Python programs",
            cases_dir=HERE / "classic_cpp",
            origin="authored for execstate (C++ twins of the classic study; its generators, named, not copied)",
            licence="MIT",
            main_fresh=True,
            twins=HERE / "classic_cpp" / "twins.toml",
        ),
        Study(
            "pilot",
            ("python", "cpp"),
            "json-or-tokens",
            "12 long-trace programs with audited invariants for the invariant-guidance pilot (execstate pilot)",
            cases_dir=HERE / "pilot",
            main_grid=False,
            origin="authored for execstate (the classic study's programs, named, and copies of examples/ C++ cases)",
            licence="MIT",
        ),
    )
}
"""execstate's own studies, in registry order."""


def _check(name: str, study: object) -> None:
    """``UsageError`` unless ``study`` is a ``Study`` calling itself ``name``."""
    if not isinstance(study, Study):
        raise UsageError(f"study {name!r} is a {type(study).__name__}, not a Study. Fix: point it at a Study")
    if study.name != name:
        raise UsageError(f"study entry registered as {name!r} calls itself {study.name!r}; the two must agree")


STUDY_REGISTRY: Registry[Study] = Registry(
    "study",
    group="execstate.studies",
    builtin=_BUILTIN,
    check=_check,
    fix="give the paths of your own case specs, register one (execstate.studies.register_study) or declare it "
    'in another package\'s [project.entry-points."execstate.studies"]',
)
"""Every study by name: execstate's own, registered at run time, then from installed packages' entry points."""


class StudyTable(Mapping[str, Study]):
    """The study registry read as a mapping: ``STUDIES[name]`` (``KeyError`` for an unknown name),
    ``STUDIES.get(name)`` (None for a user's own, unregistered study), ``in``, and iteration in registry order."""

    def __init__(self, registry: Registry[Study]) -> None:
        self.registry = registry

    def __getitem__(self, name: str) -> Study:
        if name not in self.registry:
            raise KeyError(name)  # plain: callers ask about users' own study names, which are no error
        return self.registry.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self.registry

    def __iter__(self) -> Iterator[str]:
        return iter(self.registry.declared())

    def __len__(self) -> int:
        return len(self.registry.declared())


STUDIES = StudyTable(STUDY_REGISTRY)
"""Every registered study by name (a read-only view of ``STUDY_REGISTRY``)."""


def register_study(study: Study, *, replace: bool = False) -> None:
    """Add ``study`` for this process (a test, a notebook); a package adds one through its ``execstate.studies``
    entry point instead."""
    STUDY_REGISTRY.register(study.name, study, replace=replace)


def unregister_study(name: str) -> None:
    """Remove a study added with ``register_study``."""
    STUDY_REGISTRY.unregister(name)


def get_study(name: str) -> Study:
    """The registered study ``name``; ``UsageError`` naming the known ones otherwise."""
    try:
        return STUDIES[name]
    except KeyError:
        raise UsageError(
            f"unknown study {name!r}. Fix: use one of {', '.join(builtin_studies())} "
            "(or give the paths of your own case specs)"
        ) from None


def builtin_studies() -> list[str]:
    """Names accepted by ``--study``: the studies whose cases ship with execstate."""
    return sorted(name for name, s in STUDIES.items() if s.builtin)


def builtin_study(name: str) -> Study:
    """The built-in study ``name``; ``UsageError`` if it is unknown or ships no cases."""
    study = get_study(name) if name in STUDIES else None
    if study is None or not study.builtin:
        raise UsageError(
            f"unknown study {name!r}. Fix: use one of {', '.join(builtin_studies())} "
            "(or give the paths of your own case specs)"
        )
    return study


def study_dir(name: str) -> Path:
    """The case-spec folder of a built-in study; ``UsageError`` if it has none."""
    study = builtin_study(name)
    if study.cases_dir is None:
        raise UsageError(f"study {name!r} is a dataset loaded as tasks, not a folder of case specs")
    return study.cases_dir


def main_fresh_studies() -> list[str]:
    """The studies the offline main job also builds on fresh inputs (``Study.main_fresh``), in registry order."""
    return [name for name, s in STUDIES.items() if s.main_fresh]


def main_variant_studies() -> list[str]:
    """The studies the offline main job also builds as source variants (``Study.main_variants``)."""
    return [name for name, s in STUDIES.items() if s.main_variants]


def main_grid_studies() -> list[str]:
    """The built-in studies of the main grid (the main job's default): every built-in one but the pilot's."""
    return [name for name in builtin_studies() if STUDIES[name].main_grid]


PILOT_STUDY = "pilot"
"""The built-in study ``execstate pilot`` runs by default (docs/pilot.md)."""


def study_source(name: str) -> dict[str, str]:
    """What a dataset card or report says of a study: ``description``, ``source`` (its origin) and ``licence``,
    from the registry; a study the registry does not know (a user's own) says so in each."""
    study = STUDIES.get(name)
    return {
        "description": study.description if study else "a user's own study (not registered)",
        "source": (study.origin if study else None) or "not recorded",
        "licence": (study.licence if study else None) or "not recorded: check the programs' own terms",
    }


def default_grading_rule(study: str) -> str:
    """The grading rule of a case in ``study`` whose spec names none."""
    known = STUDIES.get(study)
    return known.grading_rule if known else DEFAULT_GRADING_RULE


def shared_source_studies() -> tuple[str, ...]:
    """Studies whose cases all share one source, in name order."""
    return tuple(sorted(name for name, s in STUDIES.items() if s.shared_source))


__all__ = [
    "CASE_OWN_KEYS",
    "DEFAULT_GRADING_RULE",
    "DEFAULT_KEYS",
    "PILOT_STUDY",
    "SOURCES_KEY",
    "STUDIES",
    "STUDY_FILE",
    "STUDY_REGISTRY",
    "TOOL_TABLES",
    "FreshPlan",
    "InputRecipe",
    "Refresher",
    "SpecDraft",
    "Study",
    "StudyRoot",
    "StudyTable",
    "builtin_studies",
    "builtin_study",
    "default_grading_rule",
    "find_study",
    "get_study",
    "main_fresh_studies",
    "main_grid_studies",
    "main_variant_studies",
    "read_study",
    "register_study",
    "relative_name",
    "resolve_file",
    "shared_source_studies",
    "spec_toml",
    "study_dir",
    "study_source",
    "toml_key",
    "toml_value",
    "unregister_study",
    "with_defaults",
    "write_spec",
]
