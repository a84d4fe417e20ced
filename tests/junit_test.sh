#!/bin/bash
# --junit FILE (render --reference and compare): the file validates against the JUnit schema
# in data/junit/junit.xsd (written from what Jenkins and GitLab read), and the schema really
# validates (a test case without a name, a count that is not a number, a failure outside a test
# case are each rejected). Its test cases are the shots and agree with the JSON of the same
# check: counts, names, the failing frames of each shot.
# The demo at 160x90, frames 0-90 (shot 1 is output frames 0-83, shot 2 84-167: make_camera.py
# cuts at 3.5 s and 7 s at 24 fps). The reference PNGs of frames 82, 83 and 85 get a magenta
# 40x40 square drawn by ImageMagick, so exactly those frames fail: two in shot 1, one in shot 2.
# compare takes the shots from the candidate MP4's chapters, read here independently with
# ffprobe; with two PNG folders there are no chapters and one test case holds every frame.
set -u
. ./harness.sh junit
XSD=data/junit/junit.xsd

cp -r ../scenes/demo "$T/demo"
scene="$T/demo/demo.md5scene"
"$M" render "$scene" --size 160x90 --frames 0-90 -o "$T/ref/%05d.png" --quiet &&
    "$M" render "$scene" --size 160x90 --frames 0-90 -o "$T/new/%05d.png" --quiet &&
    "$M" render "$scene" --size 160x90 --frames 0-90 -o "$T/new.mp4" --quiet ||
    { echo "FAIL cannot render"; exit 1; }
for f in 82 83 85; do
    convert "$T/ref/000$f.png" +antialias -fill '#ff00ff' -draw 'rectangle 10,20 49,59' \
        "$T/ref/000$f.png" || { echo "FAIL cannot edit frame $f"; exit 1; }
done

# ---- the schema rejects what it must --------------------------------------------------------
good='<testsuites><testsuite name="s" tests="1"><testcase name="c" classname="k"><failure message="m" type="t">x</failure></testcase></testsuite></testsuites>'
echo "$good" >"$T/good.xml"
echo "${good/testcase name=\"c\" /testcase }" >"$T/noname.xml"
echo "${good/tests=\"1\"/tests=\"one\"}" >"$T/nan.xml"
echo '<testsuites><testsuite name="s" tests="1"><failure message="m"/></testsuite></testsuites>' \
    >"$T/loose.xml"
check schema_accepts_a_minimal_report xmllint --noout --schema "$XSD" "$T/good.xml"
for bad in noname nan loose; do
    if xmllint --noout --schema "$XSD" "$T/$bad.xml" 2>/dev/null; then
        fail "schema_rejects_$bad" "xmllint accepted it"
    else
        ok "schema_rejects_$bad"
    fi
done

# ---- render --reference -------------------------------------------------------------------
"$M" render "$scene" --size 160x90 --frames 0-90 --reference "$T/ref" --junit "$T/render.xml" \
    --json --quiet >"$T/render.json" 2>"$T/render.err"
rc=$?
check render_exits_1 [ "$rc" -eq 1 ]
check render_junit_validates xmllint --noout --schema "$XSD" "$T/render.xml"
check render_leaves_no_temporary [ -z "$(ls -A "$T" | grep '^\.')" ]

# agree XML JSON CLASS NAME... : the suite has one case per NAME, in order, and each case's
# failing frames (and the counts) are those of the JSON rows in the frames of its name.
agree() {
    python3 - "$@" <<'EOF'
import json, re, sys
import xml.etree.ElementTree as ET
xml_path, json_path, cls, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
rows = json.load(open(json_path))["frames"]
root = ET.parse(xml_path).getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1, len(suites)
cases = suites[0].findall("testcase")
got = [c.get("name") for c in cases]
assert got == names, (got, names)
fails = 0
for c in cases:
    assert c.get("classname") == cls, c.get("classname")
    a, b = map(int, re.search(r"frames (\d+)-(\d+)", c.get("name")).groups())
    mine = [r for r in rows if a <= r["frame"] <= b]
    bad = [r["frame"] for r in mine if not r["pass"]]
    f = c.find("failure")
    if not bad:
        assert f is None and c.find("error") is None, c.get("name")
        continue
    fails += 1
    assert f is not None, c.get("name")
    assert f.get("message") == "%d of %d frames differ" % (len(bad), len(mine)), f.get("message")
    assert f.get("type") == "failed", f.get("type")
    listed = [int(m) for m in re.findall(r"^frame (\d+): failed", f.text, re.M)]
    assert listed == bad, (listed, bad)
for el in (root, suites[0]):
    assert int(el.get("tests")) == len(cases), el.get("tests")
    assert int(el.get("failures")) == fails, (el.get("failures"), fails)
    assert int(el.get("errors")) == 0
    assert float(el.get("time")) >= 0
EOF
}
check render_cases_are_the_shots_and_agree_with_json \
    agree "$T/render.xml" "$T/render.json" md5cine.demo "shot 1 (frames 0-83)" \
    "shot 2 (frames 84-90)"
check render_failing_frames_are_82_83_85 python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))["frames"]
sys.exit([r["frame"] for r in rows if not r["pass"]] != [82, 83, 85])' "$T/render.json"

# ---- compare with an MP4's chapters ---------------------------------------------------------
"$M" compare "$T/ref" "$T/new.mp4" --junit "$T/mp4.xml" --json >"$T/mp4.json" 2>"$T/mp4.err"
rc=$?
check compare_mp4_exits_1 [ "$rc" -eq 1 ]
check compare_mp4_junit_validates xmllint --noout --schema "$XSD" "$T/mp4.xml"
# The shot names from ffprobe's chapters: frames start_time * 24 .. end_time * 24 - 1.
mapfile -t shots < <(ffprobe -v error -show_chapters -of json "$T/new.mp4" | python3 -c '
import json, sys
for c in json.load(sys.stdin)["chapters"]:
    n = c["tags"]["title"].split()[1]
    print("shot %s (frames %d-%d)" % (n, round(float(c["start_time"]) * 24),
                                     round(float(c["end_time"]) * 24) - 1))')
check ffprobe_sees_two_chapters [ "${#shots[@]}" -eq 2 ]
check compare_mp4_cases_are_the_chapters \
    agree "$T/mp4.xml" "$T/mp4.json" md5cine.ref "${shots[@]}"

# ---- compare of two folders: one group ------------------------------------------------------
"$M" compare "$T/ref" "$T/new" --junit "$T/png.xml" --json >"$T/png.json" 2>"$T/png.err"
check compare_png_junit_validates xmllint --noout --schema "$XSD" "$T/png.xml"
check compare_png_is_one_case_for_all_frames \
    agree "$T/png.xml" "$T/png.json" md5cine.ref "all frames (frames 0-90)"
# --scene gives the folders the scene's shots, cut to the frames compared, as render has them.
"$M" compare "$T/ref" "$T/new" --scene "$scene" --junit "$T/scene.xml" --json >"$T/scene.json" \
    2>"$T/scene.err"
check compare_scene_exits_1 [ $? -eq 1 ]
check compare_scene_junit_validates xmllint --noout --schema "$XSD" "$T/scene.xml"
check compare_scene_cases_are_the_scene_shots \
    agree "$T/scene.xml" "$T/scene.json" md5cine.demo "shot 1 (frames 0-83)" \
    "shot 2 (frames 84-90)"
"$M" compare "$T/ref" "$T/new" --scene "$scene" --frames 84-90 --junit "$T/scene2.xml" --json \
    >"$T/scene2.json" 2>"$T/scene2.err"
check compare_scene_frames_is_shot_2_only \
    agree "$T/scene2.xml" "$T/scene2.json" md5cine.demo "shot 2 (frames 84-90)"

# ---- escaping: a reference folder whose name holds markup -----------------------------------
odd="$T/a&b<\"c\">"
cp -r "$T/ref" "$odd"
"$M" compare "$odd" "$T/new" --junit "$T/odd.xml" --quiet 2>"$T/odd.err"
check odd_name_validates xmllint --noout --schema "$XSD" "$T/odd.xml"
check odd_name_is_read_back python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
sys.exit(s.get("name") != sys.argv[2] or
         s.find("testcase").get("classname") != "md5cine.a_b__c__")' "$T/odd.xml" "$odd"

# ---- whole or absent ------------------------------------------------------------------------
"$M" compare "$T/ref" "$T/new" --junit "$T/ref/00000.png/x.xml" --quiet 2>"$T/nodir.err"
rc=$?
check unwritable_junit_exits_3 [ "$rc" -eq 3 ]
check unwritable_junit_says_why grep -q "x.xml" "$T/nodir.err"

finish
