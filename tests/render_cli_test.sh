#!/bin/bash
# 'md5cine render' end to end, on the hand-made scenes of data/render/ (see each file's comments):
#
#   boxes.md5scene   cuts.md5camera (8 stored frames, cuts after 2 and 5, 24 fps) looking down +X
#                    from 100 inches in front of a red box (shot 0), a blue box (shot 1) and a
#                    green box (shot 2); 64x64, black background.
#   drone.md5scene   the Red Eclipse drone walking (forward.md5anim, 12 frames at 24 fps) under a
#                    one-frame camera; 128x128. drone_idle: the same with the idle anim.
#
# Expected values are worked out by hand here, from DESIGN.md 2.1 and the projection of
# include/md5cine/view.h; pixels are read with ImageMagick, videos with ffprobe.
set -u
. ./harness.sh render_cli
D=data/render

# render NAME ARGS...: runs md5cine render as run does
render() {
    local name=$1
    shift
    run "$name" render "$@"
}

# rgb FILE X Y -> "r,g,b" (0..255); alpha FILE X Y -> 0..255
rgb() {
    convert "$1" -format "%[fx:int(255*p{$2,$3}.r+0.5)],%[fx:int(255*p{$2,$3}.g+0.5)],%[fx:int(255*p{$2,$3}.b+0.5)]" info:
}
# coverage FILE -> "minx maxx miny maxy n" of the pixels with alpha > 0
coverage() {
    convert "$1" -alpha extract -depth 8 txt:- | awk -F'[,: ()]+' 'NR > 1 && $4 > 0 {
        if (n == 0 || $1 < x0) x0 = $1; if ($1 > x1) x1 = $1;
        if (n == 0 || $2 < y0) y0 = $2; if ($2 > y1) y1 = $2; n++ }
        END { print x0 + 0, x1 + 0, y0 + 0, y1 + 0, n + 0 }'
}
# alpha_where FILE AWK-CONDITION-ON-x,y -> "min max" of alpha over the pixels where it holds
alpha_where() {
    convert "$1" -alpha extract -depth 8 txt:- | awk -F'[,: ()]+' -v OFS=' ' "NR > 1 {
        x = \$1; y = \$2; a = \$4; if ($2) { if (n == 0 || a < lo) lo = a; if (a > hi) hi = a; n++ } }
        END { print lo + 0, hi + 0 }"
}
# bbox FILE -> "minx maxx miny maxy n" of the pixels that differ from pixel (0,0) (the
# background) by more than 8 levels in RGB distance
bbox() {
    convert "$1" -depth 8 txt:- | awk -F'[,: ()]+' 'NR == 2 { r = $4; g = $5; b = $6 }
        NR > 1 { d = ($4 - r)^2 + ($5 - g)^2 + ($6 - b)^2; if (d > 64) {
        if (n == 0 || $1 < x0) x0 = $1; if ($1 > x1) x1 = $1;
        if (n == 0 || $2 < y0) y0 = $2; if ($2 > y1) y1 = $2; n++ } }
        END { print x0 + 0, x1 + 0, y0 + 0, y1 + 0, n + 0 }'
}
no_tmp_files() { [ -z "$(find "$1" -name '.*.tmp' 2>/dev/null)" ]; }

# ---- the timeline decides the frames -------------------------------------------------------
# cuts.md5camera: N = 8, cuts 2 and 5, 24 fps rendered at 24 fps: output k has p = k, and
# f = k, +1 once f >= 2, +1 again once f >= 5: k = 0..5 -> stored 0 1 3 4 6 7, and k = 5 gives
# f = 7 > N - 2 = 6, the first ended frame, so K = 6 output frames; shots 0 0 1 1 2 2.
K=$("$M" info "$D/cuts.md5camera" --json | sed -n 's/.*"outputFrames":\([0-9]*\).*/\1/p')
check "info_agrees_the_cut_camera_has_6_output_frames" [ "$K" = 6 ]

render png "$D/boxes.md5scene" -o "$T/png/%05d.png" --shading unlit --quiet
expect renders_a_scene_to_pngs 0
n=$(ls "$T/png" | wc -l)
check "writes_exactly_one_png_per_output_frame" [ "$n" = 6 ]
check "names_pngs_by_output_frame_number" [ -f "$T/png/00000.png" -a -f "$T/png/00005.png" ]

# Unlit, the boxes show their textures' pure colours; the centre pixel (32, 32) lies on the
# front face of the box the shot looks at.
want=(255,0,0 255,0,0 0,0,255 0,0,255 0,255,0 0,255,0)
got=()
for k in 0 1 2 3 4 5; do got+=("$(rgb "$T/png/0000$k.png" 32 32)"); done
check "each_shot_shows_its_own_box_from_the_frame_after_its_cut" [ "${got[*]}" = "${want[*]}" ]
check "the_background_is_black_around_the_box" [ "$(rgb "$T/png/00002.png" 5 5)" = 0,0,0 ]

# --fps 48 on the 24 fps camera: p = k / 2. Stored 2 and 5 are skipped as above, so the
# camera ends at the first k with floor(k / 2) = 5, k = 10: 11 frames. Shot 1 (blue) opens at
# k = 4 (p = 2 -> stored 3), shot 2 at k = 8 (p = 4 -> f = 4 + 2 = 6); k = 3 is p = 1.5,
# between stored 1 and 2, still red.
render fps48 "$D/boxes.md5scene" -o "$T/fps48/%03d.png" --fps 48 --shading unlit --quiet
K48=$("$M" info "$D/cuts.md5camera" --json --fps 48 | sed -n 's/.*"outputFrames":\([0-9]*\).*/\1/p')
check "fps_48_writes_11_frames_as_info_says" [ "$(ls "$T/fps48" | wc -l)" = 11 -a "$K48" = 11 ]
got="$(rgb "$T/fps48/003.png" 32 32) $(rgb "$T/fps48/004.png" 32 32) $(rgb "$T/fps48/008.png" 32 32)"
check "fps_48_cuts_at_frames_4_and_8" [ "$got" = "255,0,0 0,0,255 0,255,0" ]

# ---- same input, same pixels ---------------------------------------------------------------
render same1 "$D/boxes.md5scene" -o "$T/same1/%05d.png" --quiet
render same2 "$D/boxes.md5scene" -o "$T/same2/%05d.png" --quiet
check "two_renders_of_the_same_scene_are_identical" diff -r "$T/same1" "$T/same2"
render drone1 "$D/drone.md5scene" -o "$T/drone1/%05d.png" --quiet
render drone2 "$D/drone.md5scene" -o "$T/drone2/%05d.png" --quiet
check "two_renders_of_a_skinned_actor_are_identical" diff -r "$T/drone1" "$T/drone2"
# drone: a one-frame camera lasts as long as the longest anim: floor(11 / 24 * 24) + 1 = 12
check "a_one_frame_camera_lasts_as_long_as_the_anim" [ "$(ls "$T/drone1" | wc -l)" = 12 ]

# ---- transparent background: the covered pixels are the projected front face ---------------
# Camera at x = -100 looking down +X, fov 90 on a 64x64 output (fov_y = 90 too). The front face
# x = 0 is 100 inches away; y, z = +-25 project to ndc +-25/100 = +-0.25, i.e. pixel edges
# (1 -+ 0.25) * 32 = 24 and 40 both ways: pixels 24..39 covered, 16 x 16 = 256 of them. The
# sides and back of the box project inside that square (farther away). Margin: 2 pixels.
render alpha "$D/boxes.md5scene" -o "$T/alpha/%05d.png" --background none --frames 0-0 --quiet
expect background_none_renders 0
read -r lo hi <<<"$(alpha_where "$T/alpha/00000.png" 'x >= 26 && x <= 37 && y >= 26 && y <= 37')"
check "background_none_is_opaque_on_the_actor" [ "$lo" = 255 -a "$hi" = 255 ]
read -r lo hi <<<"$(alpha_where "$T/alpha/00000.png" 'x < 22 || x > 41 || y < 22 || y > 41')"
check "background_none_is_transparent_where_no_actor_covers" [ "$lo" = 0 -a "$hi" = 0 ]
read -r x0 x1 y0 y1 cnt <<<"$(coverage "$T/alpha/00000.png")"
check "the_covered_area_is_the_hand_projected_square" \
    [ "$x0" -ge 23 -a "$x0" -le 25 -a "$x1" -ge 38 -a "$x1" -le 40 -a "$y0" -ge 23 -a "$y0" -le 25 \
      -a "$y1" -ge 38 -a "$y1" -le 40 ]

# PNG alpha is straight: an antialiased edge pixel keeps the surface's colour and only its alpha
# says how much of the pixel it covers. Laid over black (rgb * alpha / 255, done by ImageMagick)
# it must then give the render on a black background, to within rounding (1 level).
render alpha_drone "$D/drone.md5scene" -o "$T/alpha_drone/%05d.png" --background none --frames 0-0 \
    --quiet
render black_drone "$D/drone.md5scene" -o "$T/black_drone/%05d.png" --background 0,0,0 --frames 0-0 \
    --quiet
convert "$T/alpha_drone/00000.png" -background black -alpha remove -alpha off "$T/alpha_flat.png"
check "background_none_edges_laid_over_black_match_a_black_background" \
    "$M" compare "$T/black_drone/00000.png" "$T/alpha_flat.png" --threshold 1 \
    --max-failing-share 0 --quiet

# ---- --frames: output numbering, validated against the frame count -------------------------
render range "$D/boxes.md5scene" -o "$T/range/%05d.png" --frames 3-3 --shading unlit --quiet
check "frames_3_3_writes_only_00003" [ "$(ls "$T/range")" = 00003.png ]
check "frame_3_is_still_the_blue_shot" [ "$(rgb "$T/range/00003.png" 32 32)" = 0,0,255 ]
render range_bad "$D/boxes.md5scene" -o "$T/range_bad/%05d.png" --frames 5-6
expect frames_beyond_the_last_output_frame_are_rejected 2 "" "outside the scene's frames 0-5"
check "a_rejected_range_creates_no_output" [ ! -e "$T/range_bad" ]

# ---- goldens -------------------------------------------------------------------------------
# render_cli_cut_f02.png: boxes frame 2, lit: the first frame of shot 1. Hand checks: the
# non-background area is the projected square 24..39 (above) and its centre is blue.
render gold_cut "$D/boxes.md5scene" -o "$T/gold/cut_%02d.png" --frames 2-2 --quiet
read -r x0 x1 y0 y1 cnt <<<"$(bbox "$T/gold/cut_02.png")"
check "golden_cut_frame_covers_the_projected_square" [ "$x0 $x1 $y0 $y1 $cnt" = "24 39 24 39 256" ]
IFS=, read -r r g b <<<"$(rgb "$T/gold/cut_02.png" 32 32)"
check "golden_cut_frame_is_blue_after_the_cut" [ "$b" -gt 100 -a "$r" -lt 40 -a "$g" -lt 40 ]
"$M" compare golden/render_cli_cut_f02.png "$T/gold/cut_02.png" >"$T/gold_cut.cmp" 2>&1
check "frame_after_a_cut_matches_its_golden" [ $? = 0 ]

# render_cli_drone_f06.png: drone frame 6 = 0.25 s into the walk (anim frame 6 of 12). Hand
# checks: camera 100 inches away at z = 34, fov 60 on 128 pixels: 64 / tan(30) = 110.9 pixels
# per unit of ndc, 1.109 pixels per inch at the drone's distance. The drone (about 67 inches
# tall, feet near z = 0) spans rows 64 - (67 - 34) * 1.109 = 27 to 64 + 34 * 1.109 = 102, and
# stands centred (origin on the view axis): allow 8 pixels for its depth and pose.
render gold_drone "$D/drone.md5scene" -o "$T/gold/drone_%02d.png" --frames 6-6 --quiet
read -r x0 x1 y0 y1 cnt <<<"$(bbox "$T/gold/drone_06.png")"
check "golden_drone_spans_the_hand_computed_rows" \
    [ "$y0" -ge 19 -a "$y0" -le 35 -a "$y1" -ge 94 -a "$y1" -le 110 ]
check "golden_drone_stands_in_the_middle" [ $((x0 + x1)) -ge 112 -a $((x0 + x1)) -le 144 ]
"$M" compare golden/render_cli_drone_f06.png "$T/gold/drone_06.png" >"$T/gold_d.cmp" 2>&1
check "skinned_actor_mid_animation_matches_its_golden" [ $? = 0 ]
"$M" compare "$T/drone1/00000.png" "$T/gold/drone_06.png" >"$T/gold_d0.cmp" 2>&1
check "the_walk_moves_the_drone_between_frames_0_and_6" [ $? = 1 ]

# ---- bad scenes fail before rendering, with a position, and create nothing -----------------
render bad_kw "$D/bad/unknown_keyword.md5scene" -o "$T/bad/kw.mp4"
expect unknown_keyword_is_an_input_error_with_position 2 "" "unknown_keyword.md5scene:5:5: error:"
render bad_mesh "$D/bad/missing_mesh.md5scene" -o "$T/bad/mesh.mp4"
expect missing_mesh_is_an_input_error_with_position 2 "" "missing_mesh.md5scene:4:10: error:"
render bad_anim "$D/bad/mismatch.md5scene" -o "$T/bad/anim.mp4"
expect mesh_anim_mismatch_is_an_input_error_naming_the_joint 2 "" "joint 'root'"
check "bad_scenes_leave_no_output_and_no_folder" [ ! -e "$T/bad" ]
render no_tex "$D/no_texture.md5scene" -o "$T/notex/%05d.png" --frames 0-0 --quiet
expect missing_texture_is_a_warning_naming_the_shader 0 "" "warning: no image for shader 'box'"
check "missing_texture_still_renders" [ -f "$T/notex/00000.png" ]

# ---- MP4 -----------------------------------------------------------------------------------
render mp4 "$D/boxes.md5scene" -o "$T/boxes.mp4" --quiet
expect renders_a_scene_to_mp4 0
probe=$(ffprobe -v error -select_streams v -show_entries \
    stream=codec_name,pix_fmt,width,height,color_space,color_primaries,color_transfer,nb_frames \
    -of default=nw=1 "$T/boxes.mp4" | sort | tr '\n' ' ')
check "mp4_is_h264_yuv420p_bt709_64x64_with_6_frames" [ "$probe" = \
    "codec_name=h264 color_primaries=bt709 color_space=bt709 color_transfer=bt709 height=64 nb_frames=6 pix_fmt=yuv420p width=64 " ]
dur=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$T/boxes.mp4")
# 6 frames at 24 fps = 0.25 s
check "mp4_lasts_output_frames_over_fps" [ "$dur" = 0.250000 ]
keys=$(ffprobe -v error -select_streams v -show_frames -show_entries frame=key_frame -of csv=p=0 \
    "$T/boxes.mp4" | cut -c1 | tr -d '\n')
# shot starts at output frames 0, 2, 4 (see the top); nothing else is a keyframe
check "mp4_keyframes_are_exactly_the_shot_starts" [ "$keys" = 101010 ]
chapters=$(ffprobe -v error -show_chapters -of csv=p=0 "$T/boxes.mp4" | wc -l)
check "mp4_has_one_chapter_per_shot" [ "$chapters" = 3 ]
# Against the lossless render of the same frames: PSNR >= 40 dB (grey drone: 4:2:0 video
# cannot keep saturated colour edges at this size, so the coloured scenes are not used here).
render grey_png "$D/drone_grey.md5scene" -o "$T/grey/%05d.png" --quiet
render grey_mp4 "$D/drone_grey.md5scene" -o "$T/grey.mp4" --quiet
"$M" compare "$T/grey" "$T/grey.mp4" --min-psnr 40 >"$T/grey.cmp" 2>&1
check "mp4_frames_are_within_40_db_of_the_png_render" [ $? = 0 ]

# ---- yuv4mpeg2 on stdout -------------------------------------------------------------------
"$M" render "$D/boxes.md5scene" -o - --quiet >"$T/boxes.y4m" 2>"$T/y4m.err"
check "dash_writes_y4m_to_stdout" [ $? = 0 ]
check "y4m_header_names_size_and_rate" [ "$(head -c 22 "$T/boxes.y4m")" = "YUV4MPEG2 W64 H64 F24:" ]
check "y4m_has_one_FRAME_per_output_frame" [ "$(grep -a -o FRAME "$T/boxes.y4m" | wc -l)" = 6 ]
# every frame is "FRAME\n" plus 64 * 64 * 3 / 2 = 6144 bytes of yuv420p
hdr=$(head -n 1 "$T/boxes.y4m" | wc -c)
check "y4m_size_is_header_plus_6_frames" [ "$(stat -c %s "$T/boxes.y4m")" = $((hdr + 6 * 6150)) ]

"$M" render "$D/boxes.md5scene" -o - --progress json >"$T/y4mj.out" 2>"$T/y4mj.err"
check "json_progress_goes_to_stderr_when_stdout_carries_video" \
    [ "$(head -c 9 "$T/y4mj.out")" = YUV4MPEG2 -a "$(grep -c '"frame":5,"done":6,"total":6' "$T/y4mj.err")" = 1 ]

# ---- failure paths -------------------------------------------------------------------------
# An interrupt during encoding: no output, no temporary file, status 128 + signal.
for sig in INT TERM; do
    mkdir -p "$T/int$sig"
    interrupt "int$sig" "$sig" . render "$D/long.md5scene" -o "$T/int$sig/long.mp4" --progress json
    want=$((128 + $(kill -l "$sig")))
    expect "sig${sig}_during_encoding_exits_$want" "$want" "" "removed partial output"
    check "sig${sig}_leaves_no_output_and_no_temporary_file" [ -z "$(ls -A "$T/int$sig")" ]
done

# Only md5cine's own thread runs the signal handler: every other thread (the GL driver's, started
# by mc_renderer_create with signals blocked, x264's, the frame sinks') blocks SIGINT
# (bit 2 of /proc's SigBlk mask) and SIGTERM (bit 15), while the main thread takes both.
"$M" render "$D/long.md5scene" -o "$T/masks.mp4" --progress json >"$T/masks.out" 2>"$T/masks.err" &
pid=$!
for _ in $(seq 1 600); do [ -s "$T/masks.out" ] && break; sleep 0.05; done
others=0
open=0
main_blocks=1
for st in /proc/"$pid"/task/*/status; do
    tid=${st%/status}
    tid=${tid##*/}
    blk=$(awk '/^SigBlk:/ { print $2 }' "$st")
    if [ "$tid" = "$pid" ]; then
        [ $((0x$blk & 0x4002)) = 0 ] && main_blocks=0
    else
        others=$((others + 1))
        [ $((0x$blk & 0x4002)) = $((0x4002)) ] || open=$((open + 1))
    fi
done
kill -INT "$pid"
wait "$pid"
check "threads_but_the_main_one_block_sigint_and_sigterm" [ "$others" -gt 1 -a "$open" = 0 ]
check "the_main_thread_takes_sigint_and_sigterm" [ "$main_blocks" = 0 ]

echo hello >"$T/file.txt"
render unwritable "$D/boxes.md5scene" -o "$T/file.txt/out.mp4"
expect unwritable_video_folder_is_a_runtime_error 3 "" "file.txt"
render unwritable_png "$D/boxes.md5scene" -o "$T/file.txt/f/%05d.png"
expect unwritable_png_folder_is_a_runtime_error 3 "" "file.txt"
render proc "$D/boxes.md5scene" -o /proc/md5cine-test.mp4
expect a_folder_that_refuses_files_is_a_runtime_error 3
# encode.h: odd sizes are rejected (4:2:0 needs even sizes), never padded; PNGs take any size.
render odd "$D/boxes.md5scene" -o "$T/odd.mp4" --size 63x64
expect odd_size_video_is_rejected 2 "" "63"
odd_left() { [ ! -e "$T/odd.mp4" ] && no_tmp_files "$T"; }
check "odd_size_video_leaves_nothing" odd_left
render odd_png "$D/boxes.md5scene" -o "$T/oddpng/%05d.png" --size 63x64 --frames 0-0 --quiet
check "odd_size_png_has_that_size" [ "$(identify -format %wx%h "$T/oddpng/00000.png")" = 63x64 ]
# A preset x264 does not know is a usage error (2) that lists the presets, not an encoder
# failure (3): x264's presets are ultrafast .. placebo (x264.h, x264_preset_names).
render bad_preset "$D/boxes.md5scene" -o "$T/bad_preset.mp4" --preset bogus
expect unknown_x264_preset_is_a_usage_error 2 "" "bad --preset 'bogus': expected ultrafast"
render slow_preset "$D/boxes.md5scene" -o "$T/slow_preset.mp4" --preset slow --frames 0-0 --quiet
expect known_x264_preset_is_accepted 0
render none_mp4 "$D/boxes.md5scene" -o "$T/none.mp4" --background none
expect background_none_with_video_is_a_usage_error 2 "" "background none"
render no_out "$D/boxes.md5scene"
expect render_without_output_is_a_usage_error 2 "" "-o OUT"
render bad_opt "$D/boxes.md5scene" -o "$T/x.mp4" --bogus
expect unknown_option_is_a_usage_error 2 "" "'--bogus'"
render bad_pat "$D/boxes.md5scene" -o "$T/frames.png"
expect png_output_without_frame_number_is_a_usage_error 2 "" "needs a frame number"

# ---- options -------------------------------------------------------------------------------
for bg in 1,0,0 255,0,0 '#ff0000'; do
    render "bg$bg" "$D/boxes.md5scene" -o "$T/bg/%05d.png" --frames 0-0 --background "$bg" --quiet
    check "background_${bg}_is_red" [ "$(rgb "$T/bg/00000.png" 2 2)" = 255,0,0 ]
done
render ovl "$D/boxes.md5scene" -o "$T/ovl/%05d.png" --frames 0-0 --overlay --background 1,1,1 --quiet
# The dark text box sits in the top-left corner of the white background; the bottom-right
# corner stays white.
check "overlay_draws_into_the_top_left_corner" [ "$(rgb "$T/ovl/00000.png" 5 5)" != 255,255,255 ]
check "overlay_leaves_the_rest_alone" [ "$(rgb "$T/ovl/00000.png" 60 60)" = 255,255,255 ]
render stats "$D/boxes.md5scene" -o "$T/stats/%05d.png" --stats --quiet
expect stats_prints_the_stages 0 "" "skinning"
for s in drawing readback "png write" "end to end"; do
    check "stats_names_$(echo "$s" | tr ' ' _)" grep -qF "$s" "$T/stats.err"
done

# ---- reference frames ----------------------------------------------------------------------
render ref_new "$D/drone.md5scene" --reference "$T/ref" --update-reference --quiet
expect update_reference_fills_an_empty_folder 0 "" ""
check "update_reference_wrote_all_12_frames" [ "$(ls "$T/ref" | wc -l)" = 12 ]
check "update_reference_says_what_it_wrote" grep -qF "12 written (12 missing" "$T/ref_new.out"
render ref_same "$D/drone.md5scene" --reference "$T/ref" --quiet
expect a_render_matches_its_own_references 0
check "matching_render_reports_all_frames_matched" grep -qF "12 matched" "$T/ref_same.out"
render ref_idle "$D/drone_idle.md5scene" --reference "$T/ref" --diff "$T/refdiff" --quiet
expect another_anim_fails_against_the_references 1
# The idle and walk anims hold different poses from frame 1 on: frame 6 must be listed.
check "the_failing_frames_are_named" grep -qE '^ +6 ' "$T/ref_idle.out"
check "failing_frames_and_diffs_are_written" [ -f "$T/refdiff/frame_00006.png" -a \
    -f "$T/refdiff/diff_00006.png" ]
rm "$T/ref/00003.png" "$T/ref/00007.png"
render ref_upd "$D/drone.md5scene" --reference "$T/ref" --update-reference --quiet
expect update_reference_restores_missing_frames 0
check "update_reference_names_the_frames_it_wrote" \
    grep -qF "2 written (2 missing, 0 failing): frames 3, 7" "$T/ref_upd.out"
check "update_reference_prints_one_line" [ "$(wc -l <"$T/ref_upd.out")" = 1 ]
check "update_reference_counts_two_written" grep -qF "2 written (2 missing, 0 failing)" \
    "$T/ref_upd.out"
render ref_mp4 "$D/drone_grey.md5scene" --reference "$T/grey.mp4" --quiet
expect a_render_matches_its_own_video_with_lossy_limits 0
render ref_and_out "$D/drone.md5scene" -o "$T/both/%05d.png" --reference "$T/ref" --quiet
expect output_and_reference_together 0
check "output_and_reference_writes_the_pngs_too" [ "$(ls "$T/both" | wc -l)" = 12 ]

finish
