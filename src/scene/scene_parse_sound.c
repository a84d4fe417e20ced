/* The scene file's sound lines: `sound "SHADER" { ... }` cues and an actor's `key` lines
 * (scene_parse.h; the grammar is docs/scene-files.md's "Sound"). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <md5cine/limits.h>
#include <md5cine/scene.h>

#include "formats/lex.h"
#include "scene/scene_parse.h"

/* The latest `at` of a cue, seconds (about 11.6 days). */
#define MC_SOUND_MAX_AT 1e6f

/* The engine's channel names (game/Game_local.h, s_channelType), in mc_sound_channel order. */
static const char *const channel_words[MC_SND_CHANNEL_COUNT] = {
    "any",  "voice", "voice2",  "body",  "body2",   "body3",   "weapon",
    "item", "heart", "pda",     "demonic", "radio", "ambient", "damage",
};

const char *mc_scene_channel_word(int channel)
{
    return channel >= 0 && channel < MC_SND_CHANNEL_COUNT ? channel_words[channel] : NULL;
}

int mc_scene_channel_find(const char *word, size_t len)
{
    for (int i = 0; i < MC_SND_CHANNEL_COUNT; i++) {
        if (strlen(channel_words[i]) == len && strncasecmp(word, channel_words[i], len) == 0)
            return i;
    }
    return -1;
}

/* Grows an arena array of *count items of size to hold one more (capacity in *cap). */
static void *grow(scene_parser *p, void *items, int count, int *cap, size_t size)
{
    int ncap;
    void *grown;

    if (count < *cap)
        return items;
    ncap = *cap ? *cap * 2 : 8;
    grown = mc_arena_alloc(&p->s->arena, (size_t)ncap, size);
    if (!grown)
        return NULL;
    if (count)
        memcpy(grown, items, (size_t)count * size);
    *cap = ncap;
    return grown;
}

static bool read_channel(scene_parser *p, int *out)
{
    mc_token tok;
    char d[80], hint[80];

    if (!mc_lex_next(&p->lx, &tok))
        return false;
    if (tok.kind == MC_TOK_NAME || tok.kind == MC_TOK_STRING)
        *out = mc_scene_channel_find(tok.text, tok.len);
    else
        *out = -1;
    if (*out >= 0)
        return true;
    return mc_lex_fail(&p->lx, &tok, MC_ERR_SYNTAX,
                       "unknown channel %s, expected any, voice, voice2, body, body2, body3, "
                       "weapon, item, heart, pda, demonic, radio, ambient or damage%s",
                       mc_lex_describe(&tok, d, sizeof d),
                       hint_for(&tok, channel_words, MC_SND_CHANNEL_COUNT, hint, sizeof hint));
}

/* A number in lo..hi, at its token. */
static bool read_float_in(scene_parser *p, const char *what, float lo, float hi, float *out)
{
    mc_token tok;

    if (!mc_lex_float(&p->lx, out, &tok))
        return false;
    if (!(*out >= lo && *out <= hi))
        return mc_lex_fail(&p->lx, &tok, MC_ERR_RANGE, "invalid '%s' %g, expected %g to %g",
                           what, (double)*out, (double)lo, (double)hi);
    return true;
}

enum { S_AT, S_ACTOR, S_CHANNEL, S_VOLUME, S_ORIGIN, S_COUNT };
static const char *const sound_keywords[S_COUNT] = { "at", "actor", "channel", "volume",
                                                     "origin" };

static bool parse_sound_value(scene_parser *p, mc_scene_sound *c, int k)
{
    float v[3];

    switch (k) {
    case S_AT:
        return read_float_in(p, "at", 0.0f, MC_SOUND_MAX_AT, &c->at);
    case S_ACTOR:
        return read_decl_name(p, "actor", &c->actor, &c->actor_line, &c->actor_col);
    case S_CHANNEL:
        return read_channel(p, &c->channel);
    case S_VOLUME:
        c->has_volume = true;
        return read_float_in(p, "volume", -100.0f, 100.0f, &c->volume);
    default: /* S_ORIGIN */
        if (!read_triple_in(p, "origin", -1e30f, 1e30f, v))
            return false;
        c->origin = (mc_vec3){ v[0], v[1], v[2] };
        c->has_origin = true;
        return true;
    }
}

static bool parse_sound_body(scene_parser *p, mc_scene_sound *c, const mc_token *name_tok)
{
    seen_at seen[S_COUNT];
    char where[MC_LIMIT_NAME_LEN + 16];
    mc_token tok;
    int k;

    memset(seen, 0, sizeof seen);
    snprintf(where, sizeof where, "sound '%s'", c->shader);
    while ((k = block_keyword(p, &tok, where, sound_keywords, S_COUNT)) >= 0) {
        if (!once(p, &tok, &seen[k]) || !parse_sound_value(p, c, k))
            return false;
    }
    if (k == BLOCK_FAILED)
        return false;
    if (!seen[S_AT].line)
        return mc_lex_fail(&p->lx, name_tok, MC_ERR_SYNTAX, "sound '%s' has no 'at'", c->shader);
    if (c->actor && c->has_origin)
        return mc_lex_fail(&p->lx, &(mc_token){ MC_TOK_NAME, "origin", 6, seen[S_ORIGIN].line,
                                                seen[S_ORIGIN].col, 0.0, false },
                           MC_ERR_SYNTAX,
                           "sound '%s' has both 'actor' (line %d) and 'origin': give one",
                           c->shader, c->actor_line);
    return true;
}

bool parse_sound(scene_parser *p, const mc_token *kw)
{
    mc_scene *s = p->s;
    mc_scene_sound *c;
    mc_token tok;

    if (s->num_sounds == MC_SCENE_MAX_SOUNDS)
        return mc_lex_fail(&p->lx, kw, MC_ERR_LIMIT, "more than %d sounds",
                           MC_SCENE_MAX_SOUNDS);
    c = grow(p, s->sounds, s->num_sounds, &p->sound_cap, sizeof *c);
    if (!c)
        return nomem(p, kw);
    s->sounds = c;
    c = &s->sounds[s->num_sounds++];
    memset(c, 0, sizeof *c);
    c->actor_index = -1;
    c->channel = MC_SND_CHANNEL_ANY;
    if (!read_decl_name(p, "sound shader", &c->shader, &c->line, &c->col))
        return false;
    tok = (mc_token){ MC_TOK_STRING, c->shader, strlen(c->shader), c->line, c->col, 0.0, false };
    return expect_punct(p, "{") && parse_sound_body(p, c, &tok);
}

bool parse_spawnarg(scene_parser *p, mc_scene_actor *a, int *cap, const mc_token *kw)
{
    const char *key, *value;
    size_t klen, vlen;
    mc_token ktok, vtok;
    mc_scene_spawnarg *arg;

    if (!mc_lex_string(&p->lx, &key, &klen, &ktok) ||
        !mc_lex_string(&p->lx, &value, &vlen, &vtok))
        return false;
    if (klen == 0 || klen > MC_LIMIT_NAME_LEN)
        return mc_lex_fail(&p->lx, &ktok, MC_ERR_SYNTAX, "invalid key, expected 1 to %d bytes",
                           MC_LIMIT_NAME_LEN);
    for (int i = 0; i < a->num_spawnargs; i++) {
        const char *k = a->spawnargs[i].key;

        if (strlen(k) == klen && strncasecmp(k, key, klen) == 0)
            return mc_lex_fail(&p->lx, &ktok, MC_ERR_SYNTAX,
                               "duplicate key '%s' (first given at line %d)", k,
                               a->spawnargs[i].line);
    }
    if (a->num_spawnargs == MC_SCENE_MAX_SPAWNARGS)
        return mc_lex_fail(&p->lx, kw, MC_ERR_LIMIT, "more than %d keys in actor '%s'",
                           MC_SCENE_MAX_SPAWNARGS, a->name);
    arg = grow(p, a->spawnargs, a->num_spawnargs, cap, sizeof *arg);
    if (!arg)
        return nomem(p, kw);
    a->spawnargs = arg;
    arg = &a->spawnargs[a->num_spawnargs];
    arg->key = mc_lex_strdup(&p->lx, &p->s->arena, key, klen);
    arg->value = mc_lex_strdup(&p->lx, &p->s->arena, value, vlen);
    if (!arg->key || !arg->value)
        return false;
    arg->line = ktok.line;
    arg->col = ktok.col;
    a->num_spawnargs++;
    return true;
}

bool check_sound_actors(scene_parser *p)
{
    mc_scene *s = p->s;

    for (int i = 0; i < s->num_sounds; i++) {
        mc_scene_sound *c = &s->sounds[i];

        if (!c->actor)
            continue;
        for (int j = 0; j < s->num_actors && c->actor_index < 0; j++) {
            if (strcmp(s->actors[j].name, c->actor) == 0)
                c->actor_index = j;
        }
        if (c->actor_index < 0) {
            mc_token at = { MC_TOK_STRING, c->actor, strlen(c->actor), c->actor_line,
                            c->actor_col, 0.0, false };

            char hint[MC_LIMIT_NAME_LEN + 32];

            return mc_lex_fail(&p->lx, &at, MC_ERR_SYNTAX,
                               "sound '%s': no actor '%s' in the scene%s", c->shader, c->actor,
                               actor_hint(s, c->actor, hint, sizeof hint));
        }
    }
    return true;
}
