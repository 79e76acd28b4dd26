"""Docs that the code keeps true: the layer tables of docs/extending.md and README.md follow the ``LAYERS`` that
``tests/test_architecture.py`` enforces, every built-in study is named in docs/, and docs/analyze.md names every
analysis beyond the paper.

The expected order is read from ``test_architecture.LAYERS`` itself, so the docs and the checked layering
cannot drift apart: a new package goes into ``LAYERS`` and into both tables.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_architecture import LAYERS

from execstate.studies import builtin_studies

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXTENDING = DOCS / "extending.md"
README = ROOT / "README.md"
LAYER_ROWS = [(str(i), list(group)) for i, group in enumerate(LAYERS)]
"""What docs/extending.md's table must hold: (layer number, its modules in order) per row."""
STAGES = [module for group in LAYERS[2:-1] for module in group]
"""What the README's stage table must name in order: every layer between the base ones (``LAYERS[0]`` and
``LAYERS[1]``, which the README names beneath its table) and the command line (``LAYERS[-1]``, named there too)."""


def _table(text: str, header: str, where: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header line is ``header``, each as its stripped cells."""
    assert header in text, f"{where} has no table headed {header!r}"
    lines = text[text.index(header) :].splitlines()[2:]  # past the header and the --- line
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def _layer_rows(text: str) -> list[tuple[str, list[str]]]:
    """The layer table of ``text`` (docs/extending.md): (layer number, the modules it names in order) per row."""
    rows = _table(text, "| layer | modules | holds |", "docs/extending.md")
    return [(row[0], re.findall(r"`(execstate[\w.]*)`", row[1])) for row in rows]


def _stage_rows(text: str) -> list[str]:
    """The modules the stage table of ``text`` (README.md) names, one per row, in order."""
    named = []
    for row in _table(text, "| stage | folder | reads | writes |", "README.md"):
        folder = re.fullmatch(r"`execstate/([a-z_]+)`", row[1])
        assert folder, f"README stage table row {row[0]!r}: the folder cell is not `execstate/NAME`: {row[1]!r}"
        named.append(f"execstate.{folder.group(1)}")
    return named


def test_extending_md_lists_layers_row_by_row():
    """Row i of the table is layer i and names exactly ``LAYERS[i]``'s modules, in the same order."""
    found = _layer_rows(EXTENDING.read_text(encoding="utf-8"))
    assert found == LAYER_ROWS, (
        f"docs/extending.md's layer table has the rows {found} (layer number, modules); LAYERS in "
        f"tests/test_architecture.py needs {LAYER_ROWS}. Fix: one row per LAYERS entry, in order"
    )


def test_readme_stage_table_follows_layers():
    """The README's stage table has one row per package of ``STAGES``, in LAYERS order, and no other."""
    named = _stage_rows(README.read_text(encoding="utf-8"))
    assert named == STAGES, (
        f"README.md's stage table names {named}; LAYERS in tests/test_architecture.py has the stages {STAGES}. "
        "Fix: one row per stage, in LAYERS order"
    )


def _code_spans() -> dict[str, list[str]]:
    """Every inline code span (text between backticks) of each docs/*.md file, by file name."""
    return {p.name: re.findall(r"`([^`\n]+)`", p.read_text(encoding="utf-8")) for p in sorted(DOCS.glob("*.md"))}


@pytest.mark.parametrize("study", builtin_studies())
def test_every_builtin_study_is_named_in_docs(study):
    """A study ``--study`` builds is named as code (`classic`, `studies/classic/`, `--study classic`) in some doc."""
    word = re.compile(rf"(?<![\w-]){re.escape(study)}(?![\w-])")
    where = [name for name, spans in _code_spans().items() if any(word.search(span) for span in spans)]
    assert where, (
        f"the built-in study {study!r} (STUDIES in src/execstate/studies/__init__.py) is named in no docs/*.md. "
        f"Fix: describe it, with its name as code (`{study}`), in a doc such as docs/construct.md or its own page"
    )


def test_analyze_md_names_every_beyond_table():
    """docs/analyze.md's outputs table names each row of ``BEYOND_ROWS`` (the analyses beyond the paper) among
    the ``beyond`` keys of ``analysis.json``, in the list's order."""
    from execstate.analyze import BEYOND_ROWS

    rows = _table((DOCS / "analyze.md").read_text(encoding="utf-8"), "| path | holds |", "docs/analyze.md")
    beyond = next(row for row in rows if row[0] == "`analysis.json` `beyond`")
    keys = dict.fromkeys(re.findall(r"`([a-z_]+)`", beyond[1]))  # first mention: `truncation` (`truncation`, ...)
    named = [key for key in keys if key in {t.name for t in BEYOND_ROWS}]
    assert named == [t.name for t in BEYOND_ROWS], (
        f"docs/analyze.md's `beyond` row names {named} of BEYOND_ROWS {[t.name for t in BEYOND_ROWS]}. "
        "Fix: name each, in order, and describe it in its 'Beyond the paper' section"
    )


def _without_line(text: str, start: str) -> str:
    lines = text.splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(start)]
    assert len(kept) == len(lines) - 1, f"no single line starts with {start!r}"
    return "".join(kept)


def test_the_checks_catch_a_mismatch():
    """The table checks can fail: a layer row or a stage row taken out, or two rows swapped, is seen."""
    extending = EXTENDING.read_text(encoding="utf-8")
    assert _layer_rows(extending) == LAYER_ROWS
    assert _layer_rows(_without_line(extending, "| 3 |")) != LAYER_ROWS
    readme = README.read_text(encoding="utf-8")
    assert _stage_rows(readme) == STAGES
    assert _stage_rows(_without_line(readme, "| languages |")) != STAGES
    run = next(line for line in readme.splitlines(keepends=True) if line.startswith("| run |"))
    grade = next(line for line in readme.splitlines(keepends=True) if line.startswith("| grade |"))
    swapped = readme.replace(run + grade, grade + run)
    assert swapped != readme and _stage_rows(swapped) != STAGES
