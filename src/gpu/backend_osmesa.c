/* The OSMesa backend (backend.h): Mesa's off-screen library, software rasterized (llvmpipe or
 * softpipe). The context gets a tiny colour buffer of its own because OSMesaMakeCurrent needs
 * one; the renderer never draws into it (everything goes through its framebuffer objects). */
#include <GL/osmesa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/backend.h"

#define OS_BUF_SIDE 16

struct mc_gpu_context {
    OSMesaContext ctx;
    uint8_t buf[OS_BUF_SIDE * OS_BUF_SIDE * 4];
};

/* Mesa's OSMesa dereferences a NULL screen (and crashes) for any other Gallium driver. */
static mc_status check_gallium_driver(mc_error *err)
{
    const char *d = getenv("GALLIUM_DRIVER");

    if (!d || !*d || strcmp(d, "llvmpipe") == 0 || strcmp(d, "softpipe") == 0)
        return MC_OK;
    return mc_error_set(err, MC_ERR_GL, NULL, 0, 0,
                        "GALLIUM_DRIVER='%.64s' is not a driver OSMesa has (use llvmpipe or "
                        "softpipe, or unset it)",
                        d);
}

static mc_status osmesa_make_current(mc_gpu_context *c, mc_error *err)
{
    if (OSMesaGetCurrentContext() == c->ctx)
        return MC_OK;
    if (!OSMesaMakeCurrent(c->ctx, c->buf, GL_UNSIGNED_BYTE, OS_BUF_SIDE, OS_BUF_SIDE))
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "cannot make the OSMesa context current");
    return MC_OK;
}

static void osmesa_release(mc_gpu_context *c)
{
    if (!c)
        return;
    if (c->ctx) {
        if (OSMesaGetCurrentContext() == c->ctx)
            OSMesaMakeCurrent(NULL, NULL, 0, 0, 0);
        OSMesaDestroyContext(c->ctx);
    }
    free(c);
}

static mc_status osmesa_create(int device, mc_gpu_context **out, mc_error *err)
{
    static const int attribs[] = { OSMESA_FORMAT,
                                   OSMESA_RGBA,
                                   OSMESA_DEPTH_BITS,
                                   0,
                                   OSMESA_PROFILE,
                                   OSMESA_CORE_PROFILE,
                                   OSMESA_CONTEXT_MAJOR_VERSION,
                                   3,
                                   OSMESA_CONTEXT_MINOR_VERSION,
                                   3,
                                   0 };
    mc_gpu_context *c;
    mc_status st = check_gallium_driver(err);

    (void)device; /* one software device */
    *out = NULL;
    if (st != MC_OK)
        return st;
    c = calloc(1, sizeof *c);
    if (!c)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory for the GL context");
    c->ctx = OSMesaCreateContextAttribs(attribs, NULL);
    if (!c->ctx) {
        free(c);
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0,
                            "cannot create an OpenGL 3.3 core context with OSMesa");
    }
    st = osmesa_make_current(c, err);
    if (st != MC_OK) {
        osmesa_release(c);
        return st;
    }
    *out = c;
    return MC_OK;
}

static mc_gl_proc osmesa_get_proc(mc_gpu_context *c, const char *name)
{
    (void)c;
    return (mc_gl_proc)OSMesaGetProcAddress(name);
}

static void osmesa_describe(const mc_gpu_context *c, char *buf, size_t cap)
{
    const char *d = getenv("GALLIUM_DRIVER");

    (void)c;
    snprintf(buf, cap, "off-screen Mesa (%s)", d && *d ? d : "default driver");
}

const mc_gpu_backend mc_gpu_backend_osmesa = {
    .name = "osmesa",
    .kind = MC_GL_OSMESA,
    .create = osmesa_create,
    .make_current = osmesa_make_current,
    .get_proc = osmesa_get_proc,
    .describe = osmesa_describe,
    .release = osmesa_release,
};
