"""The classic generators keep their published inputs and honour EXECSTATE_SEED (``execstate build --fresh``).

Each case's ``gen.py`` runs alone in an empty temporary directory, as in the builder's sandbox, for
``short`` and ``long``. Without EXECSTATE_SEED (or with it empty) its output must hash to the value in
``golden/classic_generators.sha256.json``: the published benchmark inputs. With EXECSTATE_SEED=7 and =8
it must print inputs that differ from the published one and from each other, and ``main.py`` must exit 0
on each. The case folders are found next to this file (``src/execstate/studies/classic``), so the test
checks the checkout it lives in whichever ``execstate`` is installed.

Regenerate the golden file (only when a published input is meant to change; say so in the commit)::

    python tests/studies/test_classic_fresh_generators.py --regenerate
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

CASES_DIR = Path(__file__).resolve().parents[2] / "src" / "execstate" / "studies" / "classic"
GOLDEN = Path(__file__).with_name("golden") / "classic_generators.sha256.json"
NAMES = sorted(path.parent.name for path in CASES_DIR.glob("*/case.toml"))
WHICH = ("short", "long")
FRESH_SEEDS = ("7", "8")
SEEDS = (None, "", *FRESH_SEEDS)


def run_generator(name: str, which: str, seed: str | None) -> bytes:
    """What case ``name``'s gen.py prints for ``which``, run alone in an empty directory (seed None: unset)."""
    env = {key: value for key, value in os.environ.items() if key != "EXECSTATE_SEED"}
    if seed is not None:
        env["EXECSTATE_SEED"] = seed
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(CASES_DIR / name / "gen.py", tmp)
        done = subprocess.run(
            [sys.executable, "gen.py", which], cwd=tmp, env=env, capture_output=True, timeout=60, check=False
        )
    assert done.returncode == 0, (
        f"{name} gen.py {which} (seed {seed}) exited {done.returncode}: {done.stderr[-1500:]!r}"
    )
    return done.stdout


def run_program(name: str, stdin: bytes) -> int:
    """main.py's exit status on ``stdin``."""
    done = subprocess.run(
        [sys.executable, "main.py"], cwd=CASES_DIR / name, input=stdin, capture_output=True, timeout=60, check=False
    )
    if done.returncode:
        print(f"{name} main.py exited {done.returncode}: {done.stderr[-1500:]!r}", file=sys.stderr)
    return done.returncode


@cache
def outputs() -> dict[tuple[str, str, str | None], bytes]:
    """Every generator run the tests need, (name, which, seed) -> stdout; run concurrently to stay fast."""
    keys = [(name, which, seed) for name in NAMES for which in WHICH for seed in SEEDS]
    with ThreadPoolExecutor(max_workers=2 * (os.cpu_count() or 1)) as pool:
        return dict(zip(keys, pool.map(lambda key: run_generator(*key), keys)))


@cache
def fresh_exit_codes() -> dict[tuple[str, str, str], int]:
    """main.py's exit status on every fresh input, (name, which, seed) -> code."""
    keys = [(name, which, seed) for name in NAMES for which in WHICH for seed in FRESH_SEEDS]
    with ThreadPoolExecutor(max_workers=2 * (os.cpu_count() or 1)) as pool:
        return dict(zip(keys, pool.map(lambda key: run_program(key[0], outputs()[key]), keys)))


def generate(name: str, which: str, seed: str | None) -> bytes:
    return outputs()[(name, which, seed)]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_golden_names_every_case() -> None:
    assert len(NAMES) == 30
    assert sorted(json.loads(GOLDEN.read_text())) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_published_inputs_unchanged(name: str) -> None:
    golden = json.loads(GOLDEN.read_text())[name]
    for which in WHICH:
        assert sha256(generate(name, which, None)) == golden[which], f"{name} {which}: the published input changed"
        assert generate(name, which, "") == generate(name, which, None), "an empty EXECSTATE_SEED means unset"


@pytest.mark.parametrize("name", NAMES)
def test_fresh_inputs_differ_and_run(name: str) -> None:
    for which in WHICH:
        published = generate(name, which, None)
        fresh = [generate(name, which, seed) for seed in FRESH_SEEDS]
        assert published not in fresh, f"{name} {which}: a fresh input equals the published one"
        assert len(set(fresh)) == len(fresh), f"{name} {which}: seeds {FRESH_SEEDS} give the same input"
        for seed in FRESH_SEEDS:
            code = fresh_exit_codes()[(name, which, seed)]
            assert code == 0, (
                f"{name} {which} seed {seed}: main.py exited {code} (its stderr is in the captured output)"
            )
    assert generate(name, "short", FRESH_SEEDS[0]) != generate(name, "long", FRESH_SEEDS[0])


def regenerate() -> None:
    digests = {name: {which: sha256(run_generator(name, which, None)) for which in WHICH} for name in NAMES}
    GOLDEN.write_text(json.dumps(digests, indent=2, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN} ({len(digests)} cases)")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        raise SystemExit(__doc__)
    regenerate()
