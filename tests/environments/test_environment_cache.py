"""The environment cache: content addressed, installed once (also under concurrent requests), written whole.

pip is replaced by a double that writes what pip would (a package folder and its ``*.dist-info``), plus a
dependency nobody asked for, so these tests need no network; the real pip runs in test_environment_runs.py.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from execstate.environments import (
    EnvironmentUnavailable,
    Interpreter,
    _install,
    cache_key,
    cache_root,
    installed,
    parse_environment,
    prepare,
)

SPEC = parse_environment({"packages": ["sortedcontainers==2.4.0", "Fancy_Lib==1.2"]})


class FakePip:
    """Installs each requested ``name==version`` and a ``helper-dep==0.1`` dependency into ``--target``."""

    def __init__(self, delay: float = 0.0, fail: bool = False) -> None:
        self.calls: list[list[str]] = []
        self.delay, self.fail = delay, fail
        self.lock = threading.Lock()

    def __call__(self, python: str, args: list[str]) -> subprocess.CompletedProcess[str]:
        with self.lock:
            self.calls.append(args)
        time.sleep(self.delay)
        if self.fail:
            return subprocess.CompletedProcess(args, 1, "", "ERROR: No matching distribution found for x==9\n")
        target = Path(args[args.index("--target") + 1])
        pins = [a for a in args if "==" in a] + ["helper_dep==0.1"]
        for pin in pins:
            name, version = pin.split("==")
            module = name.replace("-", "_").lower()
            (target / module).mkdir(parents=True)
            (target / module / "__init__.py").write_text(f"VERSION = {version!r}\n")
            info = target / f"{module}-{version}.dist-info"
            info.mkdir()
            (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\n")
        return subprocess.CompletedProcess(args, 0, "", "")


@pytest.fixture()
def fake_pip(monkeypatch):
    pip = FakePip()
    monkeypatch.setattr(_install, "run_pip", pip)
    return pip


def test_first_request_installs_and_records_what_the_folder_holds(tmp_path, fake_pip):
    env = prepare(SPEC, sys.executable, cache_dir=tmp_path)
    assert len(fake_pip.calls) == 1
    assert "--only-binary" in fake_pip.calls[0] and ":all:" in fake_pip.calls[0]
    assert env.site is not None and env.site.is_dir() and env.site.parent.parent == tmp_path
    # read from the installed dist-info, not the request: the dependency is there, names are canonical
    assert env.packages == ("fancy-lib==1.2", "helper-dep==0.1", "sortedcontainers==2.4.0")
    assert env.python == ".".join(map(str, sys.version_info[:3]))
    assert env.record() == {"python": env.python, "packages": list(env.packages)}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]


def test_a_second_request_reuses_the_folder_without_calling_pip(tmp_path, fake_pip, monkeypatch):
    first = prepare(SPEC, sys.executable, cache_dir=tmp_path)

    def no_pip(*args):
        raise AssertionError("pip was called for an environment that is cached")

    monkeypatch.setattr(_install, "run_pip", no_pip)
    reordered = parse_environment({"packages": ["fancy-lib==1.2", "sortedcontainers==2.4.0"]})
    again = prepare(reordered, sys.executable, cache_dir=tmp_path)
    assert again.site == first.site and again.packages == first.packages


def test_another_package_set_is_another_folder(tmp_path, fake_pip):
    a = prepare(SPEC, sys.executable, cache_dir=tmp_path)
    b = prepare(parse_environment({"packages": ["sortedcontainers==2.3.0"]}), sys.executable, cache_dir=tmp_path)
    assert a.site != b.site and len(fake_pip.calls) == 2
    assert "sortedcontainers==2.3.0" in b.packages


def test_the_key_covers_packages_interpreter_version_and_platform():
    base = Interpreter("/x/python", "3.11.7", "cpython-311", "linux-x86_64")
    key = cache_key(("a==1", "b==2"), base)
    assert key == cache_key(("b==2", "a==1"), base)
    assert key != cache_key(("a==1", "b==3"), base)
    assert key != cache_key(("a==1", "b==2"), Interpreter("/x/python", "3.11.8", "cpython-311", "linux-x86_64"))
    assert key != cache_key(("a==1", "b==2"), Interpreter("/x/python", "3.11.7", "cpython-311", "linux-aarch64"))
    assert key == cache_key(("a==1", "b==2"), Interpreter("/elsewhere/python", "3.11.7", "cpython-311", "linux-x86_64"))


def test_concurrent_requests_install_once(tmp_path, monkeypatch):
    pip = FakePip(delay=0.5)
    monkeypatch.setattr(_install, "run_pip", pip)
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(prepare(SPEC, sys.executable, cache_dir=tmp_path)))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(pip.calls) == 1
    assert len({r.site for r in results}) == 1 and len(results) == 4


def test_a_failed_install_says_what_pip_said_and_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(_install, "run_pip", FakePip(fail=True))
    with pytest.raises(EnvironmentUnavailable) as err:
        prepare(SPEC, sys.executable, cache_dir=tmp_path)
    assert "No matching distribution found" in str(err.value) and "Fix: " in str(err.value)
    assert [p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")] == []


def test_a_declaration_without_packages_installs_nothing(tmp_path, fake_pip):
    (tmp_path / "acl" / "atcoder").mkdir(parents=True)
    (tmp_path / "acl" / "atcoder" / "dsu.hpp").write_text("// a header\n")
    env = prepare(parse_environment({"include": ["acl"]}, tmp_path), sys.executable, cache_dir=tmp_path / "c")
    assert env.site is None and env.packages == () and fake_pip.calls == []
    record = env.record()
    assert record["include"][0]["path"] == "acl" and len(record["include"][0]["sha256"]) == 64
    (tmp_path / "acl" / "atcoder" / "dsu.hpp").write_text("// an edited header\n")
    edited = prepare(parse_environment({"include": ["acl"]}, tmp_path), sys.executable, cache_dir=tmp_path / "c")
    assert edited.record()["include"][0]["sha256"] != record["include"][0]["sha256"]


def test_cache_root_follows_execstate_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("EXECSTATE_CACHE", str(tmp_path))
    assert cache_root() == tmp_path / "environments"
    monkeypatch.delenv("EXECSTATE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "execstate" / "environments"


def test_installed_reads_names_and_versions_from_dist_info(tmp_path):
    for name, version in (("Zeta_Pkg", "3"), ("alpha", "1.0")):
        info = tmp_path / f"{name}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    assert installed(tmp_path) == ("alpha==1.0", "zeta-pkg==3")
