"""The resource limits of one run, and the rlimits the init applies to the program from them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run. Times in seconds, sizes in MiB / bytes."""

    wall_s: float = 20.0
    cpu_s: float = 20.0
    memory_mb: int = 2048
    output_bytes: int = 16 * 1024 * 1024
    file_mb: int = 16


def rlimits(limits: Limits) -> dict[str, list[int]]:
    """The program's resource limits, as ``sandbox/_init.py`` applies them before exec."""
    mem = limits.memory_mb * 1024 * 1024
    cpu = max(1, int(limits.cpu_s + 0.999))
    size = limits.file_mb * 1024 * 1024
    return {"RLIMIT_AS": [mem, mem], "RLIMIT_CPU": [cpu, cpu + 1], "RLIMIT_FSIZE": [size, size], "RLIMIT_CORE": [0, 0]}
