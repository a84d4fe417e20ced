#!/bin/bash
# --mask and --ignore on compare and render --reference: a change inside the ignored pixels
# passes, one outside fails; masks of another size, bad rectangles and masks that leave no pixel
# are bad input (exit 2).
# Frames and masks are drawn with ImageMagick.
set -u
. ./harness.sh mask

# a: a gradient; b: a with a red 8x8 square at (20, 20)
convert -size 96x64 gradient:'#304050-#101418' "$T/a.png"
convert "$T/a.png" -fill '#ff2020' -draw 'rectangle 20,20 27,27' "$T/b.png"
# masks: white (compared) with the square's surroundings black, transparent, or elsewhere
convert -size 96x64 xc:white -fill black -draw 'rectangle 16,16 31,31' "$T/black.png"
convert -size 96x64 xc:white -alpha set -fill none -draw 'color 0,0 reset' \
    -fill white -draw 'rectangle 0,0 95,15' -draw 'rectangle 0,32 95,63' \
    -draw 'rectangle 0,16 15,31' -draw 'rectangle 32,16 95,31' "$T/alpha.png"
convert -size 96x64 xc:white -fill black -draw 'rectangle 50,20 80,50' "$T/elsewhere.png"
convert -size 64x64 xc:white "$T/small.png"

run differ compare "$T/a.png" "$T/b.png"
expect differs_without_a_mask 1
run black compare "$T/a.png" "$T/b.png" --mask "$T/black.png"
expect change_under_black_mask_passes 0
run alpha compare "$T/a.png" "$T/b.png" --mask "$T/alpha.png" --json
expect change_under_transparent_mask_passes 0 '"masked": true'
run elsewhere compare "$T/a.png" "$T/b.png" --mask "$T/elsewhere.png"
expect change_outside_the_mask_fails 1
run ignore compare "$T/a.png" "$T/b.png" --ignore 18,18,12,12
expect change_inside_an_ignored_rectangle_passes 0
run ignore_part compare "$T/a.png" "$T/b.png" --ignore 18,18,12,12 --ignore 0,0,5,5 \
    --ignore 90,60,50,50
expect rectangles_repeat_and_are_clipped 0
run ignore_short compare "$T/a.png" "$T/b.png" --ignore 24,18,12,12
expect rectangle_covering_half_the_change_fails 1
run small compare "$T/a.png" "$T/b.png" --mask "$T/small.png"
expect mask_of_another_size_is_bad_input 2 '' "small.png: error: mask is 64x64, the frames are 96x64"
run nomask compare "$T/a.png" "$T/b.png" --mask "$T/none.png"
expect missing_mask_is_bad_input 2 '' "none.png"

# a mask and rectangles that leave nothing to compare would pass any pair: bad input
convert -size 96x64 xc:black "$T/allblack.png"
run allmasked compare "$T/a.png" "$T/b.png" --mask "$T/allblack.png"
expect a_mask_hiding_every_pixel_is_bad_input 2 '' "allblack.png: error: the mask leaves no pixel of the 96x64 frames to compare"
run allignored compare "$T/a.png" "$T/b.png" --ignore 0,0,50,64 --ignore 40,0,56,64
expect rectangles_covering_the_frame_are_bad_input 2 '' "md5cine: error: the ignored rectangles leave no pixel of the 96x64 frames to compare"
run allboth compare "$T/a.png" "$T/b.png" --mask "$T/elsewhere.png" --ignore 0,0,96,50 --ignore 0,50,50,14 --ignore 81,50,15,14 --ignore 50,51,31,13
expect mask_and_rectangles_covering_the_frame_are_bad_input 2 '' "elsewhere.png: error: the mask and the ignored rectangles leave no pixel"
run onepixel compare "$T/a.png" "$T/b.png" --ignore 0,0,96,63 --ignore 0,63,95,1
expect one_pixel_left_is_compared 0

# the --ignore parser: every malformed rectangle is a usage error naming it
for bad in "1,2,3" "1,2,3,4,5" "1,2,0,4" "1,2,3,-4" "a,2,3,4" "1,,3,4" ",1,2,3" "1,2,3,4," \
    "1 ,2,3,4" "99999999999,1,1,1" "1,2,3,70000" ""; do
    i=$((${i:-0} + 1))
    run "badrect$i" compare "$T/a.png" "$T/b.png" --ignore "$bad"
    expect "badrect$i" 2 '' "bad --ignore '$bad': expected x,y,w,h"
done
# `off` sets each limit to the value that cannot fail (the JSON's limits show it)
for pair in threshold:255 max-failing-share:1 max-diff:255 min-ssim:-1 min-psnr:0 \
    min-block-psnr:0 max-block-bias:255; do
    lim=${pair%%:*} val=${pair#*:}
    key=$(echo "$lim" | tr - _)
    [ "$lim" = max-diff ] && key=max_diff
    run "off_$lim" compare "$T/a.png" "$T/a.png" "--$lim" off --json
    expect "${lim}_accepts_off" 0 "\"$key\": $val,"
    run "typo_$lim" compare "$T/a.png" "$T/b.png" "--$lim" offf
    expect "${lim}_rejects_a_typo" 2 '' "bad --$lim 'offf'"
done
# every limit off passes any pair
run alloff compare "$T/a.png" "$T/b.png" --max-failing-share off --min-ssim off
expect every_limit_off_passes 0

# --report leaves the ignored pixels out of the changed region: c has the masked square and a
# second one at (60, 40)-(67, 47) outside the mask, so the page's box is exactly that square.
convert "$T/b.png" -fill '#20ff20' -draw 'rectangle 60,40 67,47' "$T/c.png"
run report compare "$T/a.png" "$T/c.png" --mask "$T/black.png" --report "$T/report"
expect a_masked_report_still_fails_outside 1
box=$(grep -o 'data-box="[0-9 ]*"' "$T/report/index.html" | head -n 1)
if [ "$box" = 'data-box="60 40 67 47"' ]; then ok the_report_box_leaves_out_the_mask
else fail the_report_box_leaves_out_the_mask "got '$box'"; fi

# render --reference with a mask: a 64x64 scene frame against a copy with a square painted in
scene=../scenes/demo/demo.md5scene
run ref render "$scene" --size 64x64 --frames 0-0 --msaa 0 -q -o "$T/ref/%05d.png"
if [ "$rc" -eq 0 ]; then
    convert "$T/ref/00000.png" -fill '#ff2020' -draw 'rectangle 20,20 27,27' "$T/ref/00000.png"
    convert -size 64x64 xc:white -fill black -draw 'rectangle 16,16 31,31' "$T/m64.png"
    run r_plain render "$scene" --size 64x64 --frames 0-0 --msaa 0 -q --reference "$T/ref"
    expect render_reference_sees_the_square 1
    run r_mask render "$scene" --size 64x64 --frames 0-0 --msaa 0 -q --reference "$T/ref" \
        --mask "$T/m64.png"
    expect render_reference_with_a_mask_passes 0
    run r_small render "$scene" --size 64x64 --frames 0-0 --msaa 0 -q --reference "$T/ref" \
        --mask "$T/a.png"
    expect render_mask_of_another_size_is_bad_input 2 '' "mask is 96x64, the frames are 64x64"
    run r_noref render "$scene" --size 64x64 --frames 0-0 -q -o "$T/x.png" --mask "$T/m64.png"
    expect mask_without_reference_is_a_usage_error 2 '' "need --reference REF"
else
    fail render_reference "could not render: $(head -c 300 "$T/ref.err")"
fi

finish
