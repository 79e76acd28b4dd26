"""Records in exactly the published shapes (CodeContests, LiveCodeBench), written by the tests themselves."""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from pathlib import Path
from typing import Any

PYTHON2, CPP, PYTHON3 = 1, 2, 3

SUM_PY = "a, b = map(int, input().split())\nprint(a + b)\n"
SUM_CPP = "#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }\n"
WRONG_ON_NEGATIVES_PY = "a, b = map(int, input().split())\nprint(abs(a) + abs(b))\n"


def cc_record(name: str, solutions: list[tuple[int, str]], **tests: list[tuple[str, str]]) -> dict[str, Any]:
    """A CodeContests record: ``name``, the three test fields as ``{input, output}`` and parallel ``solutions``."""
    record: dict[str, Any] = {"name": name, "description": "statement text", "source": 2, "difficulty": 7}
    for kind in ("public_tests", "private_tests", "generated_tests"):
        pairs = tests.get(kind, [])
        record[kind] = {"input": [i for i, _ in pairs], "output": [o for _, o in pairs]}
    record["solutions"] = {"language": [lang for lang, _ in solutions], "solution": [src for _, src in solutions]}
    record["incorrect_solutions"] = {"language": [], "solution": []}
    record |= {"cf_contest_id": 1, "cf_index": "A", "cf_rating": 800, "time_limit": {"seconds": 2, "nanos": 500000000}}
    record["memory_limit_bytes"] = 256 * 1024 * 1024
    return record


def sum_tests() -> dict[str, list[tuple[str, str]]]:
    """Tests of "print a + b" of every kind; the private one has a negative number."""
    return {
        "public_tests": [("1 2\n", "3\n")],
        "private_tests": [("-5 2\n", "-3\n")],
        "generated_tests": [("100 200\n", "300\n"), ("0 0\n", "0\n")],
    }


def lcb_tests(pairs: list[tuple[str, str]], testtype: str = "stdin") -> list[dict[str, str]]:
    return [{"input": i, "output": o, "testtype": testtype} for i, o in pairs]


def compress(payload: bytes) -> str:
    """LiveCodeBench's private-test encoding around an already pickled ``payload``: base64 of zlib."""
    return base64.b64encode(zlib.compress(payload)).decode("ascii")


def compressed_tests(tests: list[dict[str, str]]) -> str:
    """``private_test_cases`` as LiveCodeBench ships the large ones: base64(zlib(pickle(json string)))."""
    return compress(pickle.dumps(json.dumps(tests)))


def lcb_record(qid: str, difficulty: str, public: list[dict[str, str]], private: str | list) -> dict[str, Any]:
    """A ``code_generation_lite`` record; ``private`` is the ``private_test_cases`` value as stored."""
    return {
        "question_title": f"title of {qid}",
        "question_content": "statement",
        "platform": "atcoder",
        "question_id": qid,
        "contest_id": "abc300",
        "contest_date": "2023-04-29T00:00:00",
        "starter_code": "",
        "difficulty": difficulty,
        "public_test_cases": json.dumps(public),
        "private_test_cases": private if isinstance(private, str) else json.dumps(private),
        "metadata": "{}",
    }


def write_jsonl(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path
