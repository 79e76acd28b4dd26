"""Write what construction chose as a case spec: references to the pool's files, or a self-contained copy.

By default a constructed spec names the problem's own files where it can:
the program when construction used it unchanged (a C++ program whose local
headers were inlined is written beside the spec, since the pool holds no such
file), and an input when it is one of the pool's tests (``tests/NAME.in``, as
the spec's ``[provenance]`` ``short_input``/``long_input`` say). Generated
inputs are written beside the spec (``short.txt``, ``long.txt``). The study
root rules (docs/spec.md, section 3) then need the pool inside the specs'
study: when it is not, ``ensure_sources`` writes ``OUT/study.toml`` listing
the pools in ``sources``. ``vendor=True`` copies every file instead (the
program, ``short.txt``, ``long.txt``): a spec folder that can be moved alone.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate.builder import STUDY_FILE, SpecDraft, find_study, load_spec, relative_name, write_spec
from execstate.construct._pool import Problem
from execstate.environments import EnvironmentSpec
from execstate.errors import SpecError
from execstate.languages import language_entry

SPEC_NAME = "case.toml"
RECORD_NAME = "construct.json"
SYNTHESIZED_GENERATOR = "gen.py"
"""The file name of a synthesized long input's generator beside its spec."""
STUDY_COMMENT = (
    "Written by `execstate construct`: the case specs in this folder name files of the problem pools listed\n"
    "in sources instead of copying them (`execstate construct --vendor` copies them instead)."
)


@dataclass(frozen=True)
class ChosenCase:
    """What construction chose for one problem: everything its spec states."""

    problem: Problem
    case_id: str
    study: str
    source: str
    """The program as built (a C++ program's local headers inlined)."""
    anchor: Mapping[str, Any]
    """``{"loop_text": header}``, or ``{"loop": line}`` when the header's text is not unique."""
    variables: tuple[str, ...]
    provenance: Mapping[str, Any]
    """Must hold ``short_input`` and ``long_input``: a pool test (``tests/NAME.in``) or a generator's description."""
    short: bytes
    long: bytes
    environment: EnvironmentSpec | None = None
    """The declaration the problem ran with; the spec states it, and holds copies of its include folders."""
    long_generator: str | None = None
    """A synthesized long input's ``gen.py`` (written beside the spec, which names it with ``long_args``):
    a rebuild re-creates ``long`` from it."""
    long_args: tuple[str, ...] = ()
    arms: tuple[str, ...] | None = None
    """The spec's ``arms`` (None: left out, the paper's four): construct with further arms writes them."""


def write_case(spec_dir: Path, case: ChosenCase, *, vendor: bool = False) -> Path:
    """Write ``case``'s spec as ``spec_dir/case.toml`` (with the files it does not reference); return its path.

    With ``vendor=False`` the pool's folder must be nameable from ``spec_dir`` (``ensure_sources``).
    """
    spec_dir.mkdir(parents=True, exist_ok=True)
    problem = case.problem
    program_name = language_entry(problem.language).program
    if not vendor and problem.program.read_text(encoding="utf-8") == case.source:
        program = relative_name(problem.program, spec_dir)
    else:
        (spec_dir / program_name).write_text(case.source, encoding="utf-8")
        program = program_name
    inputs: dict[str, str | dict[str, Any]] = {"short": _input(spec_dir, case, "short", case.short, vendor)}
    if case.long_generator is not None:
        (spec_dir / SYNTHESIZED_GENERATOR).write_text(case.long_generator, encoding="utf-8")
        inputs["long"] = {"generator": SYNTHESIZED_GENERATOR, "args": list(case.long_args)}
    else:
        inputs["long"] = _input(spec_dir, case, "long", case.long, vendor)
    draft = SpecDraft(
        comment=f"Made by `execstate construct` from problem {problem.id!r}; construct.json says why each choice won.",
        id=case.case_id,
        study=case.study,
        language=problem.language,
        program=program,
        short_input=inputs["short"],
        long_input=inputs["long"],
        grading_rule=problem.rule,
        arms=case.arms,
        checkpoint={**case.anchor, "variables": list(case.variables)},
        provenance=case.provenance,
        environment=_declaration(spec_dir, case.environment),
    )
    return write_spec(spec_dir / SPEC_NAME, draft)


def _declaration(spec_dir: Path, env: EnvironmentSpec | None) -> str | dict[str, Any] | None:
    """What the spec states of ``env``, with its include folders copied beside the spec: a declaration's
    include folders lie in the declaring file's folder (``parse_environment``)."""
    if env is None or env.is_empty():
        return None
    for name, folder in zip(env.include, env.include_dirs, strict=True):
        shutil.copytree(folder, spec_dir / name, dirs_exist_ok=True)
    return env.declaration()


def _input(spec_dir: Path, case: ChosenCase, arm: str, data: bytes, vendor: bool) -> str:
    """The name the spec gives the ``arm`` input: the pool's test file, or ``<arm>.txt`` written here."""
    chosen = str(case.provenance[f"{arm}_input"])
    test = case.problem.dir / chosen
    if not vendor and chosen.startswith("tests/") and test.is_file() and test.read_bytes() == data:
        return relative_name(test, spec_dir)
    (spec_dir / f"{arm}.txt").write_bytes(data)
    return f"{arm}.txt"


def check_written(spec_path: Path, case: ChosenCase) -> None:
    """Read the written spec back (``load_spec``) and check it names the very bytes construction admitted."""
    spec = load_spec(spec_path)
    named = {  # the builder reads a program as text (universal newlines), an input as bytes
        "program": spec.program.read_text(encoding="utf-8") == case.source,
        "short_input": spec.short_input.file is not None and spec.short_input.file.read_bytes() == case.short,
        "long_input": (
            spec.long_input.file is not None and spec.long_input.file.read_bytes() == case.long
            if case.long_generator is None
            else spec.long_input.generator is not None
            and spec.long_input.generator.read_text(encoding="utf-8") == case.long_generator
            and spec.long_input.args == case.long_args
        ),
    }
    for key, same in named.items():
        if not same:
            raise RuntimeError(f"{spec_path}: {key} names other content than construction admitted")


def ensure_sources(out: Path, pools: Iterable[Path]) -> None:
    """Let the specs of ``out/<problem>/`` name files in ``pools``: write ``out/study.toml`` when needed.

    Nothing is written when every pool already lies in the study of ``out``'s specs (its
    root or its ``sources``). Otherwise ``out/study.toml`` is written listing the missing
    pools in ``sources`` (relative to ``out``), kept with the ones a previous construction
    listed there; a ``study.toml`` in ``out`` that construction did not write is left alone
    and is a ``SpecError`` naming the missing folder (add it, or construct with ``vendor``).
    """
    out = Path(out)
    study = find_study(out / "_" / SPEC_NAME)  # the study of a spec folder of out
    missing = sorted({p.resolve() for p in pools if not any(p.resolve().is_relative_to(f) for f in study.folders)})
    if not missing:
        return
    path = out / STUDY_FILE
    known: list[Path] = []
    if study.file is not None and study.file.resolve() == path.resolve():
        if not path.read_text(encoding="utf-8").startswith("# " + STUDY_COMMENT.split("\n")[0]):
            name = relative_name(missing[0], out)
            problem = f"does not list {missing[0]}, whose files the constructed specs name"
            raise SpecError(path, "sources", problem, f'add "{name}" to sources, or construct with --vendor')
        known = list(study.sources)
    names = sorted({relative_name(folder, out) for folder in [*known, *missing]})
    write_spec(path, SpecDraft(comment=STUDY_COMMENT, sources=tuple(names)))


__all__ = [
    "RECORD_NAME",
    "SPEC_NAME",
    "ChosenCase",
    "check_written",
    "ensure_sources",
    "write_case",
]
