"""The case context: what every step of one case's build reads (its spec, program, languages, folder, options,
the build's measurement memo).

``CaseContext`` is made once per case, after its environment, program and loop are read (``_case``), and
passed unchanged to the checks (``_checks``), the state runs (``_states``), the tasks' measurements
(``_tasks``) and the search for fresh inputs (``_fresh``). It depends on no other step of the build, so
any of them may import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from execstate.builder._measurements import Measurements
from execstate.builder._spec import CaseSpec
from execstate.environments import Environment
from execstate.languages import BuildOptions, Instrumented, Language, Mode, Variation
from execstate.sandbox import SandboxResult


@dataclass(frozen=True)
class CaseContext:
    """One case being built: its spec, its program, the languages that run it and where, and the build's options.

    Every field is set once, before the first check, and never changes.
    """

    spec: CaseSpec
    """The case spec: id, study, checkpoint (loop, variables, iteration, sweep), inputs, invariant, grading rule.
    Read by every step."""
    lang: Language
    """The adapter of the program's language, seeing the declared environment: it instruments, runs and
    measures the program (the checks, the state runs, the measurements, the fresh-input traces)."""
    source: str
    """The clean program's text, which the final arms show and every instrumented copy is made from."""
    workdir: Path
    """The case's temporary folder: every run's private directory is made under it (removed with the case)."""
    generators: Language
    """Input generators are helper programs: Python whatever the case's language (``helper_language``).
    Used to make the spec's generated inputs and, in a fresh build, the fresh ones."""
    opts: BuildOptions
    """The build's options: limits (``max_input_bytes``, ``max_checkpoint_bytes``), the interpreter
    (``python``), ``measure_arms_apart``."""
    env: Environment | None = None
    """The case's declared environment, prepared (None: the standard library only); recorded in the tasks'
    meta and given to a fresh build's non-Python input programs."""
    memo: Measurements = field(default_factory=Measurements)
    """The measurement memo of the build the case is part of (``_measurements``): every measurement goes
    through it, so a run measured once in the build is not measured again."""

    def run(self, source: str, stdin: bytes, variation: Variation | None = None) -> SandboxResult:
        """One run of ``source`` (the program or a copy of it) on ``stdin``, with ``variation``'s seed (else 0)."""
        return self.lang.run(source, stdin, self.workdir, seed=variation.seed if variation else 0)

    def instrument(self, loop_line: int, mode: Mode, k: int) -> Instrumented:
        """The program's copy instrumented for ``mode`` at iteration ``k`` of the loop at ``loop_line``."""
        return self.lang.instrument(self.source, loop_line, self.spec.checkpoint.variables, mode, k)


__all__ = ["CaseContext"]
