"""execstate.metrics: trace length, peak state, state load (measured in a child) and cyclomatic complexity."""

from execstate.metrics._cyclomatic import cyclomatic
from execstate.metrics._measure import Measurement, measure, python_version
from execstate.metrics._report import metrics_report

__all__ = ["Measurement", "cyclomatic", "measure", "metrics_report", "python_version"]
