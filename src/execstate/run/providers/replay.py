"""``provider = "replay"``: answers from a JSONL file of recorded texts (``replay_file``)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from execstate.errors import SettingsError
from execstate.run._attempt import Attempt, CellRequest, unicode_text
from execstate.run._settings import Opened, ProviderEntry, Setting


class ReplayOptions(BaseModel):
    """The keys a ``replay`` setting adds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    replay_file: str = Field(min_length=1)
    """JSONL of ``{task_id, text}`` (optional ``sample``), relative to the settings TOML."""


class ReplayProvider:
    """Answers from a JSONL file of ``{task_id, text}`` lines (optional ``sample``; other keys ignored).

    A line with ``sample`` answers only that sample; one without answers every
    sample of its task. A task with no line is recorded as ``no-response``.
    """

    name = "replay"
    pipeline_check = False

    def __init__(self, path: Path, model: str | None = None) -> None:
        self.path = path
        self.model: str | None = model or f"replay:{path.name}"
        self._texts = _load_replay(path)

    async def attempt(self, request: CellRequest) -> Attempt:
        task_id, sample = request.task_id, request.sample
        for key in ((task_id, sample), (task_id, None)):
            if key in self._texts:
                text = self._texts[key]
                if text is None:
                    return Attempt("final", error=f"replay file {self.path} has text null for {task_id}")
                return Attempt("completed", text=text, finish_reason="replay")
        return Attempt("final", error=f"replay file {self.path} has no entry for task {task_id} sample {sample}")

    async def aclose(self) -> None:
        return None


def _load_replay(path: Path) -> dict[tuple[str, int | None], str | None]:
    texts: dict[tuple[str, int | None], str | None] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise SettingsError(f"replay file {path}: cannot read: {exc}") from exc
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            key = (str(obj["task_id"]), obj.get("sample"))
            text = obj["text"]
        except (ValueError, KeyError, TypeError) as exc:
            raise SettingsError(f"{path}:{lineno}: need a JSON object with task_id and text ({exc!r})") from None
        if key in texts:
            raise SettingsError(f"{path}:{lineno}: task {key[0]} sample {key[1]} appears twice")
        if text is not None and not isinstance(text, str):
            raise SettingsError(f"{path}:{lineno}: text must be a string or null")
        texts[key] = None if text is None else unicode_text(text)
    return texts


async def _open(setting: Setting) -> Opened:
    options = setting.options(ReplayOptions)
    return ReplayProvider(Path(options.replay_file), model=setting.model), []


ENTRY = ProviderEntry(
    name="replay",
    open=_open,
    options=ReplayOptions,
    path_keys=("replay_file",),
    description="answers from a JSONL file of recorded texts (replay_file)",
)
