"""execstate.view: ``execstate view OUT...``, a local read-only viewer of graded runs (docs/view.md).

Each run folder's records are loaded once into a DuckDB cache beside them (``OUT/.execstate-view.duckdb``,
rebuilt when a record file changes: ``open_cache``); the list's filters, counts and pages are SQL queries with
bound parameters (``ViewStore``); one cell is shown whole (``cell_view``: the program with its checkpoint, the
prompt as sent, the answer and reasoning, the parsed answer against the oracle, the grade, usage and cost, the
case's other cells, a variant's or fresh task's original) beside its true trace, recorded on demand in the sandbox
(``true_trace``). ``start_server`` serves the page on 127.0.0.1; ``write_static`` writes it as files.
"""

from execstate.view._cache import BANDS, CACHE_VERSION, grade_group, open_cache, trace_band
from execstate.view._cell import cell_view, compare, highlight, original_case
from execstate.view._folders import CACHE_NAME, RunFolder, run_folder
from execstate.view._server import CSP, DEFAULT_PORT, ViewServer, page_html, start_server
from execstate.view._static import STATIC_CHUNK, write_static
from execstate.view._store import FACETS, PAGE_SIZE, SORTS, ViewStore
from execstate.view._trace import TRACE_MAX_EVENTS, TRACE_STEP_CAP, true_trace
from execstate.view._viewer import QUERY_KEYS, Viewer

__all__ = [
    "BANDS",
    "CACHE_NAME",
    "CACHE_VERSION",
    "CSP",
    "DEFAULT_PORT",
    "FACETS",
    "PAGE_SIZE",
    "QUERY_KEYS",
    "SORTS",
    "STATIC_CHUNK",
    "TRACE_MAX_EVENTS",
    "TRACE_STEP_CAP",
    "RunFolder",
    "ViewServer",
    "ViewStore",
    "Viewer",
    "cell_view",
    "compare",
    "grade_group",
    "highlight",
    "open_cache",
    "original_case",
    "page_html",
    "run_folder",
    "start_server",
    "trace_band",
    "true_trace",
    "write_static",
]
