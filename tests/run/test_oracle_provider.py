"""The oracle pipeline check answers what every grading rule accepts, byte equality included."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from execstate.grade import RULES, answer_matches, extract
from execstate.run.providers.oracle import OracleProvider

ORACLES = ["884\n0 3 0\n4 3 0\n", "9\n", '{"ans":1,"s":"x"}\n', "[1, 2]\n", "12"]
# python-literal (CRUXEval) oracles are Python literals: the first and third are not; an integer (a line count's)
# oracle is one integer: the second and fifth
CASES = [
    (r, o)
    for r in sorted(RULES)
    for o in ORACLES
    if (r != "python-literal" or not o.startswith(("884", "{"))) and (r != "integer" or o.strip().isdigit())
]


@pytest.mark.parametrize(("rule", "oracle"), CASES)
def test_the_oracle_provider_is_correct_under_every_rule(rule, oracle):
    attempt = asyncio.run(OracleProvider().attempt_task(SimpleNamespace(oracle=oracle), 0))  # type: ignore[arg-type]
    found = extract(attempt.text or "")
    assert found.envelope_valid and found.answer is not None
    assert answer_matches(rule, found.answer, oracle)
