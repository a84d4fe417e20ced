/* One table-driven argument parser for every subcommand. A subcommand declares its options as
 * a static table of mc_arg_opt and its words in an mc_arg_spec; mc_args_parse does the rest:
 * "--opt value" and "--opt=value" for every valued option, "--flag" (never "--flag=x"),
 * short aliases (-o, -q), "--" ending the options, positional arguments in order, and
 * --help/-h printing the usage made from the table. Errors go through mc_usage_error. */
#ifndef MC_CLI_ARGS_H
#define MC_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum mc_arg_kind {
    MC_ARG_FLAG,   /* no value; sets a bool, or calls parse with value NULL */
    MC_ARG_INT,    /* an int in min..max */
    MC_ARG_DOUBLE, /* a finite double in dmin..dmax */
    MC_ARG_STRING, /* a const char * (points into argv) */
    MC_ARG_CHOICE, /* one of choices[]: its index stored into an int-sized enum field */
    MC_ARG_CUSTOM, /* parse decides */
} mc_arg_kind;

/* Reads value into field (the destination struct plus the option's offset); false when value
 * is not acceptable, and the parser then says "bad --opt 'value': expected <expect>". */
typedef bool (*mc_arg_parse_fn)(void *field, const char *value);

typedef struct mc_arg_opt {
    const char *name;  /* "--size" */
    const char *alias; /* "-o", or NULL */
    mc_arg_kind kind;
    size_t offset;              /* of the field in the destination struct (offsetof) */
    long min, max;              /* MC_ARG_INT */
    double dmin, dmax;          /* MC_ARG_DOUBLE */
    mc_arg_parse_fn parse;      /* MC_ARG_CUSTOM, optional for MC_ARG_FLAG */
    const char *const *choices; /* MC_ARG_CHOICE: the words, NULL-terminated */
    const char *expect;         /* what a good value looks like; NULL: "min..max" or the choices */
    unsigned seen_bit;          /* when nonzero, or-ed into the spec's seen mask once given */
    const char *metavar;        /* "WxH"; NULL for a flag */
    const char *help;           /* may hold '\n' for more lines */
} mc_arg_opt;

typedef struct mc_arg_spec {
    const char *command;  /* "render": the "see 'md5cine render --help'" hint */
    const char *synopsis; /* printed before the options ("usage: md5cine render ...\n...") */
    const char *epilog;   /* printed after them, or NULL */
    const mc_arg_opt *opts;
    size_t nopts;
    int min_pos, max_pos;  /* positional arguments allowed; max_pos < 0: any number */
    const char *too_few;   /* message when fewer than min_pos; NULL: the usage on stderr */
    const char *too_many;  /* appended to "unexpected argument 'X'" */
    ptrdiff_t seen_offset; /* of an unsigned mask in the destination for seen_bit */
} mc_arg_spec;

/* Parses argv[1..argc-1] into dest (argv[0] is the subcommand). The positional arguments
 * are moved, in order, to argv[1..*npos] (argv is reordered). Returns -1 to go on, else the
 * exit code: MC_EXIT_OK after --help (usage on stdout), MC_EXIT_INPUT after a usage error
 * (already printed). Fields of options not given are left as they were. */
int mc_args_parse(const mc_arg_spec *spec, int argc, char **argv, void *dest, int *npos);

/* Prints the usage: synopsis, one line per option (with its help), epilog. */
void mc_args_usage(const mc_arg_spec *spec, FILE *to);

/* Parsers that more than one subcommand uses. */
bool mc_arg_rate(void *field, const char *value); /* an mc_rate, mc_cli_parse_rate */
#define MC_ARG_RATE_EXPECT "1..1000 as N, N/D or a decimal (29.97 is 30000/1001)"

/* An output frame range "A-B" (0 <= A <= B) or "A" (B = A), as --frames takes it. */
bool mc_arg_frame_range(const char *s, int64_t *first, int64_t *last);
#define MC_ARG_FRAMES_EXPECT "A-B with 0 <= A <= B"

/* A whole number in lo..hi (base 10, nothing after it). */
bool mc_arg_long(const char *s, long lo, long hi, long *out);

/* A finite number in lo..hi; with percent_ok, "5%" is 0.05. */
bool mc_arg_double(const char *s, double lo, double hi, bool percent_ok, double *out);

#define MC_ARG_COUNT(table) (sizeof(table) / sizeof((table)[0]))

#endif
