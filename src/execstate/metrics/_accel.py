"""Build the optional C accelerator (_ccount.c) for a measuring interpreter other than the installed one.

``pip install -e .`` builds ``_ccount`` for the interpreter it installs into. A
measurement may use any CPython 3.11+ (``--python``); for those the extension is
compiled once with gcc into a per-user cache. Without gcc or headers nothing is
built and the probe counts in pure Python (the same numbers, slower).
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCE = Path(__file__).with_name("_ccount.c")
_QUERY = "import sysconfig; print(sysconfig.get_paths()['include']); print(sysconfig.get_config_var('EXT_SUFFIX'))"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "execstate" / "ccount"


@functools.cache
def accelerator_dir(interpreter: str) -> str | None:
    """A directory holding ``_ccount<EXT_SUFFIX>`` for ``interpreter``, building it if needed; None if impossible."""
    try:
        include, suffix = subprocess.run(
            [interpreter, "-c", _QUERY], capture_output=True, text=True, timeout=60, check=True
        ).stdout.split()
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if (SOURCE.parent / f"_ccount{suffix}").exists():
        return str(SOURCE.parent)
    version = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]  # a changed _ccount.c is rebuilt
    target = cache_dir() / version / f"_ccount{suffix}"
    if not target.exists() and not _compile(include, target):
        return None
    return str(target.parent)


def _compile(include: str, target: Path) -> bool:
    """gcc the extension into ``target`` atomically; False when no compiler or headers."""
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None or not (Path(include) / "Python.h").exists():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        built = Path(tmp) / target.name
        cmd = [compiler, "-shared", "-fPIC", "-O2", f"-I{include}", str(SOURCE), "-o", str(built)]
        if subprocess.run(cmd, capture_output=True, timeout=300).returncode != 0:
            return False
        os.replace(built, target)
    return True
