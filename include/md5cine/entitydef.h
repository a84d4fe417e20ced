/* entitydef: Doom 3's entity declarations, the key/value pairs of the base's def/NAME.def files:
 *
 *   entityDef monster_zombie_fat {
 *       "inherit"        "zombie_default"       // its keys, where this one has none of them
 *       "model"          "monster_zombie_fat"
 *       "snd_footstep"   "monster_zombie_fat_footstep"   // a sound shader, for frame commands
 *       "s_volume"       "-3"                   // the entity's sound overrides (dB)
 *   }
 *
 * Read as framework/DeclEntityDef.cpp's idDeclEntityDef::Parse reads them: after the '{', pairs
 * of a "quoted" key and a value (a "string", or a run of bytes without white space, braces or
 * quotes, as the declaration manager's scan reads one: decl_scan.h) up to the '}'. Keys are
 * compared without case (idDict). A key given twice keeps its first place and takes the later
 * value, with a warning ("'%s' already defined", as the engine's). The key "classname" is then
 * set to the declaration's (canonical) name. Every key that starts with "inherit" (without case:
 * idDict::MatchPrefix, so "inherit2" too) names another entityDef; those keys are taken out, in
 * their order, and each named declaration's whole (already merged) list gives the keys this one
 * lacks (idDict::SetDefaults): the first inherit wins over the later ones, own keys over all. So
 * the merged list is, in the engine's order: the own keys in file order, classname (where given,
 * else after them), then each inherited declaration's keys that are new.
 *
 * Errors: a key that is not a quoted string, a key without its value, a value that is a brace,
 * a string cut by the end of its line, no '{', more than MC_LIMIT_ENTITYDEF_PAIRS pairs -- where
 * the engine makes the declaration its default one ({"DEFAULTED" "1"}). The end of the text
 * before the closing '}' ends the pairs, as it ends the engine's loop. The base's set (material.h)
 * reads them when used: an unknown inherited name is a warning at its key (the engine's too), an
 * inherit cycle or a chain deeper than MC_LIMIT_ENTITYDEF_INHERIT an error. */
#ifndef MC_ENTITYDEF_H
#define MC_ENTITYDEF_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/arena.h>
#include <md5cine/error.h>
#include <md5cine/mtr.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_entitydef_pair {
    const char *key;   /* as written (the first spelling of a key given twice) */
    const char *value; /* as written (the last value given) */
    const char *file;  /* the declaration file that gives the pair, as the base names it */
    int line, col;     /* there, the key token of the pair that gave the value (classname: the
                          declaration's first token) */
} mc_entitydef_pair;

typedef struct mc_entitydef {
    const char *name; /* canonical (decl_index.h) */
    const char *file; /* the declaration's file as the base names it */
    int line, col;    /* the declaration's first token */
    int num_pairs;
    mc_entitydef_pair *pairs; /* see above for their order */
    int num_inherits;
    mc_entitydef_pair *inherits; /* the inherit keys taken out, in order (value: a name) */
    bool merged;                 /* pairs include the inherited ones (mc_entitydef_merge) */
    mc_arena arena;              /* owns every pointer above */
} mc_entitydef;

/* Parses the entityDef declaration span of buf[0..len) (an index made by mc_decl_index_text with
 * the type "entityDef"): its own pairs, classname set, the inherit keys taken out into
 * inherits. name names the file in errors and is copied into out->file (and every pair's
 * file). Warnings (a key given twice) through opts->warn; opts may be NULL. Errors as above
 * (MC_ERR_SYNTAX, MC_ERR_LIMIT), MC_ERR_NOMEM; *out is then zeroed. */
mc_status mc_entitydef_parse_span(const char *buf, size_t len, const char *name,
                                  const mc_mtr_span *span, const mc_parse_opts *opts,
                                  mc_entitydef *out, mc_error *err);

/* The merged declaration of own (parsed, not merged) and the merged declarations of what it
 * inherits, in own's inherit order (parents[i] NULL: an unknown name, skipped): own's pairs,
 * then each parent's pairs whose key is not there yet. *out owns copies of everything. Errors:
 * MC_ERR_LIMIT past MC_LIMIT_ENTITYDEF_PAIRS (at own's first token), MC_ERR_NOMEM; *out is then
 * zeroed. */
mc_status mc_entitydef_merge(const mc_entitydef *own, const mc_entitydef *const *parents,
                             mc_entitydef *out, mc_error *err);

/* The pair of key (compared without case), or NULL. */
const mc_entitydef_pair *mc_entitydef_find(const mc_entitydef *def, const char *key);

/* The value of key, or fallback when def has none. */
const char *mc_entitydef_value(const mc_entitydef *def, const char *key, const char *fallback);

/* The sound keys of an entity, as idGameEdit::ParseSpawnArgsToRefSound (game/Entity.cpp) reads
 * its spawn arguments: *over gets s_mindistance, s_maxdistance, s_volume and s_shakes as C's
 * atof reads them (a leading number, 0 when none), the flags of s_omni (MC_SSF_OMNIDIRECTIONAL),
 * s_looping (LOOPING), s_occlusion (NO_OCCLUSION), s_global (GLOBAL) and s_unclamped
 * (UNCLAMPED), each set when atoi of its value is not 0, and sound_class from s_soundClass (atoi);
 * *diversity (may be NULL) gets s_diversity, -1 when absent (then each start draws a random
 * one: idEntity::StartSoundShader). A key absent or 0 leaves its field 0: no override. Errors,
 * at the pair's key (MC_ERR_RANGE): a number that reads as infinite or not a number, and an
 * s_soundClass outside 0..3 (the engine would index its four classes out of bounds). */
mc_status mc_entitydef_sound_parms(const mc_entitydef *def, mc_sound_parms *over, float *diversity,
                                   mc_error *err);

/* Applies def's sound keys onto *parms (a sound shader's parameters) as a sound's start does:
 * mc_entitydef_sound_parms, then mc_sndshd_override_parms(parms, over, parms) -- a non-zero
 * s_* value replaces the shader's, the flags are added. On error *parms is unchanged. */
mc_status mc_entitydef_apply_sound(const mc_entitydef *def, mc_sound_parms *parms, mc_error *err);

/* Frees the declaration and zeroes it; accepts a zeroed struct. */
void mc_entitydef_release(mc_entitydef *def);

#ifdef __cplusplus
}
#endif

#endif
