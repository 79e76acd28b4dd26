"""The processes that turn a program's values into text handle an integer of any size (CPython converts at most
4,300 digits unless told otherwise), and leave the program's own conversions under the program's limit."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from execstate.builder import BuildOptions
from execstate.languages import Endpoint, make_language
from execstate.metrics import measure
from execstate.sandbox import Limits

LANG = make_language("python", BuildOptions(limits=Limits(wall_s=20, cpu_s=20, memory_mb=1024)))
# x gains 200 digits an iteration; at iteration 31 the program converts it itself and notes whether it could.
PROGRAM = """import sys
n = int(input())
x = 1
limited = None
for i in range(n):
    x = x * 10**200 + i
    if i == 30:
        try:
            str(x)
            limited = False
        except ValueError:
            limited = True
print(x % 1000003, limited)
"""
LOOP = 5


def _x(iterations: int) -> int:
    x = 1
    for i in range(iterations):
        x = x * 10**200 + i
    return x


def _decoded(text: str) -> object:
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.loads(text)
    finally:
        sys.set_int_max_str_digits(limit)


@pytest.mark.parametrize("code", ["10**5000", "[10**5000]", "2**40", "3", "'bye'"])
def test_the_probe_reports_the_exit_status_the_interpreter_gives(code):
    """``sys.exit`` of a huge integer (or of a value holding one) is the program's: the probe reports the status
    a plain run ends with, instead of failing to write the value."""
    source = f"import sys\nsys.exit({code})\n"
    plain = subprocess.run([sys.executable, "-c", source], capture_output=True, check=False).returncode
    m = measure(source, b"", state=True)
    assert "wrote no result" not in m.detail
    if plain == 0:
        assert m.status == "ok"
    else:
        assert m.status == "crash" and int(m.detail.split("status ")[1].split(";")[0]) % 256 == plain


def test_a_checkpoint_copy_prints_an_integer_of_any_length(tmp_path):
    """The inside copy at iteration 31 prints x with 6,001 digits, run and measured alike."""
    inst = LANG.instrument(PROGRAM, LOOP, ("x",), "inside", 31)
    res = LANG.run(inst.source, b"40\n", tmp_path)
    assert res.ok, res.describe()
    assert _decoded(res.stdout.decode()) == {"x": _x(30)}
    m = LANG.measure(PROGRAM, b"40\n", Endpoint(LOOP, ("x",), "inside", 31, inst), state=True)
    assert m.ok and m.stdout == res.stdout, m.detail


def test_the_program_keeps_its_own_limit(tmp_path):
    """Run plainly, the program's own ``str(x)`` at iteration 31 is refused: the interpreter's limit is the
    program's; the disabled copy, which prints no state, runs the same."""
    res = LANG.run(PROGRAM, b"40\n", tmp_path)
    assert res.ok and res.stdout.decode().split()[1] == "True"
    inst = LANG.instrument(PROGRAM, LOOP, ("x",), "post", 40)
    disabled = LANG.run(LANG.disabled(inst), b"40\n", tmp_path)
    assert disabled.ok and disabled.stdout == res.stdout
    own = LANG.run("x = 10**5000\nprint(len(str(x)))\n", b"", tmp_path)
    assert not own.ok and b"Exceeds the limit (4300 digits)" in own.stderr  # the program's failure stays one


def test_the_states_copy_prints_big_integers_and_restores_the_programs_limit(tmp_path):
    """The states copy prints x at iterations 25 (4,801 digits) and 26 without changing what the program sees:
    at iteration 31 its own conversion is still refused, as in a plain run."""
    copy = LANG.states_copy(PROGRAM, LOOP, ("x", "limited"), 26, (25, 26), (25, 27), stop=False)
    res = LANG.run(copy.source, b"40\n", tmp_path)
    assert res.ok, res.describe()
    lines = dict(line.split("\t") for line in res.stdout.decode().splitlines())
    assert _decoded(lines["inside@25"]) == {"x": _x(24), "limited": None}
    assert _decoded(lines["inside@26"]) == {"x": _x(25), "limited": None}
    assert _decoded(lines["post@25,26,27"]) == {"x": _x(40), "limited": True}
