"""A synthetic graded run folder, laid out and encoded as ``execstate pipeline`` writes one, for viewers and exports.

``write_synthetic_run(OUT, cells=N, seed=S)`` writes::

    OUT/build/tasks.jsonl      Task lines (schema 2)
    OUT/build/manifest.json    BuildManifest
    OUT/build/excluded.jsonl   empty: every synthetic case is admitted
    OUT/run/responses.jsonl    Response lines, one per cell (task x setting x sample)
    OUT/run/run_manifest.json  RunManifest: the four SETTINGS, one invocation with SAMPLES samples
    OUT/grades.jsonl           Grade lines, one per cell, in the order of the responses

Every line is a valid record of ``execstate.records`` and the run plans exactly the cells written
(``execstate.grade.load_run_plan(OUT/run)``). The tasks cover every built-in arm of the arm registry, three
languages' worth of studies (Python case studies, a C++ study, CRUXEval items), task kinds ``published``,
``fresh`` (``<case>~fresh``, after its published twin) and ``variant`` (``<case>~rename``, after its original),
loop traces and line counts. The programs are real: a Python case's clean source, run on its input, prints
its oracle, and its instrumented sources print its checkpoint states (the oracles are computed here by a
simulation of the same program, and a test runs some of them). Grades are what ``execstate.grade`` gives
the response texts for every rule it decides without running anything (right, wrong, an invalid envelope,
no response); executed rules (``python-call``, ``program-input``) carry reasons in the grader's wording,
among them ``seed-dependent`` verdicts. Responses carry usage, latency, timestamps, reasoning text, batch
ids and cache flags; the manifest carries prices. Nothing here is a model's result.

``hostile=True`` adds cases whose program, input, answers and reasoning hold ``</script>``, HTML, an
``<img onerror>``, ``javascript:`` URLs, control characters (no NUL), a 100,000-character input line and
non-ASCII text: content a viewer must show as text.

The output is a function of ``(cells, seed, hostile)`` alone: two calls write the same bytes, except
``run_manifest.json``'s ``tasks_file`` (the absolute path of ``OUT/build/tasks.jsonl``). Lines are built
from small dicts and written as they are made, so 100,000 cells take a few seconds.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from execstate import __version__
from execstate.arms import arm_spec
from execstate.errors import UsageError, output_dir
from execstate.records import (
    RUN_MANIFEST_NAME,
    RUN_RESPONSES_NAME,
    SCHEMA_VERSION,
    TASK_SCHEMA_VERSION,
    BuildManifest,
    RunInvocation,
    RunManifest,
)
from execstate.run import Setting

SAMPLES = 2
"""Samples per task and setting."""


def _setting(name: str, provider: str, model: str | None, prices: tuple[float, float] | None, **keys: Any) -> Setting:
    """One setting of the run: a made-up endpoint (its key variable is never read) priced per million tokens."""
    if model is not None:
        keys.update(model=model, api_key_env=f"{name.split('-')[0].upper()}_API_KEY")
    if prices is not None:
        keys.update(price_input_per_mtok=prices[0], price_output_per_mtok=prices[1])
    return Setting(name=name, provider=provider, **keys)


SETTINGS: tuple[Setting, ...] = (
    _setting(
        "alpha-high", "openai", "alpha-1", (1.25, 10.0), base_url="https://alpha.example.invalid/v1", reasoning="high"
    ),
    _setting("beta-off", "anthropic", "beta-2", (3.0, 15.0)),
    _setting("gamma-batch", "gemini", "gemini-2.5-flash", (0.3, 2.5), reasoning="low", batch=True),
    _setting("delta-synthetic", "synthetic", None, None, synthetic_skill=2),
)
"""The run's settings (no key is ever read: the responses are made up here)."""
SKILL: dict[str, float] = {"alpha-high": 0.75, "beta-off": 0.55, "gamma-batch": 0.45, "delta-synthetic": 0.3}
"""Setting -> chance that a completed response is right."""
NO_RESPONSE_RATE = 0.02
"""Chance that a cell has no response (every attempt failed)."""
SEED_DEPENDENT_RATE = 0.25
"""Chance that a wrong answer of an executed rule is wrong under only some hash seeds (``seed-dependent``)."""
TRACE_CAP = 8
"""``meta.trace_cap`` of every loop trace."""
_quote: Callable[[str], str] = json.encoder.encode_basestring
"""A JSON string of ``ensure_ascii=False`` (C-accelerated), as ``json.dumps`` writes it."""
_HOSTILE_PREFIX = "classic/hostile_"
_INPUT_QUESTION = "Input prediction: give a standard input on which this program prints exactly the following output:"
_SEED_DEPENDENT = "seed-dependent: correct under PYTHONHASHSEED 5, 6; wrong under PYTHONHASHSEED 0, 1, 2, 3, 4, 7"
"""How the grader's reason of a seed-dependent verdict starts (docs/grade.md)."""
BUILD_DIR, RUN_DIR, GRADES_NAME = "build", "run", "grades.jsonl"
TASKS_NAME = "tasks.jsonl"

_PY_STUDIES = ("classic", "lcb_python", "codecontests_py")
_CPP_STUDY, _CRUX_STUDY = "lcb_cpp", "cruxeval"
_NAMES = {"walk": "walk", "total": "total", "best": "best", "i": "i", "x": "x"}
_RENAMED = {"walk": "stride", "total": "acc", "best": "peak", "i": "idx", "x": "val"}
_PYTHON_META = {"hash_seeds": [0, 1, 2], "instrument_prefix": "_es_", "python": "3.11.7", "spec": "case.toml"}
_CPP_META = {
    "hash_seeds": [0, 1, 2],
    "instrument_prefix": "_es_",
    "compiler": "g++ (Debian 12.2.0-14+deb12u1) 12.2.0",
    "flags": ["-std=c++20", "-O2"],
    "spec": "case.toml",
}
_HOSTILE_TEXT = (
    '</script><script>alert("input")</script><img src=x onerror=alert(1)>'
    '<a href="javascript:alert(2)">link</a>\x01\x07\x1b[31m\x7f\u202e ünïcødé 漢字 🙂 <!-- ]]> '
)
"""The hostile input line's repeated unit: markup, script, a JS URL, control characters, bidi and non-ASCII."""
_MARK = "</script><img src=x onerror=alert(7)>"
"""What the hostile program prints before its last characters."""
HOSTILE_LINE = 100_000
"""Characters of the hostile long input's text line."""
_HOSTILE_REASONING = (
    "<b>I trace it</b></script><script>alert('reasoning')</script><img src=x onerror=alert(3)> "
    '<a href="javascript:alert(4)">click</a> \x1b[2J\u202eüñí 漢字\n'
)

_HEADER = """\
# --- execstate checkpoint support (inserted) ---
# The program's own output is silenced. At the checkpoint below, the selected
# variables are printed as one line of JSON and the program stops.
import collections as _es_collections, json as _es_json, os as _es_os
_es_active = True
_es_count = [0]  # iterations of the selected loop so far, over the whole run
_es_trace = []  # a loop trace's states, in iteration order
if _es_active:
    _es_stdout = _es_os.dup(1)
    _es_os.dup2(_es_os.open(_es_os.devnull, _es_os.O_WRONLY), 1)
def _es_plain(value):
    # JSON values only: tuples and deques become lists; anything else is refused.
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is float and value == value and abs(value) != float('inf'):
        return value
    if isinstance(value, (list, tuple, _es_collections.deque)):
        return [_es_plain(item) for item in value]
    if isinstance(value, dict) and all(type(key) is str for key in value):
        return {key: _es_plain(item) for key, item in value.items()}
    raise TypeError('execstate: a checkpoint value of type %s is not JSON-representable' % type(value).__name__)
def _es_emit(state):
    line = _es_json.dumps(_es_plain(state), ensure_ascii=False, separators=(',', ':'), allow_nan=False)
    _es_os.write(_es_stdout, (line + '\\n').encode('utf-8'))
    _es_os._exit(0)
# --- end of execstate checkpoint support ---
"""

_PY_WALK = '''\
"""Synthetic program {case}: a modular walk that sums the multiples of three it meets."""


def {walk}(n):
    {total} = 0
    {best} = 0
{pre}    for {i} in range(1, n + 1):
{probe}        {x} = ({i} * {a} + {b}) % {m}
        if {x} % 3 == 0:
            {total} += {x}
        {best} = max({best}, {x})
{post}    return {total}, {best}


def main():
    n = int(input())
    {total}, {best} = {walk}(n)
    print({total}, {best})


if __name__ == "__main__":
    main()
'''

_PY_HOSTILE = '''\
"""Synthetic hostile program {case}: </script><script>alert("source")</script> <img src=x onerror=alert(5)>."""
# <a href="javascript:alert(6)">a JS URL in a comment</a> \u202e ünïcødé 漢字 🙂
MARK = "{mark}"


def {walk}(text, n):
    {total} = 0
    {best} = ""
{pre}    for {i} in range(1, n + 1):
{probe}        {x} = text[{i} % len(text)]
        if {x} == "<":
            {total} += 1
        {best} = ({best} + {x})[-{a}:]
{post}    return {total}, {best}


def main():
    text = input()
    n = int(input())
    {total}, {best} = {walk}(text, n)
    print(MARK + {best}, {total})


if __name__ == "__main__":
    main()
'''

_CPP_WALK = """\
// Synthetic program {case}: a modular walk that sums the multiples of three it meets.
#include <algorithm>
#include <cstdlib>
#include <iostream>

int main() {{
    long long n;
    std::cin >> n;
    long long total = 0, best = 0;
    for (long long i = 1; i <= n; ++i) {{
{probe}        long long x = (i * {a} + {b}) % {m};
        if (x % 3 == 0) total += x;
        best = std::max(best, x);
    }}
{post}    std::cout << total << " " << best << "\\n";
    return 0;
}}
"""

_CRUX = """\
def f(xs):
    out = []
    for x in xs:
        if x % {a} == {b}:
            out.append(x * {c})
    return out
"""


class _Run(NamedTuple):
    """What a simulated run gives: states ``(i, total, best)`` by iteration, the final one, the marked line's count."""

    states: dict[int, tuple[int, Any, Any]]
    final: tuple[int, Any, Any]
    taken: int


@dataclass(frozen=True)
class _Program:
    """One case's program family and constants, with a simulation that gives what it prints and its states."""

    case_id: str
    study: str
    language: str
    a: int
    b: int
    m: int
    short: str
    long: str
    hostile: bool = False
    names: dict[str, str] = field(default_factory=lambda: dict(_NAMES))

    def iterations(self, stdin: str) -> int:
        """How many times the loop runs on ``stdin`` (its ``n``)."""
        return int(stdin.split("\n")[1] if self.hostile else stdin.split()[0])

    def run(self, stdin: str, wanted: frozenset[int] = frozenset()) -> _Run:
        """The program's run on ``stdin``: the states at the top of the ``wanted`` iterations, the final one,
        and how many times the marked line (the one adding to the total) ran."""
        n = self.iterations(stdin)
        states: dict[int, tuple[int, Any, Any]] = {}
        taken = 0
        if self.hostile:
            text = stdin.split("\n")[0]
            seen = ""
            for i in range(1, n + 1):
                if i in wanted:
                    states[i] = (i, taken, seen)
                ch = text[i % len(text)]
                taken += ch == "<"
                seen = (seen + ch)[-self.a :]
            return _Run(states, (n, taken, seen), taken)
        a, b, m = self.a, self.b, self.m
        total = best = 0
        for i in range(1, n + 1):
            if i in wanted:
                states[i] = (i, total, best)
            x = (i * a + b) % m
            if x % 3 == 0:
                total += x
                taken += 1
            if x > best:
                best = x
        return _Run(states, (n, total, best), taken)

    def state(self, i: int, total: Any, best: Any) -> str:
        """A checkpoint's JSON line, as the instrumented program prints it (no newline)."""
        n = self.names
        values = {n["i"]: i, n["total"]: total, n["best"]: best}
        return json.dumps(values, ensure_ascii=False, separators=(",", ":"))

    def output(self, total: Any, best: Any) -> str:
        """What the clean program prints at its end."""
        if self.hostile:
            return f"{_MARK}{best} {total}\n"
        return f"{total} {best}\n"

    def source(self, probe: str = "", pre: str = "", post: str = "") -> str:
        """The program text; ``probe``/``pre``/``post``: instrumentation at the loop body's top, before, after it."""
        template = _CPP_WALK if self.language == "cpp" else (_PY_HOSTILE if self.hostile else _PY_WALK)
        return template.format(
            case=self.case_id, mark=_MARK, a=self.a, b=self.b, m=self.m, probe=probe, pre=pre, post=post, **self.names
        )

    def variables(self) -> list[str]:
        """The projected variables, in spec order."""
        return [self.names["i"], self.names["total"], self.names["best"]]


def _emit_dict(program: _Program) -> str:
    return "{" + ", ".join(f'"{v}": {v}' for v in program.variables()) + "}"


def _instrumented(program: _Program, arm: str, k: int, m: int) -> str:
    """The source a state arm or a loop trace shows: the clean program with the checkpoint inserted."""
    pad = " " * 8
    if program.language == "cpp":
        fields = ' << ",\\"total\\":" << total << ",\\"best\\":" << best << "}\\n";\n'
        emit = f'{pad}    std::cout << "{{\\"i\\":" << i{fields}'
        if arm == "post-loop-state":  # after the loop its variable is out of scope and has run to n
            after = f'    std::cout << "{{\\"i\\":" << n{fields}    std::exit(0);\n'
            return _HEADER_CPP + program.source(post=after)
        probe = f"{pad}if (++_es_count == {k}) {{\n{emit}{pad}    std::exit(0);\n{pad}}}\n"
        return _HEADER_CPP + program.source(probe=probe)
    state = _emit_dict(program)
    count = f"{pad}_es_count[0] += 1\n"
    if arm == "inside-loop-state":
        probe = f"{count}{pad}if _es_active and _es_count[0] == {k}:\n{pad}    _es_emit({state})\n"
        return _HEADER + program.source(probe=probe)
    if arm == "loop-trace":
        probe = (
            f"{count}{pad}if _es_count[0] <= {m}:\n{pad}    _es_trace.append({state})\n"
            f"{pad}if _es_active and _es_count[0] == {m}:\n{pad}    _es_emit(_es_trace)\n"
        )
        return _HEADER + program.source(probe=probe)
    pre = f"    _es_seen = False  # becomes True in the loop run that reaches iteration {k}\n"
    probe = f"{count}{pad}if _es_count[0] == {k}:\n{pad}    _es_seen = True\n"
    post = f"    if _es_active and _es_seen:\n        _es_emit({state})\n"
    return _HEADER + program.source(probe=probe, pre=pre, post=post)


_HEADER_CPP = "// --- execstate checkpoint support (inserted) ---\nstatic long long _es_count = 0;\n// ---\n"


def _line_of(source: str, needle: str) -> int:
    """The 1-based number of the first line of ``source`` containing ``needle``."""
    return next(n for n, line in enumerate(source.split("\n"), 1) if needle in line)


def _metrics(trace: int, rng: random.Random) -> dict[str, Any]:
    peak = rng.randint(3, 40)
    return {"trace_length": trace, "peak_state": peak, "state_load": peak * trace // 3, "cyclomatic": rng.randint(2, 9)}


def _task(
    program: _Program,
    arm: str,
    source: str,
    stdin: str,
    oracle: str,
    meta: dict[str, Any],
    metrics: dict[str, Any],
    rule: str = "json-or-tokens",
) -> dict[str, Any]:
    spec = arm_spec(arm)
    clean = program.source()
    return {
        "schema_version": TASK_SCHEMA_VERSION,
        "task_id": f"{program.case_id}/{arm}",
        "case_id": program.case_id,
        "study": program.study,
        "language": program.language,
        "arm": arm,
        "source": source,
        "input": stdin,
        "oracle": oracle,
        "answer_kind": spec.answer_kind,
        "grading_rule": rule,
        "source_sha256": hashlib.sha256(clean.encode()).hexdigest(),
        "metrics": metrics,
        "meta": meta,
    }


def _case_tasks(program: _Program, rng: random.Random, extra: dict[str, Any], input_arm: bool) -> list[dict[str, Any]]:
    """Every case arm of one program (the paper's four, a loop trace and a line count for Python, the input
    arm when ``input_arm``), with the meta keys the builder writes; ``extra`` joins every task's meta."""
    big_k = program.iterations(program.long)
    k = big_k // 2 + 1
    m = min(TRACE_CAP, big_k)
    short = program.run(program.short)
    long = program.run(program.long, frozenset((*range(1, m + 1), *range(k - 3, k + 4))))
    clean = program.source()
    loop_needle = "for (" if program.language == "cpp" else "    for "
    loop_line = _line_of(clean, loop_needle)
    short_out, long_out = program.output(*short.final[1:]), program.output(*long.final[1:])
    trace_short, trace_long = 6 * program.iterations(program.short) + 15, 6 * big_k + 15
    base = {
        "k": k,
        "K": big_k,
        "loop_line": loop_line,
        "loop_header": clean.split("\n")[loop_line - 1].strip(),
        "variables": program.variables(),
        "trace_short": trace_short,
        "trace_long": trace_long,
        **(_CPP_META if program.language == "cpp" else _PYTHON_META),
    }
    short_metrics, long_metrics = _metrics(trace_short, rng), _metrics(trace_long, rng)
    neighbours = [
        {"d": d, "iteration": k + d, "state": program.state(*long.states[k + d])}
        for d in (-3, -2, -1, 1, 2, 3)
        if 1 <= k + d <= big_k
    ]
    inside_metrics = {**long_metrics, "trace_length": 6 * k + 9}
    tasks = [
        _task(
            program,
            "short-trace-final",
            clean,
            program.short,
            short_out,
            {**base, "neighbours": [{"input": "long", "output": long_out}], **extra},
            short_metrics,
        ),
        _task(
            program,
            "long-trace-final",
            clean,
            program.long,
            long_out,
            {**base, "neighbours": [{"input": "short", "output": short_out}], **extra},
            long_metrics,
        ),
        _task(
            program,
            "inside-loop-state",
            _instrumented(program, "inside-loop-state", k, m),
            program.long,
            program.state(*long.states[k]) + "\n",
            {**base, "neighbours": neighbours, **extra},
            inside_metrics,
        ),
        _task(
            program,
            "post-loop-state",
            _instrumented(program, "post-loop-state", k, m),
            program.long,
            program.state(*long.final) + "\n",
            {**base, "neighbours": [], **extra},
            long_metrics,
        ),
    ]
    if program.language == "python":
        trace = "[" + ",".join(program.state(*long.states[i]) for i in range(1, m + 1)) + "]\n"
        tasks.append(
            _task(
                program,
                "loop-trace",
                _instrumented(program, "loop-trace", k, m),
                program.long,
                trace,
                {**base, "trace_steps": m, "trace_cap": TRACE_CAP, **extra},
                {**long_metrics, "trace_length": 6 * m + 9},
            )
        )
        tasks.append(_line_count(program, base, short, short_metrics, extra))
    if input_arm:
        lines = [_INPUT_QUESTION, *short_out[:-1].split("\n")]
        shown = clean.rstrip("\n") + "\n\n" + "".join(f"# {line}".rstrip() + "\n" for line in lines)
        meta = {**base, "output": short_out, "output_rule": "json-or-tokens", "shown_input": "", **extra}
        tasks.append(
            _task(program, "short-trace-input", shown, "", program.short, meta, short_metrics, rule="program-input")
        )
    return tasks


def _line_count(
    program: _Program, base: dict[str, Any], short: _Run, metrics: dict[str, Any], extra: dict[str, Any]
) -> dict[str, Any]:
    """The line-count task: how many times the line adding to the total runs on the short input."""
    clean = program.source()
    total = program.names["total"]
    line = _line_of(clean, f"{total} += ")
    taken, evaluated = short.taken, short.final[0]
    count = {
        "line": line,
        "text": clean.split("\n")[line - 1].strip(),
        "branch_line": line - 1,
        "arm": "then",
        "taken": taken,
        "evaluated": evaluated,
        "imbalance": round(abs(2 * taken - evaluated) / evaluated, 6) if evaluated else 0.0,
        "loop_iterations": evaluated,
    }
    shown = clean.rstrip("\n") + f"\n\n# Line count: how many times does line {line} run on the input?\n"
    return _task(
        program,
        "line-count",
        shown,
        program.short,
        str(taken),
        {**base, "line_count": count, **extra},
        metrics,
        rule="integer",
    )


def _crux_tasks(index: int, rng: random.Random) -> list[dict[str, Any]]:
    """A CRUXEval-shaped item: its function-output and function-input tasks."""
    a, b, c = rng.randint(2, 5), 0, rng.randint(2, 9)
    b = rng.randint(0, a - 1)
    xs = [rng.randint(-20, 60) for _ in range(rng.randint(2, 7))] + [a * rng.randint(1, 9) + b]  # one kept
    source = _CRUX.format(a=a, b=b, c=c)
    result = repr([x * c for x in xs if x % a == b])
    arguments, item = repr(xs), f"sample_{index}"
    sha = hashlib.sha256(source.encode()).hexdigest()
    metrics = {"trace_length": None, "peak_state": None, "state_load": None, "cyclomatic": 3}
    origin = "execstate.testing.synthetic_run (synthetic)"
    common = {
        "schema_version": TASK_SCHEMA_VERSION,
        "case_id": f"{_CRUX_STUDY}/{item}",
        "study": _CRUX_STUDY,
        "language": "python",
        "input": "",
        "answer_kind": "text",
        "source_sha256": sha,
        "metrics": metrics,
    }
    return [
        {
            **common,
            "task_id": f"{_CRUX_STUDY}/{item}/function-output",
            "arm": "function-output",
            "source": source,
            "oracle": result,
            "grading_rule": "python-literal",
            "meta": {"cruxeval_id": item, "call": f"f({arguments})", "arguments": arguments, "origin": origin},
        },
        {
            **common,
            "task_id": f"{_CRUX_STUDY}/{item}/function-input",
            "arm": "function-input",
            "source": source + f"\n# Input prediction: give a call f(...) that returns {result}\n",
            "oracle": f"f({arguments})",
            "grading_rule": "python-call",
            "meta": {"cruxeval_id": item, "output": result, "arguments": arguments, "origin": origin},
        },
    ]


def _walk_program(case_id: str, study: str, language: str, rng: random.Random) -> _Program:
    long_n = int(2 ** rng.uniform(6, 12.5))
    return _Program(
        case_id,
        study,
        language,
        a=rng.randint(3, 97),
        b=rng.randint(0, 50),
        m=rng.choice((97, 101, 251, 509, 997)),
        short=f"{rng.randint(5, 14)}\n",
        long=f"{long_n}\n",
    )


def _block(index: int, rng: random.Random) -> list[dict[str, Any]]:
    """The tasks of block ``index``: a Python case (every 4th with its rename variant, every 6th with its fresh
    twin, every 5th with the input arm), every 3rd a C++ case, every 2nd a CRUXEval item."""
    study = _PY_STUDIES[index % len(_PY_STUDIES)]
    program = _walk_program(f"{study}/walk_{index:05d}", study, "python", rng)
    tasks = _case_tasks(program, rng, {}, input_arm=index % 5 == 0)
    if index % 4 == 0:
        variant = _Program(**{**program.__dict__, "case_id": program.case_id + "~rename", "names": dict(_RENAMED)})
        mapping = {old: new for old, new in zip(_NAMES.values(), _RENAMED.values())}
        extra = {"variant_of": program.case_id, "variant": {"name": "rename", "seed": index, "mapping": mapping}}
        tasks += _case_tasks(variant, rng, extra, input_arm=False)
    if index % 6 == 0:
        fresh = _Program(
            **{
                **program.__dict__,
                "case_id": program.case_id + "~fresh",
                "short": f"{int(program.short) + 1}\n",
                "long": f"{int(program.long) + 7}\n",
            }
        )
        commitment = "sha256:" + hashlib.sha256(f"synthetic-fresh-{index}".encode()).hexdigest()
        extra = {"fresh": {"of": program.case_id, "commitment": commitment, "candidate": 0, "candidates": 1}}
        tasks += _case_tasks(fresh, rng, extra, input_arm=False)
    if index % 3 == 0:
        cpp = _walk_program(f"{_CPP_STUDY}/walk_{index:05d}", _CPP_STUDY, "cpp", rng)
        tasks += _case_tasks(cpp, rng, {}, input_arm=False)
    if index % 2 == 0:
        tasks += _crux_tasks(index, rng)
    return tasks


def _hostile_tasks(rng: random.Random) -> list[dict[str, Any]]:
    """Two hostile cases: markup, script and JS URLs in program, input, oracle and states; a 100,000-character
    input line; control characters and non-ASCII text."""
    long_text = (_HOSTILE_TEXT * (HOSTILE_LINE // len(_HOSTILE_TEXT) + 1))[:HOSTILE_LINE]
    tasks = []
    for index, keep in ((0, 12), (1, 40)):
        program = _Program(
            f"{_HOSTILE_PREFIX}{index}",
            "classic",
            "python",
            a=keep,
            b=0,
            m=1,
            hostile=True,
            short=f"{_HOSTILE_TEXT}\n{len(_HOSTILE_TEXT) + 3}\n",
            long=f"{long_text}\n{300 + 50 * index}\n",
        )
        tasks += _case_tasks(program, rng, {}, input_arm=index == 0)
    return tasks


def synthetic_tasks_json(cells: int, seed: int = 0, hostile: bool = False) -> list[dict[str, Any]]:
    """The task records (as JSON-mode dicts, ``meta`` a dict) of a synthetic run of at least ``cells`` cells:
    whole blocks (``_block``) until the tasks times the settings and samples reach ``cells``; the first block
    alone has every arm and kind. ``hostile`` puts the hostile cases first."""
    rng = random.Random(seed)
    per_task = len(SETTINGS) * SAMPLES
    tasks = _hostile_tasks(rng) if hostile else []
    index = 0
    while index == 0 or len(tasks) * per_task < cells:
        tasks += _block(index, rng)
        index += 1
    return tasks


def _answer(task: dict[str, Any]) -> str:
    """The right answer's text: the oracle without its trailing newline."""
    oracle = task["oracle"]
    return oracle[:-1] if oracle.endswith("\n") else oracle


def _wrong_answer(task: dict[str, Any], rng: random.Random) -> tuple[str, str | None, int | None]:
    """A wrong answer, with its loop-trace steps and prefix (None for other arms)."""
    arm, oracle = task["arm"], _answer(task)
    if arm == "loop-trace":
        states = json.loads(oracle)
        first = rng.randrange(len(states))
        for state in states[first:]:
            key = next(iter(state))
            state[key] = state[key] + 1 if isinstance(state[key], int) else state[key] + "?"
        text = json.dumps(states, ensure_ascii=False, separators=(",", ":"))
        return text, "1" * first + "0" * (len(states) - first), first
    if arm in ("inside-loop-state", "post-loop-state"):
        state = json.loads(oracle)
        key = rng.choice(list(state))
        state[key] = state[key] + rng.choice((-2, -1, 1, 3)) if isinstance(state[key], int) else state[key][1:] + "!"
        return json.dumps(state, ensure_ascii=False, separators=(",", ":")), None, None
    if arm == "line-count":
        return str(int(oracle) + rng.choice((-1, 1, 2, 5)) if int(oracle) > 1 else int(oracle) + 1), None, None
    if arm == "function-output":
        return repr(json.loads(oracle.replace("(", "[").replace(")", "]")) + [rng.randint(1, 9)]), None, None
    if arm == "function-input":
        return "f([])", None, None  # returns [], and every item's output is a non-empty list
    if arm == "short-trace-input":
        return "0", None, None  # the walk prints "0 0"; the hostile program finds no second line
    head, _, last = oracle.rpartition(" ")
    bumped = str(int(last) + rng.choice((-7, -1, 1, 12))) if last.lstrip("-").isdigit() else last + "x"
    return f"{head} {bumped}" if head else bumped, None, None


@dataclass
class _Cell:
    """One cell's outcome and the texts it is made of."""

    status: str
    text: str | None
    answer: str | None
    steps: str | None = None
    prefix: int | None = None
    reason: str | None = None


def _executed_reason(task: dict[str, Any], answer: str | None, seed_dependent: bool) -> str | None:
    """A wrong answer's reason under an executed rule, in the grader's words."""
    if answer is None:
        return None
    if task["grading_rule"] == "python-call":
        detail = "f returned []"
    elif task["case_id"].startswith(_HOSTILE_PREFIX):
        detail = "the program fails on this input: exit status 1 (EOFError: EOF when reading a line)"
    else:
        detail = f"the program prints {'0 0' + chr(10)!r} on this input"
    if not seed_dependent:
        return detail
    return f"{_SEED_DEPENDENT} (PYTHONHASHSEED=0: {detail})"


def _cell(task: dict[str, Any], setting: str, rng: random.Random) -> _Cell:
    """Draw one cell: no response, right or wrong, with a valid envelope, a fenced one or prose."""
    if rng.random() < NO_RESPONSE_RATE:
        return _Cell("no-response", None, None)
    right = rng.random() < SKILL[setting]
    valid = rng.random() < 0.88
    steps: str | None = None
    prefix: int | None = None
    answer: str | None
    if right:
        answer = _answer(task)
        if task["arm"] == "loop-trace":
            steps, prefix = "1" * task["meta"]["trace_steps"], task["meta"]["trace_steps"]
    else:
        answer, steps, prefix = _wrong_answer(task, rng)
    envelope = f'{{"output": {_quote(answer)}}}'  # json.dumps({"output": answer}, ensure_ascii=False)
    verdict = "correct" if right else "wrong"
    if valid:
        text = envelope
    elif rng.random() < 0.5:
        text = f"```json\n{envelope}\n```"
    else:  # prose: nothing extractable, so wrong whatever was meant
        text, answer, verdict = "I would say it prints the same as before, roughly.", None, "wrong"
        if task["arm"] == "loop-trace":
            steps, prefix = "0" * task["meta"]["trace_steps"], 0
    cell = _Cell(f"{verdict}-{'valid' if valid else 'invalid'}", text, answer, steps, prefix)
    if verdict == "wrong" and task["grading_rule"] in ("python-call", "program-input"):
        cell.reason = _executed_reason(task, answer, rng.random() < SEED_DEPENDENT_RATE)
    return cell


_REASONING = (
    "The loop runs from 1 to n. I keep the running total and the best value and update them each step.\n",
    "Let me trace the first iterations by hand, then extrapolate the pattern to the end of the input.\n",
)


@dataclass(frozen=True)
class _SettingText:
    """A setting's values as the JSON fragments every one of its response lines repeats (read once: a
    ``Setting``'s attributes are slow to read per cell)."""

    name: str
    quoted: str
    provider: str
    model: str
    served: str
    reasons: bool
    attempts: int
    batch: bool

    @classmethod
    def of(cls, setting: Setting) -> _SettingText:
        model = setting.model or f"synthetic(skill={SKILL[setting.name]})"
        served = _q(f"{setting.model}-2025-06-01") if setting.model else "null"
        return cls(
            setting.name,
            _q(setting.name),
            _q(setting.provider),
            _q(model),
            served,
            setting.reasoning != "off",
            setting.max_attempts,
            bool(setting.batch),
        )


def _q(text: str | None) -> str:
    """A JSON string (``ensure_ascii=False``), or ``null``."""
    return "null" if text is None else _quote(text)


class _Clock:
    """ISO 8601 UTC timestamps with milliseconds, ``start`` plus an offset in ms, without a datetime per call."""

    def __init__(self, start: datetime) -> None:
        self.start = start
        self.days: dict[int, str] = {}

    def __call__(self, ms: int) -> str:
        day, rest = divmod(ms, 86_400_000)
        date = self.days.get(day)
        if date is None:
            date = self.days[day] = (self.start + timedelta(days=day)).date().isoformat()
        hours, rest = divmod(rest, 3_600_000)
        minutes, rest = divmod(rest, 60_000)
        seconds, millis = divmod(rest, 1000)
        return f"{date}T{hours:02d}:{minutes:02d}:{seconds:02d}.{millis:03d}+00:00"


def _response_line(
    task: dict[str, Any],
    setting: _SettingText,
    sample: int,
    cell: _Cell,
    ms: int,
    rng: random.Random,
    batch: str | None,
    clock: _Clock,
) -> str:
    """The Response line of one cell, fields in declared order (what ``Response.to_json_line`` writes, but
    floats in ``repr`` form)."""
    head = f'{{"schema_version":{SCHEMA_VERSION},"task_id":{task["_id"]},"setting":{setting.quoted},"sample":{sample},'
    if cell.status == "no-response":
        latency = round(rng.uniform(60, 300), 3)
        errors = ",".join(
            f'"attempt {n}: HTTP 503 from the server (overloaded)"' for n in range(1, setting.attempts + 1)
        )
        return (
            f'{head}"status":"no-response","text":null,"reasoning":null,"finish_reason":null,"usage":{_NO_USAGE},'
            f'"latency_s":{latency},"attempts":{setting.attempts},"errors":[{errors}],"started_at":"{clock(ms)}",'
            f'"finished_at":"{clock(ms + int(latency * 1000))}","provider":{setting.provider},"model":{setting.model},'
            f'"pipeline_check":false,"cached":false,"batch_id":null,"served_model":null,"request_id":null,'
            '"service_tier":null}'
        )
    prompt = task["_prompt"]
    reasoning, thought = "null", "null"
    if setting.reasons:
        thought = str(rng.randint(200, 6000))
        reasoning = task["_reasoning"] or _q(_REASONING[sample % 2] * rng.randint(1, 4))
    completion = rng.randint(12, 900) + (int(thought) if setting.reasons else 0)
    cache_read = prompt // 2 if rng.random() < 0.3 else 0
    latency = round(rng.uniform(0.4, 40.0), 3)
    cached = "true" if rng.random() < 0.05 else "false"
    tier = '"batch"' if batch else '"default"'
    return (
        f'{head}"status":"completed","text":{_q(cell.text)},"reasoning":{reasoning},"finish_reason":"stop",'
        f'"usage":{{"prompt_tokens":{prompt},"completion_tokens":{completion},"reasoning_tokens":{thought},'
        f'"cache_read_tokens":{cache_read},"cache_creation_tokens":null}},"latency_s":{latency},"attempts":1,'
        f'"errors":[],"started_at":"{clock(ms)}","finished_at":"{clock(ms + int(latency * 1000))}",'
        f'"provider":{setting.provider},"model":{setting.model},"pipeline_check":false,"cached":{cached},'
        f'"batch_id":{_q(batch)},"served_model":{setting.served},"request_id":"req_{rng.getrandbits(64):016x}",'
        f'"service_tier":{tier}}}'
    )


_NO_USAGE = (
    '{"prompt_tokens":null,"completion_tokens":null,"reasoning_tokens":null,"cache_read_tokens":null,'
    '"cache_creation_tokens":null}'
)


def _grade_line(task: dict[str, Any], setting: _SettingText, sample: int, cell: _Cell) -> str:
    """The Grade line of one cell, without the optional keys that are None (as ``Grade.to_json_line``)."""
    status = cell.status
    envelope = "null" if status == "no-response" else ("true" if status.endswith("-valid") else "false")
    line = (
        f'{{"schema_version":{SCHEMA_VERSION},"task_id":{task["_id"]},"setting":{setting.quoted},"sample":{sample},'
        f'"status":"{status}","envelope_valid":{envelope},"answer":{_q(cell.answer)},"rule":"{task["grading_rule"]}",'
        '"pipeline_check":false'
    )
    if cell.reason is not None:
        line += f',"reason":{_q(cell.reason)}'
    if cell.steps is not None:
        line += f',"steps":"{cell.steps}","prefix":{cell.prefix}'
    return line + "}"


def _dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def _write_build(build: Path, tasks: list[dict[str, Any]]) -> str:
    """Write ``tasks.jsonl``, ``manifest.json`` and an empty ``excluded.jsonl``; returns the tasks' SHA-256."""
    digest = hashlib.sha256()
    with open(build / TASKS_NAME, "w", encoding="utf-8", newline="\n") as fh:
        for task in tasks:
            line = _dumps({**task, "meta": _dumps(task["meta"])}) + "\n"
            fh.write(line)
            digest.update(line.encode("utf-8"))
    (build / "excluded.jsonl").write_text("", encoding="utf-8")
    cases = list(dict.fromkeys(t["case_id"] for t in tasks))
    manifest = BuildManifest(
        execstate_version=__version__,
        python="3.11.7",
        compiler=_CPP_META["compiler"],
        compiler_flags=list(_CPP_META["flags"]),
        specs=[f"synthetic/{c}/case.toml" for c in cases],
        cases_admitted=len(cases),
        cases_excluded=0,
        tasks=len(tasks),
        tasks_sha256=digest.hexdigest(),
    )
    (build / "manifest.json").write_text(manifest.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return digest.hexdigest()


def _write_cells(out: Path, tasks: list[dict[str, Any]], seed: int, start: datetime) -> int:
    """Write ``run/responses.jsonl`` and ``grades.jsonl`` cell by cell, setting by setting; returns the number
    of cells."""
    rng = random.Random(seed + 1)
    clock = _Clock(start)
    hostile = _q(_HOSTILE_REASONING * 3 + "x" * 20_000)
    tasks = [  # what every line of a task repeats, encoded once
        {
            **t,
            "_id": _q(t["task_id"]),
            "_prompt": (len(t["source"]) + len(t["input"])) // 4 + 140,
            "_reasoning": hostile if t["case_id"].startswith(_HOSTILE_PREFIX) else None,
        }
        for t in tasks
    ]
    n = 0
    with (
        open(out / RUN_DIR / RUN_RESPONSES_NAME, "w", encoding="utf-8", newline="\n") as responses,
        open(out / GRADES_NAME, "w", encoding="utf-8", newline="\n") as grades,
    ):
        for setting in map(_SettingText.of, SETTINGS):
            for task in tasks:
                for sample in range(SAMPLES):
                    cell = _cell(task, setting.name, rng)
                    batch = f"batch_{seed:04d}_{n // 5000:04d}" if setting.batch else None
                    responses.write(_response_line(task, setting, sample, cell, 250 * n, rng, batch, clock) + "\n")
                    grades.write(_grade_line(task, setting, sample, cell) + "\n")
                    n += 1
    return n


def write_synthetic_run(out_dir: Path | str, cells: int = 1000, seed: int = 0, hostile: bool = False) -> Path:
    """Write a synthetic graded run of at least ``cells`` cells into ``out_dir`` (pipeline layout, module
    docstring) and return ``out_dir``.

    The run has the fewest whole blocks of cases giving ``cells`` cells (so a little more, never fewer, and
    at least one block: every arm and kind); the same arguments write the same bytes. ``hostile`` adds the
    hostile cases first. Raises ``UsageError`` for ``cells < 1`` or an ``out_dir`` that is a file.
    """
    if cells < 1:
        raise UsageError(f"cells must be at least 1 (got {cells}). Fix: ask for a positive number of cells")
    out = output_dir(Path(out_dir))
    for sub in (BUILD_DIR, RUN_DIR):
        output_dir(out / sub)
    tasks = synthetic_tasks_json(cells, seed, hostile)
    sha = _write_build(out / BUILD_DIR, tasks)
    start = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=seed % 3650)
    invocation = RunInvocation(
        started_at=start.isoformat(timespec="seconds"),
        settings=[s.name for s in SETTINGS],
        samples=SAMPLES,
        limit=None,
        execstate_version=__version__,
        python="3.11.7",
    )
    tasks_file = str((out / BUILD_DIR / TASKS_NAME).resolve())
    settings = {s.name: _recorded(s) for s in SETTINGS}
    manifest = RunManifest(
        tasks_file=tasks_file, tasks_sha256=sha, tasks=len(tasks), settings=settings, invocations=[invocation]
    )
    (out / RUN_DIR / RUN_MANIFEST_NAME).write_text(manifest.model_dump_json(indent=2) + "\n", encoding="utf-8")
    _write_cells(out, tasks, seed, start)
    return out


def _recorded(setting: Setting) -> dict[str, Any]:
    """A setting as ``run`` records it in the manifest: its common keys, and any other key set away from its
    default."""
    values = setting.model_dump(mode="json")
    defaults = Setting(name=setting.name, provider="synthetic").model_dump(mode="json")
    common = list(values)[: list(values).index("connect_timeout_s") + 1]
    return {k: v for k, v in values.items() if k in common or v != defaults.get(k)}


def cell_count(out_dir: Path | str) -> int:
    """The number of cells (grade lines) of a run folder ``write_synthetic_run`` wrote."""
    with open(Path(out_dir) / GRADES_NAME, "rb") as fh:
        return sum(1 for _ in fh)
