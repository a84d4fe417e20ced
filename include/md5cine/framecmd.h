/* framecmd: the frame commands and flags of a model declaration's anim, Doom 3's
 *
 *   anim walk models/x/walk.md5anim {
 *       frame 12  sound_body snd_footstep      // at frame 12 (from 1): a sound on BODY
 *       frame 12  footstep                     // several on one frame run in file order
 *       frame 30  skin skins/x/bloody
 *       prevent_idle_override                  // one of the anim's four flags
 *   }
 *
 * as game/anim/Anim_Blend.cpp reads them (idDeclModelDef::ParseAnim, idAnim::AddFrameCommand)
 * and plays them (idAnim::CallFrameCommands); the commands are frameCommandType_t of
 * game/anim/Anim.h, in its order. `frame N` takes an integer N on its own line, counted from 1
 * (1 <= N <= the anim's numFrames, which the scene checks once it has loaded the anim), then a
 * command word on the same line; the word is compared with case, as the engine does. Each
 * command reads its arguments from the same line, one token each (any token: a name, a number,
 * a "string"); MC_FC_OPTIONAL_ARG takes one when the line has one. A command the engine does not
 * know (The Dark Mod's `attach`, `detach`, `drop`, `pickup`, `destroy`, ...) is kept as
 * MC_FC_UNKNOWN with the rest of its line as its arguments: where the engine makes the whole
 * model its default, md5cine reads on, and the scene warns once per such name. A word of the
 * block other than `frame` and the four flags is kept the same way, as an unknown flag.
 *
 * What the engine does with a sound command's argument (AddFrameCommand): one that starts with
 * `snd_` (compared with case) is a key of the entity's spawn arguments naming the sound shader
 * (idEntity::StartSound); any other is a sound shader's name. */
#ifndef MC_FRAMECMD_H
#define MC_FRAMECMD_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MC_FC_OPTIONAL_ARG (-1) /* args column: one argument when the line has one */
#define MC_FC_NO_CHANNEL   (-1) /* channel column: not a sound */

/* X(ID, word, args, channel, flags, acted): every command of AddFrameCommand. args: how many
 * tokens it reads from its line; channel: the emitter channel a sound command starts its shader
 * on (idAnim::CallFrameCommands; footsteps: idActor::PlayFootStepSound and idAnimated::
 * Event_Footstep start the entity's snd_footstep on BODY); flags: the MC_SSF_* it adds; acted:
 * whether md5cine acts on it (sounds, footsteps, skins). sound_chatter plays on VOICE when the
 * entity CanPlayChatterSounds, which idEntity's always can. */
#define MC_FRAME_COMMAND_LIST(X)                                                       \
    X(CALL, "call", 1, MC_FC_NO_CHANNEL, 0, false)                                     \
    X(OBJECT_CALL, "object_call", 1, MC_FC_NO_CHANNEL, 0, false)                       \
    X(EVENT, "event", 1, MC_FC_NO_CHANNEL, 0, false)                                   \
    X(SOUND, "sound", 1, MC_SND_CHANNEL_ANY, 0, true)                                  \
    X(SOUND_VOICE, "sound_voice", 1, MC_SND_CHANNEL_VOICE, 0, true)                    \
    X(SOUND_VOICE2, "sound_voice2", 1, MC_SND_CHANNEL_VOICE2, 0, true)                 \
    X(SOUND_BODY, "sound_body", 1, MC_SND_CHANNEL_BODY, 0, true)                       \
    X(SOUND_BODY2, "sound_body2", 1, MC_SND_CHANNEL_BODY2, 0, true)                    \
    X(SOUND_BODY3, "sound_body3", 1, MC_SND_CHANNEL_BODY3, 0, true)                    \
    X(SOUND_WEAPON, "sound_weapon", 1, MC_SND_CHANNEL_WEAPON, 0, true)                 \
    X(SOUND_ITEM, "sound_item", 1, MC_SND_CHANNEL_ITEM, 0, true)                       \
    X(SOUND_GLOBAL, "sound_global", 1, MC_SND_CHANNEL_ANY, MC_SSF_GLOBAL, true)        \
    X(SOUND_CHATTER, "sound_chatter", 1, MC_SND_CHANNEL_VOICE, 0, true)                \
    X(SKIN, "skin", 1, MC_FC_NO_CHANNEL, 0, true)                                      \
    X(TRIGGER, "trigger", 1, MC_FC_NO_CHANNEL, 0, false)                               \
    X(TRIGGER_SMOKE_PARTICLE, "triggerSmokeParticle", 1, MC_FC_NO_CHANNEL, 0, false)   \
    X(MELEE, "melee", 1, MC_FC_NO_CHANNEL, 0, false)                                   \
    X(DIRECT_DAMAGE, "direct_damage", 1, MC_FC_NO_CHANNEL, 0, false)                   \
    X(ATTACK_BEGIN, "attack_begin", 1, MC_FC_NO_CHANNEL, 0, false)                     \
    X(ATTACK_END, "attack_end", 0, MC_FC_NO_CHANNEL, 0, false)                         \
    X(MUZZLE_FLASH, "muzzle_flash", 1, MC_FC_NO_CHANNEL, 0, false)                     \
    X(CREATE_MISSILE, "create_missile", 1, MC_FC_NO_CHANNEL, 0, false)                 \
    X(LAUNCH_MISSILE, "launch_missile", 1, MC_FC_NO_CHANNEL, 0, false)                 \
    X(FIRE_MISSILE_AT_TARGET, "fire_missile_at_target", 2, MC_FC_NO_CHANNEL, 0, false) \
    X(FOOTSTEP, "footstep", 0, MC_SND_CHANNEL_BODY, 0, true)                           \
    X(LEFTFOOT, "leftfoot", 0, MC_SND_CHANNEL_BODY, 0, true)                           \
    X(RIGHTFOOT, "rightfoot", 0, MC_SND_CHANNEL_BODY, 0, true)                         \
    X(ENABLE_EYE_FOCUS, "enableEyeFocus", 0, MC_FC_NO_CHANNEL, 0, false)               \
    X(DISABLE_EYE_FOCUS, "disableEyeFocus", 0, MC_FC_NO_CHANNEL, 0, false)             \
    X(FX, "fx", 1, MC_FC_NO_CHANNEL, 0, false)                                         \
    X(DISABLE_GRAVITY, "disableGravity", 0, MC_FC_NO_CHANNEL, 0, false)                \
    X(ENABLE_GRAVITY, "enableGravity", 0, MC_FC_NO_CHANNEL, 0, false)                  \
    X(JUMP, "jump", 0, MC_FC_NO_CHANNEL, 0, false)                                     \
    X(ENABLE_CLIP, "enableClip", 0, MC_FC_NO_CHANNEL, 0, false)                        \
    X(DISABLE_CLIP, "disableClip", 0, MC_FC_NO_CHANNEL, 0, false)                      \
    X(ENABLE_WALK_IK, "enableWalkIK", 0, MC_FC_NO_CHANNEL, 0, false)                   \
    X(DISABLE_WALK_IK, "disableWalkIK", 0, MC_FC_NO_CHANNEL, 0, false)                 \
    X(ENABLE_LEG_IK, "enableLegIK", 1, MC_FC_NO_CHANNEL, 0, false)                     \
    X(DISABLE_LEG_IK, "disableLegIK", 1, MC_FC_NO_CHANNEL, 0, false)                   \
    X(RECORD_DEMO, "recordDemo", MC_FC_OPTIONAL_ARG, MC_FC_NO_CHANNEL, 0, false)       \
    X(AVI_GAME, "aviGame", MC_FC_OPTIONAL_ARG, MC_FC_NO_CHANNEL, 0, false)

typedef enum mc_frame_cmd_kind {
#define MC_X_FC_ENUM(id, word, args, channel, flags, acted) MC_FC_##id,
    MC_FRAME_COMMAND_LIST(MC_X_FC_ENUM)
#undef MC_X_FC_ENUM
            MC_FC_UNKNOWN, /* a word the engine does not know; the rest of its line as arguments */
    MC_FC_COUNT
} mc_frame_cmd_kind;

/* The anim's flags (animFlags_t of Anim.h): MC_ANIMFLAG_* bits. */
enum {
    MC_ANIMFLAG_PREVENT_IDLE_OVERRIDE = 1 << 0,
    MC_ANIMFLAG_RANDOM_CYCLE_START = 1 << 1,
    MC_ANIMFLAG_AI_NO_TURN = 1 << 2,
    MC_ANIMFLAG_ANIM_TURN = 1 << 3,
};

/* The flag of word[0..len) (compared with case, as ParseAnim does), or 0. */
unsigned mc_anim_flag_find(const char *word, size_t len);

/* The word of one MC_ANIMFLAG_* bit ("prevent_idle_override"), or NULL for any other value. */
const char *mc_anim_flag_word(unsigned flag);

/* One token of a command's line: its text as written (a "string" without its quotes), its
 * place in the .def file. */
typedef struct mc_frame_arg {
    const char *text;
    int line, col;
} mc_frame_arg;

typedef struct mc_frame_command {
    int frame; /* as written: 1 is the anim's first frame; 0 for an unknown flag */
    mc_frame_cmd_kind kind;
    const char *word;        /* the command (or unknown flag) as written */
    int line, col;           /* the `frame` keyword (an unknown flag: the word) */
    int word_line, word_col; /* the command word */
    int num_args;
    const mc_frame_arg *args; /* num_args, in line order */
} mc_frame_command;

/* The command whose word is word[0..len) (compared with case), or MC_FC_UNKNOWN. */
mc_frame_cmd_kind mc_frame_cmd_find(const char *word, size_t len);

/* The word of kind ("sound_body"); "?" for MC_FC_UNKNOWN and anything out of range. */
const char *mc_frame_cmd_word(mc_frame_cmd_kind kind);

/* Arguments kind reads: 0, 1, 2 or MC_FC_OPTIONAL_ARG; MC_FC_UNKNOWN: 0 (it takes the rest of
 * its line instead). */
int mc_frame_cmd_args(mc_frame_cmd_kind kind);

/* Whether md5cine acts on kind: the sound commands, footstep, leftfoot, rightfoot and skin. The
 * others (scripts, effects, AI, physics, demos) and unknown commands are listed and skipped. */
bool mc_frame_cmd_acted(mc_frame_cmd_kind kind);

/* For a command that starts a sound (the sound family and the footsteps): true, the emitter
 * channel in *channel and the MC_SSF_* it adds in *flags (either may be NULL). false for any
 * other kind. */
bool mc_frame_cmd_sound(mc_frame_cmd_kind kind, mc_sound_channel *channel, int *flags);

/* Whether a sound command's argument names a key of the entity's spawn arguments (it starts
 * with "snd_", compared with case: AddFrameCommand's Cmpn) rather than a sound shader. */
bool mc_frame_cmd_names_key(const char *arg);

#ifdef __cplusplus
}
#endif

#endif
