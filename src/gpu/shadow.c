/* Stencil shadows (render_int.h): each item's shadow volumes, made on the CPU when it is drawn
 * (shadow_volume.h: Doom's turbo shadow volumes from the skinned triangles, one per light),
 * and the stencil pass before each light's interactions, as dhewm3 draws them:
 * draw_arb2.cpp RB_ARB2_DrawInteractions (per light: clear the stencil, RB_StencilShadowPass,
 * then the interactions where the stencil test passes) and draw_common.cpp RB_StencilShadowPass
 * and RB_T_Shadow with r_useCarmacksReverse and r_useStencilOpSeparate (depth-fail counting,
 * both faces in one draw, caps always drawn). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/render_int.h"

/* Doom clears the stencil to 128 (GPU_STENCIL_CLEAR) before a light's shadows and draws the
 * interactions with glStencilFunc(GL_GEQUAL, 128, 255) (RB_StencilShadowPass's end): lit
 * where no volume counted the pixel in. */
#define STENCIL_CLEAR GPU_STENCIL_CLEAR

/* shadow.vp as RB_T_Shadow feeds it (the light origin in model space, w 0): a vertex with
 * w 1 stays on the mesh, one with w 0 goes to infinity along the ray from the light. The
 * same transform as the scene's vertex shader for the vertices on the mesh. */
static const char *const shadow_vs =
        "layout(location = 0) in vec4 a_pos;\n"
        "uniform mat4 u_model, u_viewproj;\n"
        "uniform vec3 u_light;\n"
        "invariant gl_Position;\n"
        "void main() {\n"
        "    vec4 p = a_pos.w > 0.0 ? vec4(a_pos.xyz, 1.0) : vec4(a_pos.xyz - u_light, 0.0);\n"
        "    gl_Position = u_viewproj * (u_model * p);\n"
        "    gl_Position.y = -gl_Position.y; /* top row first in memory */\n"
        "}\n";

static const char *const shadow_fs = "out vec4 o_col;\n"
                                     "void main() { o_col = vec4(0.0); }\n";

mc_status gpu_shadow_build(mc_renderer *r, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    mc_status s = gpu_link_program(gl, "#version 330 core\n", shadow_vs, shadow_fs, NULL,
                                   &r->shadow_prog, err);

    if (s != MC_OK)
        return s;
    r->us_model = gl->GetUniformLocation(r->shadow_prog, "u_model");
    r->us_viewproj = gl->GetUniformLocation(r->shadow_prog, "u_viewproj");
    r->us_light = gl->GetUniformLocation(r->shadow_prog, "u_light");
    return gpu_gl_check(gl, "building the shadow program", err);
}

/* ---- the shadow mask ----------------------------------------------------------------
 *
 * With MSAA and shadows per pixel (MC_SHADOW_SAMPLES_PIXEL, render.h), a light's volumes are
 * counted in a single-sample stencil, the mask, rather than at every sample of the frame's:
 * Doom's renderer has no multisampling (RenderSystem_init.cpp, r_multiSamples 0), so it decides
 * a pixel's shadow once, and at 4 samples the volumes' long, thin quads cost four times the
 * fill. After the first pass the frame's depth is copied into the mask (the blit takes each
 * pixel's first sample), then for each light with shadows its stencil is cleared to 128 and
 * the volumes are drawn there, as they would be into the frame's, and the light's
 * interactions (P_MASKED) read the mask's stencil at their pixel and draw where it is 128 or
 * below, which is the stencil test the frame's stencil would have made at one sample. A pixel
 * is lit at every sample or at none; where a silhouette crosses it, its samples of the other
 * surface take the shadow of the first sample's surface: light or shadow moves by at most
 * that pixel. */

mc_status gpu_shadow_mask_build(mc_renderer *r, mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    GLenum status;

    gl->GenTextures(1, &r->mask_ds);
    gl->BindTexture(GL_TEXTURE_2D, r->mask_ds);
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, r->width, r->height, 0,
                   GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, NULL);
    gl->GetError();
    /* read as the stencil's integers (GL 4.3's stencil texturing), one texel a pixel; a GL
     * without it keeps the shadows per sample */
    gl->TexParameteri(GL_TEXTURE_2D, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_STENCIL_INDEX);
    if (gl->GetError() != GL_NO_ERROR) {
        gl->BindTexture(GL_TEXTURE_2D, 0);
        gl->DeleteTextures(1, &r->mask_ds);
        r->mask_ds = 0;
        return MC_OK;
    }
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    gl->BindTexture(GL_TEXTURE_2D, 0);
    gl->GenFramebuffers(1, &r->fbo_mask);
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_mask);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D,
                             r->mask_ds, 0);
    gl->DrawBuffer(GL_NONE);
    gl->ReadBuffer(GL_NONE);
    status = gl->CheckFramebufferStatus(GL_FRAMEBUFFER);
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0,
                            "the %dx%d shadow mask framebuffer is incomplete (0x%x)", r->width,
                            r->height, (unsigned)status);
    return gpu_gl_check(gl, "making the shadow mask", err);
}

/* Copies the frame's depth (each pixel's first sample) into the mask, once a frame. */
static void mask_depth(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;

    if (r->mask_depth)
        return;
    gl->Disable(GL_SCISSOR_TEST);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_ms);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo_mask);
    gl->BlitFramebuffer(0, 0, r->width, r->height, 0, 0, r->width, r->height,
                        GL_DEPTH_BUFFER_BIT, GL_NEAREST);
    r->mask_depth = 1;
}

void gpu_shadow_delete_gl(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;

    gl->DeleteFramebuffers(1, &r->fbo_mask);
    gl->DeleteTextures(1, &r->mask_ds);
    for (int i = 0; i < r->num_slots; i++) {
        slot_shadow *sh = &r->slots[i].sh;
        GLuint bufs[2] = { sh->verts, sh->idx };

        if (sh->vao) {
            gl->DeleteBuffers(2, bufs);
            gl->DeleteVertexArrays(1, &sh->vao);
        }
    }
    gl->DeleteProgram(r->shadow_prog);
}

void gpu_shadow_free(mc_renderer *r)
{
    gpu_shadow_work_free(&r->shadow_work);
    free(r->shadow_verts);
    free(r->shadow_idx);
    free(r->shadow_idx16);
}

/* Fills buffer buf (bound to target) with bytes, growing its storage only when needed. */
static void fill(const mc_gl_fns *gl, GLenum target, GLuint buf, size_t *cap, const void *data,
                 size_t bytes)
{
    gl->BindBuffer(target, buf);
    if (bytes > *cap) {
        size_t more = *cap + *cap / 2;

        *cap = bytes > more ? bytes : more;
        gl->BufferData(target, (GLsizeiptr)*cap, NULL, GL_DYNAMIC_DRAW);
    }
    gl->BufferSubData(target, 0, (GLsizeiptr)bytes, data);
}

/* The light volume's six planes, inward and of unit normal, in model space: tr_lightrun.cpp
 * R_SetLightFrustum (s >= 0, t >= 0, q - s >= 0, q - t >= 0, falloff >= 0, 1 - falloff >= 0),
 * negated as R_CalcInteractionCullBits takes them, then R_GlobalPlaneToLocal through the model
 * matrix m (plane (n, d) -> (A^T n, n . t + d)). */
static void local_planes(const light_values *lv, const float *m, float out[6][4])
{
    const float(*p)[4] = lv->plane;
    float w[6][4];

    for (int k = 0; k < 4; k++) {
        w[0][k] = p[0][k];
        w[1][k] = p[1][k];
        w[2][k] = p[2][k] - p[0][k];
        w[3][k] = p[2][k] - p[1][k];
        w[4][k] = p[3][k];
        w[5][k] = -p[3][k];
    }
    w[5][3] += 1.0f;
    for (int i = 0; i < 6; i++) {
        float len = sqrtf(w[i][0] * w[i][0] + w[i][1] * w[i][1] + w[i][2] * w[i][2]);

        for (int k = 0; k < 4 && len > 0.0f; k++)
            w[i][k] /= len;
        for (int c = 0; c < 3; c++)
            out[i][c] = m[c * 4 + 0] * w[i][0] + m[c * 4 + 1] * w[i][1] + m[c * 4 + 2] * w[i][2];
        out[i][3] = w[i][0] * m[12] + w[i][1] * m[13] + w[i][2] * m[14] + w[i][3];
    }
}

mc_status gpu_shadow_item(mc_renderer *r, slot *sl, const mc_draw_item *it, float det,
                          mc_error *err)
{
    const mc_gl_fns *gl = &r->gl;
    const frame_values *fv = &r->fv;
    slot_shadow *sh = &sl->sh;
    const draw_state *ds = &sl->ds;
    size_t per_light, total = 0;
    int casts = 0;
    mc_status s;

    memset(sh->count, 0, sizeof sh->count);
    /* a deformed surface's copy for the view casts none (render.h, MC_PASSES_VIEW) */
    for (int l = 0; l < fv->num_lights && sl->passes != MC_PASSES_VIEW; l++)
        casts |= fv->lights[l].shadows;
    if (r->shading != MC_SHADING_LIT || (it->material_flags & MC_MTR_NO_SHADOWS) || sl->late ||
        det == 0.0f || !casts)
        return MC_OK;
    s = gpu_shadow_topology(&r->shadow_work, it->positions, it->vertex_count, it->indices,
                            it->triangle_count, err);
    if (s != MC_OK)
        return s;
    per_light = gpu_shadow_max_indices(&r->shadow_work);
    if (!gpu_grow((void **)&r->shadow_verts, &r->shadow_verts_cap, (size_t)it->vertex_count * 8,
              sizeof *r->shadow_verts) ||
        !gpu_grow((void **)&r->shadow_idx, &r->shadow_idx_cap, per_light * (size_t)fv->num_lights,
              sizeof *r->shadow_idx))
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for shadow volumes");
    for (int l = 0; l < fv->num_lights; l++) {
        const light_values *lv = &fv->lights[l];
        float planes[6][4];

        if (!lv->shadows)
            continue;
        gpu_point_to_model(ds, lv->org, sh->light[l]);
        local_planes(lv, ds->model, planes);
        sh->first[l] = total;
        sh->count[l] = gpu_shadow_volume(&r->shadow_work, it->positions, it->indices,
                                         sh->light[l], (const float(*)[4])planes, det < 0.0f,
                                         r->shadow_idx + total);
        total += sh->count[l];
    }
    if (total == 0)
        return MC_OK;
    /* 16-bit indices when every shadow vertex number fits: half the index storage GL keeps for
     * each item until the frame is drawn (the same numbers, so the same triangles) */
    sh->short_idx = (size_t)it->vertex_count * 2 <= 65536;
    if (sh->short_idx) {
        if (!gpu_grow((void **)&r->shadow_idx16, &r->shadow_idx16_cap, total,
                      sizeof *r->shadow_idx16))
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for shadow volumes");
        for (size_t i = 0; i < total; i++)
            r->shadow_idx16[i] = (unsigned short)r->shadow_idx[i];
    }
    gpu_shadow_vertices(it->positions, it->vertex_count, r->shadow_verts);
    if (!sh->vao) {
        gl->GenVertexArrays(1, &sh->vao);
        gl->GenBuffers(1, &sh->verts);
        gl->GenBuffers(1, &sh->idx);
    }
    gl->BindVertexArray(sh->vao);
    fill(gl, GL_ARRAY_BUFFER, sh->verts, &sh->verts_cap, r->shadow_verts,
         (size_t)it->vertex_count * 8 * sizeof(float));
    gl->EnableVertexAttribArray(0);
    gl->VertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 4 * sizeof(float), (const void *)0);
    if (sh->short_idx)
        fill(gl, GL_ELEMENT_ARRAY_BUFFER, sh->idx, &sh->idx_cap, r->shadow_idx16,
             total * sizeof *r->shadow_idx16);
    else
        fill(gl, GL_ELEMENT_ARRAY_BUFFER, sh->idx, &sh->idx_cap, r->shadow_idx,
             total * sizeof *r->shadow_idx);
    gl->BindVertexArray(0);
    return gpu_gl_check(gl, "uploading shadow volumes", err);
}

/* Draws the volumes from light l of the pending opaque items that have MC_MTR_NO_SELF_SHADOW
 * when self, those that have not when not. */
static void draw_volumes(mc_renderer *r, int l, int self)
{
    const mc_gl_fns *gl = &r->gl;

    /* RB_StencilShadowPass: GLS_DEPTHMASK | GLS_COLORMASK | GLS_ALPHAMASK |
     * GLS_DEPTHFUNC_LESS, glPolygonOffset(r_shadowPolygonFactor 0, -r_shadowPolygonOffset 1);
     * both faces at once (GL_Cull(CT_TWO_SIDED)). Depth clamp keeps the caps at infinity
     * when a caller's projection has a far plane (Doom's has none). */
    gl->ColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    gl->StencilMask(0xff);
    gl->DepthMask(GL_FALSE);
    gl->DepthFunc(GL_LESS);
    gl->Disable(GL_CULL_FACE);
    gl->Enable(GL_DEPTH_CLAMP);
    gl->Enable(GL_POLYGON_OFFSET_FILL);
    gl->PolygonOffset(0.0f, 1.0f);
    gl->StencilFunc(GL_ALWAYS, 1, 0xff);
    if (r->masked) {
        gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_mask);
        gl->Enable(GL_STENCIL_TEST);
    }
    gl->UseProgram(r->shadow_prog);
    r->current = r->shadow_prog;
    gl->UniformMatrix4fv(r->us_viewproj, 1, GL_FALSE, r->fv.vp);
    gl->Enable(GL_SCISSOR_TEST);
    for (int i = 0; i < r->used_slots; i++) {
        const slot *sl = &r->slots[i];

        if (!sl->pending || sl->late || sl->sh.count[l] == 0 ||
            !(sl->ds.flags & MC_MTR_NO_SELF_SHADOW) != !self || sl->sh.skip || gpu_stopped(r))
            continue;
        gl->Scissor(sl->sh.rect[0], sl->sh.rect[1], sl->sh.rect[2], sl->sh.rect[3]);
        /* RB_T_Shadow, z-fail with glStencilOpSeparate: the volume's outward faces (the
         * item's front faces) decrement where they fail the depth test, the inward ones
         * increment (Doom's GL_BACK is its front side) */
        gl->FrontFace(sl->ds.front);
        gl->StencilOpSeparate(GL_FRONT, GL_KEEP, GL_DECR_WRAP, GL_KEEP);
        gl->StencilOpSeparate(GL_BACK, GL_KEEP, GL_INCR_WRAP, GL_KEEP);
        gl->UniformMatrix4fv(r->us_model, 1, GL_FALSE, sl->ds.model);
        gl->Uniform3fv(r->us_light, 1, sl->sh.light[l]);
        gl->BindVertexArray(sl->sh.vao);
        if (sl->sh.short_idx)
            gl->DrawElements(GL_TRIANGLES, (GLsizei)sl->sh.count[l], GL_UNSIGNED_SHORT,
                             (const void *)(sl->sh.first[l] * sizeof(unsigned short)));
        else
            gl->DrawElements(GL_TRIANGLES, (GLsizei)sl->sh.count[l], GL_UNSIGNED_INT,
                             (const void *)(sl->sh.first[l] * sizeof(unsigned)));
        gpu_drawn(r, sl->sh.count[l]);
    }
    gl->BindVertexArray(0);
    /* back to the light's reach for its interactions */
    gl->Scissor(r->light_rect[0], r->light_rect[1], r->light_rect[2], r->light_rect[3]);
    gl->StencilOpSeparate(GL_FRONT_AND_BACK, GL_KEEP, GL_KEEP, GL_KEEP);
    if (r->masked) {
        /* the interactions read the mask (P_MASKED), not the frame's stencil */
        gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_ms);
        gl->Disable(GL_STENCIL_TEST);
    }
    /* The interactions only read the stencil. Without multisampling, a write mask of 0 lets
     * llvmpipe test depth and stencil before the interaction shader, which may discard, and
     * skip shading a block that fails (a stencil it may write forces the test after the
     * shader); with multisampling its early test skips nothing and costs more, so the mask
     * stays (docs/speed.md). Either way nothing writes the stencil here. */
    gl->StencilMask(r->samples > 1 ? 0xff : 0);
    gl->StencilFunc(GL_GEQUAL, STENCIL_CLEAR, 0xff);
    gl->ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    gl->DepthFunc(GL_EQUAL);
    gl->Disable(GL_DEPTH_CLAMP);
    gl->Disable(GL_POLYGON_OFFSET_FILL);
}

/* Widen by 2 pixels: the rasteriser's snapping moves an edge by far less than a pixel. Then
 * out to whole 64-pixel tiles: llvmpipe bins and rasterises a frame in 64x64 tiles and
 * evaluates a triangle over a tile that a scissor edge crosses through other paths, whose depth
 * rounding can differ where a volume grazes a surface; so a tile is drawn whole or not at all,
 * as without the scissor. */
enum { MARGIN = 2, TILE = 64 };

void gpu_reach_add(gpu_reach *a, const int rect[4])
{
    for (int k = 0; k < 2; k++) {
        if (!a->any || rect[k] < a->lo[k])
            a->lo[k] = rect[k];
        if (!a->any || rect[k] + rect[k + 2] > a->hi[k])
            a->hi[k] = rect[k] + rect[k + 2];
    }
    a->any = 1;
}

int gpu_reach_holds(const mc_renderer *r, const gpu_reach *a, const slot *sl)
{
    int rc[4];

    return a->any && gpu_box_rect(&sl->box, NULL, 0, r->fv.vp, r->width, r->height, MARGIN, rc) &&
           rc[0] >= a->lo[0] && rc[1] >= a->lo[1] && rc[0] + rc[2] <= a->hi[0] &&
           rc[1] + rc[3] <= a->hi[1];
}

/* a's union out to whole tiles into rect, clipped to clip; 0 when that is empty. */
static int reach_tiles(const gpu_reach *a, const int clip[4], int rect[4])
{
    int lo[2], hi[2];

    if (!a->any)
        return 0;
    for (int k = 0; k < 2; k++) {
        lo[k] = a->lo[k] / TILE * TILE;
        hi[k] = (a->hi[k] + TILE - 1) / TILE * TILE;
        lo[k] = lo[k] > clip[k] ? lo[k] : clip[k];
        hi[k] = hi[k] < clip[k] + clip[k + 2] ? hi[k] : clip[k] + clip[k + 2];
        if (hi[k] <= lo[k])
            return 0;
        rect[k] = lo[k];
        rect[k + 2] = hi[k] - lo[k];
    }
    return 1;
}

void gpu_light_reach(mc_renderer *r, int l)
{
    float planes[6][4];
    int n = gpu_light_volume(r, l, planes);
    const int frame[4] = { 0, 0, r->width, r->height };
    gpu_reach a = { { 0, 0 }, { 0, 0 }, 0 };

    for (int i = 0; i < r->used_slots; i++) {
        slot *sl = &r->slots[i];
        int rect[4];

        if (!sl->pending)
            continue;
        /* a deformed surface's copy for the view takes no light (render.h, MC_PASSES_VIEW) */
        sl->unlit = sl->passes == MC_PASSES_VIEW ||
                    (!r->no_scissor && !gpu_box_rect(&sl->box, (const float(*)[4])planes, n,
                                                     r->fv.vp, r->width, r->height, MARGIN, rect));
        if (!sl->unlit && !r->no_scissor)
            gpu_reach_add(&a, rect);
    }
    if (r->no_scissor)
        memcpy(r->light_rect, frame, sizeof frame);
    else if (!reach_tiles(&a, frame, r->light_rect))
        memset(r->light_rect, 0, sizeof r->light_rect);
}

/* The pixels where caster c's volume from light l can count (shadow_volume.h), within the
 * light's reach: the union over the frame's drawn items of their box inside the pyramid of
 * c's rays from the light. Sets c->sh.rect, or c->sh.skip when there are none. */
static void volume_scissor(const mc_renderer *r, slot *c, int l)
{
    float planes[5][4];
    int pyramid = gpu_shadow_pyramid(r->fv.lights[l].org, &c->box, planes);
    gpu_reach a = { { 0, 0 }, { 0, 0 }, 0 };

    for (int i = 0; i < r->used_slots; i++) {
        const slot *it = &r->slots[i];
        int rect[4];

        if (it->pending && !it->unlit &&
            gpu_box_rect(&it->box, (const float(*)[4])planes, pyramid ? 5 : 0, r->fv.vp,
                         r->width, r->height, MARGIN, rect))
            gpu_reach_add(&a, rect);
    }
    c->sh.skip = !reach_tiles(&a, r->light_rect, c->sh.rect);
}

/* The most caster and item pairs volume_scissor looks at for one light: past that (2048 items
 * drawn), each caster's volume is scissored to the light's reach instead, which holds every
 * caster's own rectangle, so the pixels are the same; 20,000 items would otherwise cost 4e8
 * box projections a light. */
#define SCISSOR_PAIRS_MAX ((size_t)1 << 22)

void gpu_shadow_light(mc_renderer *r, int l)
{
    const mc_gl_fns *gl = &r->gl;
    int any = 0;
    int each = (size_t)r->used_slots * (size_t)r->used_slots <= SCISSOR_PAIRS_MAX;

    for (int i = 0; i < r->used_slots && r->fv.lights[l].shadows && !gpu_stopped(r); i++) {
        slot *sl = &r->slots[i];

        if (!sl->pending || sl->late || sl->sh.count[l] == 0)
            continue;
        if (!r->no_scissor && !each) {
            memcpy(sl->sh.rect, r->light_rect, sizeof sl->sh.rect);
            sl->sh.skip = r->light_rect[2] <= 0 || r->light_rect[3] <= 0;
        } else if (r->no_scissor) {
            sl->sh.skip = 0;
            memcpy(sl->sh.rect, (const int[4]){ 0, 0, r->width, r->height }, sizeof sl->sh.rect);
        } else {
            volume_scissor(r, sl, l);
        }
        any |= !sl->sh.skip;
    }
    r->shadow_on = any;
    r->masked = any && r->fbo_mask;
    if (!any) {
        /* "no shadows, so no need to read or write the stencil buffer" */
        gl->Disable(GL_STENCIL_TEST);
        return;
    }
    if (r->masked) {
        mask_depth(r);
        gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_mask);
        gl->StencilMask(0xff);
        gl->ClearStencil(STENCIL_CLEAR);
        gl->Clear(GL_STENCIL_BUFFER_BIT);
        draw_volumes(r, l, 0);
        gl->ActiveTexture(GL_TEXTURE0 + U_MASK);
        gl->BindTexture(GL_TEXTURE_2D, r->mask_ds);
        return;
    }
    /* The whole stencil, although the volumes and interactions read it only within the
     * light's reach (render_int.h), and nothing after this light's passes reads it: a clear
     * inside a scissor that is not the whole frame is drawn by Mesa as a rectangle through
     * the fragment pipeline, at every sample, while a whole one is llvmpipe's clear of each
     * tile's memory (draw_arb2.cpp RB_ARB2_DrawInteractions clears within the light's
     * scissor, where a GPU clears either way at no cost). The first shadowed light of a
     * frame needs none: the frame's clear left 128 everywhere (as tr_render.cpp
     * RB_BeginDrawingView clears it with the depth), and nothing writes the stencil before
     * (its test is off until now). */
    if (!r->stencil_fresh) {
        gl->StencilMask(0xff);
        gl->ClearStencil(STENCIL_CLEAR);
        gl->Clear(GL_STENCIL_BUFFER_BIT);
    }
    r->stencil_fresh = 0;
    gl->Enable(GL_STENCIL_TEST);
    draw_volumes(r, l, 0);
}

void gpu_shadow_local(mc_renderer *r, int l)
{
    if (r->shadow_on)
        draw_volumes(r, l, 1);
}

void gpu_shadow_mask_clear(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;

    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_mask);
    gl->StencilMask(0xff);
    gl->ClearStencil(STENCIL_CLEAR);
    gl->Clear(GL_STENCIL_BUFFER_BIT);
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_ms);
    gl->ActiveTexture(GL_TEXTURE0 + U_MASK);
    gl->BindTexture(GL_TEXTURE_2D, r->mask_ds);
}

void gpu_shadow_done(mc_renderer *r)
{
    const mc_gl_fns *gl = &r->gl;

    gl->Disable(GL_STENCIL_TEST);
    if (r->fbo_mask) {
        gl->ActiveTexture(GL_TEXTURE0 + U_MASK);
        gl->BindTexture(GL_TEXTURE_2D, 0);
    }
    r->masked = 0;
}
