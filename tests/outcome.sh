# Sourced by the command-line tests that check exit codes and messages:
#   . ./outcome.sh NAME     (in tests/, with MD5CINE and MC_TEST_TMP set)
# makes a scratch folder $T under MC_TEST_TMP, counts $passed and $failed, and defines
#   ok NAME / fail NAME [WHY]      one outcome
#   run NAME ARGS...               runs md5cine: stdout and stderr in $T/NAME.{out,err}, status in $rc
#   expect NAME RC [OUT] [ERR]     the latest run exited RC, and its stdout (stderr) holds OUT (ERR)
#   peak NAME ARGS...              as run, under GNU time (Debian package `time`): $kib receives
#                                  md5cine's peak resident set in KiB
: "${MD5CINE:?MD5CINE must name the md5cine binary}"
: "${MC_TEST_TMP:?MC_TEST_TMP must name a scratch folder}"
T=$(mktemp -d "$MC_TEST_TMP/$1.XXXXXX")
failed=0
passed=0

ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; failed=$((failed + 1)); }

last=
run() {
    last=$1
    shift
    "$MD5CINE" "$@" >"$T/$last.out" 2>"$T/$last.err"
    rc=$?
}

peak() {
    last=$1
    shift
    /usr/bin/time -f '%M' -o "$T/$last.kib" "$MD5CINE" "$@" >"$T/$last.out" 2>"$T/$last.err"
    rc=$?
    kib=$(tail -n 1 "$T/$last.kib")
}

expect() {
    local name=$1 want=$2 out=${3:-} err=${4:-}
    if [ "$rc" -ne "$want" ]; then
        fail "$name" "exit $rc, expected $want; stderr: $(head -c 300 "$T/$last.err")"
    elif [ -n "$out" ] && ! grep -qF -- "$out" "$T/$last.out"; then
        fail "$name" "stdout lacks '$out': $(head -c 300 "$T/$last.out")"
    elif [ -n "$err" ] && ! grep -qF -- "$err" "$T/$last.err"; then
        fail "$name" "stderr lacks '$err': $(head -c 300 "$T/$last.err")"
    else
        ok "$name"
    fi
}
