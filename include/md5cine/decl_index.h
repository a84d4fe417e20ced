/* decl_index: the base's declaration index, where each declaration of a text is, found as the
 * engine finds it, before any is parsed (what materials, skins, sound shaders and entityDefs
 * are looked up in).
 *
 * Doom's declaration manager (framework/DeclManager.cpp, idDeclFile::LoadAndParse) reads a
 * file only far enough to know its declarations: a type word (table, material, skin, ...; none
 * means a material in materials/), a name, then everything up to the matching '}' taken
 * unparsed (idLexer::SkipBracedSection). The body is parsed the first time something asks for
 * the declaration. mc_mtr_index does the first half: it never fails on what is inside a body,
 * and what it cannot make sense of between declarations (a name not followed by '{') it skips
 * as Doom does, silently. mc_mtr_parse_span (mtr.h) parses one indexed declaration with the
 * strict parser, its errors positioned in the whole file; skin.h, sndshd.h and entitydef.h
 * parse the other types' spans.
 *
 * Both this and mc_mtr_parse (mtr.h) read the text up to its first NUL byte, as Doom's lexer
 * does (a shipped file ends in one). */
#ifndef MC_DECL_INDEX_H
#define MC_DECL_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/error.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_mtr_span {
    const char *name;  /* canonical material name */
    size_t start, end; /* bytes [start, end) of the file: the declaration's first token (its
                          type word or its name) to after its closing '}' (or the end of the
                          text, for a body never closed) */
    int line, col;     /* position of the first token */
} mc_mtr_span;

typedef struct mc_mtr_index {
    const char *name;    /* the file, as given, for messages */
    int num_spans;
    mc_mtr_span *spans;  /* material declarations in file order (tables, skins and other
                            types are skipped); NULL when none */
    void *block;         /* one malloc'd block of exactly their size: owns every pointer
                            above */
} mc_mtr_index;

/* Indexes the declarations of one type in buf[0..len): those introduced by the word `type`
 * (compared without case), and those with no type word when the folder's default_type is
 * `type` (Doom: "material" in materials/, "skin" in skins/). The spans' names are canonical
 * (mc_mtr_canonical). Errors only for bounds: more than MC_LIMIT_MTR_DECLS declarations
 * (MC_ERR_LIMIT at the first one past it), MC_ERR_NOMEM. A name longer than
 * MC_LIMIT_NAME_LEN cannot be looked up and is left out. opts->stop is looked at every 64 KiB
 * of text (MC_ERR_INTERRUPTED). On failure *out is zeroed. */
mc_status mc_decl_index_text(const char *buf, size_t len, const char *name,
                             const char *default_type, const char *type,
                             const mc_parse_opts *opts, mc_mtr_index *out, mc_error *err);

/* The same for several types at once, in one reading of the text: out[k] (n of them, 1 to
 * MC_DECL_MAX_KINDS) indexes the declarations of types[k]. Errors as mc_decl_index_text
 * (MC_ERR_LIMIT past MC_LIMIT_MTR_DECLS of one type), on which every out[k] is zeroed;
 * MC_ERR_USAGE for n out of range, out untouched. */
#define MC_DECL_MAX_KINDS 16
mc_status mc_decl_index_kinds(const char *buf, size_t len, const char *name,
                              const char *default_type, const char *const *types, int n,
                              const mc_parse_opts *opts, mc_mtr_index *out, mc_error *err);

/* Frees the index and zeroes it; accepts a zeroed struct. */
void mc_mtr_index_release(mc_mtr_index *index);

/* The canonical form of a material or image name into buf[0..cap): '\' as '/', lower case, the
 * extension after the last '.' removed (a '.' in a folder name included, as Doom does). false
 * when it does not fit. */
bool mc_mtr_canonical(const char *name, size_t len, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
