"""Run stage: send tasks to model settings and record one response per cell (SPEC sections 7-8)."""

from execstate.errors import SettingsError, StoreError
from execstate.records import RunInvocation, RunManifest
from execstate.run._batch import BatchCounts
from execstate.run._batches import CancelledBatch
from execstate.run._cache import CacheWarning, ResponseCache, default_cache_dir
from execstate.run._journal import JOURNAL_NAME as BATCH_JOURNAL_NAME
from execstate.run._local import (
    SMOLLM2_ALIAS,
    LlamaServer,
    LocalModelError,
    free_port,
    local_extra_installed,
    local_setting,
    smollm2_gguf,
)
from execstate.run._plan import PlanRow, format_plan, plan_run
from execstate.run._policy import SettingAborted, backoff_s, run_cell
from execstate.run._prompt import SYSTEM_TEMPLATE, USER_MESSAGE, cell_request, render_messages, render_system
from execstate.run._retry import RETRIED_NAME
from execstate.run._runner import (
    RESPONSES_NAME,
    RunSummary,
    acancel_batches,
    arun_tasks,
    cancel_batches,
    directory_lock,
    event_loop_run,
    manifest_inputs,
    plan_tasks,
    run_tasks,
)
from execstate.run._settings import Setting, load_settings
from execstate.run._store import Repair, ResponseStore, open_store
from execstate.run.providers import (
    Attempt,
    CellRequest,
    Provider,
    ProviderEntry,
    TaskProvider,
    WireRequest,
    provider_entry,
    provider_names,
    register_provider,
    unregister_provider,
)
from execstate.run.providers.openai import OpenAIProvider, classify_response, request_body
from execstate.run.providers.oracle import OracleProvider
from execstate.run.providers.replay import ReplayProvider
from execstate.run.providers.synthetic import SyntheticProvider

__all__ = [
    "BATCH_JOURNAL_NAME",
    "RESPONSES_NAME",
    "RETRIED_NAME",
    "SMOLLM2_ALIAS",
    "SYSTEM_TEMPLATE",
    "USER_MESSAGE",
    "Attempt",
    "BatchCounts",
    "CacheWarning",
    "CancelledBatch",
    "CellRequest",
    "LlamaServer",
    "LocalModelError",
    "OpenAIProvider",
    "OracleProvider",
    "PlanRow",
    "Provider",
    "ProviderEntry",
    "Repair",
    "ReplayProvider",
    "ResponseCache",
    "ResponseStore",
    "RunInvocation",
    "RunManifest",
    "RunSummary",
    "Setting",
    "SettingAborted",
    "SettingsError",
    "StoreError",
    "SyntheticProvider",
    "TaskProvider",
    "WireRequest",
    "acancel_batches",
    "arun_tasks",
    "backoff_s",
    "cancel_batches",
    "cell_request",
    "classify_response",
    "default_cache_dir",
    "directory_lock",
    "event_loop_run",
    "format_plan",
    "free_port",
    "load_settings",
    "local_extra_installed",
    "local_setting",
    "manifest_inputs",
    "open_store",
    "plan_run",
    "plan_tasks",
    "provider_entry",
    "provider_names",
    "register_provider",
    "render_messages",
    "render_system",
    "request_body",
    "run_cell",
    "run_tasks",
    "smollm2_gguf",
    "unregister_provider",
]
