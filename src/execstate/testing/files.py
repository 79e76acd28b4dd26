"""Directory snapshots for reproduction checks (construct, select: the same input gives the same bytes)."""

from __future__ import annotations

from pathlib import Path


def tree_bytes(root: Path | str) -> dict[str, bytes]:
    """Every file under ``root`` by its relative path, with its bytes: two equal snapshots are two equal trees."""
    base = Path(root)
    return {str(p.relative_to(base)): p.read_bytes() for p in sorted(base.rglob("*")) if p.is_file()}
