/* The EGL backend (backend.h): an OpenGL 3.3 core context with no surface, on Mesa's
 * surfaceless platform (EGL_MESA_platform_surfaceless: llvmpipe when there is no GPU, a render
 * node's driver when there is) or on one device of EGL_EXT_platform_device (render servers with
 * GPUs). libEGL is opened at run time, so a binary built with EGL still starts, and falls back
 * to OSMesa, on a machine without it; GL entry points come from eglGetProcAddress
 * (EGL_KHR_client_get_all_proc_addresses), so no GL library is linked next to OSMesa.
 *
 * Displays: eglGetPlatformDisplay returns one display per platform and device for the whole
 * process, and eglTerminate would end every context on it, so a display is initialised once
 * and never terminated here, and libEGL is never unloaded; each renderer owns only its
 * context. */
#include "core/memlimit.h"
#include "gpu/backend.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEVICES 32

typedef struct egl_api {
    PFNEGLGETPROCADDRESSPROC GetProcAddress;
    PFNEGLQUERYSTRINGPROC QueryString;
    PFNEGLGETERRORPROC GetError;
    PFNEGLGETPLATFORMDISPLAYEXTPROC GetPlatformDisplayEXT;
    PFNEGLQUERYDEVICESEXTPROC QueryDevicesEXT;
    PFNEGLQUERYDEVICESTRINGEXTPROC QueryDeviceStringEXT;
    PFNEGLINITIALIZEPROC Initialize;
    PFNEGLBINDAPIPROC BindAPI;
    PFNEGLCREATECONTEXTPROC CreateContext;
    PFNEGLDESTROYCONTEXTPROC DestroyContext;
    PFNEGLMAKECURRENTPROC MakeCurrent;
    PFNEGLGETCURRENTCONTEXTPROC GetCurrentContext;
} egl_api;

struct mc_gpu_context {
    void *lib; /* dlopen handle of libEGL */
    egl_api egl;
    EGLDisplay dpy;
    EGLContext ctx;
    char where[160]; /* "surfaceless" or "device 0 (EGL_MESA_device_software)" */
};

static const char *egl_error_name(EGLint e)
{
    switch (e) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    default: return "an EGL error";
    }
}

/* True when the space-separated list has the extension name. */
static bool has_ext(const char *list, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = list; p && (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

static mc_status load_api(mc_gpu_context *c, mc_error *err)
{
    egl_api *e = &c->egl;

    c->lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!c->lib)
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0,
                            "EGL: cannot load libEGL.so.1 (install libegl1 and libegl-mesa0)");
    /* POSIX's way to turn dlsym's object pointer into a function pointer. */
    *(void **)&e->GetProcAddress = dlsym(c->lib, "eglGetProcAddress");
    if (!e->GetProcAddress)
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "EGL: libEGL.so.1 has no eglGetProcAddress");
#define LOAD(field, name) e->field = (__typeof__(e->field))e->GetProcAddress(name)
    LOAD(QueryString, "eglQueryString");
    LOAD(GetError, "eglGetError");
    LOAD(GetPlatformDisplayEXT, "eglGetPlatformDisplayEXT");
    LOAD(QueryDevicesEXT, "eglQueryDevicesEXT");
    LOAD(QueryDeviceStringEXT, "eglQueryDeviceStringEXT");
    LOAD(Initialize, "eglInitialize");
    LOAD(BindAPI, "eglBindAPI");
    LOAD(CreateContext, "eglCreateContext");
    LOAD(DestroyContext, "eglDestroyContext");
    LOAD(MakeCurrent, "eglMakeCurrent");
    LOAD(GetCurrentContext, "eglGetCurrentContext");
#undef LOAD
    if (!e->QueryString || !e->GetError || !e->GetPlatformDisplayEXT || !e->Initialize ||
        !e->BindAPI || !e->CreateContext || !e->DestroyContext || !e->MakeCurrent ||
        !e->GetCurrentContext)
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0,
                            "EGL: libEGL.so.1 lacks EGL 1.4 or EGL_EXT_platform_base");
    return MC_OK;
}

/* Initialises dpy and makes a 3.3 core context on it; false with the reason in why. */
static bool make_context(mc_gpu_context *c, EGLDisplay dpy, char *why, size_t cap)
{
    static const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION,
                                      3,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE };
    egl_api *e = &c->egl;
    EGLint major, minor;
    const char *ext;

    if (dpy == EGL_NO_DISPLAY) {
        snprintf(why, cap, "no display (%s)", egl_error_name(e->GetError()));
        return false;
    }
    if (!e->Initialize(dpy, &major, &minor)) {
        snprintf(why, cap, "eglInitialize failed (%s)", egl_error_name(e->GetError()));
        return false;
    }
    ext = e->QueryString(dpy, EGL_EXTENSIONS);
    if (!has_ext(ext, "EGL_KHR_surfaceless_context") || !has_ext(ext, "EGL_KHR_no_config_context")) {
        snprintf(why, cap, "EGL %d.%d without EGL_KHR_surfaceless_context and "
                           "EGL_KHR_no_config_context", (int)major, (int)minor);
        return false;
    }
    if (!e->BindAPI(EGL_OPENGL_API)) {
        snprintf(why, cap, "no desktop OpenGL (%s)", egl_error_name(e->GetError()));
        return false;
    }
    c->ctx = e->CreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (c->ctx == EGL_NO_CONTEXT) {
        snprintf(why, cap, "no OpenGL 3.3 core context (%s)", egl_error_name(e->GetError()));
        return false;
    }
    if (!e->MakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c->ctx)) {
        snprintf(why, cap, "eglMakeCurrent failed (%s)", egl_error_name(e->GetError()));
        e->DestroyContext(dpy, c->ctx);
        c->ctx = EGL_NO_CONTEXT;
        return false;
    }
    c->dpy = dpy;
    return true;
}

/* Devices of EGL_EXT_platform_device into devs; their number, 0 without the extension. */
static int list_devices(mc_gpu_context *c, EGLDeviceEXT *devs)
{
    const char *client = c->egl.QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    EGLint n = 0;

    if (!c->egl.QueryDevicesEXT || !has_ext(client, "EGL_EXT_platform_device"))
        return 0;
    if (!c->egl.QueryDevicesEXT(MAX_DEVICES, devs, &n))
        return 0;
    return (int)n;
}

static void device_name(mc_gpu_context *c, EGLDeviceEXT dev, int i, char *out, size_t cap)
{
    const char *file = NULL, *ext = NULL;

    if (c->egl.QueryDeviceStringEXT) {
        ext = c->egl.QueryDeviceStringEXT(dev, EGL_EXTENSIONS);
        if (has_ext(ext, "EGL_EXT_device_drm"))
            file = c->egl.QueryDeviceStringEXT(dev, EGL_DRM_DEVICE_FILE_EXT);
    }
    if (file)
        snprintf(out, cap, "device %d (%s)", i + 1, file);
    else if (has_ext(ext, "EGL_MESA_device_software"))
        snprintf(out, cap, "device %d (software)", i + 1);
    else
        snprintf(out, cap, "device %d", i + 1);
}

static bool try_device(mc_gpu_context *c, EGLDeviceEXT dev, int i, char *tried, size_t cap)
{
    char why[200], name[120];
    size_t used = strlen(tried);

    device_name(c, dev, i, name, sizeof name);
    if (make_context(c, c->egl.GetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, dev, NULL), why,
                     sizeof why)) {
        snprintf(c->where, sizeof c->where, "%s", name);
        return true;
    }
    snprintf(tried + used, cap - used, "%s%s: %s", used ? "; " : "", name, why);
    return false;
}

static bool try_surfaceless(mc_gpu_context *c, char *tried, size_t cap)
{
    const char *client = c->egl.QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    size_t used = strlen(tried);
    char why[200];

    if (!has_ext(client, "EGL_MESA_platform_surfaceless")) {
        snprintf(tried + used, cap - used, "%ssurfaceless: no EGL_MESA_platform_surfaceless",
                 used ? "; " : "");
        return false;
    }
    if (make_context(c, c->egl.GetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA,
                                                     EGL_DEFAULT_DISPLAY, NULL),
                     why, sizeof why)) {
        snprintf(c->where, sizeof c->where, "surfaceless");
        return true;
    }
    snprintf(tried + used, cap - used, "%ssurfaceless: %s", used ? "; " : "", why);
    return false;
}

static void egl_release(mc_gpu_context *c)
{
    if (!c)
        return;
    if (c->ctx != EGL_NO_CONTEXT) {
        if (c->egl.GetCurrentContext() == c->ctx)
            c->egl.MakeCurrent(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        c->egl.DestroyContext(c->dpy, c->ctx);
    }
    /* libEGL stays loaded: the display it initialised lives as long as the process. */
    free(c);
}

static mc_status egl_create(int device, mc_gpu_context **out, mc_error *err)
{
    mc_gpu_context *c = calloc(1, sizeof *c);
    EGLDeviceEXT devs[MAX_DEVICES];
    char tried[400] = "";
    bool ok = false;
    int n;
    mc_status st;

    *out = NULL;
    if (!c)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    c->ctx = EGL_NO_CONTEXT;
    st = load_api(c, err);
    if (st != MC_OK) {
        egl_release(c);
        return st;
    }
    n = list_devices(c, devs);
    if (device >= 0) {
        if (device >= n) {
            egl_release(c);
            return mc_error_set(err, MC_ERR_GL, NULL, 0, 0,
                                "EGL device %d does not exist (%d device%s)", device + 1, n,
                                n == 1 ? "" : "s");
        }
        ok = try_device(c, devs[device], device, tried, sizeof tried);
    } else {
        ok = try_surfaceless(c, tried, sizeof tried);
        for (int i = 0; !ok && i < n; i++)
            ok = try_device(c, devs[i], i, tried, sizeof tried);
    }
    if (!ok) {
        char note[96];

        egl_release(c);
        return mc_error_set(err, mc_memory_limited(NULL) ? MC_ERR_NOMEM : MC_ERR_GL, NULL, 0, 0,
                            "EGL: no OpenGL 3.3 core context (tried %s)%s",
                            tried[0] ? tried : "no platform", mc_memory_limit_note(note, sizeof note));
    }
    *out = c;
    return MC_OK;
}

static mc_status egl_make_current(mc_gpu_context *c, mc_error *err)
{
    if (c->egl.GetCurrentContext() == c->ctx)
        return MC_OK;
    if (!c->egl.MakeCurrent(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c->ctx))
        return mc_error_set(err, MC_ERR_GL, NULL, 0, 0, "EGL: cannot make the context current (%s)",
                            egl_error_name(c->egl.GetError()));
    return MC_OK;
}

static mc_gl_proc egl_get_proc(mc_gpu_context *c, const char *name)
{
    return (mc_gl_proc)c->egl.GetProcAddress(name);
}

static void egl_describe(const mc_gpu_context *c, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", c->where);
}

const mc_gpu_backend mc_gpu_backend_egl = {
    .name = "egl",
    .kind = MC_GL_EGL,
    .create = egl_create,
    .make_current = egl_make_current,
    .get_proc = egl_get_proc,
    .describe = egl_describe,
    .release = egl_release,
};
