#!/usr/bin/env python3
"""The folders of src/ are floors: a file may include headers of its own floor and of the floors
below, never of one above. This script holds the order (the one place it is written; docs/layout.md,
"Layout", shows it) and fails, naming file, line and both folders, when an include goes upward.
It fails too when a function a public header declares is defined outside the folder that owns
the header, naming the function, the header and the file that defines it.

    python3 layers_check.py SRC_DIR INCLUDE_DIR

A header's folder: for "gpu/backend.h" the folder in its path, for "lex.h" the including file's
own folder, for <md5cine/x.h> the folder of src/*/x.c (the file that defines what it declares),
or the OWNER entry below for a public header without a namesake .c. System headers are ignored.
"""
import os
import re
import sys

# Lowest floor first; folders on one line are side by side and may not include each other.
FLOORS = [
    ["core"],
    ["formats", "image", "gpu"],
    ["base"],
    ["motion", "video", "material", "sound"],
    ["scene", "review"],
    ["output"],
    ["cli"],
]

# Public headers with no src/*/NAME.c of the same name.
OWNER = {
    "types.h": "core",
    "limits.h": "core",
    "version.h": "core",
    "md5cine.h": None,  # the umbrella header includes everything; src/ must not include it
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# Comments, string and character literals, and preprocessor lines (with their continuations).
NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|'
                   r'^[ \t]*#(?:\\\n|[^\n])*', re.S | re.M)
# A function named in a statement at file level: the first mc_ name followed by '('.
CALLED = re.compile(r'\b(mc_[A-Za-z0-9_]*)\s*\(')


def file_level(path):
    """The statements of a C file outside every brace: (text, line of its start, the character
    ending it: ';' or '{'), with comments, literals and preprocessor lines blanked."""
    with open(path, encoding="utf-8") as f:
        text = NOISE.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), f.read())
    statements, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == '{' and depth == 0 and text[start:i].split() == ["extern"]:
            start = i + 1  # extern "C" { (its literal blanked): its body stays at file level
        elif c == '{':
            if depth == 0:
                statements.append((text[start:i], text.count('\n', 0, start) + 1, c))
            depth += 1
        elif c == '}':
            depth = max(depth - 1, 0)
            start = i + 1
        elif c == ';' and depth == 0:
            statements.append((text[start:i], text.count('\n', 0, start) + 1, c))
            start = i + 1
    return statements


def function_name(statement):
    """The function a file-level statement declares or defines, or None (a type, a variable,
    an extern "C" block)."""
    head = statement.strip()
    if head.startswith(("typedef", "struct", "enum", "union")) or ")" not in head:
        return None
    m = CALLED.search(head)
    return m.group(1) if m else None


def declarations(inc, owner):
    """{function: header} for every function a public header declares (not static inline)."""
    declared = {}
    for name in sorted(owner):
        path = os.path.join(inc, "md5cine", name)
        if owner[name] is None or not os.path.exists(path):
            continue
        for text, _, end in file_level(path):
            fn = function_name(text)
            if fn and end == ';' and "static" not in text.split():
                declared.setdefault(fn, name)
    return declared


def definitions(src, folders):
    """(function, file, line, folder) for every function with external linkage src/ defines."""
    found = []
    for folder in folders:
        for name in sorted(os.listdir(os.path.join(src, folder))):
            if not name.endswith(".c"):
                continue
            path = os.path.join(src, folder, name)
            for text, line, end in file_level(path):
                fn = function_name(text)
                if fn and end == '{' and "static" not in text.split():
                    line += text[:text.index(fn)].count('\n')
                    found.append((fn, path, line, folder))
    return found


def floor_of(folder):
    for i, row in enumerate(FLOORS):
        if folder in row:
            return i
    return None


def main():
    src, inc = sys.argv[1], sys.argv[2]
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    problems = []
    for folder in folders:
        if floor_of(folder) is None:
            problems.append(f"{src}/{folder}: error: folder has no floor in FLOORS")
    defined = {}
    for folder in folders:
        for name in os.listdir(os.path.join(src, folder)):
            if name.endswith(".c"):
                defined.setdefault(name[:-2] + ".h", []).append(folder)
    owner = dict(OWNER)
    for name in os.listdir(os.path.join(inc, "md5cine")):
        if not name.endswith(".h") or name in OWNER:
            continue
        if len(defined.get(name, [])) == 1:
            owner[name] = defined[name][0]
        else:
            problems.append(f"{inc}/md5cine/{name}: error: no folder: add it to OWNER")
    files = []
    for folder in folders:
        for name in sorted(os.listdir(os.path.join(src, folder))):
            if name.endswith((".c", ".h")):
                files.append((os.path.join(src, folder, name), folder))
    for name in sorted(owner):
        if owner[name] is not None and os.path.exists(os.path.join(inc, "md5cine", name)):
            files.append((os.path.join(inc, "md5cine", name), owner[name]))
    checked = 0
    for path, folder in files:
        here = floor_of(folder)
        with open(path, encoding="utf-8") as f:
            for line_no, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                kind, header = m.groups()
                if header.startswith("md5cine/"):
                    base = header[len("md5cine/"):]
                    if base not in owner:
                        problems.append(f"{path}:{line_no}: error: {header} unknown")
                        continue
                    to = owner[base]
                    if to is None:
                        problems.append(f"{path}:{line_no}: error: includes {header}")
                        continue
                elif kind == '"' and "/" in header:
                    to = header.split("/")[0]
                elif kind == '"':
                    to = folder
                else:
                    continue
                checked += 1
                there = floor_of(to)
                if there is None:
                    problems.append(f"{path}:{line_no}: error: {header}: unknown folder {to}")
                elif to != folder and there >= here:
                    problems.append(f"{path}:{line_no}: error: {folder}/ includes {header} "
                                    f"of {to}/, which is not below it")
    declared = declarations(inc, owner)
    defined_at = definitions(src, folders)
    for fn, path, line, folder in defined_at:
        header = declared.get(fn)
        if header is not None and owner[header] != folder:
            problems.append(f"{path}:{line}: error: {fn}, declared in md5cine/{header} of "
                            f"{owner[header]}/, is defined in {folder}/")
    for p in problems:
        print(p)
    print(f"{checked} includes checked, {len(declared)} public functions placed, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
