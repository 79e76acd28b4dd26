"""Compile C++ programs once per (source, flags, compiler) into a content-addressed cache; run a fresh copy.

The compiler runs inside ``execstate.sandbox`` like the program it compiles:
a source is untrusted, and ``#include "/home/..."`` or ``#include "/dev/zero"``
must neither read the caller's files nor hang the build. It sees the system
directories, the precompiled header's directory and the include directories,
and writes only its fresh working directory, which then moves into the cache
in one ``rename``.

Cache (``Compiler.cache_dir``; default ``$EXECSTATE_CPP_CACHE``, else
``$XDG_CACHE_HOME/execstate/cpp``, else ``~/.cache/execstate/cpp``)::

    bin/<key[:2]>/<key>/   main.cpp, prog, prog-main.gcno (coverage builds), meta.json
    fail/<key[:2]>/<key>/  a source the compiler refused: main.cpp, errors.txt (its first lines of
                           output) and meta.json; a run stopped by a limit is not kept (it may pass later)
    pch/<key>/             a precompiled header: bits/stdc++.h (a copy of the system header) and
                           bits/stdc++.h.gch, or execstate_emit.hpp and execstate_emit.hpp.gch
                           (the header alone, or after ``#include <bits/stdc++.h>``), and meta.json
    locks/<key>            empty files other processes ``flock`` while one compiles that key
    tmp/                   builds in progress

``key`` is the SHA-256 of the cache format, the compiler's resolved path and
``--version`` line, the flags, which precompiled header is offered, the
include directories (path and every file's bytes) and the source bytes. A
directory exists under ``bin/`` only when complete (it is renamed there whole).
No key is compiled twice while its entry stays, whether it compiled or the
compiler refused it (a refusal is as deterministic as a binary: the same
compiler, flags, headers and text): within a process one lock per
key makes the other threads wait for the first compile, and across processes
(the workers of ``construct`` or ``build``) an advisory ``flock`` on
``locks/<key>`` makes the others wait and then find the entry. Deleting the
cache while nothing compiles is safe.

Counting: ``compile_stats()`` counts this process's compiler runs (a program or
a precompiled header; failures included) and cache hits; ``cache_stats(root)``
counts every compile a cache holds, across the processes that filled it, from
the ``meta.json`` each entry keeps: refusals included (``failures``), runs
stopped by a limit not (they leave no entry).
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from execstate.errors import ExecstateError, remove_tree
from execstate.metrics.cpp._source import compiled_text
from execstate.sandbox import Limits, SandboxResult, program_directory, run, scrubbed_env

CACHE_FORMAT = 2
"""Bumped whenever the layout or the meaning of a cache entry changes (old entries are then never read)."""
SOURCE_NAME = "main.cpp"
BINARY_NAME = "prog"
ERROR_LINES = 20
ERROR_CHARS = 2000
_STDCPP = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]bits/stdc\+\+\.h[>"]', re.MULTILINE)
COMPILE_LIMITS = Limits(wall_s=120.0, cpu_s=120.0, memory_mb=4096, output_bytes=1 << 20, file_mb=1024)
"""Limits of one compiler run: a precompiled header of ``<bits/stdc++.h>`` is ~120 MB."""


DEFAULT_CXXFLAGS: tuple[str, ...] = ("-std=c++20", "-O2")
"""Flags of the binaries that run, unless configured (``execstate build --cxxflags``)."""


class CompilerMissing(ExecstateError, RuntimeError):
    """The C++ compiler or its gcov is not installed; the message names the Debian package."""


@dataclass(frozen=True)
class Compiler:
    """Which g++ compiles, with which flags, into which cache.

    ``flags`` build the binaries that run (final outputs, oracles, the
    ``observe`` runs); ``coverage_flags`` build the binaries that are measured
    (SPEC 6). ``gcov`` defaults to the gcov beside the compiler with the same
    suffix (``g++-12`` -> ``gcov-12``). ``precompiled_header`` offers a
    precompiled ``<bits/stdc++.h>`` to programs that include it and to no other
    (see ``benchmarks/cpp.py`` for what it saves); the binaries are the same.
    """

    path: str = "g++"
    flags: tuple[str, ...] = DEFAULT_CXXFLAGS
    coverage_flags: tuple[str, ...] = ("-std=c++20", "-O0", "--coverage")
    gcov: str | None = None
    precompiled_header: bool = True
    cache_dir: Path | None = None
    limits: Limits = field(default=COMPILE_LIMITS)

    def executable(self) -> str:
        """The compiler's resolved path; ``CompilerMissing`` when it is not installed."""
        return _resolve(self.path, "the C++ compiler", "g++")

    def version(self) -> str:
        """The first line of ``g++ --version``, recorded with every measurement."""
        self.executable()
        return _version_line(shutil.which(self.path) or self.path)

    def gcov_executable(self) -> str:
        """gcov's resolved path; ``CompilerMissing`` (Debian package ``gcc``) when it is not installed."""
        name = self.gcov
        if name is None:
            head, base = os.path.split(self.path)
            name = os.path.join(head, base.replace("g++", "gcov")) if "g++" in base else "gcov"
        return _resolve(name, "gcov", "gcc")

    def flags_for(self, coverage: bool) -> tuple[str, ...]:
        return self.coverage_flags if coverage else self.flags

    def cache_root(self) -> Path:
        if self.cache_dir is not None:
            return Path(self.cache_dir)
        if os.environ.get("EXECSTATE_CPP_CACHE"):
            return Path(os.environ["EXECSTATE_CPP_CACHE"])
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return Path(base) / "execstate" / "cpp"


def _resolve(name: str, what: str, package: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise CompilerMissing(
            f"{what} `{name}` was not found (Debian package {package}). "
            f"Fix: apt-get install {package}, or name an installed one (Compiler(path=..., gcov=...))"
        )
    return os.path.realpath(found)


@functools.cache
def _version_line(command: str) -> str:
    """First line of ``command --version``; g++ names itself after ``argv[0]`` (``g++ (Debian ...) 12.2.0``)."""
    done = subprocess.run([command, "--version"], capture_output=True, text=True, timeout=60)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise CompilerMissing(f"`{command} --version` failed. Fix: install a working g++ (apt-get install g++)")
    return lines[0].strip()


@dataclass(frozen=True)
class Compiled:
    """A binary in the cache. Never run it in place: ``run_binary`` runs a fresh copy."""

    key: str
    """SHA-256 hex of everything the binary depends on (see the module docstring)."""
    directory: Path
    """The cache entry: ``main.cpp``, ``prog`` and, for coverage builds, the ``.gcno`` notes."""
    coverage: bool
    flags: tuple[str, ...]
    compiler: str
    """The compiler's ``--version`` line."""
    cached: bool
    """True when nothing was compiled by this call (found in this process's memo or on disk)."""
    compile_s: float
    """Wall seconds this call spent compiling (0 when cached)."""
    precompiled_header: bool
    """Whether the precompiled ``<bits/stdc++.h>`` was offered to the compiler."""

    @property
    def ok(self) -> bool:
        return True

    @property
    def binary(self) -> Path:
        return self.directory / BINARY_NAME

    @property
    def notes(self) -> Path | None:
        """The coverage build's ``.gcno`` file (None for a plain build)."""
        found = sorted(self.directory.glob("*.gcno"))
        return found[0] if found else None


@dataclass(frozen=True)
class CompileFailure:
    """A source the compiler rejected (or a compiler run that hit a limit)."""

    status: str
    """``compile-error`` (the compiler said no), ``timeout``, ``memory`` or ``output-limit``."""
    errors: str
    """The compiler's first lines of output (at most 20 lines and 2,000 characters)."""
    compiler: str

    @property
    def ok(self) -> bool:
        return False

    @property
    def first_error(self) -> str:
        """The compiler's first error line (``main.cpp:3:5: error: ...``), or what stopped it."""
        return first_error(self.errors)


@dataclass
class CompileStats:
    """Compiler runs and cache hits: of this process (``compile_stats``) or of a cache (``cache_stats``)."""

    runs: int = 0
    """Compiler invocations that compiled something (a program or a precompiled header)."""
    seconds: float = 0.0
    """Wall seconds those runs took, summed."""
    hits: int = 0
    """``compile_cpp`` calls answered from the cache without a compiler run (0 in ``cache_stats``)."""
    failures: int = 0
    """Of ``runs``, those the compiler refused (``compile-error``): counted by ``cache_stats`` only."""


_STATS = CompileStats()
_STATS_GUARD = threading.Lock()


def _count(seconds: float | None) -> None:
    """One compiler run of ``seconds`` (None: a cache hit, no run) in this process's ``compile_stats``."""
    with _STATS_GUARD:
        if seconds is None:
            _STATS.hits += 1
        else:
            _STATS.runs += 1
            _STATS.seconds += seconds


def compile_stats(reset: bool = False) -> CompileStats:
    """A copy of this process's compiler runs and cache hits so far; ``reset=True`` then starts them at 0.

    Only the calling process: the workers of a process pool count their own (see ``cache_stats``).
    """
    with _STATS_GUARD:
        snapshot = replace(_STATS)
        if reset:
            _STATS.runs, _STATS.seconds, _STATS.hits = 0, 0.0, 0
    return snapshot


def cache_stats(root: Path) -> CompileStats:
    """The compiles a cache directory holds (``Compiler.cache_root()``), whichever processes made them.

    Each program, each refused source (``failures``) and each precompiled header in ``root`` was made
    by one compiler run whose seconds its ``meta.json`` records; a run stopped by a limit left nothing
    and is not counted, nor is a copy that lost a race to publish. An empty or missing cache counts 0.
    """
    stats = CompileStats()
    refused = [*root.glob("fail/*/*/meta.json")]
    for meta in [*root.glob("bin/*/*/meta.json"), *refused, *root.glob("pch/*/meta.json")]:
        stats.runs += 1
        stats.seconds += float(json.loads(meta.read_text(encoding="utf-8")).get("compile_s", 0.0))
    stats.failures = len(refused)
    return stats


_MEMO: dict[str, Compiled] = {}
_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def _lock(key: str) -> threading.Lock:
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(key, threading.Lock())


def compile_cpp(
    source: str,
    *,
    coverage: bool = False,
    include_dirs: Sequence[Path | str] = (),
    compiler: Compiler = Compiler(),
    first_header: Path | str | None = None,
) -> Compiled | CompileFailure:
    """Compile ``source`` (as ``main.cpp``) with ``compiler``'s flags, or find it in the cache; thread-safe.

    ``coverage=True`` uses ``coverage_flags`` (the measured build). A
    ``CompileFailure`` is returned, never raised. A source the compiler refused
    (``compile-error``) is kept in the cache like a binary and not compiled again;
    a run that hit a limit is not kept (it may pass later). ``CompilerMissing`` when
    g++ is not installed.

    Precompiled headers (``compiler.precompiled_header``): a source whose first
    ``#include`` is ``"NAME"`` of ``first_header`` (a header in one of
    ``include_dirs``, such as the instrumented copies' ``execstate_emit.hpp``)
    is offered that header precompiled, and when the next directive after
    it is ``#include <bits/stdc++.h>`` (as in an instrumented copy of a contest
    program), that header precompiled after ``<bits/stdc++.h>``: one header
    can be precompiled per source, and the system header is what a copy spends
    most of its compile on (``benchmarks/construct_cpp.py``: 2.5 s a copy
    against 9 s, at -O2). Any other source that includes ``<bits/stdc++.h>``
    (and has no ``bits/stdc++.h`` of its own in an include directory) is
    offered the system one. Either way the program means the same as without:
    the program's own ``<bits/stdc++.h>`` then finds every header it names
    already included, and nothing but code, which no directive changes, lies
    between the two includes. (Code there that names
    a standard entity without including it compiles only with the combined
    header; the instrumented copies put only their own declarations there.)
    """
    version = compiler.version()
    flags = compiler.flags_for(coverage)
    source = compiled_text(source, coverage=coverage)  # line directives blanked: the file's own line numbers
    includes = tuple(Path(d).resolve() for d in include_dirs)
    offered = _offered_header(compiler, flags, source, includes, Path(first_header) if first_header else None)
    use_pch = offered is not None
    key = _digest(
        {
            "format": CACHE_FORMAT,
            "compiler": [compiler.executable(), version],
            "flags": list(flags),
            "pch": [offered.name, offered.prelude] if offered else False,
        },
        _include_digest(includes),
        source.encode("utf-8"),
    )
    root = compiler.cache_root()
    final = root / "bin" / key[:2] / key
    refused = root / "fail" / key[:2] / key
    memo = f"{root.resolve()}:{key}"
    with _lock(memo):
        hit = _MEMO.get(memo)
        if hit is not None and hit.binary.is_file():  # the cache may have been deleted meanwhile
            _count(None)
            return replace(hit, cached=True, compile_s=0.0)
        with _across_processes(root, key):
            if (final / BINARY_NAME).is_file():
                _count(None)
                found = Compiled(key, final, coverage, flags, version, True, 0.0, use_pch)
            elif (known := _refusal(refused, version)) is not None:
                _count(None)
                return known
            else:
                pch = _precompiled_header(compiler, flags, offered) if offered else None
                built = _build(compiler, source, flags, includes, pch, root, final)
                if isinstance(built, tuple):  # the compiler ran and refused the source: keep the refusal
                    failure, elapsed = built
                    if failure.status == "compile-error":
                        _keep_refusal(root, refused, source, flags, failure, elapsed)
                    return failure
                found = Compiled(key, final, coverage, flags, version, False, built, pch is not None)
        _MEMO[memo] = found
        return found


_ERRORS_NAME = "errors.txt"


def _refusal(entry: Path, version: str) -> CompileFailure | None:
    """The refusal kept in ``entry`` (``fail/<key>``), or None when there is none."""
    try:
        errors = (entry / _ERRORS_NAME).read_text(encoding="utf-8")
    except OSError:
        return None
    return CompileFailure("compile-error", errors, version)


def _keep_refusal(
    root: Path, entry: Path, source: str, flags: tuple[str, ...], failure: CompileFailure, elapsed: float
) -> None:
    """Keep ``failure`` (what the compiler said about ``source``) under ``entry``: written whole, then renamed."""
    work = _fresh_build_dir(root)
    try:
        (work / SOURCE_NAME).write_text(source, encoding="utf-8")
        (work / _ERRORS_NAME).write_text(failure.errors, encoding="utf-8")
        meta = {"flags": list(flags), "compiler": failure.compiler, "compile_s": elapsed, "status": failure.status}
        (work / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        _publish(work, entry)
    finally:
        remove_tree(work)


def _digest(meta: dict, *parts: bytes) -> str:
    h = hashlib.sha256(json.dumps(meta, sort_keys=True).encode("utf-8"))
    for part in parts:
        h.update(len(part).to_bytes(8, "little") + part)
    return h.hexdigest()


def _include_digest(dirs: tuple[Path, ...]) -> bytes:
    """Path and bytes of every file under the include directories: an edited header is a new key."""
    h = hashlib.sha256()
    for d in dirs:
        h.update(f"dir {d}\n".encode())
        for path in sorted(p for p in d.rglob("*") if p.is_file()):
            h.update(f"{path.relative_to(d)} {path.stat().st_size}\n".encode() + path.read_bytes())
    return h.digest()


def _build(
    compiler: Compiler,
    source: str,
    flags: tuple[str, ...],
    includes: tuple[Path, ...],
    pch: Path | None,
    root: Path,
    final: Path,
) -> float | tuple[CompileFailure, float]:
    """Compile in a fresh directory under ``root/tmp`` and rename it to ``final``: the seconds it took, or the
    failure and the seconds the compiler ran."""
    work = _fresh_build_dir(root)
    try:
        (work / SOURCE_NAME).write_text(source, encoding="utf-8")
        args = [*(["-I", str(pch)] if pch else []), *(f"-I{d}" for d in includes)]
        started = time.monotonic()
        argv = [*flags, *args, "-o", BINARY_NAME, SOURCE_NAME]
        result = _sandboxed(compiler, argv, work, [*includes, *([pch] if pch else [])])
        elapsed = time.monotonic() - started
        _count(elapsed)
        if not (result.ok and (work / BINARY_NAME).is_file()):
            return _failure(result, compiler.version()), elapsed
        meta = {"flags": list(flags), "compiler": compiler.version(), "compile_s": elapsed, "pch": pch is not None}
        (work / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        _publish(work, final)
        return elapsed
    finally:
        remove_tree(work)


def _fresh_build_dir(root: Path) -> Path:
    (root / "tmp").mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="build-", dir=root / "tmp"))


def _publish(work: Path, final: Path) -> None:
    """Move a finished build into place in one step; a concurrent winner's identical copy stays."""
    final.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.rename(work, final)
    except OSError:
        if not final.is_dir():
            raise


def _sandboxed(compiler: Compiler, args: list[str], work: Path, readable: Sequence[Path]) -> SandboxResult:
    """One compiler run in the sandbox: ``work`` is its only writable directory and its temporary one."""
    env = scrubbed_env(extra={"TMPDIR": str(work)})
    # the compiler is trusted but its input is not: namespaces and limits, and it may exec its own passes
    return run(
        [compiler.executable(), *args], b"", compiler.limits, env=env, cwd=work, readable=readable, confine=False
    )


def _failure(result: SandboxResult, version: str) -> CompileFailure:
    text = result.stderr.decode("utf-8", "replace") or result.stdout.decode("utf-8", "replace")
    status = "compile-error" if result.status in ("ok", "crash") else result.status
    if status != "compile-error":
        text = f"the compiler stopped: {result.describe()}"
    return CompileFailure(status, first_lines(text), version)


def first_lines(text: str, lines: int = ERROR_LINES, chars: int = ERROR_CHARS) -> str:
    """The first ``lines`` lines of ``text``, cut to ``chars`` characters (a compiler's leading errors)."""
    head = "\n".join(text.strip().splitlines()[:lines])
    return head if len(head) <= chars else head[: chars - 3] + "..."


def first_error(errors: str) -> str:
    """The compiler's first error line (``main.cpp:3:5: error: ...``), else its first line of output."""
    lines = [line.strip() for line in errors.strip().splitlines() if line.strip()]
    for line in lines:
        if re.search(r"\b(?:fatal )?error:", line):
            return line
    return lines[0] if lines else "(the compiler printed nothing)"


_FIRST_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*[a-z]", re.MULTILINE)
_STDCPP_NAME = "bits/stdc++.h"


@dataclass(frozen=True)
class _Offer:
    """A header to precompile for a source: ``file``'s bytes after ``prelude``, included as ``name``."""

    file: Path
    name: str
    prelude: str = ""


def _offered_header(
    compiler: Compiler, flags: tuple[str, ...], source: str, includes: tuple[Path, ...], first_header: Path | None
) -> _Offer | None:
    """The header to precompile for ``source``, or None (see ``compile_cpp``)."""
    if not compiler.precompiled_header:
        return None
    system = _STDCPP.search(source) and not any((d / _STDCPP_NAME).exists() for d in includes)
    if first_header is not None:
        first = _FIRST_INCLUDE.search(source)
        directive = _DIRECTIVE.search(source)
        if first and directive and first.start() == directive.start() and first.group(1) == first_header.name:
            after = _DIRECTIVE.search(source, first.end())
            with_std = system and after is not None and _STDCPP.match(source, after.start()) is not None
            prelude = f"#include <{_STDCPP_NAME}>\n" if with_std else ""
            return _Offer(first_header.resolve(), first_header.name, prelude)
    if system:
        found = _stdcpp_header(compiler.executable(), flags)
        return _Offer(found, _STDCPP_NAME) if found is not None else None
    return None


def _precompiled_header(compiler: Compiler, flags: tuple[str, ...], offer: _Offer) -> Path | None:
    """A directory with ``offer.name`` (``offer.prelude`` and a copy of ``offer.file``) and its ``.gch`` for
    ``flags``, built once (None: cannot be).

    GCC looks for ``NAME.gch`` in each include directory before the header
    itself and ignores a ``.gch`` made with other options (e.g. a program that
    defines a macro or sets ``#pragma GCC optimize`` first): such a program then
    reads the copied header, which is the original byte for byte after the prelude.
    """
    name = offer.name
    meta = {
        "format": CACHE_FORMAT,
        "compiler": [compiler.executable(), compiler.version()],
        "flags": list(flags),
        "name": name,
        "prelude": offer.prelude,
    }
    key = _digest(meta, offer.file.read_bytes())
    root = compiler.cache_root()
    final = root / "pch" / key
    with _lock(f"{root.resolve()}:pch:{key}"), _across_processes(root, f"pch-{key}"):
        if (final / f"{name}.gch").is_file():
            return final
        work = _fresh_build_dir(root)
        try:
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            (work / name).write_bytes(offer.prelude.encode("utf-8") + offer.file.read_bytes())
            args = [*flags, "-x", "c++-header", name, "-o", f"{name}.gch"]
            started = time.monotonic()
            done = _sandboxed(compiler, args, work, [])
            elapsed = time.monotonic() - started
            _count(elapsed)
            if not done.ok:
                return None
            (work / "meta.json").write_text(json.dumps({**meta, "compile_s": elapsed}), encoding="utf-8")
            _publish(work, final)
        finally:
            remove_tree(work)
    return final


@contextmanager
def _across_processes(root: Path, key: str) -> Iterator[None]:
    """Hold ``root/locks/<key>`` (an advisory ``flock``): another process compiling the same key waits for this
    one and then finds its result, instead of compiling it again. The lock files are empty; deleting them
    while no build runs is safe."""
    locks = root / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    fd = os.open(locks / key, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@functools.cache
def _stdcpp_header(executable: str, flags: tuple[str, ...]) -> Path | None:
    """Where the compiler finds ``<bits/stdc++.h>`` (dependency output of a one-line input; no program runs)."""
    std = [f for f in flags if f.startswith("-std=")]
    done = subprocess.run(
        [executable, *std, "-x", "c++", "-M", "-"],
        input="#include <bits/stdc++.h>\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = [t for t in done.stdout.replace("\\\n", " ").split() if t.endswith("/bits/stdc++.h")]
    return Path(found[0]) if done.returncode == 0 and found else None


@contextmanager
def fresh_copy(compiled: Compiled) -> Iterator[Path]:
    """A fresh directory holding only a copy of the binary (``prog``); removed, however filled, afterwards.

    The copy is written by a ``cp`` process, never by this one: a file open for writing here would be
    inherited by any child another thread forks meanwhile (between its fork and its exec), and the kernel
    refuses to execute a file that a process holds open for writing (``Text file busy``), so a run
    started right after the copy could fail for a reason that is not the program's (seen once in a build
    of the examples under load: ``cannot start the program ...: Text file busy``).
    """
    with program_directory("execstate-cpp-run-") as tmp:
        work = tmp / "work"
        work.mkdir()
        copy_out_of_process(compiled.binary, work / BINARY_NAME)
        yield work


def copy_out_of_process(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` (mode and times kept) in a ``cp`` process of its own (see ``fresh_copy``)."""
    done = subprocess.run(
        ["cp", "--preserve=mode,timestamps", "--", str(source), str(target)],
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "LANG": "C"},
        timeout=300,
    )
    if done.returncode != 0:
        raise OSError(f"copying {source} to {target} failed: {done.stderr.decode('utf-8', 'replace').strip()}")


def run_binary(
    compiled: Compiled,
    stdin: bytes = b"",
    limits: Limits = Limits(),  # noqa: B008 (frozen: one shared default is safe)
    *,
    env: dict[str, str] | None = None,
    args: tuple[str, ...] = (),
) -> SandboxResult:
    """Run a fresh copy of ``compiled`` in the sandbox, in a fresh working directory that holds only the copy.

    ``env`` replaces the scrubbed default environment; ``args`` follow the program's name on its command
    line (a generator's seed and size). A coverage build writes its counts under the run's own directory
    (``GCOV_PREFIX``), which goes with the run. Never raises for the program's faults.
    """
    with fresh_copy(compiled) as work:
        if compiled.coverage:  # its counts go to a directory of the run's own, thrown away with it
            env = {**(scrubbed_env() if env is None else env), "GCOV_PREFIX": str(work / "gcda")}
            env["GCOV_PREFIX_STRIP"] = "10000"
        return run([str(work / BINARY_NAME), *args], stdin, limits, env=env, cwd=work)
