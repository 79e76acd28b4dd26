"""execstate.construct stage: problem pools, importers into them, and automatic case construction (SPEC 5).

A problem pool is one directory per problem: ``main.py`` or ``main.cpp``,
``tests/NAME.in`` with optional ``tests/NAME.out``, an optional seeded
generator and an optional ``problem.toml``. Importers turn published datasets
into pools; the constructor turns a pool into case specs that ``execstate
build`` then admits or excludes by the nine checks.

It sits above ``grade`` (a program is checked against its own tests with the
study's grading rule) and below ``analyze``.
"""
