"""Pin the public API: what each public package exports (its ``__all__``) is compared with a committed snapshot,
tests/exported_members.json, so a change to it is deliberate and shows in review as a diff of that file.

A public module is one whose dotted name has no ``_`` part (``execstate.analyze``, ``execstate.metrics.cpp``)
and that declares ``__all__``; the list of them is found from the source tree, not written here. After a
deliberate change, regenerate the snapshot (from the repository root, in the project's environment) with

    python tests/test_exported_members.py --write

and commit it with the change. Every name of an ``__all__`` must also resolve to an object (lazy ones included),
and the command line's parser must build with every stage's commands.
"""

from __future__ import annotations

import ast
import importlib
import json
import sys
from pathlib import Path

import pytest

import execstate
import execstate.cli

SRC = Path(execstate.__file__).resolve().parent
SNAPSHOT = Path(__file__).resolve().parent / "exported_members.json"
REGENERATE = "python tests/test_exported_members.py --write"


def _declares_all(path: Path) -> bool:
    """True when the module assigns ``__all__`` at its top level."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            return True
    return False


def public_modules() -> list[str]:
    """Every importable module of the package with no private part in its name that declares ``__all__``."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        if not all((SRC.joinpath(*rel.parts[:i]) / "__init__.py").exists() for i in range(len(rel.parts))):
            continue  # not in a package (a study's case program, a pool's solution)
        parts = rel.with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        if not any(p.startswith("_") for p in parts) and _declares_all(path):
            found.append(".".join(("execstate", *parts)))
    return sorted(found)


def exported(module: str) -> list[str]:
    """The module's ``__all__``, sorted."""
    return sorted(importlib.import_module(module).__all__)


def current() -> dict[str, list[str]]:
    """What the snapshot holds for the tree as it is: each public module's sorted ``__all__``."""
    return {module: exported(module) for module in public_modules()}


PUBLIC = public_modules()


def _snapshot() -> dict[str, list[str]]:
    """The committed snapshot; empty when there is none yet (every test then names the command that writes it)."""
    return json.loads(SNAPSHOT.read_text(encoding="utf-8")) if SNAPSHOT.exists() else {}


def _differs(what: str, now: list[str] | set[str], pinned: list[str] | set[str]) -> str:
    added, removed = sorted(set(now) - set(pinned)), sorted(set(pinned) - set(now))
    return (
        f"{what} differs from tests/exported_members.json: added {added}, removed {removed}. "
        f"If that is deliberate, regenerate the snapshot with `{REGENERATE}` and commit it"
    )


def test_the_public_modules_are_the_snapshots():
    found, pinned = PUBLIC, sorted(_snapshot())
    assert found == pinned, _differs("the set of public modules (declaring __all__)", found, pinned)


@pytest.mark.parametrize("module", sorted({*PUBLIC, *_snapshot()}))
def test_exported_members(module):
    names: list[str] = []
    if module in PUBLIC:
        mod = importlib.import_module(module)
        names = list(mod.__all__)
        assert all(isinstance(name, str) for name in names), f"{module}.__all__ holds a non-string"
        twice = sorted({name for name in names if names.count(name) > 1})
        assert not twice, f"{module}.__all__ names {twice} more than once"
        for name in names:
            assert getattr(mod, name, None) is not None, f"{module}.__all__ names {name!r}, which it does not define"
    pinned = _snapshot().get(module, [])
    assert sorted(names) == pinned, _differs(f"{module}.__all__", names, pinned)


def test_the_snapshot_is_written_as_the_command_writes_it():
    """Sorted keys, sorted lists, so a regenerated file differs only where the API does."""
    assert SNAPSHOT.exists(), f"there is no tests/exported_members.json. Fix: `{REGENERATE}`"
    pinned = _snapshot()
    assert list(pinned) == sorted(pinned) and all(names == sorted(names) for names in pinned.values())
    assert SNAPSHOT.read_text(encoding="utf-8") == _dumps(pinned), f"Fix: `{REGENERATE}`"


def test_every_stage_registers_its_commands():
    commands = set(execstate.cli.make_parser()._subparsers._group_actions[0].choices)
    assert {
        "build",
        "import",
        "metrics",
        "run",
        "grade",
        "tables",
        "cruxeval-score",
        "analyze",
        "pipeline",
        "local-model",
    } <= commands


def _dumps(snapshot: dict[str, list[str]]) -> str:
    return json.dumps(snapshot, indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    """``--write``: write the snapshot from the tree; no argument: say what differs (exit 1) or that nothing does."""
    now = current()
    if argv == ["--write"]:
        SNAPSHOT.write_text(_dumps(now), encoding="utf-8")
        print(f"wrote {SNAPSHOT} ({len(now)} modules, {sum(map(len, now.values()))} names)")
        return 0
    if argv:
        print(f"usage: {REGENERATE}  (without --write: show what differs)", file=sys.stderr)
        return 2
    pinned = _snapshot()
    changed = [m for m in sorted({*now, *pinned}) if now.get(m) != pinned.get(m)]
    for module in changed:
        print(_differs(module, now.get(module, []), pinned.get(module, [])))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
