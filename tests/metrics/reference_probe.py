"""Reference probe: the slow, obviously-correct measurement of SPEC section 6, run in a child.

Run as ``python reference_probe.py CONFIG.json`` (stdlib only: it must run under
any interpreter, which does not have execstate installed). It speaks the same
protocol as ``execstate/metrics/_probe.py`` (the fast probe) so the tests can
compare the two on identical programs:

- CONFIG.json: ``source_path``, ``filename``, ``exclude_lines``, ``hidden_prefix``, ``runner``,
  ``state``, ``result_fd``, ``token``, ``launcher`` (path of execstate's ``sandbox/_launch.py``,
  whose audit hook forbids creating processes).
- The program runs as ``__main__`` with the child's stdin/stdout under the fast
  probe's runner (``main`` of ``runner``, which deletes the config, handles exits,
  ``os._exit`` and writes the result to the inherited descriptor); only the
  counting below is this file's own.

Definitions, literally:
- trace_length: on 3.11 every ``opcode`` event of ``sys.settrace`` (with
  ``f_trace_opcodes`` set on every owned frame); on 3.12+ every
  ``sys.monitoring`` INSTRUCTION event; counted when the code object is owned
  (``co_filename == filename``) and the instruction's line (``co_lines``) is not
  excluded.
- observations: every settrace ``line`` event of an owned frame whose line is not
  excluded; at each one the whole state is walked from scratch.
"""

import collections
import importlib.util
import json
import sys
import threading
import types

SCALARS = (int, float, complex, bool, type(None), str, bytes)
CONTAINERS = (list, tuple, set, frozenset, collections.deque, dict)
SKIPPED_ROOTS = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)
CO_OPTIMIZED = 0x1
TOOL = 4  # sys.monitoring tool id used on 3.12+


class Probe:
    """Counters and the state walker for one run."""

    def __init__(self, cfg):
        self.filename = cfg["filename"]
        self.excluded = frozenset(cfg["exclude_lines"])
        self.hidden = cfg["hidden_prefix"]
        self.state = cfg["state"]
        self.trace_length = 0
        self.peak = 0
        self.load = 0
        self.lines = {}

    def line_of(self, code, offset):
        table = self.lines.get(code)
        if table is None:
            table = {}
            for start, end, line in code.co_lines():
                for off in range(start, end, 2):
                    table[off] = line
            self.lines[code] = table
        return table.get(offset)

    def count_instruction(self, code, offset):
        if self.line_of(code, offset) not in self.excluded:
            self.trace_length += 1

    # --- tracing -------------------------------------------------------
    def global_trace(self, frame, event, arg):
        if frame.f_code.co_filename != self.filename:
            return None
        if sys.version_info < (3, 12):
            frame.f_trace_opcodes = True
        return self.local_trace

    def local_trace(self, frame, event, arg):
        if event == "opcode":
            self.count_instruction(frame.f_code, frame.f_lasti)
        elif event == "line" and self.state and frame.f_lineno not in self.excluded:
            self.observe(frame)
        return self.local_trace

    def on_instruction(self, code, offset):
        if code.co_filename != self.filename:
            return sys.monitoring.DISABLE
        self.count_instruction(code, offset)

    def start(self):
        if sys.version_info >= (3, 12):
            mon = sys.monitoring
            mon.use_tool_id(TOOL, "execstate-reference")
            mon.register_callback(TOOL, mon.events.INSTRUCTION, self.on_instruction)
            mon.set_events(TOOL, mon.events.INSTRUCTION)
        if sys.version_info < (3, 12) or self.state:
            threading.settrace(self.global_trace)
            sys.settrace(self.global_trace)

    def stop(self):
        sys.settrace(None)
        threading.settrace(None)
        if sys.version_info >= (3, 12):
            sys.monitoring.set_events(TOOL, 0)

    def result(self):
        return {
            "trace_length": self.trace_length,
            "peak_state": self.peak if self.state else None,
            "state_load": self.load if self.state else None,
            "accelerated": False,
        }

    # --- state ---------------------------------------------------------
    def observe(self, frame):
        seen = set()
        total = 0
        for namespace in self.namespaces(frame):
            for name, value in list(namespace.items()):
                if self.skipped_name(name) or isinstance(value, SKIPPED_ROOTS):
                    continue
                total += self.size(value, seen)
        self.peak = max(self.peak, total)
        self.load += total

    def namespaces(self, frame):
        """Locals of every owned frame on the stack and their globals, each namespace once."""
        found, ids = [], set()
        while frame is not None:
            if frame.f_code.co_filename == self.filename:
                if frame.f_code.co_flags & CO_OPTIMIZED:
                    found.append(frame.f_locals)
                elif id(frame.f_locals) not in ids:
                    ids.add(id(frame.f_locals))
                    found.append(frame.f_locals)
                if id(frame.f_globals) not in ids:
                    ids.add(id(frame.f_globals))
                    found.append(frame.f_globals)
            frame = frame.f_back
        return found

    def skipped_name(self, name):
        if not isinstance(name, str):
            return False
        if name.startswith("__") and name.endswith("__"):
            return True
        return bool(self.hidden) and name.startswith(self.hidden)

    def size(self, value, seen):
        kind = type(value)
        if issubclass(kind, type):
            return 0
        if issubclass(kind, SCALARS):
            return 1
        if issubclass(kind, CONTAINERS):
            if id(value) in seen:
                return 0
            seen.add(id(value))
            if issubclass(kind, dict):
                return sum(self.size(k, seen) + self.size(v, seen) for k, v in dict.items(value))
            return sum(self.size(item, seen) for item in iterate(value))
        if owned_class(kind):
            if id(value) in seen:
                return 0
            seen.add(id(value))
            return sum(self.size(attr, seen) for attr in attribute_values(value))
        return 0


def iterate(value):
    """Elements of a builtin container (or subclass), bypassing overridden ``__iter__``."""
    for base in (list, tuple, set, frozenset, collections.deque):
        if isinstance(value, base):
            return base.__iter__(value)
    raise TypeError(type(value))


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


def load_runner(path):
    """The fast probe module, whose ``main`` runs a program under any probe class."""
    spec = importlib.util.spec_from_file_location("_execstate_probe", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as fh:
        load_runner(json.load(fh)["runner"]).main(Probe)
