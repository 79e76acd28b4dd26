"""Child-side probe: run one program as __main__ and measure trace length and state (SPEC section 6).

Run as ``python -s -B _probe.py CONFIG.json``. It must stay stdlib-only (the
measuring interpreter, any CPython 3.11+, does not have execstate installed).
CONFIG.json holds ``source_path``, ``filename``, ``exclude_lines``,
``hidden_prefix``, ``state``, ``result_fd``, ``token``, ``launcher``
(execstate's ``sandbox/_launch.py``, whose audit hook forbids creating processes) and
optionally ``accelerate`` (default true: use the ``_ccount`` C extension when it
was built for this interpreter), ``budget`` (``{"trace": N, "state": M, "objects": O}``,
each None or a count: at the first event past one the run ends there with outcome
``budget``, the same event on every machine) and ``state_stride`` (walk the state at
every stride-th observation only: a sampled walk whose sums, times the stride,
estimate the full walk's). The probe reads CONFIG.json and deletes it
before the program runs. The program keeps the child's stdin/stdout; the result
is one line, ``\n`` + ``token`` + space + a JSON object + ``\n``, written to the
inherited descriptor ``result_fd`` (never to a file) at normal exit,
``sys.exit``, an uncaught exception or ``os._exit`` (the state arms'
checkpoint). The parent accepts only a line carrying its token, so bytes the
program writes to files or to other descriptors cannot pass for the result.

Snapshots (so that one run of a long input measures every arm, not one run per
arm): with ``snapshot_hook`` set, the probe puts a function under that name (a
hidden one) into the program's globals; each call
``hook(label)`` records ``(trace_length, peak_state, state_load)`` as they are at
that moment, once per label, and the result carries them (``snapshots``). The
program run is then a builder's measurement copy (its checkpoints call the hook
and go on). ``equivalent_to`` makes the probe first check, by compiling, that the
copy's own instructions (those not on ``exclude_lines``) are the clean program's
and those of every other copy listed, in order and line by line; if not, it
reports ``inexact`` without running anything.

Counting (identical to ``tests/metrics/reference_probe.py``, only cheaper):
- trace_length: 3.11 counts ``opcode`` trace events of owned frames, 3.12+
  counts sys.monitoring INSTRUCTION events; a location that never counts
  (foreign code, excluded line) is disabled the first time it fires.
- state: at every ``line`` event of an owned frame whose line is not excluded,
  the reachable state is walked once; runs of exact scalars inside containers
  are counted by C-level ``map``/``sum`` instead of one Python call per element.
  With the C extension the roots are gathered (``roots``) and walked (``walk``) in C.
"""

import atexit
import collections
import importlib.machinery
import importlib.util
import json
import os
import sys
import threading
import traceback
import types

SCALARS = (int, float, complex, bool, type(None), str, bytes)
EXACT_SCALARS = frozenset(SCALARS)
SEQUENCES = (list, tuple, set, frozenset, collections.deque)
SKIPPED_ROOTS = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)
CO_OPTIMIZED = 0x1
TOOL = 4  # sys.monitoring tool id (3.12+)
MONITORING = sys.version_info >= (3, 12)


def load_accelerator(directory):
    """The ``_ccount`` extension built for this interpreter in ``directory`` (or next to this file), or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(directory or here, "_ccount" + suffix)
        if os.path.exists(path):
            loader = importlib.machinery.ExtensionFileLoader("_ccount", path)
            spec = importlib.util.spec_from_file_location("_ccount", path, loader=loader)
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            return module
    return None


class Probe:
    """Fast counters: the C accelerator when present, else the same events counted in Python."""

    def __init__(self, cfg):
        self.filename = cfg["filename"]
        self.excluded = frozenset(cfg["exclude_lines"])
        self.accel = load_accelerator(cfg.get("accelerator_dir")) if cfg.get("accelerate", True) else None
        budget = cfg.get("budget") or {}
        self.trace_budget = budget.get("trace")
        self.walker = (
            StateWalker(self.filename, cfg["hidden_prefix"], self.accel, budget, self.over_state)
            if cfg["state"]
            else None
        )
        self.stride = cfg.get("state_stride") or 1
        self.lines = 0
        self.on_over = None
        """Called as ``on_over(what, detail)`` when the budget ``what`` (``trace``, ``state`` or ``objects``) is
        exceeded; ``main`` sets it to end the run there."""
        self.python_count = 0
        self.tables = {}
        self.snapshots = {}

    def snapshot(self, label):
        """Record the metrics as they are now under ``label`` (the first call with a label counts)."""
        if label not in self.snapshots:
            self.snapshots[label] = self.metrics_now()

    def over_trace(self):
        self.exceeded(
            "trace",
            "%d instruction events counted, over the trace budget of %d" % (self.metrics_now()[0], self.trace_budget),
        )

    def over_state(self, what, detail):
        self.exceeded(what, detail)

    def exceeded(self, what, detail):
        if self.on_over is not None:
            self.on_over(what, detail)

    def metrics_now(self):
        count = self.python_count + (self.accel.count() if self.accel is not None else 0)
        walker = self.walker
        return (count, walker.peak if walker else None, walker.load if walker else None)

    # --- which instructions count ----------------------------------------
    def classify(self, code):
        """Table with one byte per code unit (1 = counted), or None for foreign code."""
        if code.co_filename != self.filename:
            return None
        table = bytearray(len(code.co_code) // 2)
        for start, end, line in code.co_lines():
            if line not in self.excluded:
                table[start // 2 : end // 2] = b"\x01" * ((end - start) // 2)
        return bytes(table)

    def table_of(self, code):
        table = self.tables.get(id(code))
        if table is None:
            table = self.tables[id(code)] = (code, self.classify(code))
        return table[1]

    # --- pure-Python event handlers ---------------------------------------
    def on_instruction(self, code, offset):
        table = self.table_of(code)
        if table is None or not table[offset // 2]:
            return sys.monitoring.DISABLE
        self.python_count += 1
        if self.trace_budget is not None and self.python_count > self.trace_budget:
            self.over_trace()

    def global_trace(self, frame, event, arg):
        if frame.f_code.co_filename != self.filename:
            return None
        if not MONITORING:
            frame.f_trace_opcodes = True
        return self.local_trace

    def local_trace(self, frame, event, arg):
        if event == "opcode":
            if self.table_of(frame.f_code)[frame.f_lasti // 2]:
                self.python_count += 1
                if self.trace_budget is not None and self.python_count > self.trace_budget:
                    self.over_trace()
        elif event == "line":
            self.on_line(frame)
        return self.local_trace

    def on_line(self, frame):
        if self.walker is not None and frame.f_lineno not in self.excluded:
            if self.stride > 1:  # a sampled walk: every stride-th observation only
                self.lines += 1
                if self.lines % self.stride:
                    return
            self.walker.observe(frame)

    # --- installation -------------------------------------------------------
    def start(self):
        if self.accel is not None:
            self.accel.configure(
                self.classify,
                self.on_line if self.walker else None,
                sys.monitoring.DISABLE if MONITORING else None,
                -1 if self.trace_budget is None else self.trace_budget,
                self.over_trace,
            )
        if MONITORING:
            self.start_monitoring()
            if self.walker is not None:
                threading.settrace(self.global_trace)
                sys.settrace(self.global_trace)
        elif self.accel is not None:
            threading.settrace(self.thread_start)
            self.accel.start()
        else:
            threading.settrace(self.global_trace)
            sys.settrace(self.global_trace)

    def start_monitoring(self):
        mon = sys.monitoring
        mon.use_tool_id(TOOL, "execstate-metrics")
        callback = self.accel.on_instruction if self.accel is not None else self.on_instruction
        mon.register_callback(TOOL, mon.events.INSTRUCTION, callback)
        mon.set_events(TOOL, mon.events.INSTRUCTION)

    def thread_start(self, frame, event, arg):
        """threading.settrace hook on 3.11: put the C tracer on each new thread."""
        self.accel.start()
        return None

    def stop(self):
        sys.settrace(None)
        threading.settrace(None)
        if MONITORING:
            sys.monitoring.set_events(TOOL, 0)
        elif self.accel is not None:
            self.accel.stop()

    def result(self):
        count, peak, load = self.metrics_now()
        result = {"trace_length": count, "peak_state": peak, "state_load": load, "accelerated": self.accel is not None}
        result["state_objects"] = self.walker.walked() if self.walker is not None else None
        if self.snapshots:
            result["snapshots"] = ";".join(
                "%s=%s" % (label, ",".join("-" if v is None else "%d" % v for v in values))
                for label, values in self.snapshots.items()
            )
        return result


class StateWalker:
    """|S_t| per observation: every root once, each container or instance walked once."""

    def __init__(self, filename, hidden_prefix, accel=None, budget=None, over=None):
        self.filename = filename
        self.hidden = hidden_prefix or None
        self.peak = 0
        self.load = 0
        budget = budget or {}
        self.slot_budget = budget.get("state")
        self.object_budget = budget.get("objects")
        self.over = over
        if accel is not None:
            accel.configure_walker(collections.deque, owned_class, attribute_values)
            self.walk = accel.walk
            self.walked = accel.walked
            if hasattr(accel, "roots"):  # an accelerator built before roots() gathers them in Python
                accel.configure_roots(filename, self.hidden, SKIPPED_ROOTS, self.skipped_name)
                self.roots = accel.roots
        else:
            expanded = [0]
            self.walk = lambda values: walk(values, set(), expanded)
            self.walked = lambda: expanded[0]

    def roots(self, frame):
        """The values walked at a line event of ``frame``: every namespace's items not skipped (the C
        accelerator's ``roots`` gathers the same values in the same order, without a Python call per item)."""
        values = []
        for namespace in self.namespaces(frame):
            values.extend(
                value
                for name, value in list(namespace.items())
                if not self.skipped_name(name) and not isinstance(value, SKIPPED_ROOTS)
            )
        return values

    def observe(self, frame):
        total = self.walk(self.roots(frame))
        if total > self.peak:
            self.peak = total
        self.load += total
        if self.over is None:
            return
        if self.slot_budget is not None and self.load > self.slot_budget:
            self.over("state", "%d state slots walked, over the state budget of %d" % (self.load, self.slot_budget))
        elif self.object_budget is not None and self.walked() > self.object_budget:
            self.over(
                "objects",
                "%d containers and instances walked, over the state-object budget of %d"
                % (self.walked(), self.object_budget),
            )

    def namespaces(self, frame):
        found, ids = [], set()
        filename = self.filename
        while frame is not None:
            if frame.f_code.co_filename == filename:
                if frame.f_code.co_flags & CO_OPTIMIZED:
                    found.append(frame.f_locals)
                else:
                    local = frame.f_locals
                    if id(local) not in ids:
                        ids.add(id(local))
                        found.append(local)
                globals_ = frame.f_globals
                if id(globals_) not in ids:
                    ids.add(id(globals_))
                    found.append(globals_)
            frame = frame.f_back
        return found

    def skipped_name(self, name):
        if not isinstance(name, str):
            return False
        if name.startswith("__") and name.endswith("__"):
            return True
        return self.hidden is not None and name.startswith(self.hidden)


def walk(values, seen, expanded=None):
    """Sum of sizes of ``values``; containers and instances already in ``seen`` add 0. ``expanded[0]``, when
    given, grows by the containers and instances walked (the C walker's ``walked()``)."""
    exact = EXACT_SCALARS
    total = 0
    pending = []
    for value in values:
        total += _enter(value, seen, pending)
    while pending:
        node = pending.pop()
        if expanded is not None:
            expanded[0] += 1
        kind = type(node)
        if issubclass(kind, dict):
            groups = (dict.keys(node), dict.values(node))
        elif issubclass(kind, SEQUENCES):
            groups = (_elements(node, kind),)
        else:
            groups = (attribute_values(node),)
        for group in groups:
            scalars = sum(map(exact.__contains__, map(type, group)))
            total += scalars
            if scalars != len(group):
                for item in group:
                    if type(item) not in exact:
                        total += _enter(item, seen, pending)
    return total


def _elements(node, kind):
    """A sized view of a builtin container's elements that bypasses overridden methods."""
    if kind in SEQUENCES:
        return node
    for base in SEQUENCES:
        if issubclass(kind, base):
            return list(base.__iter__(node))
    raise TypeError(kind)


def _enter(value, seen, pending):
    """Size contributed by ``value`` itself: 1 for a scalar, else 0 (containers queue their walk)."""
    kind = type(value)
    if kind in EXACT_SCALARS:
        return 1
    if issubclass(kind, type):
        return 0
    if issubclass(kind, SCALARS):
        return 1
    if issubclass(kind, (dict, list, tuple, set, frozenset, collections.deque)) or owned_class(kind):
        key = id(value)
        if key not in seen:
            seen.add(key)
            pending.append(value)
    return 0


def owned_class(kind):
    """A class defined in owned code: the program runs as ``__main__``."""
    try:
        return kind.__module__ == "__main__"
    except Exception:  # a metaclass may make ``__module__`` anything
        return False


def attribute_values(value):
    """Values in the instance ``__dict__`` and in every ``__slots__`` slot that is set."""
    values = []
    try:
        values.extend(dict.values(object.__getattribute__(value, "__dict__")))
    except (AttributeError, TypeError):
        pass
    for klass in type(value).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in [slots] if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            if name.startswith("__") and not name.endswith("__"):
                name = "_" + klass.__name__.lstrip("_") + name
            descriptor = klass.__dict__.get(name)
            if isinstance(descriptor, types.MemberDescriptorType):
                try:
                    values.append(descriptor.__get__(value, klass))
                except AttributeError:
                    pass
    return values


# --- running the program ------------------------------------------------------
DETAIL_CHARS = 16384  # a traceback is cut to its last characters: the result stays small


class ResultChannel:
    """The inherited descriptor the result goes to, and the token that marks a line as the probe's.

    Everything it calls is bound when it is made, before the program runs: a
    program that replaces ``os.write`` or ``json.dumps`` does not reach it. It
    writes only while ``fd`` is still the pipe it inherited, so a program that
    puts another file on that number never sees the token.
    """

    TEXT_KEYS = frozenset(("python", "outcome", "detail", "snapshots", "exceeded"))

    def __init__(self, fd, token):
        self.fd, self.token = fd, token
        self.os_write, self.os_fstat = os.write, os.fstat
        self.quote = json.encoder.encode_basestring_ascii
        self.python = "%d.%d.%d" % sys.version_info[:3]
        self.identity = self.inode()

    def inode(self):
        try:
            st = self.os_fstat(self.fd)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def encode(self, result):
        parts = []
        for key, value in result.items():
            if value is None or value is True or value is False:
                text = {None: "null", True: "true", False: "false"}[value]
            elif key in self.TEXT_KEYS:
                text = self.quote(value)
            else:
                text = "%d" % value
            parts.append(self.quote(key) + ":" + text)
        return "{" + ",".join(parts) + "}"

    def write(self, metrics, outcome, exit_code, detail=""):
        result = {"python": self.python, "outcome": outcome, "exit_code": exit_code, "detail": detail[-DETAIL_CHARS:]}
        result.update(metrics or {"trace_length": None, "peak_state": None, "state_load": None})
        self.send(result)

    def send(self, result):
        """Write one token-marked line (values: None, bools, ints, or text under ``TEXT_KEYS``)."""
        if self.identity is None or self.inode() != self.identity:
            return  # the descriptor was closed or replaced: report nothing
        data = ("\n" + self.token + " " + self.encode(result) + "\n").encode("utf-8")
        while data:
            data = data[self.os_write(self.fd, data) :]


def owned_traceback(exc, filename):
    """The traceback text without the probe's own leading frames."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != filename:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def exit_status(exc):
    """The status ``sys.exit(code)`` leaves, as the interpreter computes it: an int as a C ``long`` (-1 when it
    does not fit) cut to a C ``int``; any other code is printed to stderr (nothing when it cannot be: an int
    of more digits than the interpreter converts to text) and the status is 1."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        if not -(1 << 63) <= code < 1 << 63:
            return -1
        return (code + (1 << 31)) % (1 << 32) - (1 << 31)
    try:
        text = str(code)
    except Exception:  # the program's value, not the probe, cannot be written
        text = ""
    sys.stderr.write(text + "\n")
    return 1


def finish_program():
    """What interpreter shutdown would run, still measured: join non-daemon threads, atexit."""
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()


def load_launcher(path):
    spec = importlib.util.spec_from_file_location("_execstate_launch", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_program(cfg, channel):
    """The program's code object, or None after reporting a syntax error."""
    with open(cfg["source_path"], encoding="utf-8") as fh:
        source = fh.read()
    try:
        return compile(source, cfg["filename"], "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        detail = "".join(traceback.format_exception_only(type(exc), exc))
        channel.write(None, "syntax-error", 2, detail)
        return None


# --- is the measurement copy's run the clean program's run? -------------------------
def uncounted_opcodes():
    """Code units that are no event: inline caches, and on 3.11 EXTENDED_ARG (its opcode event is its
    instruction's; 3.12+ counts it as an instruction of its own, so there it is compared).

    ``opcode`` is imported for this and taken out of ``sys.modules`` again: a program that looks at
    ``sys.modules`` (``from sys import *`` makes it state) sees what it sees in a plain run.
    """
    before = set(sys.modules)
    import opcode

    for name in set(sys.modules) - before:
        del sys.modules[name]
    names = ["CACHE"] + ([] if MONITORING else ["EXTENDED_ARG"])
    return frozenset(opcode.opmap[name] for name in names if name in opcode.opmap)


def signature(code, origins, uncounted):
    """The program's own instructions of ``code`` and of the code it defines, in order.

    Each is (opcode, clean line, starts a line): ``origins[i]`` is the clean line of line ``i + 1``
    (0: inserted, dropped; ``None`` for the clean program itself). A code object defined on an
    inserted line (the copy's own helpers) is dropped with everything in it.
    """
    found = []

    def visit(code, root):
        if not root and origins is not None and _origin(code.co_firstlineno, origins) == 0:
            return
        kept, previous = [], None
        raw = code.co_code
        for start, end, line in code.co_lines():
            origin = _origin(line, origins)
            if origin == 0:
                continue
            for offset in range(start, end, 2):
                op = raw[offset]
                if op in uncounted:
                    continue
                kept.append((op, origin, line != previous))
                previous = line
        found.append((code.co_name, kept))
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                visit(const, False)

    visit(code, True)
    return found


def _origin(line, origins):
    if origins is None or line is None or line <= 0:
        return line
    return origins[line - 1] if line <= len(origins) else -1


def inexact_copy(cfg, code):
    """Why the copy's run would not count as the clean program's (and the others') does, or ''."""
    spec = cfg.get("equivalent_to")
    if not spec:
        return ""
    uncounted = uncounted_opcodes()
    mine = signature(code, spec["origins"], uncounted)
    filename = cfg["filename"]
    for name, text, origins in [("the clean program", spec["clean"], None), *spec.get("copies", ())]:
        try:
            theirs = signature(compile(text, filename, "exec", dont_inherit=True), origins, uncounted)
        except (SyntaxError, ValueError) as exc:
            return "%s does not compile: %s" % (name, exc)
        if theirs != mine:
            where = next((a[0] for a, b in zip(mine, theirs) if a != b), "a code object")
            return "the measurement copy's own instructions differ from those of %s in %s" % (name, where)
    return ""


def read_config(path):
    """The config, read and then deleted before the program runs: the program cannot read the token from it."""
    with open(path, encoding="utf-8") as fh:
        cfg = json.load(fh)
    try:
        os.unlink(path)
    except OSError:
        pass
    return cfg


def main(probe_class=Probe):
    """Run the program in CONFIG (argv[1]) under ``probe_class`` and write its result.

    Everything the probe needs (json, os, collections, threading, traceback, the
    launcher, the accelerator) is imported before the program runs, so a module
    the program plants next to itself never replaces one of them; the state
    arms' inserted ``import collections, json, os`` finds them in sys.modules.
    """
    cfg = read_config(sys.argv[1])
    channel = ResultChannel(cfg["result_fd"], cfg["token"])
    code = compile_program(cfg, channel)
    if code is None:
        sys.exit(2)
    filename = cfg["filename"]
    inexact = inexact_copy(cfg, code)
    if inexact:
        channel.write(None, "inexact", 0, inexact)
        sys.exit(0)
    launcher = load_launcher(cfg["launcher"]) if cfg.get("launcher") else None
    module = types.ModuleType("__main__")
    module.__dict__.update({"__file__": filename, "__builtins__": __builtins__})
    sys.modules["__main__"] = module
    sys.argv = [filename]
    sys.path[0] = os.path.dirname(os.path.abspath(cfg["source_path"]))  # not the probe's own directory
    probe = probe_class(cfg)
    if cfg.get("snapshot_hook"):
        module.__dict__[cfg["snapshot_hook"]] = probe.snapshot
    real_exit = os._exit

    def checkpoint_exit(status):
        probe.stop()
        channel.write(probe.result(), "os-exit", status)
        real_exit(status)

    os._exit = checkpoint_exit

    def over_budget(what, detail):
        """A budget is exceeded: the run ends here, at the same event on every machine."""
        probe.stop()
        channel.write({**probe.result(), "exceeded": what}, "budget", 0, detail)
        real_exit(0)

    probe.on_over = over_budget
    if launcher is not None:
        launcher.confine()
    outcome, status, detail = "exit", 0, ""
    probe.start()
    try:
        try:
            exec(code, module.__dict__)
        finally:
            finish_program()
    except SystemExit as exc:
        status = exit_status(exc)
    except BaseException as exc:
        outcome, status, detail = "exception", 1, owned_traceback(exc, filename)
    probe.stop()
    if detail:
        sys.stderr.write(detail)
    channel.write(probe.result(), outcome, status, detail)
    # Exit normally (not os._exit): finalizers the program leaves for shutdown
    # (suspended generators' finally blocks, __del__) still write their output.
    sys.exit(status)


if __name__ == "__main__":
    main()
