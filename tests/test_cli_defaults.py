"""The command line's own defaults agree with the library's, since the parser cannot import the library."""

from __future__ import annotations

import dataclasses
import shlex

from execstate.analyze import AnalysisConfig
from execstate.cli import _analyze, make_parser
from execstate.pipeline import DEFAULT_STUDIES
from execstate.studies import builtin_studies


def test_analyze_defaults_equal_the_analysis_config():
    fields = {f.name: f.default for f in dataclasses.fields(AnalysisConfig)}
    assert (fields["seed"], fields["replicates"], fields["permutations"]) == (
        _analyze.SEED,
        _analyze.REPLICATES,
        _analyze.PERMUTATIONS,
    )
    args = make_parser().parse_args(["analyze", "--tasks", "t", "--grades", "g", "--out", "o"])
    assert (args.seed, args.replicates, args.permutations) == (20250101, 10_000, 10_000)
    assert AnalysisConfig().exclude_study == "networkx"  # from the registry's shared_source flag


def test_the_main_job_builds_every_builtin_study_of_the_main_grid():
    assert DEFAULT_STUDIES == (
        "classic",
        "classic_cpp",
        "codecontests_py",
        "cruxeval",
        "library_cpp",
        "networkx",
        "pyperformance",
    )
    # the pilot runs apart (execstate pilot)
    assert set(builtin_studies()) - set(DEFAULT_STUDIES) == {"pilot"}


def test_debug_flag_is_accepted_before_and_after_the_command():
    parser = make_parser()
    assert parser.parse_args(["--debug", "tables", "--run", "r"]).debug is True
    assert parser.parse_args(["tables", "--run", "r", "--debug"]).debug is True
    assert parser.parse_args(["tables", "--run", "r"]).debug is False


def test_build_bounds_defaults_equal_the_build_options():
    from execstate.builder import BuildOptions
    from execstate.languages.cpp.options import CppOptions

    fields = {f.name: f.default for f in dataclasses.fields(BuildOptions)}
    for command in (["build", "x", "--out", "o"], ["pipeline", "--out", "o"]):
        args = make_parser().parse_args(command)
        assert (args.measure_factor, args.max_input_bytes, args.max_checkpoint_bytes) == (
            fields["measure_factor"],
            fields["max_input_bytes"],
            fields["max_checkpoint_bytes"],
        )
        assert (args.cxx, tuple(shlex.split(args.cxxflags))) == (CppOptions().cxx, CppOptions().cxxflags)
        budgets = (args.trace_budget, args.state_budget, args.object_budget)
        assert budgets == (fields["trace_budget"], fields["state_budget"], fields["object_budget"])


def test_the_parsers_spelled_defaults_are_the_build_options():
    """``cli._build`` spells BuildOptions' defaults so ``--help`` need not import the languages package; they agree."""
    from execstate.cli import _build
    from execstate.languages import BuildOptions

    assert BuildOptions.measure_factor == _build.MEASURE_FACTOR
    assert {flag: default for flag, (default, _) in _build.BUDGETS.items()} == {
        "--trace-budget": BuildOptions.trace_budget,
        "--state-budget": BuildOptions.state_budget,
        "--object-budget": BuildOptions.object_budget,
    }
