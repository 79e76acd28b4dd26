"""Make the pyperformance study's problem pool from the installed ``pyperformance`` package.

    python -m execstate.studies.pyperformance.make_pool [--out POOL] [--benchmarks DIR]

Each recipe in ``recipes/<name>.toml`` names one benchmark folder of the package
(``pyperformance/data-files/benchmarks/bm_<name>``) and says how its ``run_benchmark.py`` becomes a
stdin program: the benchmark's own code is kept as it is, except that the line ``import pyperf`` becomes a
comment, the ``if __name__ == "__main__":`` block at the end (pyperf's runner) is left out, and so are
the top-level functions the recipe's ``drop`` names (timing wrappers that call pyperf). In their place
comes the recipe's ``main``: a short visible function that reads the size parameter(s) from stdin and
prints what the benchmark computes. ``gen.py SEED SIZE`` prints the input line for a size (and, for a
seeded benchmark, a seed; SEED 1, the one construct uses, stands for the benchmark's own seed).

``refused.toml`` lists the benchmarks of the package that are not made into programs, each with the
reason. Everything written is a function of the package's files and the recipes, so running this again
(on any machine, with the same pyperformance version) gives the same bytes; the pinned version is
:data:`PYPERFORMANCE_VERSION` and ``tests/studies/test_pyperformance.py`` checks the committed pool
against a fresh run. The constructor then makes the specs:

    execstate construct src/execstate/studies/pyperformance/pool --study pyperformance \\
        --out src/execstate/studies/pyperformance/specs

See ``docs/pyperformance.md``.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECIPES = HERE / "recipes"
REFUSED = HERE / "refused.toml"
POOL = HERE / "pool"
PYPERFORMANCE_VERSION = "1.14.0"
"""The pyperformance release the committed pool was made from."""
MAIN_MARK = "# ---- execstate main ----"
"""The first line of every program's main (the pyperf runner's replacement)."""
PYPERF_IMPORT = "import pyperf"
PYPERF_COMMENT = "# import pyperf  (execstate: the benchmark runs through the main at the end, not pyperf's runner)"


class RecipeError(Exception):
    """A recipe that does not fit its benchmark's file (the message names both)."""


@dataclass(frozen=True)
class Recipe:
    """One benchmark made a stdin program (``recipes/<name>.toml``)."""

    name: str
    benchmark: str
    """The benchmark's folder in the package, ``bm_<name>``."""
    size: str
    """What the size parameter is, for the README (``iterations of the scheduler``)."""
    prints: str
    """What the program prints, for the README."""
    main: str
    """The main's text, from its first line (:data:`MAIN_MARK`) to the call that runs it."""
    line: str
    """``gen.py``'s input line: a Python expression over ``size`` (and ``seed`` when seeded)."""
    seed: int | None = None
    """The benchmark's own seed when the main reads one (then SEED 1 prints it; another SEED prints itself)."""
    drop: tuple[str, ...] = ()
    """Top-level functions of the benchmark left out (pyperf timing wrappers and argument hooks), or a
    top-level assignment that names them (scimark's ``BENCHMARKS`` table)."""


def read_recipe(path: Path) -> Recipe:
    """A recipe file; ``RecipeError`` naming the file and the key for a broken one."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    known = {"benchmark", "size", "prints", "main", "line", "seed", "drop"}
    extra = sorted(set(raw) - known)
    if extra:
        raise RecipeError(f"{path}: unknown key(s) {', '.join(extra)}; use {', '.join(sorted(known))}")
    for key in ("benchmark", "size", "prints", "main", "line"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise RecipeError(f"{path}: {key} must be a non-empty string")
    main = raw["main"].strip("\n") + "\n"
    if not main.startswith(MAIN_MARK + "\n"):
        raise RecipeError(f"{path}: main must start with the line {MAIN_MARK!r}")
    seed = raw.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise RecipeError(f"{path}: seed must be an integer (the benchmark's own seed)")
    return Recipe(
        name=path.stem,
        benchmark=raw["benchmark"],
        size=raw["size"].strip(),
        prints=raw["prints"].strip(),
        main=main,
        line=raw["line"].strip(),
        seed=seed,
        drop=tuple(raw.get("drop", ())),
    )


def recipes() -> list[Recipe]:
    """Every recipe, in name order."""
    return [read_recipe(p) for p in sorted(RECIPES.glob("*.toml"))]


def refused() -> dict[str, str]:
    """Benchmark folder -> why it is not made into a program (``refused.toml``)."""
    raw = tomllib.loads(REFUSED.read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in raw["refused"].items()}


def benchmarks_dir() -> Path:
    """``pyperformance/data-files/benchmarks`` of the installed package."""
    try:
        dist = metadata.distribution("pyperformance")
    except metadata.PackageNotFoundError:
        raise RecipeError(
            f"pyperformance is not installed. Fix: pip install pyperformance=={PYPERFORMANCE_VERSION}"
        ) from None
    found = Path(str(dist.locate_file("pyperformance/data-files/benchmarks")))
    if not found.is_dir():
        raise RecipeError(f"the installed pyperformance has no {found}")
    return found


def installed_version() -> str:
    """The installed pyperformance's version."""
    return metadata.version("pyperformance")


def program_text(original: str, recipe: Recipe) -> str:
    """The stdin program: ``original`` with pyperf's import and runner replaced by the recipe's main."""
    lines = original.split("\n")
    tree = ast.parse(original)
    where = f"{recipe.benchmark}/run_benchmark.py"
    imports = [i for i, text in enumerate(lines) if text.strip() == PYPERF_IMPORT]
    if len(imports) != 1:
        raise RecipeError(f"{where}: expected one line 'import pyperf', found {len(imports)}")
    cut: set[int] = set()  # 0-based lines left out
    last = tree.body[-1]
    if not (isinstance(last, ast.If) and "__main__" in ast.unparse(last.test)):
        raise RecipeError(f"{where}: the file does not end in an `if __name__ == '__main__':` block")
    start = last.lineno - 1
    cut.update(range(start, len(lines)))
    for name in recipe.drop:
        node = next((n for n in tree.body if _defines(n, name)), None)
        if node is None:
            raise RecipeError(f"{where}: drop names {name!r}, which no top-level def or assignment there binds")
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))]) - 1
        assert node.end_lineno is not None
        cut.update(range(first, node.end_lineno))
    kept: list[str] = []
    for i, text in enumerate(lines):
        if i in cut:
            continue
        kept.append(PYPERF_COMMENT if i == imports[0] else text)
    while kept and not kept[-1].strip():
        kept.pop()
    body = "\n".join(_squeeze(kept))
    program = body + "\n\n\n" + recipe.main
    left = _pyperf_uses(program)
    if left:
        raise RecipeError(f"{where}: the program still uses pyperf on line(s) {left}; add their functions to drop")
    return program


def _defines(node: ast.stmt, name: str) -> bool:
    """``node`` is ``def name`` or ``name = ...`` (a table of timing functions, as scimark's ``BENCHMARKS``)."""
    if isinstance(node, ast.FunctionDef):
        return node.name == name
    return isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == [name]


def _squeeze(lines: list[str]) -> list[str]:
    """At most two blank lines in a row (a dropped function leaves its neighbours' blank lines)."""
    out: list[str] = []
    for text in lines:
        if not text.strip() and len(out) >= 2 and not out[-1].strip() and not out[-2].strip():
            continue
        out.append(text)
    return out


def _pyperf_uses(program: str) -> list[int]:
    return sorted({n.lineno for n in ast.walk(ast.parse(program)) if isinstance(n, ast.Name) and n.id == "pyperf"})


def gen_text(recipe: Recipe) -> str:
    """``gen.py SEED SIZE``: the input line of a size (and of a seed, for a seeded benchmark)."""
    if recipe.seed is None:
        seed_doc = "The benchmark takes no seed: SEED is ignored, and the input is a function of SIZE only."
        seed_line = "    del seed  # the benchmark takes no seed\n"
    else:
        seed_doc = (
            f"The benchmark is seeded: SEED 1 (construct's) stands for its own seed, {recipe.seed}; any other "
            "SEED is used as it is (a fresh input)."
        )
        seed_line = f"    seed = {recipe.seed} if seed == 1 else seed\n"
    return (
        f'"""The input of pyperformance\'s {recipe.benchmark} for execstate: `gen.py SEED SIZE` prints one line.\n\n'
        f"SIZE: {recipe.size}. {seed_doc}\n"
        f"Written by execstate.studies.pyperformance.make_pool from recipes/{recipe.name}.toml.\n"
        '"""\n\n'
        "import sys\n\n\n"
        "def main():\n"
        "    seed, size = int(sys.argv[1]), int(sys.argv[2])\n"
        f"{seed_line}"
        f"    print({recipe.line})\n\n\n"
        "main()\n"
    )


def program_size(program: str) -> dict[str, int]:
    """Lines, functions (``def`` and ``async def``, methods included) and classes of a program."""
    tree = ast.parse(program)
    nodes = list(ast.walk(tree))
    return {
        "program_lines": len(program.splitlines()),
        "program_functions": sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in nodes),
        "program_classes": sum(isinstance(n, ast.ClassDef) for n in nodes),
    }


def problem_toml(recipe: Recipe, program: str, version: str) -> str:
    """The problem's ``problem.toml``: study, where it came from and its size (copied into every task's meta)."""
    size = program_size(program)
    lines = [
        f"# Written by execstate.studies.pyperformance.make_pool from recipes/{recipe.name}.toml.",
        f'id = "{recipe.name}"',
        'study = "pyperformance"',
        "",
        "[source]",
        'dataset = "pyperformance"',
        f'version = "{version}"',
        f'file = "pyperformance/data-files/benchmarks/{recipe.benchmark}/run_benchmark.py"',
        "",
        "[provenance]",
        f'benchmark = "{recipe.benchmark}"',
        f'pyperformance = "{version}"',
        *(f"{k} = {v}" for k, v in size.items()),
        f"seeded = {'true' if recipe.seed is not None else 'false'}",
    ]
    return "\n".join(lines) + "\n"


def readme_text(made: list[tuple[Recipe, str]], refusals: dict[str, str], version: str) -> str:
    """The pool's README: every program with what it reads and prints, and every benchmark refused."""
    out = [
        f"# The pyperformance pool (pyperformance {version})",
        "",
        "Written by `python -m execstate.studies.pyperformance.make_pool`; do not edit by hand.",
        "Each `NAME/main.py` is the benchmark's `run_benchmark.py` from",
        f"`pyperformance/data-files/benchmarks/bm_NAME/` of pyperformance {version} (MIT, see `LICENSE`",
        "and `AUTHORS`), unchanged except that `import pyperf` is a comment and pyperf's runner (the",
        "`__main__` block, and the timing functions listed below) is replaced by a visible main at the end",
        "that reads the size from stdin and prints what the benchmark computes. `NAME/gen.py SEED SIZE`",
        "prints an input line.",
        "",
        "| program | lines | functions | classes | stdin | prints | left out |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for recipe, program in made:
        size = program_size(program)
        dropped = ", ".join(f"`{d}`" for d in recipe.drop) or "-"
        seeded = f"; then the seed (the benchmark's own: {recipe.seed})" if recipe.seed is not None else ""
        out.append(
            f"| `{recipe.name}` | {size['program_lines']} | {size['program_functions']} | "
            f"{size['program_classes']} | {recipe.size}{seeded} | {recipe.prints} | {dropped} |"
        )
    out += ["", "## Benchmarks not made into programs", "", "| benchmark | why |", "| --- | --- |"]
    out += [f"| `{name}` | {why} |" for name, why in sorted(refusals.items())]
    return "\n".join(out) + "\n"


def make_pool(
    out: Path = POOL, benchmarks: Path | None = None, *, check_version: bool = True, only: tuple[str, ...] = ()
) -> list[str]:
    """Write the pool into ``out`` (replacing it); returns the names of the programs written.

    ``benchmarks`` is the package's benchmark folder (default: the installed package's). With
    ``check_version`` the installed pyperformance must be :data:`PYPERFORMANCE_VERSION`. ``only``: just
    these recipes (a trial pool while writing recipes; every benchmark need not be covered then).
    """
    version = installed_version() if benchmarks is None else PYPERFORMANCE_VERSION
    if check_version and version != PYPERFORMANCE_VERSION:
        raise RecipeError(
            f"pyperformance {version} is installed, the recipes are for {PYPERFORMANCE_VERSION}. Fix: pip install "
            f"pyperformance=={PYPERFORMANCE_VERSION}, or update PYPERFORMANCE_VERSION and the recipes "
            "(docs/pyperformance.md)"
        )
    src = benchmarks or benchmarks_dir()
    all_recipes = recipes()
    refusals = refused()
    if only:
        missing = sorted(set(only) - {r.name for r in all_recipes})
        if missing:
            raise RecipeError(f"no recipe named {', '.join(missing)} in {RECIPES}")
        all_recipes = [r for r in all_recipes if r.name in only]
    present = sorted(p.name for p in src.iterdir() if p.is_dir() and p.name.startswith("bm_"))
    covered = {r.benchmark for r in all_recipes} | set(refusals)
    unknown = [] if only else [b for b in present if b not in covered]
    if unknown:
        raise RecipeError(
            f"benchmark(s) {', '.join(unknown)} have neither a recipe nor a line in refused.toml. "
            "Fix: write recipes/<name>.toml or say in refused.toml why not"
        )
    made: list[tuple[Recipe, str]] = []
    for recipe in all_recipes:
        original = (src / recipe.benchmark / "run_benchmark.py").read_text(encoding="utf-8")
        made.append((recipe, program_text(original, recipe)))
    tmp = out.with_name(f".{out.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for recipe, program in made:
        d = tmp / recipe.name
        d.mkdir()
        (d / "main.py").write_text(program, encoding="utf-8")
        (d / "gen.py").write_text(gen_text(recipe), encoding="utf-8")
        (d / "problem.toml").write_text(problem_toml(recipe, program, version), encoding="utf-8")
    licences = src.parent.parent.parent / f"pyperformance-{version}.dist-info" / "licenses"
    for name, target in (("COPYING", "LICENSE"), ("AUTHORS", "AUTHORS")):
        found = licences / name
        if found.is_file():
            shutil.copyfile(found, tmp / target)
        elif benchmarks is None:
            raise RecipeError(f"the installed pyperformance has no {found}")
    (tmp / "README.md").write_text(readme_text(made, refusals, version), encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return [r.name for r, _ in made]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=POOL, help="the pool folder to (re)write")
    parser.add_argument("--benchmarks", type=Path, default=None, help="a benchmarks folder (default: installed)")
    parser.add_argument("--only", nargs="+", default=(), help="just these recipes (a trial pool)")
    args = parser.parse_args(argv)
    try:
        names = make_pool(args.out, args.benchmarks, only=tuple(args.only))
    except RecipeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {len(names)} programs into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
