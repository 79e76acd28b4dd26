"""A case's environment, program, loop and inputs, read: the ``spec`` and ``input-size`` checks before the nine.

Each raises ``SpecError`` (the case's ``spec`` exclusion, naming the key and the fix) or ``Excluded``.
"""

from __future__ import annotations

from execstate.builder._checks import Excluded, check_input_size
from execstate.builder._context import CaseContext
from execstate.builder._spec import CaseSpec, InputSource
from execstate.environments import Environment, EnvironmentUnavailable, prepare
from execstate.errors import SpecError, SpecProblem
from execstate.languages import BuildOptions, Language


def case_environment(spec: CaseSpec, opts: BuildOptions) -> Environment | None:
    """The spec's declared environment, installed (cached) for the build's interpreter; None if it declares none."""
    if spec.environment is None:
        return None
    try:
        return prepare(spec.environment, opts.python)
    except EnvironmentUnavailable as exc:
        raise Excluded("spec", f"{spec.spec_path} [environment]: {exc}") from None


def read_source(spec: CaseSpec) -> str:
    """The program's text (UTF-8)."""
    try:
        return spec.program.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(spec.spec_path, "program", f"{spec.program} is not UTF-8 ({exc})", "save it as UTF-8") from None


def locate_loop(spec: CaseSpec, lang: Language, source: str) -> int:
    """The selected loop's header line, the program and checkpoint validated by the language."""
    try:
        cp = spec.checkpoint
        return lang.locate_loop(source, cp.loop, cp.loop_text, cp.variables)
    except SpecProblem as exc:
        problem = f"{spec.program}: {exc.problem}" if exc.key == "program" else exc.problem
        raise SpecError(spec.spec_path, exc.key, problem, exc.fix) from None
    except (RecursionError, MemoryError) as exc:
        problem = f"{spec.program} is nested too deeply to compile ({type(exc).__name__})"
        raise SpecError(spec.spec_path, "program", problem, "flatten the most deeply nested expression") from None


def make_input(case: CaseContext, src: InputSource, key: str) -> bytes:
    """The input the spec's ``key`` names: the file's bytes or the generator's stdout, within the size limit, UTF-8."""
    if src.file is not None:
        check_input_size(case, key, f"file {src.file.name}", src.file.stat().st_size)
        data = src.file.read_bytes()
    else:
        assert src.generator is not None
        try:
            text = src.generator.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            problem = f"{src.generator.name} is not UTF-8 ({exc})"
            raise SpecError(case.spec.spec_path, key, problem, "save it as UTF-8") from None
        res = case.generators.run(text, b"", case.workdir, args=src.args)
        if not res.ok:
            raise SpecError(
                case.spec.spec_path,
                key,
                f"input generator {src.generator.name} failed: {res.describe()}",
                "make the generator exit 0 and print the input on stdout",
            )
        data = res.stdout
        check_input_size(case, key, f"output of generator {src.generator.name}", len(data))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise SpecError(case.spec.spec_path, key, "the input is not UTF-8 text", "provide a UTF-8 input") from None
    return data


__all__ = ["case_environment", "locate_loop", "make_input", "read_source"]
