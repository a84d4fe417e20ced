#!/usr/bin/env python3
"""No two files of one folder of src/ call each other, directly or around a loop: within each
folder the files that call one another (an undefined symbol of one object defined by another,
as nm lists them) form a one-way graph. Fails naming each loop's files and the calls in it.

    python3 calls_check.py NM OBJECT...

OBJECT: the objects of src/ (CMake's path .../FOLDER/NAME.c.o; an argument may hold several,
separated by ';', as $<TARGET_OBJECTS:...> gives them).
"""
import collections
import os
import subprocess
import sys


def symbols(nm, obj):
    out = subprocess.run([nm, obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBR":  # global text, data, bss, read-only
            defined.add(parts[2])
    return defined, undefined


def loops(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    nm = sys.argv[1]
    objs = [o for arg in sys.argv[2:] for o in arg.split(";") if o]
    folders = collections.defaultdict(dict)  # folder -> file -> (defined, undefined)
    for obj in objs:
        name = os.path.basename(obj)
        if name.endswith(".o"):
            name = name[:-2]
        folders[os.path.basename(os.path.dirname(obj))][name] = symbols(nm, obj)
    if not objs:
        print("error: no object files given")
        return 1
    problems = 0
    for folder in sorted(folders):
        files = folders[folder]
        owner = {s: f for f, (d, _) in files.items() for s in d}
        graph = {f: set() for f in files}
        calls = collections.defaultdict(set)
        for f, (_, und) in files.items():
            for s in und:
                g = owner.get(s)
                if g and g != f:
                    graph[f].add(g)
                    calls[(f, g)].add(s)
        for comp in loops(graph):
            problems += 1
            print(f"error: src/{folder}/: {', '.join(comp)} call each other in a loop:")
            for f in comp:
                for g in comp:
                    if (f, g) in calls:
                        print(f"  {f} -> {g}: {', '.join(sorted(calls[(f, g)]))}")
    print(f"{len(objs)} objects in {len(folders)} folders checked, {problems} loops")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
