# The shell tests' harness, sourced first:   . ./harness.sh NAME
# (in tests/, as tests/CMakeLists.txt runs them, with MD5CINE and MC_TEST_TMP set). It makes a
# scratch folder $T under MC_TEST_TMP, removed on exit when nothing failed (kept, and named,
# when something did), counts $passed and $failed, and defines
#   ok NAME / fail NAME [WHY]      one outcome
#   check NAME COMMAND...          ok when COMMAND succeeds
#   check_eq NAME WANT GOT         ok when the two texts are the same; both shown when not
#   check_file NAME FILE           ok when FILE is there and not empty
#   check_same_picture NAME A B    ok when the PNG A has more than 20 colours (it is no blank
#                                  frame) and B is the same file, byte for byte (ImageMagick)
#   backends_agree NAME ARGS...    where the build has both EGL and OSMesa (MC_TEST_BACKENDS), ok
#                                  when md5cine render ARGS draws the same first frame through each
#   check_only_row NAME FILE ROW OTHERS  ok when a line of FILE matches the extended regular
#                                  expression ROW and none matches OTHERS
#   check_status NAME WANT LOG     ok when $rc is WANT; else fail, showing LOG's last lines
#   chrome ARGS...                 headless Chromium, its profile in $T/chrome, its stderr in
#                                  $T/chrome.err
#   run NAME ARGS...               runs md5cine: stdout and stderr in $T/NAME.{out,err}, status in $rc
#   capture ARGS...                runs md5cine: stdout in $out, stderr in $err, status in $rc
#   expect NAME RC [OUT] [ERR]     the latest run exited RC, and its stdout (stderr) holds OUT (ERR)
#   interrupt NAME SIG READY ARGS...  as run, in the background: SIG is sent once a line of its
#                                  stdout matches READY (grep), and $rc is its status
#   peak NAME ARGS...              as run, under GNU time (Debian package `time`): $kib receives
#                                  md5cine's peak resident set in KiB
#   px PNG X Y                     the pixel's "r,g,b" in 0..255 (ImageMagick)
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

check_same_picture() {
    local colours
    colours=$(convert "$2" -format %k info: 2>/dev/null)
    if [ "${colours:-0}" -gt 20 ] && cmp -s "$2" "$3"; then
        ok "$1"
    else
        fail "$1" "colours ${colours:-?}; $(compare -metric AE "$2" "$3" null: 2>&1)"
    fi
}

backends_agree() {
    local name=$1 gl
    shift
    for gl in egl osmesa; do
        case " ${MC_TEST_BACKENDS:-} " in *" $gl "*) ;; *) return 0 ;; esac
    done
    for gl in egl osmesa; do
        MD5CINE_GL=$gl run "gl_$gl" render "$@" -o "$T/gl_$gl%d.png"
        [ "$rc" -eq 0 ] || fail "gl_$gl" "exit $rc: $(cat "$T/gl_$gl.err")"
    done
    if cmp -s "$T/gl_egl0.png" "$T/gl_osmesa0.png"; then ok "$name"; else fail "$name" "the frames differ"; fi
}

check_only_row() {
    if grep -qE -- "$3" "$2" && ! grep -qE -- "$4" "$2"; then ok "$1"; else fail "$1" "$(cat "$2")"; fi
}

check_status() {
    if [ "$rc" -eq "$2" ]; then
        ok "$1"
    else
        fail "$1" "exit $rc, expected $2; the last lines:"
        tail -n 15 "$3" | sed 's/^/     | /'
    fi
}

chrome() {
    chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$T/chrome" "$@" 2>>"$T/chrome.err"
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

interrupt() {
    local sig=$2 ready=$3 pid
    last=$1
    shift 3
    "$MD5CINE" "$@" >"$T/$last.out" 2>"$T/$last.err" &
    pid=$!
    for _ in $(seq 1 600); do grep -q -- "$ready" "$T/$last.out" 2>/dev/null && break; sleep 0.05; done
    kill -"$sig" "$pid"
    wait "$pid"
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

px() {
    convert "$1" -format "%[fx:int(255*p{$2,$3}.r+0.5)],%[fx:int(255*p{$2,$3}.g+0.5)],%[fx:int(255*p{$2,$3}.b+0.5)]" info:
}
