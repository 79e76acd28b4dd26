"""Benchmark: start-up of the command line, side by side with a bare interpreter (target: --help <= 5x).

Times ``python -c pass``, ``execstate --help`` and every ``execstate COMMAND --help``
as whole processes, each the median of ``--rounds`` runs (default 7), rounds
interleaved so load on the machine hits every command alike, and prints each
command's wall-clock and CPU (user + system) medians and their ratios to the bare
interpreter. On a loaded machine the CPU ratio is the steadier one. Exits 1 if
``execstate --help`` is above the target ratio (issue 52: 5x) in wall clock and
in CPU time alike. The children may write ``.pyc`` files (``PYTHONDONTWRITEBYTECODE``
is dropped for them): an installed execstate starts from compiled modules, and the
warm-up pass compiles them.
--smoke: one round (after the warm-up pass), and the target sets no exit status.

    python benchmarks/cli.py [--rounds 7] [--target 5] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time

from execstate.cli import make_parser

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _argvs() -> dict[str, list[str]]:
    exe = shutil.which("execstate")
    base = [exe] if exe else [sys.executable, "-m", "execstate"]
    commands = sorted(make_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    argvs = {"python -c pass": [sys.executable, "-c", "pass"], "execstate --help": [*base, "--help"]}
    argvs.update({f"execstate {c} --help": [*base, c, "--help"] for c in commands})
    return argvs


def _time(argv: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one whole run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--target", type=float, default=5.0)
    parser.add_argument("--smoke", action="store_true", help="one round, no verdict in the exit status")
    args = parser.parse_args()
    if args.smoke:  # smaller defaults; options given on the command line still win
        parser.set_defaults(rounds=1)
        args = parser.parse_args()
    argvs = _argvs()
    for argv in argvs.values():  # warm the file cache and compile the .pyc files
        _time(argv)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in argvs}
    for _ in range(args.rounds):
        for name, argv in argvs.items():
            samples[name].append(_time(argv))
    wall = {name: statistics.median(w for w, _ in runs) for name, runs in samples.items()}
    cpu = {name: statistics.median(c for _, c in runs) for name, runs in samples.items()}
    bare = "python -c pass"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load {load:.1f}; median of {args.rounds} runs")
    print(f"{'command':<34} {'wall ms':>8} {'x bare':>7} {'cpu ms':>8} {'x bare':>7}")
    for name in argvs:
        print(
            f"{name:<34} {wall[name] * 1000:>8.1f} {wall[name] / wall[bare]:>7.2f} "
            f"{cpu[name] * 1000:>8.1f} {cpu[name] / max(cpu[bare], 1e-9):>7.2f}"
        )
    ratio = wall["execstate --help"] / wall[bare]
    cpu_ratio = cpu["execstate --help"] / max(cpu[bare], 1e-9)
    within = ratio <= args.target and cpu_ratio <= args.target
    print(
        f"execstate --help is {ratio:.2f}x python -c pass in wall clock, {cpu_ratio:.2f}x in CPU time: "
        f"{'within' if within else 'ABOVE'} the target of {args.target:g}x"
    )
    return 0 if within or args.smoke else 1


if __name__ == "__main__":
    sys.exit(main())
