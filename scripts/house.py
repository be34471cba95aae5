#!/usr/bin/env python3
"""house.py - the house rules of driver/, checked against the code.

Usage: scripts/house.py [OBJDIR]   (OBJDIR: build/obj, the plain build's objects)

Each room (driver/ROOM/) opens with a README.md whose line "May include: a b c"
names the rooms its files may include and call; that line is the rule. Checked:
  - every #include "ROOM/file.h" of a room's files names the room itself or one
    of those it may include;
  - every function or variable a room's objects take from another (nm) is
    defined in the room itself or in one it may include;
  - no circle of files: files whose functions call each other in a loop,
    inside a room or across rooms (a shared helper belongs in a file below
    both; a pair that cannot be told apart is one file).
Prints every breach with the names that make it and exits 1; 0 when the house
holds. Reads only the tree and the object files; runs nothing of dbscale.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER = os.path.join(ROOT, "driver")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rooms():
    out = {}
    for name in sorted(os.listdir(DRIVER)):
        d = os.path.join(DRIVER, name)
        if not os.path.isdir(d):
            continue
        readme = os.path.join(d, "README.md")
        if not os.path.exists(readme):
            out[name] = None
            continue
        m = re.search(r"^May include:(.*)$", open(readme).read(), re.M)
        out[name] = set(m.group(1).replace(",", " ").replace("/", " ").split()) if m else None
    return out


def node_of(rel):
    """driver-relative path of a source or header -> the file it belongs to."""
    base, ext = os.path.splitext(rel)
    if ext == ".h" and os.path.exists(os.path.join(DRIVER, base + ".c")):
        return base + ".c"
    return rel


def room_of(rel):
    return rel.split("/")[0] if "/" in rel else None


def sources():
    files = []
    for dirpath, _, names in os.walk(DRIVER):
        for n in names:
            if n.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(dirpath, n), DRIVER))
    return sorted(files)


def symbols(objdir):
    """(definitions: name -> file, uses: file -> names) from the objects.
    One nm over all of them (-A names each line's object): a process per
    object took 25 s here, most of make house."""
    defs, uses = {}, {}
    src_of = {}
    for src in sources():
        if not src.endswith(".c"):
            continue
        obj = os.path.join(objdir, "driver", src[:-2] + ".o")
        if os.path.exists(obj):
            src_of[obj] = src
    if not src_of:
        return defs, uses
    objs = list(src_of)  # in sources() order: the first definition wins, as before
    out = subprocess.run(["nm", "-A"] + objs, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        name, sep, rest = line.partition(":")
        if not sep or name not in src_of:
            continue
        src = src_of[name]
        p = rest.split()
        if len(p) == 3 and p[1] in "TDBRCG":
            defs.setdefault(p[2], src)
        elif len(p) == 2 and p[0] == "U":
            uses.setdefault(src, set()).add(p[1])
    return defs, uses


def circles(edges):
    """Strongly connected sets of more than one file (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
                continue
            if w not in index:
                index[w] = low[w] = counter[0]
                counter[0] += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(edges.get(w, ())))))
            elif w in on:
                low[v] = min(low[v], index[w])
    return out


def main():
    objdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "obj")
    rules = rooms()
    bad = []
    for room, allowed in rules.items():
        if allowed is None:
            bad.append(f"driver/{room}/README.md: missing, or without a 'May include:' line")
    edges, why = {}, {}

    def arrow(a, b, name):
        if a == b:
            return
        edges.setdefault(a, set()).add(b)
        why.setdefault((a, b), set()).add(name)

    def allowed(src, dst_room):
        r = room_of(src)
        return r is None or dst_room is None or dst_room == r or dst_room in (rules.get(r) or ())

    for src in sources():
        text = open(os.path.join(DRIVER, src)).read()
        for inc in INCLUDE.findall(text):
            if not os.path.exists(os.path.join(DRIVER, inc)):
                continue  # a generated file (gen/*.inc)
            if not allowed(src, room_of(inc)):
                bad.append(f"driver/{src}: includes {inc}, but {room_of(src)}/ may not include {room_of(inc)}/")
    defs, uses = symbols(objdir)
    if not defs:
        bad.append(f"{objdir}: no object files (build first: make)")
    for src, names in uses.items():
        for n in names:
            dst = defs.get(n)
            if not dst or dst == src:
                continue
            if not allowed(src, room_of(dst)):
                bad.append(f"driver/{src}: calls {n} of driver/{dst}, but {room_of(src)}/ may not use {room_of(dst)}/")
            arrow(node_of(src), node_of(dst), n)
    for comp in circles(edges):
        lines = [f"circle of {len(comp)} files: " + ", ".join("driver/" + c for c in comp)]
        for a in comp:
            for b in sorted(edges.get(a, ())):
                if b in comp:
                    names = sorted(why[(a, b)])
                    more = f" (+{len(names) - 6} more)" if len(names) > 6 else ""
                    lines.append(f"    driver/{a} -> driver/{b}: {', '.join(names[:6])}{more}")
        bad.append("\n".join(lines))
    for b in bad:
        print("house: " + b)
    if bad:
        print(f"house: {len(bad)} breach(es) of the rules in driver/*/README.md")
        return 1
    print(f"house: {len(rules)} rooms, {len(sources())} files: every include and call within its room's "
          "rule, no circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
