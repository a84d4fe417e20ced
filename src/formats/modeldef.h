/* modeldef: Doom 3's model declarations, as the game's .def files of def/ write them
 * (game/anim/Anim_Blend.cpp, idDeclModelDef::Parse and ParseAnim):
 *
 *   model monster_zombie_fat {
 *       inherit  zombie_default                       // another model's settings, then these
 *       mesh     models/md5/monsters/zfat/zfat.md5mesh
 *       skin     skins/monsters/zfat_bloody           // a skin declaration
 *       offset   ( 0 0 -4 )                           // added to joint 0: the model moves
 *       channel  torso ( *Waist )                     // read and ignored
 *       anim     idle models/md5/monsters/zfat/idle1.md5anim
 *       anim     walk models/md5/monsters/zfat/walk1.md5anim, models/.../walk2.md5anim {
 *           frame 12 sound_body snd_footstep         // frame commands and flags (framecmd.h)
 *           prevent_idle_override
 *       }
 *       remove   pain                                 // drops an inherited anim
 *   }
 *
 * A def file also holds entityDef, articulatedFigure, export and other declarations: the file
 * is read the declaration manager's way (framework/DeclManager.cpp, idDeclFile::LoadAndParse:
 * a type word, a name, a braced body skipped unparsed, decl_scan.h), and only the model
 * declaration asked for is parsed, strictly: its errors are file:line:col (an unknown keyword,
 * a mesh that is not .md5mesh, an anim without a file, a missing '}' ...), where Doom warns and
 * makes the model its default one. Of an anim's synced files (a, b, ...) the first is played (the
 * engine counts frame commands' frames in it); all are listed, at most 3. Its `{ ... }` of
 * frame commands and flags is read
 * as framecmd.h says: a command or flag word md5cine does not know is kept, not an error; a
 * `frame` without its number or command on its line, a number that is not a whole number from
 * 1, a known command without its arguments on its line, or a brace out of place is an error
 * (the engine's "Frame %d out of range", "Unexpected end of line", ... which default the
 * model). Paths are game paths (relative to base),
 * kept as written with '\' read as '/'. Private to src/formats and src/scene. */
#ifndef MC_MODELDEF_H
#define MC_MODELDEF_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/arena.h>
#include <md5cine/error.h>
#include <md5cine/framecmd.h>
#include <md5cine/limits.h>

/* files of one anim line (the played one and those synced to it): Anim.h's ANIM_MaxSyncedAnims,
 * past which idDeclModelDef::ParseAnim defaults the model */
#define MC_MODELDEF_SYNCED 3

/* A game path a declaration names, with the position of its token. */
typedef struct mc_modeldef_file {
    const char *path;
    int line, col;
} mc_modeldef_file;

typedef struct mc_modeldef_anim {
    const char *name; /* as written ("walk", "idle2") */
    const char *path; /* the first file: files[0].path */
    int line, col;    /* the name's position */
    int num_files;    /* its files in file order, the first and those synced to it */
    mc_modeldef_file files[MC_MODELDEF_SYNCED];
    bool remove;      /* a `remove NAME` line (path NULL): drops an inherited anim of that name */
    unsigned flags;   /* MC_ANIMFLAG_* of its block */
    int num_commands; /* its frame commands, in file order (at most MC_LIMIT_ANIM_FRAME_COMMANDS
                         with the unknown flags) */
    mc_frame_command *commands;
    int num_unknown_flags; /* the other words of its block: frame 0, kind MC_FC_UNKNOWN, the
                              rest of their line as arguments */
    mc_frame_command *unknown_flags;
} mc_modeldef_anim;

typedef struct mc_modeldef {
    const char *name;    /* as written */
    int line, col;       /* the name's position */
    const char *inherit; /* NULL when none */
    int inherit_line, inherit_col;
    const char *mesh; /* NULL when the declaration names none */
    int mesh_line, mesh_col;
    const char *skin; /* NULL when none */
    bool has_offset;
    float offset[3];
    int num_anims; /* anim and remove lines in file order */
    mc_modeldef_anim *anims;
} mc_modeldef;

/* Looks for `model NAME { ... }` in buf[0..len) (NAME compared without case; NULL: the first
 * model declaration) and parses it into *out, its strings in arena. *found tells whether one
 * was there; MC_OK with *found false when none is. file names the file in errors (not copied;
 * must outlive *out's use in messages). Errors (MC_ERR_SYNTAX, MC_ERR_RANGE, MC_ERR_LIMIT,
 * MC_ERR_NOMEM) at
 * their position in the whole file; *out is then zeroed. */
mc_status mc_modeldef_find(const char *buf, size_t len, const char *file, const char *name,
                           mc_arena *arena, mc_modeldef *out, bool *found, mc_error *err);

/* One `model NAME` of a file, as mc_modeldef_each finds it: its name (in the buffer, not
 * NUL-terminated), the offset and position of its `model` word and the position of its name. */
typedef struct mc_modeldef_at {
    const char *name;
    size_t name_len;
    size_t start;
    int line, col;
    int name_line, name_col;
} mc_modeldef_at;

/* Calls fn for each model declaration of buf[0..len) in file order, as mc_modeldef_find reads
 * them (nothing parsed); stops at fn's first status that is not MC_OK and returns it. */
mc_status mc_modeldef_each(const char *buf, size_t len,
                           mc_status (*fn)(void *user, const mc_modeldef_at *at), void *user);

/* Calls each(user, name, len) for the name of every `model NAME { ... }` in buf[0..len) in
 * order (the names point into buf), as mc_modeldef_find looks for them: for the hint of a name
 * no declaration has. */
void mc_modeldef_each_name(const char *buf, size_t len,
                           void (*each)(void *user, const char *name, size_t len), void *user);

/* Parses the declaration mc_modeldef_each found at *at in the same buf and len, as
 * mc_modeldef_find would (its errors the same). */
mc_status mc_modeldef_parse_at(const char *buf, size_t len, const char *file,
                               const mc_modeldef_at *at, mc_arena *arena, mc_modeldef *out,
                               mc_error *err);

#endif
