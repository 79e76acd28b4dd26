"""The shape of the package: stages only look down, no package reaches into another's private modules,
and the command line builds its parser without importing any heavy library."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import execstate

SRC = Path(execstate.__file__).resolve().parent

# Lowest first. A module may import modules of its own group or of a lower group, never a higher one.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("execstate.errors", "execstate.registry", "execstate.arms"),
    ("execstate", "execstate.records", "execstate.tables", "execstate.sandbox", "execstate.language_entries"),
    ("execstate.metrics", "execstate.environments"),
    ("execstate.languages",),
    ("execstate.studies",),
    ("execstate.builder",),
    ("execstate.run",),
    ("execstate.grade",),
    ("execstate.export",),
    ("execstate.construct",),
    ("execstate.analyze",),
    ("execstate.adaptive",),
    ("execstate.report",),
    ("execstate.leaderboard",),
    ("execstate.view",),
    ("execstate.pilot",),
    ("execstate.pipeline",),
    ("execstate.cli", "execstate.__main__", "execstate.testing"),
)
HEAVY = ("pandas", "numpy", "scipy", "statsmodels", "matplotlib", "aiohttp", "httpx", "pydantic", "rich", "yarl")


def _module_name(path: Path) -> str:
    parts = ("execstate", *path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in SRC.rglob("*.py")}


def _imports(path: Path) -> set[str]:
    """Every ``execstate...`` module a file imports, at any depth (function-level imports included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "execstate"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "execstate":
            found.add(str(node.module))
            found |= {
                f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_") and not a.name.startswith("__")
            }
    return found


def _layer(module: str) -> int:
    best = (-1, -1)
    for index, group in enumerate(LAYERS):
        for prefix in group:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best[1]:
                best = (index, len(prefix))
    assert best[0] >= 0, f"{module} is in no layer of LAYERS; add its package there"
    return best[0]


def _package(module: str, is_package: bool) -> str:
    return module if is_package else module.rpartition(".")[0]


def test_every_module_has_a_layer():
    for name in _modules():
        _layer(name)


@pytest.mark.parametrize("name", sorted(_modules()))
def test_stages_only_look_down(name):
    path = _modules()[name]
    mine = _layer(name)
    later = sorted(m for m in _imports(path) if _layer(m) > mine)
    assert not later, f"{name} (layer {mine}) imports later stage(s): {later}"


@pytest.mark.parametrize("name", sorted(_modules()))
def test_no_private_module_of_another_package(name):
    path = _modules()[name]
    home = _package(name, path.name == "__init__.py")
    for imported in _imports(path):
        parts = imported.split(".")
        private = [i for i, part in enumerate(parts) if part.startswith("_")]
        if private:
            owner = ".".join(parts[: private[0]])
            # A sub-package is part of its parent (builder.cpp uses builder's protocol types); not the reverse.
            assert home == owner or home.startswith(owner + "."), (
                f"{name} imports {imported}, a private module of {owner}"
            )


def test_the_checks_catch_a_violation(tmp_path):
    """The two checks above can fail: a planted upward and a planted private import are both found."""
    bad = tmp_path / "bad.py"
    bad.write_text("from execstate.report._figures import x\nimport execstate.pipeline\n")
    found = _imports(bad)
    assert {"execstate.report._figures", "execstate.pipeline"} <= found
    assert max(_layer(m) for m in found) > _layer("execstate.grade")


def _loaded_after(code: str) -> list[str]:
    probe = (
        f"import sys\n{code}\n"
        f"import json; print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _commands() -> list[str]:
    from execstate.cli import make_parser

    parser = make_parser()
    return sorted(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]


def test_top_level_help_imports_no_heavy_library():
    code = "from execstate.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    assert _loaded_after(code) == []


@pytest.mark.parametrize("command", _commands())
def test_command_help_imports_no_heavy_library(command):
    code = (
        f"import contextlib, io\nfrom execstate.cli import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n    try:\n        main([{command!r}, '--help'])\n"
        f"    except SystemExit:\n        pass"
    )
    assert _loaded_after(code) == []


LIGHT_DOOR_AVOIDS = ("execstate.languages", "execstate.metrics", "execstate.sandbox")
"""What no ``--help`` may import: the languages layer (its adapters), the metrics and the sandbox."""


def _execstate_loaded_after(code: str) -> list[str]:
    """The ``execstate`` modules imported, in a fresh interpreter, once ``code`` has run."""
    probe = f"import sys\n{code}\nimport json; print(json.dumps(sorted(m for m in sys.modules if m.startswith('execstate'))))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _avoided(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == a or m.startswith(a + ".") for a in LIGHT_DOOR_AVOIDS)]


@pytest.mark.parametrize("argv", [["--help"], *([c, "--help"] for c in _commands())], ids=" ".join)
def test_help_imports_no_language_metrics_or_sandbox(argv):
    """``execstate --help`` and every ``execstate COMMAND --help`` read the languages' options and the arms as data:
    neither the languages package nor the metrics nor the sandbox is imported (issue 52)."""
    code = (
        f"import contextlib, io\nfrom execstate.cli import main\n"
        f"with contextlib.redirect_stdout(io.StringIO()):\n    try:\n        main({argv!r})\n"
        f"    except SystemExit:\n        pass"
    )
    loaded = _execstate_loaded_after(code)
    assert "execstate.cli" in loaded
    assert _avoided(loaded) == []


def test_the_help_probe_sees_an_import_of_the_languages():
    """The probe above can fail: a ``--help`` after importing the languages package reports it and what it pulls."""
    code = "import execstate.languages\nfrom execstate.cli import make_parser\nmake_parser()"
    assert {"execstate.languages", "execstate.metrics", "execstate.sandbox"} <= set(
        _avoided(_execstate_loaded_after(code))
    )


def test_the_readme_names_every_package_and_only_real_ones():
    readme = (SRC.parent.parent / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| stage | folder |") : readme.index("## Building tasks")]
    named = set(re.findall(r"`execstate/([a-z_]+(?:\.py)?)", table))
    packages = {p.parent.name for p in SRC.glob("*/__init__.py")}
    assert packages - named == set(), "packages missing from the README's stage table"
    assert {n for n in named if not (SRC / n).exists()} == set(), "README names folders that do not exist"
