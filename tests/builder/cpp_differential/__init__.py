"""Helpers for the C++ instrumentation tests: the compiler, the sandboxed runner, a program generator."""
