/* The options render and sheet share (scene_args.h). */
#include "scene_args.h"

/* MC_ARG_CHOICE stores the index of the word into these enums, which number from 0. */
_Static_assert(sizeof(mc_shading) == sizeof(int) && MC_SHADING_LIT == 0 && MC_SHADING_UNLIT == 1 &&
                       MC_SHADING_NORMALS == 2,
               "--shading's words are the enum's order");
_Static_assert(sizeof(mc_gl_backend) == sizeof(int) && MC_GL_AUTO == 0 && MC_GL_EGL == 1 &&
                       MC_GL_OSMESA == 2,
               "--gl's words are the enum's order");

bool mc_arg_msaa(void *field, const char *value)
{
    long n;

    if (!mc_arg_long(value, 0, 4, &n) || (n != 0 && n != 4))
        return false;
    *(int *)field = (int)n;
    return true;
}

bool mc_arg_quiet(void *field, const char *value)
{
    (void)value;
    *(mc_progress_mode *)field = MC_PROGRESS_QUIET;
    return true;
}
