/* What an output name means for a render (output.h), by the table of output kinds. */
#include <md5cine/output.h>

#include <string.h>

/* A name the table does not know: the message lists what it does. */
static mc_status unknown_kind(const char *path, mc_error *err)
{
    const mc_output_kind_info *pat = mc_output_kind_with(MC_OUTPUT_PATTERN);
    char list[128];

    mc_output_kinds_list(MC_OUTPUT_FRAMES, MC_OUTPUT_PATTERN, ", ", ", ", list, sizeof list);
    return mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                        "cannot tell the format of output '%s': use %s, a %s pattern such as "
                        "'%s', or '-'",
                        path, list, pat->title, pat->example);
}

mc_status mc_output_parse(const char *path, mc_output_kind kind, mc_output_target *out,
                          mc_error *err)
{
    const mc_output_kind_info *row, *pat = mc_output_kind_with(MC_OUTPUT_PATTERN);
    const mc_output_kind_info *dash = mc_output_kind_with(MC_OUTPUT_STDOUT);

    memset(out, 0, sizeof *out);
    if (!path)
        return MC_OK;
    row = mc_output_kind_get(kind ? kind : mc_output_kind_of(path));
    if (!row)
        return unknown_kind(path, err);
    if (!(row->props & MC_OUTPUT_FRAMES))
        return mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                            "output '%s' holds sound only (%s): a render's output takes its "
                            "frames, a video or a %s pattern",
                            path, row->title, pat->title);
    if (strcmp(path, "-") == 0 && !(row->props & MC_OUTPUT_STDOUT))
        return mc_error_set(err, MC_ERR_USAGE, path, 0, 0,
                            "output '-' is standard output, which takes %s only", dash->title);
    if (row->props & MC_OUTPUT_PATTERN) {
        mc_status st = mc_png_pattern_parse(path, &out->pattern, err);

        if (st != MC_OK)
            return st;
    }
    out->path = path;
    out->kind = row;
    return MC_OK;
}
