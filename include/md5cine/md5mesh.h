/* md5mesh: parse and validate a Doom 3 mesh file into plain structs.
 *
 * A parsed mesh is valid by construction: every parent index is -1 or names an earlier joint,
 * every vertex has >= 1 weight and its weight range lies inside the mesh's weights, every
 * weight's joint and every triangle index is in range. Downstream code does not re-check. */
#ifndef MC_MD5MESH_H
#define MC_MD5MESH_H

#include <stddef.h>

#include <md5cine/arena.h>
#include <md5cine/error.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_mesh_joint {
    const char *name; /* in the mesh's arena */
    int parent;       /* -1 for a root; otherwise < own index */
    mc_vec3 pos;      /* bind pose, model space (absolute) */
    mc_quat rot;      /* bind pose, model space; w rebuilt, >= 0 */
    int line, col;    /* position of the joint's name token */
} mc_mesh_joint;

typedef struct mc_vert {
    mc_vec2 st;       /* texture coordinates as in the file; t = 0 is the image's top row */
    int first_weight; /* index into the submesh's weights */
    int num_weights;  /* >= 1 */
} mc_vert;

typedef struct mc_tri {
    int v[3]; /* vertex indices, clockwise seen from the front */
} mc_tri;

typedef struct mc_weight {
    int joint;   /* index into mc_mesh.joints */
    float bias;  /* not normalised */
    mc_vec3 pos; /* offset in the joint's space */
} mc_weight;

typedef struct mc_submesh {
    const char *name;      /* from an optional 'name' line in the mesh block; "" when absent */
    const char *shader;    /* in the mesh's arena; may be "" */
    int shader_line, shader_col;
    int num_verts;
    mc_vert *verts;
    int num_tris;
    mc_tri *tris;
    int num_weights;
    mc_weight *weights;
} mc_submesh;

typedef struct mc_mesh {
    const char *name; /* the name given to parse/load, for messages; in the arena */
    int num_joints;
    mc_mesh_joint *joints;
    int num_meshes;
    mc_submesh *meshes;
    mc_arena arena; /* owns every pointer above */
} mc_mesh;

/* Parses md5mesh text buf[0..len) (need not be NUL-terminated). name is used in error
 * positions. opts may be NULL (strict). On success fills *out, which the caller ends with
 * mc_mesh_release(). On failure returns the code, fills *err (if not NULL) and leaves *out
 * zeroed: there is nothing to release. */
mc_status mc_mesh_parse(const char *buf, size_t len, const char *name, const mc_parse_opts *opts,
                        mc_mesh *out, mc_error *err);

/* Reads the file at path and parses it; I/O failures are MC_ERR_IO with no position. */
mc_status mc_mesh_load(const char *path, const mc_parse_opts *opts, mc_mesh *out, mc_error *err);

/* Frees everything; *mesh is zeroed. Accepts a zeroed struct. */
void mc_mesh_release(mc_mesh *mesh);

#ifdef __cplusplus
}
#endif

#endif
