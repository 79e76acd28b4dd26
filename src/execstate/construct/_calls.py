"""Function-call (LeetCode-style) problems as stdin problems: the call's target, its tests, and what is refused.

A function-call problem gives a function to call, not a program: ``func_name``
names a method of ``class Solution`` (or, when the starter code has no class,
a module-level function), and each ``functional`` test gives the call's
arguments as one JSON value per line of its ``input`` and the returned value as
JSON in its ``output`` (LiveCodeBench's form). Such a problem becomes a stdin
problem: its program is the solution followed by the driver (``_driver.py``),
each test's input is its argument lines and its expected output the canonical
JSON of the expected value (``canonical_json``), graded by ``json-or-tokens``.

What cannot be driven is refused as a ``BadRecord`` saying why: no
``func_name`` (``unsupported``); a class-design problem, whose tests make
several calls on one object (``unsupported``); a target the solution does not
define or parameters positional arguments cannot fill (``unsupported``); a test
whose input lines are not JSON values or whose argument count the target cannot
take (``unsupported``); an output that is not JSON (``invalid``); a solution in
a language other than the driver's (``unsupported``).

``import folders`` reads the same problems from a folder holding
``solution.py`` and ``tests.json``: ``{"func_name": NAME, "tests": [{"input":
..., "output": ...}, ...]}``, its tests named ``1``, ``2``, ... in list order.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from execstate.construct._driver import DRIVER_FUNCTION, DRIVER_LANGUAGE, canonical_json, driven_program
from execstate.construct._pool import NewTest
from execstate.construct._report import Imported, Target
from execstate.construct._sources import BadRecord
from execstate.errors import clip_text
from execstate.languages import program_languages

CALL_RULE = "json-or-tokens"
"""The grading rule of every driven problem: its outputs are JSON values."""
CALL_SOLUTION = "solution.py"
CALL_TESTS = "tests.json"
"""A call folder's two files: the solution, and ``{"func_name": NAME, "tests": [{"input", "output"}, ...]}``."""

_CLASS = re.compile(r"^class\s+([A-Za-z_]\w*)", re.MULTILINE)


@dataclass(frozen=True)
class CallTarget:
    """What the driver calls once per test, and how many positional arguments it takes."""

    name: str
    method: bool
    """True: a method of ``Solution``, called on a fresh ``Solution()``; False: a module-level function."""
    min_args: int
    max_args: int | None
    """None: it takes ``*args``."""

    @property
    def call(self) -> str:
        """The called expression as the driver writes it: ``Solution().name`` or ``name``."""
        return f"Solution().{self.name}" if self.method else self.name

    def takes(self, count: int) -> bool:
        return self.min_args <= count and (self.max_args is None or count <= self.max_args)


@dataclass(frozen=True)
class CallProblem:
    """A function-call problem made a stdin one."""

    program: str
    """The solution, unchanged, after the judge's names it needs and before the driver."""
    tests: tuple[NewTest, ...]
    target: CallTarget


def call_problem(
    solution: str, func_name: str, cases: Sequence[tuple[str, object]], *, starter: str = ""
) -> CallProblem:
    """The stdin problem of ``solution`` whose tests call ``func_name``; ``cases`` are (test name, test record).

    ``starter`` is the problem's starter code: with a ``class Solution`` the target
    is that method, with no class a module-level function, with another class only
    a class-design problem (refused). Without starter code the solution decides.
    ``BadRecord`` for anything that cannot be driven (the module docstring).
    """
    target = call_target(solution, func_name, starter)
    tests = tuple(call_test(name, case, target) for name, case in cases)
    return CallProblem(driven_program(solution, target.call), tests, target)


def call_target(solution: str, func_name: str, starter: str = "") -> CallTarget:
    """What the tests of ``func_name`` call in ``solution`` (see ``call_problem``); ``BadRecord`` if nothing fits."""
    try:
        tree = ast.parse(solution)
    except SyntaxError as exc:
        raise BadRecord("invalid", f"the solution does not parse: line {exc.lineno}: {exc.msg}") from None
    if re.search(rf"\b{DRIVER_FUNCTION}\b", solution):
        raise BadRecord("unsupported", f"the solution uses the name {DRIVER_FUNCTION}, which the driver defines")
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    declared = _CLASS.findall(starter)
    if declared and "Solution" not in declared:
        raise BadRecord("unsupported", _design(declared[0]))
    if "Solution" in declared or (not starter.strip() and func_name in _methods(classes.get("Solution"))):
        method = _methods(classes.get("Solution")).get(func_name)
        if method is None:
            raise BadRecord("unsupported", f"the solution defines no method Solution.{func_name}, which the tests call")
        return _target(func_name, method, method=True)
    if func_name in functions:
        return _target(func_name, functions[func_name], method=False)
    owner = next((name for name, node in classes.items() if func_name in _methods(node)), None)
    if owner is not None:
        raise BadRecord("unsupported", _design(owner))
    raise BadRecord("unsupported", f"the solution defines neither Solution.{func_name} nor a function {func_name}")


def _design(name: str) -> str:
    return (
        f"a class-design problem (class {name}): each test makes several calls on one object, "
        "and the driver makes one call per test"
    )


def _methods(node: ast.ClassDef | None) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    if node is None:
        return {}
    return {n.name: n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _target(name: str, fn: ast.FunctionDef | ast.AsyncFunctionDef, *, method: bool) -> CallTarget:
    params = [*fn.args.posonlyargs, *fn.args.args]
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)
    if method and not static:
        params = params[1:]  # self (or cls), which the call binds
    required = [k.arg for k, default in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if default is None]
    if required:
        problem = f"{name} has keyword-only parameters without defaults ({', '.join(required)})"
        raise BadRecord("unsupported", f"{problem}, which the driver's positional arguments cannot fill")
    least = max(0, len(params) - len(fn.args.defaults))
    return CallTarget(name, method, least, None if fn.args.vararg else len(params))


def call_test(name: str, case: object, target: CallTarget) -> NewTest:
    """One functional test as a stdin test: its argument lines (blank ones dropped) and canonical JSON output."""
    if not isinstance(case, dict) or not all(isinstance(case.get(k), str) for k in ("input", "output")):
        raise BadRecord("invalid", f"test {name} is not {{input, output}} strings")
    kind = case.get("testtype", "functional")
    if kind != "functional":
        raise BadRecord("unsupported", f"test {name} is a {kind!r} test beside functional ones; they cannot be mixed")
    lines = [line for line in case["input"].split("\n") if line.strip()]
    for n, line in enumerate(lines, 1):
        try:
            json.loads(line)
        except (ValueError, RecursionError) as exc:
            shown, why = clip_text(line, 60, "..."), _TOO_LONG if _too_long(exc) else "is not a JSON value"
            raise BadRecord("unsupported", f"test {name}: input line {n} ({shown!r}) {why}") from None
    if not target.takes(len(lines)):
        most = "any number" if target.max_args is None else target.max_args
        problem = f"test {name} gives {len(lines)} arguments; {target.call} takes {target.min_args} to {most}"
        raise BadRecord("unsupported", problem)
    try:
        expected = canonical_json(json.loads(case["output"]))
    except (ValueError, TypeError, RecursionError) as exc:
        if _too_long(exc):
            problem = f"test {name}: its output ({clip_text(case['output'], 60, '...')!r}) {_TOO_LONG}"
            raise BadRecord("unsupported", problem) from None
        raise BadRecord("invalid", f"test {name}: its output {case['output'][:60]!r} is not finite JSON") from None
    return NewTest(name, "".join(line + "\n" for line in lines).encode(), (expected + "\n").encode())


_TOO_LONG = (
    "holds an integer too long for the driver's json to read or print (more digits than CPython converts "
    "to or from text: 4,300 by default)"
)


def _too_long(exc: BaseException) -> bool:
    """Whether ``json`` refused a text for an integer longer than CPython converts to or from text."""
    return isinstance(exc, ValueError) and "integer string conversion" in str(exc)


def func_name_of(metadata: object) -> str:
    """The ``func_name`` of a LiveCodeBench ``metadata`` value (a JSON string or an object); ``BadRecord`` if none."""
    if isinstance(metadata, str):
        try:
            metadata = json.loads(metadata) if metadata.strip() else {}
        except ValueError:
            raise BadRecord("invalid", "field 'metadata': not JSON") from None
    name = metadata.get("func_name") if isinstance(metadata, dict) else None
    if not isinstance(name, str) or not name.isidentifier():
        raise BadRecord("unsupported", "a function-call problem whose metadata names no func_name: the call is unknown")
    return name


def lcb_call_problem(
    record: Mapping[str, object], code: str, cases: Mapping[str, object], language: str
) -> CallProblem:
    """A LiveCodeBench function-call record with its decoded ``{"public": [...], "private": [...]}`` tests.

    Tests are named ``public-N`` and ``private-N`` and come public first. ``BadRecord``
    as ``call_problem``, and for code in a language other than the driver's.
    """
    if language != DRIVER_LANGUAGE:
        problem = f"a function-call problem: its driver is {DRIVER_LANGUAGE} and the solutions are {language}"
        raise BadRecord("unsupported", problem)
    func_name = func_name_of(record.get("metadata"))
    starter = record.get("starter_code") or ""
    if not isinstance(starter, str):
        raise BadRecord("invalid", f"field 'starter_code': expected a string, got {type(starter).__name__}")
    named: list[tuple[str, object]] = []
    for kind, value in cases.items():
        if not isinstance(value, list):
            raise BadRecord("invalid", f"field '{kind}_test_cases': expected a list of tests")
        named += [(f"{kind}-{n}", case) for n, case in enumerate(value, 1)]
    return call_problem(code, func_name, named, starter=starter)


def is_call_folder(path: Path) -> bool:
    """True when ``path`` holds a ``solution.py`` (a function-call problem for ``import folders``)."""
    return (path / CALL_SOLUTION).is_file()


def read_call_folder(folder: Path) -> CallProblem:
    """The problem of a folder with ``solution.py`` and ``tests.json``; ``BadRecord`` if it cannot be driven."""
    beside = [name for name in program_languages() if (folder / name).is_file()]
    if beside:
        raise BadRecord("invalid", f"holds both {beside[0]} and {CALL_SOLUTION}; keep one")
    if not (folder / CALL_TESTS).is_file():
        raise BadRecord("invalid", f"{CALL_SOLUTION} without {CALL_TESTS} beside it (the calls to make)")
    try:
        solution = (folder / CALL_SOLUTION).read_text(encoding="utf-8")
        spec = json.loads((folder / CALL_TESTS).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRecord("invalid", f"{CALL_SOLUTION} or {CALL_TESTS} is unreadable ({exc})") from None
    if not isinstance(spec, dict) or not isinstance(spec.get("tests"), list) or not spec["tests"]:
        raise BadRecord("invalid", f'{CALL_TESTS}: expected {{"func_name": NAME, "tests": [{{input, output}}, ...]}}')
    func_name = func_name_of({"func_name": spec.get("func_name")})
    return call_problem(solution, func_name, [(str(n), case) for n, case in enumerate(spec["tests"], 1)])


def import_call_folder(target: Target, folder: Path, problem_id: str) -> Imported:
    """Write the call folder ``folder`` into ``target``'s pool as ``problem_id``."""
    call = read_call_folder(folder)
    source = {"dataset": "folder", "folder": str(folder), "call": call.target.call}
    written = target.write(problem_id, call.program, DRIVER_LANGUAGE, call.tests, source, rule=CALL_RULE)
    detail = f"{CALL_SOLUTION} driven as {call.target.call} with {len(call.tests)} tests"
    return Imported(id=problem_id, record=str(folder), path=str(written.path), detail=detail + written.note)
