/* The OSMesa backend (backend.h): Mesa's off-screen library, software rasterized (llvmpipe or
 * softpipe). The context gets a tiny colour buffer of its own because OSMesaMakeCurrent needs
 * one; the renderer never draws into it (everything goes through its framebuffer objects).
 *
 * libOSMesa is opened at run time, as libEGL is, so one binary starts where either is missing
 * (Mesa 25.1 dropped OSMesa) and uses the other. It stays loaded once opened: unloading Mesa
 * while the process may make another context gains nothing. */
#include <GL/osmesa.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/memlimit.h"
#include "gpu/backend.h"

#define OS_BUF_SIDE 16

typedef struct osmesa_api {
    OSMesaContext (*CreateContextAttribs)(const int *attribs, OSMesaContext share);
    GLboolean (*MakeCurrent)(OSMesaContext ctx, void *buf, GLenum type, GLsizei w, GLsizei h);
    OSMesaContext (*GetCurrentContext)(void);
    void (*DestroyContext)(OSMesaContext ctx);
    OSMESAproc (*GetProcAddress)(const char *name);
} osmesa_api;

struct mc_gpu_context {
    osmesa_api api;
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

/* dlerror's text, or "" when it has none. */
static const char *dlerror_text(void)
{
    const char *e = dlerror();

    return e ? e : "";
}

/* Opens libOSMesa and takes the five entry points the backend calls. */
static mc_status load_api(osmesa_api *a, mc_error *err)
{
    void *lib = dlopen("libOSMesa.so.8", RTLD_NOW | RTLD_LOCAL);

    if (!lib)
        lib = dlopen("libOSMesa.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        char note[96];

        /* Under an address-space limit the library is there but cannot be mapped. */
        if (mc_memory_limited(NULL))
            return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0,
                                "OSMesa: cannot load libOSMesa.so.8 (%s)%s", dlerror_text(),
                                mc_memory_limit_note(note, sizeof note));
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0,
                            "OSMesa: cannot load libOSMesa.so.8 (install libosmesa6)");
    }
    /* POSIX's way to turn dlsym's object pointer into a function pointer. */
    *(void **)&a->CreateContextAttribs = dlsym(lib, "OSMesaCreateContextAttribs");
    *(void **)&a->MakeCurrent = dlsym(lib, "OSMesaMakeCurrent");
    *(void **)&a->GetCurrentContext = dlsym(lib, "OSMesaGetCurrentContext");
    *(void **)&a->DestroyContext = dlsym(lib, "OSMesaDestroyContext");
    *(void **)&a->GetProcAddress = dlsym(lib, "OSMesaGetProcAddress");
    if (!a->CreateContextAttribs || !a->MakeCurrent || !a->GetCurrentContext ||
        !a->DestroyContext || !a->GetProcAddress)
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0,
                            "OSMesa: libOSMesa lacks OSMesaCreateContextAttribs (Mesa 11.2 or later)");
    return MC_OK;
}

static mc_status osmesa_make_current(mc_gpu_context *c, mc_error *err)
{
    if (c->api.GetCurrentContext() == c->ctx)
        return MC_OK;
    if (!c->api.MakeCurrent(c->ctx, c->buf, GL_UNSIGNED_BYTE, OS_BUF_SIDE, OS_BUF_SIDE))
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "cannot make the OSMesa context current");
    return MC_OK;
}

static void osmesa_release(mc_gpu_context *c)
{
    if (!c)
        return;
    if (c->ctx) {
        if (c->api.GetCurrentContext() == c->ctx)
            c->api.MakeCurrent(NULL, NULL, 0, 0, 0);
        c->api.DestroyContext(c->ctx);
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
    st = load_api(&c->api, err);
    if (st != MC_OK) {
        free(c);
        return st;
    }
    c->ctx = c->api.CreateContextAttribs(attribs, NULL);
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
    return (mc_gl_proc)c->api.GetProcAddress(name);
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
