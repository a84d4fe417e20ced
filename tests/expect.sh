# Sourced by the command-line tests that compare md5cine's output with exact expected text:
#   . ./expect.sh NAME     (in tests/, with MD5CINE set to the binary)
# sets fails=0 and a scratch folder $tmp (removed on exit), and defines
#   check NAME EXPECTED ACTUAL   prints ok/FAIL with both texts, counts failures in $fails
#   run ARGS...                  runs md5cine: stdout in $out, stderr in $err, status in $rc
: "${MD5CINE:?MD5CINE must name the md5cine binary}"
fails=0
tmp="${MC_TEST_TMP:-/tmp}/$1.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

check() { # name expected actual
    if [[ "$2" != "$3" ]]; then
        echo "FAIL $1"
        echo "  expected: $2"
        echo "  actual:   $3"
        fails=$((fails + 1))
    else
        echo "ok   $1"
    fi
}

run() { # runs md5cine, keeps stdout in $out, stderr in $err, status in $rc
    out=$("$MD5CINE" "$@" 2>"$tmp/err")
    rc=$?
    err=$(cat "$tmp/err")
}
