#!/bin/bash
# The man page (man/md5cine.1) is the one reference of the options: for every command, the
# options it accepts, its --help and the man page's tags agree, names and listed words
# (tests/options_check.py says how); the README and docs/ carry no table of options; and the
# man page renders without a warning (groff -ww, as `man -l man/md5cine.1` formats it), in
# UTF-8 and in ASCII.
set -u
failed=0
for dev in utf8 ascii; do
    warnings=$(groff -man -T"$dev" -ww ../man/md5cine.1 2>&1 >/dev/null)
    if [ -z "$warnings" ]; then
        echo "ok   man_page_renders_without_warnings_$dev"
    else
        echo "FAIL man_page_renders_without_warnings_$dev: $warnings"
        failed=1
    fi
done
"${MC_PYTHON3:-python3}" options_check.py "$MD5CINE" ../man/md5cine.1 .. || failed=1
[ "$failed" -eq 0 ]
