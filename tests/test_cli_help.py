"""The command line's light door: ``execstate --help`` builds no command's options, each command's parser is
built from its module alone, and a language another package declares (entry point ``execstate.languages``)
brings its options to ``execstate build --help`` without any adapter being imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import execstate
from execstate.cli import _STAGES, command_of, make_parser
from execstate.testing.plugins import plugin_dist

SRC = Path(execstate.__file__).resolve().parent.parent


def _subcommands(parser) -> dict:
    """Command name -> its subparser, in listing order."""
    return parser._subparsers._group_actions[0].choices


def _listing(parser) -> list[tuple[str, str]]:
    """(command, its line in ``execstate --help``), in order."""
    return [(a.dest, a.help) for a in parser._subparsers._group_actions[0]._choices_actions]


def test_the_light_parser_lists_every_command_as_the_full_one_does():
    assert _listing(make_parser(only=())) == _listing(make_parser())
    assert len(_listing(make_parser())) >= 16


def test_each_module_declares_exactly_the_commands_it_registers():
    """``COMMANDS`` is what ``--help`` lists without calling ``register``: the two must agree, help line included."""
    for stage in _STAGES:
        full = _listing(make_parser(only=tuple(stage.COMMANDS)))
        assert [(n, h) for n, h in full if n in stage.COMMANDS] == list(stage.COMMANDS.items()), stage.__name__
        built = {n for n, p in _subcommands(make_parser(only=tuple(stage.COMMANDS))).items() if len(p._actions) > 2}
        assert set(stage.COMMANDS) <= built, stage.__name__  # more than -h and --debug: its options were built


def test_only_the_command_run_gets_its_options():
    parser = make_parser(only=("build",))
    commands = _subcommands(parser)
    assert "--out" in commands["build"]._option_string_actions
    assert "--out" not in commands["run"]._option_string_actions  # listed, not built
    assert parser.parse_args(["build", "x", "--out", "o"]).out == Path("o")
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "--out", "o"])  # a command not built takes no option: main never asks so


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["--help"], None),
        ([], None),
        (["build", "--help"], "build"),
        (["--debug", "run", "--settings", "s.toml"], "run"),
        (["--version"], None),
    ],
)
def test_the_command_of_an_argv(argv, command):
    assert command_of(argv) == command


def test_main_builds_the_named_commands_options(capsys):
    from execstate.cli import main

    with pytest.raises(SystemExit) as done:
        main(["build", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--add-arms" in out and "--trace-budget" in out


def test_add_arms_offers_the_registrys_further_arms(capsys):
    """``--add-arms`` lists and accepts the arms of the group ``further`` that a case may ask for, from the arm
    registry: no arm is named in the command line's code."""
    from execstate.arms import arm_names

    further = arm_names(group="further", case_arm=True)
    assert further
    args = make_parser().parse_args(["build", "x", "--out", "o", "--add-arms", ",".join(reversed(further))])
    assert args.add_arms == tuple(reversed(further))
    with pytest.raises(SystemExit):
        make_parser().parse_args(["build", "x", "--out", "o", "--add-arms", "no-such-arm"])
    assert f"give further arms among {', '.join(further)}" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        make_parser(only=("build",)).parse_args(["build", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(name in out for name in further)


def test_the_variant_names_are_data_the_adapters_agree_with():
    from execstate.language_entries import VARIANTS
    from execstate.languages import VARIANTS as ADAPTERS_VARIANTS
    from execstate.languages.cpp.variants import CPP_VARIANTS

    assert ADAPTERS_VARIANTS == VARIANTS
    assert set(CPP_VARIANTS) <= set(VARIANTS)
    assert make_parser().parse_args(["build", "x", "--out", "o", "--variants", "rename"]).variants == ("rename",)


PLUGIN = '''
"""A language declared by another package, through its entry point: data only, its adapter never imported."""
from dataclasses import dataclass

from execstate.language_entries import CliOption, LanguageEntry


@dataclass(frozen=True)
class ToyOptions:
    level: int = 3

    @classmethod
    def from_cli(cls, values):
        return cls(level=int(values["toy_level"]))


ENTRY = LanguageEntry(
    "toylang",
    "toy_lang_adapter:make",
    program="main.toy",
    trace_unit="toy steps",
    cli_options=(CliOption("--toy-level", "3", "how hard the toy adapter tries (toy plug-in)"),),
    options_from_cli="toy_lang_plugin:ToyOptions.from_cli",
)
'''

PROBE = """
import contextlib, io, json, sys
from execstate.cli import main

out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main(["build", "--help"])
    except SystemExit:
        pass
loaded = sorted(m for m in sys.modules if m.startswith(("execstate.languages", "execstate.metrics", "toy_lang")))
from execstate.errors import UsageError
from execstate.languages import LANGUAGES, language_entry, options_from_cli, unregister_language

entry = language_entry("toylang")
try:
    unregister_language("toylang")
    refused = False
except UsageError:
    refused = True
print(json.dumps({
    "help": " ".join(out.getvalue().split()),
    "loaded": loaded,
    "names": LANGUAGES.declared(),
    "program": entry.program,
    "options": [repr(o) for o in options_from_cli({"toy_level": "5"})],
    "unregister_refused": refused,
}))
"""


@pytest.fixture
def plugin_path(tmp_path: Path) -> Path:
    """A folder that, on ``sys.path``, holds an installed distribution declaring the language ``toylang``."""
    (tmp_path / "toy_lang_plugin.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    plugin_dist(tmp_path, "toy-lang-plugin", {"execstate.languages": {"toylang": "toy_lang_plugin:ENTRY"}})
    return tmp_path


def _run_probe(plugin: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(plugin), str(SRC)]))
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, env=env, cwd=plugin
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_an_entry_point_language_brings_its_options_to_build_help(plugin_path):
    """Another package's language: ``execstate build --help`` offers its option having imported its declaration
    (``toy_lang_plugin``) and no adapter, no language package and no metrics; the registry then serves it."""
    found = _run_probe(plugin_path)
    assert "--toy-level TOY_LEVEL how hard the toy adapter tries (toy plug-in)" in found["help"]
    assert "--cxx" in found["help"]  # the built-in languages' options stay
    assert found["loaded"] == ["toy_lang_plugin"]
    assert found["names"][-1] == "toylang" and found["program"] == "main.toy"
    assert found["options"][-1] == "ToyOptions(level=5)"
    assert found["unregister_refused"] is True  # declared by a package, not registered at run time


def test_without_the_entry_point_the_option_is_not_offered(plugin_path):
    (plugin_path / "toy_lang_plugin-0.dist-info" / "entry_points.txt").write_text("", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(plugin_path), str(SRC)]))
    done = subprocess.run(
        [sys.executable, "-m", "execstate", "build", "--help"], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "--toy-level" not in done.stdout and "--cxx" in done.stdout


def test_an_entry_point_that_does_not_load_is_one_line(plugin_path):
    """A broken plug-in (its entry names no module) fails ``execstate build --help`` with one line naming it."""
    (plugin_path / "toy_lang_plugin-0.dist-info" / "entry_points.txt").write_text(
        "[execstate.languages]\ntoylang = no_such_plugin:ENTRY\n", encoding="utf-8"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(plugin_path), str(SRC)]))
    done = subprocess.run(
        [sys.executable, "-m", "execstate", "build", "--help"], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "execstate build: error: 'no_such_plugin:ENTRY': no module 'no_such_plugin'. "
        "Fix: name an existing module:attribute"
    ]
