"""A measured program cannot forge its metrics, and every limit of the measurement applies.

The probe reports over an inherited pipe with a per-run token, reads and deletes
its config before the program starts, and binds what it writes with before the
program runs; each measurement runs a fresh copy of the program alone in a fresh
directory.
"""

from __future__ import annotations

import time

import pytest

from execstate.cli import main
from execstate.languages.python import PythonLanguage
from execstate.metrics import measure
from execstate.metrics._measure import PROBE, run_probe
from execstate.sandbox import Limits

FORGED = 1_000_000_003

# The trick is compiled under another file name, so it is not owned code: the program
# with an empty TRICK executes exactly the same counted instructions and observations.
TRICK = """\
import json, os, sys
forged = json.dumps({"python": "3.11.7", "outcome": "exit", "exit_code": 0, "detail": "",
                     "trace_length": %(forged)d, "peak_state": %(forged)d, "state_load": %(forged)d})
token = "0" * 32
here = sys.path[0]
for folder in (here, os.path.dirname(here), os.getcwd()):
    config = os.path.join(folder, "config.json")
    if os.path.exists(config):
        with open(config) as fh:
            token = json.load(fh).get("token", token)
    for name in ("result.json", "config.json"):
        try:
            with open(os.path.join(folder, name), "w") as fh:
                fh.write(forged)
        except OSError:
            pass
for fd in range(3, 256):
    for line in (forged + "\\n", "\\n" + token + " " + forged + "\\n", "garbage"):
        try:
            os.write(fd, line.encode())
        except OSError:
            pass
os.write = lambda fd, data: len(data)
json.dumps = lambda *args, **kwargs: forged
json.encoder.encode_basestring_ascii = lambda text: '"forged"'
""" % {"forged": FORGED}  # noqa: UP031 (the program text is full of braces)

PROGRAM = """\
TRICK = {trick!r}
total = 0
for i in range(int(input())):
    total += i * i
exec(compile(TRICK, "trick.py", "exec"), {{}})
print(total)
"""


@pytest.mark.parametrize("accelerate", [True, False], ids=["accelerated", "pure-python"])
def test_a_program_cannot_forge_its_metrics(accelerate):
    honest = run_probe(PROBE, PROGRAM.format(trick=""), b"50\n", accelerate=accelerate)
    forged = run_probe(PROBE, PROGRAM.format(trick=TRICK), b"50\n", accelerate=accelerate)
    assert honest.ok and forged.ok, (honest.detail, forged.detail)
    assert forged.stdout == honest.stdout == b"40425\n"
    assert forged.trace_length != FORGED and forged.peak_state != FORGED
    assert (forged.trace_length, forged.peak_state, forged.state_load) == (
        honest.trace_length,
        honest.peak_state,
        honest.state_load,
    )


def test_flooding_the_result_descriptor_is_an_error_not_a_result():
    flood = (
        "import os\n"
        "for fd in [int(x) for x in os.listdir('/proc/self/fd') if int(x) > 2]:\n"
        "    try:\n"
        "        for _ in range(40):\n"
        "            os.write(fd, b'{\"trace_length\": 1000000003}\\n' * 2000)\n"
        "    except OSError:\n"
        "        pass\n"
    )
    m = measure(flood, b"", state=False)
    assert m.status == "error" and m.trace_length is None
    assert "result descriptor" in m.detail


def test_replacing_the_result_descriptor_leaves_no_result():
    swap = (
        "import os, stat\n"
        "for fd in [int(x) for x in os.listdir('/proc/self/fd') if int(x) > 2]:\n"
        "    try:\n"
        "        if stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
        "            read_end, write_end = os.pipe()\n"
        "            os.dup2(write_end, fd)\n"
        "    except OSError:\n"
        "        pass\n"
    )
    m = measure(swap, b"", state=False)
    assert m.status == "error" and m.trace_length is None
    assert "wrote no result" in m.detail


def test_a_planted_json_module_does_not_reach_the_emitter():
    # The state arms' emitter imports json, collections and os; the probe imported them before the program ran.
    source = (
        "import collections as _es_collections, json as _es_json, os as _es_os\n"
        "import sys\n"
        "for folder in (sys.path[0], _es_os.getcwd()):\n"
        "    with open(_es_os.path.join(folder, 'json.py'), 'w') as fh:\n"
        "        fh.write('def dumps(*a, **k):\\n    return \"forged\"\\n')\n"
        "import json\n"
        "n = 3\n"
        "_es_os.write(1, (_es_json.dumps({'n': n, 'real': hasattr(json, 'JSONDecoder')}) + '\\n').encode())\n"
        "_es_os._exit(0)\n"
    )
    m = measure(source, b"", hidden_prefix="_es_")
    assert m.ok, m.detail
    assert m.stdout == b'{"n": 3, "real": true}\n'


def test_every_measurement_gets_a_fresh_directory():
    reads_back = (
        "import os, sys\n"
        "path = os.path.join(sys.path[0], 'count.txt')\n"
        "runs = int(open(path).read()) + 1 if os.path.exists(path) else 1\n"
        "open(path, 'w').write(str(runs))\n"
        "print(runs, sorted(os.listdir(sys.path[0])), sorted(os.listdir(os.getcwd())))\n"
    )
    outputs = {measure(reads_back, b"", state=False).stdout for _ in range(3)}
    # the working directory is the program's own fresh directory, as in a plain run (the probe's config is gone)
    assert outputs == {b"1 ['count.txt', 'main.py'] ['count.txt', 'main.py']\n"}


def test_a_measurement_stops_at_its_wall_limit_not_a_fixed_one():
    started = time.monotonic()
    m = measure("while True:\n    pass\n", b"", limits=Limits(wall_s=2, cpu_s=60), state=False)
    elapsed = time.monotonic() - started
    assert m.status == "timeout" and "wall-clock" in m.detail
    assert elapsed < 30, elapsed


def test_a_measurement_gets_the_memory_limit():
    m = measure("x = bytearray(800 * 1024 * 1024)\n", b"", limits=Limits(memory_mb=400), state=False)
    assert m.status == "memory", m
    assert measure("x = bytearray(800 * 1024 * 1024)\n", b"", state=False).ok  # the default 2 GiB allows it


def test_a_measurement_gets_the_output_limit():
    m = measure("print('x' * 5000)\n", b"", limits=Limits(output_bytes=1000), state=False)
    assert m.status == "output-limit", m


def test_the_builders_measurements_scale_its_time_limit():
    lang = PythonLanguage(limits=Limits(wall_s=1, cpu_s=1), measure_factor=3)
    assert (lang.measure_limits().wall_s, lang.measure_limits().cpu_s) == (9, 3)
    started = time.monotonic()
    m = lang.measure("while True:\n    pass\n", b"", None, state=False)
    elapsed = time.monotonic() - started
    assert m.status == "timeout"
    assert 2.5 < elapsed < 30, elapsed  # about 3 s: the scaled CPU limit, neither the run's 1 s nor a fixed 120 s


def test_the_metrics_command_keeps_its_timeout(tmp_path, capsys):
    (tmp_path / "p.py").write_text("while True:\n    pass\n")
    (tmp_path / "in.txt").write_text("")
    started = time.monotonic()
    assert main(["metrics", str(tmp_path / "p.py"), "--input", str(tmp_path / "in.txt"), "--timeout", "2"]) == 2
    assert time.monotonic() - started < 30
    assert "timeout" in capsys.readouterr().err
