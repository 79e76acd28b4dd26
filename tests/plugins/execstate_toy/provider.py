"""The toy provider ``guess-length``: it sees only the messages a cell sends (never the task or its oracle) and
answers every cell with the length of the last message's text modulo 97, as the SPEC 7 JSON envelope."""

from __future__ import annotations

import json
from typing import Any

from execstate.run import Attempt, ProviderEntry


class GuessLength:
    """Answers from the messages alone."""

    name = "guess-length"
    pipeline_check = False

    def __init__(self) -> None:
        self.model = "guess-length-1"

    async def attempt(self, request: Any) -> Attempt:
        text = str(request.messages[-1]["content"])
        return Attempt("completed", text=json.dumps({"output": str(len(text) % 97)}), finish_reason="stop")

    async def aclose(self) -> None:
        return None


async def _open(setting: Any) -> tuple[GuessLength, list[str]]:
    return GuessLength(), []


ENTRY = ProviderEntry(name="guess-length", open=_open)
