"""Run stage: send tasks to model settings and record one response per cell (SPEC sections 7-8)."""

from execstate.errors import SettingsError, StoreError
from execstate.records import RunInvocation, RunManifest
from execstate.run._local import (
    SMOLLM2_ALIAS,
    LlamaServer,
    LocalModelError,
    free_port,
    local_extra_installed,
    local_setting,
    smollm2_gguf,
)
from execstate.run._policy import SettingAborted, backoff_s, run_cell
from execstate.run._prompt import SYSTEM_TEMPLATE, USER_MESSAGE, render_messages, render_system
from execstate.run._providers import (
    Attempt,
    OpenAIProvider,
    OracleProvider,
    Provider,
    ReplayProvider,
    classify_response,
    request_body,
)
from execstate.run._runner import RESPONSES_NAME, RunSummary, arun_tasks, event_loop_run, run_tasks
from execstate.run._settings import Setting, load_settings
from execstate.run._store import Repair, ResponseStore, open_store
from execstate.run._synthetic import SyntheticProvider

__all__ = [
    "RESPONSES_NAME",
    "SMOLLM2_ALIAS",
    "SYSTEM_TEMPLATE",
    "USER_MESSAGE",
    "Attempt",
    "LlamaServer",
    "LocalModelError",
    "OpenAIProvider",
    "OracleProvider",
    "Provider",
    "Repair",
    "ReplayProvider",
    "ResponseStore",
    "RunInvocation",
    "RunManifest",
    "RunSummary",
    "Setting",
    "SettingAborted",
    "SettingsError",
    "StoreError",
    "SyntheticProvider",
    "arun_tasks",
    "backoff_s",
    "classify_response",
    "event_loop_run",
    "free_port",
    "load_settings",
    "local_extra_installed",
    "local_setting",
    "open_store",
    "render_messages",
    "render_system",
    "request_body",
    "run_cell",
    "run_tasks",
    "smollm2_gguf",
]
