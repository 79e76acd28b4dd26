"""Settings TOML validation, the exact SPEC section 7 prompt, and the request body a setting produces."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from run_helpers import make_task

from execstate.run import Setting, SettingsError, backoff_s, load_settings, render_messages, request_body

EXAMPLE = """
[[setting]]
name = "local-high"
provider = "openai"
base_url = "http://127.0.0.1:8000/v1"
model = "my-model"
api_key_env = "MY_KEY"
reasoning = "high"
max_output_tokens = 32768
concurrency = 16
extra_body = { chat_template_kwargs = { enable_thinking = true } }

[[setting]]
name = "check"
provider = "oracle"

[[setting]]
name = "again"
provider = "replay"
replay_file = "answers.jsonl"
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(text)
    return path


def test_the_example_settings_file_loads_with_spec_defaults(tmp_path: Path) -> None:
    high, oracle, replay = load_settings(_write(tmp_path, EXAMPLE))
    assert (high.name, high.reasoning, high.concurrency, high.max_output_tokens) == ("local-high", "high", 16, 32768)
    assert high.effective_timeout_s == 3600
    assert oracle.provider == "oracle"
    assert replay.replay_file == str(tmp_path / "answers.jsonl")  # relative to the TOML's folder


def test_default_timeout_without_reasoning_is_1800() -> None:
    s = Setting(name="x", base_url="http://h/v1", model="m")
    assert s.reasoning == "off" and s.effective_timeout_s == 1800
    assert Setting(name="x", base_url="http://h/v1", model="m", timeout_s=5).effective_timeout_s == 5


def test_unknown_key_names_file_setting_and_key(tmp_path: Path) -> None:
    path = _write(tmp_path, '[[setting]]\nname = "a"\nprovider = "oracle"\ntemprature = 0.2\n')
    with pytest.raises(SettingsError) as err:
        load_settings(path)
    msg = str(err.value)
    assert str(path) in msg and "'a'" in msg and "'temprature'" in msg and "temperature" in msg


def test_bad_value_and_missing_fields_are_reported(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=r"reasoning"):
        load_settings(_write(tmp_path, '[[setting]]\nname = "a"\nprovider = "oracle"\nreasoning = "maximum"\n'))
    with pytest.raises(SettingsError, match=r"provider 'openai' needs model"):
        load_settings(_write(tmp_path, '[[setting]]\nname = "a"\n'))
    with pytest.raises(SettingsError, match=r"needs replay_file"):
        load_settings(_write(tmp_path, '[[setting]]\nname = "a"\nprovider = "replay"\n'))


def test_file_level_problems(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="unknown top-level"):
        load_settings(_write(tmp_path, 'model = "m"\n[[setting]]\nname = "a"\nprovider = "oracle"\n'))
    with pytest.raises(SettingsError, match="no \\[\\[setting\\]\\] tables"):
        load_settings(_write(tmp_path, "# empty\n"))
    with pytest.raises(SettingsError, match="used more than once"):
        load_settings(_write(tmp_path, '[[setting]]\nname = "a"\nprovider = "oracle"\n' * 2))
    with pytest.raises(SettingsError, match="cannot read"):
        load_settings(_write(tmp_path, "[[setting]\n"))


def test_missing_key_variable_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EXECSTATE_TEST_NO_SUCH_KEY", raising=False)
    s = Setting(name="x", base_url="http://h/v1", model="m", api_key_env="EXECSTATE_TEST_NO_SUCH_KEY")
    with pytest.raises(SettingsError, match="EXECSTATE_TEST_NO_SUCH_KEY is not set"):
        s.api_key()
    monkeypatch.setenv("EXECSTATE_TEST_NO_SUCH_KEY", "sk-1")
    assert s.api_key() == "sk-1"


SPEC_SYSTEM = (
    "Given the program and input below, determine the exact output.\n"
    "<program>\n"
    "print('T3')\n"
    "\n"
    "</program>\n"
    "<input>\n"
    "3\n"
    "\n"
    "</input>\n"
    'Respond in this format: {"output":"<exact text>"}'
)


def test_prompt_is_spec_section_7_with_literal_substitution() -> None:
    assert render_messages(make_task(3)) == [
        {"role": "system", "content": SPEC_SYSTEM},
        {"role": "user", "content": "Return the requested prediction."},
    ]


def test_braces_and_placeholders_in_a_program_are_not_reinterpreted() -> None:
    task = make_task(1).model_copy(update={"source": 'print("{input} {source} {}".format(1))', "input": "{x}"})
    system = render_messages(task)[0]["content"]
    assert '<program>\nprint("{input} {source} {}".format(1))\n</program>\n<input>\n{x}\n</input>' in system


def test_request_body_maps_reasoning_and_sends_no_sampling_fields_unless_set() -> None:
    s = Setting(name="x", base_url="http://h/v1", model="m", reasoning="high", max_output_tokens=100)
    body = request_body(s, render_messages(make_task(0)))
    assert body == {
        "model": "m",
        "messages": render_messages(make_task(0)),
        "reasoning_effort": "high",
        "max_completion_tokens": 100,
    }
    off = request_body(Setting(name="x", base_url="http://h/v1", model="m"), render_messages(make_task(0)))
    assert set(off) == {"model", "messages"}


def test_request_body_field_names_and_extra_body_override() -> None:
    s = Setting(
        name="x",
        base_url="http://h/v1",
        model="m",
        reasoning="low",
        reasoning_field="",
        temperature=0.0,
        top_p=1.0,
        max_output_tokens=7,
        max_tokens_field="max_tokens",
        extra_body={"reasoning": {"effort": "low"}, "temperature": 0.5},
    )
    body = request_body(s, render_messages(make_task(0)))
    assert "reasoning_effort" not in body and body["reasoning"] == {"effort": "low"}
    assert (body["temperature"], body["top_p"], body["max_tokens"]) == (0.5, 1.0, 7)


def test_backoff_is_full_jitter_capped_and_raised_to_retry_after() -> None:
    s = Setting(name="x", provider="oracle", backoff_initial_s=1.0, backoff_max_s=8.0)
    rng = random.Random(0)
    for retry, ceiling in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (9, 8.0)]:
        delays = [backoff_s(s, retry, None, rng) for _ in range(200)]
        assert min(delays) >= 0 and max(delays) <= ceiling and max(delays) > ceiling / 2
    assert backoff_s(s, 1, 5.0, rng) >= 5.0
    assert backoff_s(s, 1, 500.0, rng) == 8.0  # a huge Retry-After is capped at backoff_max_s


def test_every_refused_setting_is_named_at_once(tmp_path: Path) -> None:
    text = (
        '[[setting]]\nname = "good"\nprovider = "oracle"\n'
        '[[setting]]\nname = "bad-1"\nprovider = "oracle"\nreasoning = "maximum"\n'
        '[[setting]]\nname = "bad-2"\nprovider = "oracle"\nconcurrency = 0\n'
    )
    with pytest.raises(SettingsError) as err:
        load_settings(_write(tmp_path, text))
    lines = str(err.value).splitlines()
    assert "2 settings are refused" in lines[0]
    assert any("'bad-1'" in line and "reasoning" in line for line in lines[1:])
    assert any("'bad-2'" in line and "concurrency" in line for line in lines[1:])
    assert not any("'good'" in line for line in lines)
