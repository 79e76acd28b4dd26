"""Benchmark: start-up of the command line, side by side with a bare interpreter (target: --help <= 10x).

Times ``python -c pass``, ``execstate --help`` and every ``execstate COMMAND --help``
as whole processes, each the median of ``--rounds`` runs (default 5), rounds
interleaved so load on the machine hits every command alike, and prints each
command's ratio to the bare interpreter. Exits 1 if ``execstate --help`` is
above the target ratio.
--smoke: one round (after the warm-up pass), and the target sets no exit status.

    python benchmarks/cli.py [--rounds 5] [--target 10] [--smoke]
"""

from __future__ import annotations

import argparse
import platform
import shutil
import statistics
import subprocess
import sys
import time

from execstate.cli import make_parser


def _argvs() -> dict[str, list[str]]:
    exe = shutil.which("execstate")
    base = [exe] if exe else [sys.executable, "-m", "execstate"]
    commands = sorted(make_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    argvs = {"python -c pass": [sys.executable, "-c", "pass"], "execstate --help": [*base, "--help"]}
    argvs.update({f"execstate {c} --help": [*base, c, "--help"] for c in commands})
    return argvs


def _time(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--target", type=float, default=10.0)
    parser.add_argument("--smoke", action="store_true", help="one round, no verdict in the exit status")
    args = parser.parse_args()
    if args.smoke:  # smaller defaults; options given on the command line still win
        parser.set_defaults(rounds=1)
        args = parser.parse_args()
    argvs = _argvs()
    for argv in argvs.values():  # warm the file cache and .pyc files
        _time(argv)
    samples: dict[str, list[float]] = {name: [] for name in argvs}
    for _ in range(args.rounds):
        for name, argv in argvs.items():
            samples[name].append(_time(argv))
    medians = {name: statistics.median(times) for name, times in samples.items()}
    bare = medians["python -c pass"]
    print(f"python {platform.python_version()}, median of {args.rounds} runs per command")
    print(f"{'command':<34} {'median ms':>10} {'x python -c pass':>17}")
    for name, value in medians.items():
        print(f"{name:<34} {value * 1000:>10.1f} {value / bare:>17.2f}")
    ratio = medians["execstate --help"] / bare
    verdict = "within" if ratio <= args.target else "ABOVE"
    print(f"execstate --help is {ratio:.2f}x python -c pass: {verdict} the target of {args.target:g}x")
    return 0 if ratio <= args.target or args.smoke else 1


if __name__ == "__main__":
    sys.exit(main())
