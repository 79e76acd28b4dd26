"""The sandbox's two errors: this machine cannot isolate a program, or a program spoiled its own run."""

from __future__ import annotations

from execstate.errors import ExecstateError


class SandboxUnavailable(ExecstateError):
    """This machine cannot create the sandbox's namespaces; no program is run unisolated."""


class SandboxFault(ExecstateError):
    """A run could not be finished cleanly because of what the program did, not because of a bug of its caller.

    Raised by ``program_directory`` (and so by every run) when the program left its working directory in a
    state that cannot be removed. A build records it as the case's ``run`` exclusion, never ``internal``.
    """
