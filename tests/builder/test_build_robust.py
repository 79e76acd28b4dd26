"""A batch survives its cases and its user: stopping (SIGINT, SIGTERM), per-case failures, path escapes,
planted symlinks, bounded exclusion reasons, and output checks that fail before any case is built."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from execstate.builder import PARTIAL_DIR, BuildOptions, build, load_spec, write_build
from execstate.cli import main
from execstate.errors import REASON_LIMIT, Interrupted, SpecError, UsageError, bounded_reason, remove_tree
from execstate.pipeline import run_pipeline
from execstate.records import Exclusion
from execstate.sandbox import Limits

OPTS = BuildOptions(limits=Limits(wall_s=10, cpu_s=10, memory_mb=1024))
GOOD = "n = int(input())\ntotal = 0\nfor i in range(n):\n    total += i\nprint(total)\n"
SLOW = "import time\ntime.sleep(600)\n" + GOOD  # killed by the tests that start it, long before


def make_case(root: Path, name: str, source: str = GOOD, **keys: str) -> Path:
    """A case directory ``root/name`` (id ``t/name``) whose spec has ``keys`` overriding the defaults (TOML values)."""
    case = root / name
    case.mkdir(parents=True)
    (case / "main.py").write_text(source, encoding="utf-8")
    (case / "short.txt").write_text("5\n")
    (case / "long.txt").write_text("50\n")
    spec = {"program": '"main.py"', "short_input": '"short.txt"', "long_input": '"long.txt"', **keys}
    lines = [f'id = "t/{name}"', 'study = "t"', 'language = "python"']
    lines += [f"{key} = {value}" for key, value in spec.items()]
    lines += ["[checkpoint]", 'loop_text = "for i in range(n):"', 'variables = ["total"]']
    (case / "case.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return case


def poll(condition: Callable[[], object], deadline_s: float, what: str) -> None:
    end = time.monotonic() + deadline_s
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


# --- stopping -------------------------------------------------------------------------------------------------


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rpartition(")")[2].split()[1])
            tree.setdefault(ppid, []).append(int(entry))
    return tree


def descendants(pid: int) -> dict[int, bytes]:
    """Every live process below ``pid``, with its command line (to tell a reused pid apart)."""
    tree, found, todo = _children(), {}, [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            try:
                found[child] = Path(f"/proc/{child}/cmdline").read_bytes()
            except OSError:
                continue
            todo.append(child)
    return found


def still_running(pid: int, cmdline: bytes) -> bool:
    try:
        if Path(f"/proc/{pid}/cmdline").read_bytes() != cmdline:
            return False
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_the_batch_keeps_finished_cases_and_kills_the_running_ones(tmp_path, signum):
    make_case(tmp_path / "cases", "quick")
    make_case(tmp_path / "cases", "slow", SLOW)
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "execstate", "build", str(tmp_path / "cases"), "--out", str(out)]
    proc = subprocess.Popen(
        [*argv, "--timeout", "900", "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        partial = out / PARTIAL_DIR / "tasks.jsonl"
        # the quick case's tasks were appended as it finished, and the slow case's program is running (the
        # deadlines are generous: a loaded machine was seen to need more than 8 s for the quick case)
        poll(lambda: partial.is_file() and "t/quick" in partial.read_text(), 180, "the quick case's partial tasks")
        poll(lambda: descendants(proc.pid), 60, "the slow case's program")
        running = descendants(proc.pid)
        sent = time.monotonic()
        proc.send_signal(signum)
        stdout, stderr = proc.communicate(timeout=10)
        took = time.monotonic() - sent
    finally:
        proc.kill()
    assert proc.returncode == 130, stderr
    assert took < 15, took  # the running program is killed, not waited for (it sleeps 600 s)
    assert stderr.count("\n") == 1 and stderr.startswith("execstate build: interrupted: "), stderr
    assert "Traceback" not in stderr and stdout == ""
    tasks = [json.loads(line) for line in (out / "tasks.jsonl").read_text().splitlines()]
    assert [t["case_id"] for t in tasks] == ["t/quick"] * 4
    assert (out / "excluded.jsonl").read_text() == ""  # the killed case is not blamed
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["interrupted"] is True
    assert manifest["cases_interrupted"] == ["t/slow"] and manifest["cases_not_started"] == []
    assert not (out / PARTIAL_DIR).exists()
    assert not [pid for pid, cmd in running.items() if still_running(pid, cmd)]


def test_a_set_stop_event_starts_no_case_and_blames_none(tmp_path):
    make_case(tmp_path, "quick")
    stop = threading.Event()
    stop.set()
    result = build([tmp_path], options=OPTS, stop=stop)
    assert result.tasks == [] and result.exclusions == []
    assert result.manifest.interrupted and result.manifest.cases_not_started == ["t/quick"]
    with pytest.raises(
        Interrupted, match=r"0 case.s. were stopped while running and 1 never started.*Fix: run the same command again"
    ):
        result.raise_if_interrupted(tmp_path / "out")


def test_a_normal_build_is_not_interrupted_and_removes_its_partial_files(tmp_path):
    make_case(tmp_path / "cases", "quick")
    out = tmp_path / "out"
    result = build([tmp_path / "cases"], options=OPTS, partial=out / PARTIAL_DIR)
    assert (out / PARTIAL_DIR / "tasks.jsonl").read_text().count("\n") == 4  # written as the case finished
    write_build(result, out)
    result.raise_if_interrupted(out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["interrupted"] is False and manifest["cases_interrupted"] == []
    assert not (out / PARTIAL_DIR).exists()


# --- one bad case never stops the batch -----------------------------------------------------------------------


DEEP_TREE = "import os\nfor _ in range(1500):\n    os.mkdir('d')\n    os.chdir('d')\n" + GOOD
BAD_OUTPUT_GENERATOR = "import sys\nsys.stdout.buffer.write(b'\\xff\\xfe 50\\n')\n"


@pytest.fixture()
def private_tmp(tmp_path, monkeypatch):
    """Temporary directories of this test (the sandbox's too) under ``tmp_path``; removed however deep."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    yield tmp
    assert remove_tree(tmp)


def test_failures_inside_one_case_become_its_exclusion_and_the_batch_goes_on(tmp_path, private_tmp):
    cases = tmp_path / "cases"
    make_case(cases, "good")
    make_case(cases, "deep_expression", "x = " + "+".join(["1"] * 3000) + "\n" + GOOD)
    make_case(cases, "bad_generator_output", long_input='{ generator = "gen.py" }')
    (cases / "bad_generator_output" / "gen.py").write_text(BAD_OUTPUT_GENERATOR)
    make_case(cases, "latin1_generator", long_input='{ generator = "gen.py" }')
    (cases / "latin1_generator" / "gen.py").write_bytes("print(50)  # caf\xe9\n".encode("latin-1"))
    (cases / "spec_is_a_dir" / "case.toml").mkdir(parents=True)
    result = build([cases], jobs=2, options=OPTS)
    excluded = {e.case_id: e for e in result.exclusions}
    admitted = {t.case_id for t in result.tasks}
    assert admitted == {"t/good"}
    assert excluded["t/deep_expression"].check == "spec" and "nested too deeply" in excluded["t/deep_expression"].reason
    assert excluded["t/bad_generator_output"].check == "spec" and "UTF-8" in excluded["t/bad_generator_output"].reason
    assert excluded["t/latin1_generator"].check == "spec" and "not UTF-8" in excluded["t/latin1_generator"].reason
    assert excluded["?/spec_is_a_dir"].check == "spec" and "is a directory" in excluded["?/spec_is_a_dir"].reason
    assert len(result.exclusions) == 4
    assert list(private_tmp.iterdir()) == []


@pytest.fixture()
def fast_tmp(tmp_path, monkeypatch):
    """``private_tmp`` on tmpfs when the machine has one: removing a 1,500-deep tree takes 5-10 s per run on
    a disk (one block freed per directory) and 0.3 s in memory; the recursion that used to fail is the same."""
    shm = Path("/dev/shm")
    tmp = Path(tempfile.mkdtemp(prefix="execstate-test-", dir=shm if os.access(shm, os.W_OK) else tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    yield tmp
    assert remove_tree(tmp)


def test_a_program_that_builds_a_1500_deep_tree_in_its_directory_is_its_own_doing(tmp_path, fast_tmp):
    # Every run of it (plain, measured, instrumented) leaves the tree in its working directory; the clean-up
    # that follows each run must neither fail as the builder's fault (RecursionError, `internal`) nor leave it.
    make_case(tmp_path / "cases", "deep_tree", DEEP_TREE)
    result = build([tmp_path / "cases"], options=OPTS)
    assert [e.check for e in result.exclusions] in ([], ["run"]), result.exclusions
    assert len(result.tasks) == 4 * (not result.exclusions)
    assert list(fast_tmp.iterdir()) == []


def test_a_sandbox_fault_is_a_run_exclusion_and_any_other_exception_in_the_sandbox_is_internal(
    tmp_path, private_tmp, monkeypatch
):
    from execstate.sandbox import _run, _workdir  # the modules that remove a run's directory and start a run

    make_case(tmp_path / "cases", "victim")
    monkeypatch.setattr(_workdir, "remove_tree", lambda path: False)  # as if the program's tree could not go
    (fault,) = build([tmp_path / "cases"], options=OPTS).exclusions
    assert fault.check == "run"
    assert fault.reason == (
        "running the program: the program left its working directory in a state that cannot be removed. "
        "Fix: keep the program's files and directories few, shallow and writable"
    )
    monkeypatch.undo()
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))

    def broken(*args, **kwargs):
        raise OSError("the sandbox's own bug")

    monkeypatch.setattr(_run, "run_in", broken)  # raised from the sandbox's code, but not a SandboxFault
    (bug,) = build([tmp_path / "cases"], options=OPTS).exclusions
    assert bug.check == "internal" and bug.reason.startswith("the builder failed on this case: OSError: the sandbox's")
    assert "Fix: report it with the case" in bug.reason


def test_an_unexpected_exception_in_a_case_is_an_internal_exclusion(tmp_path, monkeypatch):
    import execstate.builder._case as case_module

    def explode(*args, **kwargs):
        raise RuntimeError("boom \x1b[31m" + "x" * 5000)

    monkeypatch.setattr(case_module, "_make_input", explode)
    make_case(tmp_path, "victim")
    result = build([tmp_path], options=OPTS)
    (exclusion,) = result.exclusions
    assert exclusion.check == "internal" and "RuntimeError: boom" in exclusion.reason
    assert len(exclusion.reason) <= REASON_LIMIT and "\x1b" not in exclusion.reason


def test_a_3_mb_stderr_line_gives_a_bounded_reason_without_raw_escapes(tmp_path, capsys):
    flood = "import sys\nsys.stderr.write('\\x1b[2J' + 'E' * 3_000_000 + '\\n')\nsys.exit(3)\n" + GOOD
    make_case(tmp_path / "cases", "flood", flood)
    out = tmp_path / "out"
    code = main(["build", str(tmp_path / "cases"), "--out", str(out), "--timeout", "10"])
    console = capsys.readouterr()
    assert code == 1  # nothing admitted
    (line,) = (out / "excluded.jsonl").read_text().splitlines()
    reason = Exclusion.model_validate_json(line).reason
    assert len(reason) <= REASON_LIMIT and "\x1b" not in reason and "\\x1b[2J" in reason
    assert len(line) < REASON_LIMIT + 500
    assert "\x1b" not in console.out + console.err and len(console.out + console.err) < 3 * REASON_LIMIT


def test_bounded_reason_escapes_controls_keeps_head_and_tail_and_is_idempotent():
    text = "head\x1b[31m\nline\u202e" + "x" * 10_000 + "the end"
    once = bounded_reason(text)
    assert len(once) == REASON_LIMIT and once.isprintable()
    assert once.startswith("head\\x1b[31m\\nline\\u202e") and once.endswith("the end")
    assert bounded_reason(once) == once and bounded_reason("plain é 中") == "plain é 中"


def test_remove_tree_removes_deep_and_locked_trees_without_following_symlinks(tmp_path):
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "file").write_text("precious")
    top = tmp_path / "tree"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(1200):  # relative steps: the whole path is far beyond PATH_MAX
            os.mkdir("d" * 100, dir_fd=fd)
            fd, old = os.open("d" * 100, os.O_RDONLY, dir_fd=fd), fd
            os.close(old)
        os.symlink(keep, "link", dir_fd=fd)
        os.mkdir("locked", dir_fd=fd)
        os.chmod("locked", 0, dir_fd=fd)
    finally:
        os.close(fd)
    assert remove_tree(top) and not top.exists()
    assert (keep / "file").read_text() == "precious"
    assert remove_tree(tmp_path / "absent")


# --- paths ----------------------------------------------------------------------------------------------------


@pytest.fixture()
def outside(tmp_path) -> Path:
    secret = tmp_path / "secret.txt"
    secret.write_text("50\n")
    return secret


@pytest.mark.parametrize(
    ("name", "keys", "key"),
    [
        ("absolute_program", {"program": '"{secret}"'}, "program"),
        ("proc_environ", {"short_input": '"/proc/self/environ"'}, "short_input"),
        ("dotdot", {"long_input": '"../../secret.txt"'}, "long_input"),
        ("dotdot_generator", {"long_input": '{{ generator = "../../secret.txt" }}'}, "long_input.generator"),
        ("symlink_out", {"short_input": '"link.txt"'}, "short_input"),
    ],
)
def test_spec_paths_must_stay_inside_the_study_root(tmp_path, outside, name, keys, key):
    """Without a study.toml the study root is the spec's own folder (tests/builder/test_study_root.py: with one)."""
    case = make_case(tmp_path / "cases", name, **{k: v.format(secret=outside) for k, v in keys.items()})
    (case / "link.txt").symlink_to(outside)
    with pytest.raises(SpecError, match=rf"\[{key}\]: .*(absolute path|outside the study root).*Fix: "):
        load_spec(case / "case.toml")
    result = build([tmp_path / "cases"], options=OPTS)
    assert [(Path(e.spec_path).parent.name, e.check) for e in result.exclusions] == [(name, "spec")]
    assert not result.tasks


def test_paths_that_stay_inside_the_spec_folder_are_fine(tmp_path):
    case = make_case(tmp_path, "inside", short_input='"data/../short.txt"', long_input='"link.txt"')
    (case / "data").mkdir()
    (case / "link.txt").symlink_to("long.txt")
    spec = load_spec(case / "case.toml")
    assert spec.short_input.file == (case / "short.txt").resolve()
    assert spec.long_input.file == (case / "long.txt").resolve()


def test_write_build_replaces_planted_symlinks_instead_of_writing_through_them(tmp_path):
    victims = {name: tmp_path / f"victim-{name}" for name in ("tasks.jsonl", "excluded.jsonl", "manifest.json")}
    out = tmp_path / "out"
    out.mkdir()
    for name, victim in victims.items():
        victim.write_text("precious\n")
        (out / name).symlink_to(victim)
    victim_dir = tmp_path / "victim-dir"
    victim_dir.mkdir()
    (out / PARTIAL_DIR).symlink_to(victim_dir)
    make_case(tmp_path / "cases", "quick")
    result = build([tmp_path / "cases"], options=OPTS, partial=out / PARTIAL_DIR)
    write_build(result, out)
    assert all(victim.read_text() == "precious\n" for victim in victims.values())
    assert list(victim_dir.iterdir()) == []
    assert not any((out / name).is_symlink() for name in victims)
    assert json.loads((out / "manifest.json").read_text())["tasks"] == 4


# --- checks before anything is built ---------------------------------------------------------------------------


def test_an_out_that_is_a_file_fails_before_any_case_is_built(tmp_path):
    make_case(tmp_path / "cases", "slow", SLOW)  # building it would take a minute (the --timeout)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    for out in (blocker, blocker / "sub"):
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "execstate", "build", str(tmp_path / "cases"), "--out", str(out), "--timeout", "60"],
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert done.returncode == 2 and "must be a directory" in done.stderr, done.stderr
        assert time.monotonic() - started < 10
    started = time.monotonic()
    with pytest.raises(UsageError, match="must be a directory"):
        run_pipeline(blocker, studies=(), paths=(tmp_path / "cases",), log=lambda *a: None)
    assert time.monotonic() - started < 5


def test_a_directory_without_specs_exits_non_zero(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["build", str(tmp_path / "empty"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds no case.toml" in err and "Fix:" in err
    assert not (tmp_path / "out" / "tasks.jsonl").exists()


def test_nothing_admitted_still_exits_1(tmp_path, capsys):
    make_case(tmp_path / "cases", "crash", "raise SystemExit(4)\n" + GOOD)
    assert main(["build", str(tmp_path / "cases"), "--out", str(tmp_path / "out")]) == 1
    assert "no case was admitted" in capsys.readouterr().err
