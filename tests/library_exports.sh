#!/bin/bash
# libmd5cine.so exports its public API and nothing else: every symbol `nm -D --defined-only`
# lists is declared in include/md5cine/, and every function those headers declare is exported.
# The declarations come from GCC itself (-aux-info on a file including every public header),
# not from cmake/mc_export_map.cmake, which writes the version script. A data symbol counts as
# declared when a file including every public header can take its address. Runs in tests/ with
#   MC_LIBRARY     libmd5cine.so            MC_GCC        gcc (for -aux-info)
#   MC_SOURCE_DIR  the source tree          MC_BUILD_DIR  the build tree (its version.h)
set -u
. ./harness.sh library_exports
: "${MC_LIBRARY:?}" "${MC_GCC:?}" "${MC_SOURCE_DIR:?}" "${MC_BUILD_DIR:?}"
inc=(-I"$MC_SOURCE_DIR/include" -I"$MC_BUILD_DIR/include")

for h in "$MC_SOURCE_DIR"/include/md5cine/*.h "$MC_BUILD_DIR"/include/md5cine/version.h; do
    echo "#include <md5cine/${h##*/}>"
done >"$T/all.c"

# GCC writes one line per function declaration it saw, headers included:
#   /* .../include/md5cine/arena.h:28:NC */ extern void mc_arena_release (mc_arena *);
# NC: a declaration, not a definition; a static inline definition (OF/NF) exports nothing.
if "$MC_GCC" -std=gnu11 "${inc[@]}" -fsyntax-only -aux-info "$T/aux.txt" "$T/all.c" \
    2>"$T/gcc.err"; then
    ok public_headers_compile
else
    fail public_headers_compile "$(head -c 300 "$T/gcc.err")"
fi
grep '/include/md5cine/[a-z0-9_]*\.h:[0-9]*:NC \*/ extern ' "$T/aux.txt" |
    sed 's|^/\*[^*]*\*/ ||; s| (.*||; s|.*[^A-Za-z0-9_]||' | sort -u >"$T/declared"
nm -D --defined-only "$MC_LIBRARY" | awk '{ print $NF }' | sort -u >"$T/exported"
nm -D --defined-only "$MC_LIBRARY" | awk '$2 !~ /^[TtWi]$/ { print $NF }' | sort -u >"$T/data"

# The list is not empty and holds what the headers visibly declare.
if [ "$(wc -l <"$T/declared")" -gt 100 ] && grep -qx mc_arena_release "$T/declared" &&
    grep -qx mc_version "$T/declared" && grep -qx mc_error_set "$T/declared"; then
    ok declarations_are_read
else
    fail declarations_are_read "$(wc -l <"$T/declared") names: $(head -c 200 "$T/declared")"
fi

missing=$(comm -23 "$T/declared" "$T/exported")
if [ -z "$missing" ]; then
    ok every_declared_function_is_exported
else
    fail every_declared_function_is_exported "not exported: $(echo $missing)"
fi

# Exported but not a declared function: a declared variable, or something internal.
extra=""
for name in $(comm -13 "$T/declared" "$T/exported"); do
    if grep -qx "$name" "$T/data" &&
        printf '#include "all.c"\nvoid *mc_exports_check = (void *)&%s;\n' "$name" >"$T/var.c" &&
        "$MC_GCC" -std=gnu11 "${inc[@]}" -I"$T" -fsyntax-only "$T/var.c" 2>/dev/null; then
        continue
    fi
    extra="$extra $name"
done
if [ -z "$extra" ]; then
    ok every_exported_symbol_is_declared
else
    fail every_exported_symbol_is_declared "exported, not in include/md5cine/:$extra"
fi

echo "$passed passed, $failed failed ($(wc -l <"$T/exported") symbols exported)"
[ "$failed" -eq 0 ]
