"""Pin the public API: a change to what a stage exports must be deliberate (update this table)."""

import importlib

import pytest

import execstate.cli

PUBLIC = {
    'execstate.build': {
        'AnchorError', 'BuildOptions', 'BuildResult', 'CaseSpec', 'Instrumented', 'Language', 'LanguageError', 'PythonLanguage', 'SpecError', 'build', 'build_case', 'builtin_studies', 'find_specs', 'instrument', 'load_spec', 'resolve_loop', 'study_dir', 'tasks_bytes', 'write_build',
    },
    'execstate.run': {
        'Attempt', 'OpenAIProvider', 'OracleProvider', 'Provider', 'RESPONSES_NAME', 'Repair', 'ReplayProvider', 'ResponseStore', 'RunInvocation', 'RunManifest', 'RunSummary', 'SYSTEM_TEMPLATE', 'Setting', 'SettingAborted', 'SettingsError', 'StoreError', 'SyntheticProvider', 'USER_MESSAGE', 'arun_tasks', 'backoff_s', 'classify_response', 'load_settings', 'open_store', 'render_messages', 'render_system', 'request_body', 'run_cell', 'run_tasks',
    },
    'execstate.grade': {
        'AccuracyTables', 'Cell', 'Extraction', 'GradePlanError', 'GradeRun', 'RULES', 'RunPlan', 'accuracy_tables', 'answer_matches', 'extract', 'format_markdown', 'grade_all', 'grade_response', 'grade_run', 'load_run_plan', 'plan_cells', 'plan_run_cells', 'print_tables', 'write_tables',
    },
    'execstate.analyze': {
        'Analysis', 'AnalysisConfig', 'BHFamily', 'Cells', 'Cohort', 'DYNAMIC_METRICS', 'LogitFit', 'METRICS', 'MODELS', 'analyze', 'analyze_cells', 'benjamini_hochberg', 'build_design', 'cluster_bootstrap_ratio', 'cluster_regression', 'final_pairs', 'fit_logit', 'load_cells', 'paired_comparison', 'percentile_interval', 'permutation_theta', 'permutation_thetas', 'rank_theta', 'regression_rows', 'seeded_rng', 'series_summary', 'series_tests', 'synthetic_grades', 'synthetic_tasks', 'wilson_interval', 'write_analysis_json',
    },
    'execstate.report': {
        'FigureOut', 'ReportFiles', 'Table', 'analyze_files', 'binned_rates', 'make_table', 'quantile_bins', 'render_figures', 'to_csv', 'to_markdown', 'write_report', 'write_table_files',
    },
    'execstate.metrics': {
        'Measurement', 'cyclomatic', 'measure', 'python_version',
    },
    'execstate.pipeline': {
        'DEFAULT_STUDIES', 'ORACLE_SETTING', 'PIPELINE_CHECK_SETTINGS', 'PipelineResult', 'SYNTHETIC_SETTING', 'run_pipeline',
    },
    'execstate.studies.cruxeval': {
        'CruxevalScore', 'DATA_PATH', 'STUDY', 'cruxeval_tasks', 'item_task', 'load_items', 'pass_at_k', 'score_file', 'score_generations',
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
