"""The environment a sandboxed program starts with: nothing of the caller's, a fixed hash seed."""

from __future__ import annotations

from pathlib import Path


def scrubbed_env(hash_seed: int = 0, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment: nothing inherited from the parent but a safe PATH."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": str(hash_seed),
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUTF8": "1",
    }
    env.update(extra or {})
    return env


def library_env(library: Path) -> dict[str, str]:
    """Environment variables of a run that imports from the package folder ``library``.

    ``PYTHONPATH`` puts it on ``sys.path`` (after the program's own folder); numeric libraries
    (OpenBLAS, OpenMP) use one thread, so their results do not depend on the machine's cores
    and their threads' buffers do not eat the address-space limit.
    """
    return {"PYTHONPATH": str(library), "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
