"""The problem pool format: read a pool of problem directories, and write one problem atomically.

A pool is a directory of problem directories (or one problem directory)::

    NAME/main.py | NAME/main.cpp    the program (exactly one; the file name says its language)
    NAME/tests/T.in                 an input; NAME/tests/T.out, if present, its expected output
    NAME/gen.py | NAME/gen.cpp      optional seeded generator: ``gen SEED SIZE`` prints one input
    NAME/validator.py               optional: exits 0 when the input on its stdin is valid for the problem
    NAME/problem.toml               optional: id, study, grading_rule, [limits], [generator], [source], [provenance]

The program and generator names are the registry's (``execstate.languages.LANGUAGES``: one
per language). Library Checker problems (``gen/*.cpp`` beside ``info.toml``) read as they are:
their generators take only a seed, so the one ``tests/MANIFEST.tsv`` names
(else the first ``[[tests]]`` generator of ``info.toml``) is recorded with
``takes_size = False``, and ``info.toml``'s ``timelimit`` becomes the time limit.
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from execstate.builder import toml_key, toml_value
from execstate.environments import EnvironmentSpec, parse_environment
from execstate.errors import InputFileError, SpecError, SpecProblem, remove_tree
from execstate.languages import generator_languages, language_entry, language_of_file, program_languages
from execstate.records import GRADING_RULES
from execstate.studies import default_grading_rule
from execstate.values import any_int

PROBLEM_FILE = "problem.toml"
"""The optional description file of a problem directory."""
VALIDATOR = "validator.py"
"""A problem's optional input validator: run like a generator (Python), the input on stdin, exit 0 = valid."""

ProvenanceValue = str | int | float | bool
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,119}")
_TOP_KEYS = {"id", "study", "grading_rule", "limits", "generator", "source", "provenance", "environment"}


class PoolTest(NamedTuple):
    """One test of a problem: its name, its input file and its expected output file (None if absent)."""

    name: str
    input: Path
    output: Path | None


@dataclass(frozen=True)
class Generator:
    """A seeded input generator of a problem."""

    path: Path
    language: str
    takes_size: bool
    """True: called as ``gen SEED SIZE``; False: ``gen SEED`` (sizes fixed in the source, Library Checker)."""


@dataclass(frozen=True)
class ProblemLimits:
    """Run limits a problem asks for; None means the caller's default."""

    time_s: float | None = None
    memory_mb: int | None = None


@dataclass(frozen=True)
class Problem:
    """One problem of a pool, with absolute paths."""

    id: str
    """``problem.toml``'s ``id``, else the directory name."""
    dir: Path
    language: str
    """A language of the builder's registry, from the program's file name."""
    program: Path
    tests: tuple[PoolTest, ...]
    """In natural order of their names (``2`` before ``10``)."""
    generator: Generator | None
    study: str | None
    rule: str
    """Grading rule that compares a run with an expected output: ``problem.toml``'s, else the study's default."""
    rule_given: bool = False
    """``problem.toml`` names the rule (else ``rule`` is a study default, which a caller's study may replace)."""
    limits: ProblemLimits = ProblemLimits()
    source: Mapping[str, ProvenanceValue] = field(default_factory=dict)
    """``problem.toml``'s ``[source]`` table: where the problem came from (free-form provenance)."""
    provenance: Mapping[str, ProvenanceValue] = field(default_factory=dict)
    """``problem.toml``'s ``[provenance]`` table: keys construct copies into each spec's ``[provenance]`` (and so
    into every task's ``meta``), e.g. a program's size; a key construct writes itself wins."""
    validator: Path | None = None
    """``validator.py`` beside the program: synthesized inputs count only if it accepts them."""
    environment: EnvironmentSpec | None = None
    """``problem.toml``'s ``environment`` declaration (packages, include directories inside the problem)."""


class NewTest(NamedTuple):
    """A test to write: its name, input bytes and expected output bytes (None: no ``.out`` file)."""

    name: str
    input: bytes
    output: bytes | None


CRLF_TO_LF = "crlf-to-lf"
"""How construct records a test file it used with LF line ends for the file's CRLF or lone CR ones
(``as_served``)."""
CRLF_SOURCE_KEY = "crlf_to_lf"
"""The ``problem.toml`` ``[source]`` key an import writes when it made test files' CRLF (or lone CR) line ends
LF: the files' names (``public-1.in public-1.out``), space-separated. Absent when no file had one."""


def as_served(data: bytes) -> bytes:
    """A test file's bytes as a judge serves them: its CRLF line ends, and its lone CRs, as LF.

    Archives assembled on Windows ship test files with CRLF line ends, some with a last line that ends in
    ``\\r`` alone (a number, then CR, then nothing), and old Mac files end every line with CR; judges serve
    them with LF, and a program that reads a line whole (``input()``) or a number would see the CR. A CRLF
    becomes one LF, any other CR one LF. Bytes that are not text (not UTF-8, or holding a NUL byte) and text
    without a CR come back as they are: the very object given, so ``as_served(data) is not data`` says that
    something changed.
    """
    if b"\r" not in data or b"\0" in data:
        return data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders digit runs by value: ``2`` before ``10``, ``public-2`` before ``public-10``."""
    return tuple((0, any_int(part)) if part.isdecimal() else (1, part) for part in re.split(r"(\d+)", name) if part)


def is_problem_dir(path: Path) -> bool:
    """True when ``path`` holds a program file (``main.py``, ``main.cpp``: a registered language's program)."""
    return any((path / name).is_file() for name in program_languages())


def program_files_problem(found: Sequence[str]) -> str:
    """What is wrong with a problem folder holding the program files ``found`` (not exactly one)."""
    if not found:
        return "holds neither " + " nor ".join(program_languages())
    return ("holds both " if len(found) == 2 else "holds ") + " and ".join(found)


def read_pool(path: Path | str) -> list[Problem]:
    """Every problem under ``path``: a pool root of problem directories, or one problem directory.

    Problems come sorted by directory name; sub-directories whose names start
    with ``.`` (an unfinished write) are skipped. ``InputFileError`` for a
    missing path, a directory that is not a problem, a problem without tests or
    generator; ``SpecError`` for a broken ``problem.toml`` or a repeated id.
    """
    root = Path(path)
    if not root.is_dir():
        raise InputFileError(f"problem pool {root} is not a directory. Fix: pass a pool or a problem directory")
    if is_problem_dir(root):
        return [read_problem(root)]
    dirs = sorted((d for d in root.iterdir() if d.is_dir() and not d.name.startswith(".")), key=lambda d: d.name)
    if not dirs:
        problem = f"problem pool {root} holds no problem directories"
        raise InputFileError(f"{problem}. Fix: pass a pool or a problem directory (see docs/construct.md)")
    problems = [read_problem(d) for d in dirs]
    seen: dict[str, Path] = {}
    for p in problems:
        if p.id in seen:
            problem = f"id {p.id!r} is already used by {seen[p.id]}"
            raise SpecError(p.dir / PROBLEM_FILE, "id", problem, "give every problem its own id")
        seen[p.id] = p.dir
    return problems


def read_problem(directory: Path | str) -> Problem:
    """The problem in ``directory`` (see the module docstring); errors as ``read_pool``."""
    d = Path(directory).absolute()
    programs = program_languages()
    found = [name for name in programs if (d / name).is_file()]
    if len(found) != 1:
        problem = program_files_problem(found)
        raise InputFileError(f"problem directory {d} {problem}. Fix: keep exactly one program file in it")
    raw = _read_toml(d / PROBLEM_FILE) if (d / PROBLEM_FILE).is_file() else {}
    _check_keys(d / PROBLEM_FILE, raw, _TOP_KEYS, "")
    study = _opt_str(d / PROBLEM_FILE, raw, "study")
    tests = _tests(d / "tests")
    generator = _generator(d, raw)
    if not tests and generator is None:
        raise InputFileError(
            f"problem directory {d} has no tests/*.in and no generator. Fix: add tests/NAME.in files or gen.py"
        )
    return Problem(
        id=_problem_id(d, raw),
        dir=d,
        language=programs[found[0]],
        program=d / found[0],
        tests=tests,
        generator=generator,
        study=study,
        rule=_rule(d / PROBLEM_FILE, raw, study),
        rule_given="grading_rule" in raw,
        limits=_limits(d, raw),
        source=_source(d / PROBLEM_FILE, raw),
        provenance=_source(d / PROBLEM_FILE, raw, "provenance"),
        validator=d / VALIDATOR if (d / VALIDATOR).is_file() else None,
        environment=_environment(d, raw["environment"]) if "environment" in raw else None,
    )


def _environment(d: Path, value: Any) -> EnvironmentSpec:
    try:
        return parse_environment(value, d)
    except SpecProblem as exc:
        raise exc.at(d / PROBLEM_FILE) from None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SpecError(path, None, f"cannot read it ({exc.strerror})", "check the file's permissions") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise SpecError(path, None, f"not valid TOML ({exc})", "correct the TOML syntax") from None
    except ValueError as exc:  # tomllib's int() of a number of more than 4,300 digits: no key needs one
        raise SpecError(path, None, f"holds a number too long to read ({exc})", "write a shorter number") from None


def _check_keys(path: Path, table: Mapping[str, Any], allowed: set[str], prefix: str) -> None:
    for key in table:
        if key not in allowed:
            raise SpecError(path, prefix + key, "unknown key", f"remove it or use one of: {', '.join(sorted(allowed))}")


def _opt_str(path: Path, raw: Mapping[str, Any], key: str) -> str | None:
    value = raw.get(key)
    if value is not None and (not isinstance(value, str) or not value):
        raise SpecError(path, key, f"expected a non-empty string, got {value!r}", f'write {key} = "..."')
    return value


def _problem_id(d: Path, raw: Mapping[str, Any]) -> str:
    value = _opt_str(d / PROBLEM_FILE, raw, "id")
    if value is None:
        return d.name
    if not _NAME.fullmatch(value):
        raise SpecError(
            d / PROBLEM_FILE, "id", f"id {value!r} is not a plain name", "use letters, digits, '.', '_' and '-' only"
        )
    return value


def _rule(path: Path, raw: Mapping[str, Any], study: str | None) -> str:
    rule = _opt_str(path, raw, "grading_rule") or default_grading_rule(study or "")
    if rule not in GRADING_RULES:
        raise SpecError(path, "grading_rule", f"unknown rule {rule!r}", f"use one of {', '.join(GRADING_RULES)}")
    return rule


def _tests(tests_dir: Path) -> tuple[PoolTest, ...]:
    """The ``NAME.in`` files of ``tests_dir`` with their ``NAME.out``; an ``.out`` without ``.in`` is an error."""
    if not tests_dir.is_dir():
        return ()
    files = {p.name: p for p in tests_dir.iterdir() if p.is_file()}
    orphans = sorted(n for n in files if n.endswith(".out") and n[:-4] + ".in" not in files)
    if orphans:
        raise InputFileError(
            f"{tests_dir / orphans[0]} has no matching .in file. Fix: add {orphans[0][:-4]}.in or remove the .out"
        )
    names = sorted((n[:-3] for n in files if n.endswith(".in") and len(n) > 3), key=natural_key)
    return tuple(PoolTest(n, files[n + ".in"], files.get(n + ".out")) for n in names)


def _generator(d: Path, raw: Mapping[str, Any]) -> Generator | None:
    if "generator" in raw:
        return _declared_generator(d, raw["generator"])
    for name, language in generator_languages().items():
        if (d / name).is_file():
            return Generator(d / name, language, takes_size=True)
    return _library_checker_generator(d)


def _declared_generator(d: Path, table: object) -> Generator:
    path = d / PROBLEM_FILE
    if not isinstance(table, dict):
        raise SpecError(path, "generator", "expected a table", 'write [generator] with file = "gen.py"')
    _check_keys(path, table, {"file", "takes_size"}, "generator.")
    name, takes_size = table.get("file"), table.get("takes_size", True)
    if not isinstance(name, str) or not name:
        raise SpecError(path, "generator.file", f"expected a file name, got {name!r}", 'write file = "gen.py"')
    if not isinstance(takes_size, bool):
        raise SpecError(path, "generator.takes_size", f"expected true or false, got {takes_size!r}", "write true")
    target = (d / name).resolve()
    if not target.is_relative_to(d.resolve()) or not target.is_file():
        raise SpecError(path, "generator.file", f"{name!r} is not a file in {d}", "name a file inside the problem")
    language = language_of_file(target)
    if language is None:
        suffixes = " or ".join(Path(program).suffix for program in program_languages())
        raise SpecError(
            path, "generator.file", f"{name!r} is not a program of a known language", f"name a {suffixes} file"
        )
    return Generator(d / name, language, takes_size)


def _library_checker_generator(d: Path) -> Generator | None:
    """The generator ``tests/MANIFEST.tsv`` names, else ``info.toml``'s first ``[[tests]]`` one; seed only."""
    names: list[str] = []
    manifest = d / "tests" / "MANIFEST.tsv"
    if manifest.is_file():
        rows = [line.split("\t") for line in manifest.read_text(encoding="utf-8").splitlines()[1:]]
        names += [row[1] for row in rows if len(row) > 1]
    if (d / "info.toml").is_file():
        tests = _read_toml(d / "info.toml").get("tests", [])
        names += [f"gen/{t['name']}" for t in tests if isinstance(t, dict) and str(t.get("name", "")).endswith(".cpp")]
    found = next((n for n in names if (d / n).is_file()), None)
    language = language_of_file(found) if found else None  # Library Checker's generators are C++
    return Generator(d / found, language, takes_size=False) if found and language else None


MAX_TIME_S = 86_400
"""The longest time limit a problem may state (a day): a larger number is a typo, and ``float`` of a number past
10**308 would overflow."""
MAX_MEMORY_MB = 1 << 20
"""The largest memory limit a problem may state (1 TiB)."""


def _limits(d: Path, raw: Mapping[str, Any]) -> ProblemLimits:
    path = d / PROBLEM_FILE
    table = raw.get("limits", {})
    if not isinstance(table, dict):
        raise SpecError(path, "limits", "expected a table", "write [limits] with time_s = 2.0, memory_mb = 256")
    _check_keys(path, table, {"time_s", "memory_mb"}, "limits.")
    time_s, memory_mb = table.get("time_s"), table.get("memory_mb")
    if time_s is None and "limits" not in raw and (d / "info.toml").is_file():
        time_s = _read_toml(d / "info.toml").get("timelimit")
    if time_s is not None and (
        isinstance(time_s, bool) or not isinstance(time_s, int | float) or not 0 < time_s <= MAX_TIME_S
    ):
        problem = f"expected a positive number of seconds, at most {MAX_TIME_S}, got {time_s!r}"
        raise SpecError(path, "limits.time_s", problem, "time_s = 2")
    if memory_mb is not None and (
        isinstance(memory_mb, bool) or not isinstance(memory_mb, int) or not 1 <= memory_mb <= MAX_MEMORY_MB
    ):
        problem = f"expected a positive integer, at most {MAX_MEMORY_MB}, got {memory_mb!r}"
        raise SpecError(path, "limits.memory_mb", problem, "memory_mb = 256")
    return ProblemLimits(float(time_s) if time_s is not None else None, memory_mb)


def _source(path: Path, raw: Mapping[str, Any], key: str = "source") -> dict[str, ProvenanceValue]:
    table = raw.get(key, {})
    if not isinstance(table, dict) or not all(isinstance(v, str | int | float | bool) for v in table.values()):
        raise SpecError(path, key, "expected a table of strings and numbers", f'write [{key}] dataset = "..."')
    return dict(table)


def slug(text: str) -> str:
    """A problem id made from any text: lower case, runs of other characters as ``_`` (``"1003_F. X"`` -> ``1003_f_x``).

    Empty when ``text`` has no letter or digit; at most 120 characters.
    """
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:120].rstrip("_")


def write_problem(
    pool: Path | str,
    problem_id: str,
    program: str,
    language: str,
    tests: Sequence[NewTest],
    *,
    study: str | None = None,
    rule: str | None = None,
    limits: ProblemLimits | None = None,
    source: Mapping[str, ProvenanceValue] | None = None,
    overwrite: bool = False,
) -> Path:
    """Write one problem as ``pool/problem_id`` and return that directory.

    Atomic: the files go to a hidden temporary directory in ``pool`` that is
    renamed into place, so a reader never sees half a problem. An existing
    ``pool/problem_id`` is an ``InputFileError`` unless ``overwrite``; so are no
    tests and two tests of one name. Ids and test names must be plain names
    (letters, digits, ``.``, ``_``, ``-``).
    """
    pool = Path(pool)
    _check_name(problem_id, "problem id")
    for test in tests:
        _check_name(test.name, "test name")
    if not tests:
        raise InputFileError(f"problem {problem_id} has no tests. Fix: give at least one NewTest")
    if len({t.name for t in tests}) != len(tests):
        raise InputFileError(f"problem {problem_id}: two tests share a name. Fix: name every test once")
    target = pool / problem_id
    if target.exists() and not overwrite:
        raise InputFileError(f"problem directory {target} already exists. Fix: pass --overwrite or another pool")
    pool.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{problem_id}.", dir=pool))
    try:
        _fill(tmp, program, language, tests)
        toml = problem_toml(problem_id, study=study, rule=rule, limits=limits, source=source)
        (tmp / PROBLEM_FILE).write_text(toml, encoding="utf-8")
        os.chmod(tmp, 0o755)
        _replace(tmp, target)
    finally:
        remove_tree(tmp)
    return target


def _check_name(name: str, what: str) -> None:
    if not _NAME.fullmatch(name):
        raise InputFileError(
            f"{what} {name!r} is not a plain name. Fix: use letters, digits, '.', '_' and '-' (see slug())"
        )


def _fill(d: Path, program: str, language: str, tests: Sequence[NewTest]) -> None:
    main = language_entry(language).program
    (d / main).write_text(program, encoding="utf-8", newline="")
    (d / "tests").mkdir()
    for test in tests:
        (d / "tests" / f"{test.name}.in").write_bytes(test.input)
        if test.output is not None:
            (d / "tests" / f"{test.name}.out").write_bytes(test.output)


def _replace(tmp: Path, target: Path) -> None:
    """Rename ``tmp`` to ``target``; an existing ``target`` is first moved aside, then removed."""
    if not target.exists():
        os.rename(tmp, target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
    os.rename(target, old / "problem")
    os.rename(tmp, target)
    remove_tree(old)


def problem_toml(
    problem_id: str,
    *,
    study: str | None = None,
    rule: str | None = None,
    limits: ProblemLimits | None = None,
    source: Mapping[str, ProvenanceValue] | None = None,
) -> str:
    """The text of a ``problem.toml`` with these values (``None`` values are left out)."""
    lines = [f"id = {toml_value(problem_id)}"]
    lines += [f"{key} = {toml_value(v)}" for key, v in (("study", study), ("grading_rule", rule)) if v is not None]
    if limits is not None and limits != ProblemLimits():
        given = (("time_s", limits.time_s), ("memory_mb", limits.memory_mb))
        lines += ["", "[limits]"] + [f"{k} = {toml_value(v)}" for k, v in given if v is not None]
    if source:
        lines += ["", "[source]"] + [f"{toml_key(k)} = {toml_value(v)}" for k, v in source.items()]
    return "\n".join(lines) + "\n"
