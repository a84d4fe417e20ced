/* material: a Doom 3 material resolved into the images and switches a renderer draws with.
 *
 * A material declaration (a `.mtr` file, see mtr.h) names image programs, not pixels. Resolving
 * it reads every image its programs name through a virtual file system (vfs.h), runs the
 * programs (heightmap, addnormals, ...; see mc_imgprog_eval) and fills one mc_material:
 *
 *   - the lit layer: diffuse, normal and specular maps, from the shorthands `diffusemap`,
 *     `bumpmap`, `specularmap` or from the stages `{ blend diffusemap|bumpmap|specularmap ... }`.
 *     When a material has several stages of one kind, the first is used (Doom draws each
 *     diffuse stage as its own interaction; one is what a cut scene's models use).
 *   - the unlit layers: every other stage (`blend add`, `blend filter`, `blend GL_ONE, GL_ONE`,
 *     ...), in file order, drawn after the lit layer with their own blend factors.
 *   - the switches: alphaTest, twoSided, translucent, noShadows, polygonOffset.
 *
 * An unlit stage with an `if` condition is kept, its condition evaluated per frame with the
 * actor's parms (material_eval.h); a lit stage with one is left out.
 *
 * Images are RGBA8 with row 0 = top (as Doom uploads them: t = 0 samples row 0). A normal map
 * holds a tangent-space unit vector per texel as RGB = n * 0.5 + 0.5, as Doom's `_local` images
 * and its heightmap program write them: x along +s (to the right), y along +t (down the
 * picture, towards the last row: a height rising down the picture gives green < 128), z out
 * of the surface -- the frame of Doom's per-vertex tangents (first along +s, second along +t);
 * flat is (128, 128, 255). A normal map's alpha is 255 unless the program sets it.
 *
 * Missing images: an image file the VFS does not hold is replaced by the built-in `_default`
 * image (below) and the map records the fallback, so a report can name every image that was
 * missing. A map the material does not name at all has present == false and no pixels: then the renderer uses its own stand-in -- white for a
 * diffuse map, flat (128,128,255) for a normal map, black for a specular map -- exactly as
 * Doom's interaction does with _white/_flat/_black.
 *
 * In a scene: scene_materials.h.
 *
 * Ownership: mc_material_resolve fills a caller-provided mc_material whose strings and pixels
 * it owns; mc_material_release frees them. A mc_material_set (mc_material_set_load) owns its
 * materials and the parsed files, and reads through its VFS, which must outlive it. A resolved
 * mc_material refers to nothing outside itself, except that the maps of a set's materials share
 * their pixels: each distinct image (the same image program and clamp mode) is read, counted
 * against the set's pixel budget and kept once, its pixels owned by the set (map.shared). */
#ifndef MC_MATERIAL_H
#define MC_MATERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/image.h>
#include <md5cine/mtr.h>
#include <md5cine/mtr_expr.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mc_vfs;      /* vfs.h */
struct mc_mtr_decl; /* mtr.h */
struct mc_mtr_prog; /* mtr.h */

/* One image of a material, with where it came from. */
typedef struct mc_material_map {
    bool present;   /* the material names this map; false: no pixels, renderer's stand-in */
    mc_image image; /* RGBA8, row 0 = top; pixels NULL when !present */
    char *program;  /* the image program in canonical text, e.g.
                       "addnormals(models/imp_local, heightmap(models/imp_h, 4))"; NULL when
                       !present */
    char *sources;  /* the files read for it, "; "-separated, each as the VFS names it
                       ("base/pak000.pk4:models/imp_local.tga", "base/models/x.tga") or
                       "_default (missing models/x)" for a fallback; NULL when !present */
    bool fell_back; /* some image of the program was missing and `_default` stands for it */
    float color[4]; /* the stage's constant colour (`color`, `rgb`, `red` ...; literal
                       numbers only), multiplying the image: Doom's diffuseColor and
                       specularColor of a lit stage; 1 1 1 1 when none */
    mc_wrap wrap;   /* the stage's clamp mode; zeroclamp and alphazeroclamp have already set
                       the border texels of image (Image_load.cpp, idImage::GenerateImage
                       with R_SetBorderTexels) */
    bool shared;    /* image.pixels belong to the material set, one copy for every map of the
                       same program and wrap (compare the pointers to share a texture); they
                       live until mc_material_set_destroy, not freed with the material */
    mc_cube cube;   /* a cube map (`cubeMap`, `cameraCubeMap`): image holds its six square
                       faces one under another (width n, height 6 n), in the order px, nx, py,
                       ny, pz, nz, each row 0 = top as the engine uploads a face; a camera
                       face already turned into the native one (Image_files.cpp
                       R_LoadCubeImages). Files NAME_px ... or NAME_forward ..., each found as
                       an image is; a face missing or of another size than the first makes
                       all six `_default` (fell_back, sources say which). Wrap is clamp */
} mc_material_map;

/* A stage drawn without lighting, after the lit layer. */
typedef struct mc_material_layer {
    mc_material_map map; /* always present */
    mc_blend blend;
    mc_texgen texgen;    /* how the stage reads its map (types.h); wobbleSky's parameters are
                            expr.wobble */
    float alpha_test;    /* 0: off; else keep only where the map's alpha / 255 > value */
    float color[4];      /* constant RGBA multiplier of the stage (`color`, `rgb`, ...): the
                            constant ones; 1 where an expression sets it (see expr) */
    mc_expr_stage expr;  /* condition, colour, alpha test and texture matrix as registers of
                            the material's expr: evaluated per frame (material_eval.h) */
    bool mask_red, mask_green, mask_blue, mask_alpha; /* maskRed ... maskColor, maskAlpha:
                                                        that channel is not written */
    bool mask_depth;     /* maskDepth: no depth written (stages never write depth anyway) */
    mc_vertex_color vertex_color; /* vertexColor, inverseVertexColor (types.h) */
    bool translucent;    /* the material's coverage is translucent (Material.cpp): its stages
                            are depth tested LEQUAL; else EQUAL (exactly on the lit surface) */
} mc_material_layer;

typedef struct mc_material {
    char *name;         /* canonical: lower case, '/' separators, no extension */
    char *file;         /* the .mtr file that declared it ("base/pak000.pk4:materials/imp.mtr"),
                           for messages; NULL for a material made from an image name */
    int line, col;      /* position of the name in that file; 0 when file is NULL */

    bool lit;           /* has a diffuse, bump or specular stage: drawn with lights */
    mc_vertex_color lit_vertex_color; /* the interaction's: the vertexColor or
                                         inverseVertexColor of the later of its diffuse and
                                         specular stages (types.h) */
    mc_material_map diffuse;  /* colour; alpha feeds alpha_test */
    mc_material_map normal;   /* tangent-space, RGB = n * 0.5 + 0.5 */
    mc_material_map specular; /* RGB specular colour */
    mc_blend diffuse_blend;   /* (ONE, ZERO): Doom adds each light's interaction; kept for a
                                 renderer that draws the lit layer as one pass */

    int num_layers;
    mc_material_layer *layers; /* unlit stages in file order */

    float alpha_test;     /* 0: off; else keep only the fragments whose diffuse alpha / 255 is
                             above it (Doom's glAlphaFunc(GL_GREATER, value)). From the diffuse
                             stage's alphaTest or, failing that, the global one; a file's
                             "alphaTest 0" reads as off */
    unsigned flags;       /* the declaration's switches (mtr_keywords.h: MC_MTR_TWO_SIDED no
                             face culling, MC_MTR_TRANSLUCENT no depth write and drawn after
                             opaque surfaces, ...) */
    float polygon_offset; /* 0: none; `polygonOffset` alone is 1 */
    mc_expr_program expr; /* the stages' expressions (mtr_expr.h), owned */
    /* As a light material (a scene light's `shader`): each unlit stage (layers) is one of the
     * light's passes, its map the projection image and its colour the light's colour
     * (tr_render.cpp, RB_CreateSingleDrawInteractions); the falloff image from
     * `lightFalloffImage` (clamped), present or not. */
    mc_material_map falloff;
    mc_deform deform;     /* `deform`; kind MC_DEFORM_NONE without one. sprite, tube and flare
                             also set MC_MTR_TWO_SIDED and MC_MTR_NO_SHADOWS, as Doom's parser
                             does */
} mc_material;

/* The built-in images. `_default` is Doom's box that shows the mapping: 16x16, the outermost
 * ring of pixels (255, 255, 255, 255), every pixel inside (32, 32, 32, 255) (Image_init.cpp
 * idImage::MakeDefault with com_developer; without it the renderer draws it all zero, alpha 0
 * included: scene_renderer.h developer_images). `_white`, `_black`
 * and `_flat` are 1x1: (255, 255, 255, 255), (0, 0, 0, 255), (128, 128, 255, 255).
 * `_noFalloff`, a light falloff that does not fade, is 64x16: (255, 255, 255, 255) inside a
 * ring of (0, 0, 0, 0). */
#define MC_MATERIAL_DEFAULT_SIDE 16

/* Fills *img with the built-in image `name` ("_default", "_white", "_black", "_flat"; compared
 * case-insensitively). false (and *img zeroed) for any other name or out of memory. */
bool mc_material_builtin(const char *name, mc_image *img);

/* Runs an image program: reads every image it names through vfs and combines them as Doom
 * does (Image_program.cpp's rules, with its fast inverse square root where Doom uses it):
 *
 *   image       NAME.tga, then NAME.jpg, then NAME.png when NAME has no extension or ".tga";
 *               otherwise the name as given. TGA through mc_tga_decode, others through
 *               stb_image. Missing: `_default`.
 *   heightmap   grey d = (r + g + b) / 3 (integer); s = scale / 256; at each texel, with d1 the
 *               texel, d2 the one to its right, d3 the one below, d4 below-right (wrapping
 *               around the edges): n1 = fastnorm(-(d2-d1) s, -(d3-d1) s, 1),
 *               n2 = fastnorm(-(d4-d3) s, (d1-d3) s, 1), n = fastnorm(n1 + n2), written as
 *               byte(n * 127 + 128) (truncated), alpha 255.
 *   addnormals  the second image drop-sampled to the first's size; n = (c1 - 128) / 127; when
 *               |n| < 1, n.z = sqrt(1 - n.x^2 - n.y^2); n.xy += (c2.xy - 128) / 127; normalised;
 *               byte(n * 127 + 128), alpha 255. A zero vector stays zero (128, 128, 128).
 *   smoothnormals  the sum of (c - 128) over the 3x3 neighbourhood (wrapping), skipping texels
 *               (0,0,0) and (128,128,128), normalised, byte(128 + 127 n); alpha kept.
 *   add         per byte min(a + b, 255), the second drop-sampled to the first's size.
 *   scale       per channel: c * factor truncated to an integer, its low 8 bits kept (no clamp:
 *               Image_program.cpp R_ImageScale casts to a byte before its clamp).
 *   invertAlpha a = 255 - a.  invertColor: rgb = 255 - rgb.
 *   makeIntensity  g = b = a = r.  makeAlpha: a = (r + g + b) / 3, rgb = 255.
 *
 * Drop-sampling (Doom's R_Dropsample): out(x, y) = in(x * inw / outw, int((y + 0.25) * inh /
 * outh)). Every image file is first rounded down to power-of-two sides as Doom does with its
 * default image_roundDown 1 (R_LoadImage; R_ResampleTexture: each texel the truncated mean of
 * four, at most 4096 a side); DDS files are taken as they are. A stage's clamp, zeroclamp or
 * alphazeroclamp (mc_wrap) then sets the map's wrap and, for the last two, its border texels.
 *
 * A missing image becomes `_default`: *fell_back is then set. sources (may be NULL) receives a
 * malloc'd "; "-separated list of where each image came from (see mc_material_map.sources).
 * Errors: a damaged image file (MC_ERR_IMAGE, naming it), a read failure (as mc_vfs_read),
 * MC_ERR_LIMIT when the images it reads come to more than MC_LIMIT_MATERIAL_PIXELS (checked on
 * each image's header, before it is decoded; at the image's name in the .mtr), MC_ERR_NOMEM.
 * *out is zeroed on failure. mc_material_resolve applies that budget to the whole material. */
mc_status mc_imgprog_eval(const struct mc_mtr_prog *prog, struct mc_vfs *vfs, mc_image *out,
                          bool *fell_back, char **sources, mc_error *err);

/* Reads the image file at path (a file of the disk, not of a base) as a material's image files
 * are read -- the extension decides the reader: .tga, .dds, else PNG or JPEG by signature --
 * with its header checked against the pixels left of a budget of limit (0:
 * MC_LIMIT_SCENE_IMAGE_PIXELS), of which *used are spent, before it is decoded; its pixels are
 * then added to *used. Not resampled. Errors: as mc_read_file, MC_ERR_IMAGE, MC_ERR_LIMIT
 * ("WxH pixels take the scene past N pixels of images in all", at path), MC_ERR_NOMEM; *img
 * is zeroed on failure. */
mc_status mc_image_file_load(const char *path, unsigned long long limit, unsigned long long *used,
                             mc_image *img, mc_error *err);

/* Resolves one parsed declaration. file names the .mtr for messages (copied; may be NULL).
 * On failure *out is zeroed and the error names the image concerned. */
mc_status mc_material_resolve(const struct mc_mtr_decl *decl, const char *file,
                              struct mc_vfs *vfs, mc_material *out, mc_error *err);

/* Frees what *mat owns and zeroes it. mat may be NULL or zeroed. */
void mc_material_release(mc_material *mat);

/* Every material declared by the `.mtr` files of a VFS's `materials/` folder (loose and in
 * archives), read the engine's way (decl_index.h): loading indexes every file,
 * and a declaration is parsed, then resolved -- images read --, on its first
 * mc_material_set_find. Unused declarations are never parsed: an error in one costs nothing
 * and says nothing. */
typedef struct mc_material_set mc_material_set;

/* Indexes the material, skin, table, sound and entityDef declarations of every declaration
 * folder Doom reads -- materials/NAME.mtr, skins/NAME.skin, sound/NAME.sndshd, def/NAME.def,
 * fx/NAME.fx, particles/NAME.prt, af/NAME.af, newpdas/NAME.pda, in that order (DeclManager.cpp and
 * Game_local.cpp RegisterDeclFolder) and each folder in the VFS's sorted name order; an untyped
 * declaration has its folder's type. A material's table missing from its own file is found
 * among all of them (Material.cpp, FindType(DECL_TABLE)). When several
 * declarations share a name the first wins -- the earliest file in that order, the earliest
 * place in a file --, as Doom's DeclManager keeps the first and skips the others (a file of
 * the same name in a later .pk4 or as a loose file replaces the whole file first: vfs.h).
 * opts (copied; may be NULL) carries warnings for declarations parsed later and the stop
 * flag, looked at before each file and each declaration. The vfs must outlive the set.
 * Errors: as mc_vfs_read, MC_ERR_LIMIT past MC_LIMIT_MTR_TEXT_BYTES or MC_LIMIT_MTR_INDEX,
 * MC_ERR_INTERRUPTED, MC_ERR_NOMEM. */
mc_status mc_material_set_load(struct mc_vfs *vfs, const mc_parse_opts *opts,
                               mc_material_set **out, mc_error *err);

/* The material named `name` (canonicalised first: '\' as '/', lower case, extension after
 * the last '.' removed), parsed and resolved on first use; NULL with MC_OK in *status when no
 * declaration has that name; NULL with an error when resolving failed (an image, a limit,
 * MC_ERR_INTERRUPTED). A declaration that fails to parse is not an error: it becomes Doom's
 * default material (mc_mtr_default_decl) and the parse error is reported once, as a warning
 * at its position, through the set's opts. */
const mc_material *mc_material_set_find(mc_material_set *set, const char *name,
                                        mc_status *status, mc_error *err);

/* Number of declarations (one per name), and the name of the i-th (0 <= i < count), for
 * reports. */
int mc_material_set_count(const mc_material_set *set);
const char *mc_material_set_name(const mc_material_set *set, int i);

/* Where the declaration of `name` is (the .mtr file as the VFS names it, and the line of its
 * first token in *line, which may be NULL), without parsing it; NULL when none is declared. */
const char *mc_material_set_declared(const mc_material_set *set, const char *name, int *line);

struct mc_skinfile; /* skin.h */

/* The skin declaration `name` of the base (skins/, or typed in any declaration folder), parsed on
 * first use; NULL with MC_OK in *status when none has that name; NULL with an error when it fails
 * to parse. */
const struct mc_skinfile *mc_material_set_skin(mc_material_set *set, const char *name,
                                               mc_status *status, mc_error *err);

/* The name of the base's skin declaration nearest name (compared as the declarations'
 * canonical names, lower case with '/'), NULL when none is near enough (at most 2 edits, fewer
 * than half its letters): the hint of an unknown skin. The name is the set's. */
const char *mc_material_set_nearest_skin(const mc_material_set *set, const char *name);

struct mc_sndshd;    /* sndshd.h */
struct mc_entitydef; /* entitydef.h */

/* The sound shader declaration `name` of the base (sound/, or typed `sound NAME` in any
 * declaration folder; the name canonicalised as a material's), parsed on first use and kept;
 * the first declaration of a name wins. NULL with MC_OK in *status when none has that name:
 * then the engine plays the implicit shader, mc_sndshd_implicit (sndshd.h). A declaration that
 * fails to parse is one warning at its error's position (through the set's opts) and comes back
 * as a silent shader, `defaulted` set and no sound file, where the engine would play its default
 * beep (_default.wav) -- or, with opts.strict_game_data, NULL with the parse error in *status.
 * NULL with an error also for MC_ERR_NOMEM and MC_ERR_INTERRUPTED. Unknown keywords are
 * warnings (sndshd.h). The shader lives as long as the set. */
const struct mc_sndshd *mc_material_set_sound(mc_material_set *set, const char *name,
                                             mc_status *status, mc_error *err);

/* The entity declaration `name` (def/, or typed `entityDef NAME` in any declaration folder),
 * merged with what it inherits (entitydef.h), parsed on first use and kept. NULL with MC_OK
 * when none has that name. A declaration that fails to parse is one warning at its position
 * and is left out: NULL with MC_OK, and a declaration inheriting it gets nothing from it (the
 * engine would give it the default declaration's one key, "DEFAULTED" "1") -- or, with
 * opts.strict_game_data, NULL with the parse error. An inherited name no declaration has is a
 * warning at its key. Errors (NULL): an inherit cycle (MC_ERR_SYNTAX) or a chain deeper than
 * MC_LIMIT_ENTITYDEF_INHERIT (MC_ERR_LIMIT), at the inherit key that closes or passes it;
 * MC_ERR_LIMIT past MC_LIMIT_ENTITYDEF_PAIRS; MC_ERR_NOMEM; MC_ERR_INTERRUPTED. The
 * declaration lives as long as the set. */
const struct mc_entitydef *mc_material_set_entitydef(mc_material_set *set, const char *name,
                                                     mc_status *status, mc_error *err);

/* How many declarations have been parsed so far: those a scene used, not the others. */
int mc_material_set_parsed(const mc_material_set *set);

/* Frees the set and every material it resolved. NULL is accepted. */
void mc_material_set_destroy(mc_material_set *set);

/* Whether Doom draws a surface of material m (Material.h, idMaterial::IsDrawn: it has a
 * stage). A surface whose material has none -- textures/common/nodraw and the like -- is
 * hidden. */
bool mc_material_drawn(const mc_material *m);

#ifdef __cplusplus
}
#endif

#endif
