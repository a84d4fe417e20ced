#!/usr/bin/env python3
"""layers_check.py fails on what breaks the floors and only on that: a crafted tree whose public
header's functions are defined in the folder that owns the header passes, and the same tree
fails, naming function, header and file, once one of them is defined in a folder above, and
naming file, line and folders once a file includes a header of a floor above its own.

    python3 layers_check_test.py
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

HEADER = """/* thing: mc_thing_fake(x) in a comment declares nothing. */
#ifndef MC_THING_H
#define MC_THING_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef struct mc_thing { int a; } mc_thing;
typedef void (*mc_thing_fn)(void *user);
int mc_thing_make(mc_thing *t,
                  int a);
void mc_thing_release(mc_thing *t);
static inline int mc_thing_twice(int a) { return 2 * a; }
#ifdef __cplusplus
}
#endif
#endif
"""

OWNED = """#include <md5cine/thing.h>
static const char *s = "}{ mc_thing_release(";
int mc_thing_make(mc_thing *t,
                  int a)
{
    t->a = a;
    return 0;
}
"""

RELEASE = """void mc_thing_release(mc_thing *t)
{
    t->a = 0;
}
"""

USER = """#include <md5cine/thing.h>
static int mc_thing_local(int a)
{
    return a;
}
"""


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def expect(root, want_rc, want_errors, what):
    p = subprocess.run([sys.executable, os.path.join(HERE, "layers_check.py"), "src", "include"],
                       capture_output=True, text=True, cwd=root)
    errors = [line for line in p.stdout.splitlines() if ": error: " in line]
    if p.returncode != want_rc or errors != want_errors:
        print(f"layers_check_test: {what}: exit {p.returncode}, errors {errors}; want exit "
              f"{want_rc}, errors {want_errors}\n{p.stdout}", file=sys.stderr)
        sys.exit(1)


def main():
    with tempfile.TemporaryDirectory(dir=os.environ.get("MC_TEST_TMP")) as root:
        write(root, "include/md5cine/thing.h", HEADER)
        write(root, "src/core/thing.c", OWNED + RELEASE)
        write(root, "src/scene/user.c", USER)
        expect(root, 0, [], "each function defined where its header lives")

        write(root, "src/core/thing.c", OWNED)
        write(root, "src/scene/user.c", USER + RELEASE)
        expect(root, 1, [
            "src/scene/user.c:6: error: mc_thing_release, declared in md5cine/thing.h of core/, "
            "is defined in scene/",
        ], "a function of core's header defined in scene/")

        write(root, "src/core/thing.c", OWNED + RELEASE + '#include "scene/user.h"\n')
        write(root, "src/scene/user.c", USER)
        expect(root, 1, [
            "src/core/thing.c:13: error: core/ includes scene/user.h of scene/, which is not "
            "below it",
        ], "core/ including a header of scene/")
    print("layers_check_test: a definition outside its header's folder and an upward include "
          "fail")


if __name__ == "__main__":
    main()
