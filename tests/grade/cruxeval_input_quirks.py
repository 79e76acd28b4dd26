"""Hand-decided CRUXEval-I verdicts; writes ``cruxeval/input_items.jsonl`` and ``cruxeval/input_quirks.json``.

Regenerate the two files after editing ITEMS or CASES:

    python tests/grade/cruxeval_input_quirks.py

Each case is (item, generation, literal, upstream, why). ``literal`` is the
``python-call`` rule's verdict (one call of ``f`` with literal arguments, run,
its value compared with the output); ``upstream`` is what CRUXEval's
``evaluate_score(..., mode="input")`` decides: a generation without ``f(`` is
wrong unexecuted, anything else runs as ``{code}\\nassert {output} ==
{generation}`` and is right when it raises nothing within 3 seconds. Both
columns were decided by reading those two rules, not by running a grader.
The generations file is in the leaderboard site's wrapped form.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).with_name("cruxeval")
ITEMS_FILE = HERE / "input_items.jsonl"
GENERATIONS_FILE = HERE / "input_quirks.json"

ITEMS = {
    "sample_0": {"code": "def f(x):\n    return x * 2", "input": "12", "output": "24"},
    "sample_1": {"code": "def f(text, n=1):\n    return text * n", "input": "'ab', 2", "output": "'abab'"},
    # a side effect on module state: every check runs in fresh globals, so it never leaks into the next one
    "sample_2": {
        "code": "calls = []\ndef f(x):\n    calls.append(x)\n    return len(calls)",
        "input": "5",
        "output": "1",
    },
    # f runs for ever on positive numbers: the per-check time limit decides
    "sample_3": {"code": "def f(n):\n    while n != 0:\n        n += 1\n    return n", "input": "-2", "output": "0"},
    # the item's own call passes a function (as CRUXEval's sample_344 and sample_364): lambdas are accepted here
    "sample_4": {
        "code": "def f(xs, keep):\n    return [x for x in xs if keep(x)]",
        "input": "[1, 2, 3], lambda x: x > 1",
        "output": "[2, 3]",
    },
}

CASES = [
    ("sample_0", "f(12)", True, True, "the item's own input"),
    ("sample_0", "  f(12)  ", True, True, "outer spaces: stripped here, harmless in the pasted source"),
    ("sample_0", "\nf(12)", True, False, "a leading newline: stripped here, a SyntaxError after `assert 24 ==`"),
    ("sample_0", "f(12)\n", True, True, "a trailing newline"),
    ("sample_0", "f(12) # twelve", True, True, "a comment is not code"),
    ("sample_0", "f(x=12)", True, True, "a keyword argument"),
    ("sample_0", "f(12.0)", True, True, "another input with the same value (24.0 == 24)"),
    ("sample_0", "f(6 + 6)", False, True, "an expression argument: not a literal here, executed upstream"),
    ("sample_0", "f(f(6))", False, True, "a nested call of f: not a literal argument"),
    ("sample_0", "f(*[12])", False, True, "unpacked arguments"),
    ("sample_0", "f(0) or True", False, True, "`assert 24 == f(0) or True` is `(24 == f(0)) or True`"),
    ("sample_0", "f(12), 'message'", False, True, "a tuple here; upstream the text after the comma is the message"),
    ("sample_0", "f(0), 'message'", False, False, "the message does not save a wrong call"),
    ("sample_0", "24", False, False, "not a call; upstream: no `f(`, wrong unexecuted"),
    ("sample_0", "g(12)", False, False, "calls another function; upstream: no `f(`"),
    ("sample_0", "elf(12)", False, False, "another function whose name ends in f: upstream runs it (NameError)"),
    ("sample_0", "print(f(12))", False, False, "calls print; upstream print returns None"),
    ("sample_0", "assert f(12) == 24", False, False, "a statement: a SyntaxError pasted after `assert 24 ==`"),
    ("sample_0", "f(12", False, False, "unbalanced"),
    ("sample_0", "f(None)", False, False, "f raises TypeError"),
    ("sample_0", "f(11)", False, False, "f returns 22"),
    ("sample_1", "f('ab', 2)", True, True, "the item's own input"),
    ("sample_1", "f('abab')", True, True, "a different right input (the default n=1)"),
    ("sample_1", "f(n=2, text='ab')", True, True, "keywords in another order"),
    ("sample_1", "f('ab', n=2, n=2)", False, False, "a repeated keyword (a SyntaxError upstream)"),
    ("sample_1", "f('a' 'b', 2)", True, True, "implicit concatenation is a literal"),
    ("sample_2", "f(5)", True, True, "the item's own input"),
    ("sample_2", "f(7)", True, True, "any argument: fresh globals per check, so calls is empty again"),
    ("sample_2", "f(1) + f(1) - 1", False, False, "two calls in one check do share state: 1 + 2 - 1 == 2"),
    ("sample_3", "f(-2)", True, True, "the item's own input"),
    ("sample_3", "f(-5)", True, True, "a different right input"),
    ("sample_3", "f(1)", False, False, "never returns: the time limit fails it in both modes"),
    ("sample_4", "f([1, 2, 3], lambda x: x > 1)", True, True, "the item's own input, a lambda argument"),
    ("sample_4", "f([2, 3], lambda x: True)", True, True, "another list and another lambda"),
    ("sample_4", "f(keep=lambda x: x, xs=[0, 2, 3])", True, True, "a lambda as a keyword argument"),
    ("sample_4", "f([2, 3], bool)", False, True, "a name is not a literal or a lambda; upstream runs it"),
    ("sample_4", "f([1, 2, 3], lambda x: x > 2)", False, False, "f returns [3]"),
    ("sample_4", "f([2, 3], lambda: True)", False, False, "the lambda takes no argument: f raises TypeError"),
    ("sample_0", "f((lambda: 12)())", False, True, "a lambda where the item's own call passes none"),
    ("sample_0", "f(lambda x: 12)", False, False, "a lambda argument, on an item that takes none"),
]


def generations() -> dict[str, list[str]]:
    """The generations of each item, in CASES order."""
    out: dict[str, list[str]] = {key: [] for key in ITEMS}
    for key, generation, *_ in CASES:
        out[key].append(generation)
    return out


def expected(column: int) -> dict[str, list[bool]]:
    """Per item, per generation: the verdict in column 2 (literal) or 3 (upstream)."""
    out: dict[str, list[bool]] = {key: [] for key in ITEMS}
    for case in CASES:
        out[case[0]].append(bool(case[column]))
    return out


def main() -> None:
    with open(ITEMS_FILE, "w", encoding="utf-8") as fh:
        for key, item in ITEMS.items():
            fh.write(json.dumps({**item, "id": key}) + "\n")
    wrapped = {"raw_generations": generations(), "pass_at_1": None, "note": "hand-made CRUXEval-I quirks"}
    GENERATIONS_FILE.write_text(json.dumps(wrapped, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {ITEMS_FILE} and {GENERATIONS_FILE}")


if __name__ == "__main__":
    main()
