/* md5cine camera SCENE -o OUT.md5camera: writes the camera a scene's camera block makes
 * (scene.h, "Camera block") as a Doom 3 .md5camera file, the same frames and cuts render uses.
 * Only the scene text is read (an orbit around an actor needs the actor's origin, not its
 * files). The file is written under a temporary name and renamed when complete. Each float
 * is written with 9 significant digits, so reading the file back gives the same floats. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <md5cine/fileio.h>
#include <md5cine/scene.h>

#include "args.h"
#include "cli.h"

typedef struct camera_opts {
    const char *out;
    bool quiet;
} camera_opts;

static const mc_arg_opt camera_options[] = {
    { .name = "--output", .alias = "-o", .kind = MC_ARG_STRING,
      .offset = offsetof(camera_opts, out), .metavar = "OUT",
      .help = "the .md5camera file to write" },
    { .name = "--quiet", .alias = "-q", .kind = MC_ARG_FLAG,
      .offset = offsetof(camera_opts, quiet), .help = "say nothing when it worked" },
};

static const mc_arg_spec camera_spec = {
    .command = "camera",
    .synopsis = "usage: md5cine camera SCENE -o OUT.md5camera\n"
                "  writes the camera of the scene's camera { ... } block (look_at, orbit,\n"
                "  turntable shots) as a Doom 3 .md5camera file.\n",
    .epilog = "exit status: 0 done, 2 bad scene or a scene without a camera block,\n"
              "3 the file could not be written\n",
    .opts = camera_options,
    .nopts = MC_ARG_COUNT(camera_options),
    .min_pos = 1,
    .max_pos = 1,
    .too_few = "camera needs the scene file",
};

static bool write_camera(FILE *f, const mc_camera *cam)
{
    fprintf(f, "MD5Version 10\ncommandline \"md5cine camera\"\n\n");
    fprintf(f, "numFrames %d\nframeRate %d\nnumCuts %d\n\ncuts {\n", cam->num_frames,
            cam->frame_rate, cam->num_cuts);
    for (int i = 0; i < cam->num_cuts; i++)
        fprintf(f, "\t%d\n", cam->cuts[i]);
    fprintf(f, "}\n\ncamera {\n");
    for (int i = 0; i < cam->num_frames; i++) {
        const mc_camera_frame *c = &cam->frames[i];

        fprintf(f, "\t( %.9g %.9g %.9g ) ( %.9g %.9g %.9g ) %.9g\n", (double)c->pos.x,
                (double)c->pos.y, (double)c->pos.z, (double)c->rot.x, (double)c->rot.y,
                (double)c->rot.z, (double)c->fov);
    }
    fprintf(f, "}\n");
    return !ferror(f);
}

int mc_cmd_camera(int argc, char **argv)
{
    camera_opts o = { 0 };
    mc_parse_opts popts = { .warn = mc_diag_warn, .error = mc_diag_error };
    mc_scene s;
    mc_camera cam;
    mc_error e;
    mc_outfile out;
    char *buf;
    size_t len;
    int npos, rc = mc_args_parse(&camera_spec, argc, argv, &o, &npos);

    if (rc != -1)
        return rc;
    if (!o.out)
        return mc_usage_error("camera needs -o OUT, the .md5camera file to write");
    mc_guard g = { 0 };

    mc_guard_add(&g, argv[1]);
    rc = mc_guard_output(&g, "-o", o.out);
    mc_guard_release(&g);
    if (rc != -1)
        return rc;
    if (mc_read_file(argv[1], &buf, &len, &e) != MC_OK) {
        mc_diag_print(stderr, "error", &e);
        return mc_exit_code(e.code);
    }
    /* each mistake the parser reads past at its place, the last one below (scene.c) */
    rc = mc_scene_parse(buf, len, argv[1], &popts, &s, &e) == MC_OK ? MC_EXIT_OK : -1;
    free(buf);
    if (rc != MC_EXIT_OK) {
        mc_diag_print(stderr, "error", &e);
        return mc_exit_code(e.code);
    }
    if (s.num_shots == 0) {
        fprintf(stderr, "%s:%d:%d: error: the scene names a camera file; 'md5cine camera' writes "
                        "the camera of a camera { ... } block\n",
                argv[1], s.camera_line, s.camera_col);
        mc_scene_release(&s);
        return MC_EXIT_INPUT;
    }
    if (mc_scene_camera_build(&s, &cam, &e) != MC_OK) {
        mc_diag_print(stderr, "error", &e);
        mc_scene_release(&s);
        return mc_exit_code(e.code);
    }
    /* Under a temporary name, renamed when complete: never a half-written camera. */
    if (mc_outfile_begin(&out, o.out, MC_OUTFILE_STREAM, &e) == MC_OK) {
        if (write_camera(out.fp, &cam)) {
            if (mc_outfile_commit(&out, &e) != MC_OK)
                rc = MC_EXIT_RUNTIME;
        } else {
            mc_outfile_abort(&out);
            mc_error_set(&e, MC_ERR_IO, o.out, 0, 0, "cannot write '%s'", o.out);
            rc = MC_EXIT_RUNTIME;
        }
    } else {
        rc = MC_EXIT_RUNTIME;
    }
    if (rc != MC_EXIT_OK) {
        mc_diag_print(stderr, "error", &e);
    } else if (!o.quiet) {
        mc_cli_wrote(o.out, "%d camera frames at %d fps, %d cut%s", cam.num_frames,
                     cam.frame_rate, cam.num_cuts, cam.num_cuts == 1 ? "" : "s");
    }
    mc_camera_release(&cam);
    mc_scene_release(&s);
    return rc;
}
