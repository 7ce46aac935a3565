#!/usr/bin/env python3
"""Finds import cycles between the modules of a Rust crate.

Reads every `.rs` file under SRC (the crate's `src/`), takes each `crate::a::b` and `super::a`
path outside comments and test modules as an edge to the deepest module it names, and reports
the strongly connected components with more than one module. Exits 1 when there is one.

    scripts/module-cycles.py crates/mabula-engine/src [--graph]

`--graph` also prints what each module uses.
"""
import collections
import os
import re
import sys


def module_of(root, path):
    parts = os.path.relpath(path, root)[:-3].split("/")
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return "::".join(parts)


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
            text = open(path, encoding="utf-8").read()
            cut = text.find("#[cfg(test)]\nmod tests")
            if cut >= 0:
                text = text[:cut]
            parent = module.rsplit("::", 1)[0] if "::" in module else ""
            for line in text.split("\n"):
                code = line.split("//")[0]
                for target in re.findall(r"\bcrate::([a-z_]+(?:::[a-z_]+)*)", code):
                    uses[module].add(target)
                for target in re.findall(r"\bsuper::([a-z_]+(?:::[a-z_]+)*)", code):
                    uses[module].add(f"{parent}::{target}" if parent else target)

    def known(target):
        while target and target not in modules:
            target = target.rsplit("::", 1)[0] if "::" in target else ""
        return target

    graph = {}
    for module in modules:
        targets = {known(t) for t in uses.get(module, ())}
        graph[module] = sorted(t for t in targets if t and t != module)
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
    root = sys.argv[1]
    graph = edges(root)
    if "--graph" in sys.argv:
        for module in sorted(graph):
            print(f"{module or '(crate root)':20} uses {', '.join(graph[module]) or '-'}")
    found = cycles(graph)
    for component in found:
        print(f"module-cycles: an import cycle in {root}: {', '.join(component)}")
    if found:
        sys.exit(1)
    print(f"module-cycles: no import cycle in {root}")


main()
