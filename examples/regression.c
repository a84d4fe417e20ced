/* A regression test: render every frame of a scene and check it against a reference folder of
 * PNGs (as `md5cine render SCENE --size WxH -o REF/%05d.png` writes them).
 * usage: regression SCENE REF [W H]   exit 0: every frame passed, 1: a frame failed or is
 * missing (the table says which), 2: an error. */
#include <md5cine/md5cine.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    mc_error err = { 0 };
    mc_scene scene = { 0 };
    mc_scene_renderer *sr = NULL;
    mc_refcheck *check = NULL;
    mc_image_view view = { 0 };
    mc_refcheck_summary sum = { 0 };

    if (argc != 3 && argc != 5)
        return fprintf(stderr, "usage: regression SCENE REF [W H]\n"), 2;
    mc_scene_renderer_desc rd = { .scene = &scene, .msaa = MC_MSAA_DEFAULT }; /* as md5cine render */
    if (argc == 5)
        rd.width = (int)strtol(argv[3], NULL, 10), rd.height = (int)strtol(argv[4], NULL, 10);
    if (mc_scene_load(argv[1], NULL, &scene, &err) != MC_OK ||
        mc_scene_renderer_create(&rd, &sr, &err) != MC_OK)
        goto done;
    mc_scene_renderer_get_info(sr, &view.width, &view.height, NULL, NULL);
    view.stride = (size_t)view.width * 4;
    view.pixels = malloc(view.stride * (size_t)view.height);
    mc_refcheck_desc cd = { .reference = argv[2], .width = view.width, .height = view.height };
    if (!view.pixels || mc_refcheck_open(&cd, &check, &err) != MC_OK)
        goto done;
    for (mc_frame_no k = 0; k < mc_scene_renderer_frame_count(sr); k++)
        if (mc_scene_renderer_frame(sr, k, &view, NULL, &err) != MC_OK ||
            mc_refcheck_frame(check, 0, &view, k, &err) != MC_OK)
            goto done;
    mc_refcheck_print_table(check, stdout);
    mc_refcheck_get_summary(check, &sum);
done:
    if (!check || err.code != MC_OK) { /* an error, not a failing frame */
        if (err.code == MC_OK)
            mc_error_set(&err, MC_ERR_NOMEM, argv[1], 0, 0, "out of memory");
        if (err.line > 0)
            fprintf(stderr, "%s:%d:%d: error: %s\n", err.file, err.line, err.col, err.msg);
        else
            fprintf(stderr, "%s: error: %s\n", err.file[0] ? err.file : argv[1], err.msg);
    }
    free(view.pixels);
    mc_refcheck_release(check);
    mc_scene_renderer_release(sr);
    mc_scene_release(&scene);
    return !check || err.code != MC_OK ? 2 : sum.ok ? 0 : 1;
}
