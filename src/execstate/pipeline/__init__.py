"""The whole pipeline as one call."""
