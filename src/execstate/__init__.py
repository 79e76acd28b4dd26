"""execstate: execution-checked tasks for predicting program output and checkpoint state."""

__version__ = "0.1.0"
