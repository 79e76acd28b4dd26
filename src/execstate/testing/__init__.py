"""Test doubles shipped for users' own tests and benchmarks; no pipeline stage imports this package.

- :mod:`execstate.testing.loopback`: a scripted OpenAI-compatible chat server on
  127.0.0.1 (``python -m execstate.testing.loopback --latency 0.2`` serves
  fixed-latency completions and prints its port).
- :mod:`execstate.testing.synthetic`: synthetic tasks and grades drawn from a
  known error model, shaped like the paper's corpus. Nothing there is a
  model's result.
- :mod:`execstate.testing.fresh`: the fresh twin of a published task, made
  by hand in the record contract the builder follows.
- :mod:`execstate.testing.plugins`: a plug-in package's ``.dist-info`` (entry points) for tests of
  the registries.
- :mod:`execstate.testing.pools`: a pool cut to each problem's smallest tests
  (what an archive with samples only looks like).
"""

from execstate.testing.files import tree_bytes
from execstate.testing.fresh import fresh_copy
from execstate.testing.loopback import Drop, Hold, Reply, Request, Script, ScriptedServer, completion
from execstate.testing.plugins import plugin_dist
from execstate.testing.pools import samples_only_pool
from execstate.testing.synthetic import SETTINGS, STUDIES, synthetic_grades, synthetic_tasks

__all__ = [
    "SETTINGS",
    "STUDIES",
    "Drop",
    "Hold",
    "Reply",
    "Request",
    "Script",
    "ScriptedServer",
    "completion",
    "fresh_copy",
    "plugin_dist",
    "samples_only_pool",
    "synthetic_grades",
    "synthetic_tasks",
    "tree_bytes",
]
