"""docs/protocol.md shows the C++ worked example's instrumented lines: they are what the instrumenter writes."""

from __future__ import annotations

import re
from pathlib import Path

from execstate.languages.cpp.instrument import instrument_cpp
from execstate.languages.cpp.syntax import resolve_loop_cpp

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "abc310_e_cpp" / "main.cpp"


def _excerpts() -> list[str]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text.split("### The worked example in C++", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```cpp\n(.*?)```", section, flags=re.DOTALL)


def test_the_documented_excerpts_are_the_instrumented_copies():
    source = EXAMPLE.read_text(encoding="utf-8")
    line = resolve_loop_cpp(source, None, "for (char ch : S) {")
    inside, post = _excerpts()
    for excerpt, mode in ((inside, "inside"), (post, "post")):
        copy = instrument_cpp(source, line, ("ans", "cnt1", "dp1"), mode, 502).source
        for part in excerpt.split("...\n"):  # "..." stands for unchanged clean lines
            assert part in copy, f"docs/protocol.md's {mode} excerpt differs from the instrumented copy"
