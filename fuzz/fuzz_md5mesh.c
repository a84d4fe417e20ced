/* libFuzzer target: mc_mesh_parse on arbitrary bytes. A parsed mesh must be valid by
 * construction (md5mesh.h) and survive a round trip: written back as text (floats with %.9g)
 * and parsed again, it must give the same mesh bit for bit. A failure must be a sane error. */
#include <stddef.h>
#include <stdint.h>

#include <md5cine/md5mesh.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_mesh(const mc_mesh *m)
{
    FUZZ_REQUIRE(m->num_joints >= 0 && m->num_meshes >= 0);
    for (int i = 0; i < m->num_joints; i++) {
        FUZZ_REQUIRE(m->joints[i].parent >= -1 && m->joints[i].parent < i);
        FUZZ_REQUIRE(m->joints[i].name && m->joints[i].line >= 1);
        FUZZ_REQUIRE(m->joints[i].rot.w >= 0.0f || m->joints[i].rot.w != m->joints[i].rot.w);
    }
    for (int k = 0; k < m->num_meshes; k++) {
        const mc_submesh *s = &m->meshes[k];

        FUZZ_REQUIRE(s->shader && s->name);
        for (int i = 0; i < s->num_verts; i++) {
            FUZZ_REQUIRE(s->verts[i].num_weights >= 1 && s->verts[i].first_weight >= 0);
            FUZZ_REQUIRE((long long)s->verts[i].first_weight + s->verts[i].num_weights <=
                         s->num_weights);
        }
        for (int i = 0; i < s->num_tris; i++)
            for (int c = 0; c < 3; c++)
                FUZZ_REQUIRE(s->tris[i].v[c] >= 0 && s->tris[i].v[c] < s->num_verts);
        for (int i = 0; i < s->num_weights; i++)
            FUZZ_REQUIRE(s->weights[i].joint >= 0 && s->weights[i].joint < m->num_joints);
    }
}

static void write_mesh(FILE *f, const mc_mesh *m)
{
    fprintf(f, "MD5Version 10\ncommandline \"\"\nnumJoints %d\nnumMeshes %d\njoints {\n",
            m->num_joints, m->num_meshes);
    for (int i = 0; i < m->num_joints; i++) {
        const mc_mesh_joint *j = &m->joints[i];

        fprintf(f, "\"%s\" %d ( %.9g %.9g %.9g ) ( %.9g %.9g %.9g )\n", j->name, j->parent,
                (double)j->pos.x, (double)j->pos.y, (double)j->pos.z, (double)j->rot.x,
                (double)j->rot.y, (double)j->rot.z);
    }
    fprintf(f, "}\n");
    for (int k = 0; k < m->num_meshes; k++) {
        const mc_submesh *s = &m->meshes[k];

        fprintf(f, "mesh {\n");
        if (s->name[0])
            fprintf(f, "name \"%s\"\n", s->name);
        fprintf(f, "shader \"%s\"\nnumverts %d\n", s->shader, s->num_verts);
        for (int i = 0; i < s->num_verts; i++)
            fprintf(f, "vert %d ( %.9g %.9g ) %d %d\n", i, (double)s->verts[i].st.x,
                    (double)s->verts[i].st.y, s->verts[i].first_weight, s->verts[i].num_weights);
        fprintf(f, "numtris %d\n", s->num_tris);
        for (int i = 0; i < s->num_tris; i++)
            fprintf(f, "tri %d %d %d %d\n", i, s->tris[i].v[0], s->tris[i].v[1], s->tris[i].v[2]);
        fprintf(f, "numweights %d\n", s->num_weights);
        for (int i = 0; i < s->num_weights; i++) {
            const mc_weight *w = &s->weights[i];

            fprintf(f, "weight %d %d %.9g ( %.9g %.9g %.9g )\n", i, w->joint, (double)w->bias,
                    (double)w->pos.x, (double)w->pos.y, (double)w->pos.z);
        }
        fprintf(f, "}\n");
    }
}

static void check_same(const mc_mesh *a, const mc_mesh *b)
{
    FUZZ_REQUIRE(a->num_joints == b->num_joints && a->num_meshes == b->num_meshes);
    for (int i = 0; i < a->num_joints; i++) {
        const mc_mesh_joint *x = &a->joints[i], *y = &b->joints[i];

        FUZZ_REQUIRE(strcmp(x->name, y->name) == 0 && x->parent == y->parent);
        FUZZ_REQUIRE(fuzz_same_float(x->pos.x, y->pos.x) && fuzz_same_float(x->pos.y, y->pos.y) &&
                     fuzz_same_float(x->pos.z, y->pos.z) && fuzz_same_float(x->rot.x, y->rot.x) &&
                     fuzz_same_float(x->rot.y, y->rot.y) && fuzz_same_float(x->rot.z, y->rot.z) &&
                     fuzz_same_float(x->rot.w, y->rot.w));
    }
    for (int k = 0; k < a->num_meshes; k++) {
        const mc_submesh *s = &a->meshes[k], *t = &b->meshes[k];

        FUZZ_REQUIRE(strcmp(s->shader, t->shader) == 0 && strcmp(s->name, t->name) == 0);
        FUZZ_REQUIRE(s->num_verts == t->num_verts && s->num_tris == t->num_tris &&
                     s->num_weights == t->num_weights);
        for (int i = 0; i < s->num_verts; i++)
            FUZZ_REQUIRE(fuzz_same_float(s->verts[i].st.x, t->verts[i].st.x) &&
                         fuzz_same_float(s->verts[i].st.y, t->verts[i].st.y) &&
                         s->verts[i].first_weight == t->verts[i].first_weight &&
                         s->verts[i].num_weights == t->verts[i].num_weights);
        if (s->num_tris > 0)
            FUZZ_REQUIRE(memcmp(s->tris, t->tris, (size_t)s->num_tris * sizeof *s->tris) == 0);
        for (int i = 0; i < s->num_weights; i++)
            FUZZ_REQUIRE(s->weights[i].joint == t->weights[i].joint &&
                         fuzz_same_float(s->weights[i].bias, t->weights[i].bias) &&
                         fuzz_same_float(s->weights[i].pos.x, t->weights[i].pos.x) &&
                         fuzz_same_float(s->weights[i].pos.y, t->weights[i].pos.y) &&
                         fuzz_same_float(s->weights[i].pos.z, t->weights[i].pos.z));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_parse_opts opts = fuzz_opts(size);
    mc_mesh m, again;
    mc_error err;
    mc_status s = mc_mesh_parse((const char *)data, size, "fuzz.md5mesh", &opts, &m, &err);
    fuzz_text t;

    if (s != MC_OK) {
        fuzz_check_error(s, &err, "fuzz.md5mesh", data, size);
        FUZZ_REQUIRE(m.joints == NULL && m.meshes == NULL && m.arena.head == NULL);
        return 0;
    }
    check_mesh(&m);
    fuzz_text_open(&t);
    write_mesh(t.f, &m);
    fuzz_text_close(&t);
    s = mc_mesh_parse(t.buf, t.len, "again", NULL, &again, &err);
    if (s != MC_OK)
        fprintf(stderr, "round trip: %d:%d: %s\n", err.line, err.col, err.msg);
    FUZZ_REQUIRE(s == MC_OK);
    check_same(&m, &again);
    mc_mesh_release(&again);
    mc_mesh_release(&m);
    free(t.buf);
    return 0;
}
