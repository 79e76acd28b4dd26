"""execstate.studies stage."""
