"""execstate.run stage."""
