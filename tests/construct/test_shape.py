"""Shape inference from samples and the generators written from shapes (no sandbox: pure functions)."""

from __future__ import annotations

import contextlib
import io
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from execstate.construct._genpy import generator_source
from execstate.construct._properties import infer_shapes
from execstate.construct._shape import Array, Count, Int, Line, Rows, Shape, Word, check, describe


def run_gen(source: str, seed: int, size: int) -> bytes:
    """What ``python gen.py SEED SIZE`` prints, run in this process (the generator uses the standard library only)."""
    argv, out = sys.argv, io.StringIO()
    sys.argv = ["gen.py", str(seed), str(size)]
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, "gen.py", "exec"), {"__name__": "__main__"})
    finally:
        sys.argv = argv
    return out.getvalue().encode("utf-8")


def first(samples: list[bytes]) -> str:
    inferred = infer_shapes(samples)
    assert inferred.shapes, inferred.reason
    return describe(inferred.shapes[0])


# ---------------------------------------------------------------- what is inferred


def test_a_count_then_that_many_values():
    assert first([b"3\n5 1 4\n", b"1\n7\n", b"5\n9 9 2 6 5\n"]) == "n:int[1..size] / int[1..9]*n"


def test_a_count_of_edges_bounded_by_the_node_count():
    shape = first([b"3 2\n1 2\n2 3\n", b"4 1\n4 1\n", b"2 0\n"])
    assert shape.startswith("n:int[2..size] m:int[0..size")
    assert "m*(" in shape and "..n]" in shape  # every endpoint is at most n


def test_test_cases_each_with_a_count_and_values():
    samples = [b"2\n3\n1 2 3\n1\n5\n", b"1\n2\n4 4\n", b"3\n1\n1\n2\n2 1\n1\n9\n"]
    shape = first(samples)
    assert shape.startswith("n:int[1..size] / n*(m:int[1..size]")
    assert shape.endswith("*m)")


def test_a_grid_of_characters_sized_by_its_first_line():
    shape = first([b"2 3\n#.#\n..#\n", b"3 1\n.\n#\n.\n"])
    assert shape == "n:int[2..size] m:int[1..size] / n*(str[#.]^m)"


def test_a_parent_array_and_a_permutation():
    assert first([b"4\n1 1 2\n", b"3\n1 2\n", b"5\n1 2 2 3\n"]) == "n:int[3..size] / int[1..inf]*n-1{a[j]<=j+1}"
    assert first([b"3\n2 3 1\n", b"4\n4 1 3 2\n"]) == "n:int[3..size] / int[1..inf]*n{perm1}"


def test_the_edges_of_a_tree():
    assert first([b"3\n1 2\n2 3\n", b"4\n1 2\n1 3\n3 4\n", b"2\n2 1\n"]).endswith(
        "n-1*(tree1 m:int[1..inf] k:int[1..inf])"
    )


def test_a_string_and_a_digit_string_whose_length_is_given():
    assert first([b"abba\n", b"ab\n"]) == "str[ab]^size"
    assert first([b"3 1\n108\n", b"5 2\n12345\n"]).endswith(" / str[012..8]^n")


def test_a_lone_integer_is_grown_when_nothing_else_can_be():
    inferred = infer_shapes([b"12\n", b"7\n"])
    assert [describe(s) for s in inferred.shapes] == ["n:int[7..size]", "size*(n:int[7..12])"]


@pytest.mark.parametrize(
    ("samples", "reason"),
    [
        ([b"\xff\xfe\n"], "not UTF-8"),
        ([b"1\n\n2\n", b"1 2\n"], "no structure fits every sample"),
        ([], "no samples"),
    ],
)
def test_a_shape_that_cannot_be_inferred_is_a_reason(samples, reason):
    inferred = infer_shapes(samples)
    assert inferred.shapes == ()
    assert reason in (inferred.reason or "")


# ---------------------------------------------------------------- checking and generating


def test_queries_after_an_array_whose_candidate_structures_include_unwalkable_ones():
    """N Q, N values, Q queries of three numbers: some structures the search finds over-read a sample when
    walked value by value; inference drops them instead of failing (found on atcoder_py's Fenwick problem)."""
    samples = [
        b"5 4\n1 2 3 4 5\n1 0 5\n1 2 4\n0 3 10\n1 0 5\n",
        b"3 3\n0 0 0\n0 1 7\n1 1 2\n1 2 3\n",
        b"6 6\n4 1 4 2 1 3\n1 0 3\n0 5 6\n1 3 6\n0 0 1\n1 0 1\n1 0 6\n",
    ]
    inferred = infer_shapes(samples)
    assert inferred.shapes, inferred.reason
    assert all(check(shape, sample) is None for shape in inferred.shapes for sample in samples)


def test_check_names_the_first_mismatch():
    shape = Shape((Line((Int("n", 1, None, exponent=1.0),)), Array(Count("n"), Int(None, 0, 9))))
    assert check(shape, b"2\n3 4\n") is None
    assert "3 values" in (check(shape, b"2\n3 4 5\n") or "")
    assert "outside 0..9" in (check(shape, b"2\n3 40\n") or "")
    assert "goes on" in (check(shape, b"1\n3\n4\n") or "")


def test_a_generator_is_seeded_and_grows_with_its_size():
    shape = infer_shapes([b"3\n5 1 4\n", b"1\n7\n"]).shapes[0]
    source = generator_source(shape, "demo")
    assert "random.Random(int(sys.argv[1]))" in source and "import" in source
    assert run_gen(source, 1, 50) == run_gen(source, 1, 50)
    assert run_gen(source, 1, 50) != run_gen(source, 2, 50)
    assert len(run_gen(source, 1, 400)) > 4 * len(run_gen(source, 1, 50))
    assert run_gen(source, 1, 50).split(b"\n")[0] == b"50"


def test_every_kind_of_item_round_trips_through_its_generator():
    shape = Shape(
        (
            Line((Int("n", 2, None, exponent=0.5), Int("m", 1, 3))),
            Rows(
                Count("n"),
                (
                    Line((Word("xy", Count("n")),)),
                    Array(Count("n"), Int(None, 1, None), permutation=1),
                    Array(Count("n", 1, -1), Int(None, 1, None), index_hi=1),
                    Array(Count("m"), Int(None, 0, 5), distinct=True, order="increasing"),
                ),
            ),
            Rows(Count("n", 1, -1), (Line((Int("a", 1, None), Int("b", 1, None), Int("w", 0, 9))),), tree=1),
        )
    )
    source = generator_source(shape, "demo")
    for size in (1, 4, 30):
        data = run_gen(source, 3, size)
        assert check(shape, data) is None, (size, check(shape, data), data[:200])


# ---------------------------------------------------------------- properties


@st.composite
def sample_sets(draw: st.DrawFn) -> list[bytes]:
    """Two to four samples of one of a few common formats, with random sizes and values."""
    form = draw(st.sampled_from(["array", "edges", "cases", "grid", "string", "parents"]))
    rng = random.Random(draw(st.integers(0, 10**6)))
    out = []
    for _ in range(draw(st.integers(2, 4))):
        n = rng.randint(1, 6)
        if form == "array":
            text = f"{n}\n" + " ".join(str(rng.randint(-5, 50)) for _ in range(n))
        elif form == "edges":
            m = rng.randint(0, 5)
            text = f"{n} {m}\n" + "".join(f"{rng.randint(1, n)} {rng.randint(1, n)}\n" for _ in range(m))
        elif form == "cases":
            cases = [rng.randint(1, 4) for _ in range(n)]
            text = f"{n}\n" + "".join(
                f"{c}\n" + " ".join(str(rng.randint(0, 9)) for _ in range(c)) + "\n" for c in cases
            )
        elif form == "grid":
            w = rng.randint(1, 5)
            text = f"{n} {w}\n" + "".join("".join(rng.choice(".#") for _ in range(w)) + "\n" for _ in range(n))
        elif form == "string":
            text = "".join(rng.choice("abc") for _ in range(n + 1))
        else:
            text = f"{n + 1}\n" + " ".join(str(rng.randint(1, j)) for j in range(1, n + 1))
        out.append((text + "\n").encode())
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sample_sets())
def test_samples_are_accepted_by_their_shapes_and_generated_inputs_by_theirs(samples):
    inferred = infer_shapes(samples)
    assert inferred.shapes, inferred.reason
    for shape in inferred.shapes:
        assert all(check(shape, s) is None for s in samples)
        source = generator_source(shape, "prop")
        for size in (1, 9, 60):
            data = run_gen(source, 1, size)
            assert check(shape, data) is None, (describe(shape), size, check(shape, data))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="ab01 9-\n", max_size=30), min_size=1, max_size=3))
def test_any_text_gives_shapes_that_accept_it_or_a_reason(texts):
    samples = [t.encode() for t in texts]
    inferred = infer_shapes(samples)
    assert bool(inferred.shapes) != bool(inferred.reason)
    for shape in inferred.shapes:
        assert all(check(shape, s) is None for s in samples)
        data = run_gen(generator_source(shape, "prop"), 1, 5)
        assert check(shape, data) is None, (describe(shape), data)
