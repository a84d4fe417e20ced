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
/* Compiles and links a program from head + each source (the fragment shader's text followed by
 * fs_more, unless NULL); MC_ERR_GL with the log's first line. */
mc_status gpu_link_program(const mc_gl_fns *gl, const char *head, const char *vs_src,
                           const char *fs_src, const char *fs_more, GLuint *out, mc_error *err);
/* v in lo..hi; false for NaN. */
int gpu_finite_in(float v, float lo, float hi);

/* Seconds on the monotonic clock, or with thread_cpu the calling thread's CPU time (the pass
 * profile's clocks). */
double gpu_now_seconds(int thread_cpu);
/* Pass profile: finishes GL and adds the time since the last mark to row (no-op when off). */
void gpu_prof_mark(mc_renderer *r, int row);
/* Counts indices just drawn; once GPU_FINISH_INDICES have been drawn since GL last finished,
 * finishes it. llvmpipe bins a frame's triangles into scenes that it holds until they are
 * rasterised, and queues the next scenes while the last ones are rasterised: a frame of a few
 * million indices (large meshes, their shadow volumes, several lights) held a hundred
 * megabytes of binned scenes at once. Finishing every million indices bounds that to about one
 * scene of that many; a frame of fewer (the demo draws under 100 thousand a frame) never waits
 * here. Finishing changes no pixel. */
#define GPU_FINISH_INDICES ((size_t)1 << 20)
void gpu_drawn(mc_renderer *r, size_t indices);
/* True once the caller's stop flag (mc_renderer_desc.stop) is set: the frame draws nothing
 * more. */
int gpu_stopped(const mc_renderer *r);

#endif
