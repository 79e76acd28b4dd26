"""Command line: a thin layer over the library; each stage registers its own subcommands."""

from __future__ import annotations

import argparse
import importlib
import sys

# Each module exposes ``register(subparsers)`` adding its subcommands; the
# handler stored as ``func`` returns a process exit code.
_STAGE_MODULES = (
    "execstate.build._cli",
    "execstate.metrics._cli",
    "execstate.run._cli",
    "execstate.grade._cli",
    "execstate.analyze._cli",
    "execstate.pipeline._cli",
)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="execstate", description=__doc__)
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)
    for name in _STAGE_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
                continue  # stage not present in this checkout
            raise
        module.register(sub)
    return parser


def _version() -> str:
    from execstate import __version__

    return f"execstate {__version__}"


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
