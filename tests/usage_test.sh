#!/usr/bin/env bash
# The command line's common contract: every subcommand answers --help on stdout with exit 0,
# usage mistakes exit 2 with a message on stderr.
set -u
bin="${MD5CINE:?MD5CINE must name the md5cine binary}"
tmp="${MC_TEST_TMP:-/tmp}/usage.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() { # name, expected exit, actual exit, file that must be non-empty
    if [ "$2" = "$3" ] && [ -s "$4" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL $1: exit $3 (expected $2)" >&2
        failed=$((failed + 1))
    fi
}

for cmd in render info export compare; do
    "$bin" "$cmd" --help >"$tmp/out" 2>"$tmp/err"
    check "${cmd}_help_exits_0" 0 $? "$tmp/out"
    if [ -s "$tmp/err" ] || ! grep -q "usage: md5cine $cmd" "$tmp/out"; then
        echo "FAIL ${cmd}_help_prints_only_usage" >&2
        failed=$((failed + 1))
    fi
    "$bin" "$cmd" --no-such-option >"$tmp/out" 2>"$tmp/err"
    check "${cmd}_unknown_option_exits_2" 2 $? "$tmp/err"
done

"$bin" >"$tmp/out" 2>"$tmp/err"
check no_command_exits_2 2 $? "$tmp/err"
"$bin" frobnicate >"$tmp/out" 2>"$tmp/err"
check unknown_command_exits_2 2 $? "$tmp/err"
grep -q "unknown command 'frobnicate'" "$tmp/err" || { echo "FAIL unknown_command_is_named" >&2; failed=$((failed + 1)); }
"$bin" --help >"$tmp/out" 2>"$tmp/err"
check top_level_help_exits_0 0 $? "$tmp/out"
"$bin" --version >"$tmp/out" 2>"$tmp/err"
check version_exits_0 0 $? "$tmp/out"
# --help names --version, and both give the version of the build (the pkg-config file's, written
# by CMake from the same project version).
version=$(sed -n 's/^Version: //p' "$(dirname "$bin")/../md5cine.pc" 2>/dev/null)
if ! grep -qx "md5cine $version" "$tmp/out" || [ -z "$version" ]; then
    echo "FAIL version_is_the_builds: '$(cat "$tmp/out")', md5cine.pc says '$version'" >&2
    failed=$((failed + 1))
fi
"$bin" --help >"$tmp/out" 2>&1
if ! grep -q -- "--version .*(md5cine $version)" "$tmp/out"; then
    echo "FAIL help_names_version" >&2
    failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
