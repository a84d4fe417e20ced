/* What the renderer's passes share (src/gpu/): the renderer's state and the helpers each pass
 * file calls. render.c: the context, framebuffers, textures, frame begin and end, items (their
 * buffers), the overlay and the readback. interaction.c: the lit (and normals/unlit) scene pass
 * -- shaders, one item's draw. stages.c: the passes drawn after the lit opaque items (their
 * unlit stages, the translucent items). light.c: the lights -- per-frame values, projection
 * planes, volumes, images and their binding, checks. Calls go one way: render.c calls the
 * passes, stages.c calls interaction.c, interaction.c calls shadow.c, all of them light.c, and
 * every one of them gl_util.h's helpers. Not installed; nothing outside src/gpu/ includes it. */
#ifndef MC_GPU_RENDER_INT_H
#define MC_GPU_RENDER_INT_H

#include <stddef.h>

#include <md5cine/limits.h>
#include <md5cine/render.h>

#include "gpu/backend.h"
#include "gpu/gl_fns.h"
#include "gpu/gl_util.h"
#include "gpu/shadow_volume.h"

#define MAX_SIDE       MC_LIMIT_RENDER_MAX_SIDE
#define MAX_ELEMS      (1 << 24)
#define TEXT_MAX_QUADS 8192 /* stb_easy_font stops writing when the buffer is full */

/* What one draw needs besides its buffers (kept until the frame resolves). */
typedef struct draw_state {
    float model[16], nmat[9], color[4];
    float dcol[3], scol[3]; /* the diffuse and specular stages' colours */
    GLuint tex[3];          /* diffuse, normal, specular; 0 for none */
    int bits;               /* V_NMAP | V_SMAP | V_ATEST */
    float alpha_test, polygon_offset;
    unsigned flags; /* the item's material_flags (mtr_keywords.h) */
    int count;
    int mask_color, mask_alpha, mask_depth;
    GLenum front;
} draw_state;

/* An item's shadow volumes (shadow.c): its shadow vertices and, for each light of the frame,
 * a run of indices in one index buffer; count 0 where it casts nothing. */
typedef struct slot_shadow {
    GLuint vao, verts, idx; /* 0 until the item first casts */
    size_t verts_cap, idx_cap;
    size_t first[MC_RENDER_MAX_LIGHTS], count[MC_RENDER_MAX_LIGHTS]; /* indices */
    int short_idx; /* the indices are GLushort (at most 65536 shadow vertices), else GLuint */
    float light[MC_RENDER_MAX_LIGHTS][3]; /* the light's origin in model space */
    int rect[4]; /* the current light's scissor (shadow_volume.h), set by gpu_shadow_light */
    int skip;    /* the current light's volume can count on no drawn pixel */
} slot_shadow;

typedef struct slot {
    GLuint vao, pos, nrm, st, tan, idx;
    size_t pos_cap, nrm_cap, st_cap, tan_cap, idx_cap; /* bytes of storage */
    draw_state ds;
    gpu_box box; /* the item in world space */
    slot_shadow sh;
    int pending; /* drawn when the frame resolves */
    int unlit;   /* the current light's volume holds no point of its box (gpu_light_reach) */
    int late;    /* drawn after every opaque item (translucent) */
    int passes;  /* mc_item_passes (render.h) */
    mc_render_stage *stages; /* the item's unlit stages (stages.c), copied; malloc'd */
    int num_stages, cap_stages;
    int stages_only; /* no lit pass: depth only (opaque) or nothing (translucent) */
    int group_mask;  /* bit i: the light group's light i reaches the item (interaction.c) */
    int fold;        /* the light group's pass adds its ambient; its first pass is P_DEPTH */
} slot;

/* The unlit stage program's uniforms (stages.c). */
typedef struct stage_uniforms {
    GLint model, viewproj, ms, mt, tex, use_tex, wrap, color, alpha_test;
    GLint cube, texgen, wobble, eye, leye, nmap, bump, handed;
} stage_uniforms;

typedef struct uniforms {
    GLint model, viewproj, nmat, handed, mode, use_tex, color, key, fill, eye, tex;
    GLint nmap, smap, alpha, alpha_test, translucent;
    GLint ambient, dcol, lorg, lcol_d, lcol_s, lps, lpt, lpq, lpf, back;
    GLint lproj, lfall, spectab;
    GLint gorg, gcol_d, gcol_s, gps, gpt, gpq, gpf, grect, gmask, gproj, gfall;
    GLint mask, fold;
} uniforms;

/* The light group: 2 to this many lights that cast no shadows this frame draw their
 * interactions in one additive pass over the items, each light's share as its own pass would
 * have stored and added it (interaction.c), instead of one pass over the items each. With the
 * shadow mask (shadow.c) one light with shadows joins them, as the group's light 0: its share
 * is added where the mask, drawn for it before the pass, lets its own pass draw. */
#define MAX_GROUP_LIGHTS 4

/* The scene shader is built in variants, so that llvmpipe (which runs both sides of a branch)
 * only does the work an item needs: the V_* bits, times the pass (P_*; P_MASKED: a light's
 * pass that reads its shadows from the shadow mask, shadow.c; P_DEPTH: the first pass of an
 * item whose ambient the light group adds, depth and black, gpu_draw_opaque; P_GROUP + k - 2:
 * the light group's pass with k lights, P_GROUP_MASKED + k - 2 the same with its light 0
 * reading the mask). A variant is built on first use. */
enum { V_NMAP = 1, V_SMAP = 2, V_ATEST = 4, V_BITS = 8 };
enum { P_RIG = 0, P_AMBIENT, P_LIGHT, P_MASKED, P_DEPTH, P_GROUP,
       P_GROUP_MASKED = P_GROUP + MAX_GROUP_LIGHTS - 1,
       P_COUNT = P_GROUP_MASKED + MAX_GROUP_LIGHTS - 1 };
#define NUM_VARIANTS (V_BITS * P_COUNT)

/* Texture units of the scene shader; the light group's images from U_GPROJ and U_GFALL. */
enum { U_DIFFUSE = 0, U_NORMAL, U_SPECULAR, U_LPROJ, U_LFALL, U_SPECTAB,
       U_GPROJ, U_GFALL = U_GPROJ + MAX_GROUP_LIGHTS, U_MASK = U_GFALL + MAX_GROUP_LIGHTS };

/* A union of rectangles (x, y, w, h), empty at first: the bounds lo..hi once any was added. */
typedef struct gpu_reach {
    int lo[2], hi[2], any;
} gpu_reach;

/* The frame's light group (gpu_draw_opaque): which lights, and each one's reach on screen
 * (x, y, w, h as light_rect; w 0: none), the scissor its own pass would have had. */
typedef struct light_group {
    int n, light[MAX_GROUP_LIGHTS];
    int masked; /* light[0] casts shadows, read from the shadow mask */
    int rect[MAX_GROUP_LIGHTS][4];
    unsigned done; /* bit l: light l is one of them */
    gpu_reach reach; /* the union of their rects: the group's pass's scissor */
} light_group;

typedef struct program {
    GLuint id; /* 0 until built */
    uniforms u;
    unsigned frame; /* the frame whose per-frame uniforms it holds */
    int light;      /* the light whose uniforms it holds (-1: none) */
} program;

/* One light of the frame, as the shader takes it. */
typedef struct light_values {
    float org[3];      /* where L points to */
    float col[3];      /* colour * MC_LIGHT_SCALE */
    float plane[4][4]; /* s, t, q, falloff planes, world space (x, y, z, d): value = p.xyz + d */
    GLuint proj, fall; /* textures */
    int shadows;       /* 1: casts stencil shadows this frame */
} light_values;

/* The per-frame uniforms, set on each variant the frame uses. */
typedef struct frame_values {
    float vp[16], key[3], fill[3], eye[3], ambient[3];
    light_values lights[MC_RENDER_MAX_LIGHTS];
    int num_lights;
} frame_values;

/* The pass profile (MD5CINE_PASS_TIMES=1): GL finishes after each pass, whose wall time is
 * added to its row; printed when the renderer is released. Finishing each pass takes away
 * llvmpipe's overlap of binning and rasterising, so the rows add up to more than a frame costs
 * without it: they say where the time goes, not how long a frame takes. */
enum {
    PROF_SETUP,   /* mc_renderer_draw: uploads, shadow volumes made on the CPU */
    PROF_BASE,    /* the depth and ambient pass (or the one unlit/normals/rig pass) */
    PROF_VOLUMES, /* the lights' stencil shadow volumes, all lights */
    PROF_LIGHTS,  /* the lights' interactions, all lights */
    PROF_STAGES,  /* unlit stages, translucent items */
    PROF_RESOLVE, /* the MSAA resolve */
    PROF_READ,    /* the readback */
    PROF_ROWS
};

/* pass_profile.on: off, wall time (MD5CINE_PASS_TIMES=1), or the drawing thread's CPU time
 * (MD5CINE_PASS_TIMES=cpu: with LP_NUM_THREADS=0 llvmpipe rasterises on that thread, so the
 * rows are the work of each pass, which other processes on the machine disturb less). */
enum { PROF_OFF = 0, PROF_WALL, PROF_CPU };

typedef struct pass_profile {
    int on;
    double last;            /* seconds, when the current row started */
    double sum[PROF_ROWS];  /* seconds */
    unsigned frames;
    unsigned group_passes, group_lights; /* the light group's passes, and their lights */
    unsigned group_masked; /* of those lights, the ones with shadows (from the shadow mask) */
    unsigned group_folded; /* the items whose ambient the group's passes added (slot.fold) */
} pass_profile;

struct mc_renderer {
    pass_profile prof;
    int no_scissor; /* MD5CINE_NO_SCISSOR=1: no light reach, volumes over the whole frame */
    int no_group;   /* MD5CINE_NO_LIGHT_GROUP=1: every light in a pass of its own */
    int no_fold;    /* MD5CINE_NO_AMBIENT_FOLD=1: the ambient in the first pass, always */
    int light_rect[4]; /* the current light's reach on screen (gpu_light_reach); w 0: none */
    const mc_gpu_backend *backend;
    mc_gpu_context *ctx;
    mc_gl_fns gl;
    int width, height, samples;
    GLuint fbo_ms, ms_color, ms_depth;     /* multisampled target; 0 without MSAA */
    GLuint fbo, color, depth;              /* single-sample target (or the resolve target) */
    /* The shadow mask (shadow.c), with MSAA and shadows per pixel: a single-sample depth and
     * stencil texture and its framebuffer, where the volumes count over the depth of each
     * pixel's first sample; 0 otherwise. */
    GLuint fbo_mask, mask_ds;
    int mask_depth; /* this frame's depth is in the mask (copied after the first pass) */
    int masked;     /* the current light's interactions read the mask (P_MASKED) */
    GLuint spec_table, def_proj, def_fall; /* Doom's specular table, built-in light images */
    GLuint samp_zero, samp_edge;           /* light images: zero clamped, edge clamped */
    program progs[NUM_VARIANTS];
    GLuint text_prog, current;
    GLuint stage_prog; /* stages.c */
    stage_uniforms us;
    frame_values fv;
    light_group group;
    unsigned frame; /* counts begun frames, from 1 */
    GLint ut_origin, ut_scale, ut_size;
    GLuint shadow_prog; /* shadow.c: the shadow volumes' program */
    GLint us_model, us_viewproj, us_light;
    int shadow_on; /* the current light's stencil test is on */
    size_t unfinished; /* indices drawn since GL last finished (gpu_drawn) */
    int stencil_fresh; /* the stencil holds GPU_STENCIL_CLEAR everywhere, as the frame's clear
                          left it: no light's volumes have been drawn yet */
    gpu_shadow_work shadow_work; /* CPU scratch of the volumes, grown as needed */
    float *shadow_verts;
    unsigned *shadow_idx;
    unsigned short *shadow_idx16; /* shadow_idx as 16 bits, for an item that allows it */
    size_t shadow_verts_cap, shadow_idx_cap, shadow_idx16_cap; /* elements */
    GLuint *textures; /* id k is textures[k - 1] */
    unsigned char *cube_textures; /* 1: id k is a cube map (GL_TEXTURE_CUBE_MAP) */
    int num_textures, cap_textures;
    slot *slots; /* num_slots made (each with its GL objects), cap_slots allocated */
    int num_slots, used_slots, cap_slots;
    GLuint text_vao, text_vbo, text_ibo;
    float *text_verts; /* TEXT_MAX_QUADS * 4 vertices of 16 bytes (x, y, z, rgba8) */
    int in_frame, resolved, shading;
    mc_warn_fn warn;
    void *warn_user;
    const volatile sig_atomic_t *stop; /* mc_renderer_desc.stop; gpu_stopped */
    char gl_renderer[128], gl_version[128], gl_vendor[128], device[128];
};

/* ---- interaction.c ---- */

/* Builds scene shader variant v (V_* bits plus lights * V_BITS) unless it is built. */
mc_status gpu_build_variant(mc_renderer *r, int v, mc_error *err);
/* Sets the item's face state: its front winding, culling (none when two-sided) and polygon
 * offset. */
void gpu_set_faces(const mc_gl_fns *gl, const draw_state *ds);
/* Sets the item's uniforms and GL state and draws its slot in pass P_* (light: the light's
 * index for P_LIGHT). */
void gpu_draw_slot(mc_renderer *r, const slot *sl, int pass, int light);
/* Draws the frame's pending opaque items: one pass (the camera rig, unlit, normals) or
 * Doom's passes (depth and ambient, then one additive pass per light, the light group's in
 * one); their unlit stages follow (stages.c, gpu_draw_opaque_stages). A stages-only item
 * writes depth only in the first pass. The ambient fold: an item the light group reaches,
 * wholly inside the group's scissor (opaque, every pass, no colour or depth mask), draws its
 * depth in black in the first pass (P_DEPTH; dhewm3 draw_common.cpp RB_T_FillDepthBuffer:
 * "others just draw black") and the group's pass adds its ambient with the lights, at every
 * fragment that matches the depth, as Doom adds a light, an ambient light too (draw_arb2.cpp
 * RB_ARB2_CreateDrawInteractions).
 * MD5CINE_NO_AMBIENT_FOLD=1 keeps every ambient in the first pass. */
void gpu_draw_opaque(mc_renderer *r);
/* The pass (P_*) of the frame's light group, the variant a lit item needs besides P_AMBIENT,
 * P_LIGHT and P_MASKED: P_GROUP + k - 2 for k lights without shadows (at most
 * MAX_GROUP_LIGHTS), or with the shadow mask and a light with shadows P_GROUP_MASKED + k - 2
 * for the first such light and k - 1 without; -1 for fewer than 2 lights, or with
 * MD5CINE_NO_LIGHT_GROUP=1. */
int gpu_group_pass(const mc_renderer *r);

/* ---- light.c ---- */

/* Makes the specular table and the built-in light images and samplers. */
mc_status gpu_build_light_images(mc_renderer *r, mc_error *err);
/* Deletes them (context current). */
void gpu_light_delete_gl(mc_renderer *r);
/* Checks the frame's lights and ambient light (MC_ERR_USAGE naming the light). */
mc_status gpu_check_lights(const mc_renderer *r, const mc_frame_params *p, mc_error *err);
/* Computes the frame's uniforms (r->fv) from p: the view-projection, the camera rig's
 * directions, the eye, the ambient light and each light's values. */
void gpu_frame_values(mc_renderer *r, const mc_frame_params *p);
/* Light l's volume in world space as planes (a x + b y + c z + d >= 0 inside, as gpu_box_rect
 * takes them), widened for its images' filtering: s and t, and the falloff when its image is
 * zero outside. Returns the number of planes (4 or 6). */
int gpu_light_volume(const mc_renderer *r, int l, float out[6][4]);
/* Binds light i's projection and falloff images (with Doom's clamping) and the specular
 * table; gpu_unbind_light undoes the samplers. */
void gpu_bind_light(mc_renderer *r, int i);
void gpu_unbind_light(mc_renderer *r);
/* Binds the light group's images (r->group) to the units from U_GPROJ and U_GFALL, with the
 * specular table; gpu_unbind_light_group undoes the samplers. */
void gpu_bind_light_group(mc_renderer *r);
void gpu_unbind_light_group(mc_renderer *r);

/* ---- shadow.c ---- */

/* Adds rect (x, y, w, h) to the union a. */
void gpu_reach_add(gpu_reach *a, const int rect[4]);
/* Whether item sl's box is on the screen and, widened as a light's reach is, within a's
 * bounds: a pass scissored to them draws every pixel of the item. */
int gpu_reach_holds(const mc_renderer *r, const gpu_reach *a, const slot *sl);

/* Makes the shadow mask's texture and framebuffer (r->mask_ds, r->fbo_mask; shadow.c), for
 * MSAA with shadows per pixel; leaves them 0 where GL lacks stencil texturing (GL 4.3).
 * Errors: MC_ERR_GL. */
mc_status gpu_shadow_mask_build(mc_renderer *r, mc_error *err);
/* Builds the shadow volumes' program. */
mc_status gpu_shadow_build(mc_renderer *r, mc_error *err);
/* Makes and uploads item it's shadow volumes into sl for every light of the frame that casts
 * shadows (none for a no_shadows item, one drawn late -- translucent --, or outside lit
 * shading with lights).
 * det: the model matrix's determinant. Errors: MC_ERR_NOMEM, MC_ERR_GL. */
mc_status gpu_shadow_item(mc_renderer *r, slot *sl, const mc_draw_item *it, float det,
                          mc_error *err);
/* Before light l's volumes and interactions, its reach (Doom's scissorRect, tr_light.cpp
 * R_AddLightSurfaces and tr_render.cpp's interaction culling): marks the pending items whose
 * box holds no point of the light's volume (widened for the images' filtering) unlit -- the
 * light adds nothing to them -- and sets r->light_rect to the whole 64-pixel tiles around the
 * others' boxes inside that volume (shadow.c: "Where a volume can count"). Interactions and
 * volumes are drawn within it; the frame is the same, pixel for pixel. */
void gpu_light_reach(mc_renderer *r, int l);
/* The stencil's value where no volume counts (shadow.c): Doom clears it to 128 with the depth
 * when a view starts (tr_render.cpp RB_BeginDrawingView) and before each light's shadows. */
#define GPU_STENCIL_CLEAR 128
/* Before light l's interactions: when some pending item casts a shadow from l, clears the
 * stencil (unless r->stencil_fresh), draws the volumes of the items without
 * MC_MTR_NO_SELF_SHADOW (Doom's globalShadows) and leaves the stencil test on for the
 * interactions (lit where no volume covers the pixel); else leaves the stencil test off. */
void gpu_shadow_light(mc_renderer *r, int l);
/* After the MC_MTR_NO_SELF_SHADOW items' interactions with light l: their volumes
 * (localShadows). */
void gpu_shadow_local(mc_renderer *r, int l);
/* With the shadow mask, after gpu_shadow_light left it unused (no volume to draw): clears it
 * to GPU_STENCIL_CLEAR and binds it, so that a pass reading it lights every pixel. */
void gpu_shadow_mask_clear(mc_renderer *r);
/* After the last light: stencil test off. */
void gpu_shadow_done(mc_renderer *r);
/* Deletes the GL objects (context current) / frees the CPU buffers. */
void gpu_shadow_delete_gl(mc_renderer *r);
void gpu_shadow_free(mc_renderer *r);

/* ---- stages.c ---- */

/* After gpu_draw_opaque: the unlit stages of the frame's pending opaque items, which are then
 * no longer pending. */
void gpu_draw_opaque_stages(mc_renderer *r);
/* Draws the frame's pending translucent items, in submission order, each followed by its
 * unlit stages. */
void gpu_draw_translucent(mc_renderer *r);
/* Builds the unlit stage program. */
mc_status gpu_build_stages(mc_renderer *r, mc_error *err);
/* tr_main.cpp R_GlobalPointToLocal (gl_util.c): world point p in the item's model space,
 * A^-1 (p - t), A^-1 being the transpose of the normal matrix (the inverse transpose): the
 * lights of its shadow volumes, the eye of its sky stages. */
void gpu_point_to_model(const draw_state *ds, const float p[3], float out[3]);
/* Room for one more texture id (gl_util.c); whether id is a cube map's. */
mc_status gpu_texture_room(mc_renderer *r, mc_error *err);
bool gpu_is_cube(const mc_renderer *r, int id);
/* Checks an item's stages (MC_ERR_USAGE naming what is wrong; NULL: fine). */
const char *gpu_check_stages(const mc_renderer *r, const mc_draw_item *it);
/* Draws a slot's unlit stages over what is drawn (RB_STD_T_RenderShaderPasses); leaves
 * blending off, the colour mask full, depth test LEQUAL and depth writes on. */
void gpu_draw_stages(mc_renderer *r, const slot *sl);

#endif
