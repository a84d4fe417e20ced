#!/usr/bin/env python3
"""The house's two size limits: no source file over 1,000 lines, no function over 80. Fails
naming each file (and each function, with the line it starts on) that is longer.

    python3 sizes_check.py ROOT

Covered: under ROOT's code folders (FOLDERS), every C file (.c, .h), Python file (.py), shell
script (.sh) and CMake file (CMakeLists.txt, .cmake), tests and fuzz targets included; the
folders of data within them (DATA: fixtures, goldens, fuzz corpora) are not code and are left
out, as is scenes/ (the demo's assets). Functions are measured in C (from the line of the
function's name to its closing brace) and in Python (from the `def` line to its last line).
Shell functions are not measured: their bodies hold here-documents of other languages.
"""
import ast
import os
import re
import sys

MAX_FILE_LINES = 1000
MAX_FUNCTION_LINES = 80

FOLDERS = ["src", "include", "tests", "fuzz", "bench", "python", "scripts", "examples", "cmake"]
DATA = {"data", "golden", "corpus", "crashers", "__pycache__"}
SUFFIXES = (".c", ".h", ".py", ".sh", ".cmake")

IDENT = re.compile(r"[A-Za-z_]\w*")


def source_files(root):
    if os.path.isfile(os.path.join(root, "CMakeLists.txt")):
        yield os.path.join(root, "CMakeLists.txt")
    for folder in FOLDERS:
        for top, dirs, names in os.walk(os.path.join(root, folder)):
            dirs[:] = sorted(d for d in dirs if d not in DATA)
            for name in sorted(names):
                if name.endswith(SUFFIXES) or name == "CMakeLists.txt":
                    yield os.path.join(top, name)


def c_code(text):
    """The text with comments, string and character literals and preprocessor lines blanked
    (newlines kept, so offsets keep their line numbers)."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text[j] == "\\" and j + 1 < n else 1
            for k in range(i, min(j, n)):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c not in " \t":
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def c_functions(text):
    """(name, first line, last line) of each function definition: a `{` at file level whose
    declaration (the code since the last `;`, `}` or directive at that level) ends in `)` and
    has no `=`."""
    code = c_code(text)
    found = []
    depth = 0
    decl_start = 0
    open_at = None
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                decl = code[decl_start:i]
                open_at = None
                if decl.rstrip().endswith(")") and "=" not in decl:
                    paren = decl.find("(")
                    names = IDENT.findall(decl[:paren])
                    if names:
                        name = names[-1]
                        at = decl_start + decl.rfind(name, 0, paren)
                        open_at = (name, code.count("\n", 0, at) + 1)
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                if open_at:
                    found.append((open_at[0], open_at[1], code.count("\n", 0, i) + 1))
                    open_at = None
                decl_start = i + 1
        elif c == ";" and depth == 0:
            decl_start = i + 1
    return found


def py_functions(text, path):
    tree = ast.parse(text, path)
    return [(n.name, n.lineno, n.end_lineno) for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def check(path, shown):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    problems = []
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if lines > MAX_FILE_LINES:
        problems.append(f"{shown}: error: {lines} lines, more than {MAX_FILE_LINES}")
    if path.endswith((".c", ".h")):
        functions = c_functions(text)
    elif path.endswith(".py"):
        functions = py_functions(text, shown)
    else:
        functions = []
    for name, first, last in functions:
        length = last - first + 1
        if length > MAX_FUNCTION_LINES:
            problems.append(f"{shown}:{first}: error: function '{name}' has {length} lines, "
                            f"more than {MAX_FUNCTION_LINES}")
    return problems, len(functions)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = sys.argv[1]
    problems, files, functions = [], 0, 0
    for path in source_files(root):
        p, nf = check(path, os.path.relpath(path, root))
        problems += p
        files += 1
        functions += nf
    for p in problems:
        print(p, file=sys.stderr)
    print(f"sizes: {files} files, {functions} functions, {len(problems)} over the limits "
          f"({MAX_FILE_LINES} lines a file, {MAX_FUNCTION_LINES} a function)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
