#!/bin/bash
# --report DIR, opened in headless Chromium: the demo at 640x360, frames 78-90 (shot 1 is output
# frames 0-83, shot 2 84-167), against a reference in which ImageMagick drew a magenta square
# (x 10-49, y 20-59) into frames 82, 83 and 85. So exactly 82, 83 (shot 1) and 85 (shot 2) fail.
# - the page has one failing row per run of consecutive failing frames within a shot, in frame
#   order (82-83 and 85), before the shot summary and the passing frames; the changed region of
#   the frame each row shows is the square; every limit is printed, "off" for those off;
# - every <img> loaded (the page's own count on <body> after the DOM is dumped), and each
#   names a file in DIR; the page loads nothing from elsewhere;
# - the passing frames are listed per shot as ranges, the shot table counts two failures each;
# - the heat map is blue inside the square (the render is darker than magenta there), and the
#   thumbnails are 320x180 (half size);
# - the screenshot is not blank (many colours, spread);
# - DIR is whole or absent: no temporary folder is left, an interrupted compare leaves none.
set -u
. ./harness.sh report_html
no_temporaries() { [ -z "$(ls -A "$T" | grep '^\.rep')" ]; }

# interrupted WHAT SIG SECONDS REP ARGS...: md5cine ARGS --report $T/REP, sent SIG after SECONDS:
# either it stopped (128 + SIG) and left no REP, or it had finished and REP is whole; no
# temporary of REP is left either way
interrupted() {
    local what=$1 sig=$2 delay=$3 rep=$4 pid
    shift 4
    "$M" "$@" --report "$T/$rep" --quiet >/dev/null 2>"$T/$rep.err" &
    pid=$!
    sleep "$delay"
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    if [ "$rc" -eq $((128 + $(kill -l "$sig"))) ]; then
        check "interrupted_${what}_leaves_no_report" [ ! -e "$T/$rep" ]
    else
        check "finished_${what}_report_is_whole" [ -f "$T/$rep/index.html" ]
    fi
    check "interrupted_${what}_leaves_no_temporary" [ -z "$(ls -A "$T" | grep "^\.$rep")" ]
}

cp -r ../scenes/demo "$T/demo"
scene="$T/demo/demo.md5scene"
size=(--size 640x360 --frames 78-90)
"$M" render "$scene" "${size[@]}" -o "$T/ref/%05d.png" --quiet || { echo "FAIL render"; exit 1; }
for f in 82 83 85; do
    convert "$T/ref/000$f.png" +antialias -fill '#ff00ff' -draw 'rectangle 10,20 49,59' \
        "$T/ref/000$f.png" || { echo "FAIL cannot edit frame $f"; exit 1; }
done

"$M" render "$scene" "${size[@]}" --reference "$T/ref" --report "$T/rep" --json --quiet \
    >"$T/check.json" 2>"$T/render.err"
rc=$?
check render_exits_1 [ "$rc" -eq 1 ]
check report_page_exists [ -f "$T/rep/index.html" ]
check no_temporary_folder_is_left no_temporaries
check json_names_82_83_85 python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["frames"]
sys.exit([r["frame"] for r in rows if not r["pass"]] != [82, 83, 85])' "$T/check.json"
check page_loads_nothing_from_elsewhere python3 -c '
import re, sys
s = open(sys.argv[1]).read()
sys.exit(bool(re.search(r"https?:|<link|<script[^>]*src|@import|url\(", s)))' "$T/rep/index.html"

chrome --virtual-time-budget=10000 --dump-dom "file://$T/rep/index.html" >"$T/dom.html"
check chromium_dumped_the_dom grep -q '</html>' "$T/dom.html"
cat >"$T/dom.py" <<'EOF'
import sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.body, self.order, self.imgs, self.box, self.shots = {}, [], [], {}, {}
        self.row = None
        self.in_pass = False
        self.passing = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class", "")
        if tag == "body":
            self.body = a
        elif tag == "tr" and cls == "fail":
            self.row = int(a["data-frame"])
            self.order.append(("fail", (int(a["data-first"]), int(a["data-last"]))))
        elif tag == "tr" and "data-shot" in a:
            self.shots[a["data-shot"]] = int(a["data-failed"])
            self.order.append(("shot", None))
        elif tag == "dd" and cls == "region":
            self.box[self.row] = a["data-box"]
        elif tag == "img":
            self.imgs.append(a["src"])
        elif tag == "span" and cls == "pass":
            self.in_pass = True
            self.order.append(("pass", None))
    def handle_data(self, data):
        if self.in_pass:
            self.passing.append(data)
            self.in_pass = False

p = Page()
p.feed(open(sys.argv[1]).read())
what = sys.argv[2]
if what == "images":
    b = p.body
    ok = (int(b["data-images-total"]) == len(p.imgs) > 0 and
          int(b["data-images-loaded"]) == len(p.imgs) and int(b["data-images-failed"]) == 0)
    print(b, len(p.imgs))
elif what == "rows":
    ok = [f for k, f in p.order if k == "fail"] == [(82, 83), (85, 85)]
    print([f for k, f in p.order if k == "fail"])
elif what == "first":
    kinds = [k for k, f in p.order]
    ok = kinds == sorted(kinds, key=["fail", "shot", "pass"].index)
    print(kinds)
elif what == "boxes":
    ok = sorted(p.box.values()) == ["10 20 49 59"] * 2 and 85 in p.box and \
        (82 in p.box) != (83 in p.box)
    print(p.box)
elif what == "passing":
    ok = p.passing == ["78-81", "84", "86-90"] and p.shots == {"1": 2, "2": 1}
    print(p.passing, p.shots)
elif what == "shown":
    print(sorted(p.box)[0])
    ok = True
elif what == "srcs":
    print("\n".join(p.imgs))
    ok = True
sys.exit(0 if ok else 1)
EOF
check every_image_loaded python3 "$T/dom.py" "$T/dom.html" images
check one_row_per_run_in_order python3 "$T/dom.py" "$T/dom.html" rows
check failing_rows_come_first python3 "$T/dom.py" "$T/dom.html" first
check changed_region_is_the_square python3 "$T/dom.py" "$T/dom.html" boxes
check passing_frames_as_ranges_per_shot python3 "$T/dom.py" "$T/dom.html" passing
missing=0
while read -r src; do [ -f "$T/rep/$src" ] || missing=$((missing + 1)); done \
    < <(python3 "$T/dom.py" "$T/dom.html" srcs)
check every_image_is_a_file_in_the_report [ "$missing" -eq 0 ]
shown=$(python3 "$T/dom.py" "$T/dom.html" shown)
check only_the_shown_frame_of_a_run_has_pictures \
    bash -c "[ -f '$T/rep/ref_000$shown.png' ] && [ \$(ls '$T/rep' | grep -c '^new_') = 2 ]"
check limits_print_off_for_the_limits_off \
    grep -qF "limits (lossless: threshold 4, failing share &lt;= 0.01 %, max diff off, SSIM &gt;= 0.95, PSNR off, block PSNR off, block bias off)" "$T/rep/index.html"
check thumbnails_are_half_size [ "$(identify -format '%wx%h' "$T/rep/tref_000$shown.png")" = 320x180 ]
# Thumbnail (15, 20) covers frame pixels (30-31, 40-41), inside the square.
px=$(convert "$T/rep/heat_000$shown.png" -format '%[fx:int(255*p{15,20}.r)] %[fx:int(255*p{15,20}.g)] %[fx:int(255*p{15,20}.b)]' info:)
check heat_map_is_blue_inside_the_square [ "$px" = "0 0 255" ]

chrome --virtual-time-budget=10000 --window-size=1400,1000 --screenshot="$T/shot.png" \
    "file://$T/rep/index.html" >/dev/null
read -r colours spread < <(convert "$T/shot.png" -format '%k %[fx:int(1000*standard_deviation)]' info:)
check screenshot_is_not_blank bash -c "[ '${colours:-0}' -gt 1000 ] && [ '${spread:-0}' -gt 50 ]"

# ---- a report replaces an earlier one, never another folder --------------------------------
"$M" render "$scene" "${size[@]}" --reference "$T/ref" --report "$T/rep" --quiet >/dev/null 2>&1
check an_earlier_report_is_replaced [ -f "$T/rep/index.html" ]
mkdir "$T/mine" && echo keep >"$T/mine/notes.txt"
"$M" render "$scene" "${size[@]}" --reference "$T/ref" --report "$T/mine" --quiet \
    >/dev/null 2>"$T/mine.err"
rc=$?
check another_folder_is_refused [ "$rc" -eq 2 ]
check another_folder_refusal_says_why grep -q "holds 'notes.txt', which no md5cine report writes" "$T/mine.err"
check another_folder_is_kept bash -c "[ \"\$(cat '$T/mine/notes.txt')\" = keep ] && [ ! -e '$T/mine/index.html' ]"

# ---- usage ---------------------------------------------------------------------------------
"$M" render "$scene" -o "$T/x.mp4" --report "$T/u" >/dev/null 2>"$T/u1.err"
rc=$?
check report_without_reference_is_usage [ "$rc" -eq 2 ]
check report_without_reference_says_why grep -q -- "--report needs --reference REF" "$T/u1.err"
"$M" render "$scene" --reference "$T/ref" --update-reference --report "$T/u" >/dev/null \
    2>"$T/u2.err"
rc=$?
check report_with_update_is_usage [ "$rc" -eq 2 ]
check report_with_update_says_why grep -q -- "--update-reference" "$T/u2.err"
check usage_errors_make_nothing bash -c "[ ! -e '$T/u' ] && [ ! -e '$T/x.mp4' ]"

# ---- interrupted: the report is absent ------------------------------------------------------
# compare of 91 frames decoded from an MP4 takes long enough for SIGTERM to come during the
# check; if it came after, the report is whole. Either way no temporary is left.
"$M" render "$scene" --size 640x360 --frames 0-90 -o "$T/long.mp4" --quiet &&
    "$M" render "$scene" --size 640x360 --frames 0-90 -o "$T/long/%05d.png" --quiet
interrupted compare TERM 0.4 rep2 compare "$T/long" "$T/long.mp4"

# The same for render: frames 0-90 against the MP4 of the same frames, SIGINT a second in.
interrupted render INT 1 rep3 render "$scene" --size 640x360 --frames 0-90 --reference "$T/long.mp4"

finish
