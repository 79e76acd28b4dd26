"""Every settings example in README.md and docs/run.md is a settings file execstate reads, and together they
show a worked setting for every built-in provider that talks to a model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from execstate.run import load_settings

ROOT = Path(__file__).resolve().parents[2]
_TOML = re.compile(r"```toml\n(.*?)```", re.S)


def _blocks(doc: str) -> list[str]:
    return [b for b in _TOML.findall((ROOT / doc).read_text(encoding="utf-8")) if "[[setting]]" in b]


@pytest.mark.parametrize("doc", ["README.md", "docs/run.md"])
def test_settings_examples_load(doc: str, tmp_path: Path) -> None:
    blocks = _blocks(doc)
    assert blocks, f"{doc} shows no settings example"
    providers: set[str] = set()
    for i, block in enumerate(blocks):
        path = tmp_path / f"{i}.toml"
        path.write_text(block, encoding="utf-8")
        providers |= {s.provider for s in load_settings(path)}
    assert {"openai", "openai-responses", "anthropic", "gemini"} <= providers
