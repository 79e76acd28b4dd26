"""The event sources behind trace_length agree with each other on 3.12+, and the 3.12.1 trap is real.

On 3.12+ the probes count sys.monitoring INSTRUCTION events. settrace opcode
events are built on the same machinery there; this test checks that both count
the same instructions for a program with calls, loops, generators and
exceptions, and records the 3.12.1 trap: the first settrace session of a
process yields no opcode events at all, whether ``f_trace_opcodes`` is set in
the ``call`` or the ``line`` event (found here; why the probes do not rely on
settrace opcode events on 3.12+).
"""

from __future__ import annotations

import json
import subprocess

import pytest
from _metrics_helpers import interpreter_params

SCRIPT = r'''
import json, sys
SOURCE = """
def g(k):
    for j in range(k):
        yield j
def f(x):
    try:
        return [v for v in g(x)][x]
    except IndexError:
        return -1
total = 0
for i in range(6):
    total += f(i)
"""
code = compile(SOURCE, "main.py", "exec")

def settrace_count(set_at):
    counts = [0]
    def local(frame, event, arg):
        if event in set_at:
            frame.f_trace_opcodes = True
        if event == "opcode":
            counts[0] += 1
        return local
    def glob(frame, event, arg):
        if frame.f_code.co_filename != "main.py":
            return None
        return local(frame, event, arg)
    sys.settrace(glob)
    exec(code, {"__name__": "__main__"})
    sys.settrace(None)
    return counts[0]

def monitoring_count():
    mon, counts = sys.monitoring, [0]
    def on_instruction(c, offset):
        if c.co_filename != "main.py":
            return mon.DISABLE
        counts[0] += 1
    mon.use_tool_id(5, "definitions-test")
    mon.register_callback(5, mon.events.INSTRUCTION, on_instruction)
    mon.set_events(5, mon.events.INSTRUCTION)
    exec(code, {"__name__": "__main__"})
    mon.set_events(5, 0)
    return counts[0]

print(json.dumps({"first": settrace_count({"line"}), "second": settrace_count({"call", "line"}),
                  "monitoring": monitoring_count() if hasattr(sys, "monitoring") else None, "version": list(sys.version_info[:3])}))
'''


@pytest.mark.parametrize("python", interpreter_params())
def test_opcode_events_equal_instruction_events_on_312_plus(python):
    out = json.loads(subprocess.run([python, "-c", SCRIPT], capture_output=True, text=True, check=True).stdout)
    if out["version"][:2] == [3, 11]:
        pytest.skip("3.11 has no sys.monitoring; its probes count settrace opcode events")
    assert out["second"] == out["monitoring"] > 0
    if out["version"] == [3, 12, 1]:
        assert out["first"] == 0  # the trap
    else:
        assert out["first"] == out["monitoring"]
