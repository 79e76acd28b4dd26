"""Command line: a thin layer over the library, one module per stage; every error is printed once, as one line.

Only ``argparse`` and ``pathlib`` are imported to build the parser, and only the
options of the command being run are built: ``execstate --help`` lists every
command from its module's ``COMMANDS`` and builds none of their options, and
``execstate build --help`` reads the languages' options as data
(``execstate.language_entries``). Each command imports the stage it runs when it
runs, so neither imports a stage, a language adapter, the metrics or the sandbox
(``tests/test_cli_help.py``; ``benchmarks/cli.py`` times them).

Exit status: 0 done; 1 done but incomplete (a run with missing cells, a build
that admitted no case, an import that imported nothing); 2 an error (one line:
``execstate COMMAND: error: ...``); 130 interrupted. ``--debug`` or
``EXECSTATE_DEBUG=1`` shows tracebacks.
"""

from __future__ import annotations

import argparse
import os
import sys

from execstate.cli import (
    _analyze,
    _build,
    _construct,
    _export,
    _fresh,
    _grade,
    _import,
    _leaderboard,
    _local,
    _metrics,
    _pilot,
    _pipeline,
    _run,
    _view,
)

_STAGES = (
    _import,
    _construct,
    _build,
    _fresh,
    _metrics,
    _run,
    _grade,
    _export,
    _analyze,
    _pipeline,
    _pilot,
    _local,
    _leaderboard,
    _view,
)
_DESCRIPTION = (
    "execstate: execution-checked tasks for predicting program output and checkpoint state. "
    "Stages: (import -> construct ->) build -> run -> grade -> analyze (report); pipeline runs them all; "
    "pilot runs the invariant-guidance pilot."
)


def make_parser(only: tuple[str, ...] | None = None) -> argparse.ArgumentParser:
    """The ``execstate`` parser with every stage's subcommands; each sets ``func(args) -> exit code``.

    ``only``: build the options of these commands (and of the others of their module) only; every other command
    is listed with its one-line help and takes no option. ``main`` passes the command its argv names, so
    ``execstate --help`` builds no command's options. None: every command's options."""
    parser = argparse.ArgumentParser(prog="execstate", description=_DESCRIPTION)
    parser.add_argument("--version", action="version", version=_version())
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error (or EXECSTATE_DEBUG=1)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for stage in _STAGES:
        if only is None or set(only) & set(stage.COMMANDS):
            stage.register(sub)
        else:
            for name, line in stage.COMMANDS.items():
                sub.add_parser(name, help=line)
    for each in sub.choices.values():  # --debug also after the command name
        each.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def command_of(argv: list[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option (the top-level options take no value);
    None when there is none (``execstate --help``)."""
    return next((word for word in argv if not word.startswith("-")), None)


def _version() -> str:
    from execstate import __version__

    return f"execstate {__version__}"


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv``, run the command, and turn any execstate error into one line and exit status 2."""
    argv = sys.argv[1:] if argv is None else argv
    command = command_of(argv)
    debug = "--debug" in argv or os.environ.get("EXECSTATE_DEBUG", "") not in ("", "0")
    try:
        args = make_parser(only=(command,) if command else ()).parse_args(argv)
    except Exception as exc:  # the parser reads the registries: another package's entry may not load
        from execstate.errors import ExecstateError

        if debug or not isinstance(exc, ExecstateError):
            raise
        print(f"{' '.join(filter(None, ('execstate', command)))}: {exc.label}: {exc}", file=sys.stderr)
        return exc.exit_code
    from execstate.errors import ExecstateError

    try:
        return int(args.func(args) or 0)
    except ExecstateError as exc:
        if debug:
            raise
        print(f"execstate {args.command}: {exc.label}: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # the disk, not the user's input: name the file and the cause
        if debug:
            raise
        where = f" {exc.filename}" if exc.filename else ""
        print(
            f"execstate {args.command}: error: cannot use{where}: {exc.strerror or exc}. "
            "Fix: check the path, its permissions and free space (--debug for the traceback)",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        if debug:
            raise
        print(f"execstate {args.command}: interrupted; files written so far are kept", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
