/* Shared by the tests of the declarations indexed like materials (entitydef_test.c,
 * sndshd_test.c): a parser of a text's first declaration. */
#ifndef MC_DECL_FIXTURE_H
#define MC_DECL_FIXTURE_H

#include <string.h>

#include <md5cine/material.h>
#include <md5cine/vfs.h>

/* DECL_PARSER(name, type, file, keyword, parse_span) defines
 *   static mc_status name(const char *text, const mc_parse_opts *opts, type *out, mc_error *err)
 * which indexes text as the file `file` for the declarations `keyword` and parses the first one
 * into *out (zeroed first) with parse_span; "no declaration indexed" (MC_ERR_USAGE) when there is
 * none. */
#define DECL_PARSER(name, type, file, keyword, parse_span)                                        \
    static mc_status name(const char *text, const mc_parse_opts *opts, type *out, mc_error *err) \
    {                                                                                             \
        mc_mtr_index idx;                                                                         \
        mc_status st = mc_decl_index_text(text, strlen(text), file, keyword, keyword, NULL, &idx, \
                                          err);                                                   \
                                                                                                  \
        memset(out, 0, sizeof *out);                                                              \
        if (st != MC_OK)                                                                          \
            return st;                                                                            \
        if (idx.num_spans < 1) {                                                                  \
            mc_mtr_index_release(&idx);                                                           \
            return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0, "no declaration indexed");         \
        }                                                                                         \
        st = parse_span(text, strlen(text), file, &idx.spans[0], opts, out, err);                 \
        mc_mtr_index_release(&idx);                                                               \
        return st;                                                                                \
    }

#endif
