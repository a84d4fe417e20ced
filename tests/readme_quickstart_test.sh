#!/bin/bash
# The README and docs/ tell the truth:
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
#  2. Every repository path README.md or a docs/*.md page names in backquotes (scripts/, scenes/,
#     tests/, examples/, include/, src/, bench/, python/, man/, fuzz/, cmake/, docs/ ...) exists.
#  3. No table of those pages has two rows for the same thing (the same first cell).
#  4. Every link of those pages to a page of the tree ([text](docs/farm.md#chunks)) names a file
#     that exists and, after '#', a heading of that page (GitHub's anchors: lower case, spaces
#     as '-', other punctuation dropped), so that "see X" leads to X.
set -u
SRC=$(cd .. && pwd)
. ./harness.sh readme_quickstart

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
check_status the_quick_start_runs_top_to_bottom 0 "$T/run.log"

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

PAGES=("$SRC/README.md" "$SRC"/docs/*.md)
if [ "${#PAGES[@]}" -ge 10 ]; then ok "the_docs_pages_are_found (${#PAGES[@]})"; else fail the_docs_pages_are_found "${PAGES[*]}"; fi

# ---- 2. paths the pages name
bad=
for p in $(grep -ho '`[a-zA-Z0-9_./-]*`' "${PAGES[@]}" | tr -d '`' | sort -u |
           grep -E '^(scripts|scenes|tests|examples|include|src|bench|python|man|fuzz|cmake|docs|\.ci)/'); do
    case $p in
    *'*'*) continue ;;
    esac
    [ -e "$SRC/$p" ] || bad="$bad $p"
done
if [ -z "$bad" ]; then ok every_named_path_exists; else fail every_named_path_exists "$bad"; fi

# ---- 3. no table with two rows for one thing: first cells unique per table (header skipped)
dup_rows=$(awk -F'|' '
    FNR == 1 { table++ }
    !/^\|/ { table++; row = 0; next }
    { row++ }
    row == 1 || /^\|[-| :]*\|$/ { next }
    { key = table SUBSEP $2; if (seen[key]++) print FILENAME ":" FNR ":" $2 }' "${PAGES[@]}")
if [ -z "$dup_rows" ]; then ok no_table_row_twice; else fail no_table_row_twice "$dup_rows"; fi

# ---- 4. links between the pages lead to a file and a heading
bad_links=$(python3 - "$SRC" "${PAGES[@]}" <<'PY'
import os, re, sys
src, pages = sys.argv[1], sys.argv[2:]
def anchors(path):
    seen, out, code = {}, set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            code = not code
        m = None if code else re.match(r"^#{1,6} +(.*?) *$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else "%s-%d" % (slug, n))
    return out
bad = []
for page in pages:
    text = re.sub(r"```.*?```", "", open(page, encoding="utf-8").read(), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        where = os.path.relpath(page, src) + ": " + target
        if not os.path.exists(full):
            bad.append(where + " (no such file)")
        elif anchor and (not full.endswith(".md") or anchor not in anchors(full)):
            bad.append(where + " (no such heading)")
print("\n".join(bad))
PY
)
n_links=$(cat "${PAGES[@]}" | grep -o '](' | wc -l)
if [ -z "$bad_links" ] && [ "$n_links" -ge 50 ]; then ok "every_link_leads_to_a_page_and_heading ($n_links)"
else fail every_link_leads_to_a_page_and_heading "$bad_links"; fi

finish
