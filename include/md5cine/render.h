/* The renderer: draws skinned meshes with OpenGL 3.3 core (on a backend: OSMesa, i.e. Mesa's
 * llvmpipe) into an off-screen framebuffer and reads each frame back as RGBA8, top row first.
 *
 * A frame is: mc_renderer_begin (camera, background, shading), any number of mc_renderer_draw,
 * optionally mc_renderer_overlay_text, then mc_renderer_end (readback). Conventions follow
 * Doom 3 (DESIGN.md 2): triangles clockwise in the image are front faces and the others are
 * culled; texture coordinate t = 0 samples the image's top row; view and projection are GL
 * matrices (include/md5cine/view.h builds Doom's). Depth test LEQUAL.
 *
 * A renderer owns a GL context. All calls on one renderer must come from one thread at a time;
 * each call makes its context current on the calling thread when it is not already. In steady
 * state (the same meshes every frame) a frame allocates nothing: vertex buffers grow only when
 * a larger mesh or more draws appear. Nothing here prints: warnings go to desc.warn. */
#ifndef MC_RENDER_H
#define MC_RENDER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/error.h>
#include <md5cine/mtr_keywords.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_renderer mc_renderer;

/* Where the GL context comes from (src/gpu/backend.h). AUTO tries EGL first, then OSMesa, and
 * uses the first that gives a 3.3 core context; a build may have either or both. */
typedef enum mc_gl_backend {
    MC_GL_AUTO = 0,
    MC_GL_EGL,    /* EGL: a device (EGL_EXT_platform_device) or Mesa's surfaceless platform */
    MC_GL_OSMESA, /* Mesa's off-screen library (removed in Mesa 25.1) */
} mc_gl_backend;

/* Antialiasing samples md5cine render, sheet and the Python module use unless told otherwise.
 * A desc's msaa of 0 means off, as `--msaa 0` does: set MC_MSAA_DEFAULT for the command's
 * look (a library render then gives the same pixels as `md5cine render`). */
#define MC_MSAA_DEFAULT 4

/* Where a light's stencil shadows are decided under MSAA (mc_renderer_desc.shadow_samples).
 * PIXEL (the default): once per pixel, as Doom's renderer, which has no multisampling
 * (RenderSystem_init.cpp, r_multiSamples 0), draws them: the shadow volumes are counted in a
 * single-sample stencil over the depth of each pixel's first sample, and a light's pass
 * lights all of a pixel's samples or none; surfaces keep their antialiased edges, a shadow's
 * edge is a pixel's. SAMPLE: at each sample, the volumes drawn at every sample too (antialiased
 * shadow edges, about twice the volumes' cost at 4 samples). The same without MSAA. */
typedef enum mc_shadow_samples {
    MC_SHADOW_SAMPLES_PIXEL = 0,
    MC_SHADOW_SAMPLES_SAMPLE,
} mc_shadow_samples;

/* Zero means default for every field (for msaa: off, see MC_MSAA_DEFAULT). */
typedef struct mc_renderer_desc {
    int width;  /* pixels; 0 = 1280 */
    int height; /* pixels; 0 = 720 */
    int msaa;   /* samples per pixel: 0 or 1 = off, 2 or 4 (MC_MSAA_DEFAULT). When the driver
                   offers fewer (e.g. GALLIUM_DRIVER=softpipe) the renderer uses what it can,
                   down to off, and says so through warn (code MC_ERR_GL) */
    mc_gl_backend backend;
    int gl_device;   /* 0: automatic (EGL: Mesa's surfaceless platform, then each device);
                        N >= 1: EGL device N as `md5cine doctor` lists them, counted from 1
                        (EGL_EXT_platform_device); ignored by OSMesa */
    mc_warn_fn warn; /* may be NULL: warnings dropped */
    void *warn_user;
    mc_shadow_samples shadow_samples; /* under MSAA: shadows per pixel (0) or per sample */
    /* May be NULL. Else a frame looks at it before each item it takes and each draw call it
     * makes: once it is non-zero the frame is abandoned -- mc_renderer_draw and
     * mc_renderer_end give MC_ERR_INTERRUPTED "interrupted", nothing more is drawn and nothing
     * is read back (the pixels are untouched) -- so that a signal stops a frame of many
     * thousand draws at once; the next frame may begin as usual. */
    const volatile sig_atomic_t *stop;
} mc_renderer_desc;

/* What the renderer actually got. */
typedef struct mc_renderer_info {
    int width, height;
    int samples;           /* 1 = no MSAA; as the driver allocated it (may exceed the request) */
    char gl_renderer[128]; /* GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)" */
    char gl_version[128];  /* GL_VERSION */
    char gl_vendor[128];   /* GL_VENDOR */
    char mesa_version[32]; /* "22.3.6" from GL_VERSION's "Mesa 22.3.6"; "" for another driver */
    char gl_device[128];   /* the backend's line on where the context lives ("surfaceless",
                              "device 1: /dev/dri/renderD128", "off-screen Mesa (llvmpipe)") */
    const char *backend;   /* "osmesa" or "egl" (static string) */
} mc_renderer_info;

/* Creates the GL context and framebuffers. desc may be NULL (all defaults). On success *out
 * owns them (mc_renderer_release); on failure *out is NULL. Errors: MC_ERR_USAGE (size outside
 * 1..16384, msaa not 0, 1, 2 or 4, an unknown backend), MC_ERR_GL (a backend this build lacks:
 * "this build has no EGL backend"; GALLIUM_DRIVER names a driver OSMesa lacks -
 * only llvmpipe and softpipe are accepted, since Mesa crashes on others -, no 3.3 core
 * context, an incomplete framebuffer, a shader that does not build), MC_ERR_NOMEM. The GL
 * driver's threads (llvmpipe's rasterisers) are started with every signal blocked but those a
 * fault raises, so a program's signal handlers run only on its own threads; the calling
 * thread's mask is as it was when this returns. */
mc_status mc_renderer_create(const mc_renderer_desc *desc, mc_renderer **out, mc_error *err);

/* Frees the context and everything in it. r may be NULL. */
void mc_renderer_release(mc_renderer *r);

/* Fills *info. */
void mc_renderer_get_info(const mc_renderer *r, mc_renderer_info *info);

/* Uploads a w x h RGBA8 image (rows top first, stride bytes apart, a multiple of 4 and
 * >= w * 4) as a texture with mipmaps, trilinear filtering and repeat wrapping. The pixels are
 * copied; the caller keeps them. *id receives the texture's id (>= 1) for mc_draw_item.texture.
 * Errors: MC_ERR_USAGE (bad size or stride; larger than the driver's maximum), MC_ERR_GL,
 * MC_ERR_NOMEM. Not allowed between begin and end. */
mc_status mc_renderer_add_texture(mc_renderer *r, const uint8_t *rgba, int w, int h, size_t stride,
                                  int *id, mc_error *err);

/* Uploads a cube map: six square faces of side x side texels, one under another in rgba (row
 * k of face f at rgba + (f * side + k) * stride), in GL's order +X, -X, +Y, -Y, +Z, -Z (a
 * material's px, nx, py, ny, pz, nz: material.h), row 0 = t = 0 of each face, mipmapped and
 * clamped to its edges (Image_load.cpp, idImage::GenerateCubeImage). Its id is drawn only by a
 * stage with a texgen (mc_render_stage); an item's maps and a light's images refuse it.
 * Errors: as mc_renderer_add_texture. */
mc_status mc_renderer_add_cube_texture(mc_renderer *r, const uint8_t *rgba, int side,
                                       size_t stride, int *id, mc_error *err);

/* Makes texture id clamp to its edge texels instead of repeating (a material stage's clamp,
 * zeroclamp and alphazeroclamp: Image_load.cpp, idImage::SetImageFilterAndRepeat).
 * Errors: MC_ERR_USAGE (an unknown id). Not allowed between begin and end. */
mc_status mc_renderer_texture_clamp(mc_renderer *r, int id, mc_error *err);

typedef enum mc_shading {
    MC_SHADING_LIT = 0, /* texture (or base colour) lit: the frame's lights, or the camera rig */
    MC_SHADING_UNLIT,   /* texture (or base colour) as is */
    MC_SHADING_NORMALS  /* world-space normal n (after the normal map) as colour n * 0.5 + 0.5 */
} mc_shading;

#define MC_RENDER_MAX_LIGHTS 8

/* The most a light's origin, target, right, up, start and end may be from 0 on each axis, and
 * the largest radius or half-size: past it (or not a number) a light is refused. */
#define MC_LIGHT_MAX_COORD 1e30f

/* Doom's r_lightScale: every light's colour is multiplied by it (tr_render.cpp
 * RB_CreateSingleDrawInteractions, backEnd.lightScale). */
#define MC_LIGHT_SCALE 2.0f

/* A light fixed in the world, as Doom's renderLight_t: a point light (a box of half-sizes
 * light_radius around origin) or, with projected set, a projected light (target, right, up and
 * optionally start, end, relative to origin, as Doom's R_SetLightProject takes them). Its
 * material's first stage gives the projection image (sampled at s, t; zero outside 0..1) and
 * its colour, lightFalloffImage the falloff image (sampled at the falloff coordinate; edge
 * clamped); zero ids take md5cine's built-in lights/defaultPointLight images
 * (docs/materials-and-shading.md, "Shading and lights"). All zero past color and radius is the
 * plain point light of radius in every axis. */
typedef struct mc_light {
    mc_vec3 origin; /* world position, inches */
    float color[3]; /* linear RGB, 0..1e6: the light stage's colour (times MC_LIGHT_SCALE) */
    float radius;   /* inches, > 0: the box's half-size on each axis where box is zero */
    mc_vec3 box;    /* light_radius ( x y z ): half-sizes, each > 0; all zero: radius */
    int projected;  /* 1: a projected light from target/right/up/start/end */
    mc_vec3 target, right, up; /* projected: relative to origin */
    mc_vec3 start, end;        /* projected: the falloff's 0 and 1; both zero: origin and
                                  target (Doom's default) */
    int projection_image;      /* texture id of the projection image; 0: built-in */
    int falloff_image;         /* texture id of the falloff image; 0: built-in */
    int no_shadows;            /* Doom's noShadows light: casts no stencil shadows */
} mc_light;

typedef struct mc_frame_params {
    mc_mat4 view;        /* world -> GL eye space */
    mc_mat4 proj;        /* eye -> clip; Doom's is infinite with near 1 */
    float background[4]; /* RGBA in 0..1; alpha 0 leaves the background transparent */
    mc_shading shading;
    const mc_light *lights; /* num_lights lights (copied by begin); NULL when none */
    int num_lights;         /* 0..MC_RENDER_MAX_LIGHTS; 0: the camera rig (see begin) */
    float ambient[3];       /* with lights: an ambient light filling the scene (see begin);
                               0..1e6 */
    int no_shadows;         /* 1: no stencil shadows in this frame (Doom's r_shadows 0) */
} mc_frame_params;

/* Starts a frame: clears colour, depth and stencil.
 *
 * Lit shading with lights is Doom's ARB2 interaction (dhewm3 draw_arb2.cpp
 * RB_ARB2_DrawInteraction with the interaction.vfp programs, tr_render.cpp
 * RB_CreateSingleDrawInteractions), one additive pass per light after a pass that lays down
 * depth and the ambient light. Per pixel, world space, for each light:
 *
 *      colour += clamp((n.L) * P * F * (D * Cd + T(n.H) * Cs * S * 2), 0, 1)
 *
 *   C = the light's colour * MC_LIGHT_SCALE (Doom's r_lightScale 2); Cd = C * the diffuse
 *   stage's colour, Cs = C * the specular stage's colour (1 1 1 without them); D the diffuse
 *   texel (the item's colour without a texture), S the specular texel (0 without a specular
 *   map: no specular term); L the unit vector to the light's origin; n the vertex normal,
 *   interpolated and normalised, or with a normal map the texel m * 2 - 1 turned into world
 *   space by the tangent frame below (not renormalised, as the fragment program's DP3);
 *   H = normalize(normalize(L) + normalize(V)) with the sum taken at the vertices and
 *   interpolated (the vertex program's half-angle), V towards the eye; T Doom's specular table
 *   (Image_init.cpp R_SpecularTableImage: 256 texels, byte(255 * max((i / 255 - 0.75) * 4,
 *   0)^2), linear filtering, edge clamped) at n.H. n.L is not clamped: a negative product
 *   clamps to 0 as the framebuffer does. P the projection image at (s/q, t/q) and F the
 *   falloff image at (f, 0.5) where s, t, q, f are the light's planes (tr_lightrun.cpp
 *   R_DeriveLightData) at the pixel: for a point light s = 0.5 + 0.5 (x - ox) / rx,
 *   t = 0.5 + 0.5 (y - oy) / ry, q = 1, f = 0.5 + 0.5 (z - oz) / rz; projected lights take
 *   R_SetLightProject's planes; P is 0 where q <= 0. Each light's pass is clamped to 0..1 and
 *   added, the sum clamped to 1 (Doom's additive blend on an 8-bit framebuffer).
 *   Back faces: a triangle facing away from the light's origin (its plane, front side as the
 *   item's front faces) gets nothing from that light unless the item has MC_MTR_NO_SHADOWS or
 *   MC_MTR_NO_SELF_SHADOW (Interaction.cpp R_CreateLightTris, includeBackFaces). Two-sided
 *   items use the same normal and tangent frame on both sides (Doom does not flip them).
 *   Ambient: colour = D * ambient * MC_LIGHT_SCALE, drawn first: md5cine's stand-in for a Doom
 *   ambient light (an `ambientLight` material over the whole scene, its normal cube taken as
 *   facing every surface, no specular, no projection or falloff image); ambient 0 0 0 is none,
 *   as in Doom.
 *   Shadows: each light without no_shadows is drawn only where no item's shadow volume
 *   covers the pixel (Doom's stencil shadows: dhewm3 tr_turboshadow.cpp, draw_common.cpp
 *   RB_StencilShadowPass). An item casts unless it has MC_MTR_NO_SHADOWS or is translucent (or a
 *   stages_only item of a translucent material: Doom's "translucent implies noshadows"); the
 *   volume of light l is made from its triangles as drawn (welded by position): the
 *   triangles facing away from l (n.(l - p) < 0 with the front-face normal; a triangle
 *   wholly outside one of the light volume's planes, by less than 0.1 inside it, does not
 *   count) and the edges between them and the triangles facing l, extruded away from l to
 *   infinity, capped on the item and at infinity; depth-fail counting in the stencil (cleared
 *   to 128 per light; the light passes where the count is 128 or below). Items shadow each
 *   other and themselves; a surface facing away from a light is unlit by the back-face rule
 *   anyway, which hides the caps on the caster. no_shadows in the frame turns them off.
 *   Under MSAA the count is made once per pixel by default (mc_shadow_samples): at one sample
 *   a pixel, over the depth of the pixel's first sample, and the light's pass then draws at
 *   all of the pixel's samples or at none.
 *
 *  - Without lights, the camera rig (so any model facing the camera reads): key k from the
 *    upper left in front (eye-space direction (-0.45, 0.55, 0.70) normalised), fill f from
 *    the right ((0.85, 0.05, 0.50) normalised), n flipped on back faces:
 *      colour = D * (0.25 + 0.70 * max(n.k, 0) + 0.25 * max(n.f, 0)) + 0.10 * (n.h)^32
 *    h = normalize(k + v); the specular term is 0 where n.k <= 0. Not Doom's: a preview light.
 *
 * Normal maps: a texel's RGB is m * 0.5 + 0.5 with m in tangent space (material.h), x along
 * the texture's +s (the vertex tangent t), y along +t (down the image: b = w * cross(t, n)),
 * z along the vertex normal; n = m.x * t + m.y * b + m.z * n with t first made perpendicular
 * to n (Doom's frame: its two vertex tangents are along +s and +t); normalised for the camera
 * rig and the normals view. Under a mirroring model matrix (negative determinant) w is
 * negated, so that b still follows the mirrored +t (a world-space cross product does not
 * mirror).
 *
 * Errors: MC_ERR_USAGE (a frame is already open, more than MC_RENDER_MAX_LIGHTS lights,
 * NaN or out-of-range light values, an unknown light image id), MC_ERR_GL. */
mc_status mc_renderer_begin(mc_renderer *r, const mc_frame_params *p, mc_error *err);

/* One unlit stage of an item's material, as Doom's RB_STD_T_RenderShaderPasses draws it after
 * the lit interaction: its own texture, blend, colour, texture matrix and alpha test, values
 * already evaluated for this frame (material_eval.h). Drawn over the item's own triangles, in
 * the order given, depth tested (EQUAL, or LEQUAL for a translucent material) and never
 * writing depth; fragment = texel(matrix * st) * color, then alpha test, then
 * glBlendFunc(src, dst) with the masked channels left alone. */
typedef struct mc_render_stage {
    int texture;            /* id from mc_renderer_add_texture; 0: white */
    int blend_src, blend_dst; /* mc_blend_factor (types.h) */
    float color[4];         /* RGBA multiplier, 0..1 */
    float matrix[2][3];     /* s' = m00 s + m01 t + m02, t' = m10 s + m11 t + m12 */
    float alpha_test;       /* > 0: keep fragments whose alpha is above it */
    int wrap;               /* mc_wrap (types.h); the zero clamps are clamps whose border
                               texels the image already holds */
    int mask_red, mask_green, mask_blue, mask_alpha; /* 1: channel not written */
    int depth_lequal;       /* 1: LEQUAL (translucent material); 0: EQUAL */
    int texgen;             /* mc_texgen (types.h). Explicit: st through matrix, from a 2D
                               texture; a cube map is then read at (s', t', 0). Otherwise the
                               texture is a cube map (or 0: black) read at the vertex normal
                               (normal), the eye's vector reflected about the normal per
                               fragment, both unit (reflect), vertex - eye in model space
                               (skybox), or that turned by wobble (wobbleSky) */
    float wobble[3][3];     /* MC_TEXGEN_WOBBLESKY: rows of the turn (tr_light.cpp
                               R_WobbleskyTexGen's transform); ignored otherwise */
} mc_render_stage;

/* Which passes of the frame an item takes. Doom draws a deformed surface's copy for the view
 * only (tr_light.cpp R_AddDrawSurf calls tr_deform.cpp R_DeformDrawSurf on the view's draw
 * surface): draw_common.cpp RB_STD_FillDepthBuffer and RB_STD_T_RenderShaderPasses draw it,
 * while a light's interactions and shadow volumes come from the model's own, undeformed
 * surface (tr_light.cpp: "FIXME: if any of the surfaces have deforms, create a frame-temporary
 * model with references to the undeformed surfaces"); the interactions then meet the
 * deformed depth with GL_EQUAL, as RB_ARB2_CreateDrawInteractions tests it. */
typedef enum mc_item_passes {
    MC_PASSES_ALL = 0, /* every pass */
    MC_PASSES_VIEW,    /* depth, ambient (or the camera rig's pass), unlit stages and a
                          translucent item's passes: no light's interaction, no shadow */
    MC_PASSES_LIGHTS,  /* the lights' interactions and shadow volumes only: no depth, no
                          ambient, no stages; a translucent one draws nothing */
} mc_item_passes;

/* One mesh to draw. Arrays are read during the call only. */
typedef struct mc_draw_item {
    mc_mat4 model;            /* model -> world (GL layout); normals use its inverse transpose */
    const mc_vec3 *positions; /* vertex_count positions, model space */
    const mc_vec3 *normals;   /* vertex_count normals, model space (need not be unit length) */
    const float *texcoords;   /* s, t of vertex 0; NULL when the item has no texture */
    size_t texcoord_stride;   /* bytes from one vertex's s to the next; 0 = 2 floats. Lets the
                                 caller pass &mesh_vert[0].st.x with sizeof(mesh_vert) */
    int vertex_count;
    const int *indices; /* 3 per triangle (mc_tri's layout), clockwise = front face */
    int triangle_count;
    int texture;    /* diffuse map: id from mc_renderer_add_texture; 0 or less: none */
    float color[4]; /* base colour RGBA in 0..1 used without a texture (alpha used only by
                       translucent items: opaque geometry writes alpha 1) */
    unsigned material_flags; /* the material's switches (mtr_keywords.h); 0 is the plain
                                opaque one-sided surface casting shadows. MC_MTR_TWO_SIDED:
                                back faces drawn too (lit with the same normal), else culled.
                                MC_MTR_TRANSLUCENT: drawn after every opaque item of the
                                frame, in submission order, depth tested but not written,
                                blended over what is there: c * a + dst * (1 - a), a = diffuse
                                alpha (alpha channel: a + dst_a * (1 - a)). MC_MTR_NO_SHADOWS
                                (the scene sets it for twoSided too): casts no stencil shadow,
                                and triangles facing away from a light are lit by it.
                                MC_MTR_NO_SELF_SHADOW: triangles facing away from a light are
                                lit, its own volumes drawn after its light. */

    /* Doom's other material values; all zero is the plain surface drawn as before. */
    int normal_map;        /* tangent-space normal map (see begin); 0: the vertex normal */
    int specular_map;      /* RGB specular colour map; 0: no specular (with lights) */
    const float *tangents; /* with a normal map: 4 floats per vertex, model space: the unit
                              tangent along s and its handedness w (+1 or -1), as
                              mc_skin_tangents writes them (pose.h) */
    float alpha_test;      /* 0..1; > 0: only pixels whose diffuse alpha is above it are kept
                              (Doom's glAlphaFunc(GL_GREATER)); the others are discarded
                              (texture alpha, or color[3] without a texture) */
    float polygon_offset;  /* Doom's polygonOffset: depth pulled towards the camera by
                              glPolygonOffset(-1, -2 * value); 0: none */
    int stage_colors;      /* 1: the diffuse colour (texel or color) is multiplied by
                              diffuse_rgb and the specular texel by specular_rgb (a stage's
                              constant colour: Doom's diffuseColor, specularColor); 0: by 1 */
    float diffuse_rgb[3], specular_rgb[3];
    int mask_color;        /* 1: no colour written (maskColor) */
    int mask_alpha;        /* 1: no alpha written (maskAlpha) */
    int mask_depth;        /* 1: no depth written (maskDepth) */
    const mc_render_stage *stages; /* num_stages unlit stages drawn over the item after its
                                      lit pass (needs texcoords); NULL when none */
    int num_stages;
    int stages_only;       /* 1: no lit pass (a material with only unlit stages). As Doom
                              draws such a surface: an opaque one (stages depth_lequal 0)
                              first writes depth only (RB_STD_FillDepthBuffer), a translucent
                              one writes none and is drawn after every opaque item */
    int passes;            /* mc_item_passes: which of the item's passes it takes */
} mc_draw_item;

/* Draws one item into the open frame (a translucent item is drawn when the frame resolves,
 * from copies made now). Errors: MC_ERR_USAGE (no open frame, text already drawn, a count < 0
 * or over 2^24, a NULL array the counts need - texture coordinates for any map, tangents for a
 * normal map -, an unknown texture id, alpha_test outside 0..1), MC_ERR_RANGE (an index outside
 * 0..vertex_count-1), MC_ERR_NOMEM, MC_ERR_GL. */
mc_status mc_renderer_draw(mc_renderer *r, const mc_draw_item *it, mc_error *err);

/* Burns one line of text into the open frame, after the scene and its translucent items (no
 * more draws may follow in this frame; several lines may): white letters on a dark
 * translucent box. x, y: the box's top-left corner in pixels from the image's top-left; the
 * box is 13 * scale pixels high and (text width + 3) * scale wide, letters about 6 x 7 font
 * units (stb_easy_font). scale: 1..16.
 * Text longer than 200 bytes is cut; bytes outside printable ASCII show as '?'.
 * Errors: MC_ERR_USAGE (no open frame, bad scale, NULL text), MC_ERR_GL. */
mc_status mc_renderer_overlay_text(mc_renderer *r, int x, int y, int scale, const char *text,
                                   mc_error *err);

/* The size in pixels of the box mc_renderer_overlay_text draws for text at scale (for
 * placing it, e.g. against the right edge). Needs no renderer. */
void mc_overlay_text_size(const char *text, int scale, int *w, int *h);

/* Ends the frame: resolves MSAA and writes width x height RGBA8 pixels, top row first, rows
 * stride bytes apart (stride >= width * 4, a multiple of 4) into rgba_out. Geometry has alpha
 * 255; the background has the alpha of frame_params.background. Pixels that mix the two
 * (antialiased edges, the overlay's box) are premultiplied: an edge covering a share a of a
 * surface of colour c over a background (b, 0) reads (c * a + b * (1 - a), a), so with a
 * transparent black background the colour is c * a. Errors: MC_ERR_USAGE (no open
 * frame, bad stride), MC_ERR_GL. The frame is closed in every case. */
mc_status mc_renderer_end(mc_renderer *r, uint8_t *rgba_out, size_t stride, mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
