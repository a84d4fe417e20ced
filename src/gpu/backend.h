/* The seam between the GL renderer (render.c) and where its context comes from. A backend makes
 * an OpenGL 3.3 core context with no window -- the renderer draws into its own framebuffer
 * objects -- makes it current on the calling thread, and hands out GL entry points. render.c
 * calls GL only through the function table it fills from get_proc (gl_fns.h), so that no GL
 * library is linked: one binary carries several backends and each loads its own library at run
 * time (never libGL/libOpenGL next to OSMesa: the gl* symbols would resolve to glvnd, which has
 * no OSMesa context).
 *
 * Backends: backend_osmesa.c (MC_HAVE_OSMESA), backend_egl.c (MC_HAVE_EGL). A new one is one file
 * defining its mc_gpu_backend plus its line in mc_gpu_backends[] (render.c). */
#ifndef MC_GPU_BACKEND_H
#define MC_GPU_BACKEND_H

#include <stddef.h>

#include <md5cine/error.h>
#include <md5cine/render.h>

typedef struct mc_gpu_context mc_gpu_context; /* a backend's own state */

typedef void (*mc_gl_proc)(void);

typedef struct mc_gpu_backend {
    const char *name;   /* "osmesa", "egl": mc_renderer_info.backend */
    mc_gl_backend kind; /* what mc_renderer_desc.backend asks for it by */
    /* Creates a 3.3 core context and makes it current. device: -1 automatic, else the 0-based index
     * of an EGL device (mc_renderer_desc.gl_device - 1).
     * Errors: MC_ERR_GL naming what was tried. *out is NULL on failure. */
    mc_status (*create)(int device, mc_gpu_context **out, mc_error *err);
    /* Makes ctx current on the calling thread (cheap when it already is). */
    mc_status (*make_current)(mc_gpu_context *ctx, mc_error *err);
    /* A GL entry point by name, NULL when missing. ctx is current. */
    mc_gl_proc (*get_proc)(mc_gpu_context *ctx, const char *name);
    /* One line about the platform or device used ("surfaceless", "device 1: /dev/dri/renderD128"),
     * into buf. */
    void (*describe)(const mc_gpu_context *ctx, char *buf, size_t cap);
    /* Releases the context (and unbinds it if current). NULL is fine. */
    void (*release)(mc_gpu_context *ctx);
} mc_gpu_backend;

/* The backends built in, NULL-terminated, in the order MC_GL_AUTO tries them (render.c). */
extern const mc_gpu_backend *const mc_gpu_backends[];

extern const mc_gpu_backend mc_gpu_backend_osmesa;
extern const mc_gpu_backend mc_gpu_backend_egl;

#endif
