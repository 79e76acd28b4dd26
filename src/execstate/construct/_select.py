"""Select a single-source study's cases from generated candidates by trace-length bands (the NetworkX study).

A screened study is a folder with one program (``main.py``), a seeded generator
(``generator.py`` with ``instance(seed, nodes) -> str`` and
``candidate_nodes(seed)``) and a ``study.toml``::

    study = "networkx"          # defaults of every case (docs/spec.md, section 3)
    language = "python"
    program = "main.py"
    [generator]                 # the candidates (generator.DEFAULTS repeats them)
    candidates = 90000          # seeds 0 .. candidates-1
    short_nodes = 5             # a case's short input: its seed at this size
    [bands]
    edges = [[lo, hi], ...]     # trace length in instruction events, lo <= t < hi
    [checkpoint]                # the cases' loop_text and variables (a default of every case)

Every candidate's trace length is measured (``screen_trace_lengths``: one
sandboxed worker per batch, the probe's own counter). Within a band the
candidates are ordered by (trace length, seed) and the picks are the
candidates at the evenly spaced ranks ``floor((j + 1/2) * n / per_band)``;
a pick the nine checks exclude is replaced by the next unused candidate of its
band in that order. ``select.json`` records the parameters, every band's
population, every pick and every replacement with the check that excluded it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import tomllib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from execstate.builder import (
    STUDY_FILE,
    BuildOptions,
    SpecDraft,
    build_case,
    find_study,
    load_spec,
    open_executor,
    relative_name,
    write_spec,
)
from execstate.construct._scrub import scrub
from execstate.errors import SpecError, remove_tree
from execstate.languages import language_of_file
from execstate.metrics import screen_trace_lengths

SELECT_NAME = "select.json"
CHUNK = 5_000
"""Candidates generated and screened at a time (bounds the memory of 90,000 instances)."""


@dataclass(frozen=True)
class Selection:
    """What ``select_cases`` did: the written case directories, band populations and every decision."""

    cases: list[Path]
    record: dict[str, Any] = field(default_factory=dict)


def _load_generator(folder: Path) -> ModuleType:
    """The study's own generator module (execstate's code, imported from the study folder)."""
    path = folder / "generator.py"
    spec = importlib.util.spec_from_file_location(f"execstate_study_generator_{folder.name}", path)
    if spec is None or spec.loader is None:
        raise SpecError(path, None, "cannot load the generator", "check that generator.py is a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _config(folder: Path) -> dict[str, Any]:
    path = folder / "study.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: TOMLDecodeError, or a number of more than 4,300 digits
        raise SpecError(path, None, f"cannot read it ({exc})", "restore the study's study.toml") from None
    for table, key in (("generator", "candidates"), ("generator", "short_nodes"), ("bands", "edges")):
        if key not in raw.get(table, {}):
            raise SpecError(path, f"{table}.{key}", "required key is missing", f"add `{key}` to [{table}]")
    if "checkpoint" not in raw:
        raise SpecError(path, "checkpoint", "no [checkpoint] table", "add loop_text and variables")
    return raw


def _band(trace: int | None, edges: list[list[int]]) -> int | None:
    if trace is None:
        return None
    return next((b for b, (low, high) in enumerate(edges) if low <= trace < high), None)


def select_cases(
    folder: Path | str,
    out: Path | str,
    *,
    candidates: int | None = None,
    per_band: int = 10,
    options: BuildOptions | None = None,
    jobs: int = 2,
    study: str = "networkx",
    progress: Callable[[str, int, int], None] | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    vendor: bool = False,
) -> Selection:
    """Screen the study's candidates, pick ``per_band`` per band, admit each by the nine checks, write cases.

    ``out`` receives one case folder per admitted pick (``case.toml``, ``short.txt``,
    ``long.txt``) and ``select.json``. A case names the study's ``main.py`` and takes its
    study, language and ``[checkpoint]`` from the study's ``study.toml`` when ``out`` lies
    in the study folder; elsewhere ``out/study.toml`` is written to give them (``sources``
    naming the study folder). ``vendor=True`` writes self-contained cases instead: each
    states every key and holds a copy of ``main.py``. ``progress(phase, done, total)``
    reports screening and checking. Deterministic: the same study folder and
    ``candidates`` give the same bytes, on ``jobs`` local workers or on the Dask cluster at
    ``scheduler`` (``executor="dask"``: each chunk of candidates is generated and screened there).
    """
    folder, out = Path(folder), Path(out)
    config = _config(folder)
    gen = _load_generator(folder)
    source = (folder / "main.py").read_text(encoding="utf-8")
    params = config["generator"]
    total = int(candidates if candidates is not None else params["candidates"])
    edges = [list(map(int, e)) for e in config["bands"]["edges"]]
    opts = options or BuildOptions()
    traces: list[int | None] = []
    if executor == "local":
        for start in range(0, total, CHUNK):
            seeds = range(start, min(total, start + CHUNK))
            inputs = [gen.instance(s, gen.candidate_nodes(s)).encode("utf-8") for s in seeds]
            traces += screen_trace_lengths(source, inputs, python=opts.python, limits=opts.limits, jobs=jobs)
            if progress is not None:
                progress("screening", len(traces), total)
    else:  # each chunk generated and screened on a cluster worker, gathered in order
        chunks = [(str(folder), start, min(total, start + CHUNK // 5), opts) for start in range(0, total, CHUNK // 5)]
        with open_executor(executor, jobs, scheduler, processes=True) as pool:
            for part in pool.map(_screen_chunk, chunks):
                traces += part
                if progress is not None:
                    progress("screening", len(traces), total)
    members: list[list[tuple[int, int]]] = [[] for _ in edges]
    for seed, trace in enumerate(traces):
        b = _band(trace, edges)
        if b is not None and trace is not None:
            members[b].append((trace, seed))
    for m in members:
        m.sort()
    remove_tree(out)
    out.mkdir(parents=True)
    stated = _case_keys(folder, out, config, study, vendor)
    record: dict[str, Any] = {
        "study": study,
        "candidates": total,
        "per_band": per_band,
        "edges": edges,
        "unmeasured": sum(t is None for t in traces),
        "outside_bands": sum(_band(t, edges) is None for t in traces),
        "program_sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(),
        "bands": [],
    }
    cases: list[Path] = []
    checked = 0
    for b, m in enumerate(members):
        band: dict[str, Any] = {"band": b, "population": len(m), "picks": [], "replaced": []}
        record["bands"].append(band)
        order = _pick_order(len(m), per_band)
        while order and len(band["picks"]) < per_band:
            # a round checks as many candidates as picks are missing, in order: the picks are the
            # first per_band candidates of the order that pass, whatever finishes first
            batch, order = order[: per_band - len(band["picks"])], order[per_band - len(band["picks"]) :]
            dirs = [out / f"band{b}_seed{m[rank][1]}" for rank in batch]
            for rank, case_dir in zip(batch, dirs):
                _write_case(case_dir, stated, gen, source, (b, m[rank][1]), study, int(params["short_nodes"]))
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
                outcomes = list(pool.map(lambda d: build_case(load_spec(d / "case.toml"), opts), dirs))
            for rank, case_dir, built in zip(batch, dirs, outcomes):
                trace, seed = m[rank]
                checked += 1
                if isinstance(built, list):
                    band["picks"].append({"seed": seed, "trace": trace, "case": case_dir.name})
                    cases.append(case_dir)
                else:
                    shutil.rmtree(case_dir)
                    reason = {"seed": seed, "trace": trace, "check": built.check, "reason": scrub(built.reason)}
                    band["replaced"].append(reason)
            if progress is not None:
                progress("checking", checked, per_band * len(edges))
        if len(band["picks"]) < per_band:
            band["short_by"] = per_band - len(band["picks"])
    (out / SELECT_NAME).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return Selection(cases, record)


def _screen_chunk(args: tuple[str, int, int, BuildOptions]) -> list[int | None]:
    """Generate and screen candidates ``start .. stop-1`` of the study in ``folder`` (a cluster task)."""
    folder, start, stop, opts = args
    gen = _load_generator(Path(folder))
    source = (Path(folder) / "main.py").read_text(encoding="utf-8")
    inputs = [gen.instance(s, gen.candidate_nodes(s)).encode("utf-8") for s in range(start, stop)]
    return screen_trace_lengths(source, inputs, python=opts.python, limits=opts.limits, jobs=1)


def _pick_order(n: int, per_band: int) -> list[int]:
    """Ranks to try: the evenly spaced ones first, then every other rank in order (the replacements)."""
    first = sorted({int((j + 0.5) * n / per_band) for j in range(per_band) if n})
    return first + [r for r in range(n) if r not in set(first)]


def _case_keys(folder: Path, out: Path, config: dict[str, Any], study: str, vendor: bool) -> dict[str, Any]:
    """The keys every case states besides its inputs and provenance (``"program": "main.py"`` means a copy).

    Writes ``out/study.toml`` when ``out`` lies outside the study folder, so the cases still
    take the study's program and checkpoint from one place.
    """
    program = (folder / "main.py").resolve()
    checkpoint: dict[str, Any] = dict(config["checkpoint"])
    language = language_of_file(program)  # the screened program's own language (the registry knows main.py)
    wanted: dict[str, Any] = {"study": study, "language": language, "checkpoint": checkpoint}
    if vendor:
        return {**wanted, "program": "main.py"}
    found = find_study(out / "_" / "case.toml")
    if found.file is not None and found.file.resolve() == (folder / STUDY_FILE).resolve():
        given = dict(found.defaults)
        stated = {key: value for key, value in wanted.items() if given.get(key) != value}
        if "program" not in given or (folder / str(given["program"])).resolve() != program:
            stated["program"] = program  # named relative to each case folder
        return stated
    comment = (
        f"Written by `execstate select {study}`: the selected cases take the study's program and checkpoint from here."
    )
    draft = SpecDraft(
        comment=comment,
        study=study,
        language=language,
        program=relative_name(program, out),
        sources=(relative_name(folder, out),),
        checkpoint=checkpoint,
    )
    write_spec(out / STUDY_FILE, draft)
    return {}


def _write_case(
    case_dir: Path,
    stated: dict[str, Any],
    gen: ModuleType,
    source: str,
    band_seed: tuple[int, int],
    study: str,
    short_nodes: int,
) -> None:
    """One case folder: its spec and inputs; ``[provenance]`` holds its band (0-based), seed and node counts."""
    band, seed = band_seed
    case_dir.mkdir(parents=True)
    program = stated.get("program")
    if program == "main.py":
        (case_dir / "main.py").write_text(source, encoding="utf-8")
    elif isinstance(program, Path):
        program = relative_name(program, case_dir)
    (case_dir / "short.txt").write_text(gen.instance(seed, short_nodes), encoding="utf-8")
    (case_dir / "long.txt").write_text(gen.instance(seed, gen.candidate_nodes(seed)), encoding="utf-8")
    draft = SpecDraft(
        comment=f"Selected by `execstate select {study}` (select.json says how).",
        id=f"{study}/{case_dir.name}" if "study" in stated else None,
        study=stated.get("study"),
        language=stated.get("language"),
        program=program,
        short_input="short.txt",
        long_input="long.txt",
        checkpoint=stated.get("checkpoint"),
        provenance={"band": band, "seed": seed, "nodes": gen.candidate_nodes(seed), "short_nodes": short_nodes},
    )
    write_spec(case_dir / "case.toml", draft)


__all__ = ["SELECT_NAME", "Selection", "select_cases"]
