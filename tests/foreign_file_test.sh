#!/bin/bash
# A scene names its files by any path (docs/hardening.md, "Scenes are trusted input"). A file that does not
# start as the MD5 format its keyword names (a system file outside the scene's folder, a comment
# then another kind of text) is named in the error without a position, and no byte of it is
# shown; a file that starts as its format is quoted as any input is (the token, the line, a
# caret); an empty file is at 1:1 with nothing to show.
set -u
. ./harness.sh foreign_file

mkdir -p "$T/outside" "$T/scene"
printf 'root:x:0:0:SECRET-ROOT:/root:/bin/bash\ndaemon:x:1:1:SECRET-DAEMON\n' >"$T/outside/passwd"
printf '// SECRET-COMMENT\n\nhello world\n' >"$T/outside/commented"
printf 'MD5Version 10\ncommandline ""\nnumFrames SHOWNTOKEN\n' >"$T/outside/started.md5camera"
: >"$T/outside/empty.md5camera"

# scene NAME KEYWORD-LINE: a scene of one camera or actor line, in its own folder
scene() {
    printf 'md5scene 1\n%s\n' "$2" >"$T/scene/$1.md5scene"
}
# scene_cam NAME ACTOR-LINE: the same after a camera line (a camera from the fixtures)
scene_cam() {
    printf 'md5scene 1\n%s\ncamera "%s"\n' "$2" "$PWD/data/scenes/still.md5camera" \
        >"$T/scene/$1.md5scene"
}

# hidden NAME KEYWORD FILE: the latest run exited 2 at the scene's line naming FILE, which cannot
# be loaded as KEYWORD for it is not an MD5 file, and no byte of FILE is shown (none of its
# SECRET words, no line of it)
hidden() {
    local want="error: cannot load $2: not an MD5 file: it does not start with 'MD5Version' (its text is not shown)"
    if [ "$rc" -ne 2 ]; then
        fail "$1" "exit $rc, expected 2: $(head -c 300 "$T/$last.err")"
    elif ! grep -qF -- ".md5scene:2:" "$T/$last.err" || ! grep -qF -- "$want" "$T/$last.err"; then
        fail "$1" "no '$want' at the scene's line 2: $(head -c 300 "$T/$last.err")"
    elif ! grep -qF -- "$3" "$T/$last.err"; then
        fail "$1" "$3 is not named: $(head -c 300 "$T/$last.err")"
    elif grep -q 'SECRET\|root:\|hello' "$T/$last.err"; then
        fail "$1" "a line of the file is shown: $(cat "$T/$last.err")"
    else
        ok "$1"
    fi
}

scene cam_passwd "camera \"$T/outside/passwd\""
run cam_passwd info "$T/scene/cam_passwd.md5scene"
hidden a_camera_outside_the_folder_is_named_not_shown camera "$T/outside/passwd"

scene_cam mesh_passwd "actor a { mesh \"$T/outside/passwd\" }"
run mesh_passwd info "$T/scene/mesh_passwd.md5scene"
hidden a_mesh_outside_the_folder_is_named_not_shown mesh "$T/outside/passwd"

scene_cam anim_passwd "actor a { mesh \"$PWD/data/scenes/arm.md5mesh\" anim \"$T/outside/passwd\" }"
run anim_passwd info "$T/scene/anim_passwd.md5scene"
hidden an_anim_outside_the_folder_is_named_not_shown anim "$T/outside/passwd"

scene cam_commented "camera \"$T/outside/commented\""
run cam_commented info "$T/scene/cam_commented.md5scene"
hidden a_comment_then_other_text_is_named_not_shown camera "$T/outside/commented"

# started as the format: quoted as any input (line 3, column 11, the line under the message)
scene cam_started "camera \"$T/outside/started.md5camera\""
run cam_started info "$T/scene/cam_started.md5scene"
expect a_file_that_starts_as_md5_is_quoted 2 "" \
    "$T/outside/started.md5camera:3:11: error: expected integer, found 'SHOWNTOKEN'"
expect a_file_that_starts_as_md5_shows_its_line 2 "" "    3 | numFrames SHOWNTOKEN"

scene cam_empty "camera \"$T/outside/empty.md5camera\""
run cam_empty info "$T/scene/cam_empty.md5scene"
expect an_empty_file_is_at_1_1 2 "" \
    "$T/outside/empty.md5camera:1:1: error: expected 'MD5Version', found end of file"

finish
