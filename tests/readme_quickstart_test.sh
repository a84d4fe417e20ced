#!/bin/bash
# The README tells the truth:
#  1. The quick start (the first ```sh block under "## Quick start" in README.md, read from the
#     README itself) runs top to bottom, as written, in a clean folder: its lines in order in
#     one bash with `set -e -o pipefail`, so every line must exit 0. The folder holds what a
#     fresh clone holds of scripts/ and scenes/ (copied from the source tree), nothing else.
#     One thing differs from a fresh clone, to keep the test short: scripts/demo.sh finds md5cine
#     already built. The binary under test ($MD5CINE) is linked at build/release/src/md5cine,
#     where scripts/demo.sh builds it, and a `cmake` that does nothing stands first on the PATH
#     for the script's configure and build steps (scripts/deps.sh runs as it is and finds every
#     package installed). Then the outputs the block names exist, and no two commands write the
#     same output (nothing is silently overwritten).
#  2. Every repository path the README names in backquotes (scripts/, scenes/, tests/,
#     examples/, include/, src/, bench/, python/, man/, fuzz/, cmake/ ...) exists.
#  3. No table of the README has two rows for the same thing (the same first cell).
set -u
SRC=$(cd .. && pwd)
. ./outcome.sh readme_quickstart

# ---- 1. the quick start
awk '/^## Quick start/ { in_qs = 1; next }
     in_qs && /^```sh$/ { in_block = 1; next }
     in_block && /^```$/ { exit }
     in_block { print }' "$SRC/README.md" >"$T/quickstart.sh"
lines=$(grep -c . "$T/quickstart.sh")
if [ "$lines" -ge 8 ] && grep -q '^scripts/demo.sh' "$T/quickstart.sh"; then
    ok "the_quick_start_block_is_found ($lines lines)"
else
    fail the_quick_start_block_is_found "$lines lines in $T/quickstart.sh"
fi

C=$T/clone
mkdir -p "$C/build/release/src" "$T/bin"
cp -r "$SRC/scripts" "$SRC/scenes" "$C/"
ln -s "$(readlink -f "$MD5CINE")" "$C/build/release/src/md5cine"
printf '#!/bin/sh\n# stands in for the configure and build of scripts/demo.sh: md5cine is built\nexit 0\n' \
    >"$T/bin/cmake"
chmod +x "$T/bin/cmake"
# No md5cine on the PATH until the quick start puts it there.
PATH=$(tr ':' '\n' <<<"$PATH" | grep -v "$(dirname "$(readlink -f "$MD5CINE")")" | paste -sd:)
(cd "$C" && PATH="$T/bin:$PATH" bash -e -o pipefail -x "$T/quickstart.sh") >"$T/run.log" 2>&1
rc=$?
if [ "$rc" = 0 ]; then
    ok the_quick_start_runs_top_to_bottom
else
    fail the_quick_start_runs_top_to_bottom "exit $rc; the last lines:"
    tail -n 15 "$T/run.log" | sed 's/^/     | /'
fi

# Outputs: every -o target of the block (a PNG pattern: its folder) exists, and none is named
# twice.
outs=$(grep -o -- ' -o [^ ;]*' "$T/quickstart.sh" | sed 's/^ -o //' | grep -v '^-$')
dups=$(sort <<<"$outs" | uniq -d)
if [ -z "$dups" ]; then ok no_output_is_written_twice; else fail no_output_is_written_twice "$dups"; fi
missing=
while read -r o; do
    case $o in
    *%*) o=$(dirname "$o") ;;
    *'$'*) o=$(sed 's/\$[a-z]*/0/' <<<"$o") ;; # part$i.mp4: the first chunk
    esac
    [ -e "$C/$o" ] || missing="$missing $o"
done <<<"$outs"
[ -e "$C/demo.mp4" ] || missing="$missing demo.mp4"
if [ -z "$missing" ]; then ok every_output_exists; else fail every_output_exists "$missing"; fi

# ---- 2. paths the README names
bad=
for p in $(grep -o '`[a-zA-Z0-9_./-]*`' "$SRC/README.md" | tr -d '`' | sort -u |
           grep -E '^(scripts|scenes|tests|examples|include|src|bench|python|man|fuzz|cmake|\.ci)/'); do
    case $p in
    *'*'*) continue ;;
    esac
    [ -e "$SRC/$p" ] || bad="$bad $p"
done
if [ -z "$bad" ]; then ok every_named_path_exists; else fail every_named_path_exists "$bad"; fi

# ---- 3. no table with two rows for one thing: first cells unique per table (header skipped)
dup_rows=$(awk -F'|' '
    !/^\|/ { table++; row = 0; next }
    { row++ }
    row == 1 || /^\|[-| :]*\|$/ { next }
    { key = table SUBSEP $2; if (seen[key]++) print "table at line " NR ":" $2 }' "$SRC/README.md")
if [ -z "$dup_rows" ]; then ok no_table_row_twice; else fail no_table_row_twice "$dup_rows"; fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
