"""The loopback servers close their event loops when they stop, so no loop is left for the garbage collector.

A loop left to the collector inside a reference cycle may have its self-pipe socket finalized first; the loop's
own finalizer then raises, and on CPython 3.11 the traceback formatting of that error, run inside an unrelated
``ast.parse``, made it fail with "AST constructor recursion depth mismatch".
"""

from __future__ import annotations

import gc
import warnings

from execstate.testing.fake_anthropic import FakeAnthropic
from execstate.testing.loopback import ScriptedServer


def _unclosed_loop_warnings(make) -> list[str]:  # type: ignore[no-untyped-def]
    gc.collect()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        with make():
            pass
        gc.collect()
    return [str(w.message) for w in caught if "unclosed event loop" in str(w.message)]


def test_scripted_server_closes_its_loop() -> None:
    assert _unclosed_loop_warnings(ScriptedServer) == []


def test_vendor_server_closes_its_loop() -> None:
    assert _unclosed_loop_warnings(FakeAnthropic) == []
