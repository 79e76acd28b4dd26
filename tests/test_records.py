"""Records as a public format: ``schema_version`` moves with a layout change, old layouts still read,
newer ones are refused with the fix, and docs/records.md names every field of every record."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from execstate.cli import main
from execstate.errors import RecordError
from execstate.records import (
    ARMS,
    SCHEMA_VERSION,
    TASK_SCHEMA_VERSION,
    BuildManifest,
    Exclusion,
    Grade,
    Metrics,
    Record,
    Response,
    RunManifest,
    Task,
    read_jsonl,
    write_jsonl,
)

META = {"k": 2, "K": 7, "variables": ["total"], "provenance": {"tests": [1, 2], "band": 1}, "loop": "for i in x:"}


def _task(case: str = "c", arm: str = "short-trace-final", meta: dict | None = None) -> Task:
    return Task(
        task_id=f"classic/{case}/{arm}",
        case_id=f"classic/{case}",
        study="classic",
        language="python",
        arm=arm,
        source=f"print({case!r})\n",
        input="",
        oracle=f"{case}\n",
        answer_kind="text",
        grading_rule="json-or-tokens",
        source_sha256=case * 64,
        metrics=Metrics(trace_length=10, cyclomatic=2),
        meta=META if meta is None else meta,
    )


def _version_1(task: Task) -> str:
    """The line execstate wrote for ``task`` before version 2: ``meta`` an object, ``schema_version`` 1."""
    line = json.loads(task.to_json_line())
    line["schema_version"], line["meta"] = 1, json.loads(line["meta"])
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def test_only_the_task_layout_changed_version() -> None:
    assert (TASK_SCHEMA_VERSION, SCHEMA_VERSION) == (2, 1)
    line = json.loads(_task().to_json_line())
    assert line["schema_version"] == 2 and json.loads(line["meta"]) == META
    for model in (Exclusion, BuildManifest, Response, RunManifest, Grade):
        assert model.model_fields["schema_version"].default == 1, model


def test_a_version_1_line_and_a_version_2_line_read_into_equal_tasks(tmp_path: Path) -> None:
    task = _task()
    v1, v2 = _version_1(task), task.to_json_line()
    assert '"schema_version":1' in v1 and '"meta":{"k":2' in v1
    assert '"schema_version":2' in v2 and '"meta":"{\\"k\\":2' in v2
    # between the datasets change and the bump, execstate wrote version 1 with meta as a string
    transitional = v2.replace('"schema_version":2', '"schema_version":1')
    (tmp_path / "tasks.jsonl").write_text(f"{v1}\n{v2}\n{transitional}\n", encoding="utf-8")
    read = list(read_jsonl(tmp_path / "tasks.jsonl", Task))
    assert read == [task, task, task]
    assert {t.schema_version for t in read} == {TASK_SCHEMA_VERSION}
    assert read[0].to_json_line() == v2  # an old line written again is a version-2 line


def test_a_version_1_tasks_file_goes_through_run_grade_tables_and_analyze_unchanged(tmp_path: Path) -> None:
    tasks = [_task(case, arm, {"k": i, "loop": 3}) for case in ("a", "b") for i, arm in enumerate(ARMS)]
    v1 = tmp_path / "v1" / "tasks.jsonl"
    v1.parent.mkdir()
    v1.write_text("".join(_version_1(t) + "\n" for t in tasks), encoding="utf-8")
    before = v1.read_bytes()
    v2 = tmp_path / "v2" / "tasks.jsonl"
    v2.parent.mkdir()
    write_jsonl(v2, tasks)
    settings = tmp_path / "settings.toml"
    settings.write_text('[[setting]]\nname = "o"\nprovider = "oracle"\n', encoding="utf-8")
    for path in (v1, v2):
        run = path.parent / "run"
        assert main(["run", "--tasks", str(path), "--settings", str(settings), "--out", str(run)]) == 0
        assert main(["grade", "--run", str(run)]) == 0
        assert main(["tables", "--run", str(run), "--out", str(path.parent / "tables")]) == 0
    argv = ["analyze", "--run", str(v1.parent / "run"), "--out", str(tmp_path / "analysis")]
    assert main([*argv, "--replicates", "20", "--permutations", "20"]) == 0
    assert v1.read_bytes() == before
    grades = {p: (p.parent / "run" / "grades.jsonl").read_text(encoding="utf-8") for p in (v1, v2)}
    assert grades[v1] == grades[v2] and grades[v1].count('"status":"correct-valid"') == len(tasks)
    for table in ("by_setting.csv", "corpus.csv"):
        assert (v1.parent / "tables" / table).read_bytes() == (v2.parent / "tables" / table).read_bytes()
    analysis = json.loads((tmp_path / "analysis" / "analysis.json").read_text(encoding="utf-8"))
    assert (analysis["inputs"]["cells"], analysis["inputs"]["correct"]) == (len(tasks), len(tasks))


def test_a_newer_version_is_refused_naming_the_file_line_and_fix(tmp_path: Path) -> None:
    line = json.loads(_task().to_json_line())
    line["schema_version"] = TASK_SCHEMA_VERSION + 1
    path = tmp_path / "tasks.jsonl"
    path.write_text(_task().to_json_line() + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        list(read_jsonl(path, Task))
    message = str(caught.value)
    assert message.startswith(f"{path}:2: schema_version 3 is newer than this execstate reads (Task up to 2)")
    assert "Fix: read tasks.jsonl with an execstate at least as new as the one that wrote it" in message
    grade = Grade(task_id="t", setting="s", status="no-response", rule="bytes").model_dump(mode="json")
    (tmp_path / "grades.jsonl").write_text(json.dumps({**grade, "schema_version": 2}) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"grades.jsonl:1: schema_version 2 is newer .*\(Grade up to 1\)"):
        list(read_jsonl(tmp_path / "grades.jsonl", Grade))


def test_a_version_below_1_is_not_a_record(tmp_path: Path) -> None:
    line = json.loads(_task().to_json_line())
    (tmp_path / "tasks.jsonl").write_text(json.dumps({**line, "schema_version": 0}) + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"tasks.jsonl:1: Task field 'schema_version': .*must be 1 or more"):
        list(read_jsonl(tmp_path / "tasks.jsonl", Task))


DOC = Path(__file__).parents[1] / "docs" / "records.md"
SRC = Path(__file__).parents[1] / "src" / "execstate"


def _record_classes() -> dict[str, type[Record]]:
    """Every subclass of ``Record``, at any depth, once the packages that declare records are imported."""
    import execstate.adaptive
    import execstate.construct
    import execstate.pilot  # noqa: F401

    found: dict[str, type[Record]] = {}
    stack: list[type[Record]] = [Record]
    while stack:
        for sub in stack.pop().__subclasses__():
            found[sub.__name__] = sub
            stack.append(sub)
    return found


def _declared_record_names() -> set[str]:
    """Names of the classes in the source that derive from ``Record``, read from the code, not from imports."""
    bases: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        if "studies" in path.relative_to(SRC).parts:
            continue  # the studies' programs, not execstate's code
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {b.id for b in node.bases if isinstance(b, ast.Name)}
    names, grown = {"Record"}, True
    while grown:
        more = {name for name, of in bases.items() if of & names} - names
        names, grown = names | more, bool(more)
    return names - {"Record"}


def _doc_fields() -> dict[str, set[str]]:
    """The field names each ``### `Record` ...`` section of docs/records.md tabulates."""
    sections = re.split(r"^### ", DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]
    fields: dict[str, set[str]] = {}
    for section in sections:
        heading = re.match(r"`(\w+)`", section)
        if heading is not None:
            body = section.split("\n## ")[0]
            fields[heading.group(1)] = set(re.findall(r"^\| `(\w+)` \|", body, flags=re.MULTILINE))
    return fields


def test_records_md_names_every_field_of_every_record_and_no_other() -> None:
    classes = _record_classes()
    assert set(classes) == _declared_record_names()
    assert {"Task", "Exclusion", "BuildManifest", "Response", "RunManifest", "Grade", "ImportReport"} <= set(classes)
    documented = _doc_fields()
    assert set(documented) == set(classes), "a record without its section in docs/records.md, or a stale one"
    for name, model in classes.items():
        assert documented[name] == set(model.model_fields), f"docs/records.md, section {name}"


def test_records_md_names_the_current_versions() -> None:
    text = " ".join(DOC.read_text(encoding="utf-8").split())  # line breaks as spaces
    assert f"`Task` {TASK_SCHEMA_VERSION} (`TASK_SCHEMA_VERSION`)" in text
    assert f"every other record {SCHEMA_VERSION} (`SCHEMA_VERSION`)" in text
    assert f"| `Task` | {TASK_SCHEMA_VERSION} | `meta` is written as a string" in text
