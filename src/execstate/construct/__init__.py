"""execstate.construct stage: problem pools, importers into them, and automatic case construction (SPEC 5).

A problem pool is one directory per problem: ``main.py`` or ``main.cpp``,
``tests/NAME.in`` with optional ``tests/NAME.out``, an optional seeded
generator and an optional ``problem.toml``. Importers turn published datasets
into pools; the constructor turns a pool into case specs that ``execstate
build`` then admits or excludes by the nine checks. A problem with samples only
gets a long input from a ``gen.py`` written from the samples' inferred shape
(``infer_shapes``, ``generator_source``).

It sits above ``grade`` (a program is checked against its own tests with the
study's grading rule) and below ``analyze``.
"""

from execstate.construct._codecontests import import_codecontests
from execstate.construct._construct import ConstructOptions, ConstructResult, Outcome, construct, construct_problem
from execstate.construct._environment import environment_suggestion
from execstate.construct._folders import import_folders
from execstate.construct._genpy import generator_source
from execstate.construct._livecodebench import import_livecodebench, unpickle_plain
from execstate.construct._pool import (
    PROBLEM_FILE,
    Generator,
    NewTest,
    PoolTest,
    Problem,
    ProblemLimits,
    read_pool,
    read_problem,
    slug,
    write_problem,
)
from execstate.construct._properties import Inferred, infer_shapes
from execstate.construct._report import REPORT_NAME, Imported, ImportReport, Skipped
from execstate.construct._select import SELECT_NAME, Selection, select_cases
from execstate.construct._shape import Shape
from execstate.construct._shape import check as check_shape
from execstate.construct._shape import describe as describe_shape

__all__ = [
    "PROBLEM_FILE",
    "REPORT_NAME",
    "SELECT_NAME",
    "ConstructOptions",
    "ConstructResult",
    "Generator",
    "ImportReport",
    "Imported",
    "Inferred",
    "NewTest",
    "Outcome",
    "PoolTest",
    "Problem",
    "ProblemLimits",
    "Selection",
    "Shape",
    "Skipped",
    "check_shape",
    "construct",
    "construct_problem",
    "describe_shape",
    "environment_suggestion",
    "generator_source",
    "import_codecontests",
    "import_folders",
    "import_livecodebench",
    "infer_shapes",
    "read_pool",
    "read_problem",
    "select_cases",
    "slug",
    "unpickle_plain",
    "write_problem",
]
