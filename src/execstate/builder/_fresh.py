"""Fresh inputs on demand (``execstate build --fresh SEED``, SPEC 11): the same cases on inputs nobody has seen.

For every case whose inputs come from a generator, the builder draws a few candidate
input pairs, each from a seed derived from the user's seed, the case id and the
candidate's index (``Fresh.case_seed``), keeps the candidate whose long trace is
closest to the published long trace among those within the bounds (long at least
``min_ratio`` times the short trace, or the published pair's ratio when that is lower;
at most ``max_trace``, or the published long trace when that is higher; inside the
study's band when it declares one), and builds the case on it with the nine checks
exactly as for the published inputs. Where the inputs come from:

- a spec input ``{ generator = "gen.py", args = [...] }``: the same generator with the same
  arguments, and the environment variable ``EXECSTATE_SEED`` set to the derived seed
  (``SEED_ENV``; unset, the generator prints the published input);
- a spec input that is a file: the study's ``refresher`` (``execstate.studies.Study``), which
  re-runs the program that made the file (networkx: the study's generator at the case's
  recorded sizes; library_cpp: the Library Checker generator ``tests/MANIFEST.tsv`` names);
- otherwise the case cannot be refreshed (``NotRefreshable``): it keeps its published inputs and
  its tasks say ``meta["fresh"] = false`` with the reason, or with ``Fresh.only`` it is left out as
  an exclusion of check ``fresh``. A generator that ignores the seed (its first candidate equals the
  published input) is detected and reported the same way.

The seed itself is never written: tasks and the manifest carry ``Fresh.commitment``
(``sha256:`` of a fixed prefix and the seed), so a lab can publish the commitment
with its results and reveal the seed later (``verify_fresh``).
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from execstate.builder._context import CaseContext
from execstate.errors import UsageError, one_line
from execstate.languages import HELPER_LANGUAGE, make_language
from execstate.studies import STUDIES, FreshPlan, InputRecipe

if TYPE_CHECKING:
    from execstate.builder._spec import CaseSpec

SEED_ENV = "EXECSTATE_SEED"
"""The environment variable a generator of a ``--fresh`` build finds its seed in (a decimal integer below 2**56)."""
COMMITMENT_PREFIX = "execstate-fresh-v1:"
"""What ``Fresh.commitment`` hashes before the seed."""
ATTEMPTS_PER_CANDIDATE = 4
"""At most ``candidates * ATTEMPTS_PER_CANDIDATE`` seeds are drawn to find ``candidates`` within the bounds."""


class NotRefreshable(Exception):
    """The case's inputs cannot be drawn afresh (files without a study refresher, a generator ignoring the seed)."""


class NoCandidate(Exception):
    """No fresh candidate of a refreshable case is within the bounds (the message lists every candidate's traces)."""


@dataclass(frozen=True)
class Fresh:
    """A ``--fresh`` build's request: the secret ``seed`` (never written; not in ``repr``) and its choices."""

    seed: str = field(repr=False)
    candidates: int = 4
    """Candidate input pairs per case (within the bounds) among which the closest in long trace is kept."""
    only: bool = False
    """Leave out the cases that cannot be refreshed (exclusions of check ``fresh``) instead of keeping them."""
    min_ratio: float = 4.0
    max_trace: int = 2_000_000
    aliases: tuple[tuple[str, str], ...] = ()
    """``(case id, other case id)``: the case draws its candidates from the other's seeds (a cross-language twin
    from its original's, so both are built on the same fresh inputs; docs/twins.md)."""
    pinned: tuple[tuple[str, int], ...] = ()
    """``(case id, candidate)``: the case is built on that candidate only, within the bounds or not (a twin on the
    candidate its original was built on, when its own ranking chose another)."""

    def __post_init__(self) -> None:
        if not isinstance(self.seed, str) or not self.seed.strip():
            raise UsageError("the fresh seed is empty. Fix: pass --fresh with a secret seed, e.g. a long random number")
        if self.candidates < 1:
            raise UsageError(f"fresh candidates must be at least 1, got {self.candidates}. Fix: pass a positive number")

    @property
    def commitment(self) -> str:
        """``sha256:<hex>`` of ``COMMITMENT_PREFIX + seed``: publishable now, checkable once the seed is revealed."""
        return "sha256:" + hashlib.sha256((COMMITMENT_PREFIX + self.seed).encode("utf-8")).hexdigest()

    def case_seed(self, case_id: str, candidate: int) -> int:
        """The seed of ``case_id``'s candidate ``candidate``: 56 bits of SHA-256 of the seed, the id and the index."""
        case_id = dict(self.aliases).get(case_id, case_id)
        text = f"execstate-fresh-seed-v1\0{self.seed}\0{case_id}\0{candidate}"
        return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:7], "big")


def fresh_plan(spec: CaseSpec, seed: int) -> FreshPlan:
    """How to draw ``spec``'s inputs from ``seed``; ``NotRefreshable`` saying why when they cannot be."""
    sources = {"short_input": spec.short_input, "long_input": spec.long_input}
    if all(src.generator is not None for src in sources.values()):
        recipes = []
        for src in sources.values():
            assert src.generator is not None
            text = src.generator.read_text(encoding="utf-8")
            shown = " ".join([src.generator.name, *src.args])
            env = ((SEED_ENV, str(seed)),)
            recipes.append(InputRecipe(HELPER_LANGUAGE, text, src.args, env, f"{shown} with {SEED_ENV}=<fresh seed>"))
        return FreshPlan(recipes[0], recipes[1])
    study = STUDIES.get(spec.study)
    refresher = study.fresh_refresher() if study is not None else None
    files = {key: src.file for key, src in sources.items()}
    if refresher is None:
        named = ", ".join(f"{key} is the file {path.name}" for key, path in files.items() if path is not None)
        raise NotRefreshable(
            f"{named}; only inputs made by a generator (or by a study with a refresher) can be drawn afresh"
        )
    made = refresher(spec.spec_path, spec.provenance, files, seed)
    if isinstance(made, str):
        raise NotRefreshable(made)
    return made


@dataclass
class _Candidate:
    index: int
    short: bytes = b""
    long: bytes = b""
    trace_short: int | None = None
    trace_long: int | None = None
    rejected: str | None = None

    def record(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "candidate": self.index,
            "trace_short": self.trace_short,
            "trace_long": self.trace_long,
        }
        if self.rejected:
            found["rejected"] = self.rejected
        return found


def choose_fresh(
    case: CaseContext, fresh: Fresh, short: bytes, long: bytes
) -> list[tuple[bytes, bytes, dict[str, Any]]]:
    """The fresh short and long inputs of ``case`` within the bounds, each with the ``meta["fresh"]`` record saying
    how they were chosen, best first (the closest long trace to the published one; the builder builds the first
    that passes the checks).

    ``short`` and ``long`` are the published inputs. ``NotRefreshable`` when the case cannot be refreshed;
    ``NoCandidate`` when no candidate is within the bounds (the message lists every candidate's traces).
    """
    spec = case.spec
    measured = {
        name: case.memo.measure_once(case.lang, case.source, data, None, state=False)
        for name, data in (("short", short), ("long", long))
    }
    failed = [
        f"{name}: {m.status}: {one_line(m.detail)}"
        for name, m in measured.items()
        if not m.ok or m.trace_length is None
    ]
    if failed:  # what failed, a limit only when one was reached (the measurement's status says which)
        raise NoCandidate(f"the published inputs' trace lengths could not be measured ({'; '.join(failed)})")
    published = {name: int(m.trace_length) for name, m in measured.items() if m.trace_length is not None}
    ratio = min(fresh.min_ratio, published["long"] / max(1, published["short"]))
    cap = max(fresh.max_trace, published["long"])
    kept: list[_Candidate] = []
    tried: list[_Candidate] = []
    band: tuple[int, int] | None = None
    pin = dict(fresh.pinned).get(spec.id)
    for index in range(fresh.candidates * ATTEMPTS_PER_CANDIDATE) if pin is None else (pin,):
        if len(kept) == fresh.candidates:
            break
        plan = fresh_plan(spec, fresh.case_seed(spec.id, index))
        band = plan.long_trace_band
        cand = _Candidate(index)
        tried.append(cand)
        made = [_run_recipe(case, recipe) for recipe in (plan.short, plan.long)]
        if index == 0 and pin is None:
            same = [name for name, got, old in zip(("short", "long"), made, (short, long)) if got == old]
            if same:
                raise NotRefreshable(
                    f"its generator ignores {SEED_ENV}: the fresh {' and '.join(same)} input equals the published one"
                )
        failed = [got for got in made if isinstance(got, str)]
        if failed:
            cand.rejected = failed[0]
            continue
        assert isinstance(made[0], bytes) and isinstance(made[1], bytes)
        cand.short, cand.long = made[0], made[1]
        cand.rejected = _bounds(case, cand, ratio, cap, band)
        if pin is not None and cand.rejected is not None:  # the original's candidate: measured, never refused
            cand.trace_long, cand.trace_short = _trace(case, cand.long), _trace(case, cand.short)
            cand.rejected = None if None not in (cand.trace_long, cand.trace_short) else cand.rejected
        if cand.rejected is None:
            kept.append(cand)
    if not kept:
        shown = "; ".join(
            f"#{c.index}: short {c.trace_short}, long {c.trace_long}" + (f" ({c.rejected})" if c.rejected else "")
            for c in tried[:8]
        )
        raise NoCandidate(
            f"none of {len(tried)} fresh candidates is within the bounds (long trace at least {ratio:.3g}x the "
            f"short one, at most {cap}{f', in [{band[0]}, {band[1]})' if band else ''}): {shown}",
        )
    ranked = sorted(kept, key=lambda c: (abs((c.trace_long or 0) - published["long"]), c.index))
    found = []
    for best in ranked:
        meta: dict[str, Any] = {
            "of": spec.id,
            "commitment": fresh.commitment,
            "candidate": best.index,
            "candidates": fresh.candidates,
            "tried": [c.record() for c in tried],
            "trace_short_published": published["short"],
            "trace_long_published": published["long"],
            "trace_short": best.trace_short,
            "trace_long": best.trace_long,
            "short_input": plan.short.describe,
            "long_input": plan.long.describe,
        }
        if band is not None:
            meta["long_trace_band"] = list(band)
        found.append((best.short, best.long, meta))
    return found


def _bounds(case: CaseContext, cand: _Candidate, ratio: float, cap: int, band: tuple[int, int] | None) -> str | None:
    """Why ``cand`` is out of the bounds (its traces are measured here, long first), or None."""
    if cand.long == cand.short:
        return "the short and long inputs are equal"
    cand.trace_long = _trace(case, cand.long)
    if cand.trace_long is None:
        return "the program fails on the long input, or its trace could not be measured"
    if band is not None and not band[0] <= cand.trace_long < band[1]:
        return "long trace outside the case's band"
    if cand.trace_long > cap:
        return "long trace over the cap"
    cand.trace_short = _trace(case, cand.short)
    if cand.trace_short is None:
        return "the program fails on the short input, or its trace could not be measured"
    if cand.trace_long < ratio * cand.trace_short:
        return "long trace under the ratio"
    return None


def _trace(case: CaseContext, data: bytes) -> int | None:
    m = case.memo.measure_once(case.lang, case.source, data, None, state=False)
    return m.trace_length if m.ok else None


def _run_recipe(case: CaseContext, recipe: InputRecipe) -> bytes | str:
    """The input ``recipe`` prints (run in the sandbox), or why there is none."""
    if recipe.language == HELPER_LANGUAGE:
        lang = case.generators
        if recipe.env:
            lang = dataclasses.replace(lang, extra_env=recipe.env)  # type: ignore[type-var]
    else:
        lang = make_language(recipe.language, case.opts)
        if case.env is not None:
            lang = lang.with_environment(case.env)
    res = lang.run(recipe.source, b"", case.workdir, args=recipe.args)
    if not res.ok:
        return f"{recipe.describe} failed: {res.describe()}"
    data = bytes(res.stdout)
    if len(data) > case.opts.max_input_bytes:
        return f"{recipe.describe} printed {len(data)} bytes, over max_input_bytes"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return f"{recipe.describe} printed text that is not UTF-8"
    return data


__all__ = [
    "ATTEMPTS_PER_CANDIDATE",
    "COMMITMENT_PREFIX",
    "SEED_ENV",
    "Fresh",
    "NoCandidate",
    "NotRefreshable",
    "choose_fresh",
    "fresh_plan",
]
