/* md5cine render: the command line's options (see usage_text) and the PNG name pattern. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/limits.h>

#include "cli.h"
#include "render_cli.h"

static const char usage_text[] =
        "usage: md5cine render SCENE -o OUT [options]\n"
        "  OUT is a video (.mp4 .mkv .mov; .y4m uncompressed), a PNG pattern with a printf-style\n"
        "  output frame number such as 'frames/%05d.png', or '-' (yuv4mpeg2 on stdout).\n"
        "  The scene's output { } block gives defaults; these options win.\n"
        "  --size WxH            output size (default: the scene's, else 1280x720; even for video)\n"
        "  --fps N               output frame rate (default: the scene's, else the camera's)\n"
        "  --frames A-B          render output frames A to B only (inclusive); also --frames A\n"
        "  --crf N --preset P --codec NAME   encoder settings (default 18, veryfast, libx264)\n"
        "  --msaa 0|4            antialiasing samples (default 4)\n"
        "  --background C        R,G,B in 0..1 (or 0..255 integers when any value is above 1),\n"
        "                        #rrggbb, or 'none': transparent, RGBA PNGs only\n"
        "                        (default: the scene's, else black)\n"
        "  --shading lit|unlit|normals   (default lit)\n"
        "  --fov-mode file|doom  the file's fov is horizontal (default), or Doom's 4:3 rule\n"
        "  --gl auto|egl|osmesa  GL backend (auto: EGL, then OSMesa; MD5CINE_GL sets the default)\n"
        "  --gl-device N         EGL device N as md5cine doctor lists them (default: automatic)\n"
        "  --overlay             burn in the frame number, time code HH:MM:SS:FF and shot\n"
        "  --lenient             accept the harmless deviations of shipped game files\n"
        "  --quiet               no progress (warnings and errors are still printed)\n"
        "  --progress auto|json|none   a bar on a terminal (default), or JSON lines on stdout\n"
        "                        (stderr when OUT is '-')\n"
        "  --stats               print the time of each stage per frame at the end\n"
        "  --reference REF       compare every frame with REF (a folder of numbered PNGs, a\n"
        "                        PNG or a video); -o is then optional\n"
        "  --diff DIR            where failing frames and difference pictures go (default: beside\n"
        "                        the output: OUT without extension + '.diff', or REF + '.diff')\n"
        "  --update-reference    write missing and failing frames into the folder REF instead\n"
        "  --json                print the reference check as one JSON object (compare's form)\n"
        "exit status: 0 done, 1 frames differ from the reference, 2 bad input or usage,\n"
        "3 runtime failure (GL, encoder, I/O), 130 interrupted (SIGINT), 143 (SIGTERM)\n";

/* Appends c to buf (length *n, capacity cap); false when full. */
static bool put_char(char *buf, size_t *n, size_t cap, char c)
{
    if (*n + 1 >= cap)
        return false;
    buf[(*n)++] = c;
    buf[*n] = '\0';
    return true;
}

bool mc_png_pattern_parse(const char *s, mc_png_pattern *p, char *why, size_t cap)
{
    size_t np = 0, ns = 0;
    int found = 0;

    memset(p, 0, sizeof *p);
    for (const char *c = s; *c; c++) {
        bool ok;

        if (c[0] == '%' && c[1] == '%') {
            ok = found ? put_char(p->suffix, &ns, sizeof p->suffix, '%')
                       : put_char(p->prefix, &np, sizeof p->prefix, '%');
            c++;
        } else if (c[0] == '%') {
            const char *d = c + 1;
            long w = 0;

            p->zero = *d == '0';
            while (*d >= '0' && *d <= '9' && w <= 20)
                w = w * 10 + (*d++ - '0');
            if (*d != 'd' || w > 20 || found) {
                snprintf(why, cap, "%s",
                         found ? "has two frame numbers"
                               : "may only use '%d' with a width, as in '%05d'");
                return false;
            }
            p->width = (int)w;
            found = 1;
            c = d;
            ok = true;
        } else {
            ok = found ? put_char(p->suffix, &ns, sizeof p->suffix, *c)
                       : put_char(p->prefix, &np, sizeof p->prefix, *c);
        }
        if (!ok) {
            snprintf(why, cap, "is too long");
            return false;
        }
    }
    if (!found)
        snprintf(why, cap, "needs a frame number such as '%%05d'");
    return found;
}

bool mc_png_pattern_format(const mc_png_pattern *p, int64_t k, char *out, size_t cap)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%lld", (long long)k);
    int pad = p->width > n ? p->width - n : 0;
    size_t need = strlen(p->prefix) + (size_t)pad + (size_t)n + strlen(p->suffix) + 1;

    if (n < 0 || need > cap)
        return false;
    snprintf(out, cap, "%s%*s%s%s", p->prefix, pad, "", digits, p->suffix);
    if (p->zero && pad > 0)
        memset(out + strlen(p->prefix), '0', (size_t)pad);
    return true;
}

void mc_png_pattern_dir(const mc_png_pattern *p, char *out, size_t cap)
{
    const char *slash = strrchr(p->prefix, '/');
    size_t n = slash ? (size_t)(slash - p->prefix) + 1 : 0;

    if (n >= cap)
        n = cap - 1;
    memcpy(out, p->prefix, n);
    out[n] = '\0';
}

static bool parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_size(const char *s, int *w, int *h)
{
    char *end;
    long a, b;

    errno = 0;
    a = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X') || errno)
        return false;
    if (!parse_int(end + 1, MC_LIMIT_RENDER_MIN_SIDE, MC_LIMIT_RENDER_MAX_SIDE, &b) ||
        a < MC_LIMIT_RENDER_MIN_SIDE || a > MC_LIMIT_RENDER_MAX_SIDE)
        return false;
    *w = (int)a;
    *h = (int)b;
    return true;
}

static bool parse_frames(const char *s, int64_t *first, int64_t *last)
{
    char *end;
    long long a, b;

    errno = 0;
    a = strtoll(s, &end, 10);
    if (end == s || errno || a < 0 || (*end != '-' && *end))
        return false;
    b = a;
    if (*end == '-') {
        const char *t = end + 1;

        b = strtoll(t, &end, 10);
        if (end == t || *end || errno || b < a)
            return false;
    }
    *first = a;
    *last = b;
    return true;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* "none", "#rrggbb", "r,g,b" with 0..1 floats, or 0..255 integers when any value is above 1. */
static bool parse_background(const char *s, mc_render_opts *o)
{
    double v[3];
    const char *c = s;
    bool above_one = false;

    if (strcmp(s, "none") == 0) {
        o->bg_mode = MC_BG_NONE;
        return true;
    }
    if (s[0] == '#') {
        if (strlen(s) != 7)
            return false;
        for (int i = 0; i < 3; i++) {
            int hi = hex_digit(s[1 + 2 * i]), lo = hex_digit(s[2 + 2 * i]);

            if (hi < 0 || lo < 0)
                return false;
            o->bg[i] = (float)(hi * 16 + lo) / 255.0f;
        }
        o->bg_mode = MC_BG_GIVEN;
        return true;
    }
    for (int i = 0; i < 3; i++) {
        char *end;

        errno = 0;
        v[i] = strtod(c, &end);
        if (end == c || errno || !(v[i] >= 0.0) || v[i] > 255.0 || *end != (i < 2 ? ',' : '\0'))
            return false;
        above_one = above_one || v[i] > 1.0;
        c = end + 1;
    }
    for (int i = 0; i < 3; i++) {
        if (above_one && v[i] != (double)(long)v[i])
            return false; /* 0..255 values must be whole */
        o->bg[i] = (float)(above_one ? v[i] / 255.0 : v[i]);
    }
    o->bg_mode = MC_BG_GIVEN;
    return true;
}

static bool has_ext(const char *s, const char *ext)
{
    size_t n = strlen(s), e = strlen(ext);

    return n > e && strcasecmp(s + n - e, ext) == 0;
}

static int classify_output(mc_render_opts *o)
{
    char why[128];

    if (!o->out) {
        o->out_kind = MC_OUT_NONE;
        return -1;
    }
    if (strcmp(o->out, "-") == 0 || has_ext(o->out, ".mp4") || has_ext(o->out, ".mkv") ||
        has_ext(o->out, ".mov") || has_ext(o->out, ".y4m")) {
        o->out_kind = MC_OUT_VIDEO;
        return -1;
    }
    if (has_ext(o->out, ".png")) {
        if (!mc_png_pattern_parse(o->out, &o->pattern, why, sizeof why))
            return mc_usage_error("PNG output '%s' %s", o->out, why);
        o->out_kind = MC_OUT_PNG;
        return -1;
    }
    return mc_usage_error("cannot tell the format of output '%s': use .mp4, .mkv, .mov, .y4m, "
                          "a PNG pattern such as 'frames/%%05d.png', or '-'",
                          o->out);
}

/* Takes the value of option argv[*i] ("--opt VALUE" or "--opt=VALUE"); NULL if missing. */
static const char *take_value(int argc, char **argv, int *i)
{
    const char *eq = strchr(argv[*i], '=');

    if (eq && argv[*i][0] == '-' && argv[*i][1] == '-')
        return eq + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* Option name without "=VALUE" equals name. */
static bool is_opt(const char *arg, const char *name)
{
    size_t n = strlen(name);

    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* Options with a number or a name as value. Returns -1 when handled, an exit code on error,
 * 0 if unknown. */
static int value_option(const char *arg, const char *v, mc_render_opts *o)
{
    long n;

    if (is_opt(arg, "-o") || is_opt(arg, "--output")) {
        o->out = v;
    } else if (is_opt(arg, "--size")) {
        if (!parse_size(v, &o->width, &o->height))
            return mc_usage_error("bad --size '%s': expected WxH, %d..%d each", v,
                                  MC_LIMIT_RENDER_MIN_SIDE, MC_LIMIT_RENDER_MAX_SIDE);
    } else if (is_opt(arg, "--fps")) {
        if (!mc_cli_parse_rate(v, &o->fps))
            return mc_usage_error("bad --fps '%s': expected 1..1000 as N, N/D or a decimal "
                                  "(29.97 is 30000/1001)",
                                  v);
    } else if (is_opt(arg, "--frames")) {
        if (!parse_frames(v, &o->first, &o->last))
            return mc_usage_error("bad --frames '%s': expected A-B with 0 <= A <= B", v);
        o->has_frames = true;
    } else if (is_opt(arg, "--crf")) {
        if (!parse_int(v, 1, 51, &n))
            return mc_usage_error("bad --crf '%s': expected 1..51", v);
        o->crf = (int)n;
    } else if (is_opt(arg, "--preset")) {
        o->preset = v;
    } else if (is_opt(arg, "--codec")) {
        o->codec = v;
    } else if (is_opt(arg, "--msaa")) {
        if (!parse_int(v, 0, 4, &n) || (n != 0 && n != 4))
            return mc_usage_error("bad --msaa '%s': expected 0 or 4", v);
        o->msaa = (int)n;
    } else {
        return 0;
    }
    return -1;
}

/* Options that choose among words, and paths. Same returns as value_option. */
static int choice_option(const char *arg, const char *v, mc_render_opts *o)
{
    if (is_opt(arg, "--background")) {
        if (!parse_background(v, o))
            return mc_usage_error("bad --background '%s': expected R,G,B (0..1, or 0..255 "
                                  "integers), #rrggbb or 'none'",
                                  v);
    } else if (is_opt(arg, "--shading")) {
        if (strcmp(v, "lit") == 0)
            o->shading = MC_SHADING_LIT;
        else if (strcmp(v, "unlit") == 0)
            o->shading = MC_SHADING_UNLIT;
        else if (strcmp(v, "normals") == 0)
            o->shading = MC_SHADING_NORMALS;
        else
            return mc_usage_error("bad --shading '%s': expected lit, unlit or normals", v);
    } else if (is_opt(arg, "--fov-mode")) {
        if (strcmp(v, "file") == 0)
            o->fov_mode = MC_FOV_HORIZONTAL;
        else if (strcmp(v, "doom") == 0)
            o->fov_mode = MC_FOV_DOOM;
        else
            return mc_usage_error("bad --fov-mode '%s': expected file or doom", v);
    } else if (is_opt(arg, "--progress")) {
        if (!mc_progress_parse_mode(v, &o->progress))
            return mc_usage_error("bad --progress '%s': expected auto, json or none", v);
    } else if (is_opt(arg, "--gl")) {
        if (strcmp(v, "auto") == 0)
            o->gl = MC_GL_AUTO;
        else if (strcmp(v, "egl") == 0)
            o->gl = MC_GL_EGL;
        else if (strcmp(v, "osmesa") == 0)
            o->gl = MC_GL_OSMESA;
        else
            return mc_usage_error("bad --gl '%s': expected auto, egl or osmesa", v);
    } else if (is_opt(arg, "--gl-device")) {
        long n;

        if (!parse_int(v, 1, 64, &n))
            return mc_usage_error("bad --gl-device '%s': expected 1..64 (md5cine doctor lists "
                                  "them)",
                                  v);
        o->gl_device = (int)n;
    } else if (is_opt(arg, "--reference")) {
        o->reference = v;
    } else if (is_opt(arg, "--diff")) {
        o->diff_dir = v;
    } else {
        return 0;
    }
    return -1;
}

static const char *const value_options[] = {
    "-o",        "--output",   "--size",     "--fps",       "--frames",
    "--crf",     "--preset",   "--codec",    "--msaa",      "--background",
    "--shading", "--fov-mode", "--progress", "--reference", "--diff",
    "--gl",      "--gl-device",
};

static bool takes_value(const char *arg)
{
    for (size_t i = 0; i < sizeof value_options / sizeof value_options[0]; i++)
        if (is_opt(arg, value_options[i]))
            return true;
    return false;
}

/* Flags without a value (--help is handled by the caller). Returns -1 when handled, 0 if
 * unknown. */
static int flag_option(const char *arg, mc_render_opts *o)
{
    if (strcmp(arg, "--overlay") == 0)
        o->overlay = true;
    else if (strcmp(arg, "--lenient") == 0)
        o->lenient = true;
    else if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0)
        o->progress = MC_PROGRESS_QUIET;
    else if (strcmp(arg, "--stats") == 0)
        o->stats = true;
    else if (strcmp(arg, "--update-reference") == 0)
        o->update_reference = true;
    else if (strcmp(arg, "--json") == 0)
        o->json = true;
    else
        return 0;
    return -1;
}

/* x264's presets (x264.h, x264_preset_names). x264 itself reports another name only on its
 * own stderr and libavcodec then says "Invalid argument", so the name is checked here, for
 * the default encoder; other encoders' presets are theirs to check. */
static bool is_x264_preset(const char *s)
{
    static const char *const names[] = { "ultrafast", "superfast", "veryfast", "faster",
                                         "fast",      "medium",    "slow",     "slower",
                                         "veryslow",  "placebo" };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i]) == 0)
            return true;
    return false;
}

static int check_combination(mc_render_opts *o)
{
    if (o->preset && (!o->codec || strcmp(o->codec, "libx264") == 0) &&
        !is_x264_preset(o->preset))
        return mc_usage_error("bad --preset '%s': expected ultrafast, superfast, veryfast, "
                              "faster, fast, medium, slow, slower, veryslow or placebo",
                              o->preset);
    if (!o->scene)
        return mc_usage_error("render needs a scene file (see 'md5cine render --help')");
    if (!o->out && !o->reference)
        return mc_usage_error("render needs -o OUT (or --reference REF)");
    if (o->update_reference && !o->reference)
        return mc_usage_error("--update-reference needs --reference REF");
    if (o->json && !o->reference)
        return mc_usage_error("--json needs --reference REF");
    return classify_output(o);
}

int mc_render_parse_args(int argc, char **argv, mc_render_opts *o)
{
    memset(o, 0, sizeof *o);
    o->msaa = 4;
    o->progress = MC_PROGRESS_AUTO;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int rc;

        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(usage_text, stdout);
            return MC_EXIT_OK;
        }
        if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (o->scene)
                return mc_usage_error("unexpected argument '%s' (one scene per render)", arg);
            o->scene = arg;
            continue;
        }
        if (takes_value(arg)) {
            const char *v = take_value(argc, argv, &i);

            if (!v)
                return mc_usage_error("option '%s' needs a value", arg);
            rc = value_option(arg, v, o);
            if (rc == 0)
                rc = choice_option(arg, v, o);
        } else {
            rc = flag_option(arg, o);
        }
        if (rc == 0)
            return mc_usage_error("unknown option '%s' (see 'md5cine render --help')", arg);
        if (rc != -1)
            return rc;
    }
    return check_combination(o);
}
