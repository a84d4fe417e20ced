/* libFuzzer target: mc_scene_parse on arbitrary bytes, then mc_scene_resolve against a fixed
 * set of small files. The input is parsed as the scene file MC_FUZZ_SCENE_DIR/fuzz.md5scene
 * (MC_FUZZ_SCENE_DIR: tests/data/scenes of the source tree, set by fuzz/CMakeLists.txt), so
 * its relative paths name the fixtures there (arm.md5mesh, arm.md5anim, arm_badparent.md5anim,
 * cut.md5camera, still.md5camera, skin.png, and the scene files, which are no mesh). A parsed
 * scene must be consistent (every value in its documented range) and survive a round trip:
 * written back as scene text (floats with %.9g) and parsed again, it must give the same scene.
 * A failure must be a sane error. Then, when every file the scene would read (camera, meshes,
 * anims) lies inside the fixture folder, it is resolved: a failure must be a sane error in
 * the scene or in a fixture, a success a consistent scene (joint maps and textures, lengths);
 * a second resolve is a usage error. Nothing is written; image files are only looked for. Half
 * the inputs are parsed going on after errors (mc_parse_opts.error): each error given on the way
 * must be sane too. */
#include <stddef.h>
#include <stdint.h>

#include <md5cine/mathx.h>
#include <md5cine/scene.h>

#include "fuzz_common.h"

#ifndef MC_FUZZ_SCENE_DIR
#error "MC_FUZZ_SCENE_DIR must name the fixture folder (fuzz/CMakeLists.txt sets it)"
#endif
#define SCENE_NAME MC_FUZZ_SCENE_DIR "/fuzz.md5scene"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_scene(const mc_scene *s)
{
    FUZZ_REQUIRE(s->version == 1 && ((s->camera_path && s->camera_path[0] && !s->num_shots) ||
                                     (!s->camera_path && s->num_shots >= 1 &&
                                      s->num_shots <= MC_SCENE_MAX_SHOTS)));
    for (int i = 0; i < s->num_shots; i++) {
        const mc_scene_shot *sh = &s->shots[i];

        FUZZ_REQUIRE(sh->seconds > 0.0f && sh->seconds <= 3600.0f && sh->fov > 0.0f &&
                     sh->fov < 180.0f && sh->line >= 1);
        FUZZ_REQUIRE(sh->kind != MC_SHOT_ORBIT || sh->radius > 0.0f);
        if (sh->kind == MC_SHOT_KEYS)
            FUZZ_REQUIRE(sh->num_keys >= 2 && sh->num_keys <= MC_SCENE_MAX_KEYS &&
                         sh->keys[0].time == 0.0f &&
                         sh->keys[sh->num_keys - 1].time == sh->seconds);
        else
            FUZZ_REQUIRE(sh->num_keys == 0);
        for (int k = 1; k < sh->num_keys; k++)
            FUZZ_REQUIRE(sh->keys[k].time > sh->keys[k - 1].time);
    }
    FUZZ_REQUIRE(s->frames >= 0 && s->frames <= 10000000);
    FUZZ_REQUIRE(s->width == 0 || (s->width >= 16 && s->width <= 16384));
    FUZZ_REQUIRE(s->height == 0 || (s->height >= 16 && s->height <= 16384));
    FUZZ_REQUIRE(s->fps >= 0 && s->fps <= 1000);
    FUZZ_REQUIRE(s->num_actors >= 0 && s->num_actors <= MC_SCENE_MAX_ACTORS);
    FUZZ_REQUIRE(!s->resolved);
    FUZZ_REQUIRE(s->num_lights >= 0 && s->num_lights <= MC_SCENE_MAX_LIGHTS);
    for (int i = 0; i < s->num_lights; i++) {
        const mc_scene_light *l = &s->lights[i];

        bool box = l->box.x > 0.0f || l->box.y > 0.0f || l->box.z > 0.0f;

        FUZZ_REQUIRE(l->name && l->line >= 1);
        /* scene.h: exactly one of a radius, a light_radius box or a projection */
        if (l->projected) {
            mc_vec3 d = mc_v3_sub(l->end, l->start);

            FUZZ_REQUIRE(l->radius == 0.0f && !box);
            FUZZ_REQUIRE(d.x != 0.0f || d.y != 0.0f || d.z != 0.0f);
        } else if (box) {
            FUZZ_REQUIRE(l->radius == 0.0f && l->box.x >= 1e-3f && l->box.y >= 1e-3f &&
                         l->box.z >= 1e-3f && l->box.x <= 1e6f && l->box.y <= 1e6f &&
                         l->box.z <= 1e6f);
        } else {
            FUZZ_REQUIRE(l->radius > 0.0f && l->radius <= 1e6f);
        }
        FUZZ_REQUIRE(!l->shader || l->shader_line >= 1);
        for (int c = 0; c < 3; c++)
            FUZZ_REQUIRE(l->color[c] >= 0.0f && l->color[c] <= 100.0f);
        for (int k = 0; k < i; k++)
            FUZZ_REQUIRE(strcmp(s->lights[k].name, l->name) != 0);
    }
    for (int i = 0; i < 3; i++)
        FUZZ_REQUIRE(!s->has_ambient || (s->ambient[i] >= 0.0f && s->ambient[i] <= 1.0f));
    for (int i = 0; i < 3; i++)
        FUZZ_REQUIRE(!s->has_background || (s->background[i] >= 0.0f && s->background[i] <= 1.0f));
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        /* scene.h: a mesh file or a model declaration's name, one of them (the model's mesh
         * is found when the scene is resolved) */
        FUZZ_REQUIRE(a->name && a->scale > 0.0f);
        FUZZ_REQUIRE(a->model ? a->model[0] && !a->mesh_path
                              : a->mesh_path && a->mesh_path[0]);
        FUZZ_REQUIRE(a->line >= 1 && (a->model ? a->model_line : a->mesh_line) >= 1);
        FUZZ_REQUIRE(a->num_materials >= 0 && a->num_materials <= MC_SCENE_MAX_MATERIALS);
        for (int k = 0; k < i; k++)
            FUZZ_REQUIRE(strcmp(s->actors[k].name, a->name) != 0);
        for (int m = 0; m < a->num_materials; m++)
            FUZZ_REQUIRE(a->materials[m].shader && a->materials[m].path[0]);
    }
}

static void write_scene(FILE *f, const mc_scene *s)
{
    if (s->camera_path) {
        fprintf(f, "md5scene 1\ncamera \"%s\"\n", s->camera_path);
    } else {
        fprintf(f, "md5scene 1\ncamera { fps %d\n", s->camera_fps);
        for (int i = 0; i < s->num_shots; i++) {
            const mc_scene_shot *sh = &s->shots[i];

            if (sh->kind == MC_SHOT_KEYS) {
                fprintf(f, "keys { fov %.9g ", (double)sh->fov);
                for (int k = 0; k < sh->num_keys; k++) {
                    const mc_scene_key *key = &sh->keys[k];

                    fprintf(f, "key %.9g ( %.9g %.9g %.9g ) ( %.9g %.9g %.9g ) ",
                            (double)key->time, (double)key->position.x, (double)key->position.y,
                            (double)key->position.z, (double)key->target.x,
                            (double)key->target.y, (double)key->target.z);
                }
                fprintf(f, "}\n");
                continue;
            }
            fprintf(f, "%s { seconds %.9g fov %.9g ", sh->kind == MC_SHOT_ORBIT ? "orbit" : "look_at",
                    (double)sh->seconds, (double)sh->fov);
            if (sh->kind == MC_SHOT_LOOK_AT)
                fprintf(f, "position ( %.9g %.9g %.9g ) target ( %.9g %.9g %.9g ) }\n",
                        (double)sh->position.x, (double)sh->position.y, (double)sh->position.z,
                        (double)sh->target.x, (double)sh->target.y, (double)sh->target.z);
            else if (sh->around)
                fprintf(f, "around \"%s\" ", sh->around);
            else
                fprintf(f, "center ( %.9g %.9g %.9g ) ", (double)sh->center.x,
                        (double)sh->center.y, (double)sh->center.z);
            if (sh->kind == MC_SHOT_ORBIT)
                fprintf(f, "radius %.9g height %.9g aim %.9g start %.9g degrees %.9g }\n",
                        (double)sh->radius, (double)sh->height, (double)sh->aim,
                        (double)sh->start, (double)sh->degrees);
        }
        fprintf(f, "}\n");
    }
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

        if (a->model)
            fprintf(f, "actor \"%s\" {\nmodel \"%s\"\n", a->name, a->model);
        else
            fprintf(f, "actor \"%s\" {\nmesh \"%s\"\n", a->name, a->mesh_path);
        if (a->anim_name)
            fprintf(f, "anim \"%s\"\n", a->anim_name);
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
    FUZZ_REQUIRE(same_opt_str(a->camera_path, b->camera_path));
    FUZZ_REQUIRE(a->num_shots == b->num_shots && a->camera_fps == b->camera_fps);
    for (int i = 0; i < a->num_shots; i++) {
        const mc_scene_shot *x = &a->shots[i], *y = &b->shots[i];

        FUZZ_REQUIRE(x->kind == y->kind && same_opt_str(x->around, y->around));
        FUZZ_REQUIRE(fuzz_same_float(x->seconds, y->seconds) && fuzz_same_float(x->fov, y->fov) &&
                     fuzz_same_float(x->radius, y->radius) &&
                     fuzz_same_float(x->degrees, y->degrees) &&
                     fuzz_same_float(x->position.x, y->position.x) &&
                     fuzz_same_float(x->target.z, y->target.z) &&
                     fuzz_same_float(x->center.y, y->center.y));
        FUZZ_REQUIRE(x->num_keys == y->num_keys);
        for (int k = 0; k < x->num_keys; k++)
            FUZZ_REQUIRE(fuzz_same_float(x->keys[k].time, y->keys[k].time) &&
                         fuzz_same_float(x->keys[k].position.x, y->keys[k].position.x) &&
                         fuzz_same_float(x->keys[k].position.z, y->keys[k].position.z) &&
                         fuzz_same_float(x->keys[k].target.y, y->keys[k].target.y));
    }
    FUZZ_REQUIRE(same_opt_str(a->base_path, b->base_path));
    FUZZ_REQUIRE(a->frames == b->frames && a->width == b->width && a->height == b->height &&
                 a->fps == b->fps && a->has_background == b->has_background);
    for (int i = 0; i < 3; i++)
        FUZZ_REQUIRE(fuzz_same_float(a->background[i], b->background[i]));
    FUZZ_REQUIRE(a->num_actors == b->num_actors);
    for (int i = 0; i < a->num_actors; i++) {
        const mc_scene_actor *x = &a->actors[i], *y = &b->actors[i];

        FUZZ_REQUIRE(strcmp(x->name, y->name) == 0 && same_opt_str(x->mesh_path, y->mesh_path));
        FUZZ_REQUIRE(same_opt_str(x->model, y->model) && same_opt_str(x->anim_name, y->anim_name));
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

/* Inside the fixture folder: under MC_FUZZ_SCENE_DIR/ with no ".." component. */
static int inside_fixtures(const char *path)
{
    size_t n = strlen(MC_FUZZ_SCENE_DIR "/");

    if (!path || strncmp(path, MC_FUZZ_SCENE_DIR "/", n) != 0)
        return 0;
    for (const char *p = path + n; *p; p++)
        if (p[0] == '.' && p[1] == '.' && (p == path + n || p[-1] == '/') &&
            (p[2] == '/' || p[2] == '\0'))
            return 0;
    return 1;
}

static int reads_only_fixtures(const mc_scene *s)
{
    if (s->camera_path && !inside_fixtures(s->camera_path))
        return 0;
    for (int i = 0; i < s->num_actors; i++)
        if (s->actors[i].model || /* read through the base */
            !inside_fixtures(s->actors[i].mesh_path) ||
            (s->actors[i].anim_path && !inside_fixtures(s->actors[i].anim_path)))
            return 0;
    return 1;
}

static void check_warning(void *user, const mc_error *w)
{
    (void)user;
    FUZZ_REQUIRE(w->msg[0] != '\0' && strchr(w->msg, '\n') == NULL && w->file[0] != '\0');
}

/* A failed resolve: in the scene at a token of the input, or inside one of the fixtures. */
static void check_resolve_error(mc_status st, const mc_error *err, const mc_scene *s,
                                const unsigned char *data, size_t size)
{
    FUZZ_REQUIRE(!s->resolved && s->camera.frames == NULL);
    FUZZ_REQUIRE(err->code == st && err->msg[0] && strchr(err->msg, '\n') == NULL);
    FUZZ_REQUIRE(st == MC_ERR_IO || st == MC_ERR_SYNTAX || st == MC_ERR_RANGE ||
                 st == MC_ERR_LIMIT || st == MC_ERR_MISMATCH || st == MC_ERR_NOMEM);
    if (strcmp(err->file, SCENE_NAME) == 0) {
        if (st == MC_ERR_NOMEM)
            return;
        FUZZ_REQUIRE(err->line >= 1 && err->line <= fuzz_line_count(data, size));
        FUZZ_REQUIRE(err->col >= 1 && (size_t)err->col <= size + 1);
        return;
    }
    FUZZ_REQUIRE(inside_fixtures(err->file));
    /* lex.h: a fixture that is not an MD5 file (skin.png as a mesh) is named without a place */
    if (st == MC_ERR_SYNTAX && strncmp(err->msg, "not an MD5 file: ", 17) == 0) {
        FUZZ_REQUIRE(err->line == 0 && err->col == 0);
        return;
    }
    FUZZ_REQUIRE(st == MC_ERR_NOMEM || (err->line >= 1 && err->col >= 1));
}

/* A resolved scene: every actor's files are loaded, its joint map names the same joints, its
 * textures are material paths or images found next to the mesh or under base. */
static void check_resolved(mc_scene *s, const mc_parse_opts *opts)
{
    static const mc_rate rates[] = { { 0, 0 }, { 24, 1 }, { 30000, 1001 } };
    mc_error err;

    FUZZ_REQUIRE(s->resolved && s->camera.num_frames >= 1);
    for (int i = 0; i < s->num_actors; i++) {
        const mc_scene_actor *a = &s->actors[i];

        FUZZ_REQUIRE((a->joint_map != NULL) == (a->anim_path != NULL));
        for (int j = 0; a->anim_path && j < a->mesh.num_joints; j++) {
            int k = a->joint_map[j];

            FUZZ_REQUIRE(k >= 0 && k < a->anim.num_joints);
            FUZZ_REQUIRE(strcmp(a->anim.joints[k].name, a->mesh.joints[j].name) == 0);
        }
        FUZZ_REQUIRE(a->mesh.num_meshes == 0 || a->textures != NULL);
        for (int m = 0; m < a->mesh.num_meshes; m++)
            FUZZ_REQUIRE(!a->textures[m] || a->textures[m][0] != '\0');
    }
    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
        mc_rate fps = mc_scene_fps(s, rates[r]);

        FUZZ_REQUIRE(fps.num >= 1 && fps.den >= 1);
        FUZZ_REQUIRE(mc_scene_single_frame_length(s, fps) >= 1);
        FUZZ_REQUIRE(mc_scene_frame_count(s, fps) >= 1);
    }
    FUZZ_REQUIRE(mc_scene_resolve(s, opts, &err) == MC_ERR_USAGE && s->resolved);
}

/* The errors the parser goes on after (mc_parse_opts.error): each a sane error of the input,
 * a syntax or range error, fewer than MC_LIMIT_SCENE_ERRORS in all. */
typedef struct gone_on {
    const uint8_t *data;
    size_t size;
    int count;
} gone_on;

static void check_gone_on(void *user, const mc_error *e)
{
    gone_on *g = user;

    FUZZ_REQUIRE(e->code == MC_ERR_SYNTAX || e->code == MC_ERR_RANGE);
    fuzz_check_error(e->code, e, SCENE_NAME, g->data, g->size);
    FUZZ_REQUIRE(++g->count < MC_LIMIT_SCENE_ERRORS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_parse_opts opts = fuzz_opts(size);
    gone_on gone = { data, size, 0 };
    mc_scene s, again;
    mc_error err;
    mc_status st;
    fuzz_text t;

    if (size & 2) { /* half the inputs go on after errors, as the command reads scenes */
        opts.error = check_gone_on;
        opts.error_user = &gone;
    }
    st = mc_scene_parse((const char *)data, size, SCENE_NAME, &opts, &s, &err);
    FUZZ_REQUIRE(gone.count == 0 || st != MC_OK);
    opts.error = NULL;
    if (st != MC_OK) {
        fuzz_check_error(st, &err, SCENE_NAME, data, size);
        FUZZ_REQUIRE(s.actors == NULL && s.arena.head == NULL);
        return 0;
    }
    check_scene(&s);
    fuzz_text_open(&t);
    write_scene(t.f, &s);
    fuzz_text_close(&t);
    st = mc_scene_parse(t.buf, t.len, SCENE_NAME, NULL, &again, &err);
    if (st != MC_OK)
        fprintf(stderr, "round trip: %d:%d: %s\n", err.line, err.col, err.msg);
    FUZZ_REQUIRE(st == MC_OK);
    check_same(&s, &again);
    mc_scene_release(&again);
    if (reads_only_fixtures(&s)) {
        opts.warn = check_warning;
        st = mc_scene_resolve(&s, &opts, &err);
        if (st == MC_OK)
            check_resolved(&s, &opts);
        else
            check_resolve_error(st, &err, &s, data, size);
    }
    mc_scene_release(&s);
    free(t.buf);
    return 0;
}
