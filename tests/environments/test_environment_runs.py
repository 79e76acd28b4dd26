"""A declared environment in use: runs see it read-only, builds admit with its versions recorded, an undeclared
import is excluded with its fix, and foreign code stays out of the metrics (SPEC 6)."""

from __future__ import annotations

import json
from pathlib import Path

from execstate.builder import BuildOptions, SpecDraft, build, spec_toml, write_build
from execstate.construct import ConstructOptions, construct, read_pool
from execstate.metrics import measure
from execstate.sandbox import Limits, run_python

OPTS = BuildOptions(limits=Limits(wall_s=20, cpu_s=20, memory_mb=2048))

SORTED_PROGRAM = """\
import sys
from sortedcontainers import SortedList

n = int(sys.stdin.readline())
window = SortedList()
total = 0
for i in range(n):
    window.add((i * 7919) % 101)
    total += window[len(window) // 2]
print(total)
"""


def _case(folder: Path, name: str, environment: str = "") -> Path:
    case = folder / name
    case.mkdir(parents=True)
    (case / "main.py").write_text(SORTED_PROGRAM)
    (case / "short.txt").write_text("3\n")
    (case / "long.txt").write_text("60\n")
    (case / "case.toml").write_text(
        f'id = "env/{name}"\nstudy = "env"\nlanguage = "python"\nprogram = "main.py"\n'
        'short_input = "short.txt"\nlong_input = "long.txt"\n'
        '\n[checkpoint]\nloop_text = "for i in range(n):"\nvariables = ["total", "i"]\n' + environment
    )
    return case


def _run(source: str, library: Path | None, tmp_path: Path, stdin: bytes = b""):
    program = tmp_path / "prog.py"
    program.write_text(source)
    return run_python(program, stdin, Limits(wall_s=30, cpu_s=30), library=library)


def test_a_declared_package_imports_and_an_undeclared_one_does_not(small_env, tmp_path):
    source = "import numpy, sortedcontainers\nprint(numpy.__version__, sortedcontainers.__version__)\n"
    seen = _run(source, small_env.site, tmp_path)
    assert seen.ok, seen.describe()
    assert seen.stdout == b"2.2.6 2.4.0\n"
    # without a declaration the program sees the standard library only, though the host has these packages
    bare = _run(source, None, tmp_path)
    assert bare.status == "crash" and b"ModuleNotFoundError: No module named 'numpy'" in bare.stderr


def test_the_environment_is_read_only_inside_the_sandbox(small_env, tmp_path):
    assert small_env.site is not None
    target = small_env.site / "sortedcontainers" / "__init__.py"
    before = target.read_bytes()
    source = (
        "import sys\n"
        "folder = [p for p in sys.path if p.endswith('/site')][0]\n"
        "for attempt in (lambda: open(folder + '/planted.py', 'w'),\n"
        "                lambda: open(folder + '/sortedcontainers/__init__.py', 'a')):\n"
        "    try:\n"
        "        attempt().write('x = 1\\n')\n"
        "        print('wrote')\n"
        "    except OSError as exc:\n"
        "        print(type(exc).__name__, exc.errno)\n"
    )
    res = _run(source, small_env.site, tmp_path)
    assert res.ok, res.describe()
    assert b"wrote" not in res.stdout
    assert res.stdout.count(b"OSError 30") == 2  # EROFS: a read-only mount
    assert target.read_bytes() == before and not (small_env.site / "planted.py").exists()


def test_build_admits_a_declared_import_and_records_the_versions(small_env, tmp_path):
    _case(tmp_path / "specs", "declared", '\n[environment]\npackages = ["sortedcontainers==2.4.0", "numpy==2.2.6"]\n')
    _case(tmp_path / "specs", "undeclared")
    result = build([tmp_path / "specs"], jobs=2, options=OPTS)
    assert [e.case_id for e in result.exclusions] == ["env/undeclared"]
    assert {t.case_id for t in result.tasks} == {"env/declared"} and len(result.tasks) == 4
    record = {"python": small_env.python, "packages": ["numpy==2.2.6", "sortedcontainers==2.4.0"]}
    assert all(t.meta["environment"] == record for t in result.tasks)
    assert result.manifest.environments == [record]
    write_build(result, tmp_path / "out")
    assert json.loads((tmp_path / "out" / "manifest.json").read_text())["environments"] == [record]
    excluded = result.exclusions[0]
    assert excluded.check == "run"
    assert "imports the undeclared module 'sortedcontainers'" in excluded.reason
    assert 'Fix: add environment = "atcoder" or [environment] packages = ["sortedcontainers==2.4.0"]' in excluded.reason


# SPEC 6: trace_length counts instruction events in code objects owned by the program; a value's size is 0 for
# "anything else (iterators, ranges, files, generators, foreign objects)". So a program that calls numpy and its
# twin that calls a pure-Python stand-in (a module of the environment, so foreign too) have equal metrics, and
# neither depends on how much work the foreign call does.
TWIN = """\
import sys
import {module} as lib

n = int(sys.stdin.readline())
data = lib.arange(n)
total = lib.sum(data)
for step in range(3):
    n = n + 1
print(int(total))
"""

STAND_IN = """\
class Array:
    def __init__(self, values):
        self.values = values


class Scalar:
    def __init__(self, value):
        self.value = value

    def __int__(self):
        return self.value


def arange(n):
    return Array(list(range(n)))


def sum(array):
    total = 0
    for value in array.values:
        total += value
    return Scalar(total)
"""


def test_foreign_code_and_objects_count_as_spec_6_says(small_env, tmp_path):
    assert small_env.site is not None
    stand_in = tmp_path / "stand-in"
    stand_in.mkdir()
    (stand_in / "purenumpy.py").write_text(STAND_IN)
    found = {}
    for module, library in (("numpy", small_env.site), ("purenumpy", stand_in)):
        for n in (10, 5000):
            m = measure(TWIN.format(module=module), f"{n}\n".encode(), library=library, timeout_s=60)
            assert m.ok, m.detail
            assert m.stdout == f"{n * (n - 1) // 2}\n".encode()
            found[module, n] = (m.trace_length, m.peak_state, m.state_load)
    # the owned code is the same bytecode: equal trace lengths, whatever the foreign call does inside
    assert found["numpy", 10] == found["purenumpy", 10]
    assert found["numpy", 5000] == found["purenumpy", 5000]
    assert found["numpy", 10] == found["numpy", 5000]
    # state: only n and step count; data and total (foreign objects: ndarray/int64, Array/Scalar) count 0
    assert found["numpy", 10][1] == 2
    as_list = TWIN.format(module="purenumpy").replace("data = lib.arange(n)", "data = list(range(n))")
    own = measure(as_list.replace("lib.sum(data)", "sum(data)"), b"10\n", library=stand_in)
    assert own.ok and own.peak_state is not None and own.peak_state > 10  # an owned list counts its elements


def test_construct_suggests_the_preset_and_builds_with_a_pool_environment(small_env, small_spec, tmp_path):
    pool = tmp_path / "pool"
    for name in ("p1", "p2"):
        (pool / name / "tests").mkdir(parents=True)
        (pool / name / "main.py").write_text(SORTED_PROGRAM)
        (pool / name / "tests" / "1.in").write_text("3\n")
        (pool / name / "tests" / "2.in").write_text("80\n")
    (pool / "p2" / "hdr").mkdir()
    (pool / "p2" / "hdr" / "notes.h").write_text("// copied with the spec\n")
    (pool / "p2" / "problem.toml").write_text('[environment]\ninclude = ["hdr"]\n')
    problems = read_pool(pool)
    bare = construct(problems[:1], tmp_path / "bare", ConstructOptions(build=OPTS), jobs=1)
    assert [o.check for o in bare.outcomes] == ["tests"]
    assert "imports the undeclared module 'sortedcontainers'" in (bare.outcomes[0].reason or "")
    summary = json.loads((tmp_path / "bare" / "construct.json").read_text())
    assert "construct --environment atcoder" in summary["suggestion"]
    # p2's own problem.toml (an include folder) wins over the pool's packages: it fails like p1 ...
    declared_own = construct(problems[1:], tmp_path / "own", ConstructOptions(build=OPTS, environment=small_spec))
    assert "'sortedcontainers'" in (declared_own.outcomes[0].reason or "")
    # ... and with the packages added to it, its spec is written with the declaration and the copied folder
    declared = small_spec.declaration()
    assert isinstance(declared, dict)
    declared["include"] = ["hdr"]
    (pool / "p2" / "problem.toml").write_text(spec_toml(SpecDraft(environment=declared)))
    problems = read_pool(pool)
    made = construct(problems[1:], tmp_path / "made", ConstructOptions(build=OPTS), jobs=1)
    assert made.outcomes[0].spec_dir is not None, made.outcomes[0].reason
    spec_text = (made.outcomes[0].spec_dir / "case.toml").read_text()
    assert '[environment]\npackages = ["sortedcontainers==2.4.0", "numpy==2.2.6"]\ninclude = ["hdr"]' in spec_text
    assert (made.outcomes[0].spec_dir / "hdr" / "notes.h").read_text() == "// copied with the spec\n"
    assert "suggestion" not in json.loads((tmp_path / "made" / "construct.json").read_text())
    built = build([made.outcomes[0].spec_dir], options=OPTS)
    assert len(built.tasks) == 4 and built.tasks[0].meta["environment"]["packages"] == list(small_env.packages)
    assert built.tasks[0].meta["environment"]["include"][0]["path"] == "hdr"
