"""``Setting`` is grouped by concern yet read, written and fingerprinted as the one flat table it always was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execstate.run import Setting, SettingsError, load_settings
from execstate.run._manifest import _recorded
from execstate.run._settings import FLAT_KEYS, GROUPS, Batching, Identity, Prices, RequestKeys, Transport

RECORDED = (
    '{"name": "g", "provider": "openai", "base_url": "http://x/v1", "model": "m", "api_key_env": null, '
    '"reasoning": "off", "reasoning_field": "reasoning_effort", "timeout_s": null, "max_output_tokens": null, '
    '"max_tokens_field": "max_completion_tokens", "concurrency": 3, "temperature": 0.2, "top_p": null, '
    '"extra_body": {"a": 1}, "max_attempts": 6, "backoff_initial_s": 2.0, "backoff_max_s": 120.0, '
    '"retry_timeouts": false, "connect_timeout_s": 30.0, "price_input_per_mtok": 1.5, "batch": true, '
    '"stream": false}'
)
"""The manifest entry of ``_setting()`` as the flat ``Setting`` wrote it (before the groups): kept byte for byte."""
FINGERPRINT = (
    '{"provider": "openai", "base_url": "http://x/v1", "model": "m", "reasoning": "off", "reasoning_field": '
    '"reasoning_effort", "max_output_tokens": null, "max_tokens_field": "max_completion_tokens", "temperature": '
    '0.2, "top_p": null, "extra_body": {"a": 1}, "effort": null, "max_output_limit": null, "sampling": "auto"}'
)


def _setting() -> Setting:
    keys = {"name": "g", "provider": "openai", "model": "m", "base_url": "http://x/v1", "concurrency": 3}
    return Setting.model_validate(
        {
            **keys,
            "price_input_per_mtok": 1.5,
            "batch": True,
            "stream": False,
            "extra_body": {"a": 1},
            "temperature": 0.2,
        }
    )


def test_every_common_key_is_in_exactly_one_group_and_written_in_the_flat_order() -> None:
    keys = [k for model in GROUPS.values() for k in model.model_fields]
    assert len(keys) == len(set(keys)) and sorted(keys) == sorted(FLAT_KEYS)
    assert list(_setting().model_dump()) == list(FLAT_KEYS)


def test_the_manifest_entry_and_the_request_fingerprint_keep_their_bytes() -> None:
    s = _setting()
    assert json.dumps(_recorded(s)) == RECORDED
    assert json.dumps(s.request_fingerprint()) == FINGERPRINT


def test_a_flat_table_is_grouped_and_read_flat() -> None:
    s = Setting(name="s", provider="synthetic", concurrency=3, batch_open=2, synthetic_skill=0.5)
    assert s.identity == Identity(name="s", provider="synthetic")
    assert s.transport == Transport(concurrency=3) and s.batching == Batching(batch_open=2)
    assert s.request == RequestKeys() and s.prices == Prices()
    assert (s.name, s.concurrency, s.batch_open, s.model_extra) == ("s", 3, 2, {"synthetic_skill": 0.5})
    assert Setting.model_validate(s.model_dump()) == s
    assert Setting(identity=Identity(name="s", provider="synthetic"), synthetic_skill=0.5).name == "s"


def test_refusals_name_the_flat_key(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('[[setting]]\nname = "x"\nprovider = "oracle"\nconcurrency = 0\n')
    with pytest.raises(SettingsError) as refused:
        load_settings(path)
    assert str(refused.value) == f"{path}: setting 'x': concurrency: Input should be greater than 0"
    with pytest.raises(ValueError, match="either flat or inside transport"):
        Setting(name="x", provider="oracle", concurrency=2, transport=Transport())
