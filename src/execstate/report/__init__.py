"""execstate.report stage."""
