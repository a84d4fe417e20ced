/* The GL helpers below every pass of the renderer (gl_util.c); render.c and the pass files
 * (interaction.c, stages.c, shadow.c) and light.c call them, they call none of those. */
#ifndef MC_GPU_GL_UTIL_H
#define MC_GPU_GL_UTIL_H

#include <md5cine/error.h>
#include <md5cine/render.h>

#include "gpu/gl_fns.h"

/* Returns MC_ERR_GL naming what was being done if GL recorded an error (and clears them);
 * MC_ERR_NOMEM, "out of memory (OpenGL) while ...", when the first was GL_OUT_OF_MEMORY. */
mc_status gpu_gl_check(const mc_gl_fns *gl, const char *what, mc_error *err);
/* Compiles and links a program from head + each source; MC_ERR_GL with the log's first line. */
mc_status gpu_link_program(const mc_gl_fns *gl, const char *head, const char *vs_src,
                           const char *fs_src, GLuint *out, mc_error *err);
/* v in lo..hi; false for NaN. */
int gpu_finite_in(float v, float lo, float hi);

/* Seconds on the monotonic clock (the pass profile's). */
double gpu_now_seconds(void);
/* Pass profile: finishes GL and adds the time since the last mark to row (no-op when off). */
void gpu_prof_mark(mc_renderer *r, int row);

#endif
