/* The pose tests' shared values (tests/pose_test.c, tests/pose_normals_test.c): sqrt(1/2), the
 * folder of the shared asset files (run from tests/) and a loader for a mesh and its anim. */
#ifndef MC_TEST_POSE_FIXTURE_H
#define MC_TEST_POSE_FIXTURE_H

#include <stdbool.h>

#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>

#include "test.h"

#define S 0.70710678f
#define A "data/assets/"

/* Loads mesh_path (and anim_path unless NULL) leniently (two-root and version-less files);
 * false after a test failure naming the error. */
static inline bool load_pair(const char *mesh_path, const char *anim_path, mc_mesh *mesh,
                             mc_anim *anim)
{
    mc_parse_opts opts = { true, NULL, NULL }; /* lenient: two-root and version-less files */
    mc_error err;
    if (mc_mesh_load(mesh_path, &opts, mesh, &err) != MC_OK)
        return test_fail(__FILE__, __LINE__, "%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    if (!anim_path)
        return true;
    if (mc_anim_load(anim_path, &opts, anim, &err) != MC_OK) {
        mc_mesh_release(mesh);
        return test_fail(__FILE__, __LINE__, "%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
    }
    return true;
}

#endif
