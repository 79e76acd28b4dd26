"""A plug-in package as ``pip install`` would leave it, for tests of entry points.

``plugin_dist(folder, name, entry_points)`` writes ``<name>-0.dist-info`` (its ``METADATA`` and
``entry_points.txt``) into ``folder``; with ``folder`` on ``sys.path`` (or ``PYTHONPATH`` for a subprocess),
``importlib.metadata`` finds the entry points, so every registry of execstate does (after its ``refresh()`` in a
process that already read them).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def plugin_dist(folder: Path, name: str, entry_points: Mapping[str, Mapping[str, str]]) -> Path:
    """Write the distribution ``name`` declaring ``entry_points`` (group -> entry name -> ``"module:attr"``) into
    ``folder``; the ``.dist-info`` folder written. The package's modules are the caller's to write."""
    info = Path(folder) / f"{name.replace('-', '_')}-0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\n", encoding="utf-8")
    sections = [
        f"[{group}]\n" + "".join(f"{entry} = {target}\n" for entry, target in entries.items())
        for group, entries in entry_points.items()
    ]
    (info / "entry_points.txt").write_text("\n".join(sections), encoding="utf-8")
    return info


__all__ = ["plugin_dist"]
