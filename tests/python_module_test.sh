#!/bin/bash
# The Python module (python/md5cine) against the md5cine command: tests/python_module_checks.py python_sound_checks.py
# and tests/python_sound_checks.py (the pytest helper's sound assertions) under pytest, with the package built into the build folder (MC_PYTHONPATH) and Debian's
# python3 (MC_PYTHON3). Runs in tests/.
set -u
: "${MC_PYTHON3:?MC_PYTHON3 must name python3}" "${MC_PYTHONPATH:?MC_PYTHONPATH must name the built package}"
tmp="${MC_TEST_TMP:-/tmp}/python_module.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
# A sanitized libmd5cine.so needs its runtime loaded first in python3 (MC_PY_PRELOAD).
PYTHONPATH="$MC_PYTHONPATH" LD_PRELOAD="${MC_PY_PRELOAD:-}" \
    ASAN_OPTIONS="${ASAN_OPTIONS:-}${MC_PY_PRELOAD:+:detect_leaks=0}" \
    "$MC_PYTHON3" -m pytest -q -p no:cacheprovider --basetemp="$tmp/pytest" \
    python_module_checks.py python_sound_checks.py
