"""C++ as a builder language: one module per job, the adapter in ``language.py``.

``syntax`` (tree-sitter parse, loops, scopes; resolving the checkpoint), ``instrument``
(the inserted lines of each mode), ``protocol`` (``execstate_emit.hpp`` and the markers it
writes), ``diagnostics`` (g++'s refusals), ``candidates`` (what construct may project),
``options`` (the compiler and flags a build uses) and ``language`` (``CppLanguage``, the
registry's ``cpp`` adapter). Nothing is imported here: the registry loads the adapter on
first use, so a build without C++ cases never loads the C++ parser.
"""
