"""Install a declared environment once into a content-addressed cache; return its folder and what it holds.

Cache (``cache_root``: ``$EXECSTATE_CACHE/environments``, else
``$XDG_CACHE_HOME/execstate/environments``, else ``~/.cache/execstate/environments``)::

    <key>/site/               what ``pip install --target`` put there (the folder programs import from)
    <key>/environment.json    the request, the interpreter, and the resolved ``name==version`` list
    <key>.lock                held while one process installs ``<key>``
    .tmp-<key>-*/             installs in progress

``key`` is the SHA-256 of the sorted requirements, the interpreter's version
(x.y.z), implementation tag and platform. An entry is written into a
temporary folder and renamed into place whole, so a folder under its key is
always complete; an exclusive ``flock`` on ``<key>.lock`` makes a second
process (or thread) wait for the first install and then reuse it. Deleting
the cache at any time between builds is safe.

pip runs with the target interpreter (``python -m pip``), resolves
dependencies (a dependency left out of the declaration is installed and
recorded, not missed at import) and takes wheels only (``--only-binary
:all:``): no package's build code runs on this machine. The resolved list is
read from the installed ``*.dist-info`` folders, not from the request.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path
from typing import Any

from execstate.environments._declaration import EnvironmentSpec, canonical_name
from execstate.errors import ExecstateError, remove_tree
from execstate.sandbox import parent_death_prefix

VERSION_KEY = "python"
"""The key under which records and the cache key give the interpreter's x.y.z (one spelling)."""
CACHE_FORMAT = 1
"""Bumped whenever the layout or meaning of a cache entry changes (old entries are then never read)."""
ENTRY_FILE = "environment.json"
SITE = "site"
PIP_TIMEOUT_S = 1800.0
_PROBE = (
    "import sys, sysconfig; "
    "print('%d.%d.%d' % sys.version_info[:3], sys.implementation.cache_tag, sysconfig.get_platform())"
)


class EnvironmentUnavailable(ExecstateError, RuntimeError):
    """A declared environment could not be installed (pip failed, no wheel, no network); the message has pip's words."""


@dataclass(frozen=True)
class Interpreter:
    """What an environment is installed for."""

    path: str
    version: str
    """x.y.z"""
    tag: str
    """``sys.implementation.cache_tag`` (``cpython-311``)."""
    platform: str
    """``sysconfig.get_platform()`` (``linux-x86_64``)."""


@dataclass(frozen=True)
class Environment:
    """A prepared environment: the folder programs import from and exactly what it holds."""

    spec: EnvironmentSpec
    site: Path | None
    """The installed packages' folder (mounted read-only, put on ``sys.path``); None when no package is declared."""
    packages: tuple[str, ...]
    """Every installed distribution as ``name==version`` (canonical names, sorted), dependencies included."""
    python: str | None
    """x.y.z of the interpreter the packages were installed for; None when no package is declared."""
    include_digests: tuple[str, ...] = ()
    """SHA-256 of each include directory's files (names and bytes), in ``spec.include`` order."""

    def record(self) -> dict[str, Any]:
        """What tasks' ``meta["environment"]`` and the build manifest record (JSON-ready, no host paths)."""
        out: dict[str, Any] = {}
        if self.spec.preset is not None:
            out["preset"] = self.spec.preset
        if self.packages:
            out[VERSION_KEY] = self.python
            out["packages"] = list(self.packages)
        if self.spec.include:
            out["include"] = [{"path": p, "sha256": d} for p, d in zip(self.spec.include, self.include_digests)]
        return out


def cache_root() -> Path:
    """Where environments are cached (see the module docstring)."""
    if os.environ.get("EXECSTATE_CACHE"):
        return Path(os.environ["EXECSTATE_CACHE"]) / "environments"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "execstate" / "environments"


@functools.cache
def interpreter(python: str) -> Interpreter:
    """Version, implementation tag and platform of ``python``; ``EnvironmentUnavailable`` when it cannot run."""
    try:
        done = subprocess.run([python, "-I", "-c", _PROBE], capture_output=True, text=True, timeout=60)
    except OSError as exc:
        raise EnvironmentUnavailable(
            f"cannot run the interpreter {python} ({exc}). Fix: pass an existing python"
        ) from None
    parts = done.stdout.split()
    if done.returncode != 0 or len(parts) != 3:
        raise EnvironmentUnavailable(f"{python} did not report its version. Fix: pass a CPython 3.11+ interpreter")
    return Interpreter(python, *parts)


def cache_key(requirements: tuple[str, ...], target: Interpreter) -> str:
    """The content address of ``requirements`` installed for ``target`` (24 hex digits)."""
    meta = {
        "format": CACHE_FORMAT,
        "packages": sorted(requirements),
        VERSION_KEY: target.version,
        "tag": target.tag,
        "platform": target.platform,
    }
    return hashlib.sha256(json.dumps(meta, sort_keys=True).encode("utf-8")).hexdigest()[:24]


def prepare(spec: EnvironmentSpec, python: str, *, cache_dir: Path | str | None = None) -> Environment:
    """The environment ``spec`` asks for, installed for ``python`` (once per key; thread- and process-safe).

    Without packages nothing is installed (``site`` None). ``EnvironmentUnavailable``
    when pip fails; the message quotes pip and ends in a fix.
    """
    digests = tuple(tree_digest(d) for d in spec.include_dirs)
    if not spec.requirements:
        return Environment(spec, None, (), None, digests)
    target = interpreter(python)
    root = Path(cache_dir) if cache_dir is not None else cache_root()
    key = cache_key(spec.requirements, target)
    entry = root / key
    found = _read_entry(entry)
    if found is None:
        root.mkdir(parents=True, exist_ok=True)
        with _locked(root / f"{key}.lock"):
            found = _read_entry(entry) or _install(spec.requirements, target, root, key)
    return Environment(spec, entry / SITE, found, target.version, digests)


def _read_entry(entry: Path) -> tuple[str, ...] | None:
    try:
        data = json.loads((entry / ENTRY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return tuple(data["packages"]) if data.get("format") == CACHE_FORMAT and (entry / SITE).is_dir() else None


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with open(path, "a+b") as fh:  # a fresh open file description per caller: threads exclude each other too
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _install(requirements: tuple[str, ...], target: Interpreter, root: Path, key: str) -> tuple[str, ...]:
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{key}-", dir=root))
    try:
        site = tmp / SITE
        done = run_pip(target.path, [*_PIP_OPTIONS, "--target", str(site), *requirements])
        if done.returncode != 0:
            tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-4:])
            raise EnvironmentUnavailable(
                f"pip could not install {', '.join(requirements)} for Python {target.version}: {tail}. Fix: pin "
                "versions that have wheels for this interpreter on PyPI (pip download --only-binary=:all: NAME==V)"
            )
        packages = installed(site)
        record = {"format": CACHE_FORMAT, "requested": list(requirements), VERSION_KEY: target.version}
        record |= {"tag": target.tag, "platform": target.platform, "packages": list(packages)}
        (tmp / ENTRY_FILE).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        os.chmod(tmp, 0o755)
        os.rename(tmp, root / key)
        return packages
    finally:
        remove_tree(tmp)


_PIP_OPTIONS = ("install", "--only-binary", ":all:", "--no-input", "--disable-pip-version-check", "--quiet")


def run_pip(python: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    """``python -m pip ARGS`` (the one place pip is started; tests replace it to count installs)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    try:
        return subprocess.run(
            [*parent_death_prefix(), python, "-m", "pip", *args],
            capture_output=True,
            text=True,
            timeout=PIP_TIMEOUT_S,
            env=env,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise EnvironmentUnavailable(f"pip did not finish ({exc}). Fix: check the network and retry") from None


def installed(site: Path) -> tuple[str, ...]:
    """``name==version`` of every distribution installed in ``site`` (from its ``*.dist-info/METADATA``), sorted."""
    found = set()
    for meta in site.glob("*.dist-info/METADATA"):
        headers = HeaderParser().parsestr(meta.read_text(encoding="utf-8", errors="replace"))
        if headers.get("Name") and headers.get("Version"):
            found.add(f"{canonical_name(headers['Name'])}=={headers['Version']}")
    return tuple(sorted(found))


def tree_digest(folder: Path) -> str:
    """SHA-256 over the relative path and bytes of every file under ``folder``, in sorted order."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        h.update(f"{path.relative_to(folder).as_posix()}\0{len(data)}\0".encode() + data)
    return h.hexdigest()
