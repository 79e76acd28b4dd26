"""Interim trace-length measurement (settrace opcode counting) until the metrics stage (issue 3) lands; state metrics and cyclomatic are not measured here (None)."""
import sys, json, os, tempfile
from dataclasses import dataclass
from execstate.sandbox import run, Limits, scrubbed_env

@dataclass(frozen=True)
class Measurement:
    status: str; detail: str; trace_length: int|None; peak_state: int|None; state_load: int|None; python: str; stdout: bytes

PROBE = r'''
import sys, os, json
src_path, fn, excl, out_path = sys.argv[1], sys.argv[2], set(json.loads(sys.argv[3])), sys.argv[4]
src = open(src_path).read()
code = compile(src, fn, "exec")
n = [0]
def local(frame, event, arg):
    frame.f_trace_opcodes = True
    if event == "opcode" and frame.f_lineno not in excl: n[0] += 1
    return local
def glob(frame, event, arg):
    if frame.f_code.co_filename == fn:
        frame.f_trace_opcodes = True
        return local
    return None
real_exit = os._exit
def done():
    sys.settrace(None)
    with open(out_path, "w") as f: f.write(json.dumps({"trace_length": n[0], "python": "%d.%d.%d" % sys.version_info[:3]}))
def patched(code_):
    done(); real_exit(code_)
os._exit = patched
sys.settrace(glob)
try:
    exec(code, {"__name__": "__main__"})
except SystemExit:
    pass
done()
'''
def measure(source, stdin, *, filename="main.py", python=None, exclude_lines=frozenset(), hidden_prefix=None, state=True, timeout_s=60.0):
    with tempfile.TemporaryDirectory() as d:
        open(f"{d}/p.py","w").write(PROBE); open(f"{d}/s.py","w").write(source)
        r = run([python or sys.executable, f"{d}/p.py", f"{d}/s.py", filename, json.dumps(sorted(exclude_lines)), f"{d}/out.json"], stdin, Limits(wall_s=timeout_s, cpu_s=timeout_s))
        if r.status != "ok": return Measurement(r.status, r.describe(), None, None, None, "", r.stdout)
        o = json.load(open(f"{d}/out.json"))
        return Measurement("ok", "", o["trace_length"], None, None, o["python"], r.stdout)

def cyclomatic(source): return None
