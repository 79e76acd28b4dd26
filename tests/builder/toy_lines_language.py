"""A toy third language, "lines", added to the builder by this one file and one registry entry (``ENTRY``).

A program is one statement per line (``#`` starts a comment; indentation is free)::

    read n            # n = the next whitespace-separated integer of stdin
    set total 0       # total = 0 (a value is an integer or a variable)
    add total i       # total = total + i
    while i < n       # ... end: a loop
    end
    print total       # one line on stdout

Programs run in the sandbox under a small trusted interpreter (``INTERPRETER``, a stdlib-only
script written next to each run). Instrumentation inserts whole lines starting with ``@`` that
the interpreter obeys: ``@active yes|no`` (the guard: output silenced, checkpoints armed),
``@inside K VARS`` / ``@mark K`` + ``@post VARS`` (the checkpoints), ``@count`` + ``@report`` (K).
The interpreter measures what it runs: ``trace_length`` counts executed statements (``@`` lines
never count) and a statement's state is the number of bound variables; it writes the metrics on
stderr, which a program of this language cannot write.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from execstate.builder import BuildOptions
from execstate.errors import SpecProblem
from execstate.languages import CliOption, Endpoint, Instrumented, LanguageEntry, Variation, measurement_limits
from execstate.metrics import Measurement
from execstate.sandbox import Limits, SandboxResult, run_script, scrubbed_env

COUNT_MARKER = "__execstate_iterations__="
METRICS_MARKER = "__lines_metrics__="
VERSION = "lines 1"

INTERPRETER = r"""
import json, sys

def main(path, measure):
    prog, stack, jump = [], [], {}
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        words = line.split() if line.strip().startswith("@") else line.split("#", 1)[0].split()
        if words:
            prog.append((no, words))
    for i, (no, words) in enumerate(prog):
        if words[0] == "while":
            stack.append(i)
        elif words[0] == "end":
            jump[i] = stack.pop()
            jump[jump[i]] = i
    env, st = {}, {"count": 0, "seen": False, "active": False, "report": False, "trace": 0, "peak": 0, "load": 0}
    stdin = iter(sys.stdin.read().split())

    def finish():
        if st["report"]:
            sys.stderr.write("\n%s%d\n" % (COUNT, st["count"]))
        if measure:
            metrics = {k: st[k] for k in ("trace", "peak", "load")}
            sys.stderr.write("\n%s%s\n" % (METRICS, json.dumps(metrics)))
        sys.stdout.flush()
        raise SystemExit(0)

    def value(token, no):
        if token.lstrip("-").isdigit():
            return int(token)
        if token not in env:
            sys.stderr.write("unbound variable %r on line %d\n" % (token, no))
            raise SystemExit(1)
        return env[token]

    def emit(names, no):
        sys.stdout.write(json.dumps({n: value(n, no) for n in names}, separators=(",", ":")) + "\n")
        finish()

    pc = 0
    while pc < len(prog):
        no, (op, *args) = prog[pc]
        pc += 1
        if op == "@active":
            st["active"] = args[0] == "yes"
        elif op == "@report":
            st["report"] = True
        elif op in ("@count", "@inside", "@mark"):
            st["count"] += 1
            if op == "@inside" and st["active"] and st["count"] == int(args[0]):
                emit(args[1:], no)
            st["seen"] = st["seen"] or (op == "@mark" and st["count"] == int(args[0]))
        elif op == "@post":
            if st["active"] and st["seen"]:
                emit(args, no)
        else:
            st["trace"] += 1
            st["peak"], st["load"] = max(st["peak"], len(env)), st["load"] + len(env)
            if op == "read":
                env[args[0]] = int(next(stdin))
            elif op == "set":
                env[args[0]] = value(args[1], no)
            elif op == "add":
                env[args[0]] = value(args[0], no) + value(args[1], no)
            elif op == "print" and not st["active"]:
                sys.stdout.write("%d\n" % value(args[0], no))
            elif op == "while" and not value(args[0], no) < value(args[2], no):
                pc = jump[pc - 1] + 1
            elif op == "end":
                pc = jump[pc - 1]
    finish()

main(sys.argv[1], "--measure" in sys.argv[2:])
""".replace("COUNT", repr(COUNT_MARKER)).replace("METRICS", repr(METRICS_MARKER))

_STATEMENT = re.compile(r"(read \w+|set \w+ -?\w+|add \w+ -?\w+|while \w+ < -?\w+|end|print -?\w+)\Z")


def _statements(source: str) -> list[str]:
    return [line.split("#", 1)[0].strip() for line in source.split("\n")]


def _loop_end(statements: list[str], loop_line: int) -> int:
    """The line of the ``end`` that closes the loop on ``loop_line``."""
    depth = 0
    for number, statement in enumerate(statements[loop_line - 1 :], loop_line):
        depth += statement.startswith("while ") - (statement == "end")
        if depth == 0:
            return number
    raise SpecProblem("program", f"the loop on line {loop_line} has no `end`", "close it with a line `end`")


@dataclass(frozen=True)
class LinesLanguage:
    """The "lines" adapter: the builder's ``Language`` (construct's protocol is not needed to build a case)."""

    limits: Limits = field(default_factory=Limits)
    python: str = "python3"
    name: str = "lines"
    toolchain_key: str = "lines_interpreter"
    variations: tuple[Variation, ...] = (Variation(0, "run 1 of 2"), Variation(1, "run 2 of 2"))

    tag: str = ""
    """The ``--lines-tag`` of ``execstate build`` (``LinesOptions``): written to every task's meta when set."""

    @classmethod
    def from_options(cls, opts: BuildOptions) -> LinesLanguage:
        return cls(opts.limits, opts.python, tag=opts.options(LinesOptions).tag)

    def locate_loop(self, source: str, loop: int | None, loop_text: str | None, variables: tuple[str, ...]) -> int:
        lines = _statements(source)
        bad = next((i for i, s in enumerate(lines, 1) if s and not _STATEMENT.match(s)), None)
        if bad is not None:
            raise SpecProblem("program", f"line {bad} is not a statement", "write read/set/add/while/end/print")
        if loop_text is not None:
            hits = [i for i, s in enumerate(lines, 1) if s == loop_text]
            loop = hits[0] if len(hits) == 1 else None
        if loop is None or not lines[loop - 1].startswith("while "):
            raise SpecProblem("checkpoint.loop", "that is not the header of one while loop", "name a `while` line")
        words = {w for s in lines for w in s.split()[1:]}
        missing = [v for v in variables if v not in words]
        if missing:
            raise SpecProblem(
                "checkpoint.variables", f"no variable named {', '.join(missing)}", "name program variables"
            )
        return loop

    def instrument(
        self, source: str, loop_line: int, variables: tuple[str, ...], mode: str, k: int = 1, *, active: bool = True
    ) -> Instrumented:
        lines, end = source.split("\n"), _loop_end(_statements(source), loop_line)
        names = " ".join(variables)
        top = ["@report"] if mode == "count" else [f"@active {'yes' if active else 'no'}"]
        after = {"count": ["@count"], "inside": [f"@inside {k} {names}"], "post": [f"@mark {k}"]}[mode]
        inserts = {0: top, loop_line: after, **({end: [f"@post {names}"]} if mode == "post" else {})}
        out: list[str] = []
        inserted: set[int] = set()
        for i in range(len(lines) + 1):
            for directive in inserts.get(i, []):
                out.append(directive)
                inserted.add(len(out))
            if i < len(lines):
                out.append(lines[i])
        return Instrumented("\n".join(out), frozenset(inserted), "@")

    def disabled(self, inst: Instrumented) -> str:
        return inst.source.replace("@active yes", "@active no", 1)

    def _run(self, source: str, stdin: bytes, seed: int, limits: Limits, *extra: str, under: Path | None = None):
        """A fresh copy of ``source`` run by the interpreter, alone in a fresh directory (under ``under``)."""
        with tempfile.TemporaryDirectory(prefix="lines-", dir=under) as fresh:
            script = Path(fresh) / "interpreter.py"
            script.write_text(INTERPRETER, encoding="utf-8")
            return run_script(
                self.python,
                script,
                ["{cwd}/main.lines", *extra],
                stdin,
                limits,
                env=scrubbed_env(seed),
                files={"main.lines": source.encode("utf-8")},
            )

    def run(
        self, source: str, stdin: bytes, workdir: Path, *, seed: int = 0, args: tuple[str, ...] = ()
    ) -> SandboxResult:
        return self._run(source, stdin, seed, self.limits, under=workdir)

    def iterations(self, counted: SandboxResult) -> int | None:
        found = re.findall(rb"\n" + re.escape(COUNT_MARKER.encode()) + rb"(\d+)\n", counted.stderr)
        return int(found[-1]) if counted.ok and found else None

    def checkpoint_fault(self, stderr: bytes) -> tuple[Any, str] | None:
        err = stderr.decode("utf-8", "replace").strip()
        return ("unbound", err.splitlines()[-1]) if "unbound variable" in err else None

    def measure(self, source: str, stdin: bytes, endpoint: Endpoint | None, *, state: bool) -> Measurement:
        inst = endpoint.inst if endpoint is not None else None
        res = self._run(inst.source if inst else source, stdin, 0, measurement_limits(self.limits, 2.0), "--measure")
        found = re.findall(rb"\n" + re.escape(METRICS_MARKER.encode()) + rb"(.*)\n", res.stderr)
        if not res.ok or not found:
            return Measurement(
                res.status if not res.ok else "error", res.describe(), None, None, None, VERSION, res.stdout
            )
        m = json.loads(found[-1])
        peak, load = (m["peak"], m["load"]) if state else (None, None)
        return Measurement("ok", "", m["trace"], peak, load, VERSION, res.stdout)

    def cyclomatic(self, source: str) -> int | None:
        return 1 + sum(s.startswith("while ") for s in _statements(source))

    def task_meta(self, measured: Measurement) -> dict[str, Any]:
        return {self.toolchain_key: measured.toolchain, **({"lines_tag": self.tag} if self.tag else {})}

    def build_meta(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class LinesOptions:
    """The adapter's own options (``BuildOptions.language_options``), from its command-line option."""

    tag: str = ""

    @classmethod
    def from_cli(cls, values: dict[str, str]) -> LinesOptions:
        return cls(tag=values["lines_tag"])


ENTRY = LanguageEntry(
    "lines",
    LinesLanguage.from_options,
    program="main.lines",
    trace_unit="statements executed (the inserted @ lines never count)",
    cli_options=(CliOption("--lines-tag", "", "a tag the lines adapter writes to every task's meta"),),
    options_from_cli=LinesOptions.from_cli,
)
"""The one registry entry: ``execstate.languages.register_language(ENTRY)``."""
