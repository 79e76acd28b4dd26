"""What a live cell and a batch call share when a call fails: the delay before trying again, and the stop that
ends a whole setting.

It sits below the providers and the batch wire (``run/providers/_wire.py``), which raise ``SettingAborted`` and wait
``backoff_s``; the policy that turns attempts into records (``run/_policy.py``) builds on it.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

from execstate.run._settings import Setting

Sleep = Callable[[float], Awaitable[None]]
"""How a caller waits (``asyncio.sleep``; tests pass a recording one)."""


class SettingAborted(RuntimeError):
    """A setting-wide failure (key refused, unknown model or URL): stop the setting, record nothing."""


def backoff_s(setting: Setting, retry: int, retry_after: float | None, rng: random.Random) -> float:
    """Delay before retry number ``retry`` (1-based), in seconds.

    Full jitter: uniform in [0, min(backoff_max_s, backoff_initial_s * 2**(retry-1))],
    raised to the server's ``Retry-After`` (itself capped at ``backoff_max_s``).
    """
    ceiling = min(setting.backoff_max_s, setting.backoff_initial_s * 2 ** (retry - 1))
    delay = rng.uniform(0.0, ceiling)
    if retry_after is not None:
        delay = max(delay, min(retry_after, setting.backoff_max_s))
    return delay


def redact(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` with every non-empty one of ``secrets`` (API keys) replaced by ``***``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text
