/* mtr: Doom 3 material files (.mtr) -- the declarations only; material.h resolves them.
 *
 * A file holds any number of declarations:
 *
 *   models/monsters/imp/imp {                      // or: material models/monsters/imp/imp {
 *       twoSided                                   // global switches, each on its own
 *       alphaTest 0.5                              // a number 0..1
 *       polygonOffset 2                            // optional number (then 1), within +-1e6
 *       translucent
 *       noShadows
 *       diffusemap  models/monsters/imp/imp_d      // the three shorthands of a lit stage
 *       bumpmap     addnormals(models/imp/imp_local, heightmap(models/imp/imp_h, 4))
 *       specularmap models/monsters/imp/imp_s
 *       {                                          // a stage
 *           blend add                              // diffusemap|bumpmap|specularmap|add|filter|
 *                                                  // modulate|blend|none, or two GL factors:
 *                                                  // blend GL_ONE, GL_ONE_MINUS_SRC_ALPHA
 *           map models/monsters/imp/imp_glow       // an image program
 *           alphaTest 0.5
 *           color 1, 0.5, 0.5, 1                   // also rgb X, rgba X, red X, green X,
 *       }                                          // blue X, alpha X
 *   }
 *   table sintable { { 0, 1, 0, -1 } }             // a table for expressions (mtr_expr.h)
 *
 * `deform TYPE ...` inside a material (Material.cpp, ParseDeform) fills mc_mtr_decl.deform:
 * sprite, tube (both also set MC_MTR_TWO_SIDED and MC_MTR_NO_SHADOWS in flags), flare EXPR
 * (the same), expand EXPR, move EXPR, turbulent TABLE EXPR EXPR EXPR (the table resolved as an
 * expression's), eyeBall, particle NAME, particle2 NAME (these three with one warning: md5cine
 * does not draw them); any other type is an error at it.
 *   guide name template(args)                      // skipped (and a { ... } body, if any)
 *
 * Reflections and skies (Material.cpp, ParseStage): `cubeMap NAME` and `cameraCubeMap NAME` in
 * a stage name its image as a cube map of six files (mc_cube; a later map, cubeMap or
 * cameraCubeMap replaces it); `texgen normal|reflect|skybox` and `texgen wobbleSky A B C` (three
 * expressions, no ',') choose how the stage reads it (mc_texgen). Another texgen word is an
 * error at it.
 *
 * Image programs: an image name, a built-in image (_default, _white, _black, _flat), or
 * heightmap(P, scale), addnormals(P, P), smoothnormals(P), add(P, P), scale(P, r[, g[, b[, a]]])
 * (missing factors are 1), invertAlpha(P), invertColor(P), makeIntensity(P), makeAlpha(P);
 * function names compared case-insensitively, as every keyword here (Doom's lexer does the
 * same). Names are canonicalised: '\' as '/', lower case; a material name also loses the
 * extension after its last '.' (an image name keeps it: material.h picks the file).
 *
 * The arguments of alphaTest, color, rgb, rgba, red, green, blue, alpha, and of the stage
 * keywords if, scroll, translate, scale, centerScale, shear (two each, ',' between) and rotate
 * are Doom's expressions (mtr_expr.h), compiled into the declaration's expr program as Doom
 * compiles them; `colored` sets the colour to parm0..parm3. An expression ends before the
 * first token that is not an operator, so `alphaTest 0.5 diffusemap x` is two keywords. The
 * stage's color and alpha_test hold the constant values; the material's own alphaTest takes
 * only a constant (another is skipped with one warning per file). `table NAME { ... }`
 * declarations are read (and checked) for the expressions' NAME[x]; a table must be declared
 * in the same file (anywhere in it), except sinTable and cosTable, which are built in when
 * absent ("unknown table 'x'" otherwise, at the name).
 * Other keywords are skipped with one warning per keyword per file, through opts->warn
 * (MC_ERR_SYNTAX, at its first use), taking what Doom takes: nothing for Doom's flags and
 * surface parameters (noSelfShadow, forceOverlays, nearest, maskColor, solid, metal, ...); one
 * token on the keyword's line for sort, description, spectrum, privatePolygonOffset,
 * fragmentProgram, vertexProgram, program; for every other keyword (qer_editorimage,
 * mirrorRenderMap, ...) the rest of its line and any ( ... ) group that starts on that line (a '{'
 * there opens a stage). Doom reads qer_* and guisurf to the end of the line too; a keyword
 * Doom does not know at all makes Doom use its default material, where md5cine skips the line
 * and keeps the rest of the material. Other declaration types at the top level (skin,
 * particle, ...) are skipped with their bodies, one warning per type. The lexer is the shared
 * one (lex.h) with ',' '*' '+' '-' '%' '<' '>' '=' '!' '&' '|' '[' ']' as punctuation.
 * Errors name file:line:col of the offending token: a missing '{' or '}', a bad blend word, a malformed image program, a value out of
 * range (alphaTest outside 0..1), two declarations of one name in a file (the first one wins
 * in Doom; in one file it is a mistake), more than MC_LIMIT_MTR_DECLS declarations or
 * MC_LIMIT_MTR_STAGES stages, more than MC_LIMIT_MTR_PROG_DEPTH image program functions nested
 * (at the function that goes past it; an image inside the last is no level). */
#ifndef MC_MTR_H
#define MC_MTR_H

#include <stdbool.h>
#include <stddef.h>

#include <md5cine/arena.h>
#include <md5cine/decl_index.h>
#include <md5cine/error.h>
#include <md5cine/limits.h>
#include <md5cine/mtr_expr.h>
#include <md5cine/mtr_keywords.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A material's `deform` (Material.cpp, idMaterial::ParseDeform), applied to a surface's vertices
 * each frame as tr_deform.cpp does (docs/materials-and-shading.md, "Deforms"): sprite, tube and
 * flare face the camera; expand moves vertices along their normals, move along model +X, turbulent
 * shifts texture coordinates through a table. eyeBall, particle and particle2 are read but not
 * drawn deformed (one warning when parsed): the surface is drawn as it is. */
typedef enum mc_deform_kind {
    MC_DEFORM_NONE = 0,
    MC_DEFORM_SPRITE,
    MC_DEFORM_TUBE,
    MC_DEFORM_FLARE,     /* regs[0]: the flare's spread */
    MC_DEFORM_EXPAND,    /* regs[0]: the distance along the normals */
    MC_DEFORM_MOVE,      /* regs[0]: the distance along model +X */
    MC_DEFORM_TURBULENT, /* table; regs[0..2]: range, time offset, domain */
    MC_DEFORM_EYEBALL,
    MC_DEFORM_PARTICLE,
    MC_DEFORM_PARTICLE2,
} mc_deform_kind;

typedef struct mc_deform {
    mc_deform_kind kind;
    int regs[3]; /* registers of the material's expression program (mtr_expr.h) */
    int table;   /* MC_DEFORM_TURBULENT: index into the program's tables */
} mc_deform;

typedef enum mc_mtr_prog_kind {
    MC_PROG_IMAGE,          /* an image file, or a built-in image: name */
    MC_PROG_HEIGHTMAP,      /* arg[0], value[0] = scale */
    MC_PROG_ADDNORMALS,     /* arg[0], arg[1] */
    MC_PROG_SMOOTHNORMALS,  /* arg[0] */
    MC_PROG_ADD,            /* arg[0], arg[1] */
    MC_PROG_SCALE,          /* arg[0], value[0..3] = r g b a factors */
    MC_PROG_INVERT_ALPHA,   /* arg[0] */
    MC_PROG_INVERT_COLOR,   /* arg[0] */
    MC_PROG_MAKE_INTENSITY, /* arg[0] */
    MC_PROG_MAKE_ALPHA,     /* arg[0] */
} mc_mtr_prog_kind;

typedef struct mc_mtr_prog {
    mc_mtr_prog_kind kind;
    const char *name;          /* MC_PROG_IMAGE: canonical image name ("_flat" for a built-in) */
    struct mc_mtr_prog *arg[2];
    float value[4];
    int line, col;             /* position of the program's first token */
} mc_mtr_prog;

typedef enum mc_mtr_stage_kind {
    MC_STAGE_DIFFUSE,  /* blend diffusemap, or the diffusemap shorthand */
    MC_STAGE_BUMP,     /* blend bumpmap, or bumpmap */
    MC_STAGE_SPECULAR, /* blend specularmap, or specularmap */
    MC_STAGE_COLOR,    /* any other blend, or none: an unlit stage */
} mc_mtr_stage_kind;

typedef struct mc_mtr_stage {
    mc_mtr_stage_kind kind;
    mc_blend blend;       /* MC_STAGE_COLOR: the factors; (ONE, ZERO) when no blend was given */
    mc_mtr_prog *map;     /* NULL when the stage names no map */
    float alpha_test;     /* has_alpha_test: 0..1 */
    bool has_alpha_test;
    float color[4];       /* 1 1 1 1 unless color/rgb/rgba set it */
    bool conditional;     /* the stage has an `if` (evaluated per frame through expr) */
    mc_wrap wrap;         /* the stage's clamp keyword, else the material's, else repeat */
    bool has_wrap;        /* the stage named one */
    mc_cube cube;         /* cubeMap / cameraCubeMap NAME: map is the image NAME, read as six
                             faces by suffix; MC_CUBE_NONE for `map` */
    mc_texgen texgen;     /* texgen; MC_TEXGEN_EXPLICIT without one (wobbleSky's three
                             expressions are expr.wobble) */
    bool mask_red, mask_green, mask_blue, mask_alpha, mask_depth; /* maskRed ... maskDepth;
                             maskColor sets the three colours */
    mc_vertex_color vertex_color; /* vertexColor, inverseVertexColor (types.h) */
    mc_expr_stage expr;   /* condition, colour, alphaTest and texture matrix as registers of
                             the declaration's expr program (mtr_expr.h); color and alpha_test
                             above hold the values when they are constants */
    int line, col;        /* the stage's '{', or the shorthand keyword */
} mc_mtr_stage;

typedef struct mc_mtr_decl {
    const char *name; /* canonical */
    int line, col;    /* position of the name */
    int num_stages;
    mc_mtr_stage *stages; /* in file order, shorthands included */
    float alpha_test;     /* global alphaTest when has_alpha_test */
    bool has_alpha_test;
    unsigned flags;       /* the switches of mtr_keywords.h (MC_MTR_TWO_SIDED, ...) given */
    float polygon_offset; /* 0 when absent; 1 for a bare polygonOffset */
    mc_wrap wrap;         /* the material's clamp keyword: the default of its stages */
    mc_expr_program expr; /* every expression of its stages, tables resolved (mtr_expr.h) */
    mc_mtr_prog *falloff; /* a light material's `lightFalloffImage` program, or NULL */
    int falloff_line, falloff_col;
    mc_deform deform;     /* `deform` (above); its registers and table index expr */
} mc_mtr_decl;

typedef struct mc_mtr_file {
    const char *name; /* as given to mc_mtr_parse, for messages */
    int num_decls;
    mc_mtr_decl *decls; /* materials only, in file order */
    mc_arena arena;     /* owns every pointer above */
    mc_expr_tables *tables; /* the tables the declarations name (one reference), or NULL */
} mc_mtr_file;

/* Parses buf[0..len) (need not be NUL-terminated). name names the file in errors and warnings
 * (copied; may be NULL). opts may be NULL. On success fills *out (end it with
 * mc_mtr_release); on failure returns the code, fills *err and leaves *out zeroed. */
mc_status mc_mtr_parse(const char *buf, size_t len, const char *name, const mc_parse_opts *opts,
                       mc_mtr_file *out, mc_error *err);

/* Reads and parses the file at path (errors as mc_read_file, then mc_mtr_parse). */
mc_status mc_mtr_load(const char *path, const mc_parse_opts *opts, mc_mtr_file *out,
                      mc_error *err);

/* The declaration named name (canonicalised first), or NULL. */
const mc_mtr_decl *mc_mtr_find(const mc_mtr_file *file, const char *name);

/* Writes the canonical text of an image program into buf[0..cap) ("heightmap(x_h, 4)"; cut
 * short if it does not fit) and returns buf. */
const char *mc_mtr_prog_text(const mc_mtr_prog *prog, char *buf, size_t cap);

/* Frees the file and zeroes *file. Accepts a zeroed struct. */
void mc_mtr_release(mc_mtr_file *file);

/* ---- the engine's way: an index first (decl_index.h), a declaration parsed when it is
 * used ---- */

/* Indexes the material declarations of buf[0..len): mc_decl_index_text of the type
 * "material", the default in materials/ (decl_index.h says what it fails on). */
mc_status mc_mtr_index_text(const char *buf, size_t len, const char *name,
                            const mc_parse_opts *opts, mc_mtr_index *out, mc_error *err);

/* Parses the one declaration of span, read from the same buf[0..len) and name the index was
 * made from, into *out (one declaration; end it with mc_mtr_release). Errors and warnings as
 * mc_mtr_parse, at their positions in the whole file. */
mc_status mc_mtr_parse_span(const char *buf, size_t len, const char *name, const mc_mtr_span *span,
                            const mc_parse_opts *opts, mc_mtr_file *out, mc_error *err);

/* mc_mtr_parse_span with the file's tables read once for all its declarations: *tables is
 * NULL until a declaration names a table, then holds the tables of buf (one reference, the
 * caller's: end it with mc_expr_tables_release), which later calls on the same buf reuse. A
 * table that does not parse is reported, when a declaration names it, with its own error at its
 * position. */
mc_status mc_mtr_parse_span_tables(const char *buf, size_t len, const char *name,
                                   const mc_mtr_span *span, const mc_parse_opts *opts,
                                   mc_expr_tables **tables, mc_mtr_file *out, mc_error *err);

/* Doom's default material for name (Material.cpp, idMaterial::DefaultDefinition): one stage,
 * `blend blend` (SRC_ALPHA, ONE_MINUS_SRC_ALPHA), `map _default`. What a declaration that fails
 * to parse becomes. Errors: MC_ERR_NOMEM, or MC_ERR_SYNTAX for a name no declaration could
 * have. */
mc_status mc_mtr_default_decl(const char *name, mc_mtr_file *out, mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
