/* The frame commands of Doom 3's model declarations (framecmd.h): one table, read by the model
 * declaration parser, the scene and the soundtrack. */
#include <string.h>

#include <md5cine/framecmd.h>

typedef struct fc_row {
    const char *word;
    int args, channel, flags;
    bool acted;
} fc_row;

static const fc_row ROWS[MC_FC_UNKNOWN] = {
#define MC_X_FC_ROW(id, word, args, channel, flags, acted) { word, args, channel, flags, acted },
    MC_FRAME_COMMAND_LIST(MC_X_FC_ROW)
#undef MC_X_FC_ROW
};

mc_frame_cmd_kind mc_frame_cmd_find(const char *word, size_t len)
{
    for (int k = 0; k < MC_FC_UNKNOWN; k++)
        if (strlen(ROWS[k].word) == len && memcmp(ROWS[k].word, word, len) == 0)
            return (mc_frame_cmd_kind)k;
    return MC_FC_UNKNOWN;
}

static bool known(mc_frame_cmd_kind kind)
{
    return (int)kind >= 0 && kind < MC_FC_UNKNOWN;
}

const char *mc_frame_cmd_word(mc_frame_cmd_kind kind)
{
    return known(kind) ? ROWS[kind].word : "?";
}

int mc_frame_cmd_args(mc_frame_cmd_kind kind)
{
    return known(kind) ? ROWS[kind].args : 0;
}

bool mc_frame_cmd_acted(mc_frame_cmd_kind kind)
{
    return known(kind) && ROWS[kind].acted;
}

bool mc_frame_cmd_sound(mc_frame_cmd_kind kind, mc_sound_channel *channel, int *flags)
{
    if (!known(kind) || ROWS[kind].channel == MC_FC_NO_CHANNEL)
        return false;
    if (channel)
        *channel = (mc_sound_channel)ROWS[kind].channel;
    if (flags)
        *flags = ROWS[kind].flags;
    return true;
}

bool mc_frame_cmd_names_key(const char *arg)
{
    return strncmp(arg, "snd_", 4) == 0;
}

static const struct {
    const char *word;
    unsigned flag;
} ANIM_FLAGS[] = {
    { "prevent_idle_override", MC_ANIMFLAG_PREVENT_IDLE_OVERRIDE },
    { "random_cycle_start", MC_ANIMFLAG_RANDOM_CYCLE_START },
    { "ai_no_turn", MC_ANIMFLAG_AI_NO_TURN },
    { "anim_turn", MC_ANIMFLAG_ANIM_TURN },
};

unsigned mc_anim_flag_find(const char *word, size_t len)
{
    for (size_t i = 0; i < sizeof ANIM_FLAGS / sizeof ANIM_FLAGS[0]; i++)
        if (strlen(ANIM_FLAGS[i].word) == len && memcmp(ANIM_FLAGS[i].word, word, len) == 0)
            return ANIM_FLAGS[i].flag;
    return 0;
}

const char *mc_anim_flag_word(unsigned flag)
{
    for (size_t i = 0; i < sizeof ANIM_FLAGS / sizeof ANIM_FLAGS[0]; i++)
        if (ANIM_FLAGS[i].flag == flag)
            return ANIM_FLAGS[i].word;
    return NULL;
}
