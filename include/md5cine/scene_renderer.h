/* The scene renderer: a loaded scene (scene.h) drawn frame by frame. It owns everything a frame
 * needs -- a GL renderer on the chosen backend, the decoded and uploaded textures, the per-actor
 * joint and skinning buffers -- all made at create, so that a frame poses, skins, draws and reads
 * back without allocating. This is what `md5cine render` runs; a test suite embeds it the same
 * way (examples/regression.c):
 *
 *     mc_scene scene;                       mc_scene_renderer *sr;
 *     mc_scene_load(path, NULL, &scene, &err);
 *     mc_scene_renderer_desc d = { .scene = &scene, .width = 640, .height = 360 };
 *     mc_scene_renderer_create(&d, &sr, &err);
 *     for (mc_frame_no k = 0; k < mc_scene_renderer_frame_count(sr); k++)
 *         mc_scene_renderer_frame(sr, k, &view, &info, &err);   // view: caller's pixels
 *     mc_scene_renderer_release(sr);        mc_scene_release(&scene);
 *
 * Output frame k shows scene time t = k * fps.den / fps.num seconds: the camera as the timeline
 * samples it (timeline.h), each actor's anim at t - start (pose.h). With desc.clock
 * MC_CLOCK_ENGINE it shows the engine's game time instead: the camera at
 * mc_timeline_engine_ms(fps, k) by idCameraAnim's integer rule, each actor's anim at that time
 * minus start (mc_scene_actor_ms) by mc_anim_frame_at_ms. Frames may be asked for in
 * any order; the same k always gives the same pixels.
 *
 * Look: each submesh is drawn with its material when the scene's base declares one
 * (material.h: diffuse, normal and specular maps, alphaTest, twoSided, translucent,
 * polygonOffset), else with its image (scene.h), under the actor's skin: its own, or from the
 * time a `skin` frame command of its anim fires, that command's (scene.h mc_scene_actor_skin_at;
 * every skin's materials are made at create). Lights are the scene's; a scene without any
 * gets a default rig fixed in the world, placed once at create from the box around every
 * actor's bind pose (centre c, r half its diagonal, at least 64) and the first camera frame's
 * forward direction f flattened onto the floor (left l, up u = +Z): a key at
 * c + 2r * normalize(-f + 0.7 l + 0.9 u) of colour 0.8, a fill at c + 2r * normalize(-f - l +
 * 0.3 u) of colour 0.25, both Doom point lights (the same model as a scene's, with the built-in
 * light images) with a box of half-size 6r, ambient 0.1 (or the scene's); r_lightScale doubles
 * all three; the fill casts no shadows (as Doom's level designers light fills: noShadows).
 * docs/materials-and-shading.md, "Shading and lights", has the shading formula. Every light but
 * a noShadows one casts Doom's stencil shadows from every actor (render.h), unless
 * desc.no_shadows.
 *
 * Threads: one renderer belongs to one thread at a time. Nothing here prints or changes
 * process-wide state; warnings go to desc.warn. */
#ifndef MC_SCENE_RENDERER_H
#define MC_SCENE_RENDERER_H

#include <stdbool.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/render.h>
#include <md5cine/scene.h>
#include <md5cine/types.h>
#include <md5cine/view.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_scene_renderer mc_scene_renderer;

typedef enum mc_background_mode {
    MC_BACKGROUND_SCENE = 0, /* the scene's output background, else black */
    MC_BACKGROUND_GIVEN,     /* desc.background */
    MC_BACKGROUND_NONE,      /* transparent: alpha 0 wherever no actor covers the pixel */
} mc_background_mode;

/* Zero means default for every field but scene. */
typedef struct mc_scene_renderer_desc {
    const mc_scene *scene; /* resolved (mc_scene_load); borrowed, must outlive the renderer */
    int width, height;     /* 0: the scene's output size, else 1280 x 720 */
    mc_rate fps;           /* { 0, 0 }: the scene's fps, else the camera's frame rate */
    mc_clock clock;        /* MC_CLOCK_IDEAL (0): t = k / fps; MC_CLOCK_ENGINE: Doom's ticks */
    int msaa;              /* as mc_renderer_desc.msaa: 0 = off, MC_MSAA_DEFAULT = 4 */
    mc_shading shading;
    mc_fov_mode fov_mode;
    mc_background_mode background_mode;
    float background[3];   /* RGB 0..1 with MC_BACKGROUND_GIVEN */
    bool overlay;          /* burn in "frame K  HH:MM:SS:FF  shot S" top left (as --overlay):
                              the whole seconds of the frame's time, FF its place among the
                              frames in that second, S = shot + 1 */
    mc_gl_backend backend; /* MC_GL_AUTO: the first backend that works (render.h) */
    int gl_device;         /* as mc_renderer_desc.gl_device: 0 automatic, N >= 1 device N */
    mc_warn_fn warn;       /* may be NULL: warnings dropped */
    void *warn_user;
    const volatile sig_atomic_t *stop; /* may be NULL: else loading the materials looks at it
                              before each file, declaration and image (mc_parse_opts.stop),
                              and a frame as it draws (mc_renderer_desc.stop): once it is
                              non-zero, mc_scene_renderer_frame abandons the frame with
                              MC_ERR_INTERRUPTED, its pixels untouched */
    unsigned long long image_pixels; /* mc_parse_opts.image_pixels for the scene's texture
                              images and its materials' together: 0 is
                              MC_LIMIT_SCENE_IMAGE_PIXELS */
    bool strict_materials; /* a used material that fails to parse is an error
                              (mc_parse_opts.strict_game_data), not the default material */
    bool developer_images; /* false: what the engine shows outside developer mode -- a missing
                              image (and `_default` itself) is all zero, alpha 0 included
                              (Image_init.cpp, idImage::MakeDefault): black in a lit or opaque
                              stage, nothing where blended or alpha tested; a shader of a scene
                              with a base that no material or image names gets Doom's implicit
                              `blend blend` material of a missing image and is not drawn;
                              true: Doom's developer box (material.h's `_default`) stands in
                              for both (--developer-images) */
    bool no_shadows;       /* true: no stencil shadows (--shadows off; render.h) */
    mc_shadow_samples shadow_samples; /* as mc_renderer_desc.shadow_samples: under MSAA each
                              pixel's shadow decided once (0, Doom's) or at each sample
                              (--shadow-samples) */
} mc_scene_renderer_desc;

/* What one output frame showed. */
typedef struct mc_scene_frame_info {
    mc_frame_no frame; /* output frame k */
    double time;       /* seconds: k / fps */
    int64_t engine_ms; /* the engine clock's game time in ms; -1 with the ideal clock */
    int stored;        /* stored camera frame shown (or interpolated from) */
    int next;          /* stored frame interpolated towards; == stored when lerp == 0 */
    float lerp;        /* in [0, 1) */
    int shot;          /* 0-based shot index (humans see shot + 1, see docs/commands.md) */
    double pose_s;     /* seconds spent on the view, posing and skinning */
    double draw_s;     /* seconds spent submitting draws and the overlay */
    double end_s;      /* seconds spent finishing the frame: raster (llvmpipe) and readback */
} mc_scene_frame_info;

/* The lights a renderer of resolved scene s shades with (see "Look" above; no renderer or GL
 * needed): the scene's lights and ambient (0 0 0 when not given), or the default rig computed
 * from the actors' bind poses and the first camera frame. lights: MC_RENDER_MAX_LIGHTS
 * entries, *num_lights set; ambient: 3 floats. Errors: MC_ERR_NOMEM; MC_ERR_RANGE when the
 * scene has no lights and the rig cannot be placed around its actors (past
 * MC_LIGHT_MAX_COORD), at the actor that is the cause, with its bounds. */
mc_status mc_scene_lights(const mc_scene *s, mc_light *lights, int *num_lights, float ambient[3],
                          mc_error *err);

/* Makes the renderer: validates desc, creates the GL renderer, decodes and uploads every
 * texture the scene resolved, allocates every per-frame buffer and skins actors without an anim
 * once. *out is NULL on failure. Errors: MC_ERR_USAGE (bad desc), MC_ERR_IMAGE (a texture that
 * does not decode, positioned at the scene's material line when there is one), MC_ERR_GL,
 * MC_ERR_NOMEM, MC_ERR_RANGE (mc_scene_lights), MC_ERR_INTERRUPTED (desc.stop). */
mc_status mc_scene_renderer_create(const mc_scene_renderer_desc *desc, mc_scene_renderer **out,
                                   mc_error *err);

/* Frees everything; NULL is fine. The scene stays the caller's. */
void mc_scene_renderer_release(mc_scene_renderer *sr);

/* The settings actually used (size, rate, samples, GL strings). */
void mc_scene_renderer_get_info(const mc_scene_renderer *sr, int *width, int *height, mc_rate *fps,
                                mc_renderer_info *gl);

/* Number of output frames K (frames 0 .. K-1): mc_scene_frame_count_clock at the renderer's
 * rate and clock. */
mc_frame_no mc_scene_renderer_frame_count(const mc_scene_renderer *sr);

/* The files of the scene's base folder that loading its materials read, besides those the
 * scene records itself (mc_scene: meshes, anims, textures): each archive of the base and each
 * loose file read through it (declaration files, images), as paths on disk
 * ("base/pak000.pk4", "base/textures/a.tga"), each once; none without a base. A program that
 * writes files checks its outputs against them. The strings live as long as sr; out of range
 * is NULL. */
int mc_scene_renderer_input_count(const mc_scene_renderer *sr);
const char *mc_scene_renderer_input(const mc_scene_renderer *sr, int i);

/* Renders output frame k (0 <= k < frame count) into out, which must be the renderer's size
 * with a stride that is a multiple of 4; info may be NULL. Allocates nothing. Errors:
 * MC_ERR_USAGE (k out of range, no pixels, a view of another size or with a short or unaligned
 * stride), MC_ERR_GL, MC_ERR_INTERRUPTED (desc.stop set before or while it draws: the frame
 * is abandoned, out untouched). */
mc_status mc_scene_renderer_frame(mc_scene_renderer *sr, mc_frame_no k, const mc_image_view *out,
                                  mc_scene_frame_info *info, mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
