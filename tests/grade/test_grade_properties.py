"""Property tests: the grader never raises, is deterministic, and stays fast, whatever the text."""

from __future__ import annotations

import json
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from execstate.grade import RULES, answer_matches, extract, grade_response
from execstate.records import Response, Task

# Loose per-response bound: real responses grade in milliseconds; this only catches blow-ups.
TIME_BOUND_S = 5.0

ORACLES = ["9\n", '{"ans":63250,"cnt1":500,"dp1":500}', "YES\n-3 5\n", "a b\n", "'abc'", "", "[1, [2, {}]]"]

# Fragments that exercise the JSON and literal parsers much harder than uniform characters.
FRAGMENTS = [
    "{",
    "}",
    "[",
    "]",
    '"',
    "\\",
    ":",
    ",",
    " ",
    "\n",
    '"output"',
    '"output":',
    "```",
    "```json\n",
    "~~~",
    "9",
    "-3",
    "1e5",
    "true",
    "null",
    "NaN",
    "\\u",
    "\\ud800",
    "abc",
    "'",
    "(",
    ")",
    "\ud800",
    '{"output": "9"}',
    '{"output": 9}',
    '"\\u006futput"',
]

any_text = st.text(alphabet=st.characters(blacklist_categories=()), max_size=300)  # incl. lone surrogates
fragment_text = st.lists(st.sampled_from(FRAGMENTS), max_size=60).map("".join)


@st.composite
def deep_json(draw: st.DrawFn) -> str:
    """Deeply nested (possibly unbalanced) JSON with an output object somewhere."""
    depth = draw(st.integers(0, 20_000))
    opener = draw(st.sampled_from(["[", '{"a":', '{"output":"1","a":', '{"output":']))
    inner = draw(st.sampled_from(['{"output": "9"}', '"9"', "1", ""]))
    closer = {"[": "]", '{"a":': "}", '{"output":"1","a":': "}", '{"output":': "}"}[opener]
    closed = draw(st.integers(0, depth))
    text = opener * depth + inner + closer * closed
    return draw(st.sampled_from([text, json.dumps({"output": text}), "prose " + text]))


responses = st.one_of(any_text, fragment_text, deep_json())


def _task(rule: str, oracle: str) -> Task:
    return Task(
        task_id="p/x/short-trace-final",
        case_id="p/x",
        study="p",
        language="python",
        arm="short-trace-final",
        source="",
        input="",
        oracle=oracle,
        answer_kind="text",
        grading_rule=rule,
        source_sha256="0" * 64,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=responses, rule=st.sampled_from(tuple(RULES)), oracle=st.sampled_from(ORACLES))
def test_grading_never_raises_is_deterministic_and_bounded(text: str, rule: str, oracle: str) -> None:
    task = _task(rule, oracle)
    response = Response(task_id=task.task_id, setting="s", status="completed", text=text)
    start = time.perf_counter()
    first = grade_response(task, response)
    elapsed = time.perf_counter() - start
    assert elapsed < TIME_BOUND_S
    assert grade_response(task, response) == first
    assert first.status in {"correct-valid", "correct-invalid", "wrong-valid", "wrong-invalid"}
    first.to_json_line().encode("utf-8")  # always writable


@settings(max_examples=300, deadline=None)
@given(
    answer=st.one_of(any_text, fragment_text),
    oracle=st.one_of(any_text, fragment_text),
    rule=st.sampled_from(tuple(RULES)),
)
def test_rules_never_raise_and_accept_the_oracle_itself(answer: str, oracle: str, rule: str) -> None:
    assert isinstance(answer_matches(rule, answer, oracle), bool)
    if rule == "bytes":
        assert answer_matches(rule, oracle.removesuffix("\n"), oracle)
    elif rule in ("json-or-tokens", "int-alpha-tokens"):
        assert answer_matches(rule, oracle, oracle)  # reflexive (python-literal: only for literals)


@settings(max_examples=200, deadline=None)
@given(output=any_text, pad_left=st.sampled_from(["", " ", "\n\t "]), pad_right=st.sampled_from(["", "\n", "  "]))
def test_any_valid_envelope_round_trips(output: str, pad_left: str, pad_right: str) -> None:
    found = extract(pad_left + json.dumps({"output": output}) + pad_right)
    assert found.envelope_valid and found.answer == output and found.method == "envelope"


@settings(max_examples=200, deadline=None)
@given(
    prose=st.text(alphabet=st.characters(blacklist_characters="{"), max_size=200),
    output=any_text,
    earlier=st.lists(any_text, max_size=3),
)
def test_prose_then_objects_extracts_the_last(prose: str, output: str, earlier: list[str]) -> None:
    text = prose + " ".join(json.dumps({"output": e}) for e in earlier) + "\n" + json.dumps({"output": output})
    found = extract(text)
    assert found.answer == output


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.characters(blacklist_characters="{"), max_size=300))
def test_text_without_braces_has_no_answer(text: str) -> None:
    found = extract(text)
    assert found.answer is None and not found.envelope_valid
