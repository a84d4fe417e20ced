#!/bin/bash
# The shared argument parser as every subcommand sees it: "--opt=value" gives what "--opt value"
# gives (and the option took effect: the output differs from a run without it), unknown
# options, missing values and "--flag=x" are exit 2 with a message naming the option, "--"
# ends the options, --help and -h print the usage, render --quality's words are their documented
# sets of options, and compare --help lists the options of the table of comparison limits in
# docs/review-and-ci.md. (That --help, the options accepted and the man page agree for every
# command is tests/options_test.sh.)
set -u
. ./harness.sh args
D=data/render
CAM=data/camera/cut4.md5camera
MESH=data/assets/redeclipse-drone/mesh.md5mesh
ANIM=data/assets/redeclipse-drone/forward.md5anim

# usage_error NAME TEXT ARGS...: exit 2 and TEXT on stderr
usage_error() {
    local name=$1 text=$2
    shift 2
    run "$name" "$@"
    if [ "$rc" -ne 2 ]; then
        fail "$name" "exit $rc, expected 2"
    elif ! grep -qF -- "$text" "$T/$name.err"; then
        fail "$name" "stderr lacks \"$text\": $(head -c 300 "$T/$name.err")"
    else
        ok "$name"
    fi
}
same() { cmp -s "$1" "$2"; }
has() { grep -qF -- "$1" "$2"; }
lacks() { ! grep -qF -- "$1" "$2"; }
differ() { ! cmp -s "$1" "$2"; }
sums() { (cd "$1" && md5sum ./*.png); }

# ---- --opt=value is --opt value -----------------------------------------------------------
run r_space render "$D/boxes.md5scene" -o "$T/sp/%05d.png" --size 32x24 --frames 1-2 \
    --background 1,0,0 --quiet
run r_eq render "$D/boxes.md5scene" --output="$T/eq/%05d.png" --size=32x24 --frames=1-2 \
    --background=1,0,0 --quiet
run r_default render "$D/boxes.md5scene" -o "$T/df/%05d.png" --size 32x24 --frames 1-2 --quiet
sums "$T/sp" >"$T/sp.sums" 2>/dev/null
sums "$T/eq" >"$T/eq.sums" 2>/dev/null
sums "$T/df" >"$T/df.sums" 2>/dev/null
check render_equals_form_writes_the_same_frames same "$T/sp.sums" "$T/eq.sums"
check render_writes_frames_1_and_2 [ "$(ls "$T/eq")" = "$(printf '00001.png\n00002.png')" ]
check render_background_took_effect differ "$T/sp.sums" "$T/df.sums"

# ---- --quality: each word is its documented set of options, and the options given win ------
# The demo's output is 1280x720: draft is 640x360 (each side halved), --msaa 0, --shadows off;
# review the options' defaults; final --shadow-samples sample. Each part of draft took effect:
# draft differs from the same set with 4x MSAA and from it with shadows.
DEMO=../scenes/demo/demo.md5scene
q() { # name args...: frame 0 of the demo as a PNG in $T/name/
    local name=$1
    shift
    run "$name" render "$DEMO" -o "$T/$name/%02d.png" --frames 0 --quiet "$@"
}
q q_draft --quality draft
q q_draft_set --size 640x360 --msaa 0 --shadows off
q q_draft_msaa --size 640x360 --msaa 4 --shadows off
q q_draft_shadows --size 640x360 --msaa 0 --shadows on
q q_draft_given --quality draft --size 160x90 --msaa 4 --shadows on
q q_plain --size 160x90
q q_review --size 160x90 --quality review
q q_final --size 160x90 --quality final
q q_final_set --size 160x90 --shadow-samples sample
for n in draft draft_set draft_msaa draft_shadows draft_given plain review final final_set; do
    sums "$T/q_$n" >"$T/q_$n.sums" 2>/dev/null
done
check quality_draft_is_half_size_no_msaa_no_shadows same "$T/q_draft.sums" "$T/q_draft_set.sums"
check quality_draft_is_640x360 [ "$(ffprobe -v error -show_entries stream=width,height -of csv=p=0 "$T/q_draft/00.png")" = 640,360 ]
check quality_draft_msaa_took_effect differ "$T/q_draft.sums" "$T/q_draft_msaa.sums"
check quality_draft_shadows_took_effect differ "$T/q_draft.sums" "$T/q_draft_shadows.sums"
check quality_options_given_win_over_draft same "$T/q_draft_given.sums" "$T/q_plain.sums"
check quality_review_is_the_default same "$T/q_review.sums" "$T/q_plain.sums"
check quality_final_is_shadow_samples_sample same "$T/q_final.sums" "$T/q_final_set.sums"
check quality_final_differs_from_review differ "$T/q_final.sums" "$T/q_review.sums"
usage_error quality_other_word "bad --quality 'fast'" render "$DEMO" -o "$T/x.mp4" --quality fast

run i_space info "$CAM" --timeline --fps 48
run i_eq info "$CAM" --timeline --fps=48
run i_default info "$CAM" --timeline
check info_equals_form_prints_the_same same "$T/i_space.out" "$T/i_eq.out"
check info_fps_took_effect differ "$T/i_space.out" "$T/i_default.out"

run e_space export "$MESH" "$ANIM" --frame 3 -o "$T/e_space.obj"
run e_eq export "$MESH" "$ANIM" --frame=3 --output="$T/e_eq.obj"
run e_bind export "$MESH" -o "$T/e_bind.obj"
grep '^v ' "$T/e_space.obj" >"$T/e_space.v"
grep '^v ' "$T/e_eq.obj" >"$T/e_eq.v"
grep '^v ' "$T/e_bind.obj" >"$T/e_bind.v"
check export_equals_form_writes_the_same_vertices same "$T/e_space.v" "$T/e_eq.v"
check export_frame_took_effect differ "$T/e_space.v" "$T/e_bind.v"

run c_space compare "$T/sp/00001.png" "$T/df/00001.png" --threshold 0 --max-failing-share 1 --json
rc_space=$rc
run c_eq compare "$T/sp/00001.png" "$T/df/00001.png" --threshold=0 --max-failing-share=1 --json
rc_eq=$rc
run c_default compare "$T/sp/00001.png" "$T/df/00001.png" --json
check compare_equals_form_prints_the_same same "$T/c_space.out" "$T/c_eq.out"
check compare_equals_form_exits_the_same [ "$rc_space" = "$rc_eq" ]
check compare_threshold_took_effect differ "$T/c_space.out" "$T/c_default.out"

# ---- errors name the option ---------------------------------------------------------------
for cmd_flag in render:--lenient info:--json export:--loop compare:--json doctor:--json; do
    cmd=${cmd_flag%%:*}
    flag=${cmd_flag#*:}
    usage_error "${cmd}_unknown_option" "unknown option '--no-such'" "$cmd" --no-such
    usage_error "${cmd}_flag_with_a_value" "option '$flag' takes no value" "$cmd" "$flag=1"
done
usage_error render_missing_value "option '--size' needs a value" render "$D/boxes.md5scene" --size
usage_error info_missing_value "option '--fps' needs a value" info "$CAM" --fps
usage_error export_missing_value "option '--frame' needs a value" export "$MESH" "$ANIM" --frame
usage_error compare_missing_value "option '--threshold' needs a value" compare a b --threshold
usage_error render_empty_equals_value "bad --crf ''" render "$D/boxes.md5scene" -o x.mp4 --crf=
usage_error render_bad_int "bad --crf '52': expected 1..51" render "$D/boxes.md5scene" -o x.mp4 \
    --crf=52
usage_error export_bad_number "bad --time 'soon': expected a number" export "$MESH" "$ANIM" \
    --time=soon -o "$T/x.obj"
usage_error compare_bad_double "bad --min-ssim '2'" compare a b --min-ssim 2
usage_error render_short_alias_takes_no_equals "unknown option '-o=x.mp4'" render \
    "$D/boxes.md5scene" -o=x.mp4
usage_error compare_three_sources "unexpected argument 'c': compare takes two sources" \
    compare a b c
usage_error export_needs_a_mesh "'export' needs a mesh" export -o "$T/x.obj"

# "--" ends the options: what follows is a file name, even one that starts with '-'.
run dashdash info -- --timeline.md5camera
check double_dash_exits_2_for_the_missing_file [ "$rc" = 2 ]
check double_dash_makes_a_file_name has "cannot open '--timeline.md5camera'" "$T/dashdash.err"
check double_dash_is_not_an_unknown_option lacks "unknown option" "$T/dashdash.err"

# ---- --help -------------------------------------------------------------------------------
for cmd in render info export compare sheet doctor; do
    run "${cmd}_help" "$cmd" --help
    check "${cmd}_help_exits_0" [ "$rc" = 0 ]
    check "${cmd}_help_prints_the_usage" has "usage: md5cine $cmd" "$T/${cmd}_help.out"
    run "${cmd}_h" "$cmd" -h
    check "${cmd}_h_is_help" same "$T/${cmd}_help.out" "$T/${cmd}_h.out"
done
# The table of comparison limits (docs/review-and-ci.md) names options compare --help must list.
limits=$(sed -n '/^## Comparing frames/,/^## /p' ../docs/review-and-ci.md | grep '^| ' |
    grep -oE -- '`--[a-z][a-z-]*`' | tr -d '`' | sort -u)
check "the_limits_table_names_the_7_limits" [ "$(wc -w <<<"$limits")" -eq 7 ]
for opt in $limits; do
    check "compare_help_lists_$opt" grep -q -- "^  \(-[a-z], \)\?$opt\b" "$T/compare_help.out"
done

finish
