"""The toy section ``output_length``: accuracy on the toy arm per setting, as analysis.json data, a table and a
paragraph of the report."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from execstate.analyze import Section, SectionInputs
from execstate.report import SectionView, table_section
from execstate.tables import make_table
from execstate_toy.arm import NAME

RIGHT = ("correct-valid", "correct-invalid")


def compute(inputs: SectionInputs) -> list[dict[str, Any]]:
    """One row per setting: the toy arm's cells, how many are right, and the share right."""
    cells: dict[str, list[bool]] = defaultdict(list)
    for grade in inputs.mine_grades:
        cells[grade.setting].append(grade.status in RIGHT)
    return [
        {"setting": setting, "cells": len(marks), "right": sum(marks), "accuracy": round(sum(marks) / len(marks), 4)}
        for setting, marks in sorted(cells.items())
    ]


def tables(data: Any, config: Any) -> list[Any]:
    return [make_table("output_length", "Output length: accuracy per setting", data)]


def html(data: Any, shown: Any, figures: Any, config: Any) -> str:
    cells = sum(row["cells"] for row in data)
    return table_section(shown[0]) + f'<p class="toy-section">{cells} output-length cells graded</p>'


SECTION = Section(
    "output_length",
    "Output length (a plug-in section)",
    compute,
    applies=lambda task: task.arm == NAME,
    view=SectionView(tables, html, inputs=lambda data: f"output-length cells {sum(r['cells'] for r in data)}"),
    description="accuracy on the toy arm per setting",
)
