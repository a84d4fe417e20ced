/* libFuzzer target: model declarations of def files (src/formats/modeldef.h) on arbitrary
 * bytes: the first model declaration found, parsed strictly. A parsed one holds its anims
 * within the limit, each with a name (and a file unless it is a `remove`), and their frame
 * commands (framecmd.h): frames from 1, a known command with the arguments it reads, an unknown
 * one with at most the limit's, every position inside the text; a failure is a sane error
 * inside the text. The names of every model declaration (mc_modeldef_each_name) lie inside the
 * text, in order. */
#include <stddef.h>
#include <stdint.h>

#include <md5cine/limits.h>

#include "formats/modeldef.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_command(const mc_frame_command *c, bool flag, long lines)
{
    int want = mc_frame_cmd_args(c->kind);

    FUZZ_REQUIRE(c->word != NULL); /* "" is a word too (an unknown one) */
    FUZZ_REQUIRE(c->line >= 1 && c->line <= lines && c->col >= 1);
    FUZZ_REQUIRE(c->word_line == c->line && c->word_col >= c->col);
    FUZZ_REQUIRE(flag ? c->frame == 0 && c->kind == MC_FC_UNKNOWN
                      : c->frame >= 1 && c->frame <= MC_LIMIT_ANIM_FRAMES);
    FUZZ_REQUIRE(c->kind >= 0 && c->kind <= MC_FC_UNKNOWN);
    FUZZ_REQUIRE(c->kind == MC_FC_UNKNOWN ||
                 mc_frame_cmd_find(c->word, strlen(c->word)) == c->kind);
    if (c->kind == MC_FC_UNKNOWN)
        FUZZ_REQUIRE(c->num_args >= 0 && c->num_args <= MC_LIMIT_FRAME_COMMAND_ARGS);
    else if (want == MC_FC_OPTIONAL_ARG)
        FUZZ_REQUIRE(c->num_args == 0 || c->num_args == 1);
    else
        FUZZ_REQUIRE(c->num_args == want);
    for (int k = 0; k < c->num_args; k++)
        FUZZ_REQUIRE(c->args[k].text && c->args[k].line == c->line &&
                     c->args[k].col > c->word_col);
}

/* The names mc_modeldef_each_name gives: inside the input, in order, each non-empty. */
typedef struct names_seen {
    const char *buf, *end, *last;
    int count;
} names_seen;

static void check_name(void *user, const char *name, size_t len)
{
    names_seen *n = user;

    FUZZ_REQUIRE(len >= 1 && name >= n->buf && name + len <= n->end &&
                 (!n->last || name > n->last));
    n->last = name;
    n->count++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    names_seen names = { (const char *)data, (const char *)data + size, NULL, 0 };
    mc_arena arena = { 0 };
    mc_modeldef m;
    mc_error err;
    bool found;
    mc_status s;

    s = mc_modeldef_find((const char *)data, size, "fuzz.def", NULL, &arena, &m, &found, &err);
    if (s != MC_OK) {
        FUZZ_REQUIRE(found);
        FUZZ_REQUIRE(s == MC_ERR_SYNTAX || s == MC_ERR_RANGE || s == MC_ERR_LIMIT ||
                     s == MC_ERR_NOMEM);
        FUZZ_REQUIRE(s == MC_ERR_NOMEM ||
                     (err.line >= 1 && err.col >= 1 && err.line <= fuzz_line_count(data, size)));
        FUZZ_REQUIRE(m.name == NULL && m.num_anims == 0);
    } else if (found) {
        FUZZ_REQUIRE(m.name && m.line >= 1);
        FUZZ_REQUIRE(m.num_anims >= 0 && m.num_anims <= MC_LIMIT_MODELDEF_ANIMS);
        for (int i = 0; i < m.num_anims; i++) {
            const mc_modeldef_anim *a = &m.anims[i];

            FUZZ_REQUIRE(a->name && (a->remove || a->path));
            FUZZ_REQUIRE((a->flags & ~15u) == 0);
            FUZZ_REQUIRE(a->num_commands + a->num_unknown_flags <= MC_LIMIT_ANIM_FRAME_COMMANDS);
            for (int k = 0; k < a->num_commands; k++)
                check_command(&a->commands[k], false, fuzz_line_count(data, size));
            for (int k = 0; k < a->num_unknown_flags; k++)
                check_command(&a->unknown_flags[k], true, fuzz_line_count(data, size));
        }
    }
    /* the names the hint of an unknown model reads: one at least when find found one */
    mc_modeldef_each_name((const char *)data, size, check_name, &names);
    FUZZ_REQUIRE(!found || names.count >= 1);
    mc_arena_release(&arena);
    return 0;
}
