"""The README's test command and `.ci/run` run the same thing, with the same llama.cpp build flags."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def _cmake_args(command: str) -> str:
    found = re.search(r'CMAKE_ARGS="([^"]*)"', command)
    assert found, command
    return found.group(1)


def test_the_readme_starts_with_two_commands_and_the_second_is_what_ci_runs():
    commands = _readme_commands()
    assert len(commands) == 2
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci_args = re.search(r'CMAKE_ARGS="\$\{CMAKE_ARGS:-([^}]*)\}"', ci)
    assert ci_args, "the CMAKE_ARGS default in .ci/run"
    assert _cmake_args(commands[1]) == ci_args.group(1)
    # the same steps after the system packages: venv, install, lint, format, types, tests
    readme_steps = re.sub(r'CMAKE_ARGS="[^"]*" ', "", commands[1]).split(" && ")[1:]
    ci_steps = ci.strip().splitlines()[-1].replace("pip install -q ", "pip install ").split(" && ")
    assert readme_steps == ci_steps


def test_the_cmake_include_the_build_flags_name_exists():
    args = shlex.split(_cmake_args(_readme_commands()[1]))
    includes = [a.split("=", 1)[1] for a in args if a.startswith("-DCMAKE_PROJECT_INCLUDE=")]
    assert includes and all(Path(p.replace("$PWD", str(ROOT))).is_file() for p in includes)
