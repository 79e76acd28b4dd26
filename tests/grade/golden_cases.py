"""Hand-decided golden grading cases (SPEC section 9); writes ``golden_responses.jsonl``.

Regenerate the table after editing CASES:

    python tests/grade/golden_cases.py

Every expected status and answer below was decided by reading SPEC 9 (and the
decisions in docs/grade.md), not by running the grader. Each line of the JSONL
has: ``id``, ``rule``, ``oracle``, ``response`` (raw text, or null when
``generate`` names a generator in ``test_grade_golden.py`` that builds a large
response), ``response_status`` (``completed`` or ``no-response``),
``expected_status``, optionally ``expected_answer`` (null = no answer), ``note``.
"""

from __future__ import annotations

import json
from pathlib import Path

STATE = '{"ans":63250,"cnt1":500,"dp1":500}'
BIG_INT = "7" * 5000


def env(output: str) -> str:
    """A valid envelope around ``output``."""
    return json.dumps({"output": output})


def case(cid, rule, oracle, response, status, answer=..., note="", generate=None, response_status="completed"):
    row = {
        "id": cid,
        "rule": rule,
        "oracle": oracle,
        "response": response,
        "generate": generate,
        "response_status": response_status,
        "expected_status": status,
        "note": note,
    }
    if answer is not ...:
        row["expected_answer"] = answer
    return row


J, T, B, P, N = "json-or-tokens", "int-alpha-tokens", "bytes", "python-literal", "integer"

CASES = [
    # --- json-or-tokens: final outputs -------------------------------------------------
    case("jt-exact", J, "9\n", env("9"), "correct-valid", "9"),
    case(
        "jt-outer-whitespace",
        J,
        "9\n",
        "\n   " + env("9") + "  \n\n",
        "correct-valid",
        "9",
        "outer whitespace is stripped",
    ),
    case(
        "jt-inner-whitespace",
        J,
        "9\n",
        env(" 9 \n"),
        "correct-valid",
        " 9 \n",
        "JSON value: whitespace around it is allowed",
    ),
    case("jt-wrong-number", J, "9\n", env("10"), "wrong-valid", "10"),
    case("jt-int-vs-float", J, "9\n", env("9.0"), "correct-valid", "9.0", "numbers by value"),
    case("jt-int-vs-exp", J, "100000\n", env("1e5"), "correct-valid", "1e5", "numbers by value"),
    case("jt-bool-vs-int", J, "1\n", env("true"), "wrong-valid", "true", "bools are not numbers"),
    case("jt-int-vs-bool", J, "true\n", env("1"), "wrong-valid", "1", "bools are not numbers"),
    case("jt-bool", J, "true\n", env("true"), "correct-valid", "true"),
    case("jt-list-compact", J, "[1, 2]\n", env("[1,2]"), "correct-valid", "[1,2]"),
    case("jt-list-float", J, "[1, 2]\n", env("[1, 2.0]"), "correct-valid", "[1, 2.0]"),
    case("jt-list-vs-tokens", J, "[1, 2]\n", env("1 2"), "wrong-valid", "1 2", "oracle is JSON, answer does not parse"),
    case("jt-tokens-whitespace", J, "1 2 3\n", env("1  2\n3\n"), "correct-valid", "1  2\n3\n", "token lists equal"),
    case("jt-tokens-commas", J, "1 2 3\n", env("1,2,3"), "wrong-valid", "1,2,3"),
    case("jt-tokens-case", J, "Yes\n", env("yes"), "wrong-valid", "yes", "tokens are case-sensitive"),
    case("jt-tokens-merge", J, "a b\n", env("ab"), "wrong-valid", "ab", "no lossy normalisation"),
    case("jt-nan-oracle-tokens", J, "nan\n", env("nan"), "correct-valid", "nan", "nan is not JSON: tokens"),
    case("jt-nan-answer", J, "[1.5]\n", env("[NaN]"), "wrong-valid", "[NaN]", "NaN is not JSON"),
    case("jt-huge-float", J, "[1.5]\n", env("[1e400]"), "wrong-valid", "[1e400]"),
    case(
        "jt-double-rounding",
        J,
        "0.1\n",
        env("0.10000000000000001"),
        "correct-valid",
        "0.10000000000000001",
        "same IEEE double",
    ),
    case("jt-big-int", J, BIG_INT + "\n", env(BIG_INT), "correct-valid", BIG_INT, "5000 digits, exact"),
    case("jt-big-int-off", J, BIG_INT + "\n", env(BIG_INT[:-1] + "8"), "wrong-valid", BIG_INT[:-1] + "8"),
    case("jt-empty-output", J, "", env(""), "correct-valid", "", "empty program output"),
    case("jt-empty-newline", J, "\n", env(""), "correct-valid", ""),
    case("jt-empty-vs-zero", J, "", env("0"), "wrong-valid", "0"),
    case("jt-string-json", J, '"hi"\n', env('"hi"'), "correct-valid", '"hi"'),
    # --- json-or-tokens: state ---------------------------------------------------------
    case("st-exact", J, STATE, env(STATE), "correct-valid", STATE),
    case(
        "st-reordered", J, STATE, env('{"dp1":500,"ans":63250,"cnt1":500}'), "correct-valid", ..., "key order ignored"
    ),
    case("st-spaced", J, STATE, env('{\n  "ans": 63250,\n  "cnt1": 500,\n  "dp1": 500\n}\n'), "correct-valid", ...),
    case("st-float-value", J, STATE, env('{"ans":63250.0,"cnt1":500,"dp1":5e2}'), "correct-valid", ...),
    case("st-bool-value", J, '{"a":1,"b":false}', env('{"a":true,"b":false}'), "wrong-valid", ...),
    case("st-missing-key", J, STATE, env('{"ans":63250,"cnt1":500}'), "wrong-valid", ...),
    case("st-extra-key", J, STATE, env('{"ans":63250,"cnt1":500,"dp1":500,"k":1}'), "wrong-valid", ...),
    case("st-string-number", J, STATE, env('{"ans":"63250","cnt1":500,"dp1":500}'), "wrong-valid", ...),
    case(
        "st-duplicate-key",
        J,
        STATE,
        env('{"ans":1,"ans":63250,"cnt1":500,"dp1":500}'),
        "wrong-valid",
        ...,
        "repeated key: ambiguous, does not parse",
    ),
    case("st-prose-answer", J, STATE, env("ans=63250, cnt1=500, dp1=500"), "wrong-valid", ...),
    case(
        "st-nested", J, '{"a":[1,{"b":[2,3]}],"c":null}', env('{"c":null,"a":[1.0,{"b":[2,3]}]}'), "correct-valid", ...
    ),
    case("st-list-order", J, '{"a":[1,2]}', env('{"a":[2,1]}'), "wrong-valid", ..., "lists keep order"),
    case("st-bare-state", J, STATE, STATE, "wrong-invalid", None, "no output key: no answer"),
    case("st-unicode", J, '{"s":"héllo"}', env('{"s":"h\\u00e9llo"}'), "correct-valid", ...),
    # --- envelopes and extraction --------------------------------------------------------
    case("env-fence-json", J, "9\n", "```json\n" + env("9") + "\n```", "correct-invalid", "9"),
    case("env-fence-plain", J, "9\n", "```\n" + env("9") + "\n```\n", "correct-invalid", "9"),
    case("env-fence-tilde", J, "9\n", "~~~\n" + env("9") + "\n~~~", "correct-invalid", "9"),
    case("env-fence-in-prose", J, "9\n", "Here it is:\n```json\n" + env("9") + "\n```\nDone.", "correct-invalid", "9"),
    case("env-prose-then-json", J, "9\n", "The loop runs 5 times, so:\n" + env("9"), "correct-invalid", "9"),
    case("env-json-then-prose", J, "9\n", env("9") + "\nBecause the loop runs 5 times.", "correct-invalid", "9"),
    case("env-several-last-right", J, "9\n", env("8") + " wait, no: " + env("9"), "correct-invalid", "9"),
    case(
        "env-several-last-wrong",
        J,
        "9\n",
        env("9") + " hmm, actually " + env("8"),
        "wrong-invalid",
        "8",
        "the last object wins",
    ),
    case("env-extra-key", J, "9\n", '{"output": "9", "reasoning": "5 loops"}', "correct-invalid", "9"),
    case(
        "env-nested-meta",
        J,
        "9\n",
        '{"output": "9", "meta": {"output": "8"}}',
        "correct-invalid",
        "9",
        "the object that ends last is the outer one",
    ),
    case("env-wrapped", J, "9\n", '{"answer": {"output": "9"}}', "correct-invalid", "9"),
    case("env-escaped-key", J, "9\n", '{"\\u006futput": "9"}', "correct-valid", "9", "decoded key is output"),
    case("env-number-value", J, "9\n", '{"output": 9}', "wrong-invalid", None, "output must be a string"),
    case("env-key-case", J, "9\n", '{"Output": "9"}', "wrong-invalid", None),
    case("env-python-dict", J, "9\n", "{'output': '9'}", "wrong-invalid", None, "not JSON"),
    case("env-truncated", J, "9\n", '{"output": "9', "wrong-invalid", None),
    case("env-trailing-comma", J, "9\n", '{"output": "9",}', "wrong-invalid", None),
    case(
        "env-duplicate-output",
        J,
        "9\n",
        '{"output": "8", "output": "9"}',
        "wrong-invalid",
        None,
        "repeated output key is ambiguous",
    ),
    case("env-refusal", J, "9\n", "I'm sorry, but I can't help with running this program.", "wrong-invalid", None),
    case("env-prose-only", J, "9\n", "The program prints 9.", "wrong-invalid", None, "never guess from prose"),
    case("env-empty", J, "9\n", "", "wrong-invalid", None),
    case("env-whitespace", J, "9\n", " \n\t ", "wrong-invalid", None),
    case(
        "env-lone-surrogate",
        J,
        "x\n",
        '{"output": "\\ud800"}',
        "wrong-valid",
        "\ufffd",
        "record keeps U+FFFD for the lone surrogate",
    ),
    case("env-no-response", J, "9\n", None, "no-response", None, response_status="no-response"),
    case("env-deep-then-answer", J, "9\n", None, "correct-invalid", "9", generate="deep-then-answer"),
    case("env-1mb-valid", J, "9\n", None, "correct-valid", generate="1mb-valid"),
    case("env-1mb-prose", J, "9\n", None, "correct-invalid", "9", generate="1mb-prose"),
    case("env-1mb-code", J, "9\n", None, "correct-invalid", "9", generate="1mb-code"),
    case("env-1mb-nested-garbage", J, "9\n", None, "wrong-invalid", None, generate="1mb-nested-garbage"),
    # --- integer (a line count) ------------------------------------------------------------
    case("int-exact", N, "17", env("17"), "correct-valid", "17"),
    case("int-by-value", N, "17", env(" +017 "), "correct-valid", " +017 ", "an integer by value, spaces around"),
    case("int-float", N, "17", env("17.0"), "wrong-valid", "17.0", "a count is an integer, not a float"),
    case("int-words", N, "17", env("17 times"), "wrong-valid", "17 times", "only the number"),
    case(
        "int-json-number", N, "17", '{"output": 17}', "wrong-invalid", None, "the envelope holds a string, not a number"
    ),
    case("int-off-by-one", N, "17", env("16"), "wrong-valid", "16"),
    # --- int-alpha-tokens ----------------------------------------------------------------
    case("ia-exact", T, "YES\n-3 5\n", env("YES\n-3 5"), "correct-valid"),
    case("ia-punctuation", T, "YES\n-3 5\n", env("YES: -3, 5."), "correct-valid", note="punctuation separates"),
    case("ia-by-value", T, "YES\n-3 5\n", env("YES -03 +5"), "correct-valid", note="integers by value"),
    case("ia-sign", T, "YES\n-3 5\n", env("YES 3 5"), "wrong-valid"),
    case("ia-case", T, "YES\n-3 5\n", env("yes -3 5"), "wrong-valid", note="words are case-sensitive"),
    case("ia-merged-ints", T, "1 2\n", env("12"), "wrong-valid"),
    case("ia-merged-words", T, "a b\n", env("ab"), "wrong-valid"),
    case("ia-minus-zero", T, "-0\n", env("0"), "correct-valid"),
    case("ia-decimal", T, "3.5\n", env("3 5"), "correct-valid", note="'.' is separator punctuation"),
    case("ia-word-int", T, "x-1\n", env("x -1"), "correct-valid"),
    case("ia-order", T, "1 2\n", env("2 1"), "wrong-valid"),
    case("ia-fenced", T, "1 2\n", "```\n" + env("1, 2") + "\n```", "correct-invalid"),
    # --- bytes ---------------------------------------------------------------------------
    case("by-exact", B, "a b\n", env("a b"), "correct-valid", "a b"),
    case("by-trailing-newline", B, "a b\n", env("a b\n"), "wrong-valid", "a b\n", "only the oracle loses its newline"),
    case("by-leading-space", B, "a b\n", env(" a b"), "wrong-valid"),
    case("by-double-space", B, "a b\n", env("a  b"), "wrong-valid"),
    case("by-one-newline-only", B, "a b\n\n", env("a b\n"), "correct-valid", note="one final newline removed"),
    case("by-no-newline", B, "a b", env("a b"), "correct-valid"),
    case("by-empty", B, "\n", env(""), "correct-valid", ""),
    case("by-prose-json", B, "a b\n", "Answer:\n" + env("a b"), "correct-invalid", "a b"),
    # --- python-literal ------------------------------------------------------------------
    case("pl-exact", P, "'abc'", env("'abc'"), "correct-valid", "'abc'"),
    case("pl-quotes", P, "'abc'", env('"abc"'), "correct-valid", note="same str value"),
    case("pl-bare-name", P, "'abc'", env("abc"), "wrong-valid", note="not a literal"),
    case("pl-tuple", P, "(4, 1)", env("(4,1)"), "correct-valid"),
    case("pl-tuple-vs-list", P, "(4, 1)", env("[4, 1]"), "wrong-valid"),
    case("pl-dict-order", P, "{1: None, 2: None}", env("{2: None, 1: None}"), "correct-valid"),
    case("pl-code", P, "0", env("__import__('os').system('true')"), "wrong-valid", note="never evaluated"),
    case("pl-expression", P, "'abc'", env("'ab' + 'c'"), "wrong-valid", note="an expression is not a literal"),
    case("pl-true-one", P, "True", env("1"), "correct-valid", note="Python ==, as CRUXEval's assert"),
    case("pl-deep", P, "[]", env("[" * 1000 + "]" * 1000), "wrong-valid", note="too deep to parse: wrong"),
    case("pl-whitespace", P, "[1, 2]", env("  [1,\n 2]\n"), "correct-valid"),
]


def main() -> None:
    out = Path(__file__).with_name("golden_responses.jsonl")
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    with open(out, "w", encoding="utf-8", newline="\n") as fh:
        for row in CASES:
            fh.write(json.dumps(row, ensure_ascii=True) + "\n")
    print(f"wrote {len(CASES)} cases to {out}")


if __name__ == "__main__":
    main()
