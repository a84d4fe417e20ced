#!/bin/bash
# render --jobs under an address-space limit (`ulimit -v`): each job is another GL context and
# another frame in flight, so an explicit count whose estimate does not fit is refused before the
# GL driver loads (exit 3, the limit's message), where one job of the same render fits. Labelled
# "once" (tests/CMakeLists.txt): a sanitizer's shadow memory cannot run under `ulimit -v`.
set -u
. ./harness.sh jobs_memory
D=data/render


# Under an address-space limit an explicit count that does not fit is refused before the GL
# driver loads (each job is another context and frame); one job of the same render fits.
limited() {
    local name=$1 mb=$2
    shift 2
    last=$name
    bash -c 'ulimit -v '$((mb * 1024))' && exec "$0" "$@"' "$M" "$@" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
}
limited mem1 1000 render "$D/long.md5scene" -o "$T/mem1.mp4" --frames 0-19 --jobs 1 --quiet
expect one_job_fits_in_1000_MB 0
limited mem16 1000 render "$D/long.md5scene" -o "$T/mem16.mp4" --frames 0-19 --jobs 16 --quiet
expect sixteen_jobs_do_not_fit_in_1000_MB 3 "" \
    "md5cine: error: out of memory: the address-space limit (ulimit -v) of 1000 MiB leaves"
check "the_refusal_names_the_jobs" grep -qF "rendering this scene with 16 jobs needs about" \
    "$T/mem16.err"
check "the_refused_render_leaves_no_video" [ ! -e "$T/mem16.mp4" ]

finish
