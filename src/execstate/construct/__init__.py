"""execstate.construct stage: problem pools, importers into them, and automatic case construction (SPEC 5).

A problem pool is one directory per problem: ``main.py`` or ``main.cpp``,
``tests/NAME.in`` with optional ``tests/NAME.out``, an optional seeded
generator and an optional ``problem.toml``. Importers turn published datasets
into pools; the constructor turns a pool into case specs that ``execstate
build`` then admits or excludes by the nine checks.

It sits above ``grade`` (a program is checked against its own tests with the
study's grading rule) and below ``analyze``.
"""

from execstate.construct._codecontests import import_codecontests
from execstate.construct._construct import ConstructOptions, ConstructResult, Outcome, construct, construct_problem
from execstate.construct._environment import environment_suggestion
from execstate.construct._folders import import_folders
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
from execstate.construct._report import REPORT_NAME, Imported, ImportReport, Skipped
from execstate.construct._select import SELECT_NAME, Selection, select_cases

__all__ = [
    "PROBLEM_FILE",
    "REPORT_NAME",
    "SELECT_NAME",
    "ConstructOptions",
    "ConstructResult",
    "Generator",
    "ImportReport",
    "Imported",
    "NewTest",
    "Outcome",
    "PoolTest",
    "Problem",
    "ProblemLimits",
    "Selection",
    "Skipped",
    "construct",
    "construct_problem",
    "environment_suggestion",
    "import_codecontests",
    "import_folders",
    "import_livecodebench",
    "read_pool",
    "read_problem",
    "select_cases",
    "slug",
    "unpickle_plain",
    "write_problem",
]
