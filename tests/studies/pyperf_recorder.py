"""Run a pyperformance benchmark as the package ships it, driven by a program's main, and record a loop.

    python pyperf_recorder.py ORIGINAL MAIN RESULT [LOOP_LINE K VAR ...] < input

imports ORIGINAL (the package's unmodified ``run_benchmark.py``, under another name than ``__main__`` so its
pyperf runner does not start), defines the function of the file MAIN (a program's main, without its last
line, the call) in that module's namespace, and calls it with the input on stdin: its output is this
process's stdout. With LOOP_LINE (a line of ORIGINAL), a plain ``sys.settrace`` tracer over ORIGINAL's
frames writes to RESULT one JSON object: ``inside``, the projection VARs at the top of iteration K of that
loop (iterations counted over the whole run, import included), and ``post``, the projection where the loop
execution holding iteration K is left (the first line event outside the loop in its frame, or the frame's
return). It knows nothing of execstate's instrumentation: the top of an iteration is a line event in the
loop's body right after a line event of its header (any of the header's lines) in the same frame.
"""

import ast
import importlib.util
import json
import sys


def main():
    original, main_file, result = sys.argv[1], sys.argv[2], sys.argv[3]
    loop_line = int(sys.argv[4]) if len(sys.argv) > 4 else None
    k = int(sys.argv[5]) if loop_line is not None else 0
    names = sys.argv[6:]
    found = {"inside": None, "post": None, "iterations": 0}
    if loop_line is not None:
        with open(original, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        loop = next(n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While)) and n.lineno == loop_line)
        body = range(loop.body[0].lineno, max(n.end_lineno for n in loop.body) + 1)
        header = range(loop.lineno, loop.body[0].lineno)  # a header may span lines (nbody's for ... in pairs)
        whole = range(loop.lineno, loop.end_lineno + 1)
        last = {}
        holder = {}

        def project(frame):
            scope = {**frame.f_globals, **frame.f_locals}
            return json.loads(json.dumps({n: scope[n] for n in names}))  # a copy: tuples become lists

        def local(frame, event, arg):
            key = id(frame)
            if event == "line":
                line = frame.f_lineno
                before = last.get(key)
                if line in body and before in header:
                    found["iterations"] += 1
                    if found["iterations"] == k:
                        found["inside"] = project(frame)
                        holder["frame"] = frame
                elif holder.get("frame") is frame and line not in whole and found["post"] is None:
                    found["post"] = project(frame)
                last[key] = line
            elif event == "return":
                if holder.get("frame") is frame and found["post"] is None:
                    found["post"] = project(frame)
                last.pop(key, None)
            return local

        def calls(frame, event, arg):
            return local if frame.f_code.co_filename == original else None

        sys.settrace(calls)
    spec = importlib.util.spec_from_file_location("bm_original", original)
    module = importlib.util.module_from_spec(spec)
    sys.modules["bm_original"] = module
    spec.loader.exec_module(module)
    with open(main_file, encoding="utf-8") as fh:
        text = fh.read()
    exec(compile(text, main_file, "exec"), module.__dict__)
    module.execstate_main()
    sys.settrace(None)
    sys.stdout.flush()
    with open(result, "w", encoding="utf-8") as fh:
        json.dump(found, fh)


main()
