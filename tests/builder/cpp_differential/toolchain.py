"""Compile with the machine's g++ (a subprocess) and run the binaries through ``execstate.sandbox.run`` only."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from execstate.languages.cpp.protocol import HEADER_PATH
from execstate.sandbox import Limits, SandboxResult, run

GXX = shutil.which("g++")
LIMITS = Limits(wall_s=20, cpu_s=20)
needs_gxx = pytest.mark.skipif(GXX is None, reason="needs g++ (C++20)")


def compile_cpp(source: str, folder: Path, name: str = "prog") -> tuple[Path | None, str]:
    """``g++ -std=c++20 -O0`` with the emitter header on the include path: (binary or None, diagnostics)."""
    assert GXX is not None
    folder.mkdir(parents=True, exist_ok=True)
    src = folder / f"{name}.cpp"
    src.write_text(source, encoding="utf-8")
    exe = folder / name
    cmd = [GXX, "-std=c++20", "-O0", "-w", "-I", str(HEADER_PATH.parent), str(src), "-o", str(exe)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "LANG": "C"})
    return (exe if done.returncode == 0 else None), done.stderr


def build(source: str, folder: Path, name: str = "prog") -> Path:
    exe, diagnostics = compile_cpp(source, folder, name)
    assert exe is not None, diagnostics
    return exe


def execute(exe: Path, stdin: bytes = b"", args: tuple[str, ...] = ()) -> SandboxResult:
    """Run a compiled program isolated; its folder is the run's one writable directory."""
    return run([str(exe), *args], stdin, LIMITS, cwd=exe.parent)
