"""Build hook for the optional C accelerator of the metrics probe (everything else is in pyproject.toml).

``optional=True``: without a compiler the install still succeeds and the probe
falls back to pure Python, which counts the same events.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("execstate.metrics._ccount", ["src/execstate/metrics/_ccount.c"], optional=True)])
