"""Cross-language twins proven by the builder (SPEC 11, docs/twins.md): a case written in a second language is
the twin of an original only when the build shows that the two compute the same thing.

A study that ships twins names its twin file in the registry (``Study.twins``, a ``twins.toml``): one table per
case folder of the study, saying which case it is the twin of and what each of its projected variables is called
in the original::

    [kadane]
    twin_of = "classic/kadane"
    [kadane.variables]   # twin's name = original's name, every projected variable
    best = "best"
    cur = "cur"

After the cases are built, ``prove_twins`` compares every twin with its original, in the same build:

1. Every task both have is asked on the same input bytes; the selected loop runs as often (``K``) and the
   inside checkpoint is at the same iteration (``k``); the projections name the same variables in the same order
   under the mapping.
2. Every final output is the same text; every state oracle (inside, post, and each loop-trace step both have)
   is the same JSON value once the twin's names are mapped to the original's.
3. The two programs print the same standard output on the fresh inputs of the ``seeds`` (the original's
   generators run with ``EXECSTATE_SEED``, the twin's too when they are other files), short and long.

A twin's tasks carry ``meta["twin_of"]`` (the original's case id; ``records.task_kind`` says ``twin``) and
``meta["twin"]``: ``proven`` and, when it is not, ``difference``, the first difference found. An unproven twin
keeps its tasks (they passed the nine checks) but stays out of the paired language gap; the build manifest's
``twins`` lists both kinds. The originals' tasks are never changed: their bytes are those of a build without
twins.
"""

from __future__ import annotations

import dataclasses
import tempfile
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate.arms import arm_names, arm_spec
from execstate.builder._fresh import SEED_ENV, Fresh
from execstate.builder._spec import CaseSpec, InputSource
from execstate.errors import SpecError, remove_tree
from execstate.languages import BuildOptions, helper_language, make_language
from execstate.records import FRESH_SUFFIX, Task
from execstate.studies import STUDIES
from execstate.values import json_value

TWINS_FILE = "twins.toml"
"""The usual name of a study's twin file (``Study.twins``)."""
PROOF_SEEDS: tuple[int, ...] = (1, 2, 3)
"""The seeds whose fresh inputs both programs of a pair must answer alike (published builds)."""
_KEYS = {"twin_of", "variables"}


@dataclass(frozen=True)
class TwinLink:
    """One declared twin: its case id, its original's and the names of its projected variables in the original."""

    case_id: str
    """The twin's (published) case id, ``<study>/<folder>``."""
    twin_of: str
    """The original's case id (``classic/kadane``)."""
    variables: tuple[tuple[str, str], ...]
    """``(twin's name, original's name)`` for every projected variable, in the file's order."""
    source: Path
    """The twin file that declares it."""

    @property
    def mapping(self) -> dict[str, str]:
        """The twin's variable names -> the original's."""
        return dict(self.variables)


def read_twins(path: Path, study: str) -> dict[str, TwinLink]:
    """The twins ``path`` declares for ``study``, by twin case id (``<study>/<table name>``).

    ``SpecError`` naming the file, the table and the fix for a file that is not such a table of tables.
    """
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SpecError(path, None, f"cannot read the twin file: {exc}", "make it a TOML file of tables") from None
    links: dict[str, TwinLink] = {}
    for name, table in raw.items():
        if not isinstance(table, dict):
            raise SpecError(path, name, "not a table", f'write one table per case folder ([{name}] twin_of = "...")')
        unknown = sorted(set(table) - _KEYS)
        if unknown:
            raise SpecError(path, name, f"unknown key(s) {', '.join(unknown)}", "use only twin_of and variables")
        twin_of, variables = table.get("twin_of"), table.get("variables")
        if not isinstance(twin_of, str) or "/" not in twin_of:
            raise SpecError(path, name, "twin_of must be the original's case id", f'twin_of = "classic/{name}"')
        if not isinstance(variables, dict) or not variables:
            fix = f"add [{name}.variables] with twin name = original name"
            raise SpecError(path, name, "variables must name every projected variable", fix)
        bad = [k for k, v in variables.items() if not isinstance(v, str)]
        if bad:
            raise SpecError(path, f"{name}.variables", f"{', '.join(bad)} must be strings", "give the original's name")
        case_id = f"{study}/{name}"
        links[case_id] = TwinLink(case_id, twin_of, tuple(variables.items()), path)
    return links


def twin_links(specs: Iterable[CaseSpec]) -> dict[str, TwinLink]:
    """The declared twins among ``specs`` (by twin case id): those of studies whose registry entry names a twin
    file. A twin file's table with no spec in the build is ignored (its case is simply not built)."""
    files: dict[str, dict[str, TwinLink]] = {}
    found: dict[str, TwinLink] = {}
    for spec in specs:
        study = STUDIES.get(spec.study)
        path = study.twins if study is not None else None
        if path is None:
            continue
        if spec.study not in files:
            files[spec.study] = read_twins(Path(path), spec.study)
        link = files[spec.study].get(spec.id)
        if link is not None:
            found[spec.id] = link
    return found


def fresh_aliases(links: Mapping[str, TwinLink]) -> tuple[tuple[str, str], ...]:
    """``(twin id, original id)`` pairs for ``Fresh.aliases``: a twin's fresh inputs are drawn from its original's
    seeds, so the two are built on the same fresh inputs."""
    return tuple(sorted((link.case_id, link.twin_of) for link in links.values()))


def unfollowed(results: Mapping[str, Sequence[Task]], links: Mapping[str, TwinLink]) -> dict[str, int]:
    """In a fresh build's results (published case id -> tasks), the twins not built on the fresh candidate their
    original was built on (their own ranking chose another, or none of theirs passed): twin id -> that candidate,
    to rebuild them pinned to it (``Fresh.pinned``)."""
    redo = {}
    for case_id, link in sorted(links.items()):
        built = _fresh_candidate(results.get(link.twin_of, ()))
        if built is not None and _fresh_candidate(results.get(case_id, ())) != built:
            redo[case_id] = built
    return redo


def _fresh_candidate(tasks: Sequence[Task]) -> int | None:
    """The fresh candidate a case's tasks were built on (None: none, or not refreshed)."""
    record = tasks[0].meta.get("fresh") if tasks else None
    return int(record["candidate"]) if isinstance(record, dict) and "candidate" in record else None


def pinned_fresh(fresh: Fresh, redo: Mapping[str, int]) -> Fresh:
    """``fresh`` with the twins of ``redo`` pinned to their originals' candidates."""
    return dataclasses.replace(fresh, pinned=tuple(sorted({**dict(fresh.pinned), **redo}.items())))


def prove_twins(
    tasks: Sequence[Task],
    specs: Sequence[CaseSpec],
    links: Mapping[str, TwinLink],
    opts: BuildOptions,
    *,
    seeds: Sequence[int] = PROOF_SEEDS,
    jobs: int = 1,
) -> tuple[list[Task], dict[str, Any]]:
    """``tasks`` with every twin's tasks marked (``meta["twin_of"]``, ``meta["twin"]``) and the manifest's
    ``twins`` record (``seeds``, ``proven``, ``not_proven``: ``{"case_id", "twin_of", "difference"}``).

    A twin's case id may be its published one or its fresh one (``<id>~fresh``, paired with ``<original>~fresh``).
    ``seeds``: the fresh inputs both programs must answer alike (empty: none; a fresh build passes none, since its
    tasks are themselves on fresh inputs). ``jobs``: pairs checked at once.
    """
    by_case: dict[str, list[Task]] = {}
    for task in tasks:
        by_case.setdefault(task.case_id, []).append(task)
    spec_of = {s.id: s for s in specs}
    pairs = []
    for case_id in sorted(by_case):
        published = case_id.removesuffix(FRESH_SUFFIX)
        link = links.get(published)
        if link is None:
            continue
        original = link.twin_of + case_id[len(published) :]
        pairs.append((case_id, link, original))

    def check(pair: tuple[str, TwinLink, str]) -> str | None:
        case_id, link, original = pair
        if original not in by_case:
            return f"its original {original} is not in this build. Fix: build {link.twin_of.split('/')[0]} with it"
        found = first_difference(by_case[original], by_case[case_id], link.mapping)
        if found is None and not case_id.endswith(FRESH_SUFFIX) and seeds:
            orig_spec, twin_spec = spec_of.get(link.twin_of), spec_of.get(link.case_id)
            if orig_spec is not None and twin_spec is not None:
                found = seed_difference(orig_spec, twin_spec, opts, seeds)
        return found

    with ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="execstate-twin") as pool:
        verdicts = dict(zip((p[0] for p in pairs), pool.map(check, pairs)))
    proven, not_proven = [], []
    marked: list[Task] = []
    for task in tasks:
        if task.case_id not in verdicts:
            marked.append(task)
            continue
        link = links[task.case_id.removesuffix(FRESH_SUFFIX)]
        difference = verdicts[task.case_id]
        record: dict[str, Any] = {"proven": difference is None, "variables": link.mapping}
        if difference is not None:
            record["difference"] = difference
        marked.append(task.model_copy(update={"meta": {**task.meta, "twin_of": link.twin_of, "twin": record}}))
    for case_id, _, original in pairs:
        if verdicts[case_id] is None:
            proven.append(case_id)
        else:
            not_proven.append({"case_id": case_id, "twin_of": original, "difference": str(verdicts[case_id])})
    summary = {"seeds": list(seeds), "proven": proven, "not_proven": not_proven}
    return marked, summary


def first_difference(original: Sequence[Task], twin: Sequence[Task], mapping: Mapping[str, str]) -> str | None:
    """The first way ``twin``'s tasks do not answer as ``original``'s, or None when they all do.

    Compared in the original's task order: the paper's arms must be in both; another arm is compared when both
    have it (a count arm never is: its marked line is a line of each program's own). For each arm: the input bytes,
    ``K`` and ``k``, then the oracle: the same text for a final output, the same JSON value under ``mapping``
    (twin's names -> original's) for a state, and for a loop trace each step both have.
    """
    theirs = {t.arm: t for t in twin}
    paper = set(arm_names(group="paper"))
    for task in original:
        other = theirs.get(task.arm)
        family = arm_spec(task.arm).family
        if other is None:
            if task.arm in paper:
                return f"{task.arm}: the twin has no such task"
            continue
        if family == "count":
            continue
        if other.input != task.input:
            return f"{task.arm}: the inputs differ ({_head(other.input)} vs the original's {_head(task.input)})"
        for key in ("K", "k"):
            if key in task.meta and key in other.meta and task.meta[key] != other.meta[key]:
                return f"{task.arm}: the twin's {key} is {other.meta[key]}, the original's {task.meta[key]}"
        if family in ("state", "trace"):
            names = [mapping.get(str(v), f"{v} (not in the twin file)") for v in other.meta.get("variables", [])]
            if "variables" in task.meta and names != list(task.meta["variables"]):
                return f"{task.arm}: the twin projects {names} under the mapping, the original {task.meta['variables']}"
            found = _state_difference(task, other, mapping, family == "trace")
            if found is not None:
                return found
        elif other.oracle != task.oracle:
            return f"{task.arm}: output {_head(other.oracle)} vs the original's {_head(task.oracle)}"
    return None


def _state_difference(task: Task, other: Task, mapping: Mapping[str, str], trace: bool) -> str | None:
    """Where ``other``'s state (or each step of its loop trace) differs from ``task``'s under ``mapping``."""
    mine, theirs = json_value(task.oracle), json_value(other.oracle)
    if trace and isinstance(mine, list) and isinstance(theirs, list):
        for step, (a, b) in enumerate(zip(mine, theirs), start=1):
            if _renamed(b, mapping) != a:
                return f"{task.arm}: step {step}: state {_head(str(b))} vs the original's {_head(str(a))}"
        return None
    if _renamed(theirs, mapping) != mine:
        return f"{task.arm}: state {_head(other.oracle)} vs the original's {_head(task.oracle)}"
    return None


def _renamed(value: Any, mapping: Mapping[str, str]) -> Any:
    """A state with the twin's names turned into the original's (key order kept)."""
    if isinstance(value, dict):
        return {mapping.get(k, k): v for k, v in value.items()}
    return value


def _head(text: str, width: int = 120) -> str:
    """``text`` shown on one line, cut to ``width`` characters."""
    shown = repr(text)
    return shown if len(shown) <= width else shown[: width - 3] + "..."


def seed_difference(original: CaseSpec, twin: CaseSpec, opts: BuildOptions, seeds: Sequence[int]) -> str | None:
    """The first fresh input (of ``seeds``, short then long) on which the two programs print different output, or
    on which their generators print different inputs; None when they all agree. A case whose inputs are not both
    made by generators has no fresh inputs here (None)."""
    inputs = [("short", original.short_input, twin.short_input), ("long", original.long_input, twin.long_input)]
    if any(a.generator is None for _, a, _ in inputs):
        return None
    work = Path(tempfile.mkdtemp(prefix="execstate-twin-"))
    try:
        progs = [(s, make_language(s.language, opts), s.program.read_text(encoding="utf-8")) for s in (original, twin)]
        for seed in seeds:
            for which, mine, theirs in inputs:
                data = _generate(mine, seed, opts, work)
                if isinstance(data, str):
                    return f"seed {seed}, {which} input: {data}"
                if theirs.generator is not None and _same_recipe(mine, theirs) is False:
                    other = _generate(theirs, seed, opts, work)
                    if other != data:
                        return f"seed {seed}, {which} input: the twin's generator prints other input"
                outs = []
                for spec, lang, source in progs:
                    res = lang.run(source, data, work)
                    if not res.ok:
                        return f"seed {seed}, {which} input: {spec.id} fails: {res.describe()}"
                    outs.append(bytes(res.stdout))
                if outs[0] != outs[1]:
                    shown = [_head(o.decode("utf-8", "replace")) for o in outs]
                    return f"seed {seed}, {which} input: output {shown[1]} vs the original's {shown[0]}"
        return None
    finally:
        remove_tree(work)


def _same_recipe(a: InputSource, b: InputSource) -> bool:
    """True when two generator inputs are the same program text with the same arguments."""
    assert a.generator is not None and b.generator is not None
    same_text = a.generator.read_bytes() == b.generator.read_bytes()
    return same_text and a.args == b.args


def _generate(src: InputSource, seed: int, opts: BuildOptions, work: Path) -> bytes | str:
    """The input ``src``'s generator prints with ``EXECSTATE_SEED=seed``, or why there is none."""
    assert src.generator is not None
    lang = dataclasses.replace(helper_language(opts, "gen.py"), extra_env=((SEED_ENV, str(seed)),))  # type: ignore[type-var]
    res = lang.run(src.generator.read_text(encoding="utf-8"), b"", work, args=src.args)
    if not res.ok:
        return f"the generator {src.generator.name} fails: {res.describe()}"
    return bytes(res.stdout)


__all__ = [
    "PROOF_SEEDS",
    "TWINS_FILE",
    "TwinLink",
    "first_difference",
    "fresh_aliases",
    "pinned_fresh",
    "prove_twins",
    "read_twins",
    "seed_difference",
    "twin_links",
    "unfollowed",
]
