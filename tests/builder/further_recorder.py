"""An independent recorder of a Python run, for the further arms' oracles: a plain ``sys.settrace`` tracer.

    python further_recorder.py PROGRAM LOOP_LINE K STEPS VAR [VAR ...] < input

runs PROGRAM (output silenced) and prints one JSON object: ``counts`` (line -> line events in the program's
own frames) and ``trace`` (the projection at the top of each of the first STEPS iterations of the loop
execution holding iteration K of the loop at LOOP_LINE, iterations counted over the whole run).

It knows nothing of execstate's instrumentation: the top of an iteration is a line event inside the loop's
body that directly follows a line event of its header in the same frame; a header event that follows a
line outside the body starts a new execution of the loop. (Good enough for programs whose loop body does
not share its header's line, which is every built-in case it is used on.)
"""

import ast
import json
import os
import sys


def main():
    path, loop_line, k, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    names = sys.argv[5:]
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    loop = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, (ast.For, ast.While)) and n.lineno == loop_line)
    body = range(loop.body[0].lineno, max(n.end_lineno for n in loop.body) + 1)
    code = compile(text, path, "exec")
    counts, last, state = {}, {}, {"count": 0, "mine": [], "done": None}

    def project(frame):
        scope = {**frame.f_globals, **frame.f_locals}
        return json.loads(json.dumps({n: scope[n] for n in names}))  # a copy: tuples become lists

    def local(frame, event, arg):
        if event == "line":
            line = frame.f_lineno
            counts[line] = counts.get(line, 0) + 1
            before = last.get(id(frame))
            if line == loop_line and before not in body:
                state["mine"] = []  # the loop is entered: a new execution
            if before == loop_line and line in body and state["done"] is None:
                state["count"] += 1
                if len(state["mine"]) < steps:
                    state["mine"].append(project(frame))
                if state["count"] == k:
                    state["done"] = list(state["mine"])
            last[id(frame)] = line
        elif event == "return":
            last.pop(id(frame), None)
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename == path else None

    devnull = os.open(os.devnull, os.O_WRONLY)
    real = os.dup(1)
    os.dup2(devnull, 1)
    sys.argv = [path]
    sys.settrace(calls)
    try:
        exec(code, {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})
    except SystemExit:
        pass
    finally:
        sys.settrace(None)
    out = {"counts": {str(line): n for line, n in sorted(counts.items())}, "trace": state["done"]}
    os.write(real, (json.dumps(out) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
