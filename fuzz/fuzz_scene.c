/* libFuzzer target: mc_scene_parse on arbitrary bytes. Parse only: no file the scene names is
 * opened. A parsed scene must be consistent (every value in its documented range) and survive a
 * round trip: written back as scene text (floats with %.9g) and parsed again, it must give the
 * same scene. A failure must be a sane error. */
#include <stddef.h>
#include <stdint.h>

#include <md5cine/scene.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_scene(const mc_scene *s)
{
    FUZZ_REQUIRE(s->version == 1 && s->camera_path && s->camera_path[0]);
    FUZZ_REQUIRE(s->frames >= 0 && s->frames <= 10000000);
    FUZZ_REQUIRE(s->width == 0 || (s->width >= 16 && s->width <= 16384));
    FUZZ_REQUIRE(s->height == 0 || (s->height >= 16 && s->height <= 16384));
    FUZZ_REQUIRE(s->fps >= 0 && s->fps <= 1000);
    FUZZ_REQUIRE(s->num_actors >= 0 && s->num_actors <= MC_SCENE_MAX_ACTORS);
    FUZZ_REQUIRE(!s->resolved);
    for (int i = 0; i < 3; i++)
        FUZZ_REQUIRE(!s->has_background || (s->background[i] >= 0.0f && s->background[i] <= 1.0f));
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        FUZZ_REQUIRE(a->name && a->mesh_path && a->mesh_path[0] && a->scale > 0.0f);
        FUZZ_REQUIRE(a->line >= 1 && a->mesh_line >= 1);
        FUZZ_REQUIRE(a->num_materials >= 0 && a->num_materials <= MC_SCENE_MAX_MATERIALS);
        for (int k = 0; k < i; k++)
            FUZZ_REQUIRE(strcmp(s->actors[k].name, a->name) != 0);
        for (int m = 0; m < a->num_materials; m++)
            FUZZ_REQUIRE(a->materials[m].shader && a->materials[m].path[0]);
    }
}

static void write_scene(FILE *f, const mc_scene *s)
{
    fprintf(f, "md5scene 1\ncamera \"%s\"\n", s->camera_path);
    if (s->base_path)
        fprintf(f, "base \"%s\"\n", s->base_path);
    if (s->frames)
        fprintf(f, "frames %d\n", s->frames);
    fprintf(f, "output {");
    if (s->width)
        fprintf(f, " width %d", s->width);
    if (s->height)
        fprintf(f, " height %d", s->height);
    if (s->fps)
        fprintf(f, " fps %d", s->fps);
    if (s->has_background)
        fprintf(f, " background ( %.9g %.9g %.9g )", (double)s->background[0],
                (double)s->background[1], (double)s->background[2]);
    fprintf(f, " }\n");
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        fprintf(f, "actor \"%s\" {\nmesh \"%s\"\n", a->name, a->mesh_path);
        if (a->anim_path)
            fprintf(f, "anim \"%s\"\n", a->anim_path);
        fprintf(f, "origin ( %.9g %.9g %.9g ) yaw %.9g scale %.9g start %.9g loop %d in_place %d\n",
                (double)a->origin.x, (double)a->origin.y, (double)a->origin.z, (double)a->yaw,
                (double)a->scale, (double)a->start, a->loop, a->in_place);
        for (int m = 0; m < a->num_materials; m++)
            fprintf(f, "material \"%s\" \"%s\"\n", a->materials[m].shader, a->materials[m].path);
        fprintf(f, "}\n");
    }
}

static int same_opt_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void check_same(const mc_scene *a, const mc_scene *b)
{
    FUZZ_REQUIRE(strcmp(a->camera_path, b->camera_path) == 0);
    FUZZ_REQUIRE(same_opt_str(a->base_path, b->base_path));
    FUZZ_REQUIRE(a->frames == b->frames && a->width == b->width && a->height == b->height &&
                 a->fps == b->fps && a->has_background == b->has_background);
    for (int i = 0; i < 3; i++)
        FUZZ_REQUIRE(fuzz_same_float(a->background[i], b->background[i]));
    FUZZ_REQUIRE(a->num_actors == b->num_actors);
    for (int i = 0; i < a->num_actors; i++) {
        const mc_scene_actor *x = &a->actors[i], *y = &b->actors[i];

        FUZZ_REQUIRE(strcmp(x->name, y->name) == 0 && strcmp(x->mesh_path, y->mesh_path) == 0);
        FUZZ_REQUIRE(same_opt_str(x->anim_path, y->anim_path));
        FUZZ_REQUIRE(fuzz_same_float(x->origin.x, y->origin.x) &&
                     fuzz_same_float(x->origin.y, y->origin.y) &&
                     fuzz_same_float(x->origin.z, y->origin.z) && fuzz_same_float(x->yaw, y->yaw) &&
                     fuzz_same_float(x->scale, y->scale) && fuzz_same_float(x->start, y->start));
        FUZZ_REQUIRE(x->loop == y->loop && x->in_place == y->in_place);
        FUZZ_REQUIRE(x->num_materials == y->num_materials);
        for (int m = 0; m < x->num_materials; m++)
            FUZZ_REQUIRE(strcmp(x->materials[m].shader, y->materials[m].shader) == 0 &&
                         strcmp(x->materials[m].path, y->materials[m].path) == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_parse_opts opts = fuzz_opts(size);
    mc_scene s, again;
    mc_error err;
    mc_status st = mc_scene_parse((const char *)data, size, "fuzz.md5scene", &opts, &s, &err);
    fuzz_text t;

    if (st != MC_OK) {
        fuzz_check_error(st, &err, "fuzz.md5scene", data, size);
        FUZZ_REQUIRE(s.actors == NULL && s.arena.head == NULL);
        return 0;
    }
    check_scene(&s);
    fuzz_text_open(&t);
    write_scene(t.f, &s);
    fuzz_text_close(&t);
    st = mc_scene_parse(t.buf, t.len, "fuzz.md5scene", NULL, &again, &err);
    if (st != MC_OK)
        fprintf(stderr, "round trip: %d:%d: %s\n", err.line, err.col, err.msg);
    FUZZ_REQUIRE(st == MC_OK);
    check_same(&s, &again);
    mc_scene_release(&again);
    mc_scene_release(&s);
    free(t.buf);
    return 0;
}
