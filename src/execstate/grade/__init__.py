"""execstate.grade stage."""
