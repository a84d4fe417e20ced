/* The argument parser of every subcommand (args.h). */
#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/nearest.h"

bool mc_arg_frame_range(const char *s, int64_t *first, int64_t *last)
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

bool mc_arg_long(const char *s, long lo, long hi, long *out)
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

bool mc_arg_double(const char *s, double lo, double hi, bool percent_ok, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno != 0 || !isfinite(v))
        return false;
    if (percent_ok && *end == '%') {
        v /= 100.0;
        end++;
    }
    if (*end != '\0' || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

bool mc_arg_rate(void *field, const char *value)
{
    return mc_cli_parse_rate(value, field);
}

/* The option that arg names: "--name", "--name=value" or the alias; *value is set to the text
 * after '=' (NULL without one). */
static const mc_arg_opt *find_opt(const mc_arg_spec *spec, const char *arg, const char **value)
{
    const char *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
    size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

    *value = eq ? eq + 1 : NULL;
    for (size_t i = 0; i < spec->nopts; i++) {
        const mc_arg_opt *o = &spec->opts[i];

        if ((strlen(o->name) == n && strncmp(arg, o->name, n) == 0) ||
            (o->alias && !eq && strcmp(arg, o->alias) == 0))
            return o;
    }
    return NULL;
}

static int bad_value(const mc_arg_opt *o, const char *v)
{
    if (o->expect)
        return mc_usage_error("bad %s '%s': expected %s", o->name, v, o->expect);
    if (o->kind == MC_ARG_INT)
        return mc_usage_error("bad %s '%s': expected %ld..%ld", o->name, v, o->min, o->max);
    if (o->kind == MC_ARG_DOUBLE)
        return mc_usage_error("bad %s '%s': expected %g..%g", o->name, v, o->dmin, o->dmax);
    if (o->kind == MC_ARG_CHOICE) {
        char words[256];
        size_t n = 0;

        words[0] = '\0';
        for (int i = 0; o->choices[i] && n < sizeof words; i++) {
            const char *sep = i == 0 ? "" : o->choices[i + 1] ? ", " : " or ";
            int w = snprintf(words + n, sizeof words - n, "%s%s", sep, o->choices[i]);

            n += w > 0 ? (size_t)w : 0;
        }
        return mc_usage_error("bad %s '%s': expected %s", o->name, v, words);
    }
    return mc_usage_error("bad %s '%s'", o->name, v);
}

/* Stores v (NULL for a flag) into the option's field; -1 when done, else an exit code. */
static int store(const mc_arg_opt *o, const char *v, char *dest)
{
    void *field = dest + o->offset;
    long n;
    double d;

    switch (o->kind) {
    case MC_ARG_FLAG:
        if (o->parse)
            o->parse(field, NULL);
        else
            *(bool *)field = true;
        return -1;
    case MC_ARG_INT:
        if (!mc_arg_long(v, o->min, o->max, &n))
            return bad_value(o, v);
        *(int *)field = (int)n;
        return -1;
    case MC_ARG_DOUBLE:
        if (!mc_arg_double(v, o->dmin, o->dmax, false, &d))
            return bad_value(o, v);
        *(double *)field = d;
        return -1;
    case MC_ARG_STRING:
        *(const char **)field = v;
        return -1;
    case MC_ARG_CHOICE:
        for (int i = 0; o->choices[i]; i++) {
            if (strcmp(v, o->choices[i]) == 0) {
                *(int *)field = i;
                return -1;
            }
        }
        return bad_value(o, v);
    case MC_ARG_CUSTOM:
        return o->parse(field, v) ? -1 : bad_value(o, v);
    }
    return -1;
}

/* An unknown option: with the nearest option's name when one is close (core/nearest.h), the
 * dashes aside: '--fsp' -> '--fps', and '-fps' or '---fps' -> '--fps'. */
static int unknown_option(const mc_arg_spec *spec, const char *arg)
{
    const char *names[128];
    const char *word = arg, *eq, *near = NULL;
    size_t len, n = 0;

    while (*word == '-')
        word++;
    eq = strchr(word, '=');
    len = eq ? (size_t)(eq - word) : strlen(word);
    for (size_t i = 0; i < spec->nopts && n < sizeof names / sizeof names[0]; i++) {
        const char *name = spec->opts[i].name;

        if (strncmp(name, "--", 2) != 0)
            continue;
        names[n++] = name + 2;
        if (strlen(name + 2) == len && strncmp(name + 2, word, len) == 0)
            near = name + 2;
    }
    if (!near)
        near = mc_nearest_word(word, len, names, n);
    if (near)
        return mc_usage_error("unknown option '%s'" MC_NEAREST_HINT, arg, near - 2); /* "--" */
    return mc_usage_error("unknown option '%s' (see 'md5cine %s --help')", arg, spec->command);
}

/* One option at argv[*i]; -1 when taken, else an exit code. */
static int take_option(const mc_arg_spec *spec, int argc, char **argv, int *i, char *dest)
{
    const char *arg = argv[*i], *v;
    const mc_arg_opt *o = find_opt(spec, arg, &v);
    int rc;

    if (!o)
        return unknown_option(spec, arg);
    if (o->kind == MC_ARG_FLAG && v)
        return mc_usage_error("option '%s' takes no value", o->name);
    if (o->kind != MC_ARG_FLAG && !v) {
        if (*i + 1 >= argc)
            return mc_usage_error("option '%s' needs a value", arg);
        v = argv[++*i];
    }
    rc = store(o, v, dest);
    if (rc == -1 && o->seen_bit)
        *(unsigned *)(dest + spec->seen_offset) |= o->seen_bit;
    return rc;
}

int mc_args_parse(const mc_arg_spec *spec, int argc, char **argv, void *dest, int *npos)
{
    bool options = true;
    int n = 0;

    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];

        if (options && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            mc_args_usage(spec, stdout);
            return MC_EXIT_OK;
        }
        if (options && strcmp(arg, "--") == 0) {
            options = false;
        } else if (options && arg[0] == '-' && arg[1] != '\0') {
            int rc = take_option(spec, argc, argv, &i, dest);

            if (rc != -1)
                return rc;
        } else if (spec->max_pos >= 0 && n >= spec->max_pos) {
            return mc_usage_error("unexpected argument '%s'%s", arg,
                                  spec->too_many ? spec->too_many : "");
        } else {
            argv[++n] = arg; /* n < i: only slots already read are written */
        }
    }
    *npos = n;
    if (n < spec->min_pos) {
        if (spec->too_few)
            return mc_usage_error("%s", spec->too_few);
        mc_args_usage(spec, stderr);
        return MC_EXIT_INPUT;
    }
    return -1;
}

/* Help text, continuing lines under the help column. */
static void put_help(FILE *to, const char *help, int column)
{
    for (const char *c = help; *c; c++) {
        fputc(*c, to);
        if (*c == '\n')
            fprintf(to, "%*s", column, "");
    }
    fputc('\n', to);
}

void mc_args_usage(const mc_arg_spec *spec, FILE *to)
{
    enum { COLUMN = 25 };

    fputs(spec->synopsis, to);
    for (size_t i = 0; i < spec->nopts; i++) {
        const mc_arg_opt *o = &spec->opts[i];
        char left[96];
        int w = snprintf(left, sizeof left, "%s%s%s%s%s", o->alias ? o->alias : "",
                         o->alias ? ", " : "", o->name, o->metavar ? " " : "",
                         o->metavar ? o->metavar : "");

        if (w + 3 > COLUMN)
            fprintf(to, "  %s\n%*s", left, COLUMN, "");
        else
            fprintf(to, "  %-*s", COLUMN - 2, left);
        put_help(to, o->help, COLUMN);
    }
    fputs("  -h, --help             this text\n", to);
    if (spec->epilog)
        fputs(spec->epilog, to);
}
