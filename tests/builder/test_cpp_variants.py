"""C++ source variants (issue 44, the C++ part): rename and deadcode of the library_cpp programs compile and print
what the original prints on its short input, leave every name the program does not declare alone, and are a
function of the source and the seed."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from execstate.languages.cpp.language import CppLanguage
from execstate.languages.cpp.syntax import parse
from execstate.languages.cpp.variants import CPP_VARIANTS, make_variant_cpp
from execstate.studies import STUDIES

SPECS = STUDIES["library_cpp"].cases_dir
assert SPECS is not None
CASES = sorted(p.parent for p in SPECS.glob("*/case.toml"))
KEPT_AT_LEAST = 10
"""How many of the 12 programs each variant must keep (print exactly what the original prints)."""


def _program(case: Path) -> tuple[str, bytes]:
    """A case's program text and its short input (a file beside the spec)."""
    spec = tomllib.loads((case / "case.toml").read_text())
    return (case / spec["program"]).read_text(), (case / spec["short_input"]).read_bytes()


def _identifiers(source: str) -> list[tuple[str, str]]:
    """Every identifier token of the program's code (not in comments, literals or directives) as ``(type, text)``,
    in order."""
    from execstate.languages.cpp.variants import _code_leaves  # the same tokens the renamer edits

    data, root = parse(source)
    kinds = ("identifier", "field_identifier", "type_identifier", "namespace_identifier")
    return [(n.type, data[n.start_byte : n.end_byte].decode()) for n in _code_leaves(root) if n.type in kinds]


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, bytes, bytes]]:
    """Each library_cpp program, its short input and what it prints on it."""
    lang, work = CppLanguage(), tmp_path_factory.mktemp("cpp_variants")
    found = {}
    for case in CASES:
        source, data = _program(case)
        out = lang.run(source, data, work)
        assert out.ok, (case.name, out.describe())
        found[case.name] = (source, data, out.stdout)
    return found


def test_the_study_has_twelve_programs() -> None:
    assert len(CASES) == 12


@pytest.mark.parametrize("variant", CPP_VARIANTS)
def test_variants_print_what_the_original_prints(variant: str, originals, tmp_path: Path) -> None:
    lang, failed = CppLanguage(), []
    for name, (source, data, expected) in originals.items():
        made = make_variant_cpp(source, variant, 7)
        assert made.source != source, name
        got = lang.run(made.source, data, tmp_path)
        if not (got.ok and got.stdout == expected):
            failed.append((name, got.describe()))
    print(f"{variant}: kept {len(originals) - len(failed)} of {len(originals)}; failed: {failed}")
    assert len(originals) - len(failed) >= KEPT_AT_LEAST, failed
    assert not failed, failed  # today every program keeps both variants


def test_rename_leaves_the_names_the_program_does_not_declare() -> None:
    for case in CASES:
        source, _ = _program(case)
        made = make_variant_cpp(source, "rename", 3)
        before, after = _identifiers(source), _identifiers(made.source)
        assert made.mapping and len(before) == len(after), case.name
        pairs = list(zip((t for _, t in before), (t for _, t in after), strict=True))
        standard = {b for b, _ in pairs if b not in made.mapping}
        assert all(a == b for b, a in pairs if b in standard), case.name  # every undeclared name left alone
        assert standard == {a for _, a in pairs} - set(made.mapping.values()) - set(made.mapping), case.name
        kept = {(kind, b) for (kind, b), (_, a) in zip(before, after, strict=True) if b in made.mapping and a == b}
        assert all(kind == "field_identifier" for kind, _ in kept), (case.name, kept)  # a standard member: `.size()`
        assert not set(made.mapping.values()) & {t for _, t in before}, case.name  # no new name collides
        assert "main" not in made.mapping and "std" not in made.mapping


def test_variants_are_a_function_of_the_source_and_the_seed() -> None:
    source, _ = _program(SPECS / "unionfind")
    for variant in CPP_VARIANTS:
        assert make_variant_cpp(source, variant, 5) == make_variant_cpp(source, variant, 5)
    assert make_variant_cpp(source, "deadcode", 5).source != make_variant_cpp(source, "deadcode", 6).source
    with pytest.raises(ValueError, match="supported: rename, deadcode"):
        make_variant_cpp(source, "mislead", 1)


def test_dead_code_maps_every_line_and_keeps_crlf() -> None:
    source, _ = _program(SPECS / "point_add_range_sum")
    for text, newline in ((source, "\n"), (source.replace("\n", "\r\n"), "\r\n")):
        made = make_variant_cpp(text, "deadcode", 3)
        old, new = text.splitlines(), made.source.splitlines()
        assert len(made.lines) == len(old) and all(new[made.lines[i] - 1] == old[i - 1] for i in made.lines)
        assert len(new) == len(old) + sum(line.count("unused") > 0 for line in new) > len(old)
        assert made.source.count(newline) == made.source.count("\n")


RENAME_IN = """#include <vector>
#define SQ(x) ((x) * (x))
using ll = long long;
struct Point { int x, size; int norm() const { return x * x; } };
// count is a comment
int twice(int count) { return 2 * count; }
int main() {
    std::vector<int> vector = {1, 2};
    Point p{3, 4};
    for (auto &v : vector) v = twice(v) + SQ(p.x) + p.norm();
    printf("%d v\\n", (int)vector.size());
    ll total = p.size;
    return total > 0 ? 0 : 1;
}
"""
RENAME_OUT = """#include <vector>
#define SQ(x) ((x) * (x))
using C1 = long long;
struct C2 { int x, size; int m1() const { return x * x; } };
// count is a comment
int f1(int v1) { return 2 * v1; }
int main() {
    std::vector<int> vector = {1, 2};
    C2 v2{3, 4};
    for (auto &v : vector) v = f1(v) + SQ(v2.x) + v2.m1();
    printf("%d v\\n", (int)vector.size());
    C1 v3 = v2.size;
    return v3 > 0 ? 0 : 1;
}
"""


def test_rename_of_a_small_program() -> None:
    """``x`` is a macro parameter, ``size`` a standard member name, ``vector`` reached as ``std::vector``, ``v``
    written in a string: all keep their names; the rest is renamed in order of declaration."""
    made = make_variant_cpp(RENAME_IN, "rename", 1)
    assert made.mapping == {"ll": "C1", "Point": "C2", "norm": "m1", "twice": "f1", "count": "v1", "p": "v2",
                            "total": "v3"}  # fmt: skip
    assert made.source == RENAME_OUT
    assert made.lines == {i: i for i in range(1, 15)}
