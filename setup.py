"""Build hook for the optional C accelerators (everything else is in pyproject.toml).

- ``execstate.metrics._ccount``: the metrics probe's event counter and state walker;
- ``execstate.analyze._cperm``: the permutation test's shuffles and rank sums.

``optional=True``: without a compiler the install still succeeds and each falls
back to pure Python/numpy, which computes the same numbers, slower.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("execstate.metrics._ccount", ["src/execstate/metrics/_ccount.c"], optional=True),
        Extension("execstate.analyze._cperm", ["src/execstate/analyze/_cperm.c"], optional=True),
    ]
)
