#!/usr/bin/env python3
"""Finds import cycles between the modules of Rust crates.

Reads every `.rs` file under each SRC (a crate's `src/`), takes each `crate::…`, `super::…` and
`self::…` path outside comments and test modules as an edge to the deepest module it names (a
group such as `crate::{a::B, c}` is an edge to each of `a` and `c`), and reports the strongly
connected components with more than one module. Exits 1 when a crate has one.

A module's use of its own submodules is not an edge: it declares them (`mod a;`, with `a::b` and
`self::a::b` paths alike) and stands above them; their use of it (`super::…`) is. A crate's
root is above every module. Each SRC is one crate: a crate with both `lib.rs` and `main.rs`
is two, so check such a binary's modules apart.

    scripts/module-cycles.py crates/*/src python/src [--graph]

`--graph` also prints what each module uses.
"""
import collections
import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
WORD = re.compile(IDENT)
RAW = re.compile(r'b?r(#*)"')
CHAR = re.compile(r"'(?:\\[^']{1,8}|[^'\\])'")


def module_of(root, path):
    parts = os.path.relpath(path, root)[:-3].split("/")
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return "::".join(parts)


def code_of(text):
    """The text with its comments, string and character literals blanked, and without the test
    module at the end of a file."""
    cut = text.find("#[cfg(test)]\nmod tests")
    if cut >= 0:
        text = text[:cut]
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
        elif raw := RAW.match(text, i):
            close = '"' + raw.group(1)
            end = text.find(close, raw.end())
            i = n if end < 0 else end + len(close)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif char := CHAR.match(text, i):
            i = char.end()
            out.append("' '")
        elif word := WORD.match(text, i):
            out.append(word.group())
            i = word.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def group(text, at):
    """The paths of the use tree at `text[at]` (after `crate::` and the like), as lists of names."""
    paths, prefix, i = [], [], at
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] == "{":
            i += 1
            while True:
                inner, i = group(text, i)
                paths += [prefix + p for p in inner]
                while i < len(text) and text[i] in " \t\n,":
                    i += 1
                if i >= len(text) or text[i] == "}":
                    return paths, i + 1
        name = re.match(IDENT, text[i:])
        if not name:
            return paths + [prefix], i
        i += name.end()
        if name.group() not in ("self", "as"):
            prefix = prefix + [name.group()]
        elif name.group() == "as":
            # `a::b as c`: the rename names nothing of the crate.
            rename = re.match(r"\s*" + IDENT, text[i:])
            i += rename.end() if rename else 0
            return paths + [prefix], i
        following = re.match(r"\s*::\s*", text[i:])
        if not following:
            return paths + [prefix], i
        i += following.end()


def edges(root):
    uses = collections.defaultdict(set)
    modules = set()
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            module = module_of(root, path)
            modules.add(module)
            code = code_of(open(path, encoding="utf-8").read())
            here = module.split("::") if module else []
            # `self::` in `a/mod.rs` names `a`'s own items and children, as in `a.rs`.
            for start in re.finditer(r"(?<![A-Za-z0-9_:])(crate|self|super(?:\s*::\s*super)*)\s*::\s*", code):
                head = start.group(1)
                if head == "crate":
                    base = []
                elif head == "self":
                    base = here
                else:
                    ups = head.count("super")
                    base = here[: len(here) - ups] if ups <= len(here) else []
                for target in group(code, start.end())[0]:
                    uses[module].add("::".join(base + target))

    def known(target):
        while target and target not in modules:
            target = target.rsplit("::", 1)[0] if "::" in target else ""
        return target

    graph = {}
    for module in modules:
        targets = {known(t) for t in uses.get(module, ())}
        inside = module + "::"
        graph[module] = sorted(t for t in targets if t and t != module and not t.startswith(inside))
    return graph


def cycles(graph):
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    roots = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not roots:
        sys.exit(__doc__)
    failed = False
    for root in roots:
        graph = edges(root)
        if "--graph" in sys.argv:
            print(f"{root}:")
            for module in sorted(graph):
                print(f"  {module or '(crate root)':20} uses {', '.join(graph[module]) or '-'}")
        found = cycles(graph)
        for component in found:
            print(f"module-cycles: an import cycle in {root}: {', '.join(component)}")
        if found:
            failed = True
        else:
            print(f"module-cycles: no import cycle in {root}")
    if failed:
        sys.exit(1)


main()
