/* The scene file parser's shared state and helpers (scene_parse.c), private to src/scene/; the
 * top level (scene.c), the light and camera blocks and resolve build on them. */
#ifndef MC_SCENE_PARSE_H
#define MC_SCENE_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/scene.h>

#include "formats/lex.h"

#define PATH_CAP 4096

typedef struct scene_parser {
    mc_lexer lx;
    mc_scene *s;
    int actor_cap; /* room in s->actors */
    int sound_cap; /* room in s->sounds */
    int errors;    /* errors gone on from (mc_parse_opts.error), the last in pending */
    mc_error pending;
} scene_parser;

#define LIGHT_COLOR_MAX  100.0f
#define LIGHT_RADIUS_MAX 1e6f
/* Each origin component, as far as the renderer takes a light (mc_renderer_begin). */
#define LIGHT_ORIGIN_MAX 1e30f

/* Where a keyword was first seen, for "duplicate" errors; line 0 = not seen. */
typedef struct seen_at {
    int line, col;
} seen_at;

/* scene_parse.c: paths and parse helpers */
const char *dir_of(mc_arena *a, const char *name);
char *join_path(mc_arena *a, const char *dir, const char *text, size_t len);
bool file_exists(const char *path);
/* scene_hints.c: " (did you mean 'NAME'?)" in buf (cap bytes) when the file at path is missing and its folder
 * holds an entry of a near name (core/nearest.h; the folder's first 4096 entries); else, when it
 * holds files of the same extension, " (its folder holds 'a.md5anim', 'b.md5anim' and 2 more)";
 * else ""; returns buf. */
const char *file_hint(const char *path, char *buf, size_t cap);
/* " (did you mean 'NAME'?)" when an actor of s has a name near name, else ""; returns buf. */
const char *actor_hint(const mc_scene *s, const char *name, char *buf, size_t cap);
/* The error of a model no declaration of the base has, once every def file is read (texts and
 * lens: their count texts), with the declared name nearest it, compared without case as the
 * engine finds them; returns e's code. */
mc_status no_model_error(const mc_scene *s, const mc_scene_actor *a, char *const *texts,
                         const size_t *lens, int count, mc_error *e);
/* The error of an actor's anim its model does not have (its count anims, declared at
 * file:line), with the nearest of their names. */
mc_status no_model_anim_error(const mc_scene *s, const mc_scene_actor *a,
                              const mc_scene_model_anim *anims, int count, const char *file,
                              int line, mc_error *e);
bool nomem(scene_parser *p, const mc_token *tok);
bool expect_punct(scene_parser *p, const char *punct);
bool once(scene_parser *p, const mc_token *tok, seen_at *seen);
bool read_path(scene_parser *p, const char **out, mc_token *tok);
bool read_flag(scene_parser *p, const char *what, bool *out);
bool read_decl_name(scene_parser *p, const char *what, const char **out, int *line, int *col);
bool read_int_in(scene_parser *p, const char *what, int lo, int hi, int *out);
bool read_triple_in(scene_parser *p, const char *what, float lo, float hi, float *out);
const char *hint_for(const mc_token *tok, const char *const *words, size_t n, char *buf,
                     size_t cap);
bool same_name(const char *a, size_t alen, const char *b);
/* The next keyword of a block named where ("'output'", "actor 'walker'"): its index in
 * words[0..count), BLOCK_END at the block's '}', BLOCK_FAILED after an error (a token that is
 * no keyword: "expected a keyword or '}' in WHERE, found ..."; a word of none of them:
 * "unknown keyword ... in WHERE", with the nearest of words as a hint). */
enum { BLOCK_END = -2, BLOCK_FAILED = -1 };
int block_keyword(scene_parser *p, mc_token *tok, const char *where, const char *const *words,
                  int count);

/* The blocks, each at its keyword (scene_parse_lights.c, camera_block.c). */
bool parse_light(scene_parser *p, const mc_token *kw);
bool parse_camera_block(scene_parser *p);
/* scene_parse_sound.c: `sound "SHADER" { ... }` at its keyword, an actor's `key` line, and the
 * check, after the whole file, that every cue's actor is in the scene. */
bool parse_sound(scene_parser *p, const mc_token *kw);
bool parse_spawnarg(scene_parser *p, mc_scene_actor *a, int *cap, const mc_token *kw);
bool check_sound_actors(scene_parser *p);

/* resolve's helpers (scene_resolve.c, model_resolve.c): the caller's stop flag (MC_ERR_INTERRUPTED in e once set), a
 * warning to the caller, and an error without a position moved to the scene token that names
 * the file (`cannot load WHAT: ...`). */
bool resolve_stopped(const mc_parse_opts *opts, mc_error *e);
void resolve_warn(const mc_parse_opts *opts, const mc_error *w);
mc_status resolve_at_token(const mc_scene *s, mc_error *e, int line, int col, const char *what);

#endif
