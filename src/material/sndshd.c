/* Doom 3's sound shaders (sndshd.h), read as sound/snd_shader.cpp's idSoundShader::ParseShader
 * reads them. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <md5cine/limits.h>
#include <md5cine/sndshd.h>

#include "core/nearest.h"
#include "formats/lex.h"

/* What a keyword does (one row each, the table the parser, the hints and the docs follow). */
typedef enum kw_action {
    KW_MIN_SAMPLES,
    KW_DESCRIPTION,
    KW_MIN_DISTANCE,
    KW_MAX_DISTANCE,
    KW_SHAKES,
    KW_REVERB,
    KW_VOLUME,
    KW_LEADIN_VOLUME,
    KW_MASK, /* value: the speaker */
    KW_CLASS,
    KW_ALT_SOUND,
    KW_IGNORED, /* accepted, no effect */
    KW_FLAG,    /* value: the MC_SSF_* flag */
    KW_LEADIN,
} kw_action;

typedef struct kw_row {
    const char *word; /* as ParseShader spells it; compared without case */
    kw_action action;
    int value;
} kw_row;

static const kw_row KEYWORDS[] = {
    { "minSamples", KW_MIN_SAMPLES, 0 },
    { "description", KW_DESCRIPTION, 0 },
    { "mindistance", KW_MIN_DISTANCE, 0 },
    { "maxdistance", KW_MAX_DISTANCE, 0 },
    { "shakes", KW_SHAKES, 0 },
    { "reverb", KW_REVERB, 0 },
    { "volume", KW_VOLUME, 0 },
    { "leadinVolume", KW_LEADIN_VOLUME, 0 },
    { "mask_center", KW_MASK, MC_SPEAKER_CENTER },
    { "mask_left", KW_MASK, MC_SPEAKER_LEFT },
    { "mask_right", KW_MASK, MC_SPEAKER_RIGHT },
    { "mask_backright", KW_MASK, MC_SPEAKER_BACKRIGHT },
    { "mask_backleft", KW_MASK, MC_SPEAKER_BACKLEFT },
    { "mask_lfe", KW_MASK, MC_SPEAKER_LFE },
    { "soundClass", KW_CLASS, 0 },
    { "altSound", KW_ALT_SOUND, 0 },
    { "ordered", KW_IGNORED, 0 },
    { "no_dups", KW_FLAG, MC_SSF_NO_DUPS },
    { "no_flicker", KW_FLAG, MC_SSF_NO_FLICKER },
    { "plain", KW_IGNORED, 0 },
    { "looping", KW_FLAG, MC_SSF_LOOPING },
    { "no_occlusion", KW_FLAG, MC_SSF_NO_OCCLUSION },
    { "private", KW_FLAG, MC_SSF_PRIVATE },
    { "antiPrivate", KW_FLAG, MC_SSF_ANTI_PRIVATE },
    { "playonce", KW_FLAG, MC_SSF_PLAY_ONCE },
    { "global", KW_FLAG, MC_SSF_GLOBAL },
    { "unclamped", KW_FLAG, MC_SSF_UNCLAMPED },
    { "omnidirectional", KW_FLAG, MC_SSF_OMNIDIRECTIONAL },
    { "onDemand", KW_IGNORED, 0 },
    { "leadin", KW_LEADIN, 0 },
};
#define NUM_KEYWORDS (sizeof KEYWORDS / sizeof KEYWORDS[0])

typedef struct sh_parser {
    mc_lexer lx;
    const mc_mtr_span *span;
    mc_sndshd *out;
    int cap;         /* entries and leadins kept (ParseShader's maxSamples, at most 32) */
    bool warned_cap; /* the entries past the cap were warned about */
} sh_parser;

mc_sound_parms mc_sndshd_default_parms(void)
{
    return (mc_sound_parms){ .min_distance = 1.0f, .max_distance = 10.0f, .volume = 1.0f };
}

static const kw_row *keyword(const mc_token *t)
{
    if (t->kind != MC_TOK_NAME && t->kind != MC_TOK_STRING)
        return NULL;
    for (size_t i = 0; i < NUM_KEYWORDS; i++)
        if (strlen(KEYWORDS[i].word) == t->len &&
            strncasecmp(KEYWORDS[i].word, t->text, t->len) == 0)
            return &KEYWORDS[i];
    return NULL;
}

/* Whether t holds ".wav" or ".ogg", compared without case (idStr::Find with casesensitive
 * false): a sample of the shader. */
static bool is_sound_file(const mc_token *t)
{
    if (t->kind != MC_TOK_NAME && t->kind != MC_TOK_STRING)
        return false;
    for (size_t i = 0; i + 4 <= t->len; i++)
        if (strncasecmp(t->text + i, ".wav", 4) == 0 || strncasecmp(t->text + i, ".ogg", 4) == 0)
            return true;
    return false;
}

/* A copy of t's text in the shader's arena, '\' as '/' when path, at most MC_LIMIT_NAME_LEN
 * bytes. */
static const char *copy_text(sh_parser *p, const mc_token *t, const char *what, bool path)
{
    char *s;

    if (t->len > MC_LIMIT_NAME_LEN) {
        mc_lex_fail(&p->lx, t, MC_ERR_SYNTAX, "%s is too long (%zu bytes, at most %d)", what,
                    t->len, MC_LIMIT_NAME_LEN);
        return NULL;
    }
    s = mc_lex_strdup(&p->lx, &p->out->arena, t->text, t->len);
    for (char *c = s; path && c && *c; c++)
        if (*c == '\\')
            *c = '/';
    return s;
}

/* A sample file token t of kind leadin or entry: kept while there is room. */
static bool add_sample(sh_parser *p, const mc_token *t, bool leadin)
{
    int *n = leadin ? &p->out->num_leadins : &p->out->num_entries;
    mc_sndshd_sample *list = leadin ? p->out->leadins : p->out->entries;

    if (*n >= p->cap) {
        if (!p->warned_cap)
            mc_lex_warn(&p->lx, t, MC_ERR_LIMIT,
                        "sound shader '%s' has more than %d %s: the rest are dropped, as the "
                        "engine drops them",
                        p->out->name, p->cap, leadin ? "leadins" : "sound files");
        p->warned_cap = true;
        return true;
    }
    list[*n] = (mc_sndshd_sample){ .line = t->line, .col = t->col };
    list[*n].file = copy_text(p, t, "a sound file's name", true);
    if (!list[*n].file)
        return false;
    (*n)++;
    return true;
}

/* An unknown word w: one warning with the nearest keyword, then the tokens after it on its
 * line that are neither keywords nor sound files are skipped (an unknown keyword's values). */
static bool skip_unknown(sh_parser *p, const mc_token *w)
{
    const char *words[NUM_KEYWORDS];
    char hint[96], d[80];
    mc_token t;

    for (size_t i = 0; i < NUM_KEYWORDS; i++)
        words[i] = KEYWORDS[i].word;
    hint[0] = '\0';
    if (w->kind == MC_TOK_NAME) {
        const char *near = mc_nearest_word_nocase(w->text, w->len, words, NUM_KEYWORDS);

        if (near)
            snprintf(hint, sizeof hint, MC_NEAREST_HINT, near);
    }
    mc_lex_warn(&p->lx, w, MC_ERR_SYNTAX,
                "unknown keyword %s in sound shader '%s' skipped%s (the engine would play its "
                "default sound for the whole shader)",
                mc_lex_describe(w, d, sizeof d), p->out->name, hint);
    for (;;) {
        if (!mc_lex_peek(&p->lx, &t))
            return false;
        if (t.kind == MC_TOK_EOF || t.line != w->line ||
            (t.kind == MC_TOK_PUNCT && t.text[0] == '}') || keyword(&t) || is_sound_file(&t))
            return true;
        mc_lex_next(&p->lx, &t);
    }
}

/* A number after keyword kw into *v. */
static bool number(sh_parser *p, float *v)
{
    return mc_lex_float(&p->lx, v, NULL);
}

/* minSamples N: maxSamples = idMath::ClampInt(N, SOUND_MAX_LIST_WAVS, maxSamples), i.e. N when
 * the cap is below N, 32 when it is above 32, else the cap; md5cine's arrays hold 32. */
static bool min_samples(sh_parser *p)
{
    int n, cap = p->cap;

    if (!mc_lex_int(&p->lx, &n, NULL))
        return false;
    cap = cap < n ? n : cap > MC_SOUND_MAX_ENTRIES ? MC_SOUND_MAX_ENTRIES : cap;
    p->cap = cap > MC_SOUND_MAX_ENTRIES ? MC_SOUND_MAX_ENTRIES : cap;
    p->out->min_samples = n;
    return true;
}

/* description: ReadTokenOnLine, the empty text when the line has none. */
static bool description(sh_parser *p, const mc_token *kw)
{
    mc_token t;

    if (!mc_lex_peek(&p->lx, &t))
        return false;
    if (t.kind == MC_TOK_EOF || t.kind == MC_TOK_PUNCT || t.line != kw->line) {
        p->out->description = "";
        return true;
    }
    mc_lex_next(&p->lx, &t);
    p->out->description = copy_text(p, &t, "a description", false);
    return p->out->description != NULL;
}

/* shakes [F]: the number when one follows (on any line), else 1. */
static bool shakes(sh_parser *p)
{
    mc_token t;

    if (!mc_lex_peek(&p->lx, &t))
        return false;
    if (t.kind != MC_TOK_NUMBER) {
        p->out->parms.shakes = 1.0f;
        return true;
    }
    return number(p, &p->out->parms.shakes);
}

/* reverb F , F: read, "no longer supported". */
static bool reverb(sh_parser *p)
{
    float ignored;
    mc_token t;
    char d[80];

    if (!number(p, &ignored) || !mc_lex_next(&p->lx, &t))
        return false;
    if (t.kind != MC_TOK_PUNCT || t.text[0] != ',')
        return mc_lex_fail(&p->lx, &t, MC_ERR_SYNTAX,
                           "expected ',' between reverb's values, found %s",
                           mc_lex_describe(&t, d, sizeof d));
    return number(p, &ignored);
}

/* soundClass N: 0 <= N < SOUND_MAX_CLASSES, else the engine fails the shader. */
static bool sound_class(sh_parser *p)
{
    mc_token t;

    if (!mc_lex_int(&p->lx, &p->out->parms.sound_class, &t))
        return false;
    if (p->out->parms.sound_class < 0 || p->out->parms.sound_class >= MC_SOUND_CLASSES)
        return mc_lex_fail(&p->lx, &t, MC_ERR_RANGE, "soundClass %d is out of range 0 to %d",
                           p->out->parms.sound_class, MC_SOUND_CLASSES - 1);
    return true;
}

/* The token after kw (altSound, leadin: any token but a brace). */
static bool operand(sh_parser *p, const mc_token *kw, mc_token *t)
{
    char d[80], k[80];

    if (!mc_lex_next(&p->lx, t))
        return false;
    if (t->kind == MC_TOK_EOF || t->kind == MC_TOK_PUNCT)
        return mc_lex_fail(&p->lx, t, MC_ERR_SYNTAX, "expected a name after %s, found %s",
                           mc_lex_describe(kw, k, sizeof k), mc_lex_describe(t, d, sizeof d));
    return true;
}

static bool apply_keyword(sh_parser *p, const kw_row *k, const mc_token *kw)
{
    mc_sound_parms *parms = &p->out->parms;
    mc_token t;

    switch (k->action) {
    case KW_MIN_SAMPLES:
        return min_samples(p);
    case KW_DESCRIPTION:
        return description(p, kw);
    case KW_MIN_DISTANCE:
        return number(p, &parms->min_distance);
    case KW_MAX_DISTANCE:
        return number(p, &parms->max_distance);
    case KW_SHAKES:
        return shakes(p);
    case KW_REVERB:
        return reverb(p);
    case KW_VOLUME:
        return number(p, &parms->volume);
    case KW_LEADIN_VOLUME:
        return number(p, &p->out->leadin_volume);
    case KW_MASK:
        p->out->speaker_mask |= 1 << k->value;
        return true;
    case KW_CLASS:
        return sound_class(p);
    case KW_ALT_SOUND:
        if (!operand(p, kw, &t))
            return false;
        p->out->alt_sound = copy_text(p, &t, "altSound's name", false);
        return p->out->alt_sound != NULL;
    case KW_IGNORED:
        return true;
    case KW_FLAG:
        parms->flags |= k->value;
        return true;
    case KW_LEADIN:
        return operand(p, kw, &t) && add_sample(p, &t, true);
    }
    return true;
}

static bool parse_body(void *ctx)
{
    sh_parser *p = ctx;
    mc_token t, open;

    p->lx.extra_punct = ",";
    p->lx.cur = p->lx.buf + p->span->start;
    p->lx.end = p->lx.buf + p->span->end;
    p->lx.line = p->span->line;
    p->lx.line_start = p->lx.cur - (p->span->col - 1);
    /* idSoundShader::Parse: SkipUntilString("{") */
    do {
        if (!mc_lex_next(&p->lx, &open))
            return false;
        if (open.kind == MC_TOK_EOF)
            return mc_lex_fail(&p->lx, &open, MC_ERR_SYNTAX, "expected '{' after sound shader '%s'",
                               p->out->name);
    } while (!(open.kind == MC_TOK_PUNCT && open.text[0] == '{'));
    for (;;) {
        const kw_row *k;

        if (!mc_lex_next(&p->lx, &t))
            return false;
        if (t.kind == MC_TOK_EOF)
            return mc_lex_fail(&p->lx, &open, MC_ERR_SYNTAX,
                               "sound shader '%s' has no closing '}' for this '{'", p->out->name);
        if (t.kind == MC_TOK_PUNCT && t.text[0] == '}')
            return true;
        if ((k = keyword(&t)) != NULL) {
            if (!apply_keyword(p, k, &t))
                return false;
        } else if (is_sound_file(&t)) {
            if (!add_sample(p, &t, false))
                return false;
        } else if (!skip_unknown(p, &t)) {
            return false;
        }
        if (p->lx.failed)
            return false;
    }
}

mc_status mc_sndshd_parse_span(const char *buf, size_t len, const char *name,
                               const mc_mtr_span *span, const mc_parse_opts *opts, mc_sndshd *out,
                               mc_error *err)
{
    sh_parser p;
    mc_status st;

    memset(out, 0, sizeof *out);
    if (!buf || span->start > span->end || span->end > len || span->col < 1)
        return mc_error_set(err, MC_ERR_USAGE, name, span->line, span->col,
                            "declaration span outside the text");
    memset(&p, 0, sizeof p);
    p.span = span;
    p.out = out;
    p.cap = MC_SOUND_MAX_ENTRIES;
    out->parms = mc_sndshd_default_parms();
    out->line = span->line;
    out->col = span->col;
    out->name = mc_arena_strndup(&out->arena, span->name, strlen(span->name));
    if (!out->name) {
        mc_arena_release(&out->arena);
        memset(out, 0, sizeof *out);
        return mc_error_set(err, MC_ERR_NOMEM, name, 0, 0, "out of memory");
    }
    st = mc_lex_run(&p.lx, buf, span->end, name, opts, &out->arena, &out->file, parse_body, &p,
                    err);
    if (st != MC_OK)
        memset(out, 0, sizeof *out); /* mc_lex_run released the arena */
    return st;
}

mc_status mc_sndshd_implicit(const char *name, mc_sndshd *out, mc_error *err)
{
    char canon[MC_LIMIT_NAME_LEN + 1], file[MC_LIMIT_NAME_LEN + 8];
    size_t n = name ? strlen(name) : 0;
    const char *last;
    bool ext = false;

    memset(out, 0, sizeof *out);
    if (n == 0 || n > MC_LIMIT_NAME_LEN || !mc_mtr_canonical(name, n, canon, sizeof canon) ||
        !canon[0])
        return mc_error_set(err, MC_ERR_SYNTAX, NULL, 0, 0,
                            "invalid sound shader name '%.*s' (1 to %d bytes)",
                            n > 64 ? 64 : (int)n, name ? name : "", MC_LIMIT_NAME_LEN);
    /* idStr::DefaultFileExtension: ".wav" unless the last path component has a '.' */
    last = strrchr(canon, '/');
    ext = strchr(last ? last : canon, '.') != NULL;
    snprintf(file, sizeof file, "%s%s", canon, ext ? "" : ".wav");
    out->parms = mc_sndshd_default_parms();
    out->implicit = true;
    out->name = mc_arena_strndup(&out->arena, canon, strlen(canon));
    out->file = "";
    if (out->name && (strstr(file, ".wav") || strstr(file, ".ogg"))) {
        out->entries[0].file = mc_arena_strndup(&out->arena, file, strlen(file));
        out->num_entries = out->entries[0].file != NULL;
    } else {
        out->defaulted = true; /* "a.b.c": the file "a.b" is no sound file, the parse fails */
    }
    if (!out->name || (!out->defaulted && !out->num_entries)) {
        mc_arena_release(&out->arena);
        memset(out, 0, sizeof *out);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    return MC_OK;
}

void mc_sndshd_override_parms(const mc_sound_parms *base, const mc_sound_parms *over,
                              mc_sound_parms *out)
{
    mc_sound_parms r;

    /* snd_emitter.cpp, idSoundEmitterLocal::OverrideParms: a non-zero override wins */
    r.min_distance = over->min_distance != 0.0f ? over->min_distance : base->min_distance;
    r.max_distance = over->max_distance != 0.0f ? over->max_distance : base->max_distance;
    r.shakes = over->shakes != 0.0f ? over->shakes : base->shakes;
    r.volume = over->volume != 0.0f ? over->volume : base->volume;
    r.sound_class = over->sound_class != 0 ? over->sound_class : base->sound_class;
    r.flags = base->flags | over->flags;
    *out = r;
}

void mc_sndshd_release(mc_sndshd *shader)
{
    if (!shader)
        return;
    mc_arena_release(&shader->arena);
    memset(shader, 0, sizeof *shader);
}
