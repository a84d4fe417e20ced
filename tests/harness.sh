# The shell tests' harness, sourced first:   . ./harness.sh NAME
# (in tests/, as tests/CMakeLists.txt runs them, with MD5CINE and MC_TEST_TMP set). It makes a
# scratch folder $T under MC_TEST_TMP, removed on exit when nothing failed (kept, and named,
# when something did), counts $passed and $failed, and defines
#   ok NAME / fail NAME [WHY]      one outcome
#   check NAME COMMAND...          ok when COMMAND succeeds
#   check_eq NAME WANT GOT         ok when the two texts are the same; both shown when not
#   check_file NAME FILE           ok when FILE is there and not empty
#   run NAME ARGS...               runs md5cine: stdout and stderr in $T/NAME.{out,err}, status in $rc
#   capture ARGS...                runs md5cine: stdout in $out, stderr in $err, status in $rc
#   expect NAME RC [OUT] [ERR]     the latest run exited RC, and its stdout (stderr) holds OUT (ERR)
#   peak NAME ARGS...              as run, under GNU time (Debian package `time`): $kib receives
#                                  md5cine's peak resident set in KiB
#   finish                         the summary line "NAME: N passed, N failed"; the status is 0
#                                  when nothing failed
# $M is md5cine (MD5CINE); a test that does not run it sets MD5CINE=none before sourcing.
: "${MD5CINE:?MD5CINE must name the md5cine binary}"
: "${MC_TEST_TMP:?MC_TEST_TMP must name a scratch folder}"
mkdir -p "$MC_TEST_TMP"
harness_name=$1
M=$MD5CINE
T=$(mktemp -d "$MC_TEST_TMP/$1.XXXXXX")
failed=0
passed=0

harness_exit() {
    if [ "$failed" -eq 0 ]; then rm -rf "$T" "$T.err"; else echo "(scratch files kept in $T)"; fi
}
trap harness_exit EXIT

ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; failed=$((failed + 1)); }

check() {
    local name=$1
    shift
    if "$@"; then ok "$name"; else fail "$name" "'$*' is false"; fi
}


check_eq() {
    if [[ "$2" == "$3" ]]; then
        ok "$1"
    else
        fail "$1" "
  expected: $2
  actual:   $3"
    fi
}

check_file() {
    if [ -s "$2" ]; then ok "$1"; else fail "$1" "'$2' is missing or empty"; fi
}

last=
run() {
    last=$1
    shift
    "$MD5CINE" "$@" >"$T/$last.out" 2>"$T/$last.err"
    rc=$?
}

capture() {
    out=$("$MD5CINE" "$@" 2>"$T.err")
    rc=$?
    err=$(cat "$T.err")
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
        fail "$name" "exit $rc, expected $want; stderr: $(head -c 400 "$T/$last.err")"
    elif [ -n "$out" ] && ! grep -qF -- "$out" "$T/$last.out"; then
        fail "$name" "stdout lacks '$out': $(head -c 400 "$T/$last.out")"
    elif [ -n "$err" ] && ! grep -qF -- "$err" "$T/$last.err"; then
        fail "$name" "stderr lacks '$err': $(head -c 400 "$T/$last.err")"
    else
        ok "$name"
    fi
}

finish() {
    echo "$harness_name: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
