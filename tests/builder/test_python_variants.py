"""Python source variants (issue 44, the first part): rename, mislead and deadcode of every classic program keep
its output on its inputs, never touch a builtin, an imported name, a keyword or an attribute, and are a function of
the source and the seed."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import pytest

from execstate.languages.python.language import PythonLanguage
from execstate.languages.python.variants import MISLEADING, VARIANTS, make_variant
from execstate.studies import STUDIES

CLASSIC = STUDIES["classic"].cases_dir
assert CLASSIC is not None
PROGRAMS = sorted(p.parent.name for p in CLASSIC.glob("*/main.py"))


def foreign_names(source: str) -> dict[str, set[str]]:
    """The names a variant must leave alone: builtins used, imported names, attribute names, keyword arguments."""
    tree = ast.parse(source)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    imported = {
        a.asname or a.name for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names
    }
    return {
        "builtins": names & set(dir(builtins)),
        "imported": imported,
        "attributes": {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)},
        "keywords": {k.arg for n in ast.walk(tree) if isinstance(n, ast.Call) for k in n.keywords if k.arg},
    }


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[bytes, bytes]]:
    """Each classic program's short input and its output."""
    lang, work = PythonLanguage(), tmp_path_factory.mktemp("variants")
    found = {}
    for name in PROGRAMS:
        folder = CLASSIC / name
        made = lang.run((folder / "gen.py").read_text(), b"", work, args=("short",))
        out = lang.run((folder / "main.py").read_text(), made.stdout, work)
        assert made.ok and out.ok, name
        found[name] = (made.stdout, out.stdout)
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_classic_variant_prints_what_the_original_prints(variant: str, runs, tmp_path: Path) -> None:
    lang = PythonLanguage()
    for name in PROGRAMS:
        source = (CLASSIC / name / "main.py").read_text()
        made = make_variant(source, variant, 7)
        assert made.source != source, name
        data, expected = runs[name]
        got = lang.run(made.source, data, tmp_path)
        assert got.ok and got.stdout == expected, (name, got.describe())


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_variant_renames_a_builtin_an_import_a_keyword_or_an_attribute(variant: str) -> None:
    for name in PROGRAMS:
        source = (CLASSIC / name / "main.py").read_text()
        made = make_variant(source, variant, 11)
        assert foreign_names(made.source) == foreign_names(source), name
        assert not set(made.mapping) & (set(dir(builtins)) | {"__name__", "__main__"})


def test_rename_is_neutral_and_mislead_draws_from_the_list() -> None:
    source = (CLASSIC / "kadane" / "main.py").read_text()
    renamed, misled = make_variant(source, "rename", 1), make_variant(source, "mislead", 1)
    assert renamed.mapping["best"] == "v2" and renamed.mapping["max_subarray"] == "f1"
    assert set(renamed.mapping) == set(misled.mapping) and "best" in renamed.mapping and "cur" in renamed.mapping
    assert all(v in MISLEADING for k, v in misled.mapping.items() if k not in ("max_subarray", "main"))
    assert len(set(misled.mapping.values())) == len(misled.mapping)
    assert renamed.source.count("\n") == source.count("\n") and renamed.lines[10] == 10
    assert "# A non-positive prefix never helps" in renamed.source  # comments stay


def test_variants_are_a_function_of_the_source_and_the_seed() -> None:
    source = (CLASSIC / "heapsort" / "main.py").read_text()
    for variant in VARIANTS:
        assert make_variant(source, variant, 5) == make_variant(source, variant, 5)
    assert make_variant(source, "mislead", 5).mapping != make_variant(source, "mislead", 6).mapping
    assert make_variant(source, "deadcode", 5).source != make_variant(source, "deadcode", 6).source
    with pytest.raises(ValueError, match="unknown variant"):
        make_variant(source, "shuffle", 1)


def test_dead_code_maps_the_lines_and_keeps_the_loop_header() -> None:
    source = (CLASSIC / "kadane" / "main.py").read_text()
    made = make_variant(source, "deadcode", 3)
    old, new = source.splitlines(), made.source.splitlines()
    assert len(made.lines) == len(old) and all(new[made.lines[i] - 1] == old[i - 1] for i in made.lines)
    assert len(new) > len(old)


def test_a_parameter_passed_by_keyword_keeps_its_name() -> None:
    source = "def f(n, k):\n    return n * k\n\nprint(f(2, k=3), sorted([3, 1], reverse=True))\n"
    made = make_variant(source, "rename", 1)
    assert "k" not in made.mapping and made.mapping["n"] == "v1"
    assert made.source == "def f1(v1, k):\n    return v1 * k\n\nprint(f1(2, k=3), sorted([3, 1], reverse=True))\n"


def test_mislead_comments_state_what_the_program_contradicts() -> None:
    commented = 0
    for name in PROGRAMS:
        made = make_variant((CLASSIC / name / "main.py").read_text(), "mislead", 7)
        tree = ast.parse(made.source)
        loads = [(n.lineno, n.id) for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        for number, line in enumerate(made.source.splitlines(), 1):
            if line.endswith(" is not used after this line"):
                var = line.rsplit("# ", 1)[1].split(" ")[0]
                assert any(at > number and n == var for at, n in loads), (name, line)  # it is read later
                commented += 1
            elif "# this loop does not change " in line:
                var = line.rsplit(" ", 1)[1]
                loop = next(n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While)) and n.lineno == number)
                body = [s for stmt in loop.body for s in ast.walk(stmt)]
                assert any(isinstance(s, ast.Name) and s.id == var and isinstance(s.ctx, ast.Store) for s in body)
                commented += 1
    assert commented >= 2 * len(PROGRAMS)
