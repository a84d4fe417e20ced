#!/usr/bin/env bash
# The command line's common contract: every subcommand answers --help on stdout with exit 0,
# usage mistakes exit 2 with a message on stderr.
set -u
. ./harness.sh usage

# exits NAME RC STREAM ARGS...: md5cine ARGS exits RC and writes something on STREAM (out, err)
exits() {
    local name=$1 want=$2 stream=$3
    shift 3
    run "$name" "$@"
    expect "${name}_exits_$want" "$want"
    check_file "${name}_writes_std$stream" "$T/$name.$stream"
}

for cmd in render info export compare; do
    exits "${cmd}_help" 0 out "$cmd" --help
    if [ -s "$T/${cmd}_help.err" ] || ! grep -q "usage: md5cine $cmd" "$T/${cmd}_help.out"; then
        fail "${cmd}_help_prints_only_usage"
    fi
    exits "${cmd}_unknown_option" 2 err "$cmd" --no-such-option
done

exits no_command 2 err
exits unknown_command 2 err frobnicate
grep -q "unknown command 'frobnicate'" "$T/unknown_command.err" || fail unknown_command_is_named
exits top_level_help 0 out --help
exits version 0 out --version
# --help names --version, and both give the version of the build (the pkg-config file's, written
# by CMake from the same project version).
version=$(sed -n 's/^Version: //p' "$(dirname "$M")/../md5cine.pc" 2>/dev/null)
if ! grep -qx "md5cine $version" "$T/version.out" || [ -z "$version" ]; then
    fail version_is_the_builds "'$(cat "$T/version.out")', md5cine.pc says '$version'"
fi
"$M" --help >"$T/help.out" 2>&1
if ! grep -q -- "--version .*(md5cine $version)" "$T/help.out"; then
    fail help_names_version
fi

finish
