"""execstate.environments: third-party packages and include directories that a case's programs may use.

A case spec, a problem (``problem.toml``) or a pool declares an environment
(``environment = "atcoder"`` or ``[environment] packages = [...]``,
``include = [...]``); ``parse_environment`` checks the declaration,
``prepare`` installs its packages once into a content-addressed cache, and the
sandbox mounts that folder read-only on the program's ``sys.path``. Without a
declaration programs see the standard library only. ``undeclared_import``
turns a run's ``ModuleNotFoundError`` into a reason that names the module and
the declaration that would provide it.

It sits beside ``metrics``, above the sandbox and below the builder.
"""

from execstate.environments._declaration import (
    EnvironmentProblem,
    EnvironmentSpec,
    canonical_name,
    parse_environment,
)
from execstate.environments._imports import (
    HEADER_MARKER,
    UNDECLARED_MARKER,
    declaration_fix,
    missing_header,
    missing_module,
    undeclared_import,
)
from execstate.environments._install import (
    Environment,
    EnvironmentUnavailable,
    Interpreter,
    cache_key,
    cache_root,
    installed,
    interpreter,
    prepare,
    tree_digest,
)
from execstate.environments._presets import ATCODER, MODULE_PACKAGES, PRESETS

__all__ = [
    "ATCODER",
    "HEADER_MARKER",
    "MODULE_PACKAGES",
    "PRESETS",
    "UNDECLARED_MARKER",
    "Environment",
    "EnvironmentProblem",
    "EnvironmentSpec",
    "EnvironmentUnavailable",
    "Interpreter",
    "cache_key",
    "cache_root",
    "canonical_name",
    "declaration_fix",
    "installed",
    "interpreter",
    "missing_header",
    "missing_module",
    "parse_environment",
    "prepare",
    "tree_digest",
    "undeclared_import",
]
