#!/usr/bin/env python3
"""sizes_check.py fails on what breaks the limits and only on that: crafted trees whose files and
functions are one line under, at and over each limit (the lengths are counted by construction
here), with braces in strings, comments and macros, a long initializer and a nested function.

    python3 sizes_check_test.py
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def c_function(name, lines):
    """A C function of exactly `lines` lines (name line to closing brace), its body full of the
    braces the scanner must not count."""
    assert lines >= 4
    body = ['    const char *s = "}}{";', "    /* } */ // }", "    char c = '}';"]
    body += ["    (void)s;"] * (lines - 4 - len(body)) + ["    (void)c;"]
    return [f"static void {name}(void)", "{"] + body + ["}"]


def write(root, path, lines):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write("\n".join(lines) + "\n")


def run(root):
    p = subprocess.run([sys.executable, os.path.join(HERE, "sizes_check.py"), root],
                       capture_output=True, text=True)
    return p.returncode, p.stderr.splitlines()


def fail(msg):
    print("sizes_check_test: " + msg, file=sys.stderr)
    sys.exit(1)


def expect(root, want_rc, want_errors, what):
    rc, errors = run(root)
    if rc != want_rc or errors != want_errors:
        fail(f"{what}: exit {rc}, errors {errors}; want exit {want_rc}, errors {want_errors}")


def main():
    tmp = os.environ.get("MC_TEST_TMP")
    with tempfile.TemporaryDirectory(dir=tmp) as root:
        # At the limits: a 1,000-line file holding an 80-line function, a macro with braces,
        # a 120-line table and a 200-line Python file whose def is 80 lines long.
        at = ["#define BLOCK(x) { x }", "#define LONG(x) \\", "    { { x }"]
        at += ["static const int table[] = {"] + ["    1,"] * 118 + ["};"]
        at += c_function("at_the_limit", 80)
        at += ["/* filler */"] * (1000 - len(at))
        write(root, "src/core/at.c", at)
        write(root, "tests/at.py", ["def at_the_limit():"] + ["    pass"] * 79 + [""] * 120)
        write(root, "tests/data/huge.c", ["int x;"] * 5000)  # data is not code
        write(root, "tests/data/sub/long.c", c_function("in_data", 200))
        expect(root, 0, [], "a tree at the limits")

        # One line over each limit, in C, in Python and in a file length.
        write(root, "src/core/over.c", ["int y;"] * 3 + c_function("one_too_many", 81))
        write(root, "tests/long.sh", ["true"] * 1001)
        write(root, "python/pkg/mod.py", ["class K:", "    def method(self):"]
              + ["        pass"] * 80)
        write(root, "include/x/inline.h", ["struct s { int a; };", "static inline int f(int a)"]
              + ["{"] + ["    a++;"] * 80 + ["    return a;", "}"])
        expect(root, 1, [
            "src/core/over.c:4: error: function 'one_too_many' has 81 lines, more than 80",
            "include/x/inline.h:2: error: function 'f' has 84 lines, more than 80",
            "tests/long.sh: error: 1001 lines, more than 1000",
            "python/pkg/mod.py:2: error: function 'method' has 81 lines, more than 80",
        ], "a tree with one line too many in four places")
    print("sizes_check_test: limits held at 1000/80 and broken at 1001/81")


if __name__ == "__main__":
    main()
