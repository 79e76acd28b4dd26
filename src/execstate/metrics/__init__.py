"""execstate.metrics stage."""
