"""Source variants of a C++ program that keep its meaning (issue 44): renamed identifiers and dead code.

The C++ counterpart of ``python/variants.py``, read through the tree-sitter-cpp parse (``syntax.py``) and made by
byte-offset edits of the text, so comments and layout stay. Each variant is a pure function of the source, the
variant's name and a seed; whether it keeps the program's meaning is decided by running it, never assumed here.

- ``rename``: every name the program's own text declares (variables, parameters, functions but ``main``,
  struct/class/enum names, their fields and methods, template parameters, ``typedef``/``using`` aliases,
  structured bindings) is renamed consistently, program-wide by name, to ``v1``, ``f1``, ``C1``, ``m1`` (members).
  Never renamed: keywords, names only headers declare, any name written in a preprocessor directive (a macro's
  name, parameters and body, an ``#include`` or ``#line`` path), a name that some string literal holds as a word,
  a name reached as ``X::name`` through a scope the program does not declare (``std::map`` beside a variable
  ``map``), and a member name the standard library also gives a meaning (``size``, ``begin``, ``first``:
  ``STD_MEMBERS``). A member access ``a.name`` is renamed only when the program declares ``name`` as a member.
- ``deadcode``: up to ``DEAD_STATEMENTS`` (seeded) lines inserted at statement boundaries of function bodies
  (the body block itself, never a nested block, a loop header or a ``switch``): an unused computation
  ``[[maybe_unused]] long long unusedN = A * B + A;``, or such a declaration followed by a branch that is never
  taken. A function with a ``goto`` or a label, a ``constexpr``/``consteval`` function and a body the parser
  cannot read get nothing. Inserted lines take the source's line ending (CRLF stays CRLF).
"""

from __future__ import annotations

import random
import re

from execstate.languages._variants import SourceVariant
from execstate.languages.cpp.syntax import KEYWORDS, Node, node_text, parse, walk

CPP_VARIANTS = ("rename", "deadcode")
"""The variants a C++ program can be made into."""
DEAD_STATEMENTS = 3
"""How many dead statements a ``deadcode`` variant inserts (fewer when the program has fewer boundaries)."""
_STD_MEMBER_TEXT = (
    "size begin end cbegin cend rbegin rend empty push_back pop_back emplace_back push_front pop_front push pop "
    "top front back insert erase emplace find count clear data resize reserve assign at first second swap "
    "substr length c_str str get value type value_type iterator key_type mapped_type what lower_bound upper_bound "
    "equal_range contains hash compare merge splice sort reverse unique remove operator"
)
STD_MEMBERS = frozenset(_STD_MEMBER_TEXT.split())
"""Member names with a meaning in the standard library (a container's, an iterator protocol's): never renamed."""

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ESCAPE_OR_FORMAT = re.compile(r"\\.|%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:hh|h|ll|l|L|z|j|t)?[a-zA-Z%]")
_DIRECTIVES = frozenset(("preproc_def", "preproc_function_def", "preproc_call", "preproc_include"))
_LITERALS = frozenset(("string_literal", "raw_string_literal", "char_literal", "concatenated_string"))
_RENAMED_TOKENS = frozenset(("identifier", "type_identifier", "namespace_identifier"))
_WRAPPERS = frozenset(
    (
        "init_declarator",
        "pointer_declarator",
        "reference_declarator",
        "array_declarator",
        "function_declarator",
        "attributed_declarator",
        "parenthesized_declarator",
        "variadic_declarator",
    )
)
_VARIABLE_DECLARATIONS = frozenset(
    ("declaration", "parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration")
)
_TYPES = frozenset(("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"))
_TYPE_PARAMETERS = frozenset(("type_parameter_declaration", "variadic_type_parameter_declaration"))
_PREFIX = {"variable": "v", "function": "f", "class": "C", "member": "m"}


def make_variant_cpp(source: str, name: str, seed: int) -> SourceVariant:
    """The ``name`` variant of the C++ ``source`` (one of ``CPP_VARIANTS``) drawn with ``seed``.

    ``ValueError`` for another name (``mislead`` included: C++ offers only ``rename`` and ``deadcode``).
    """
    if name == "rename":
        return _renamed(source, seed)
    if name == "deadcode":
        return _dead_code(source, seed)
    raise ValueError(f"unknown C++ variant {name!r} (supported: {', '.join(CPP_VARIANTS)})")


# --- rename ---------------------------------------------------------------------------------------


def _renamed(source: str, seed: int) -> SourceVariant:
    data, root = parse(source)
    kinds, members = _declarations(data, root)
    refused = _refused(data, root, set(kinds))
    taken = set(_WORD.findall(source)) | KEYWORDS
    counters = dict.fromkeys(_PREFIX, 0)
    mapping: dict[str, str] = {}
    for name, kind in kinds.items():  # in the order of their first declarations
        if name in refused or (name in members and name in STD_MEMBERS):
            continue
        new = ""
        while not new or new in taken:
            counters[kind] += 1
            new = f"{_PREFIX[kind]}{counters[kind]}"
        taken.add(new)
        mapping[name] = new
    edits = [
        (leaf.start_byte, leaf.end_byte, mapping[text])
        for leaf in _code_leaves(root)
        if (text := node_text(data, leaf)) in mapping
        and (leaf.type in _RENAMED_TOKENS or (leaf.type == "field_identifier" and text in members))
    ]
    return SourceVariant("rename", seed, _apply(data, edits), mapping, _identity(source))


def _declarations(data: bytes, root: Node) -> tuple[dict[str, str], set[str]]:
    """Each name the program declares -> its kind (of its first declaration), and the names declared as members."""
    kinds: dict[str, str] = {}
    members: set[str] = set()
    for node in walk(root):
        for name, kind in _declared_here(data, node):
            if kind == "member":
                members.add(name)
            if name != "main" and name not in KEYWORDS:
                kinds.setdefault(name, kind)
    return kinds, members


def _declared_here(data: bytes, node: Node) -> list[tuple[str, str]]:
    """The ``(name, kind)`` pairs ``node`` itself declares (not its descendants')."""
    kind = node.type
    if kind == "function_definition":
        return [(n, "member" if t != "identifier" else "function") for n, t in _names(data, _field(node, "declarator"))]
    if kind == "field_declaration":
        return [(n, "member") for c in node.children_by_field_name("declarator") for n, _ in _names(data, c)]
    if kind in _VARIABLE_DECLARATIONS:
        top = node.parent is not None and node.parent.type in ("translation_unit", "declaration_list")
        return [(n, _variable_kind(c, t, top=top)) for c in node.children_by_field_name("declarator")
                for n, t in _names(data, c)]  # fmt: skip
    if kind == "for_range_loop":
        return [(n, "variable") for n, _ in _names(data, _field(node, "declarator"))]
    if kind in _TYPES and _field(node, "body") is not None:
        return [(n, "class") for n, _ in _names(data, _field(node, "name"))]
    if kind == "enumerator":
        return [(n, "variable") for n, _ in _names(data, _field(node, "name"))]
    if kind == "type_definition":
        return [(n, "class") for c in node.children_by_field_name("declarator") for n, _ in _names(data, c)]
    if kind in ("alias_declaration", "optional_type_parameter_declaration"):
        return [(n, "class") for n, _ in _names(data, _field(node, "name"))]
    if kind in _TYPE_PARAMETERS:
        return [(node_text(data, c), "class") for c in node.named_children if c.type == "type_identifier"]
    return []


def _variable_kind(declarator: Node, token: str, *, top: bool) -> str:
    """A prototype at namespace scope declares a function, ``int T::n = 0;`` a member, anything else a variable."""
    if top and declarator.type == "function_declarator":
        return "function"
    return "variable" if token == "identifier" else "member"


def _field(node: Node, name: str) -> Node | None:
    return node.child_by_field_name(name)


def _names(data: bytes, node: Node | None) -> list[tuple[str, str]]:
    """``(name, token type)`` of what a declarator declares (through pointers, references, arrays, functions);
    an out-of-class ``T::name`` gives its ``name`` as a member; operators and destructors give nothing."""
    if node is None:
        return []
    if node.type in ("identifier", "field_identifier", "type_identifier"):
        return [(node_text(data, node), node.type)]
    if node.type == "qualified_identifier":
        return [(n, "field_identifier") for n, _ in _names(data, _field(node, "name"))]
    if node.type == "structured_binding_declarator":
        return [(node_text(data, c), c.type) for c in node.named_children if c.type == "identifier"]
    if node.type in _WRAPPERS:
        wrapped = _field(node, "declarator") or next((c for c in node.named_children if c.type != "comment"), None)
        return _names(data, wrapped)
    return []


def _refused(data: bytes, root: Node, declared: set[str]) -> set[str]:
    """Declared names that must keep their name: written in a directive or a string, or reached through a scope
    the program does not declare (``std::map``)."""
    refused: set[str] = set()
    for node in walk(root):
        if node.type in _DIRECTIVES or node.type in ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef"):
            head = node if node.type in _DIRECTIVES else _field(node, "condition") or _field(node, "name")
            refused.update(_WORD.findall(node_text(data, head)) if head is not None else ())
        elif node.type in _LITERALS:
            refused.update(_WORD.findall(_ESCAPE_OR_FORMAT.sub(" ", node_text(data, node))))
        elif node.type == "qualified_identifier":
            scope = _field(node, "scope")
            scope_name = _WORD.match(node_text(data, scope)) if scope is not None else None
            name = _field(node, "name")
            if scope_name is not None and scope_name.group() not in declared and name is not None:
                refused.update(_WORD.findall(node_text(data, name))[:1])
    return refused


def _code_leaves(root: Node) -> list[Node]:
    """The program's tokens outside comments, literals and directives (and ``#if`` conditions), in order."""
    out: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "comment" or node.type in _DIRECTIVES or node.type in _LITERALS:
            continue
        if node.child_count == 0:
            out.append(node)
            continue
        skip = _field(node, "condition") if node.type in ("preproc_if", "preproc_elif") else None
        if node.type in ("preproc_ifdef", "preproc_elifdef"):
            skip = _field(node, "name")
        stack.extend(c for c in reversed(node.children) if skip is None or c.id != skip.id)
    return out


def _apply(data: bytes, edits: list[tuple[int, int, str]]) -> str:
    """``data`` with each ``(start, end, text)`` byte range replaced (ranges never overlap)."""
    out = bytearray(data)
    for start, end, text in sorted(edits, reverse=True):
        out[start:end] = text.encode("utf-8")
    return out.decode("utf-8")


def _identity(source: str) -> dict[int, int]:
    return {i: i for i in range(1, len(source.splitlines()) + 1)}


# --- deadcode -------------------------------------------------------------------------------------


def _dead_code(source: str, seed: int) -> SourceVariant:
    data, root = parse(source)
    newline = "\r\n" if "\r\n" in source else "\n"
    rng = random.Random(seed)
    boundaries = [b for node in walk(root) if node.type == "function_definition" for b in _boundaries(data, node)]
    chosen = sorted(rng.sample(range(len(boundaries)), min(DEAD_STATEMENTS, len(boundaries))))
    names = _fresh_names(set(_WORD.findall(source)), len(chosen))
    inserts: list[tuple[int, int, list[str]]] = []  # (byte offset of a line start, its line, the lines before it)
    for n, (i, name) in enumerate(zip(chosen, names, strict=True)):
        offset, indent = boundaries[i]
        a, b = rng.randint(2, 9), rng.randint(2, 9)
        lines = [f"{indent}[[maybe_unused]] long long {name} = {a} * {b} + {a};"]  # an unused computation
        if n % 2 == 1:  # a branch that can never be taken
            lines = [
                f"{indent}[[maybe_unused]] long long {name} = {a * b};",
                f"{indent}if ({name} < 0) {{ {name} = -{name}; }}",
            ]
        inserts.append((offset, data.count(b"\n", 0, offset) + 1, lines))
    edits = [(offset, offset, "".join(line + newline for line in lines)) for offset, _, lines in inserts]
    shifted = {line: line + sum(len(ls) for _, at, ls in inserts if at <= line) for line in _identity(source)}
    return SourceVariant("deadcode", seed, _apply(data, edits), {}, shifted)


def _fresh_names(taken: set[str], count: int) -> list[str]:
    """``unused1``, ``unused2``...: the first ``count`` such names that are not in ``taken``."""
    found: list[str] = []
    n = 0
    while len(found) < count:
        n += 1
        if f"unused{n}" not in taken:
            found.append(f"unused{n}")
    return found


def _boundaries(data: bytes, function: Node) -> list[tuple[int, str]]:
    """Where a line may go in ``function``'s body: ``(byte offset of a line start, its indent)`` before each of
    the body's statements that starts its line, and before the closing brace; none in a function with a
    ``goto`` or a label (a declaration must not be jumped over), a ``constexpr`` one, or an unreadable one."""
    body = _field(function, "body")
    if body is None or body.type != "compound_statement" or body.has_error:
        return []
    head = data[function.start_byte : body.start_byte]
    if re.search(rb"\bconst(expr|eval)\b", head):
        return []
    if any(n.type in ("goto_statement", "labeled_statement") for n in walk(body)):
        return []
    found: list[tuple[int, str]] = []
    inner = ""
    for child in body.children:
        if child.type == "{" or child.type.startswith("preproc_") or child.type == "ERROR":
            continue
        start = data.rfind(b"\n", 0, child.start_byte) + 1
        indent = data[start : child.start_byte]
        if indent.strip(b" \t"):
            continue  # shares its line with code before it
        text = indent.decode("utf-8")
        if child.type == "}":
            text = inner or text + "    "
        else:
            inner = inner or text
        found.append((start, text))
    return found


__all__ = ["CPP_VARIANTS", "DEAD_STATEMENTS", "STD_MEMBERS", "make_variant_cpp"]
