"""``execstate view --static DIR``: the same viewer as files that open from ``file://``, without a server.

``DIR/index.html`` is the page; ``DIR/assets/`` its script and style; ``DIR/data/meta.js`` the filter menus and
``DIR/data/index.js`` one compact row per cell (the list's columns); ``DIR/data/cells-<run>-<n>.js`` the cells
whole, ``STATIC_CHUNK`` per file, loaded when a cell is opened. The data are JavaScript files that call the page
(``window.ES_STATIC``, ``ES_CHUNK(...)``), because a page opened from ``file://`` may load scripts beside it but
may not ``fetch`` files. Limits of the static mode: the page filters, counts and sorts by scanning the index
in the browser (fine for tens of thousands of cells; the server's DuckDB queries are the way for large runs), and
a true trace is shown only when the run's cache had it recorded (open the cell once in ``execstate view``
first); every other answer is the server's, byte for byte the same JSON.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from execstate.view._server import ASSETS, page_html
from execstate.view._store import LIST_COLUMNS
from execstate.view._viewer import Viewer

STATIC_CHUNK = 100
"""Cells per data file of a static export."""
STATIC_CSP = (
    "default-src 'none'; script-src 'self' file:; style-src 'self' file:; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'"
)
"""The static page's Content-Security-Policy (a meta tag): its own scripts and style only, from its folder."""


def _js(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=str)


def write_static(viewer: Viewer, out_dir: Path | str, *, chunk: int = STATIC_CHUNK, log: Any = None) -> Path:
    """Write the static viewer of ``viewer``'s runs into ``out_dir``; return its ``index.html``.

    ``out_dir`` must not be inside a run folder (the viewer writes nothing there but its cache)."""
    from execstate.errors import UsageError

    out = Path(out_dir).resolve()
    for folder in viewer.folders:
        if out == folder.root or folder.root in out.parents:
            raise UsageError(f"{out} is inside the run folder {folder.root}, which the viewer never writes into. "
                             "Fix: pass a --static folder outside the run folders")  # fmt: skip
    (out / "assets").mkdir(parents=True, exist_ok=True)
    (out / "data").mkdir(exist_ok=True)
    for name in ("viewer.js", "viewer.css"):
        shutil.copyfile(ASSETS / name, out / "assets" / name)
    meta = viewer.meta()
    meta["runs"] = [{"name": r["name"]} for r in meta["runs"]]  # no paths of this machine in a shared export
    head = {"meta": meta, "columns": list(LIST_COLUMNS), "rows": [], "chunk": chunk}
    (out / "data" / "meta.js").write_text(f"window.ES_STATIC = {_js(head)};\n", encoding="utf-8")
    with open(out / "data" / "index.js", "w", encoding="utf-8") as index:
        index.write("window.ES_STATIC.rows = [\n")
        for run in range(len(viewer.folders)):
            rows = viewer.store.all_rows(run, LIST_COLUMNS)
            for row in rows:
                index.write(_js(list(row)) + ",\n")
            _write_cells(viewer, run, [r[1] for r in rows], out / "data", chunk, log)
        index.write("];\n")
    scripts = '<script src="data/meta.js"></script>\n<script src="data/index.js"></script>\n'
    html = out / "index.html"
    html.write_text(page_html("static", scripts, STATIC_CSP), encoding="utf-8")
    return html


def _write_cells(viewer: Viewer, run: int, cells: list[int], data: Path, chunk: int, log: Any) -> None:
    groups: dict[int, list[int]] = {}
    for cell in cells:
        groups.setdefault(cell // chunk, []).append(cell)
    for n, members in sorted(groups.items()):
        whole = {}
        for cell in members:
            view = viewer.cell(run, cell)
            view["trace"] = viewer.store.trace(run, view["task"]["task_id"])
            whole[str(cell)] = view
        name = f"{run}-{n}"
        (data / f"cells-{name}.js").write_text(f"ES_CHUNK({_js(name)}, {_js(whole)});\n", encoding="utf-8")
    if log:
        log(f"wrote {len(cells)} cells of run {run} in {len(groups)} files")
