/* Stencil shadow volumes as CPU math, no GL (src/gpu/shadow.c draws them): Doom's "turbo"
 * shadows for dynamic models (dhewm3 tr_turboshadow.cpp R_CreateVertexProgramTurboShadowVolume),
 * which is what the engine uses for skinned actors.
 *
 * Vertices: every mesh vertex v becomes two shadow vertices, 2v = (xyz, 1) on the mesh and
 * 2v + 1 = (xyz, 0), which the vertex shader sends to infinity away from the light (xyz - light,
 * w 0) -- Simd_Generic.cpp CreateVertexProgramShadowCache and the shadow.vp program that
 * draw_common.cpp RB_T_Shadow feeds with the light origin in model space.
 *
 * Topology (once per triangle list): vertices are welded on exact xyz (tr_trisurf.cpp
 * R_CreateSilRemap: the duplicates at texture seams share a position), then every triangle
 * edge is matched with the reversed edge of another triangle (R_IdentifySilEdges,
 * R_DefineEdge); an edge without a partner is a dangling edge whose second face is the fake
 * face number num_tris, always "facing".
 *
 * Volume (per light): a triangle faces the light when the light is on its front side or on its
 * plane (Interaction.cpp R_CalcInteractionFacing: plane distance >= 0, the plane from
 * idPlane::FromPoints, front = clockwise in the image); triangles with all three vertices
 * outside (or within 0.1 of) one of the light volume's six planes count as facing
 * (R_CalcInteractionCullBits, r_useShadowProjectedCull). The volume is made of
 *   - the caps: each triangle that does not face the light, reversed on the mesh (near cap)
 *     and as it is at infinity (far cap): 6 indices;
 *   - the sides: for each edge between a facing and a non-facing face, a quad from the edge to
 *     infinity: 6 indices,
 * a closed surface whose front faces (clockwise in the image, as the mesh's) point outwards.
 * Drawn with depth-fail stencil counting (RB_T_Shadow, Carmack's reverse). */
#ifndef MC_GPU_SHADOW_VOLUME_H
#define MC_GPU_SHADOW_VOLUME_H

#include <stddef.h>

#include <md5cine/error.h>
#include <md5cine/types.h>

/* One silhouette edge candidate: v1 -> v2 as triangle p1 winds it (welded vertices), p2 the
 * triangle that winds v2 -> v1, or num_tris for a dangling edge. */
typedef struct gpu_sil_edge {
    int p1, p2, v1, v2;
} gpu_sil_edge;

/* Scratch and topology of one triangle list; buffers only grow (zero-initialise, free with
 * gpu_shadow_work_free). */
typedef struct gpu_shadow_work {
    int *sil_idx; /* 3 per triangle: the welded vertex of each corner */
    gpu_sil_edge *edges;
    int num_edges, num_tris, num_verts;
    unsigned char *facing; /* num_tris + 1 */
    unsigned char *cull;   /* per vertex: bit i set outside light plane i */
    int *remap;            /* per vertex: the first vertex at its xyz */
    int *head, *next;      /* hash chains for welding and edges */
    size_t cap_sil, cap_edges, cap_facing, cap_cull, cap_remap, cap_head, cap_next;
} gpu_shadow_work;

void gpu_shadow_work_free(gpu_shadow_work *w);

/* Grows *p to n elements of size sz when its capacity *cap (in elements) is below; 0 when out of
 * memory (*p and *cap unchanged). */
int gpu_grow(void **p, size_t *cap, size_t n, size_t sz);

/* Builds the welded indices and the edges of triangles idx (3 per triangle, each in
 * 0..num_verts-1) over positions pos. Errors: MC_ERR_NOMEM (w keeps its old buffers). */
mc_status gpu_shadow_topology(gpu_shadow_work *w, const mc_vec3 *pos, int num_verts,
                              const int *idx, int num_tris, mc_error *err);

/* The most indices gpu_shadow_volume can write for w's topology. */
size_t gpu_shadow_max_indices(const gpu_shadow_work *w);

/* Writes the shadow volume of w's triangles (gpu_shadow_topology with the same pos, idx) for a
 * light at light (model space) into out (gpu_shadow_max_indices entries), as shadow vertex
 * numbers (2v, 2v + 1); returns the count, 0 when nothing casts. planes: NULL, or the light
 * volume's six planes in model space, (a, b, c, d) with a x + b y + c z + d >= 0 inside.
 * mirrored: the model matrix mirrors (negative determinant), so that the mesh's front faces
 * are on the other side of its planes. */
size_t gpu_shadow_volume(gpu_shadow_work *w, const mc_vec3 *pos, const int *idx,
                         const float light[3], const float (*planes)[4], int mirrored,
                         unsigned *out);

/* The shadow vertices: 8 floats per vertex (xyz 1, xyz 0) into out. */
void gpu_shadow_vertices(const mc_vec3 *pos, int num_verts, float *out);

/* ---- Where a volume can count (shadow_scissor.c) -------------------------------------------
 *
 * A caster's stencil count matters only on pixels that show a point inside its volume. Every
 * drawn point lies in its item's box, and the volume of caster c from a light at l lies in the
 * pyramid of rays from l through c's box, beyond c's nearest corner. So the volume is drawn
 * with a scissor rectangle around the screen projection of (each drawn item's box) ∩ (that
 * pyramid), widened by a margin: outside it no drawn point is inside or near the volume, its
 * count is 0 with or without the draw, and inside it every fragment is drawn as before. The
 * frame is the same, pixel for pixel (Doom scissors the shadow volumes to the light's
 * rectangle: tr_render.cpp RB_RenderDrawSurfListWithFunction, draw_common.cpp RB_T_Shadow). */

/* A world-space axis-aligned box. */
typedef struct gpu_box {
    float min[3], max[3];
} gpu_box;

/* The box around points pos[0..n-1] moved by the column-major model matrix m. */
void gpu_box_of(const mc_vec3 *pos, int n, const float m[16], gpu_box *out);

/* Sets the planes (a, b, c, d: a x + b y + c z + d >= 0 inside) of a pyramid that holds every
 * point p + t (p - l), p in box c, t >= 0: four planes through l and one across, at c's corner
 * nearest to l along the pyramid's axis. Returns 0 when l is inside c or beside it (no such
 * pyramid with an apex angle below 180 degrees): then the caller takes every drawn box whole. */
int gpu_shadow_pyramid(const float l[3], const gpu_box *c, float planes[5][4]);

/* The screen rectangle of the points of box b inside every plane of planes[0..n-1] and in front
 * of the camera (clip w > 0 under vp, column-major, whose clip y the renderer negates), in GL
 * window pixels of a width x height framebuffer: rect = x, y, w, h, widened by margin pixels
 * on each side and clipped to the framebuffer. Returns 0 (rect untouched) when no such point
 * lies on the framebuffer. */
int gpu_box_rect(const gpu_box *b, const float (*planes)[4], int n, const float vp[16],
                 int width, int height, int margin, int rect[4]);

#endif
