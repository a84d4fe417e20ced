/* Plain value types shared by every module. Conventions (Doom 3's, written down once):
 * world +Z up, +X forward, +Y left, 1 unit = 1 inch. A quaternion is stored x y z w as in the
 * files, w >= 0 rebuilt as sqrt(|1 - x^2 - y^2 - z^2|); rotation matrices are built with Doom's
 * ToMat3 and applied to row vectors (see mathx.h). */
#ifndef MC_TYPES_H
#define MC_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A frame number: output frames of a render, stored frames of a file, frames of a reference.
 * Signed so that "none" can be -1. */
typedef int64_t mc_frame_no;

/* A frame rate num / den frames per second, both >= 1 (30000/1001 for 29.97 fps). */
typedef struct mc_rate {
    int num, den;
} mc_rate;

/* Pixels someone else owns: width x height RGBA8, top row first, rows stride bytes apart
 * (stride >= width * 4). Every function that takes or fills a frame uses this view. */
typedef struct mc_image_view {
    int width, height;
    size_t stride;
    uint8_t *pixels;
} mc_image_view;

typedef struct mc_vec2 {
    float x, y;
} mc_vec2;

typedef struct mc_vec3 {
    float x, y, z;
} mc_vec3;

typedef struct mc_quat {
    float x, y, z, w;
} mc_quat;

/* Rows are axes (row 0 forward, row 1 left, row 2 up for a view); points are row vectors:
 * p' = p * M, i.e. p'.c = sum_r p.r * m[r][c]. */
typedef struct mc_mat3 {
    float m[3][3];
} mc_mat3;

/* OpenGL layout: column-major, element (row r, col c) at m[c * 4 + r]. */
typedef struct mc_mat4 {
    float m[16];
} mc_mat4;

/* One OpenGL blend factor, as the material names it (GL_ONE, GL_SRC_ALPHA, ...). */
typedef enum mc_blend_factor {
    MC_BLEND_ZERO,
    MC_BLEND_ONE,
    MC_BLEND_DST_COLOR,
    MC_BLEND_ONE_MINUS_DST_COLOR,
    MC_BLEND_SRC_ALPHA,
    MC_BLEND_ONE_MINUS_SRC_ALPHA,
    MC_BLEND_DST_ALPHA,
    MC_BLEND_ONE_MINUS_DST_ALPHA,
    MC_BLEND_SRC_ALPHA_SATURATE,
    MC_BLEND_SRC_COLOR,
    MC_BLEND_ONE_MINUS_SRC_COLOR,
} mc_blend_factor;

/* glBlendFunc(src, dst). Doom's words map to: add = (ONE, ONE); filter and modulate =
 * (DST_COLOR, ZERO); blend = (SRC_ALPHA, ONE_MINUS_SRC_ALPHA); none = (ZERO, ONE); no blend
 * (an opaque stage) = (ONE, ZERO). */
typedef struct mc_blend {
    mc_blend_factor src, dst;
} mc_blend;

/* How a stage uses its surface's vertex colours (Material.cpp, idMaterial::ParseStage:
 * vertexColor, inverseVertexColor; draw_common.cpp RB_STD_T_RenderShaderPasses and
 * draw_arb2.cpp RB_ARB2_DrawInteraction). An MD5 mesh's vertex colour is 0 0 0 0 (Model_md5.cpp
 * clears its vertices with idDrawVert::Clear and never sets one); a flare writes its own
 * (tr_deform.cpp R_FlareDeform). */
typedef enum mc_vertex_color {
    MC_VERTEX_COLOR_IGNORE,   /* SVC_IGNORE: the stage's colour alone */
    MC_VERTEX_COLOR_MODULATE, /* SVC_MODULATE: times the vertex colour (RGB and alpha) */
    MC_VERTEX_COLOR_INVERSE,  /* SVC_INVERSE_MODULATE: RGB times 1 - the vertex RGB, alpha
                                 times the vertex alpha (GL_ONE_MINUS_SRC_COLOR on RGB only) */
} mc_vertex_color;

/* How a stage's image repeats (Material.cpp: clamp, zeroclamp, alphazeroclamp; noclamp is the
 * default, repeat). */
typedef enum mc_wrap {
    MC_WRAP_REPEAT,
    MC_WRAP_CLAMP,            /* clamp to the edge texels */
    MC_WRAP_ZERO_CLAMP,       /* clamp, the border texels set to (0, 0, 0, 255) */
    MC_WRAP_ALPHA_ZERO_CLAMP, /* clamp, the border texels set to (255, 255, 255, 0) */
} mc_wrap;

/* A stage's texture coordinates (Material.cpp, idMaterial::ParseStage "texGen"; texgen_t):
 * the mesh's own (explicit), or a direction into a cube map made per vertex or per fragment
 * (draw_common.cpp RB_PrepareStageTexturing, tr_light.cpp R_SkyboxTexGen and
 * R_WobbleskyTexGen). */
typedef enum mc_texgen {
    MC_TEXGEN_EXPLICIT,  /* the mesh's st through the stage's matrix */
    MC_TEXGEN_NORMAL,    /* `texgen normal`: the vertex normal, model space */
    MC_TEXGEN_REFLECT,   /* `texgen reflect`: the eye reflected about the normal, world space */
    MC_TEXGEN_SKYBOX,    /* `texgen skybox`: vertex - eye, model space */
    MC_TEXGEN_WOBBLESKY, /* `texgen wobbleSky a b c`: the skybox's vector turned per frame */
} mc_texgen;

/* How a stage's image is read (Material.cpp "cubeMap", "cameraCubeMap"; cubeFiles_t): one
 * picture, or a cube map of six by the engine's suffixes (Image_files.cpp R_LoadCubeImages). */
typedef enum mc_cube {
    MC_CUBE_NONE,   /* a 2D image */
    MC_CUBE_NATIVE, /* `cubeMap NAME`: NAME_px, _nx, _py, _ny, _pz, _nz */
    MC_CUBE_CAMERA, /* `cameraCubeMap NAME`: NAME_forward, _back, _left, _right, _up, _down,
                       each turned into the native face as the engine turns it */
} mc_cube;

/* A shot of a frame range (reports, chapters): its number and inclusive frames. */
typedef struct mc_shot_range {
    int number;              /* shot number from 1; 0: not a shot ("all frames", "other") */
    mc_frame_no first, last; /* inclusive frame numbers, first <= last */
} mc_shot_range;


/* ---- Sound: Doom 3's sound shader parameters and emitter channels (sound/sound.h and
 * game/Game_local.h of the engine), shared by the sound shader parser (sndshd.h), the mixer
 * (mixer.h) and the scene's soundtrack. The mix is 44100 Hz stereo (PRIMARYFREQ, snd_local.h);
 * distances are metres, a Doom unit (inch) being 0.0254 m (DOOM_TO_METERS, sound.h). */
#define MC_SOUND_RATE           44100 /* samples per second of the mix and of every event */
#define MC_SOUND_DOOM_TO_METERS 0.0254f
#define MC_SOUND_MAX_ENTRIES    32 /* files (and leadins) of one shader, SOUND_MAX_LIST_WAVS */
#define MC_SOUND_EMITTER_SLOTS  8  /* sounds one emitter plays at once, SOUND_MAX_CHANNELS */
#define MC_SOUND_CLASSES        4  /* soundClass 0..3, SOUND_MAX_CLASSES */

/* SSF_* of sound.h: the shader's (and a caller's) flags. */
enum {
    MC_SSF_PRIVATE = 1 << 0,         /* heard only from the listener's own entity */
    MC_SSF_ANTI_PRIVATE = 1 << 1,    /* heard from everywhere but the listener's own entity */
    MC_SSF_NO_OCCLUSION = 1 << 2,    /* straight-line distance (md5cine has no portals: always) */
    MC_SSF_GLOBAL = 1 << 3,          /* no distance, no panning */
    MC_SSF_OMNIDIRECTIONAL = 1 << 4, /* falls off with distance, no panning */
    MC_SSF_LOOPING = 1 << 5,
    MC_SSF_PLAY_ONCE = 1 << 6, /* not restarted while the same shader plays on the emitter */
    MC_SSF_UNCLAMPED = 1 << 7, /* each ear's gain not clamped to 1 */
    MC_SSF_NO_FLICKER = 1 << 8,
    MC_SSF_NO_DUPS = 1 << 9, /* not the file already playing on the emitter, if it can help it */
};

/* The emitter's logical channels (gameSoundChannel_t of Game_local.h). A sound started on any
 * channel but MC_SND_CHANNEL_ANY stops the one playing on that channel of the same emitter;
 * ANY never cuts. */
typedef enum mc_sound_channel {
    MC_SND_CHANNEL_ANY = 0,
    MC_SND_CHANNEL_VOICE,
    MC_SND_CHANNEL_VOICE2,
    MC_SND_CHANNEL_BODY,
    MC_SND_CHANNEL_BODY2,
    MC_SND_CHANNEL_BODY3,
    MC_SND_CHANNEL_WEAPON,
    MC_SND_CHANNEL_ITEM,
    MC_SND_CHANNEL_HEART,
    MC_SND_CHANNEL_PDA,
    MC_SND_CHANNEL_DEMONIC,
    MC_SND_CHANNEL_RADIO,
    MC_SND_CHANNEL_AMBIENT,
    MC_SND_CHANNEL_DAMAGE,
    MC_SND_CHANNEL_COUNT
} mc_sound_channel;

/* soundShaderParms_t of sound.h: what a shader sets and an entity's s_* keys override. */
typedef struct mc_sound_parms {
    float min_distance; /* metres; full volume closer than this (shader default 1) */
    float max_distance; /* metres; silent from here on (shader default 10) */
    float volume;       /* dB, the engine's 2^(dB/6) (shader default 1) */
    float shakes;       /* screen shake amount (not drawn by md5cine) */
    int flags;          /* MC_SSF_* */
    int sound_class;    /* 0..MC_SOUND_CLASSES-1 */
} mc_sound_parms;

#ifdef __cplusplus
}
#endif

#endif
