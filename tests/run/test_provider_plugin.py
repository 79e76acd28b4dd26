"""A provider from another installed package: declared in its ``execstate.providers`` entry points, named in a
settings file given to the ``execstate run`` command, with a path key resolved against that file's folder."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest
from run_helpers import cli_command, make_task, read_records

from execstate.records import write_jsonl
from execstate.registry import RegistryMiss
from execstate.run import ProviderEntry, Setting, load_settings, provider_entry, register_provider, unregister_provider
from execstate.run.providers import PROVIDERS
from execstate.testing.plugins import plugin_dist

TOY_PROVIDER = '''
"""A provider of another package: answers each cell from a JSON file named by its own path key."""

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from execstate.run import Attempt, ProviderEntry


class ToyOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    toy_answers: str
    """JSON object task_id -> output, relative to the settings file."""


class ToyProvider:
    name = "toy"
    pipeline_check = False

    def __init__(self, answers):
        self.model = "toy-1"
        self.answers = answers

    async def attempt(self, request):
        answer = "toy:" + self.answers[request.task_id] + ":" + str(len(request.messages))
        return Attempt("completed", text=json.dumps({"output": answer}), finish_reason="stop")

    async def aclose(self):
        return None


async def _open(setting):
    return ToyProvider(json.loads(Path(setting.options(ToyOptions).toy_answers).read_text())), []


ENTRY = ProviderEntry(name="toy", open=_open, options=ToyOptions, path_keys=("toy_answers",))
'''


def _toy_package(root: Path) -> Path:
    """A folder holding the package ``toyprov`` and its ``toyprov-0.dist-info`` (what ``pip install`` leaves)."""
    site = root / "site"
    (site / "toyprov").mkdir(parents=True)
    (site / "toyprov" / "__init__.py").write_text("")
    (site / "toyprov" / "provider.py").write_text(textwrap.dedent(TOY_PROVIDER))
    plugin_dist(site, "toyprov", {"execstate.providers": {"toy": "toyprov.provider:ENTRY"}})
    return site


def _env(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p)}


def test_a_provider_of_another_package_is_named_in_a_settings_file_given_to_the_command(tmp_path: Path) -> None:
    site = _toy_package(tmp_path)
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, [make_task(i) for i in range(3)])
    conf = tmp_path / "conf"
    (conf / "data").mkdir(parents=True)
    (conf / "data" / "answers.json").write_text(json.dumps({f"t{i}/short-trace-final": f"a{i}" for i in range(3)}))
    settings = conf / "settings.toml"
    settings.write_text('[[setting]]\nname = "plugged"\nprovider = "toy"\ntoy_answers = "data/answers.json"\n')
    out = tmp_path / "out"
    done = subprocess.run(
        cli_command("run", "--tasks", str(tasks), "--settings", str(settings), "--out", str(out)),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,  # not the settings file's folder: the path key is resolved against that folder
        env=_env(site),
    )
    assert done.returncode == 0, done.stderr
    records = sorted(read_records(out), key=lambda r: r.task_id)
    assert [(r.provider, r.model, r.status) for r in records] == [("toy", "toy-1", "completed")] * 3
    assert [json.loads(r.text or "")["output"] for r in records] == [f"toy:a{i}:2" for i in range(3)]
    manifest = json.loads((out / "run_manifest.json").read_text())
    assert manifest["settings"]["plugged"]["toy_answers"] == str((conf / "data" / "answers.json").resolve())


def test_a_provider_named_nowhere_gets_close_names_and_the_fix(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    write_jsonl(tasks, [make_task(0)])
    settings = tmp_path / "settings.toml"
    settings.write_text('[[setting]]\nname = "x"\nprovider = "oracel"\n')
    done = subprocess.run(
        cli_command("run", "--tasks", str(tasks), "--settings", str(settings), "--out", str(tmp_path / "o")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "unknown provider 'oracel'; did you mean 'oracle'?" in done.stderr
    assert "Fix: name a known provider, or register one" in done.stderr
    assert '[project.entry-points."execstate.providers"]' in done.stderr
    assert "Traceback" not in done.stderr
    with pytest.raises(RegistryMiss, match="did you mean 'replay'"):
        provider_entry("replya")


def test_the_registry_is_the_one_settings_are_checked_against() -> None:
    assert PROVIDERS.group == "execstate.providers"
    assert {"openai", "openai-responses", "anthropic", "gemini", "oracle", "replay", "synthetic"} <= set(PROVIDERS)
    assert provider_entry("anthropic").batch is not None and provider_entry("openai-responses").batch is not None
    with pytest.raises(ValueError, match="unknown provider 'nope'"):
        Setting(name="x", provider="nope")


async def _never(setting: Setting) -> tuple[object, list[str]]:
    raise AssertionError("not opened")


def test_path_keys_are_the_providers_own_and_resolved_against_the_settings_file(tmp_path: Path) -> None:
    from pydantic import BaseModel

    class Files(BaseModel):
        listing: str = "x"

    with pytest.raises(ValueError, match=r"path_keys \['other'\] that are not keys of its options model"):
        register_provider(ProviderEntry(name="files", open=_never, options=Files, path_keys=("other",)))  # type: ignore[arg-type]
    register_provider(ProviderEntry(name="files", open=_never, options=Files, path_keys=("listing",)))  # type: ignore[arg-type]
    try:
        (tmp_path / "sub").mkdir()
        path = tmp_path / "sub" / "s.toml"
        path.write_text(
            '[[setting]]\nname = "a"\nprovider = "files"\nlisting = "in/l.txt"\n\n'
            '[[setting]]\nname = "b"\nprovider = "replay"\nreplay_file = "r.jsonl"\n'
        )
        a, b = load_settings(path)
        assert a.options(Files).listing == str(tmp_path / "sub" / "in" / "l.txt")
        assert b.model_extra == {"replay_file": str(tmp_path / "sub" / "r.jsonl")}
    finally:
        unregister_provider("files")
