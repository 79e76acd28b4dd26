"""Pin the public API: a change to what a stage exports must be deliberate (update this table)."""

import importlib

import pytest

import execstate.cli

PUBLIC = {
    'execstate.build': {
        'AnchorError', 'BuildOptions', 'BuildResult', 'CppLanguage', 'LANGUAGES', 'PARTIAL_DIR', 'CORPUS_COLUMNS', 'CaseSpec', 'Instrumented', 'Language', 'LanguageError', 'PythonLanguage', 'SpecError', 'build', 'build_case', 'builtin_studies', 'corpus', 'corpus_table', 'find_specs', 'instrument', 'load_spec', 'resolve_loop', 'study_dir', 'tasks_bytes', 'write_build',
    },
    'execstate.run': {
        'Attempt', 'OpenAIProvider', 'OracleProvider', 'Provider', 'RESPONSES_NAME', 'Repair', 'ReplayProvider', 'ResponseStore', 'RunInvocation', 'RunManifest', 'RunSummary', 'SYSTEM_TEMPLATE', 'Setting', 'SettingAborted', 'SettingsError', 'StoreError', 'SyntheticProvider', 'USER_MESSAGE', 'arun_tasks', 'backoff_s', 'classify_response', 'event_loop_run', 'load_settings', 'open_store', 'render_messages', 'render_system', 'request_body', 'run_cell', 'run_tasks',
    },
    'execstate.grade': {
        'AccuracyTables', 'Cell', 'CruxevalScore', 'GRADES_NAME', 'Extraction', 'GradePlanError', 'GradeRun', 'RULES', 'RunPlan', 'accuracy_tables', 'answer_matches', 'extract', 'format_markdown', 'grade_all', 'grade_response', 'grade_run', 'load_run_plan', 'pass_at_k', 'plan_cells', 'plan_run_cells', 'print_tables', 'score_file', 'score_generations', 'write_tables',
    },
    'execstate.analyze': {
        'Analysis', 'AnalysisConfig', 'BHFamily', 'Cells', 'Cohort', 'DYNAMIC_METRICS', 'LogitFit', 'METRICS', 'MODELS', 'analyze', 'analyze_cells', 'benjamini_hochberg', 'binned_rates', 'build_design', 'cluster_bootstrap_ratio', 'cluster_regression', 'figure_data', 'final_pairs', 'fit_logit', 'joinable_grades', 'load_cells', 'paired_comparison', 'percentile_interval', 'permutation_theta', 'permutation_thetas', 'quantile_bins', 'rank_theta', 'regression_rows', 'seeded_rng', 'series_summary', 'series_tests', 'wilson_interval', 'write_analysis_json',
    },
    'execstate.report': {
        'FigureOut', 'ReportFiles', 'analyze_files', 'render_figures', 'write_report',
    },
    'execstate.metrics': {
        'CompileFailure', 'Compiled', 'Compiler', 'CompilerMissing', 'CppMeasurement', 'Measurement', 'compile_cpp', 'cyclomatic', 'cyclomatic_cpp', 'measure', 'measure_cpp', 'metrics_report', 'python_version', 'run_binary', 'state_metrics',
    },
    'execstate.metrics.cpp': {
        'SLOTS_MARKER', 'CompileFailure', 'Compiled', 'Compiler', 'CompilerMissing', 'CppMeasurement', 'compile_cpp', 'cyclomatic_cpp', 'function_complexities', 'gcda_runs', 'measure_cpp', 'observations', 'run_binary', 'state_metrics',
    },
    'execstate.pipeline': {
        'DEFAULT_STUDIES', 'ORACLE_SETTING', 'PIPELINE_CHECK_SETTINGS', 'PipelineResult', 'SYNTHETIC_SETTING', 'run_pipeline',
    },
    'execstate.studies': {
        'DEFAULT_GRADING_RULE', 'STUDIES', 'Study', 'builtin_studies', 'builtin_study', 'default_grading_rule', 'get_study', 'shared_source_studies', 'study_dir',
    },
    'execstate.tables': {
        'FORMATS', 'Row', 'Table', 'format_value', 'make_table', 'to_csv', 'to_json', 'to_markdown', 'write_tables',
    },
    'execstate.testing': {
        'Drop', 'Hold', 'Reply', 'Request', 'SETTINGS', 'STUDIES', 'Script', 'ScriptedServer', 'completion', 'synthetic_grades', 'synthetic_tasks',
    },
    'execstate.errors': {
        'REASON_LIMIT', 'ExecstateError', 'InputFileError', 'Interrupted', 'NothingAdmitted', 'PlanError', 'ProgramFailed', 'RecordError', 'SettingsError', 'SpecError', 'StoreError', 'UsageError', 'bounded_reason', 'one_line', 'output_dir', 'output_file', 'remove_tree', 'require_file',
    },
    'execstate.studies.cruxeval': {
        'DATA_PATH', 'STUDY', 'cruxeval_tasks', 'item_task', 'load_items',
    },
}


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_exported_members(module):
    mod = importlib.import_module(module)
    assert set(mod.__all__) == PUBLIC[module]
    for name in mod.__all__:
        assert getattr(mod, name) is not None


def test_every_stage_registers_its_commands():
    commands = set(execstate.cli.make_parser()._subparsers._group_actions[0].choices)
    assert {"build", "metrics", "run", "grade", "tables", "cruxeval-score", "analyze", "pipeline"} <= commands
