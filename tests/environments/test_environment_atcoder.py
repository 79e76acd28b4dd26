"""The full ``atcoder`` preset, installed by the real pip (about 320 MB, 1-2 minutes): it resolves to exactly
its pins, and a program importing every package of it runs in the sandbox."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from execstate.environments import ATCODER, parse_environment, prepare
from execstate.sandbox import Limits, run_python

PROGRAM = """\
import bitarray
import more_itertools
import networkx
import numpy
import scipy.sparse.csgraph
import sympy
from atcoder.dsu import DSU
from sortedcontainers import SortedList

d = DSU(4)
d.merge(0, 1)
print(d.same(0, 1), d.same(1, 2), SortedList([3, 1]).bisect_left(2), int(numpy.arange(5).sum()), sympy.isprime(97))
print(list(more_itertools.chunked([1, 2, 3], 2)), bitarray.bitarray("101").count(), networkx.path_graph(3).size())
print(scipy.sparse.csgraph.shortest_path(numpy.array([[0, 1], [1, 0]]))[0][1])
"""


@pytest.mark.network
def test_the_atcoder_preset_installs_exactly_its_pins_and_every_package_imports(env_cache, tmp_path):
    env = prepare(parse_environment("atcoder"), sys.executable, cache_dir=Path(env_cache) / "environments")
    assert env.packages == ATCODER  # the preset pins every dependency: nothing unpinned slipped in
    program = tmp_path / "main.py"
    program.write_text(PROGRAM)
    res = run_python(program, b"", Limits(wall_s=120, cpu_s=120), library=env.site)
    assert res.ok, res.describe()
    assert res.stdout == b"True False 1 10 True\n[[1, 2], [3]] 2 2\n1.0\n"
