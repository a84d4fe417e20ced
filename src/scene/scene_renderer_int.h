/* What the scene renderer's files share (src/scene/): the renderer's state and the helpers one
 * file calls in another. scene_renderer.c: create, release, the actors, the materials and the
 * frames. scene_lights.c: the scene's lights, each light's material kept and evaluated per frame.
 * scene_upload.c: the scene's texture images and a material's maps and unlit stages, uploaded.
 * Calls go one way: scene_renderer.c calls scene_lights.c and scene_upload.c, scene_lights.c
 * calls scene_upload.c. Not installed; nothing outside src/scene/ includes it. */
#ifndef MC_SCENE_RENDERER_INT_H
#define MC_SCENE_RENDERER_INT_H

#include <md5cine/image.h>
#include <md5cine/material.h>
#include <md5cine/material_eval.h>
#include <md5cine/scene_materials.h>
#include <md5cine/scene_renderer.h>

#include "deform.h"
#include "unsmoothed.h"

/* How one submesh is drawn: texture ids and the material's switches. */
typedef struct surface {
    int texture, normal_map, specular_map; /* renderer texture ids, 0 for none */
    float alpha_test, polygon_offset;
    unsigned flags; /* the material's switches (mtr_keywords.h) */
    mc_dominant_tri *dominant; /* unsmoothedTangents: each vertex's triangle, or NULL */
    bool white;                /* draw color (not plain_color) without a texture */
    float color[4];            /* with white: the colour used without a texture */
    bool hidden;       /* a material Doom does not draw (no stage: textures/common/nodraw) */
    bool stage_colors; /* the material's stage colours below apply */
    float diffuse_rgb[3], specular_rgb[3];
    int mat;          /* index into mc_scene_renderer.mats; -1: no declared material */
    bool stages_only; /* a material with only unlit stages: no lit pass */
    mc_deform deform; /* the material's deform, drawn (deform.h); kind NONE for none or one
                         that does not apply to this surface */
} surface;

/* An unlit stage kept for the frames: its texture and what material_eval needs. */
typedef struct stage_src {
    int texture;
    mc_blend blend;
    mc_expr_stage expr;
    mc_wrap wrap;
    mc_texgen texgen;
    bool mask[4];
    bool translucent;
    mc_vertex_color vertex_color;
} stage_src;

/* What a material needs per frame, kept after its images are freed: its expression program and
 * its unlit stages (stage_srcs[first .. first + count)). */
typedef struct kept_material {
    mc_expr_program prog;
    int first, count;
    char *name, *file; /* the declaration, for the warning about values that are not finite */
    int line, col;
    bool warned; /* that warning given */
} kept_material;

/* A scene light drawn through a light material: its expression program and its stages
 * (light_stages[first .. first + count)), each one pass of the light (render.h mc_light). */
typedef struct light_src {
    bool material; /* false: the light as mc_scene_lights gives it, built-in images */
    mc_expr_program prog;
    int first, count;
    int falloff; /* texture id of its falloff image; 0: built-in */
    float parms[MC_LIGHT_PARMS];
} light_src;

typedef struct light_stage {
    int texture; /* the projection image; 0: built-in */
    mc_expr_stage expr;
} light_stage;

/* Everything one actor needs per frame. */
typedef struct actor_draw {
    mc_joint_xform *joints; /* mesh.num_joints */
    mc_vec3 **pos, **nrm;   /* per submesh: num_verts skinned positions and normals */
    mc_tangent **tan;       /* per submesh: num_verts tangents (used with a normal map) */
    mc_skin_topology *topo; /* per submesh */
    surface *surf;          /* per submesh: the actor's own look (its skin, or none) */
    /* The looks its skin frame commands set (scene_materials.h mc_scene_look): num_looks * the
     * mesh's submeshes, look by look; command_look[i]: the look frame command i sets, -1 for
     * the other commands. now: the look drawn this frame, surf or one of look_surf. */
    surface *look_surf;
    int num_looks;
    int *command_look;
    const surface *now;
    mc_deform_out *def;     /* per submesh: the deformed surface's buffers (deform.h), sized
                               at create; NULL arrays where the surface has no deform */
    mc_mat4 model;          /* model -> world */
    bool animated;          /* has an anim: skinned every frame; else once */
} actor_draw;

/* The scene's distinct texture images, decoded before the GL context exists and freed once
 * uploaded. */
typedef struct texture_set {
    int count;
    mc_image *images;
    const char **paths; /* count distinct paths (owned by the scene) */
    int *ids;           /* renderer texture id of each, after upload */
    unsigned long long pixels; /* of the scene's image budget, spent on them */
} texture_set;

struct mc_scene_renderer {
    const mc_scene *scene;
    mc_renderer *r;
    int width, height;
    mc_rate fps;
    mc_clock clock;
    mc_frame_no count;
    float background[4]; /* RGBA 0..1 */
    mc_shading shading;
    mc_fov_mode fov_mode;
    bool overlay, no_shadows;
    int overlay_scale;
    mc_warn_fn warn; /* the desc's, for warnings while rendering */
    void *warn_user;
    int num_actors;
    actor_draw *actors;
    mc_light lights[MC_RENDER_MAX_LIGHTS]; /* the scene's lights (or the default rig) */
    int num_lights;
    float ambient[3];
    light_src light_srcs[MC_RENDER_MAX_LIGHTS]; /* per light of lights[] */
    light_stage *light_stages;
    int num_light_stages;
    mc_light frame_lights[MC_RENDER_MAX_LIGHTS]; /* one frame's light passes */
    int frame_light_of[MC_RENDER_MAX_LIGHTS];    /* the index in lights[] of each pass */
    /* Unlit stages (material_eval.h), evaluated per frame into regs and stage_out, which are
     * sized at load for the largest material: a frame allocates nothing. */
    kept_material *mats;
    int num_mats;
    stage_src *stage_srcs; /* num_stage_srcs kept, cap_stage_srcs allocated */
    int num_stage_srcs, cap_stage_srcs;
    float *regs;
    mc_render_stage *stage_out;
    mc_vertex_color *stage_vc; /* stage_out[i]'s vertexColor (types.h) */
    /* The maps uploaded while the materials load (mc_sr_upload_map): the pixels each came from
     * (a material set's, shared by the maps of one image) and its texture id, so that one
     * image is one texture; emptied by mc_sr_forget_uploads before those pixels are freed. */
    const void **up_pixels;
    int *up_ids;
    int num_up, cap_up;
    char **inputs; /* the base's files the materials were read from (mc_vfs_files_read) */
    int num_inputs;
};

static inline mc_status no_memory(mc_error *err)
{
    return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
}

/* ---- scene_upload.c ------------------------------------------------------------------- */

/* Frees the set's images, paths and ids and empties it. */
void mc_sr_release_textures(texture_set *ts);

/* Decodes every distinct texture the scene resolved; an image's error points at the scene's
 * material line naming it. */
mc_status mc_sr_decode_textures(const mc_scene *s, unsigned long long budget, texture_set *ts,
                                mc_error *err);

/* Uploads the decoded images (freeing each once it is on the GL side) and gives every submesh
 * its texture id. */
mc_status mc_sr_upload_textures(mc_scene_renderer *sr, texture_set *ts, mc_error *err);

/* Uploads a map (none: *id 0); one that fell back to `_default` is all zero unless developer. */
mc_status mc_sr_upload_map(mc_scene_renderer *sr, const mc_material_map *m, bool developer, int *id,
                           mc_error *err);

/* Empties the list of uploaded maps (their textures stay). */
void mc_sr_forget_uploads(mc_scene_renderer *sr);

/* Keeps what material m needs per frame as sr->mats[sr->num_mats]: its expression program and
 * its unlit stages, each map uploaded. */
mc_status mc_sr_keep_stages(mc_scene_renderer *sr, const mc_material *m, bool developer,
                            mc_error *err);

/* ---- scene_lights.c ------------------------------------------------------------------- */

/* Keeps each scene light's material (its program, its stages' projection images and its falloff
 * image, uploaded); MC_ERR_LIMIT at the light past MC_RENDER_MAX_LIGHTS passes. */
mc_status mc_sr_keep_lights(mc_scene_renderer *sr, const mc_scene_materials *sm, bool developer,
                            const mc_parse_opts *po, mc_error *err);

/* One frame's light passes at time (seconds on the scene's clock) into sr->frame_lights; returns
 * how many. */
int mc_sr_eval_lights(mc_scene_renderer *sr, float time);

/* Points a renderer error about "light N" at the scene light that frame light N came from. */
void mc_sr_light_error_position(const mc_scene_renderer *sr, int num, mc_error *err);

#endif
