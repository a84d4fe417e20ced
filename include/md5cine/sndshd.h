/* sndshd: Doom 3's sound shaders, the declarations of the base's sound/NAME.sndshd files:
 *
 *   sound monster_zombie_fat_footstep {       // "sound" may be left out in sound/
 *       description "zombie steps"
 *       minDistance 2   maxDistance 30       // metres
 *       volume -3                            // dB
 *       no_dups
 *       sound/monsters/zfat/step1.wav        // any token holding .wav or .ogg: an entry
 *       sound/monsters/zfat/step2.wav
 *   }
 *
 * Read as the engine reads them (sound/snd_shader.cpp, idSoundShader::ParseShader, the same in
 * the first GPL release and dhewm3): tokens as md5cine's lexer reads a material (lex.h, with
 * ',' a token of its own), keywords compared without case (quoted or not), up to the first '}'.
 * Defaults: minDistance 1, maxDistance 10, volume 1 (dB), shakes 0, no flags, soundClass 0, no
 * speaker mask, leadinVolume 0. Every keyword:
 *
 *   minSamples N       the cap on entries and leadins becomes ClampInt(N, 32, cap) as the engine
 *                      computes it (idMath::ClampInt(min, max, value)), from 32 (the engine's
 *                      s_maxSoundsPerShader 0): raised to N above 32, which would make the
 *                      engine write past its 32 slots; md5cine keeps 32 (MC_SOUND_MAX_ENTRIES)
 *   description TEXT   one token from the same line; none there: the empty text
 *   minDistance F  maxDistance F  volume F  leadinVolume F     numbers
 *   shakes [F]         F when a number follows, else 1
 *   reverb F , F       read and ignored ("no longer supported")
 *   mask_left mask_right mask_center mask_lfe mask_backleft mask_backright   speaker mask bits
 *   soundClass N       0..3; anything else is an error (the engine fails the shader)
 *   altSound NAME      the shader a broken light plays instead (kept, not resolved)
 *   ordered plain onDemand                       accepted, no effect (the engine's too)
 *   no_dups no_flicker looping no_occlusion private antiPrivate playonce global unclamped
 *   omnidirectional                              MC_SSF_* flags
 *   leadin FILE        a leadin sample (any token), played before the entry of its index
 *   a token holding ".wav" or ".ogg" (without case)   an entry
 *
 * Entries and leadins past the cap are dropped, as the engine drops them (with a warning from
 * md5cine). File names are kept as written with '\' read as '/' (the engine also lowers their
 * case; the base's file system compares names without case: vfs.h). The engine moves an entry
 * under sound/vo/ to sound/vo/<language>/ when its sys_lang is not English; md5cine plays the
 * English game, so never. A shaders' "shakes with OGG files" warning is not given (it is about
 * the files, which the mixer reads).
 *
 * Where md5cine differs: a word that is no keyword and no sound file is a warning (through
 * opts->warn, at its position, with a "did you mean" of the keywords), skipped with the tokens
 * after it on its line that are neither keywords nor sound files, and the shader still plays --
 * the engine instead fails the whole shader and plays its default beep (_default.wav), so that
 * The Dark Mod's own keywords (editor_displayFolder, no_efx, ...) cost a warning, not the sound.
 * A keyword that wants a number and finds none is an error (the engine logs a lexer error and
 * takes 0). */
#ifndef MC_SNDSHD_H
#define MC_SNDSHD_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/arena.h>
#include <md5cine/error.h>
#include <md5cine/mtr.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Speakers of the mask (speakerLabel of idlib/math/Simd.h): bit 1 << MC_SPEAKER_*. */
enum {
    MC_SPEAKER_LEFT = 0,
    MC_SPEAKER_RIGHT,
    MC_SPEAKER_CENTER,
    MC_SPEAKER_LFE,
    MC_SPEAKER_BACKLEFT,
    MC_SPEAKER_BACKRIGHT,
};

/* One sample file of a shader. */
typedef struct mc_sndshd_sample {
    const char *file; /* as written, '\' read as '/' ("sound/x/step1.wav") */
    int line, col;    /* its token in the declaration (0 0 in an implicit shader) */
} mc_sndshd_sample;

typedef struct mc_sndshd {
    const char *name; /* canonical (decl_index.h: lower case, '/', no extension) */
    const char *file; /* the declaration's file as the base names it, "" when implicit */
    int line, col;    /* the declaration's first token; 0 0 when implicit */
    mc_sound_parms parms;
    float leadin_volume;     /* dB while a leadin plays (leadinVolume; 0 unless given) */
    int speaker_mask;        /* 1 << MC_SPEAKER_* bits; 0: every speaker */
    const char *description; /* NULL when none is given */
    const char *alt_sound;   /* altSound's name as written, or NULL */
    int min_samples;         /* minSamples as written (the last one); 0 when none */
    int num_entries;         /* 0..MC_SOUND_MAX_ENTRIES: the shader plays one of them */
    mc_sndshd_sample entries[MC_SOUND_MAX_ENTRIES];
    int num_leadins; /* leadins[i] plays before entries[i] when i < num_leadins */
    mc_sndshd_sample leadins[MC_SOUND_MAX_ENTRIES];
    bool implicit;  /* made by mc_sndshd_implicit for a name with no declaration */
    bool defaulted; /* a declaration that fails to parse (or an implicit shader of a
                       name that gives no sound file): no entries, silent */
    mc_arena arena; /* owns every pointer above */
} mc_sndshd;

/* The shader parameters of a shader that sets none (ParseShader's first lines). */
mc_sound_parms mc_sndshd_default_parms(void);

/* Parses the sound shader declaration span of buf[0..len) (an index made by
 * mc_decl_index_text with the type "sound"); name names the file in errors and is copied into
 * out->file. Warnings (an unknown keyword, entries past the cap) through opts->warn; opts may
 * be NULL. Errors, at their positions: MC_ERR_SYNTAX (no '{', no closing '}', a keyword without
 * its value, a name past MC_LIMIT_NAME_LEN, a lexical error), MC_ERR_RANGE (soundClass outside
 * 0..3, a number out of range), MC_ERR_NOMEM. On failure *out is zeroed. */
mc_status mc_sndshd_parse_span(const char *buf, size_t len, const char *name,
                               const mc_mtr_span *span, const mc_parse_opts *opts, mc_sndshd *out,
                               mc_error *err);

/* The engine's implicit shader for a name no declaration has (idSoundShader::SetDefaultText,
 * given the canonical name as the declaration manager names it): one entry, the canonical name
 * with ".wav" added unless its last path component has a '.' (idStr::DefaultFileExtension of
 * dhewm3); when that file holds neither ".wav" nor ".ogg" the engine's parse of it fails, and
 * the shader is defaulted (silent). So `sound_body monsters/Step.ogg` with no declaration plays
 * "monsters/step.wav" (and the engine's file open tries the .ogg first: idWaveFile::Open).
 * Errors: MC_ERR_SYNTAX for an empty name or one longer than MC_LIMIT_NAME_LEN, MC_ERR_NOMEM;
 * *out is then zeroed. */
mc_status mc_sndshd_implicit(const char *name, mc_sndshd *out, mc_error *err);

/* The parameters a sound starts with (idSoundEmitterLocal::OverrideParms, snd_emitter.cpp):
 * each of min_distance, max_distance, shakes, volume and sound_class is over's when over's is
 * not zero, else base's; the flags are base's | over's. out may be base or over. */
void mc_sndshd_override_parms(const mc_sound_parms *base, const mc_sound_parms *over,
                              mc_sound_parms *out);

/* Frees the shader and zeroes it; accepts a zeroed struct. */
void mc_sndshd_release(mc_sndshd *shader);

#ifdef __cplusplus
}
#endif

#endif
