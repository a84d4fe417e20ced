/* md5cine export: the skinned mesh at one moment as a Wavefront OBJ file.
 *
 * One `o`/`usemtl` group per submesh, named after its shader (white space replaced by '_';
 * an empty shader gives "mesh<index>"), then `v` positions, `vt` texture coordinates with OBJ's
 * bottom-up v = 1 - t, `vn` normals recomputed from the skinned triangles, and the triangles in
 * file order with their corners reversed (md5 fronts are clockwise, OBJ fronts
 * counter-clockwise), as 1-based v/vt/vn triples. */
#include <float.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/fileio.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5mesh.h>
#include <md5cine/pose.h>

#include "args.h"
#include "cli.h"

typedef struct export_args {
    const char *mesh, *anim, *out;
    bool has_frame, has_time, in_place, loop, lenient, quiet;
    double frame, time;
    unsigned given; /* GIVEN_* bits */
} export_args;

enum { GIVEN_FRAME = 1u << 0, GIVEN_TIME = 1u << 1 };

#define F(m) offsetof(export_args, m)

static const mc_arg_opt export_opts[] = {
    { .name = "--frame", .kind = MC_ARG_DOUBLE, .offset = F(frame), .dmin = -DBL_MAX,
      .dmax = DBL_MAX, .expect = "a number", .seen_bit = GIVEN_FRAME, .metavar = "F",
      .help = "anim frame F (time F / frameRate; fractions interpolate)" },
    { .name = "--time", .kind = MC_ARG_DOUBLE, .offset = F(time), .dmin = -DBL_MAX,
      .dmax = DBL_MAX, .expect = "a number", .seen_bit = GIVEN_TIME, .metavar = "S",
      .help = "anim time S seconds" },
    { .name = "--loop", .kind = MC_ARG_FLAG, .offset = F(loop),
      .help = "wrap times past the end (period numFrames - 1 frames)" },
    { .name = "--in-place", .kind = MC_ARG_FLAG, .offset = F(in_place),
      .help = "drop the root joint's translation" },
    { .name = "--lenient", .kind = MC_ARG_FLAG, .offset = F(lenient),
      .help = "accept the harmless deviations of shipped game files" },
    { .name = "--output", .alias = "-o", .kind = MC_ARG_STRING, .offset = F(out),
      .metavar = "OUT.obj", .help = "output file (written whole or not at all)" },
    { .name = "--quiet", .alias = "-q", .kind = MC_ARG_FLAG, .offset = F(quiet),
      .help = "say nothing when it worked" },
};

static const mc_arg_spec export_spec = {
    .command = "export",
    .synopsis =
        "usage: md5cine export MESH [ANIM] (--frame F | --time S) [options] -o OUT.obj\n\n"
                "Writes the mesh skinned at one moment of ANIM (or in its bind pose without ANIM)\n"
                "as a Wavefront OBJ file: positions, normals, texture coordinates, one group per\n"
                "submesh named after its shader.\n\n",
    .opts = export_opts,
    .nopts = MC_ARG_COUNT(export_opts),
    .min_pos = 1,
    .max_pos = 2,
    .too_few = "'export' needs a mesh (see 'md5cine export --help')",
    .seen_offset = offsetof(export_args, given),
};

/* Returns -1 when the arguments are fine, else the exit code to return. */
static int parse_args(int argc, char **argv, export_args *a)
{
    int npos, rc;

    memset(a, 0, sizeof *a);
    rc = mc_args_parse(&export_spec, argc, argv, a, &npos);
    if (rc != -1)
        return rc;
    a->mesh = argv[1];
    a->anim = npos > 1 ? argv[2] : NULL;
    a->has_frame = (a->given & GIVEN_FRAME) != 0;
    a->has_time = (a->given & GIVEN_TIME) != 0;
    if (!a->out)
        return mc_usage_error("'export' needs an output file: -o OUT.obj");
    if (a->has_frame && a->has_time)
        return mc_usage_error("give either '--frame' or '--time', not both");
    if (!a->anim && (a->has_frame || a->has_time || a->loop || a->in_place))
        return mc_usage_error("'--frame', '--time', '--loop' and '--in-place' need an anim");
    return -1;
}

static void write_name(FILE *fp, const char *key, const mc_submesh *sm, int s)
{
    fprintf(fp, "%s ", key);
    if (!sm->shader[0]) {
        fprintf(fp, "mesh%d\n", s);
        return;
    }
    for (const char *c = sm->shader; *c; c++)
        fputc((unsigned char)*c <= ' ' ? '_' : *c, fp);
    fputc('\n', fp);
}

/* Writes submesh s with positions p and normals n; base is the number of vertices written
 * before it (OBJ indices are global). */
static void write_submesh(FILE *fp, const mc_submesh *sm, int s, const mc_vec3 *p,
                          const mc_vec3 *n, long base)
{
    write_name(fp, "o", sm, s);
    write_name(fp, "usemtl", sm, s);
    for (int v = 0; v < sm->num_verts; v++)
        fprintf(fp, "v %.7g %.7g %.7g\n", (double)p[v].x, (double)p[v].y, (double)p[v].z);
    for (int v = 0; v < sm->num_verts; v++)
        fprintf(fp, "vt %.7g %.7g\n", (double)sm->verts[v].st.x,
                (double)(1.0f - sm->verts[v].st.y));
    for (int v = 0; v < sm->num_verts; v++)
        fprintf(fp, "vn %.7g %.7g %.7g\n", (double)n[v].x, (double)n[v].y, (double)n[v].z);
    for (int t = 0; t < sm->num_tris; t++) {
        const int *c = sm->tris[t].v;
        long i0 = base + c[2] + 1, i1 = base + c[1] + 1, i2 = base + c[0] + 1;
        fprintf(fp, "f %ld/%ld/%ld %ld/%ld/%ld %ld/%ld/%ld\n", i0, i0, i0, i1, i1, i1, i2, i2,
                i2);
    }
}

/* Skins every submesh with joints and writes the OBJ file. */
static mc_status write_obj(const export_args *a, const mc_mesh *mesh,
                           const mc_joint_xform *joints, mc_error *err)
{
    int most = 1;
    for (int s = 0; s < mesh->num_meshes; s++)
        if (mesh->meshes[s].num_verts > most)
            most = mesh->meshes[s].num_verts;
    mc_vec3 *p = malloc((size_t)most * sizeof *p), *n = malloc((size_t)most * sizeof *n);
    if (!p || !n) {
        free(p);
        free(n);
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    mc_outfile out;
    mc_status st = mc_outfile_begin(&out, a->out, 1, err);
    if (st == MC_OK) {
        fprintf(out.fp, "# md5cine export of '%s'", a->mesh);
        if (a->anim)
            fprintf(out.fp, " posed by '%s' at %s %g", a->anim, a->has_time ? "time" : "frame",
                    a->has_time ? a->time : a->frame);
        fprintf(out.fp, "\n");
        long base = 0;
        for (int s = 0; s < mesh->num_meshes && st == MC_OK; s++) {
            const mc_submesh *sm = &mesh->meshes[s];
            mc_skin_topology topo;
            st = mc_skin_topology_build(mesh, s, MC_SKIN_CREASE_DEGREES, &topo, err);
            if (st != MC_OK)
                break;
            mc_skin_positions(sm, joints, p);
            mc_skin_normals(sm, &topo, p, n);
            mc_skin_topology_release(&topo);
            write_submesh(out.fp, sm, s, p, n, base);
            base += sm->num_verts;
        }
        if (st == MC_OK)
            st = mc_outfile_commit(&out, err);
        else
            mc_outfile_abort(&out);
    }
    free(p);
    free(n);
    return st;
}

/* The pose: bind pose without an anim, else the anim sampled at the requested moment. */
static mc_status make_pose(const export_args *a, const mc_mesh *mesh, const mc_anim *anim,
                           mc_joint_xform *joints, mc_error *err)
{
    if (!a->anim) {
        mc_pose_bind(mesh, joints);
        return MC_OK;
    }
    /* At least one element: malloc(0) may return NULL, which is not out of memory. */
    int *map = malloc((size_t)(mesh->num_joints > 0 ? mesh->num_joints : 1) * sizeof *map);
    if (!map)
        return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    mc_status st = mc_pose_map_anim(mesh, anim, map, err);
    if (st == MC_OK) {
        double f = a->has_time ? a->time * (double)anim->frame_rate : a->frame;
        mc_anim_frame_pos fp;
        mc_anim_frame_at(anim, f, a->loop, &fp);
        mc_pose_sample_frames(mesh, anim, map, &fp, a->in_place, joints);
    }
    free(map);
    return st;
}

int mc_cmd_export(int argc, char **argv)
{
    export_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    mc_guard g = { 0 };

    mc_guard_add(&g, a.mesh);
    mc_guard_add(&g, a.anim);
    rc = mc_guard_output(&g, "-o", a.out);
    mc_guard_release(&g);
    if (rc != -1)
        return rc;
    mc_parse_opts opts = { a.lenient, mc_diag_warn, NULL };
    mc_mesh mesh = { 0 };
    mc_anim anim = { 0 };
    mc_joint_xform *joints = NULL;
    mc_error err;
    mc_status st = mc_mesh_load(a.mesh, &opts, &mesh, &err);
    bool input_failed;

    if (st == MC_OK && a.anim)
        st = mc_anim_load(a.anim, &opts, &anim, &err);
    input_failed = st != MC_OK;
    if (st == MC_OK) {
        joints = malloc((size_t)(mesh.num_joints > 0 ? mesh.num_joints : 1) * sizeof *joints);
        st = joints ? make_pose(&a, &mesh, &anim, joints, &err)
                    : mc_error_set(&err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    if (st == MC_OK)
        st = write_obj(&a, &mesh, joints, &err);
    if (st != MC_OK) {
        mc_diag_print(stderr, "error", &err);
    } else if (!a.quiet) {
        long verts = 0, tris = 0;

        for (int s = 0; s < mesh.num_meshes; s++) {
            verts += mesh.meshes[s].num_verts;
            tris += mesh.meshes[s].num_tris;
        }
        mc_cli_wrote(a.out, "%ld vertices, %ld triangles in %d group%s", verts, tris,
                     mesh.num_meshes, mesh.num_meshes == 1 ? "" : "s");
    }
    free(joints);
    mc_anim_release(&anim);
    mc_mesh_release(&mesh);
    return input_failed ? mc_input_exit_code(st) : mc_exit_code(st);
}
