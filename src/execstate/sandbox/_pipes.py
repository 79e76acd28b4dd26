"""Move bytes between the caller and a running program: feed its stdin, drain its output up to a cap."""

from __future__ import annotations

import threading


class Reader(threading.Thread):
    """Drain one pipe into memory, stopping at ``cap`` bytes."""

    def __init__(self, pipe, cap: int, on_overflow) -> None:
        super().__init__(daemon=True)
        self.pipe, self.cap, self.on_overflow = pipe, cap, on_overflow
        self.chunks: list[bytes] = []
        self.size = 0

    def run(self) -> None:
        while True:
            chunk = self.pipe.read1(65536) if hasattr(self.pipe, "read1") else self.pipe.read(65536)
            if not chunk:
                break
            room = self.cap - self.size
            self.chunks.append(chunk[: max(room, 0)])
            self.size += len(chunk)
            if self.size > self.cap:
                self.on_overflow()
                break
        self.pipe.close()

    def data(self) -> bytes:
        return b"".join(self.chunks)


def feed(pipe, data: bytes) -> None:
    """Write ``data`` to the program's stdin and close it; a program that stops reading is not an error."""
    try:
        pipe.write(data)
    except (BrokenPipeError, OSError):
        pass  # the program stopped reading; that is its business
    finally:
        try:
            pipe.close()
        except OSError:
            pass
