"""Every classic_cpp program prints what its classic twin prints, checked without the builder (issue 56).

Each C++ twin (``src/execstate/studies/classic_cpp/<case>/main.cpp``) is compiled here with plain
``g++ -O2 -std=c++17`` and run as a binary; its Python twin (``classic/<case>/main.py``) runs with the
interpreter running the tests. Both read the same inputs, printed by the classic case's ``gen.py``: the
published short and long inputs and the fresh ones of EXECSTATE_SEED=1, 2 and 3. Their standard outputs
must be byte-identical and both must exit 0. Nothing here goes through execstate: the proof the builder
makes (states as well as outputs) is ``tests/builder/test_twins.py``'s; this test is the independent one.

The folders are found next to this file, so the test checks the checkout it lives in. The compiles run
in parallel in a module fixture, each binary once, in a temporary directory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

STUDIES = Path(__file__).resolve().parents[2] / "src" / "execstate" / "studies"
CPP_DIR = STUDIES / "classic_cpp"
PY_DIR = STUDIES / "classic"
NAMES = sorted(path.parent.name for path in CPP_DIR.glob("*/case.toml"))
SEEDS = (None, "1", "2", "3")
"""None: the published inputs (EXECSTATE_SEED unset); the others draw fresh inputs."""
WHICH = ("short", "long")
CXX = shutil.which("g++")

pytestmark = pytest.mark.skipif(CXX is None, reason="g++ is not installed (the C++ studies need it)")


def _run(args: list[str], stdin: bytes, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, input=stdin, cwd=cwd, env=env, capture_output=True, timeout=120, check=False)


def _generate(name: str, which: str, seed: str | None) -> bytes:
    """The input classic/<name>/gen.py prints for ``which`` (seed None: EXECSTATE_SEED unset)."""
    env = {key: value for key, value in os.environ.items() if key != "EXECSTATE_SEED"}
    if seed is not None:
        env["EXECSTATE_SEED"] = seed
    done = _run([sys.executable, "gen.py", which], b"", PY_DIR / name, env)
    assert done.returncode == 0, f"classic/{name}/gen.py {which} (seed {seed}): {done.stderr[-1500:]!r}"
    return done.stdout


@pytest.fixture(scope="module")
def binaries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path | str]:
    """Case name -> its compiled binary, or the compiler's error text."""
    out = tmp_path_factory.mktemp("classic_cpp_bin")
    assert CXX is not None

    def compile_one(name: str) -> tuple[str, Path | str]:
        binary = out / name
        done = _run([CXX, "-O2", "-std=c++17", "-o", str(binary), str(CPP_DIR / name / "main.cpp")], b"", out)
        return name, binary if done.returncode == 0 else done.stderr.decode(errors="replace")[-3000:]

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        return dict(pool.map(compile_one, NAMES))


def test_every_classic_case_has_a_cpp_twin_and_a_twins_entry():
    classic = sorted(path.parent.name for path in PY_DIR.glob("*/case.toml"))
    assert classic == NAMES
    twins = tomllib.loads((CPP_DIR / "twins.toml").read_text(encoding="utf-8"))
    assert sorted(twins) == NAMES
    for name in NAMES:
        cpp = tomllib.loads((CPP_DIR / name / "case.toml").read_text(encoding="utf-8"))
        py = tomllib.loads((PY_DIR / name / "case.toml").read_text(encoding="utf-8"))
        assert twins[name]["twin_of"] == py["id"] == f"classic/{name}"
        assert cpp["id"] == f"classic_cpp/{name}"
        mapping = twins[name]["variables"]
        # every projected variable is mapped, in the projection's order, onto the twin's projection
        assert list(mapping) == cpp["checkpoint"]["variables"]
        assert list(mapping.values()) == py["checkpoint"]["variables"]
        for key in ("short_input", "long_input"):  # the twin's own generator, named, not copied
            assert cpp[key]["generator"] == f"../../classic/{name}/gen.py"
            assert cpp[key]["args"] == py[key]["args"]
        assert cpp["checkpoint"].get("inside_iteration") == py["checkpoint"].get("inside_iteration")


@pytest.mark.parametrize("name", NAMES)
def test_the_cpp_twin_prints_what_the_python_program_prints(name: str, binaries: dict[str, Path | str]):
    binary = binaries[name]
    assert isinstance(binary, Path), f"classic_cpp/{name}/main.cpp does not compile:\n{binary}"
    for seed in SEEDS:
        for which in WHICH:
            stdin = _generate(name, which, seed)
            py = _run([sys.executable, "main.py"], stdin, PY_DIR / name)
            cpp = _run([str(binary)], stdin, binary.parent)
            where = f"{name}, {which} input, " + (f"EXECSTATE_SEED={seed}" if seed else "published")
            assert py.returncode == 0, f"{where}: main.py exited {py.returncode}: {py.stderr[-1500:]!r}"
            assert cpp.returncode == 0, f"{where}: the C++ twin exited {cpp.returncode}: {cpp.stderr[-1500:]!r}"
            assert py.stdout, f"{where}: main.py printed nothing"
            assert cpp.stdout == py.stdout, f"{where}: outputs differ:\n{py.stdout[:800]!r}\n{cpp.stdout[:800]!r}"
