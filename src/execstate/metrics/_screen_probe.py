"""Child-side screening worker: run one program on many inputs in one process, counting each run as _probe.py does.

Run as ``python -s -B _screen_probe.py CONFIG.json`` with the batch on stdin:
each input as an 8-byte big-endian length followed by its bytes. CONFIG.json is
the probe's config (``state`` false) plus ``wall_s``, the seconds one input may
run. It loads ``_probe.py`` from its own directory and uses its Probe,
ResultChannel and helpers, so the counting is the probe's own. It must stay
stdlib-only.

The program is compiled once. Each input then runs as a fresh ``__main__``
module (fresh globals, ``sys.argv == [filename]``, the original ``sys.path``
and recursion limit), with the input as a real pipe on descriptor 0 and fresh
``sys.stdin``/``stdout``/``stderr`` objects; descriptors 1 and 2 are
``/dev/null``. ``exec`` sits at the same stack depth as in ``_probe.main``, so a
deep recursion fails at the same depth. After each input one line goes to the
result descriptor, ``{"outcome", "index", "exit_code", "trace_length"}`` (the
events counted during that input alone), and the worker collects garbage before
the next input, so finalizers of one input's objects are counted for none.
After the last input it writes ``{"outcome": "done"}``. An input that calls
``os._exit`` or overruns ``wall_s`` gets its line and ends the worker; the
parent starts a new worker at the next input.
"""

import fcntl
import gc
import importlib.util
import os
import signal
import sys
import traceback
import types

_LENGTH_BYTES = 8


def load_probe(path):
    spec = importlib.util.spec_from_file_location("_execstate_probe", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_inputs(stream):
    """The framed inputs on ``stream``, read to its end before any program runs."""
    data = stream.read()
    inputs, at = [], 0
    while at < len(data):
        size = int.from_bytes(data[at : at + _LENGTH_BYTES], "big")
        at += _LENGTH_BYTES
        inputs.append(data[at : at + size])
        at += size
    return inputs


def put_on_stdin(data):
    """Make descriptor 0 a pipe holding ``data`` and then end-of-file, as the sandbox gives a single run."""
    read_end, write_end = os.pipe()
    try:
        if len(data) > 65536:
            fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, len(data))
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view) :]
    except OSError:  # larger than a pipe may hold: an anonymous file serves the same bytes
        os.close(read_end)
        read_end = os.memfd_create("stdin")
        os.write(read_end, data)
        os.lseek(read_end, 0, os.SEEK_SET)
    finally:
        os.close(write_end)
    if read_end != 0:  # the previous input may have closed descriptor 0 (``open(0)``): then the pipe got it
        os.dup2(read_end, 0)
        os.close(read_end)


def discard_output():
    """Descriptors 1 and 2 on /dev/null, again for every input (the previous one may have closed them),
    without keeping a descriptor open that a single run would not have."""
    null = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        if null != fd:
            os.dup2(null, fd)
    if null > 2:
        os.close(null)


class Session:
    """Per-input setup and reporting; one object, bound before the program first runs."""

    def __init__(self, cfg, channel, probe):
        self.channel, self.probe = channel, probe
        self.filename = cfg["filename"]
        self.wall_s = float(cfg["wall_s"])
        self.streams = [(s.encoding, s.errors) for s in (sys.stdin, sys.stdout, sys.stderr)]
        self.path = [os.path.dirname(os.path.abspath(cfg["source_path"])), *sys.path[1:]]
        self.recursion_limit = sys.getrecursionlimit()
        self.real_exit = os._exit
        self.index, self.before = None, 0
        signal.signal(signal.SIGALRM, self.on_alarm)

    def count(self):
        return self.probe.result()["trace_length"]

    def begin(self, index, data):
        """A fresh ``__main__`` module for input ``index``, with the process set as a single run would have it."""
        put_on_stdin(data)
        discard_output()
        (ienc, ierr), (oenc, oerr), (eenc, eerr) = self.streams
        sys.stdin = open(0, encoding=ienc, errors=ierr, newline="\n", closefd=False)
        sys.stdout = open(1, "w", encoding=oenc, errors=oerr, newline="\n", closefd=False)
        sys.stderr = open(2, "w", encoding=eenc, errors=eerr, newline="\n", buffering=1, closefd=False)
        sys.argv = [self.filename]
        sys.path[:] = self.path
        sys.setrecursionlimit(self.recursion_limit)
        module = types.ModuleType("__main__")
        module.__dict__.update({"__file__": self.filename, "__builtins__": __builtins__})
        sys.modules["__main__"] = module
        self.index, self.before = index, self.count()
        signal.setitimer(signal.ITIMER_REAL, self.wall_s)
        return module

    def end(self, outcome, status):
        """Report input ``index`` and clear what it left, uncounted, before the next input."""
        counted = self.count() - self.before
        signal.setitimer(signal.ITIMER_REAL, 0)
        self.report(outcome, status, counted)
        self.index = None
        sys.modules["__main__"] = types.ModuleType("__main__")
        gc.collect()

    def report(self, outcome, status, counted):
        self.channel.send({"outcome": outcome, "index": self.index, "exit_code": status, "trace_length": counted})

    def checkpoint_exit(self, status):
        """``os._exit`` inside the program: report this input up to here and end the worker, as the probe does."""
        if self.index is not None:
            self.report("os-exit", status, self.count() - self.before)
        self.real_exit(status)

    def on_alarm(self, signum, frame):
        if self.index is not None:
            self.report("timeout", 1, None)
            self.real_exit(0)


def main():
    """Screen every input on stdin with the program in CONFIG (argv[1]); see the module docstring.

    ``exec`` is called here, one frame below the script as in ``_probe.main``,
    so the program starts at the stack depth a single measured run has.
    """
    p = load_probe(os.path.join(os.path.dirname(os.path.abspath(__file__)), "_probe.py"))
    cfg = p.read_config(sys.argv[1])
    inputs = read_inputs(sys.stdin.buffer)
    channel = p.ResultChannel(cfg["result_fd"], cfg["token"])
    code = p.compile_program(cfg, channel)
    if code is None:
        sys.exit(2)
    try:
        session = prepare(p, cfg, channel)
        for index, data in enumerate(inputs):
            module = session.begin(index, data)
            outcome, status = "exit", 0
            try:
                try:
                    exec(code, module.__dict__)
                finally:
                    p.finish_program()
            except SystemExit as exc:
                status = p.exit_status(exc)
            except BaseException:
                outcome, status = "exception", 1
            del module
            session.end(outcome, status)
        session.probe.stop()
    except BaseException:  # the worker's own fault: the program's faults are all caught around exec
        channel.send({"outcome": "worker-error", "detail": traceback.format_exc()[-p.DETAIL_CHARS :]})
        raise
    channel.send({"outcome": "done"})
    session.real_exit(0)  # no interpreter shutdown: the programs' leftover finalizers need not run


def prepare(p, cfg, channel):
    """Everything bound, confined and counting before the first input runs."""
    launcher = p.load_launcher(cfg["launcher"]) if cfg.get("launcher") else None
    session = Session(cfg, channel, p.Probe(cfg))
    os._exit = session.checkpoint_exit
    if launcher is not None:
        launcher.confine()
    gc.collect()
    gc.freeze()  # the worker's own objects: each input's collection walks only what the program made
    session.probe.start()
    return session


if __name__ == "__main__":
    main()
