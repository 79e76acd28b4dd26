"""execstate.analyze stage."""
