/* deform: a material's `deform` (material.h, mc_deform) applied to one surface's vertices for
 * one view, as Doom's renderer does it each frame (renderer/tr_deform.cpp, R_DeformDrawSurf):
 *
 *   sprite     (R_AutospriteDeform) every 4 vertices are one quad, rebuilt around its centre
 *              facing the camera: corner i = mid +- left +- up, with left and up the view's
 *              axes times radius = |v0 - mid| * 0.707; texture (0,0) (1,0) (1,1) (0,1);
 *              triangles (i, i+1, i+2) (i, i+2, i+3).
 *   tube       (R_TubeDeform) each quad pivots about its long axis: the two shortest of its six
 *              triangle edges are re-spread, half their length each way from their midpoint,
 *              along normalize(major x (mid - eye)), major the line between the two midpoints.
 *   flare      (R_FlareDeform) a single quad (4 vertices, 2 triangles) grows a rim of 12 more
 *              vertices, spread = the register's value along the edge directions, pulled back
 *              onto the quad's plane; seen from behind the plane nothing is drawn. Every
 *              vertex's colour: grey min(255, int(8 * 256 * dir . n)), alpha 255, dir the unit
 *              vector from the quad's centre to the eye, n the plane's normal.
 *   expand     (R_ExpandDeform) position + unit normal * the register's value.
 *   move       (R_MoveDeform) model x + the register's value.
 *   turbulent  (R_TurbulentDeform) f = x 0.003 + y 0.007 + z 0.011; f = timeOfs + domain f +
 *              timeOfs; s += range table(f), t += range table(f + 0.5).
 *
 * Everything happens in model space: the view is brought into it first (R_GlobalPointToLocal,
 * R_GlobalVectorToLocal). Nothing here allocates: the caller gives buffers of at least
 * mc_deform_capacity's size. */
#ifndef MC_SCENE_DEFORM_H
#define MC_SCENE_DEFORM_H

#include <stddef.h>

#include <md5cine/material.h>
#include <md5cine/mtr_expr.h>
#include <md5cine/types.h>

/* A flare's vertices and triangles (R_FlareDeform: 16 and 18). */
#define MC_DEFORM_FLARE_VERTS 16
#define MC_DEFORM_FLARE_TRIS  18

/* The camera as a deform sees it, in the surface's model space. */
typedef struct mc_deform_view {
    mc_vec3 origin; /* the eye */
    mc_vec3 left;   /* the view's left axis, unit length */
    mc_vec3 up;     /* the view's up axis, unit length */
} mc_deform_view;

/* The view at world origin with axis rows forward, left, up (view.h) brought into the model
 * space of model (model -> world, GL layout, invertible). */
void mc_deform_view_local(const mc_mat4 *model, mc_vec3 origin, const mc_mat3 *axis,
                          mc_deform_view *out);

/* The surface before the deform. */
typedef struct mc_deform_surface {
    const mc_vec3 *pos; /* num_verts, model space */
    const mc_vec3 *nrm; /* num_verts */
    const float *st;    /* s, t of vertex 0 */
    size_t st_stride;   /* bytes from one vertex's s to the next */
    const int *idx;     /* 3 per triangle, each < num_verts */
    int num_verts, num_tris;
} mc_deform_surface;

/* The surface after it: caller's buffers, counts written. */
typedef struct mc_deform_out {
    mc_vec3 *pos, *nrm;
    float *st; /* 2 floats per vertex */
    int *idx;
    int num_verts, num_tris;
    unsigned char color[4]; /* every vertex's colour: a flare writes it, the others leave the
                               caller's (an MD5 mesh's 0 0 0 0, types.h mc_vertex_color) */
} mc_deform_out;

/* Buffer sizes for a surface of num_verts and num_tris: max with the flare's. */
void mc_deform_capacity(int num_verts, int num_tris, int *max_verts, int *max_tris);

typedef enum mc_deform_result {
    MC_DEFORM_DRAWN,   /* out holds the surface to draw */
    MC_DEFORM_AS_IS,   /* the deform does not apply: draw the input (*why says why, for one
                          warning, or NULL for a kind that leaves the surface alone) */
    MC_DEFORM_NOTHING, /* nothing is drawn this frame (a flare seen from behind) */
} mc_deform_result;

/* Why deform kind cannot apply to a surface of num_verts vertices and triangles idx[0 ..
 * 3 num_tris) (sprite and tube: not quads of 4 vertices and 2 triangles; flare: not a single
 * quad with a four-sided outline), or NULL when it can. Doom then draws the surface as it is. */
const char *mc_deform_unfit(mc_deform_kind kind, int num_verts, const int *idx, int num_tris);

/* Applies deform kind to in for view. values: the deform's registers evaluated (values[i] for
 * mc_deform.regs[i]); table: turbulent's table (NULL for the others). out's normals: the input's
 * for expand, move and turbulent, per-vertex sums of face normals (normalised) for the others. */
mc_deform_result mc_deform_apply(mc_deform_kind kind, const float values[3],
                                 const mc_expr_table *table, const mc_deform_view *view,
                                 const mc_deform_surface *in, mc_deform_out *out, const char **why);

#endif
