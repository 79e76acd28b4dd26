"""The C++ adapter's build options: which compiler builds the programs, and with which flags."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from execstate.metrics.cpp import DEFAULT_CXXFLAGS, Compiler


@dataclass(frozen=True)
class CppOptions:
    """Options of C++ cases, given in ``BuildOptions.language_options`` (``execstate build --cxx --cxxflags``)."""

    cxx: str = "g++"
    """The C++ compiler (a name on ``PATH`` or a path); its gcov is the one beside it (``g++-12`` -> ``gcov-12``)."""
    cxxflags: tuple[str, ...] = DEFAULT_CXXFLAGS
    """Flags of the C++ binaries that run. The measured (coverage) binaries keep these flags but their
    optimisation level: ``-O0 --coverage`` replaces every ``-O`` flag (SPEC 6)."""

    @classmethod
    def from_cli(cls, values: dict[str, str]) -> CppOptions:
        """The options from ``execstate build --cxx --cxxflags`` (the registry entry's ``cli_options``)."""
        return cls(cxx=values["cxx"], cxxflags=tuple(shlex.split(values["cxxflags"])))

    def compiler(self) -> Compiler:
        """The ``Compiler`` of C++ cases under these options."""
        plain = tuple(self.cxxflags)
        coverage = (*(f for f in plain if not f.startswith("-O")), "-O0", "--coverage")
        return Compiler(path=self.cxx, flags=plain, coverage_flags=coverage)
