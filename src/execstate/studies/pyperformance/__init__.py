"""The pyperformance study: CPython's benchmark programs made stdin programs (``make_pool.py``).

``pool/`` is written by ``python -m execstate.studies.pyperformance.make_pool`` from the installed
pyperformance package (MIT, ``pool/LICENSE``) and the recipes in ``recipes/``; ``specs/`` by
``execstate construct`` from that pool. See ``docs/pyperformance.md``.
"""
