/* The scene renderer (include/md5cine/scene_renderer.h): per-actor joint and skinning buffers,
 * the scene's textures, and the per-frame work -- view at frame k, posing at scene time,
 * submission, overlay, readback -- on one mc_renderer. Everything is allocated by create; a
 * frame only refills the buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <math.h>

#include <md5cine/image.h>
#include <md5cine/limits.h>
#include <md5cine/material.h>
#include <md5cine/material_eval.h>
#include <md5cine/mathx.h>
#include <md5cine/pose.h>
#include <md5cine/scene_materials.h>
#include <md5cine/scene_renderer.h>
#include <md5cine/timeline.h>
#include <md5cine/vfs.h>

#include "deform.h"
#include "unsmoothed.h"
#include "mesh_groups.h"
#include "scene_renderer_int.h"

#define DEFAULT_WIDTH  1280
#define DEFAULT_HEIGHT 720

/* Base colour of a surface without a texture: a light grey that the lights can shade. */
static const float plain_color[4] = { 0.72f, 0.72f, 0.72f, 1.0f };

/* A material already uploaded (several submeshes may share one). */
typedef struct uploaded_material {
    const mc_material *mat;
    int ids[3]; /* diffuse, normal, specular texture ids; 0 where the map is absent */
} uploaded_material;

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- actors --------------------------------------------------------------------------- */

static void skin_actor(const mc_scene_actor *a, actor_draw *ad)
{
    for (int s = 0; s < a->mesh.num_meshes; s++) {
        const mc_submesh *sm = &a->mesh.meshes[s];

        mc_skin_positions(sm, ad->joints, ad->pos[s]);
        if (ad->now[s].dominant) {
            mc_unsmoothed_derive(sm, ad->now[s].dominant, ad->pos[s], ad->nrm[s],
                                 ad->now[s].normal_map > 0 ? ad->tan[s] : NULL);
            continue;
        }
        mc_skin_normals(sm, &ad->topo[s], ad->pos[s], ad->nrm[s]);
        if (ad->now[s].normal_map > 0)
            mc_skin_tangents(sm, ad->pos[s], ad->nrm[s], ad->tan[s]);
    }
}

static mc_status alloc_actor(const mc_scene_actor *a, actor_draw *ad, mc_error *err)
{
    int nm = a->mesh.num_meshes;

    ad->joints = calloc((size_t)a->mesh.num_joints + 1, sizeof *ad->joints);
    ad->pos = calloc((size_t)nm + 1, sizeof *ad->pos);
    ad->nrm = calloc((size_t)nm + 1, sizeof *ad->nrm);
    ad->tan = calloc((size_t)nm + 1, sizeof *ad->tan);
    ad->topo = calloc((size_t)nm + 1, sizeof *ad->topo);
    ad->surf = calloc((size_t)nm + 1, sizeof *ad->surf);
    ad->def = calloc((size_t)nm + 1, sizeof *ad->def);
    if (!ad->joints || !ad->pos || !ad->nrm || !ad->tan || !ad->topo || !ad->surf || !ad->def)
        return no_memory(err);
    for (int s = 0; s < nm; s++) {
        size_t nv = (size_t)a->mesh.meshes[s].num_verts + 1;
        mc_status st;

        ad->surf[s].mat = -1;

        ad->pos[s] = calloc(nv, sizeof(mc_vec3));
        ad->nrm[s] = calloc(nv, sizeof(mc_vec3));
        ad->tan[s] = calloc(nv, sizeof(mc_tangent));
        if (!ad->pos[s] || !ad->nrm[s] || !ad->tan[s])
            return no_memory(err);
        st = mc_skin_topology_build(&a->mesh, s, MC_SKIN_CREASE_DEGREES, &ad->topo[s], err);
        if (st != MC_OK)
            return st;
    }
    ad->now = ad->surf;
    mc_scene_actor_matrix(a, &ad->model);
    ad->animated = a->anim_path != NULL;
    /* The bind pose for every actor. An animated actor is posed and skinned at every frame;
     * a still one is skinned once its surfaces are known. */
    mc_pose_bind(&a->mesh, ad->joints);
    return MC_OK;
}

static void release_actor(const mc_scene_actor *a, actor_draw *ad)
{
    for (int s = 0; s < a->mesh.num_meshes; s++) {
        if (ad->pos)
            free(ad->pos[s]);
        if (ad->nrm)
            free(ad->nrm[s]);
        if (ad->tan)
            free(ad->tan[s]);
        if (ad->topo)
            mc_skin_topology_release(&ad->topo[s]);
        if (ad->surf)
            free(ad->surf[s].dominant);
        for (int k = 0; ad->look_surf && k < ad->num_looks; k++)
            free(ad->look_surf[k * a->mesh.num_meshes + s].dominant);
        if (ad->def) {
            free(ad->def[s].pos);
            free(ad->def[s].nrm);
            free(ad->def[s].st);
            free(ad->def[s].idx);
        }
    }
    free(ad->def);
    free(ad->joints);
    free(ad->pos);
    free(ad->nrm);
    free(ad->tan);
    free(ad->topo);
    free(ad->surf);
    free(ad->look_surf);
    free(ad->command_look);
}

/* The materials' `time` at sample smp, in seconds: the scene's time, or with the engine clock
 * the game time Doom gives them (tr_main.cpp: viewDef->floatTime = renderView.time * 0.001). */
static float material_time(const mc_scene_renderer *sr, const mc_timeline_sample *smp)
{
    if (sr->clock == MC_CLOCK_ENGINE && smp->engine_ms >= 0)
        return (float)smp->engine_ms * 0.001f;
    return (float)smp->time;
}

/* Poses and skins every animated actor at the time of sample smp: its scene time in seconds
 * with the ideal clock, its game time in ms by Doom's integer rule with the engine clock. */
static void pose_actors(mc_scene_renderer *sr, const mc_timeline_sample *smp)
{
    for (int i = 0; i < sr->num_actors; i++) {
        const mc_scene_actor *a = &sr->scene->actors[i];
        actor_draw *ad = &sr->actors[i];
        mc_pose_opts po = { .loop = a->loop, .in_place = a->in_place };

        if (!ad->animated)
            continue;
        if (ad->num_looks > 0) {
            /* the skin of the last skin command fired by now, else the actor's own */
            int c = mc_scene_actor_skin_at(a, smp);

            ad->now = c < 0 ? ad->surf
                            : &ad->look_surf[ad->command_look[c] * a->mesh.num_meshes];
        }
        if (sr->clock == MC_CLOCK_ENGINE) {
            mc_anim_frame_pos fp;

            mc_anim_frame_at_ms(&a->anim, mc_scene_actor_ms(a, smp->engine_ms), a->loop, &fp);
            mc_pose_sample_frames(&a->mesh, &a->anim, a->joint_map, &fp, a->in_place,
                                  ad->joints);
        } else {
            mc_pose_sample(&a->mesh, &a->anim, a->joint_map, mc_scene_actor_time(a, smp->time),
                           &po, ad->joints);
        }
        skin_actor(a, ad);
    }
}

/* Once per material: a stage skipped because a value was not finite (material_eval.h). */
static void warn_not_finite(mc_scene_renderer *sr, kept_material *km, float time)
{
    mc_error w;

    km->warned = true;
    if (!sr->warn)
        return;
    mc_error_set(&w, MC_ERR_RANGE, km->file ? km->file : "", km->line, km->col,
                 "material '%s': a stage's texture matrix or alpha test is not a finite number "
                 "at %.3f s (a division by zero?); the stage is not drawn while it is not",
                 km->name ? km->name : "", (double)time);
    sr->warn(sr->warn_user, &w);
}

/* The unlit stages of surface sf into sr->stage_out, from the registers of its material
 * evaluated into sr->regs; returns how many are drawn (material_eval.h's skip rules). */
static int eval_stages(mc_scene_renderer *sr, const surface *sf, float time)
{
    kept_material *km;
    int n = 0;

    if (sf->mat < 0 || sr->mats[sf->mat].count == 0)
        return 0;
    km = &sr->mats[sf->mat];
    for (int i = 0; i < km->count; i++) {
        const stage_src *src = &sr->stage_srcs[km->first + i];
        mc_render_stage *out = &sr->stage_out[n];
        mc_stage_state ss;

        mc_stage_state_eval(&src->expr, src->blend, sr->regs, &ss);
        if (ss.not_finite && !km->warned)
            warn_not_finite(sr, km, time);
        if (!ss.visible)
            continue;
        memset(out, 0, sizeof *out);
        out->texture = src->texture;
        out->blend_src = (int)src->blend.src;
        out->blend_dst = (int)src->blend.dst;
        memcpy(out->color, ss.color, sizeof out->color);
        memcpy(out->matrix, ss.matrix, sizeof out->matrix);
        out->alpha_test = ss.has_alpha_test ? ss.alpha_test : 0.0f;
        out->wrap = (int)src->wrap;
        out->mask_red = src->mask[0];
        out->mask_green = src->mask[1];
        out->mask_blue = src->mask[2];
        out->mask_alpha = src->mask[3];
        out->depth_lequal = src->translucent;
        out->texgen = (int)src->texgen;
        if (src->texgen == MC_TEXGEN_WOBBLESKY)
            mc_wobblesky_turn(sr->regs[src->expr.wobble[0]], sr->regs[src->expr.wobble[1]],
                              sr->regs[src->expr.wobble[2]], time, out->wobble);
        sr->stage_vc[n] = src->vertex_color;
        n++;
    }
    return n;
}

/* Replaces item it's geometry by surface sf's deform for view (deform.h), into the buffers
 * out: MC_DEFORM_DRAWN when it did, MC_DEFORM_AS_IS when it left it, MC_DEFORM_NOTHING when
 * nothing of it is drawn this frame; vc: its vertices' colour (a flare's, else 0 0 0 0).
 * sr->regs hold the material's registers. */
static mc_deform_result deform_item(const mc_scene_renderer *sr, const surface *sf,
                                    const mc_submesh *sm, const mc_view *view, mc_deform_out out,
                                    mc_draw_item *it, unsigned char vc[4])
{
    const kept_material *km = &sr->mats[sf->mat];
    const mc_deform *d = &sf->deform;
    mc_deform_surface in = { it->positions, it->normals, &sm->verts[0].st.x, sizeof(mc_vert),
                             it->indices, it->vertex_count, it->triangle_count };
    float values[3];
    mc_deform_view dv;
    const char *why;
    mc_deform_result r;

    for (int i = 0; i < 3; i++)
        values[i] = sr->regs[d->regs[i]];
    memset(out.color, 0, sizeof out.color); /* Model_md5.cpp: idDrawVert::Clear */
    mc_deform_view_local(&it->model, view->origin, &view->axis, &dv);
    r = mc_deform_apply(d->kind, values,
                        d->kind == MC_DEFORM_TURBULENT ? &km->prog.tables[d->table] : NULL, &dv,
                        &in, &out, &why);
    memcpy(vc, out.color, sizeof out.color);
    if (r != MC_DEFORM_DRAWN)
        return r;
    it->positions = out.pos;
    it->normals = out.nrm;
    if (it->texcoords || it->num_stages > 0) {
        it->texcoords = out.st;
        it->texcoord_stride = 0;
    }
    if (out.num_verts != it->vertex_count) {
        /* a flare: the surface's tangents do not fit its new vertices */
        it->normal_map = 0;
        it->tangents = NULL;
    }
    it->vertex_count = out.num_verts;
    it->indices = out.idx;
    it->triangle_count = out.num_tris;
    return MC_DEFORM_DRAWN;
}

/* Item it's unlit stages (sr->stage_out) times its vertices' colour vc as their vertexColor
 * asks (draw_common.cpp RB_STD_T_RenderShaderPasses: SVC_MODULATE modulates by the colour
 * array, SVC_INVERSE_MODULATE combines the texture with GL_ONE_MINUS_SRC_COLOR of it on RGB,
 * alpha modulated in both; types.h mc_vertex_color). A surface's vertices share one colour. */
static void vertex_colors(const mc_scene_renderer *sr, const mc_draw_item *it,
                          const unsigned char vc[4])
{
    for (int i = 0; i < it->num_stages; i++) {
        mc_render_stage *st = &sr->stage_out[i];
        mc_vertex_color how = sr->stage_vc[i];

        if (how == MC_VERTEX_COLOR_IGNORE)
            continue;
        for (int c = 0; c < 3; c++)
            st->color[c] *= how == MC_VERTEX_COLOR_MODULATE ? vc[c] / 255.0f
                                                            : 1.0f - vc[c] / 255.0f;
        st->color[3] *= vc[3] / 255.0f;
    }
}

/* Draws surface sf (of submesh sm) as item it, deformed for view when its material has one.
 * As Doom, the deformed copy is the view's (depth, ambient, unlit stages) and the lights'
 * interactions and shadows use the undeformed surface (render.h, mc_item_passes; tr_light.cpp
 * R_AddDrawSurf, tr_deform.cpp R_DeformDrawSurf and R_FinishDeform). */
static mc_status draw_surface(mc_scene_renderer *sr, const surface *sf, const mc_submesh *sm,
                              mc_deform_out out, const mc_view *view, mc_draw_item *it,
                              mc_error *err)
{
    unsigned char vc[4] = { 0, 0, 0, 0 }; /* Model_md5.cpp: idDrawVert::Clear */
    mc_draw_item lit;
    mc_deform_result r;

    if (sf->deform.kind == MC_DEFORM_NONE) {
        vertex_colors(sr, it, vc);
        return mc_renderer_draw(sr->r, it, err);
    }
    lit = *it;
    r = deform_item(sr, sf, sm, view, out, it, vc);
    vertex_colors(sr, it, vc);
    if (r == MC_DEFORM_AS_IS)
        return mc_renderer_draw(sr->r, it, err);
    if (r == MC_DEFORM_NOTHING)
        return MC_OK; /* a flare from behind: no depth of it for its interactions to meet */
    /* the undeformed surface: lit where its depth meets the deformed one's (its lit stages),
     * and its shadow (an opaque surface's, unless noShadows) */
    if (!it->stages_only || !(it->material_flags & (MC_MTR_NO_SHADOWS | MC_MTR_TRANSLUCENT))) {
        mc_status st;

        lit.passes = MC_PASSES_LIGHTS;
        st = mc_renderer_draw(sr->r, &lit, err);
        if (st != MC_OK)
            return st;
    }
    it->passes = MC_PASSES_VIEW;
    return mc_renderer_draw(sr->r, it, err);
}

/* Draws every actor into the open frame for view; time: the materials' clock (seconds). */
static mc_status submit_actors(mc_scene_renderer *sr, const mc_view *view, float time,
                               mc_error *err)
{
    for (int i = 0; i < sr->num_actors; i++) {
        const mc_scene_actor *a = &sr->scene->actors[i];
        const actor_draw *ad = &sr->actors[i];

        for (int s = 0; s < a->mesh.num_meshes; s++) {
            const mc_submesh *sm = &a->mesh.meshes[s];
            mc_draw_item it;
            mc_status st;

            const surface *sf = &ad->now[s];

            if (sm->num_verts == 0 || sm->num_tris == 0 || sf->hidden)
                continue;

            memset(&it, 0, sizeof it);
            it.model = ad->model;
            it.positions = ad->pos[s];
            it.normals = ad->nrm[s];
            it.texture = sf->texture;
            it.normal_map = sf->normal_map;
            it.specular_map = sf->specular_map;
            it.tangents = sf->normal_map > 0 ? &ad->tan[s][0].t.x : NULL;
            it.alpha_test = sf->alpha_test;
            it.polygon_offset = sf->polygon_offset;
            it.material_flags = sf->flags;
            /* Material.cpp: "twoSided implies no-shadows" */
            if (sf->flags & MC_MTR_TWO_SIDED)
                it.material_flags |= MC_MTR_NO_SHADOWS;
            it.texcoords = sf->texture > 0 || sf->normal_map > 0 || sf->specular_map > 0
                                   ? &sm->verts[0].st.x
                                   : NULL;
            if (sf->white)
                memcpy(it.color, sf->color, sizeof it.color);
            it.stage_colors = sf->stage_colors;
            memcpy(it.diffuse_rgb, sf->diffuse_rgb, sizeof it.diffuse_rgb);
            memcpy(it.specular_rgb, sf->specular_rgb, sizeof it.specular_rgb);
            it.texcoord_stride = sizeof(mc_vert);
            it.vertex_count = sm->num_verts;
            it.indices = &sm->tris[0].v[0];
            it.triangle_count = sm->num_tris;
            if (!sf->white)
                memcpy(it.color, plain_color, sizeof it.color);
            if (sf->mat >= 0 &&
                (sr->mats[sf->mat].count > 0 || sf->deform.kind != MC_DEFORM_NONE))
                mc_expr_eval(&sr->mats[sf->mat].prog, time, a->parms, sr->regs);
            it.num_stages = eval_stages(sr, sf, time);
            it.stages = it.num_stages > 0 ? sr->stage_out : NULL;
            if (sf->stages_only && it.num_stages == 0)
                continue; /* every stage skipped this frame: nothing of it is drawn */
            it.stages_only = sf->stages_only;
            if (it.num_stages > 0 && !it.texcoords)
                it.texcoords = &sm->verts[0].st.x;
            st = draw_surface(sr, sf, sm, ad->def[s], view, &it, err);
            if (st != MC_OK)
                return st;
        }
    }
    return MC_OK;
}

/* ---- materials ------------------------------------------------------------------------ */

/* The per-frame buffers of the unlit stages, for the largest kept material. */
static mc_status size_stage_buffers(mc_scene_renderer *sr, mc_error *err)
{
    int regs = 1, stages = 1;

    for (int i = 0; i < sr->num_mats; i++) {
        if (sr->mats[i].prog.num_regs > regs)
            regs = sr->mats[i].prog.num_regs;
        if (sr->mats[i].count > stages)
            stages = sr->mats[i].count;
    }
    for (int i = 0; i < MC_RENDER_MAX_LIGHTS; i++)
        if (sr->light_srcs[i].prog.num_regs > regs)
            regs = sr->light_srcs[i].prog.num_regs;
    sr->regs = calloc((size_t)regs, sizeof *sr->regs);
    sr->stage_out = calloc((size_t)stages, sizeof *sr->stage_out);
    sr->stage_vc = calloc((size_t)stages, sizeof *sr->stage_vc);
    return sr->regs && sr->stage_out && sr->stage_vc ? MC_OK : no_memory(err);
}

/* A surface whose shader no material or image names gets Doom's implicit material
 * (Material.cpp idMaterial::SetDefaultText: `blend blend`, `colored`, `map NAME`, `clamp`) of a
 * missing image: outside developer mode `_default` is all zero, so the blend draws nothing, and
 * the blended (MC_TRANSLUCENT) material casts no shadow -- hidden. With developer images the
 * `_default` box stands in as its diffuse map (uploaded once: *box_id). */
static mc_status missing_material(mc_scene_renderer *sr, surface *sf, bool developer,
                                  int *box_id, mc_error *err)
{
    mc_image box;
    mc_status st = MC_OK;

    sf->white = true;
    memcpy(sf->color, (const float[4]){ 0, 0, 0, 1 }, sizeof sf->color);
    if (!developer) {
        sf->hidden = true;
        return MC_OK;
    }
    if (*box_id == 0) {
        if (!mc_material_builtin("_default", &box))
            return no_memory(err);
        st = mc_renderer_add_texture(sr->r, box.pixels, box.width, box.height, box.stride,
                                     box_id, err);
        mc_image_release(&box);
    }
    sf->texture = *box_id;
    sf->white = false;
    return st;
}

/* Why the deform of submesh j's material (mats: the actor's submeshes') cannot apply to it;
 * NULL when it can, when the material is not drawn, or when it has no deform that md5cine
 * applies (eyeBall and particles: the parser said so). */
static const char *deform_unfit_why(const mc_scene_actor *a, int j,
                                    const mc_material *const *mats)
{
    const mc_material *m = mats[j];
    const mc_submesh *sm = &a->mesh.meshes[j];

    if (!m || !mc_material_drawn(m) || m->deform.kind == MC_DEFORM_NONE ||
        m->deform.kind > MC_DEFORM_TURBULENT)
        return NULL;
    return mc_deform_unfit(m->deform.kind, sm->num_verts, &sm->tris[0].v[0], sm->num_tris);
}

/* The material of submesh j of the actor when its deform cannot apply (user: the submeshes'
 * materials of every actor), the cause (mesh_groups.h). */
static const void *deform_unfit(const mc_scene *s, int actor, int j, const void *user)
{
    const mc_material *const *mats = ((const mc_material *const *const *)user)[actor];

    return deform_unfit_why(&s->actors[actor], j, mats) ? mats[j] : NULL;
}

static void warn_deform_unfit(const mc_scene *s, int actor, int k, const char *who, int count,
                              const void *user, const mc_parse_opts *po)
{
    static const char *const NAMES[] = { "", "sprite", "tube", "flare", "expand", "move",
                                         "turbulent" };
    const mc_material *const *mats = ((const mc_material *const *const *)user)[actor];
    const mc_material *m = mats[k];
    mc_error w;

    (void)count;
    mc_error_set(&w, MC_ERR_SYNTAX, m->file, m->line, m->col,
                 "material '%s': deform %s not applied to mesh %d of %s: %s", m->name,
                 NAMES[m->deform.kind], k, who, deform_unfit_why(&s->actors[actor], k, mats));
    po->warn(po->warn_user, &w);
}

/* The buffers of submesh k's deform (deform.h); none where it cannot apply (Doom then draws the
 * surface as it is: apply_materials warns about those meshes, one warning per shader and a line
 * for the rest, mesh_groups.h). mats: the actor's submeshes' materials. */
static mc_status keep_deform(const mc_scene_actor *a, int k, const mc_material *const *mats,
                             surface *sf, mc_deform_out *out, mc_error *err)
{
    const mc_material *m = mats[k];
    const mc_submesh *sm = &a->mesh.meshes[k];
    int nv, nt;

    if (m->deform.kind == MC_DEFORM_NONE || m->deform.kind > MC_DEFORM_TURBULENT ||
        deform_unfit_why(a, k, mats))
        return MC_OK;
    sf->deform = m->deform;
    if (out->pos)
        return MC_OK; /* another look of the submesh made them: they fit any material */
    mc_deform_capacity(sm->num_verts, sm->num_tris, &nv, &nt);
    out->pos = calloc((size_t)nv, sizeof *out->pos);
    out->nrm = calloc((size_t)nv, sizeof *out->nrm);
    out->st = calloc((size_t)nv * 2, sizeof *out->st);
    out->idx = calloc((size_t)nt * 3, sizeof *out->idx);
    return out->pos && out->nrm && out->st && out->idx ? MC_OK : no_memory(err);
}

/* A surface with unsmoothedTangents: its vertices' triangles from the bind pose, as Doom builds
 * them once with the model's deform info (Model_md5.cpp R_BuildDeformInfo). */
static mc_status keep_dominant(const mc_mesh *mesh, int k, surface *sf, mc_error *err)
{
    size_t n = (size_t)mesh->meshes[k].num_verts + 1;
    mc_vec3 *bind = calloc(n, sizeof *bind);

    sf->dominant = calloc(n, sizeof *sf->dominant);
    if (!bind || !sf->dominant) {
        free(bind);
        return no_memory(err);
    }
    mc_skin_bind_positions(mesh, k, bind);
    mc_unsmoothed_build(&mesh->meshes[k], bind, sf->dominant);
    free(bind);
    return MC_OK;
}

/* Surface sf drawn with material m, whose diffuse (or first unlit) map is dif and whose maps
 * are uploaded as u: its textures, colours and switches. */
static void take_material(surface *sf, const mc_material *m, const mc_material_map *dif,
                          const uploaded_material *u)
{
    sf->stages_only = !m->lit && m->num_layers > 0;
    sf->texture = u->ids[0];
    sf->normal_map = u->ids[1];
    sf->specular_map = u->ids[2];
    sf->white = sf->texture == 0;
    /* No diffuse map: _white stands in for an unlit material; a lit one (a
     * specular-only material) gets Doom's black (tr_render.cpp,
     * RB_SubmittInteraction: blackImage for a missing diffuse). */
    memcpy(sf->color, (const float[4]){ 1, 1, 1, 1 }, sizeof sf->color);
    if (m->lit && !m->diffuse.present)
        sf->color[0] = sf->color[1] = sf->color[2] = 0.0f;
    /* Stage colours: a lit material's diffuse and specular stages, or the colour of
     * the unlit stage drawn in its place. */
    sf->stage_colors = true;
    for (int c = 0; c < 3; c++) {
        sf->diffuse_rgb[c] = dif->present ? dif->color[c] : 1.0f;
        sf->specular_rgb[c] = m->specular.present ? m->specular.color[c] : 1.0f;
        /* draw_arb2.cpp RB_ARB2_DrawInteraction: the interaction times the vertex colour, an
         * MD5 mesh's 0 (types.h, mc_vertex_color; inverseVertexColor: times 1) */
        if (m->lit && m->lit_vertex_color == MC_VERTEX_COLOR_MODULATE)
            sf->diffuse_rgb[c] = sf->specular_rgb[c] = 0.0f;
    }
    sf->alpha_test = m->lit || m->num_layers == 0 ? m->alpha_test
                                                   : m->layers[0].alpha_test;
    sf->flags = m->flags;
    sf->polygon_offset = m->polygon_offset;
}

/* The materials uploaded so far (several surfaces may share one), and the developer box. */
typedef struct material_uploads {
    uploaded_material *done;
    int num_done, box_id;
    bool developer;
} material_uploads;

/* Submesh k of actor i drawn with m (NULL: none declared) as sf; mats: the look's submeshes'
 * materials. */
static mc_status apply_surface(mc_scene_renderer *sr, const mc_scene_materials *sm, int i, int k,
                               const mc_material *const *mats, surface *sf,
                               material_uploads *up, mc_error *err)
{
    const mc_scene_actor *a = &sr->scene->actors[i];
    const mc_material *m = mats ? mats[k] : NULL;
    const mc_material_map *dif;
    mc_status st = MC_OK;
    int d = 0;

    if (!m) {
        /* A shader of a scene with a base that names nothing: Doom's implicit material of a
         * missing image -- invisible, or the developer box. */
        if (sm->set && !a->textures[k] && a->mesh.meshes[k].shader[0])
            st = missing_material(sr, sf, up->developer, &up->box_id, err);
        return st;
    }
    sf->hidden = !mc_material_drawn(m);
    if (sf->hidden)
        return MC_OK;
    /* an unlit material's first stage is its surface's texture, unless that is a cube map */
    dif = m->lit || m->num_layers == 0 || m->layers[0].map.cube != MC_CUBE_NONE
                  ? &m->diffuse
                  : &m->layers[0].map;
    while (d < up->num_done && up->done[d].mat != m)
        d++;
    if (d == up->num_done) {
        up->done[d].mat = m;
        st = mc_sr_upload_map(sr, dif, up->developer, &up->done[d].ids[0], err);
        if (st == MC_OK)
            st = mc_sr_upload_map(sr, &m->normal, up->developer, &up->done[d].ids[1], err);
        if (st == MC_OK)
            st = mc_sr_upload_map(sr, &m->specular, up->developer, &up->done[d].ids[2], err);
        if (st == MC_OK)
            st = mc_sr_keep_stages(sr, m, up->developer, err);
        up->num_done++;
    }
    sf->mat = d;
    take_material(sf, m, dif, &up->done[d]);
    if (st == MC_OK && (m->flags & MC_MTR_UNSMOOTHED_TANGENTS))
        st = keep_dominant(&a->mesh, k, sf, err);
    if (st == MC_OK)
        st = keep_deform(a, k, mats, sf, &sr->actors[i].def[k], err);
    return st;
}

/* Actor i's looks of its skin commands: each starts as its own look did before its materials
 * (the images of its material lines), then takes the look's materials. */
static mc_status apply_looks(mc_scene_renderer *sr, const mc_scene_materials *sm, int i,
                             material_uploads *up, mc_error *err)
{
    actor_draw *ad = &sr->actors[i];
    int nm = sr->scene->actors[i].mesh.num_meshes, nc = sr->scene->actors[i].num_frame_commands;
    mc_status st = MC_OK;

    ad->look_surf = calloc((size_t)sm->num_looks[i] * (size_t)nm + 1, sizeof *ad->look_surf);
    ad->command_look = malloc((size_t)nc * sizeof *ad->command_look);
    if (!ad->look_surf || !ad->command_look)
        return no_memory(err);
    memcpy(ad->command_look, sm->command_look[i], (size_t)nc * sizeof *ad->command_look);
    ad->num_looks = sm->num_looks[i];
    for (int l = 0; l < ad->num_looks; l++)
        for (int k = 0; k < nm && st == MC_OK; k++) {
            surface *sf = &ad->look_surf[l * nm + k];

            sf->texture = ad->surf[k].texture;
            sf->mat = -1;
            st = apply_surface(sr, sm, i, k, sm->looks[i][l].submesh, sf, up, err);
        }
    return st;
}

/* Gives every submesh with a declared material (material.h: a scene with a `base`), in each of
 * its looks, its maps, uploaded once per material, its switches and its unlit stages (drawn
 * after the lit pass, render.h). A material with only unlit stages has no lit pass: its first
 * stage's image and alpha test give its depth (RB_STD_FillDepthBuffer). */
static mc_status apply_materials(mc_scene_renderer *sr, const mc_scene_materials *sm,
                                 bool developer, const mc_parse_opts *po, mc_error *err)
{
    material_uploads up = { .developer = developer };
    int total = 0;
    mc_status st = MC_OK;

    for (int i = 0; i < sr->num_actors; i++)
        total += sr->scene->actors[i].mesh.num_meshes *
                 (1 + (sm->num_looks ? sm->num_looks[i] : 0));
    up.done = calloc((size_t)total + 1, sizeof *up.done);
    sr->mats = calloc((size_t)total + 1, sizeof *sr->mats);
    if (!up.done || !sr->mats) {
        free(up.done);
        return no_memory(err);
    }
    for (int i = 0; i < sr->num_actors && st == MC_OK; i++) {
        /* the looks first: they start from the own look's images, before its materials */
        if (sm->num_looks && sm->num_looks[i] > 0)
            st = apply_looks(sr, sm, i, &up, err);
        for (int k = 0; k < sr->scene->actors[i].mesh.num_meshes && st == MC_OK; k++)
            st = apply_surface(sr, sm, i, k, sm->submesh ? sm->submesh[i] : NULL,
                               &sr->actors[i].surf[k], &up, err);
    }
    for (int i = 0; i < sr->num_actors && st == MC_OK && sm->submesh; i++)
        mc_mesh_groups_warn(sr->scene, i, deform_unfit, warn_deform_unfit,
                            (const mc_material *const *const *)sm->submesh, NULL, po);
    free(up.done);
    return st;
}

/* The materials, their images counted against the budget after the used pixels of the
 * scene's own textures. */
static mc_status load_materials(mc_scene_renderer *sr, const mc_scene_renderer_desc *d,
                                unsigned long long used, mc_error *err)
{
    const mc_parse_opts po = { .warn = d->warn, .warn_user = d->warn_user, .stop = d->stop,
                               .image_pixels = d->image_pixels,
                               .image_pixels_used = used,
                               .strict_game_data = d->strict_materials };
    mc_scene_materials sm;
    mc_status st = mc_scene_materials_load(sr->scene, &po, &sm, err);

    if (st != MC_OK)
        return st;
    if (sm.vfs)
        st = mc_vfs_files_read(sm.vfs, &sr->inputs, &sr->num_inputs, err);
    if (st == MC_OK)
        st = apply_materials(sr, &sm, d->developer_images, &po, err);
    if (st == MC_OK)
        st = mc_sr_keep_lights(sr, &sm, d->developer_images, &po, err);
    if (st == MC_OK)
        st = size_stage_buffers(sr, err);
    mc_sr_forget_uploads(sr);
    mc_scene_materials_release(&sm);
    return st;
}

/* ---- create / release ------------------------------------------------------------------ */

static mc_status check_desc(const mc_scene_renderer_desc *d, mc_error *err)
{
    const char *why = NULL;

    if (!d || !d->scene)
        why = "no scene";
    else if (d->width < 0 || d->height < 0)
        why = "negative frame size";
    else if ((d->fps.num != 0 || d->fps.den != 0) && (d->fps.num < 1 || d->fps.den < 1))
        why = "frame rate must be num/den with both >= 1, or 0/0 for the scene's";
    else if (d->clock != MC_CLOCK_IDEAL && d->clock != MC_CLOCK_ENGINE)
        why = "unknown clock";
    else if (d->background_mode != MC_BACKGROUND_SCENE &&
             d->background_mode != MC_BACKGROUND_GIVEN && d->background_mode != MC_BACKGROUND_NONE)
        why = "unknown background mode";
    if (why)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "scene renderer: %s", why);
    return MC_OK;
}

/* The submeshes a frame draws, all actors together, within MC_LIMIT_SCENE_DRAWS: checked
 * before anything is made, at the actor that takes them past it. */
static mc_status check_draws(const mc_scene *s, mc_error *err)
{
    long draws = 0;

    for (int i = 0; i < s->num_actors; i++) {
        const mc_mesh *m = &s->actors[i].mesh;
        int n = 0;

        for (int k = 0; k < m->num_meshes; k++)
            n += m->meshes[k].num_verts > 0 && m->meshes[k].num_tris > 0;
        draws += n;
        if (draws > MC_LIMIT_SCENE_DRAWS)
            return mc_error_set(err, MC_ERR_LIMIT, s->name, s->actors[i].line, s->actors[i].col,
                                "actor '%s' takes the submeshes drawn in a frame to %ld, past "
                                "%d for all actors together (its mesh has %d)",
                                s->actors[i].name, draws, MC_LIMIT_SCENE_DRAWS, n);
    }
    return MC_OK;
}

/* Size, rate, frame count, background and overlay scale from desc and the scene. */
static void settle(mc_scene_renderer *sr, const mc_scene_renderer_desc *d)
{
    const mc_scene *s = d->scene;

    sr->scene = s;
    sr->width = d->width ? d->width : s->width ? s->width : DEFAULT_WIDTH;
    sr->height = d->height ? d->height : s->height ? s->height : DEFAULT_HEIGHT;
    sr->fps = mc_scene_fps(s, d->fps);
    sr->clock = d->clock;
    sr->count = mc_scene_frame_count_clock(s, sr->fps, sr->clock);
    sr->background[3] = 1.0f;
    if (d->background_mode == MC_BACKGROUND_GIVEN)
        memcpy(sr->background, d->background, sizeof d->background);
    else if (d->background_mode == MC_BACKGROUND_SCENE && s->has_background)
        memcpy(sr->background, s->background, sizeof s->background);
    else if (d->background_mode == MC_BACKGROUND_NONE)
        sr->background[3] = 0.0f;
    sr->shading = d->shading;
    sr->fov_mode = d->fov_mode;
    sr->overlay = d->overlay;
    sr->no_shadows = d->no_shadows;
    sr->warn = d->warn;
    sr->warn_user = d->warn_user;
    sr->overlay_scale = sr->height >= 360 ? sr->height / 360 : 1;
}

static mc_status open_renderer(mc_scene_renderer *sr, const mc_scene_renderer_desc *d,
                               mc_error *err)
{
    const mc_renderer_desc rd = { .width = sr->width,
                                  .height = sr->height,
                                  .msaa = d->msaa,
                                  .backend = d->backend,
                                  .gl_device = d->gl_device,
                                  .warn = d->warn,
                                  .warn_user = d->warn_user,
                                  .shadow_samples = d->shadow_samples,
                                  .stop = d->stop };

    return mc_renderer_create(&rd, &sr->r, err);
}

mc_status mc_scene_renderer_create(const mc_scene_renderer_desc *desc, mc_scene_renderer **out,
                                   mc_error *err)
{
    texture_set ts = { 0 };
    unsigned long long used;
    mc_scene_renderer *sr;
    mc_status st = check_desc(desc, err);

    *out = NULL;
    if (st == MC_OK)
        st = check_draws(desc->scene, err);
    if (st != MC_OK)
        return st;
    sr = calloc(1, sizeof *sr);
    if (!sr)
        return no_memory(err);
    settle(sr, desc);
    sr->actors = calloc((size_t)sr->scene->num_actors + 1, sizeof *sr->actors);
    if (!sr->actors)
        st = no_memory(err);
    else
        sr->num_actors = sr->scene->num_actors;
    for (int i = 0; i < sr->num_actors && st == MC_OK; i++)
        st = alloc_actor(&sr->scene->actors[i], &sr->actors[i], err);
    /* Decoding first: a bad texture is reported before any GL work is done. */
    if (st == MC_OK)
        st = mc_sr_decode_textures(sr->scene, desc->image_pixels, &ts, err);
    if (st == MC_OK)
        st = open_renderer(sr, desc, err);
    if (st == MC_OK)
        st = mc_sr_upload_textures(sr, &ts, err);
    used = ts.pixels;
    mc_sr_release_textures(&ts);
    if (st == MC_OK)
        st = mc_scene_lights(sr->scene, sr->lights, &sr->num_lights, sr->ambient, err);
    if (st == MC_OK)
        st = load_materials(sr, desc, used, err);
    if (st == MC_OK) {
        for (int i = 0; i < sr->num_actors; i++)
            if (!sr->actors[i].animated)
                skin_actor(&sr->scene->actors[i], &sr->actors[i]);
    }
    if (st != MC_OK) {
        mc_scene_renderer_release(sr);
        return st;
    }
    *out = sr;
    return MC_OK;
}

void mc_scene_renderer_release(mc_scene_renderer *sr)
{
    if (!sr)
        return;
    mc_renderer_release(sr->r);
    for (int i = 0; i < sr->num_actors; i++)
        release_actor(&sr->scene->actors[i], &sr->actors[i]);
    free(sr->actors);
    for (int i = 0; i < sr->num_mats; i++) {
        mc_expr_program_free(&sr->mats[i].prog);
        free(sr->mats[i].name);
        free(sr->mats[i].file);
    }
    free(sr->mats);
    for (int i = 0; i < MC_RENDER_MAX_LIGHTS; i++)
        mc_expr_program_free(&sr->light_srcs[i].prog);
    free(sr->light_stages);
    free(sr->stage_srcs);
    free(sr->regs);
    free(sr->stage_out);
    free(sr->stage_vc);
    mc_sr_forget_uploads(sr);
    free(sr->inputs);
    free(sr);
}

void mc_scene_renderer_get_info(const mc_scene_renderer *sr, int *width, int *height, mc_rate *fps,
                                mc_renderer_info *gl)
{
    if (width)
        *width = sr->width;
    if (height)
        *height = sr->height;
    if (fps)
        *fps = sr->fps;
    if (gl)
        mc_renderer_get_info(sr->r, gl);
}

mc_frame_no mc_scene_renderer_frame_count(const mc_scene_renderer *sr)
{
    return sr->count;
}

int mc_scene_renderer_input_count(const mc_scene_renderer *sr)
{
    return sr->num_inputs;
}

const char *mc_scene_renderer_input(const mc_scene_renderer *sr, int i)
{
    return i >= 0 && i < sr->num_inputs ? sr->inputs[i] : NULL;
}

/* ---- frames ---------------------------------------------------------------------------- */

/* Burns "frame K  HH:MM:SS:FF  shot S" into the open frame: the time code is the whole
 * seconds of t = k * den / num and FF the frame's place among the output frames that fall in
 * that second (k mod fps for a whole rate); shots are shown 1-based. */
static mc_status overlay(const mc_scene_renderer *sr, mc_frame_no k, int shot, mc_error *err)
{
    int64_t num = sr->fps.num, den = sr->fps.den;
    int64_t secs = k * den / num;
    int64_t first = (secs * num + den - 1) / den; /* first output frame at or after secs */
    int scale = sr->overlay_scale;
    char text[160];

    snprintf(text, sizeof text, "frame %lld  %02lld:%02lld:%02lld:%02lld  shot %d", (long long)k,
             (long long)(secs / 3600), (long long)(secs / 60 % 60), (long long)(secs % 60),
             (long long)(k - first), shot + 1);
    return mc_renderer_overlay_text(sr->r, 4 * scale, 4 * scale, scale, text, err);
}

static mc_status check_frame_args(const mc_scene_renderer *sr, mc_frame_no k,
                                  const mc_image_view *out, mc_error *err)
{
    if (k < 0 || k >= sr->count)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "frame %lld is outside 0-%lld",
                            (long long)k, (long long)(sr->count - 1));
    if (!out || !out->pixels || out->width != sr->width || out->height != sr->height ||
        out->stride < (size_t)sr->width * 4 || out->stride % 4 != 0)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "the frame view must be %dx%d with a stride of at least %d bytes, "
                            "a multiple of 4",
                            sr->width, sr->height, sr->width * 4);
    return MC_OK;
}

mc_status mc_scene_renderer_frame(mc_scene_renderer *sr, mc_frame_no k, const mc_image_view *out,
                                  mc_scene_frame_info *info, mc_error *err)
{
    mc_view view;
    mc_timeline_sample smp;
    mc_frame_params fp;
    double t0, t1, t2;
    mc_status st = check_frame_args(sr, k, out, err);

    if (st != MC_OK)
        return st;
    t0 = now();
    mc_timeline_sample_frame_clock(&sr->scene->camera, sr->fps, sr->clock, k, &smp);
    mc_view_from_sample(&sr->scene->camera, &smp, sr->width, sr->height, sr->fov_mode, &view);
    pose_actors(sr, &smp);
    t1 = now();
    memset(&fp, 0, sizeof fp);
    fp.view = view.view;
    fp.proj = view.proj;
    memcpy(fp.background, sr->background, sizeof fp.background);
    fp.shading = sr->shading;
    fp.num_lights = mc_sr_eval_lights(sr, material_time(sr, &smp));
    fp.lights = sr->frame_lights;
    memcpy(fp.ambient, sr->ambient, sizeof fp.ambient);
    fp.no_shadows = sr->no_shadows;
    st = mc_renderer_begin(sr->r, &fp, err);
    if (st != MC_OK)
        mc_sr_light_error_position(sr, fp.num_lights, err);
    if (st == MC_OK)
        st = submit_actors(sr, &view, material_time(sr, &smp), err);
    if (st == MC_OK && sr->overlay)
        st = overlay(sr, k, smp.shot, err);
    t2 = now();
    /* Closes the frame even after a failed draw, so that the next one can begin. */
    if (st == MC_OK)
        st = mc_renderer_end(sr->r, out->pixels, out->stride, err);
    else
        mc_renderer_end(sr->r, out->pixels, out->stride, NULL);
    if (info) {
        info->frame = k;
        info->time = smp.time;
        info->engine_ms = smp.engine_ms;
        info->stored = smp.stored;
        info->next = smp.next;
        info->lerp = smp.lerp;
        info->shot = smp.shot;
        info->pose_s = t1 - t0;
        info->draw_s = t2 - t1;
        info->end_s = now() - t2;
    }
    return st;
}
