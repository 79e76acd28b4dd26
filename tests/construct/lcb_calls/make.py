"""Write this folder's LeetCode-style fixtures in LiveCodeBench's shapes: ``records.jsonl`` and ``solutions.json``.

Run from the repository root: ``python tests/construct/lcb_calls/make.py``. Every
problem here is written for these tests: a solution (what an evaluation output's
passing code would be, often without the imports LeetCode's judge provides), a
separate brute-force reference that computes each test's expected output, and
seeded argument lists of growing size (so construct finds a short/long pair).
``test_call_problems.py`` checks that the committed files are what this writes.
"""

from __future__ import annotations

import base64
import json
import pickle
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Problem:
    qid: str
    title: str
    func_name: str
    starter: str
    solution: str
    reference: Callable[..., object]
    calls: list[tuple[object, ...]]
    """Argument tuples; the first two are public tests, the rest private."""
    compressed: bool = False
    """Private tests stored as LiveCodeBench stores its large ones: base64(zlib(pickle(json string)))."""


def _ints(rng: random.Random, n: int, lo: int = -50, hi: int = 50) -> list[int]:
    return [rng.randint(lo, hi) for _ in range(n)]


def _max_subarray(nums: list[int]) -> int:
    return max(sum(nums[i:j]) for i in range(len(nums)) for j in range(i + 1, len(nums) + 1))


def _one_deletion_palindrome(s: str) -> bool:
    return s == s[::-1] or any((t := s[:i] + s[i + 1 :]) == t[::-1] for i in range(len(s)))


def _islands(grid: list[list[str]]) -> int:
    rows, cols = len(grid), len(grid[0])
    label: dict[tuple[int, int], tuple[int, int]] = {}

    def find(p: tuple[int, int]) -> tuple[int, int]:
        while label[p] != p:
            p = label[p]
        return p

    for r in range(rows):
        for c in range(cols):
            if grid[r][c] == "1":
                label[(r, c)] = (r, c)
    for r, c in list(label):
        for q in ((r + 1, c), (r, c + 1)):
            if q in label:
                label[find(q)] = find((r, c))
    return len({find(p) for p in label})


def _two_sum(nums: list[int], target: int) -> list[int]:
    return next([i, j] for j in range(len(nums)) for i in range(j) if nums[i] + nums[j] == target)


def _prefix(strs: list[str]) -> str:
    best = ""
    for n in range(1, min(map(len, strs)) + 1):
        if len({s[:n] for s in strs}) == 1:
            best = strs[0][:n]
    return best


def _can_jump(nums: list[int]) -> bool:
    reach = {0}
    for i in range(len(nums)):
        if i in reach:
            reach |= set(range(i, min(len(nums), i + nums[i] + 1)))
    return len(nums) - 1 in reach


def _rotate(matrix: list[list[int]]) -> list[list[int]]:
    n = len(matrix)
    return [[matrix[n - 1 - c][r] for c in range(n)] for r in range(n)]


def _min_path(grid: list[list[int]]) -> int:
    rows, cols = len(grid), len(grid[0])

    def paths(r: int, c: int) -> int:
        if (r, c) == (rows - 1, cols - 1):
            return grid[r][c]
        options = []
        if r + 1 < rows:
            options.append(memo(r + 1, c))
        if c + 1 < cols:
            options.append(memo(r, c + 1))
        return grid[r][c] + min(options)

    cache: dict[tuple[int, int], int] = {}

    def memo(r: int, c: int) -> int:
        if (r, c) not in cache:
            cache[(r, c)] = paths(r, c)
        return cache[(r, c)]

    for r in reversed(range(rows)):  # bottom-up keeps the recursion shallow
        for c in reversed(range(cols)):
            memo(r, c)
    return memo(0, 0)


def _collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = 3 * n + 1 if n % 2 else n // 2
        steps += 1
    return steps


def _merge(intervals: list[list[int]]) -> list[list[int]]:
    covered = sorted({x for a, b in intervals for x in range(2 * a, 2 * b + 1)})  # half steps: [1,2] [3,4] stay apart
    runs: list[list[int]] = []
    for x in covered:
        if runs and x == runs[-1][1] + 1:
            runs[-1][1] = x
        else:
            runs.append([x, x])
    return [[a // 2, b // 2] for a, b in runs]


def _top_k(words: list[str], k: int) -> list[str]:
    return sorted(set(words), key=lambda w: (-words.count(w), w))[:k]


def _max_average(nums: list[int], k: int) -> float:
    return max(sum(nums[i : i + k]) for i in range(len(nums) - k + 1)) / k


def _min_max(nums: list[int], absolute: bool) -> list[int]:
    key = abs if absolute else (lambda x: x)
    return [min(nums, key=key), max(nums, key=key)]


def _grid(rng: random.Random, rows: int, cols: int, p: float) -> list[list[str]]:
    return [["1" if rng.random() < p else "0" for _ in range(cols)] for _ in range(rows)]


def _intervals(rng: random.Random, n: int) -> list[list[int]]:
    starts = [rng.randint(0, 4 * n) for _ in range(n)]
    return [[s, s + rng.randint(0, 6)] for s in starts]


def _two_sum_case(rng: random.Random, n: int) -> tuple[list[int], int]:
    nums = rng.sample(range(-10 * n, 10 * n), n)
    i, j = sorted(rng.sample(range(n), 2))
    return nums, nums[i] + nums[j]


def _words(rng: random.Random, n: int, k: int) -> tuple[list[str], int]:
    vocabulary = ["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen", "ibis", "jay"]
    return [rng.choice(vocabulary[: 3 + n % 7]) for _ in range(n)], k


def _palindromes(rng: random.Random, n: int, broken: bool) -> str:
    half = "".join(rng.choice("abc") for _ in range(n))
    s = half + half[::-1]
    if broken:
        at = rng.randrange(len(s) + 1)
        s = s[:at] + "z" + s[at:]
    return s


def _jumps(rng: random.Random, n: int, hole: bool) -> list[int]:
    nums = [rng.randint(1, 3) for _ in range(n)]
    if hole:
        for i in range(n // 2, n // 2 + 3):
            nums[i] = 0
        nums[n // 2 - 1] = 1
        nums[n // 2 - 2] = 1
    return nums


def problems() -> list[Problem]:
    rng = random.Random(26)
    return [
        Problem(
            "9001", "Largest Sum of a Run", "maxSubarraySum",
            "class Solution:\n    def maxSubarraySum(self, nums: List[int]) -> int:\n        ",
            "class Solution:\n"
            "    def maxSubarraySum(self, nums: List[int]) -> int:\n"
            "        best = nums[0]\n"
            "        current = 0\n"
            "        for x in nums:\n"
            "            current = max(x, current + x)\n"
            "            best = max(best, current)\n"
            "        return best\n",
            _max_subarray,
            [([-2, 1, -3, 4, -1, 2, 1, -5, 4],), ([-7],), (_ints(rng, 3),), (_ints(rng, 60),), (_ints(rng, 160),)],
        ),
        Problem(
            "9002", "Palindrome After One Deletion", "validPalindrome",
            "class Solution:\n    def validPalindrome(self, s: str) -> bool:\n        ",
            "class Solution:\n"
            "    def validPalindrome(self, s: str) -> bool:\n"
            "        i, j = 0, len(s) - 1\n"
            "        skipped = False\n"
            "        while i < j:\n"
            "            if s[i] != s[j]:\n"
            "                skipped = True\n"
            "                break\n"
            "            i += 1\n"
            "            j -= 1\n"
            "        if not skipped:\n"
            "            return True\n"
            "        return self._palindrome(s, i + 1, j) or self._palindrome(s, i, j - 1)\n"
            "\n"
            "    def _palindrome(self, s: str, i: int, j: int) -> bool:\n"
            "        while i < j:\n"
            "            if s[i] != s[j]:\n"
            "                return False\n"
            "            i, j = i + 1, j - 1\n"
            "        return True\n",
            _one_deletion_palindrome,
            [("aba",), ("abca",), ("abcdba",), (_palindromes(rng, 40, True),), (_palindromes(rng, 120, False),),
             (_palindromes(rng, 150, True),), ("ab" * 30 + "xy",)],
        ),
        Problem(
            "9003", "Count the Islands", "numIslands",
            "class Solution:\n    def numIslands(self, grid: List[List[str]]) -> int:\n        ",
            "class Solution:\n"
            "    def numIslands(self, grid: List[List[str]]) -> int:\n"
            "        rows, cols = len(grid), len(grid[0])\n"
            "        seen = [[False] * cols for _ in range(rows)]\n"
            "        islands = 0\n"
            "        for r in range(rows):\n"
            "            for c in range(cols):\n"
            "                if grid[r][c] == \"1\" and not seen[r][c]:\n"
            "                    islands += 1\n"
            "                    self._flood(grid, seen, r, c)\n"
            "        return islands\n"
            "\n"
            "    def _flood(self, grid: List[List[str]], seen: List[List[bool]], r: int, c: int) -> None:\n"
            "        queue = deque([(r, c)])\n"
            "        seen[r][c] = True\n"
            "        while queue:\n"
            "            y, x = queue.popleft()\n"
            "            for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):\n"
            "                ny, nx = y + dy, x + dx\n"
            "                if 0 <= ny < len(grid) and 0 <= nx < len(grid[0]) and grid[ny][nx] == \"1\" and not seen[ny][nx]:\n"
            "                    seen[ny][nx] = True\n"
            "                    queue.append((ny, nx))\n",
            _islands,
            [([["1", "1", "0"], ["0", "1", "0"], ["0", "0", "1"]],), ([["0"]],), (_grid(rng, 4, 5, 0.5),),
             (_grid(rng, 10, 12, 0.45),), (_grid(rng, 18, 18, 0.4),)],
            compressed=True,
        ),
        Problem(
            "9004", "Pair With the Sum", "twoSum",
            "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n        ",
            "from typing import List\n"
            "\n"
            "\n"
            "class Solution:\n"
            "    def twoSum(self, nums: List[int], target: int) -> List[int]:\n"
            "        where = {}\n"
            "        pair = []\n"
            "        for j, x in enumerate(nums):\n"
            "            if target - x in where:\n"
            "                pair = [where[target - x], j]\n"
            "                break\n"
            "            where[x] = j\n"
            "        return pair\n",
            _two_sum,
            [([2, 7, 11, 15], 9), ([3, 3], 6), _two_sum_case(rng, 5), _two_sum_case(rng, 80), _two_sum_case(rng, 300)],
        ),
        Problem(
            "9005", "Shared Prefix", "longestCommonPrefix",
            "class Solution:\n    def longestCommonPrefix(self, strs: List[str]) -> str:\n        ",
            "class Solution:\n"
            "    def longestCommonPrefix(self, strs: List[str]) -> str:\n"
            "        prefix = strs[0]\n"
            "        for word in strs[1:]:\n"
            "            n = 0\n"
            "            while n < len(prefix) and n < len(word) and prefix[n] == word[n]:\n"
            "                n += 1\n"
            "            prefix = prefix[:n]\n"
            "        return prefix\n",
            _prefix,
            [(["flower", "flow", "flight"],), (["dog", "racecar", "car"],), (["abcab" * 2, "abcab" * 2 + "x"],),
             (["abcabcab" + w for w in ("x", "yy", "z", "xyz") * 6],),
             (["prefixprefix" + str(n) for n in range(60)],)],
        ),
        Problem(
            "9006", "Reach the Last Index", "canJump",
            "class Solution:\n    def canJump(self, nums: List[int]) -> bool:\n        ",
            "class Solution:\n"
            "    def canJump(self, nums: List[int]) -> bool:\n"
            "        furthest = 0\n"
            "        for i, step in enumerate(nums):\n"
            "            if i > furthest:\n"
            "                break\n"
            "            furthest = max(furthest, i + step)\n"
            "        return furthest >= len(nums) - 1\n",
            _can_jump,
            [([2, 3, 1, 1, 4],), ([3, 2, 1, 0, 4],), (_jumps(rng, 6, False),), (_jumps(rng, 100, True),),
             (_jumps(rng, 250, False),)],
        ),
        Problem(
            "9007", "Turn the Square", "rotate",
            "class Solution:\n    def rotate(self, matrix: List[List[int]]) -> List[List[int]]:\n        ",
            "class Solution:\n"
            "    def rotate(self, matrix: List[List[int]]) -> List[List[int]]:\n"
            "        n = len(matrix)\n"
            "        turned = []\n"
            "        for r in range(n):\n"
            "            row = []\n"
            "            for c in range(n):\n"
            "                row.append(matrix[n - 1 - c][r])\n"
            "            turned.append(row)\n"
            "        return turned\n",
            _rotate,
            [([[1, 2], [3, 4]],), ([[5]],), ([[rng.randint(0, 9) for _ in range(3)] for _ in range(3)],),
             ([[rng.randint(0, 99) for _ in range(9)] for _ in range(9)],),
             ([[rng.randint(0, 99) for _ in range(14)] for _ in range(14)],)],
        ),
        Problem(
            "9008", "Cheapest Path Down and Right", "minPathSum",
            "class Solution:\n    def minPathSum(self, grid: List[List[int]]) -> int:\n        ",
            "class Solution:\n"
            "    def minPathSum(self, grid: List[List[int]]) -> int:\n"
            "        rows, cols = len(grid), len(grid[0])\n"
            "        cost = [inf] * (cols + 1)\n"
            "        cost[1] = 0\n"
            "        for r in range(rows):\n"
            "            for c in range(cols):\n"
            "                cost[c + 1] = grid[r][c] + min(cost[c], cost[c + 1])\n"
            "        return cost[cols]\n",
            _min_path,
            [([[1, 3, 1], [1, 5, 1], [4, 2, 1]],), ([[1, 2, 3], [4, 5, 6]],), ([[rng.randint(0, 9)] * 2],),
             ([[rng.randint(0, 9) for _ in range(8)] for _ in range(10)],),
             ([[rng.randint(0, 9) for _ in range(16)] for _ in range(16)],)],
        ),
        Problem(
            "9009", "Steps to One", "collatzSteps",
            "def collatzSteps(n: int) -> int:\n    ",
            "def collatzSteps(n: int) -> int:\n"
            "    steps = 0\n"
            "    while n != 1:\n"
            "        if n % 2 == 0:\n"
            "            n //= 2\n"
            "        else:\n"
            "            n = 3 * n + 1\n"
            "        steps += 1\n"
            "    return steps\n",
            _collatz,
            [(6,), (1,), (3,), (97,), (871,), (77031,)],
        ),
        Problem(
            "9010", "Merge Overlapping Ranges", "merge",
            "class Solution:\n    def merge(self, intervals: List[List[int]]) -> List[List[int]]:\n        ",
            "class Solution:\n"
            "    def merge(self, intervals: List[List[int]]) -> List[List[int]]:\n"
            "        intervals.sort()\n"
            "        merged = [intervals[0][:]]\n"
            "        for start, end in intervals[1:]:\n"
            "            if start <= merged[-1][1]:\n"
            "                merged[-1][1] = max(merged[-1][1], end)\n"
            "            else:\n"
            "                merged.append([start, end])\n"
            "        return merged\n",
            _merge,
            [([[1, 3], [2, 6], [8, 10], [15, 18]],), ([[1, 4], [4, 5]],), (_intervals(rng, 3),),
             (_intervals(rng, 40),), (_intervals(rng, 120),)],
            compressed=True,
        ),
        Problem(
            "9011", "Most Frequent Words", "topKFrequent",
            "class Solution:\n    def topKFrequent(self, words: List[str], k: int) -> List[str]:\n        ",
            "class Solution:\n"
            "    def topKFrequent(self, words: List[str], k: int) -> List[str]:\n"
            "        counts = Counter()\n"
            "        for word in words:\n"
            "            counts[word] += 1\n"
            "        ranked = sorted(counts, key=lambda w: self._rank(counts, w))\n"
            "        return ranked[:k]\n"
            "\n"
            "    def _rank(self, counts: Counter, word: str) -> Tuple[int, str]:\n"
            "        return (-counts[word], word)\n",
            _top_k,
            [(["i", "love", "leetcode", "i", "love", "coding"], 2), (["a"], 1), _words(rng, 4, 2),
             _words(rng, 90, 3), _words(rng, 400, 4)],
        ),
        Problem(
            "9012", "Best Window Average", "findMaxAverage",
            "class Solution:\n    def findMaxAverage(self, nums: List[int], k: int) -> float:\n        ",
            "class Solution:\n"
            "    def findMaxAverage(self, nums: List[int], k: int) -> float:\n"
            "        window = sum(nums[:k])\n"
            "        best = window\n"
            "        for i in range(k, len(nums)):\n"
            "            window += nums[i] - nums[i - k]\n"
            "            best = max(best, window)\n"
            "        return best / k\n",
            _max_average,
            [([1, 12, -5, -6, 50, 3], 4), ([5], 1), (_ints(rng, 4, -9, 9), 3), (_ints(rng, 70), 8),
             (_ints(rng, 300), 12)],
        ),
        Problem(
            "9013", "Smallest and Largest", "extremes",
            "class Solution:\n    def extremes(self, nums: List[int], absolute: bool) -> List[int]:\n        ",
            "class Solution:\n"
            "    def extremes(self, nums: List[int], absolute: bool) -> List[int]:\n"
            "        low = high = nums[0]\n"
            "        for x in nums[1:]:\n"
            "            size = abs(x) if absolute else x\n"
            "            if size < (abs(low) if absolute else low):\n"
            "                low = x\n"
            "            if size > (abs(high) if absolute else high):\n"
            "                high = x\n"
            "        return low, high\n",
            _min_max,
            [([3, -8, 5], True), ([3, -8, 5], False), (_ints(rng, 3), False), (_ints(rng, 50), True),
             (_ints(rng, 200), False)],
        ),
    ]  # fmt: skip


def _tests(p: Problem, calls: list[tuple[object, ...]]) -> list[dict[str, str]]:
    """LiveCodeBench's functional tests: one JSON value per input line, the expected value as JSON."""
    return [
        {
            "input": "\n".join(json.dumps(a) for a in args),
            "output": json.dumps(p.reference(*json.loads(json.dumps(args)))),
            "testtype": "functional",
        }
        for args in calls
    ]


def record(p: Problem) -> dict[str, object]:
    """A ``code_generation_lite`` record of ``p``, as LiveCodeBench ships its LeetCode problems."""
    private = json.dumps(_tests(p, p.calls[2:]))
    if p.compressed:
        private = base64.b64encode(zlib.compress(pickle.dumps(private))).decode("ascii")
    return {
        "question_title": p.title,
        "question_content": f"({p.title}: a statement written for execstate's tests.)",
        "platform": "leetcode",
        "question_id": p.qid,
        "contest_id": "weekly-contest-900",
        "contest_date": "2026-01-04T00:00:00",
        "starter_code": p.starter,
        "difficulty": "medium",
        "public_test_cases": json.dumps(_tests(p, p.calls[:2])),
        "private_test_cases": private,
        "metadata": json.dumps({"func_name": p.func_name}),
    }


def solutions(ps: list[Problem]) -> list[dict[str, object]]:
    """LiveCodeBench's evaluation output: a failing first attempt, then the solution graded true."""
    wrong = "class Solution:\n    pass\n"
    return [{"question_id": p.qid, "code_list": [wrong, p.solution], "graded_list": [False, True]} for p in ps]


def files() -> dict[str, str]:
    """The two fixture files' names and texts."""
    ps = problems()
    return {
        "records.jsonl": "".join(json.dumps(record(p)) + "\n" for p in ps),
        "solutions.json": json.dumps(solutions(ps), indent=1) + "\n",
    }


if __name__ == "__main__":
    for name, text in files().items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {HERE / name}")
