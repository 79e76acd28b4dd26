"""A seeded generator of small C++ programs, each rendered twice: clean, and traced by an independent observer.

A program reads a few ints from stdin and runs nested and sequential loops of every kind (for with a
declared or an outer counter, range-for, while, do-while), with `continue`, `break`, early `return`
(also out of the selected loop), brace-less bodies (on the header line or the next), loops that are the
brace-less branch of an `if`, and functions whose loops run once per call from several places.

Every loop gets its own projection (1-3 ints in scope at it, sometimes the global vector ``v``). The
observer copy is rendered from the generator's own syntax tree, not from the clean text: around EVERY
loop it opens a block numbering that loop's executions, and it logs to stderr

    T <loop> <execution> <projection JSON>   at the top of every iteration (the body is always braced there)
    X <loop> <execution> <projection JSON>   right after the loop statement (normal exit or break)

with its own serializer (std::to_string). One observer run so gives every loop's K; the test then selects
a loop (one that runs, mostly) and computes K, the inside state at k and the post state (the first X of
the execution that holds iteration k) from the trace in Python.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

MOD = 1009


@dataclass
class Simple:
    text: str


@dataclass
class If:
    cond: str
    then: list
    other: list | None = None
    braces: bool = True
    same_line: bool = False  # brace-less branch rendered on the `if` line


@dataclass
class Loop:
    ident: int
    kind: str  # for, for-outer, range, while, do
    header: str  # for / range: the whole `for (...)`; while/do: the condition
    body: list
    braces: bool = True
    same_line: bool = False  # brace-less body on the header line
    setup: str = ""  # a statement before the loop (`w1 = 0;`)
    step: str = ""  # first statement of the body (`w1++;`)
    scope: tuple[str, ...] = ()  # projectable names in scope at the loop
    variables: tuple[str, ...] = ()  # the projection used if this loop is selected
    function: str = ""  # the function holding the loop


@dataclass
class Function:
    name: str
    params: tuple[str, ...]
    locals: tuple[str, ...]
    body: list
    is_main: bool = False


@dataclass
class Program:
    name: str
    functions: list[Function]
    loops: dict[int, Loop] = field(default_factory=dict)
    stdin: bytes = b""
    selected: int = 0

    @property
    def loop(self) -> Loop:
        return self.loops[self.selected]

    @property
    def variables(self) -> tuple[str, ...]:
        return self.loop.variables


class _Gen:
    def __init__(self, rng: random.Random, program: Program) -> None:
        self.rng = rng
        self.program = program
        self.next_loop = 1
        self.callable: list[Function] = []
        self.function = ""

    def expr(self, names: list[str]) -> str:
        r = self.rng
        a, b = r.choice(names), r.choice(names)
        form = r.randrange(4)
        if form == 0:
            return f"({a} * {r.randint(2, 7)} + {b} + {r.randint(1, 9)}) % {MOD}"
        if form == 1:
            return f"({a} + {MOD} - {b} % {MOD}) % {MOD}"
        if form == 2:
            return f"({a} + {b} * {b}) % {MOD}"
        return f"({a} + {r.randint(1, 50)}) % {MOD}"

    def simple(self, ints: list[str], readable: list[str], ctx: dict) -> Simple:
        r = self.rng
        roll = r.random()
        if roll < 0.12 and ctx["vector"] and not ctx["ranging"]:
            if r.random() < 0.7:
                return Simple(f"if (v.size() < 40) v.push_back({r.choice(readable)} % 10);")
            return Simple("if (!v.empty()) v.pop_back();")
        if roll < 0.22 and self.callable and ctx["depth"] <= 1 and not ctx["ranging"]:  # a call may change v
            f = r.choice(self.callable)
            args = ", ".join(f"{r.choice(readable)} % {r.randint(3, 6)}" for _ in f.params)
            return Simple(f"{r.choice(ints)} = ({r.choice(ints)} + {f.name}({args})) % {MOD};")
        if roll < 0.30 and ctx["main"]:
            return Simple(f'printf("%d\\n", {r.choice(readable)});')
        target = r.choice(ints)
        return Simple(f"{target} = {self.expr(readable)};")

    def block(self, ints: list[str], readable: list[str], ctx: dict, size: int) -> list:
        out: list = []
        for _ in range(size):
            roll = self.rng.random()
            if roll < 0.30 and ctx["depth"] < 2 and ctx["loops"] < 6:
                out.extend(self.loop(ints, readable, ctx))
            elif roll < 0.42 and ctx["in_loop"]:
                out.append(self.jump(readable, ctx))
            elif roll < 0.50:
                out.append(self.branch(ints, readable, ctx))
            else:
                out.append(self.simple(ints, readable, ctx))
        return out

    def jump(self, readable: list[str], ctx: dict) -> If:
        r = self.rng
        if ctx["main"]:
            kind = r.choice(["continue", "break", "continue", "break", "return"])
        else:
            kind = r.choice(["continue", "break", "return", "return"])
        cond = f"{r.choice(readable)} % {r.randint(2, 5)} == {r.randint(0, 1)}"
        if kind == "return":
            value = "0" if ctx["main"] else f"{r.choice(readable)} % {MOD}"
            return If(cond, [Simple(f"return {value};")], braces=r.random() < 0.3)
        return If(cond, [Simple(f"{kind};")], braces=r.random() < 0.3)

    def branch(self, ints: list[str], readable: list[str], ctx: dict) -> If:
        r = self.rng
        cond = f"{r.choice(readable)} % {r.randint(2, 4)} != 0"
        if r.random() < 0.35 and ctx["depth"] < 2 and ctx["loops"] < 6:
            # A loop as the brace-less branch of an `if`, maybe with an `else` (then the loop's own
            # brace-less body must not be an `if`, or the `else` would be that `if`'s).
            other = [self.simple(ints, readable, ctx)] if r.random() < 0.5 else None
            loops = self.loop(ints, readable, ctx, standalone=True, dangling=other is not None)
            return If(cond, loops, other, braces=False, same_line=r.random() < 0.5)
        then = [self.simple(ints, readable, ctx) for _ in range(r.randint(1, 2))]
        other = [self.simple(ints, readable, ctx)] if r.random() < 0.3 else None
        return If(cond, then, other, braces=len(then) > 1 or r.random() < 0.7)

    def loop(
        self, ints: list[str], readable: list[str], ctx: dict, standalone: bool = False, dangling: bool = False
    ) -> list:
        r = self.rng
        ident = self.next_loop
        self.next_loop += 1
        ctx["loops"] += 1
        free = {k: [n for n in ints if n[0] == k and n[1:].isdigit()] for k in "cwd"}
        kinds = ["for", "for"] + ["for-outer"] * bool(free["c"])
        if not standalone:  # a while/do needs its counter reset by a statement before it
            kinds += ["while"] * bool(free["w"]) + ["do"] * bool(free["d"]) + ["range"] * ctx["vector"]
        kind = r.choice(kinds)
        bound = f"{r.choice(readable)} % {r.randint(3, 5)} + {r.randint(1, 3)}"
        counter = f"i{ident}"
        inner_ctx = {**ctx, "depth": ctx["depth"] + 1, "in_loop": True}
        setup = step = ""
        header_names: list[str] = []
        if kind == "for":
            header = r.choice(
                [
                    f"for (int {counter} = 0; {counter} < {bound}; {counter}++)",
                    f"for (int {counter} = {bound}; {counter} > 0; {counter} -= 2)",
                ]
            )
            header_names = [counter]
        elif kind == "for-outer":
            counter = r.choice(free["c"])
            header = f"for ({counter} = 0; {counter} < {bound}; {counter}++)"
        elif kind == "range":
            header = f"for (int e{ident} : v)"
            header_names = [f"e{ident}"]
            inner_ctx["ranging"] = True
        elif kind == "while":
            counter = r.choice(free["w"])
            setup, step = f"{counter} = 0;", f"{counter}++;"
            header = f"{counter} < {bound}"
        else:
            counter = r.choice(free["d"])
            setup, step = f"{counter} = 0;", f"{counter}++;"
            header = f"{counter} < {bound}"
        # The counter of a for-outer/while/do loop is not assigned in its body (so the loop ends).
        body_ints = [n for n in ints if n != counter]
        body_readable = readable + header_names
        scope = tuple(readable)  # enclosing loops' counters included: in scope at both checkpoints
        braces, same_line = True, False
        if kind in ("for", "range", "for-outer") and r.random() < 0.35:
            body = [self.simple(body_ints, body_readable, inner_ctx)]
            while dangling and body[0].text.startswith("if"):
                body = [self.simple(body_ints, body_readable, inner_ctx)]
            braces, same_line = False, r.random() < 0.5
        else:
            body = self.block(body_ints, body_readable, inner_ctx, r.randint(1, 3))
        loop = Loop(ident, kind, header, body, braces, same_line, setup, step, scope)
        loop.variables = _projection_names(scope + (("v",) if r.random() < 0.25 else ()), r)
        loop.function = self.function
        self.program.loops[ident] = loop
        return [Simple(setup), loop] if setup else [loop]


def _projection_names(scope: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    names = list(scope)
    rng.shuffle(names)
    return tuple(names[: rng.randint(1, min(3, len(names)))])


def generate(seed: int) -> Program:
    """A program with a selected loop and projection, deterministic in ``seed``."""
    rng = random.Random(seed)
    program = Program(name=f"p{seed}", functions=[])
    gen = _Gen(rng, program)
    locals_ = ("x", "y", "z", "c1", "c2", "w1", "w2", "d1", "d2")
    for n in range(rng.randint(0, 2)):
        params = ("a", "b")[: rng.randint(1, 2)]
        ctx = {"depth": 0, "in_loop": False, "main": False, "vector": True, "ranging": False, "loops": 0}
        ints = list(locals_) + ["g0", "g1"]
        readable = ints + list(params)
        gen.function = f"f{n}"
        body = gen.block(ints, readable, ctx, rng.randint(2, 4))
        fn = Function(f"f{n}", params, locals_, body)
        program.functions.append(fn)
        gen.callable.append(fn)
    ctx = {"depth": 0, "in_loop": False, "main": True, "vector": True, "ranging": False, "loops": 0}
    ints = list(locals_) + ["g0", "g1", "n", "m"]
    gen.function = "run"
    body = [
        Simple(f"x = (x + {f.name}({', '.join(['n % 5', 'm % 4'][: len(f.params)])})) % {MOD};") for f in gen.callable
    ]
    body += gen.block(ints, ints, ctx, rng.randint(3, 6))
    if not program.loops:
        body += gen.loop(ints, ints, ctx)
    main = Function("run", (), locals_, body, is_main=True)
    program.functions.append(main)
    program.selected = min(program.loops)
    program.stdin = f"{rng.randint(0, 30)} {rng.randint(0, 30)}\n".encode()
    return program


# --- rendering ----------------------------------------------------------------------------------


class _Renderer:
    def __init__(self, program: Program, observer: bool) -> None:
        self.p = program
        self.observer = observer
        self.out: list[str] = []
        self.loop_lines: dict[int, int] = {}

    def emit(self, text: str) -> None:
        self.out.append(text)

    def trace(self, tag: str, node: Loop) -> str:
        parts = []
        for i, v in enumerate(node.variables):
            key = ("{" if i == 0 else ",") + '\\"' + v + '\\":'
            parts += [f'"{key}"', f"_ob_val({v})"]
        json = f"std::string({parts[0]}) + " + " + ".join(parts[1:]) + ' + "}"'
        return f"_ob_line('{tag}', {node.ident}, _ob_id, {json});"

    def stmts(self, items: list, indent: str) -> None:
        for item in items:
            self.stmt(item, indent)

    def stmt(self, item, indent: str, prefix: str = "") -> None:
        if isinstance(item, Simple):
            if item.text:
                self.emit(indent + prefix + item.text)
        elif isinstance(item, If):
            self.branch(item, indent, prefix)
        else:
            self.loop(item, indent, prefix)

    def branch(self, node: If, indent: str, prefix: str) -> None:
        head = f"{indent}{prefix}if ({node.cond})"
        if node.braces or (self.observer and any(isinstance(s, Loop) for s in node.then)):
            self.emit(head + " {")
            self.stmts(node.then, indent + "    ")
            if node.other:
                self.emit(indent + "} else {")
                self.stmts(node.other, indent + "    ")
            self.emit(indent + "}")
            return
        (only,) = node.then
        if node.same_line:
            self.stmt(only, indent, prefix + f"if ({node.cond}) ")
        else:
            self.emit(head)
            self.stmt(only, indent + "    ")
        if node.other:
            (alt,) = node.other
            self.stmt(alt, indent, "else ")

    def loop(self, node: Loop, indent: str, prefix: str) -> None:
        selected = self.observer  # the observer traces every loop
        if selected:
            self.emit(indent + prefix + f"{{ const int _ob_id = ++_ob_runs[{node.ident}];")
            prefix = ""
        if node.kind == "do":
            first = f"{indent}{prefix}do"
        elif node.kind == "while":
            first = f"{indent}{prefix}while ({node.header})"
        else:
            first = f"{indent}{prefix}{node.header}"
        self.loop_lines[node.ident] = len(self.out) + 1
        body = ([Simple(node.step)] if node.step else []) + node.body
        inner = indent + "    "
        if not node.braces and not selected:
            (only,) = node.body
            assert isinstance(only, Simple)
            if node.same_line:
                self.emit(f"{first} {only.text}")
            else:
                self.emit(first)
                self.emit(inner + only.text)
        else:
            self.emit(first + " {")
            if selected:
                self.emit(inner + self.trace("T", node))
            self.stmts(body, inner)
            self.emit(indent + ("} while (" + node.header + ");" if node.kind == "do" else "}"))
        if selected:
            self.emit(indent + self.trace("X", node) + " }")

    def render(self) -> str:
        name = self.p.name
        self.emit("#include <cstdio>")
        self.emit("#include <string>")
        self.emit("#include <vector>")
        self.emit("")
        self.emit(f"namespace {name} {{")
        self.emit("")
        if self.observer:
            self.emit("int _ob_runs[64] = {0};")
            self.emit("std::string _ob_val(int x) { return std::to_string(x); }")
            self.emit("std::string _ob_val(const std::vector<int>& v) {")
            self.emit('    std::string s = "[";')
            self.emit('    for (size_t i = 0; i < v.size(); i++) s += (i ? "," : "") + std::to_string(v[i]);')
            self.emit('    return s + "]";')
            self.emit("}")
            self.emit("void _ob_line(char tag, int loop, int id, const std::string& json) {")
            self.emit('    fprintf(stderr, "%c %d %d %s\\n", tag, loop, id, json.c_str());')
            self.emit("}")
        self.emit("int g0 = 1, g1 = 2;  // globals")
        self.emit("std::vector<int> v = {3, 1, 4};")
        for fn in self.p.functions:
            self.emit("")
            params = ", ".join(f"int {p}" for p in fn.params)
            self.emit(f"int {fn.name}({params}) {{")
            self.emit("    int " + ", ".join(f"{n} = {i}" for i, n in enumerate(fn.locals)) + ";")
            if fn.is_main:
                self.emit("    int n = 0, m = 0;")
                self.emit('    if (scanf("%d %d", &n, &m) != 2) return 1;')
                self.emit("    x = n; y = m;")
            else:
                self.emit(f"    x = {fn.params[0]} % {MOD};")
            self.stmts(fn.body, "    ")
            if fn.is_main:
                self.emit('    printf("%d %d %d %d %d %zu\\n", x, y, z, g0, g1, v.size());')
                self.emit("    return 0;")
            else:
                self.emit(f"    return (x + y + z + c1 + w1 + d1) % {MOD};")
            self.emit("}")
        self.emit("")
        self.emit(f"}}  // namespace {name}")
        self.emit("")
        self.emit(main_line(name))
        return "\n".join(self.out) + "\n"


def main_line(name: str) -> str:
    """The program's last line; a batch of programs compiled as one file drops it and dispatches by name."""
    return f"int main() {{ return {name}::run(); }}"


def render(program: Program, observer: bool = False) -> tuple[str, int]:
    """The program's text and the selected loop's header line in it."""
    r = _Renderer(program, observer)
    text = r.render()
    return text, r.loop_lines[program.selected]
