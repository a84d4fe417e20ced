/* md5cine info FILE... [--json] [--timeline] [--fps N] [--clock ideal|engine] [--materials]
 *                        [--lenient]
 *
 * A summary of each file, chosen by its extension. With --json, one JSON object per line per file
 * (see docs/commands.md, "info"). Errors are printed with the source line and a caret; the exit
 * status is the worst of the files: 0 all read, 2 bad input or usage, 3 a file could not be
 * read. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <md5cine/framecmd.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5camera.h>
#include <md5cine/material.h>
#include <md5cine/md5mesh.h>
#include <md5cine/mtr.h>
#include <md5cine/scene.h>
#include <md5cine/scene_materials.h>
#include <md5cine/scene_renderer.h>
#include <md5cine/plan.h>
#include <md5cine/soundtrack.h>
#include <md5cine/timeline.h>
#include <md5cine/vfs.h>

#include <md5cine/json.h>

#include "args.h"
#include "cli.h"
#include "info_materials.h"
#include "info_skins.h"
#include "info_sound.h"
#include "mesh_scene.h"

typedef struct info_opts {
    bool json;
    bool timeline;
    bool materials;
    bool strict; /* --strict */
    const char *base; /* --base DIR: a name that is no file is a model declaration of DIR */
    mc_rate fps; /* { 0, 0 }: the camera's own frame rate */
    mc_clock clock;
    mc_parse_opts parse;
} info_opts;

static int info_mesh(const char *path, const info_opts *o)
{
    mc_mesh m;
    mc_error err;
    mc_status s = mc_mesh_load(path, &o->parse, &m, &err);
    int verts = 0, tris = 0;

    if (s != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        return mc_input_exit_code(s);
    }
    for (int i = 0; i < m.num_meshes; i++) {
        verts += m.meshes[i].num_verts;
        tris += m.meshes[i].num_tris;
    }
    if (o->json) {
        printf("{\"type\":\"md5mesh\",\"joints\":%d,\"meshes\":[", m.num_joints);
        for (int i = 0; i < m.num_meshes; i++) {
            const mc_submesh *sm = &m.meshes[i];

            printf("%s{\"shader\":", i ? "," : "");
            mc_json_write_cstr(stdout, sm->shader);
            printf(",\"verts\":%d,\"tris\":%d,\"weights\":%d}", sm->num_verts, sm->num_tris,
                   sm->num_weights);
        }
        printf("]}\n");
    } else {
        printf("%s: md5mesh, %d joint%s, %d mesh%s, %d vertices, %d triangles\n", path,
               m.num_joints, m.num_joints == 1 ? "" : "s", m.num_meshes,
               m.num_meshes == 1 ? "" : "es", verts, tris);
        for (int i = 0; i < m.num_meshes; i++)
            printf("  mesh %d: shader \"%s\", %d vertices, %d triangles, %d weights\n", i,
                   m.meshes[i].shader, m.meshes[i].num_verts, m.meshes[i].num_tris,
                   m.meshes[i].num_weights);
        printf("  to look at it: md5cine render %s [ANIM.md5anim] -o preview.mp4\n", path);
    }
    mc_mesh_release(&m);
    return MC_EXIT_OK;
}

static int info_anim(const char *path, const info_opts *o)
{
    mc_anim a;
    mc_error err;
    mc_status s = mc_anim_load(path, &o->parse, &a, &err);

    if (s != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        return mc_input_exit_code(s);
    }
    if (o->json)
        printf("{\"type\":\"md5anim\",\"joints\":%d,\"frames\":%d,\"frameRate\":%d,"
               "\"components\":%d}\n",
               a.num_joints, a.num_frames, a.frame_rate, a.num_components);
    else
        printf("%s: md5anim, %d joint%s, %d frame%s at %d fps (%.3f s), %d animated "
               "components\n",
               path, a.num_joints, a.num_joints == 1 ? "" : "s", a.num_frames,
               a.num_frames == 1 ? "" : "s", a.frame_rate,
               (double)(a.num_frames - 1) / a.frame_rate, a.num_components);
    mc_anim_release(&a);
    return MC_EXIT_OK;
}

/* Prints the shots as runs of output frames (JSON objects or indented lines). A shot starts at
 * frame 0 and at the first frame of each cut that lies inside the output; cuts passed within the
 * same output frame open a single run. */
/* An output rate in JSON: a whole number as an integer, else its value, then "fpsRational". */
static void print_rate_json(mc_rate r)
{
    if (r.den == 1)
        printf("%d", r.num);
    else
        printf("%.6g,\"fpsRational\":\"%d/%d\"", (double)r.num / r.den, r.num, r.den);
}

static void print_shots(const mc_camera *c, mc_rate fps, mc_clock clock, int64_t count,
                        bool json)
{
    mc_shot_range stack[64], *shots = stack;
    size_t n = mc_plan_shots(c, fps, clock, count, stack, 64);

    if (n > 64) {
        shots = malloc(n * sizeof *shots);
        if (!shots) {
            fputs("md5cine: error: out of memory\n", stderr);
            return;
        }
        mc_plan_shots(c, fps, clock, count, shots, n);
    }
    for (size_t i = 0; i < n; i++) {
        if (json)
            printf("%s{\"first\":%" PRId64 ",\"last\":%" PRId64 "}", i ? "," : "",
                   shots[i].first, shots[i].last);
        else
            printf("  shot %d: output frames %" PRId64 "-%" PRId64 "\n", shots[i].number,
                   shots[i].first, shots[i].last);
    }
    if (shots != stack)
        free(shots);
}

/* One line or object per output frame; with the engine clock each also gives the game time
 * in ms that the frame samples. */
static void print_timeline(const mc_camera *c, mc_rate fps, mc_clock clock, int64_t count,
                           bool json)
{
    bool engine = clock == MC_CLOCK_ENGINE;

    if (!json)
        printf("  frame  time       %sstored next lerp      shot\n", engine ? "ms       " : "");
    for (int64_t k = 0; k < count; k++) {
        mc_timeline_sample s;

        mc_timeline_sample_frame_clock(c, fps, clock, k, &s);
        if (json) {
            printf("%s{\"frame\":%" PRId64 ",\"time\":%.6g,", k ? "," : "", k, s.time);
            if (engine)
                printf("\"ms\":%" PRId64 ",", s.engine_ms);
            printf("\"stored\":%d,\"next\":%d,\"lerp\":%.6g,\"shot\":%d}", s.stored, s.next,
                   (double)s.lerp, s.shot);
        } else {
            printf("  %-6" PRId64 " %-10.6g ", k, s.time);
            if (engine)
                printf("%-8" PRId64 " ", s.engine_ms);
            printf("%-6d %-4d %-9.6g %d\n", s.stored, s.next, (double)s.lerp, s.shot + 1);
        }
    }
}

/* ",\"clock\":\"engine\"" in JSON, " on the engine clock" in text; nothing for the ideal one. */
static const char *clock_json(mc_clock clock)
{
    return clock == MC_CLOCK_ENGINE ? ",\"clock\":\"engine\"" : "";
}

static const char *clock_text(mc_clock clock)
{
    return clock == MC_CLOCK_ENGINE ? " on the engine clock" : "";
}

static int info_camera(const char *path, const info_opts *o)
{
    mc_camera c;
    mc_error err;
    mc_status s = mc_camera_load(path, &o->parse, &c, &err);
    mc_rate fps;
    int64_t count;

    if (s != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        return mc_input_exit_code(s);
    }
    fps = o->fps.num > 0 ? o->fps : (mc_rate){ c.frame_rate, 1 };
    /* A one-frame camera has no end of its own: reported as one output frame. */
    count = mc_timeline_frame_count_clock(&c, fps, o->clock, 1);
    if (o->json) {
        printf("{\"type\":\"md5camera\",\"frames\":%d,\"frameRate\":%d,\"cuts\":[", c.num_frames,
               c.frame_rate);
        for (int i = 0; i < c.num_cuts; i++)
            printf("%s%d", i ? "," : "", c.cuts[i]);
        printf("],\"fps\":");
        print_rate_json(fps);
        printf("%s,\"outputFrames\":%" PRId64 ",\"shots\":[", clock_json(o->clock), count);
        print_shots(&c, fps, o->clock, count, true);
        printf("]");
        if (o->timeline) {
            printf(",\"timeline\":[");
            print_timeline(&c, fps, o->clock, count, true);
            printf("]");
        }
        printf("}\n");
    } else {
        char rate[48];

        mc_cli_format_rate(fps, rate, sizeof rate);
        printf("%s: md5camera, %d frames at %d fps, %d cut%s; %" PRId64
               " output frames at %s fps%s\n",
               path, c.num_frames, c.frame_rate, c.num_cuts, c.num_cuts == 1 ? "" : "s", count,
               rate, clock_text(o->clock));
        print_shots(&c, fps, o->clock, count, false);
        if (o->timeline)
            print_timeline(&c, fps, o->clock, count, false);
    }
    mc_camera_release(&c);
    return MC_EXIT_OK;
}

static const char *const STAGE_NAMES[] = {
    [MC_STAGE_DIFFUSE] = "diffuse",
    [MC_STAGE_BUMP] = "bump",
    [MC_STAGE_SPECULAR] = "specular",
    [MC_STAGE_COLOR] = "color",
};

static void print_mtr_decl_json(const mc_mtr_decl *d)
{
    char prog[1024];

    printf("{\"name\":");
    mc_json_write_cstr(stdout, d->name);
    printf(",\"line\":%d", d->line);
    mc_info_print_switches(d->flags, MC_MTR_INFO_DECL, false);
    printf(",\"polygonOffset\":%.9g,\"alphaTest\":", (double)d->polygon_offset);
    if (d->has_alpha_test)
        printf("%.9g", (double)d->alpha_test);
    else
        printf("null");
    printf(",\"stages\":[");
    for (int i = 0; i < d->num_stages; i++) {
        const mc_mtr_stage *st = &d->stages[i];

        printf("%s{\"kind\":\"%s\",\"line\":%d,\"blend\":[\"%s\",\"%s\"],\"map\":", i ? "," : "",
               STAGE_NAMES[st->kind], st->line, mc_info_blend_names[st->blend.src],
               mc_info_blend_names[st->blend.dst]);
        if (st->map)
            mc_json_write_cstr(stdout, mc_mtr_prog_text(st->map, prog, sizeof prog));
        else
            printf("null");
        printf(",\"alphaTest\":");
        if (st->has_alpha_test)
            printf("%.9g", (double)st->alpha_test);
        else
            printf("null");
        printf(",\"conditional\":%s}", st->conditional ? "true" : "false");
    }
    printf("]}");
}

static void print_mtr_decl_text(const mc_mtr_decl *d)
{
    char prog[1024];

    printf("  material %s (line %d)", d->name, d->line);
    mc_info_print_switches(d->flags, MC_MTR_INFO_DECL, true);
    if (d->polygon_offset != 0.0f)
        printf(", polygonOffset %g", (double)d->polygon_offset);
    if (d->has_alpha_test)
        printf(", alphaTest %g", (double)d->alpha_test);
    printf("\n");
    for (int i = 0; i < d->num_stages; i++) {
        const mc_mtr_stage *st = &d->stages[i];

        printf("    stage %d: %s", i + 1, STAGE_NAMES[st->kind]);
        if (st->kind == MC_STAGE_COLOR)
            printf(" (blend %s, %s)", mc_info_blend_names[st->blend.src], mc_info_blend_names[st->blend.dst]);
        printf(" map %s", st->map ? mc_mtr_prog_text(st->map, prog, sizeof prog) : "(none)");
        if (st->has_alpha_test)
            printf(", alphaTest %g", (double)st->alpha_test);
        printf("%s\n", st->conditional ? " (under 'if': left out)" : "");
    }
}

static int info_mtr(const char *path, const info_opts *o)
{
    mc_mtr_file f;
    mc_error err;
    mc_status s = mc_mtr_load(path, &o->parse, &f, &err);

    if (s != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        return mc_input_exit_code(s);
    }
    if (o->json) {
        printf("{\"type\":\"mtr\",\"materials\":[");
        for (int i = 0; i < f.num_decls; i++) {
            printf("%s", i ? "," : "");
            print_mtr_decl_json(&f.decls[i]);
        }
        printf("]}\n");
    } else {
        printf("%s: mtr, %d material%s\n", path, f.num_decls, f.num_decls == 1 ? "" : "s");
        for (int i = 0; i < f.num_decls; i++)
            print_mtr_decl_text(&f.decls[i]);
    }
    mc_mtr_release(&f);
    return MC_EXIT_OK;
}

static void print_vec3_json(mc_vec3 v)
{
    const float f[3] = { v.x, v.y, v.z };

    mc_info_print_floats_json(f, 3);
}

/* The played anim's flags and frame commands (framecmd.h), for an actor with a model. */
static void print_frame_commands_json(const mc_scene_actor *a)
{
    const mc_scene_model_anim *p = a->played;

    printf(",\"animFlags\":[");
    for (unsigned bit = 1, n = 0; p && bit; bit <<= 1)
        if ((p->flags & bit) && mc_anim_flag_word(bit))
            printf("%s\"%s\"", n++ ? "," : "", mc_anim_flag_word(bit));
    printf("],\"frameCommands\":[");
    for (int i = 0; i < a->num_frame_commands; i++) {
        const mc_frame_command *c = &a->frame_commands[i];

        printf("%s{\"frame\":%d,\"command\":", i ? "," : "", c->frame);
        mc_json_write_cstr(stdout, c->word);
        printf(",\"args\":[");
        for (int k = 0; k < c->num_args; k++) {
            printf("%s", k ? "," : "");
            mc_json_write_cstr(stdout, c->args[k].text);
        }
        printf("],\"acted\":%s,\"line\":%d,\"col\":%d}",
               mc_frame_cmd_acted(c->kind) ? "true" : "false", c->line, c->col);
    }
    printf("]");
}

static void print_frame_commands_text(const mc_scene_actor *a)
{
    const mc_scene_model_anim *p = a->played;

    if (!p || (p->flags == 0 && a->num_frame_commands == 0))
        return;
    printf("    anim \"%s\" (%s):", p->name, p->file);
    for (unsigned bit = 1; bit; bit <<= 1)
        if ((p->flags & bit) && mc_anim_flag_word(bit))
            printf(" %s", mc_anim_flag_word(bit));
    printf("%s%d frame command%s\n", p->flags ? ", " : " ", a->num_frame_commands,
           a->num_frame_commands == 1 ? "" : "s");
    for (int i = 0; i < a->num_frame_commands; i++) {
        const mc_frame_command *c = &a->frame_commands[i];

        printf("      frame %d: %s", c->frame, c->word);
        for (int k = 0; k < c->num_args; k++)
            printf(" %s", c->args[k].text);
        if (c->kind == MC_FC_SKIN) { /* when it fires (scene.h); --timeline gives the frames */
            printf(" (at %g s of the anim", mc_scene_command_offset(a, c->frame, 0, 1.0));
            if (mc_scene_command_repeats(a))
                printf(", then every %g s", mc_scene_command_offset(a, 1, 1, 1.0));
            printf(")");
        }
        printf("%s\n", mc_frame_cmd_acted(c->kind) ? "" : " (skipped)");
    }
}

static void print_scene_actor_json(const mc_scene_actor *a, const mc_material *const *mats)
{
    printf("{\"name\":");
    mc_json_write_cstr(stdout, a->name);
    printf(",\"mesh\":");
    mc_json_write_cstr(stdout, a->mesh_path);
    printf(",\"anim\":");
    if (a->anim_path)
        mc_json_write_cstr(stdout, a->anim_path);
    else
        printf("null");
    /* only for an actor with a model: the other actors' JSON is as it was */
    if (a->model) {
        printf(",\"model\":{\"name\":");
        mc_json_write_cstr(stdout, a->model);
        printf(",\"file\":");
        mc_json_write_cstr(stdout, a->model_file ? a->model_file : "");
        printf(",\"line\":%d,\"skin\":", a->model_decl_line);
        if (a->model_skin)
            mc_json_write_cstr(stdout, a->model_skin);
        else
            printf("null");
        printf(",\"offset\":");
        print_vec3_json(a->offset);
        printf(",\"anim\":");
        if (a->anim_name)
            mc_json_write_cstr(stdout, a->anim_name);
        else
            printf("null");
        printf(",\"anims\":[");
        for (int k = 0; k < a->num_model_anims; k++) {
            printf("%s{\"name\":", k ? "," : "");
            mc_json_write_cstr(stdout, a->model_anims[k].name);
            printf(",\"path\":");
            mc_json_write_cstr(stdout, a->model_anims[k].path);
            printf("}");
        }
        printf("]");
        print_frame_commands_json(a);
        printf("},\"skin\":");
        if (a->skin)
            mc_json_write_cstr(stdout, a->skin);
        else
            printf("null");
    }
    printf(",\"origin\":");
    print_vec3_json(a->origin);
    printf(",\"yaw\":");
    mc_json_write_float(stdout, a->yaw);
    printf(",\"scale\":");
    mc_json_write_float(stdout, a->scale);
    printf(",\"start\":");
    mc_json_write_float(stdout, a->start);
    printf(",\"loop\":%s,\"inPlace\":%s,\"rebaseRoot\":%s,\"textures\":[",
           a->loop ? "true" : "false", a->in_place ? "true" : "false",
           mc_scene_actor_rebases_root(a) ? "true" : "false");
    for (int k = 0; k < a->mesh.num_meshes; k++) {
        printf("%s{\"shader\":", k ? "," : "");
        mc_json_write_cstr(stdout, a->mesh.meshes[k].shader);
        printf(",\"image\":");
        if (a->textures[k])
            mc_json_write_cstr(stdout, a->textures[k]);
        else
            printf("null");
        if (mats)
            mc_info_print_material_json(mats[k]);
        printf("}");
    }
    printf("]}");
}

static void print_scene_actor_text(const mc_scene_actor *a, const mc_material *const *mats,
                                   const mc_material_set *set)
{
    printf("  actor \"%s\": %s (%d joint%s)", a->name, a->mesh_path, a->mesh.num_joints,
           a->mesh.num_joints == 1 ? "" : "s");
    if (a->anim_path)
        printf(", %s (%d frames at %d fps%s%s%s)", a->anim_path, a->anim.num_frames,
               a->anim.frame_rate, a->loop ? ", loop" : "", a->in_place ? ", in place" : "",
               mc_scene_actor_rebases_root(a) ? ", root rebased" : "");
    else
        printf(", bind pose");
    printf("\n    origin (%g %g %g) yaw %g scale %g start %g s\n", (double)a->origin.x,
           (double)a->origin.y, (double)a->origin.z, (double)a->yaw, (double)a->scale,
           (double)a->start);
    if (a->skin)
        printf("    skin \"%s\"%s\n", a->skin,
               a->model && a->skin == a->model_skin ? " (the model's)" : "");
    if (a->model) {
        printf("    model \"%s\" (%s:%d): offset (%g %g %g)%s%s%s, %d anim%s", a->model,
               a->model_file ? a->model_file : "?", a->model_decl_line, (double)a->offset.x,
               (double)a->offset.y, (double)a->offset.z, a->model_skin ? ", skin \"" : "",
               a->model_skin ? a->model_skin : "", a->model_skin ? "\"" : "",
               a->num_model_anims, a->num_model_anims == 1 ? "" : "s");
        for (int k = 0; k < a->num_model_anims; k++)
            printf("%s %s", k ? "," : ":", a->model_anims[k].name);
        if (a->anim_name)
            printf("; playing \"%s\"", a->anim_name);
        printf("\n");
        print_frame_commands_text(a);
    }
    for (int k = 0; k < a->mesh.num_meshes; k++) {
        if (mats && mats[k]) {
            printf("    mesh %d: shader \"%s\"", k, a->mesh.meshes[k].shader);
            mc_info_print_material_text(mats[k]);
            continue;
        }
        if (set && a->mesh.meshes[k].shader[0] &&
            !mc_scene_actor_has_material_line(a, a->mesh.meshes[k].shader)) {
            int line = 0;
            const char *where = mc_material_set_declared(set, a->mesh.meshes[k].shader, &line);

            if (where) {
                printf("    mesh %d: shader \"%s\" -> material declared at %s:%d\n", k,
                       a->mesh.meshes[k].shader, where, line);
                continue;
            }
        }
        printf("    mesh %d: shader \"%s\" -> %s\n", k, a->mesh.meshes[k].shader,
               a->textures[k] ? a->textures[k]
               : set          ? "(no material, no image)"
                              : "(no texture)");
    }
}

/* The lights a render of the scene uses: the scene's, or the default rig (named key, fill). */
typedef struct scene_lights {
    mc_light light[MC_RENDER_MAX_LIGHTS];
    int count;
    float ambient[3];
} scene_lights;

/* Where the light reaches: its radius, its box (light_radius), or the frustum of a projected
 * light as the scene gives it, relative to its origin (start and end filled in as Doom's
 * idLight::Spawn defaults them: the origin and target). */
static void print_light_extent_text(const mc_light *g)
{
    const mc_vec3 *v[5] = { &g->target, &g->right, &g->up, &g->start, &g->end };
    static const char *const names[5] = { "target", "right", "up", "start", "end" };

    if (g->projected) {
        printf("projected:");
        for (int k = 0; k < 5; k++)
            printf(" %s (%g %g %g)", names[k], (double)v[k]->x, (double)v[k]->y,
                   (double)v[k]->z);
    } else if (g->box.x != 0.0f || g->box.y != 0.0f || g->box.z != 0.0f) {
        printf("light_radius (%g %g %g)", (double)g->box.x, (double)g->box.y, (double)g->box.z);
    } else {
        printf("radius %g", (double)g->radius);
    }
}

static void print_light_extent_json(const mc_light *g)
{
    printf(",\"radius\":");
    mc_json_write_float(stdout, g->radius);
    printf(",\"lightRadius\":");
    if (g->box.x != 0.0f || g->box.y != 0.0f || g->box.z != 0.0f)
        print_vec3_json(g->box);
    else
        printf("null");
    printf(",\"projection\":");
    if (!g->projected) {
        printf("null");
        return;
    }
    printf("{\"target\":");
    print_vec3_json(g->target);
    printf(",\"right\":");
    print_vec3_json(g->right);
    printf(",\"up\":");
    print_vec3_json(g->up);
    printf(",\"start\":");
    print_vec3_json(g->start);
    printf(",\"end\":");
    print_vec3_json(g->end);
    printf("}");
}

static const char *light_name(const mc_scene *sc, int i)
{
    return sc->num_lights > 0 ? sc->lights[i].name : i == 0 ? "key" : "fill";
}

static void print_lights_json(const mc_scene *sc, const scene_lights *l)
{
    printf(",\"lights\":[");
    for (int i = 0; i < l->count; i++) {
        const mc_light *g = &l->light[i];

        printf("%s{\"name\":", i ? "," : "");
        mc_json_write_cstr(stdout, light_name(sc, i));
        printf(",\"origin\":");
        print_vec3_json(g->origin);
        printf(",\"color\":");
        mc_info_print_floats_json(g->color, 3);
        print_light_extent_json(g);
        printf(",\"shader\":");
        if (sc->num_lights > 0 && sc->lights[i].shader)
            mc_json_write_cstr(stdout, sc->lights[i].shader);
        else
            printf("null");
        printf(",\"noShadows\":%s}", g->no_shadows ? "true" : "false");
    }
    printf("],\"defaultLights\":%s,\"ambient\":", sc->num_lights > 0 ? "false" : "true");
    mc_info_print_floats_json(l->ambient, 3);
}

static void print_lights_text(const mc_scene *sc, const scene_lights *l)
{
    if (sc->num_lights > 0)
        printf("  %d light%s, ambient (%g %g %g)\n", l->count, l->count == 1 ? "" : "s",
               (double)l->ambient[0], (double)l->ambient[1], (double)l->ambient[2]);
    else
        printf("  no lights: the default rig, ambient (%g %g %g)\n", (double)l->ambient[0],
               (double)l->ambient[1], (double)l->ambient[2]);
    for (int i = 0; i < l->count; i++) {
        const mc_light *g = &l->light[i];

        const char *shader = sc->num_lights > 0 ? sc->lights[i].shader : NULL;

        printf("    light \"%s\": origin (%g %g %g) color (%g %g %g) ", light_name(sc, i),
               (double)g->origin.x, (double)g->origin.y, (double)g->origin.z,
               (double)g->color[0], (double)g->color[1], (double)g->color[2]);
        print_light_extent_text(g);
        printf("%s%s%s%s\n", shader ? " shader \"" : "", shader ? shader : "",
               shader ? "\"" : "", g->no_shadows ? " noShadows 1" : "");
    }
}

/* info_scene's JSON object. */
static void print_scene_json(const mc_scene *sc, const mc_scene_materials *sm,
                             const scene_lights *lights, const info_opts *o, mc_rate fps,
                             int64_t count, const mc_soundtrack *st)
{
    printf("{\"type\":\"md5scene\",\"camera\":");
    mc_json_write_cstr(stdout, sc->camera_path); /* null: a camera block */
    printf(",\"cameraFrames\":%d,\"frameRate\":%d,\"cuts\":%d,\"fps\":", sc->camera.num_frames,
           sc->camera.frame_rate, sc->camera.num_cuts);
    print_rate_json(fps);
    printf("%s,\"outputFrames\":%" PRId64 ",\"width\":%d,\"height\":%d,\"actors\":[",
           clock_json(o->clock), count, sc->width, sc->height);
    for (int i = 0; i < sc->num_actors; i++) {
        printf("%s", i ? "," : "");
        print_scene_actor_json(&sc->actors[i], o->materials ? sm->submesh[i] : NULL);
    }
    printf("]");
    if (sm->set)
        printf(",\"materialsDeclared\":%d,\"materialsParsed\":%d",
               mc_material_set_count(sm->set), mc_material_set_parsed(sm->set));
    print_lights_json(sc, lights);
    printf(",\"shots\":[");
    print_shots(&sc->camera, fps, o->clock, count, true);
    printf("]");
    if (o->timeline) {
        printf(",\"timeline\":[");
        print_timeline(&sc->camera, fps, o->clock, count, true);
        printf("]");
        mc_info_print_sound(st, sc, true);
        mc_info_print_skins(sc, fps, o->clock, count, true);
    }
    printf("}\n");
}

/* info_scene's lines of text. */
static void print_scene_text(const char *path, const mc_scene *sc, const mc_scene_materials *sm,
                             const scene_lights *lights, const info_opts *o, mc_rate fps,
                             int64_t count, const mc_soundtrack *st)
{
    char rate[48];

    mc_cli_format_rate(fps, rate, sizeof rate);
    printf("%s: md5scene, %d actor%s, camera %s (%d frames at %d fps, %d cut%s); %" PRId64
           " output frames at %s fps%s\n",
           path, sc->num_actors, sc->num_actors == 1 ? "" : "s",
           sc->camera_path ? sc->camera_path : "block",
           sc->camera.num_frames, sc->camera.frame_rate, sc->camera.num_cuts,
           sc->camera.num_cuts == 1 ? "" : "s", count, rate, clock_text(o->clock));
    if (sc->width && sc->height)
        printf("  output %dx%d\n", sc->width, sc->height);
    else if (sc->width || sc->height)
        printf("  output %s %d (the other side: the render default)\n",
               sc->width ? "width" : "height", sc->width ? sc->width : sc->height);
    for (int i = 0; i < sc->num_actors; i++)
        print_scene_actor_text(&sc->actors[i], o->materials ? sm->submesh[i] : NULL, sm->set);
    if (sm->set)
        printf("  materials: %d declared under %s, %d parsed\n",
               mc_material_set_count(sm->set), sc->base_path, mc_material_set_parsed(sm->set));
    print_lights_text(sc, lights);
    print_shots(&sc->camera, fps, o->clock, count, false);
    if (o->timeline) {
        print_timeline(&sc->camera, fps, o->clock, count, false);
        mc_info_print_sound(st, sc, false);
        mc_info_print_skins(sc, fps, o->clock, count, false);
    }
}

/* The scene's soundtrack for --timeline (NULL without sound); *rc the exit code on failure. */
static bool info_soundtrack(mc_scene *sc, mc_scene_materials *sm, const info_opts *o,
                            mc_rate fps, int64_t count, mc_soundtrack *st, int *rc)
{
    mc_soundtrack_desc d = { 0 };
    mc_error err;
    mc_status s;

    memset(st, 0, sizeof *st);
    if (!o->timeline || !mc_soundtrack_scene_has_sound(sc))
        return false;
    d.scene = sc;
    d.fps = fps;
    d.num_frames = count;
    d.vfs = sm->vfs;
    d.set = sm->set;
    d.opts = &o->parse;
    d.strict = o->parse.strict_game_data;
    s = mc_soundtrack_make(&d, st, &err);
    if (s != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        *rc = mc_input_exit_code(s);
        return false;
    }
    return true;
}

static int info_scene(const char *path, const info_opts *o)
{
    mc_scene sc;
    mc_error err;
    mc_status s = mc_scene_load(path, &o->parse, &sc, &err);
    mc_scene_materials sm = { 0 };
    scene_lights lights;
    mc_rate fps;
    int64_t count;

    if (s != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        return mc_input_exit_code(s);
    }
    if (o->materials) {
        s = mc_scene_materials_load(&sc, &o->parse, &sm, &err);
    } else if (sc.base_path && mc_vfs_open(sc.base_path, &sm.vfs, &err) == MC_OK &&
               mc_material_set_load(sm.vfs, &o->parse, &sm.set, &err) != MC_OK) {
        /* Only the index, to name the declarations; --materials reports what fails here. */
        mc_scene_materials_release(&sm);
    }
    if (s != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        mc_scene_materials_release(&sm);
        mc_scene_release(&sc);
        return mc_input_exit_code(s);
    }
    if ((s = mc_scene_lights(&sc, lights.light, &lights.count, lights.ambient, &err)) != MC_OK) {
        mc_diag_print(stderr, "error", &err);
        mc_scene_materials_release(&sm);
        mc_scene_release(&sc);
        return mc_input_exit_code(s);
    }
    fps = mc_scene_fps(&sc, o->fps);
    count = mc_scene_frame_count_clock(&sc, fps, o->clock);
    int rc = MC_EXIT_OK;
    mc_soundtrack st;
    bool sound = info_soundtrack(&sc, &sm, o, fps, count, &st, &rc);

    if (rc == MC_EXIT_OK && o->json)
        print_scene_json(&sc, &sm, &lights, o, fps, count, sound ? &st : NULL);
    else if (rc == MC_EXIT_OK)
        print_scene_text(path, &sc, &sm, &lights, o, fps, count, sound ? &st : NULL);
    mc_soundtrack_release(&st);
    mc_scene_materials_release(&sm);
    mc_scene_release(&sc);
    return rc;
}

/* NAME --base DIR: the actor `render NAME --base DIR` renders (mesh_scene.h), as a scene's. */
static int info_model(const char *name, const info_opts *o)
{
    mc_scene sc;
    mc_error e;
    mc_status st = mc_model_scene_load(name, NULL, o->base, &o->parse, &sc, &e);

    if (st != MC_OK) {
        mc_diag_print(stderr, "error", &e);
        return mc_input_exit_code(st);
    }
    if (o->json) {
        printf("{\"type\":\"model\",\"actor\":");
        print_scene_actor_json(&sc.actors[0], NULL);
        printf("}\n");
    } else {
        print_scene_actor_text(&sc.actors[0], NULL, NULL);
        printf("  to look at it: md5cine render %s --base %s [ANIM] -o preview.mp4\n", name,
               o->base);
    }
    mc_scene_release(&sc);
    return MC_EXIT_OK;
}

typedef struct info_handler {
    const char *ext; /* compared without regard to case */
    int (*run)(const char *path, const info_opts *o);
} info_handler;

/* File types by extension. Each handler prints one summary (or one JSON object per line with
 * o->json), reports errors through mc_diag_print and returns an exit code. */
static const info_handler handlers[] = {
    { ".md5mesh", info_mesh },
    { ".md5anim", info_anim },
    { ".md5camera", info_camera },
    { ".md5scene", info_scene },
    { ".mtr", info_mtr },
};

static int info_file(const char *path, const info_opts *o)
{
    const char *dot = strrchr(path, '.');

    for (size_t i = 0; dot && i < sizeof handlers / sizeof handlers[0]; i++)
        if (strcasecmp(dot, handlers[i].ext) == 0)
            return handlers[i].run(path, o);
    if (o->base)
        return info_model(path, o);
    return mc_usage_error("'%s': unknown file type (expected .md5mesh, .md5anim, .md5camera, "
                          ".md5scene or .mtr)",
                          path);
}

static const mc_arg_opt info_options[] = {
    { .name = "--json", .kind = MC_ARG_FLAG, .offset = offsetof(info_opts, json),
      .help = "one JSON object per line per file" },
    { .name = "--timeline", .kind = MC_ARG_FLAG, .offset = offsetof(info_opts, timeline),
      .help = "cameras: list every output frame (time, stored frames, lerp, shot)" },
    { .name = "--fps", .kind = MC_ARG_CUSTOM, .offset = offsetof(info_opts, fps),
      .parse = mc_arg_rate, .expect = MC_ARG_RATE_EXPECT, .metavar = "N",
      .help = "cameras: sample at N output frames per second (default: the\n"
              "camera's frameRate)" },
    { .name = "--clock", .kind = MC_ARG_CHOICE, .offset = offsetof(info_opts, clock),
      .choices = (const char *const[]){ "ideal", "engine", NULL }, .metavar = "ideal|engine",
      .help = "cameras and scenes: frame k at t = k/fps exactly (default), or\n"
              "Doom 3's 16 ms ticks (--timeline then adds the game time in ms)" },
    { .name = "--materials", .kind = MC_ARG_FLAG, .offset = offsetof(info_opts, materials),
      .help = "scenes: resolve the materials of the base folder (.mtr files,\n"
              ".pk4 archives) and report which image each map got" },
    { .name = "--strict", .kind = MC_ARG_FLAG, .offset = offsetof(info_opts, strict),
      .help = "scenes: a used material of the base that fails to parse is an\n"
              "error (default: Doom's default material and one warning)" },
    { .name = "--base", .kind = MC_ARG_STRING, .offset = offsetof(info_opts, base),
      .metavar = "DIR", .help = "a NAME that is no file: a model declaration of DIR's def files" },
    { .name = "--lenient", .kind = MC_ARG_FLAG, .offset = offsetof(info_opts, parse.lenient),
      .help = "read the harmless deviations of shipped game files with warnings" },
};

static const mc_arg_spec info_spec = {
    .command = "info",
    .synopsis = "usage: md5cine info FILE... [--json] [--timeline] [--fps N]\n"
                "                    [--clock ideal|engine] [--materials] [--strict] [--lenient]\n"
                "       md5cine info NAME... --base DIR [--json]\n\n",
    .opts = info_options,
    .nopts = MC_ARG_COUNT(info_options),
    .min_pos = 1,
    .max_pos = -1,
};

_Static_assert(sizeof(mc_clock) == sizeof(int) && MC_CLOCK_IDEAL == 0 && MC_CLOCK_ENGINE == 1,
               "--clock's words are the enum's order");

int mc_cmd_info(int argc, char **argv)
{
    mc_source_cache warned = { 0 };
    info_opts o = { .parse = { .warn = mc_diag_warn, .warn_user = &warned,
                               .error = mc_diag_error, .error_user = &warned } };
    int files, worst = MC_EXIT_OK;
    int rc = mc_args_parse(&info_spec, argc, argv, &o, &files);

    if (rc != -1)
        return rc;
    o.parse.strict_game_data = o.strict;
    for (int i = 1; i <= files; i++) {
        rc = info_file(argv[i], &o);
        fflush(stdout);
        if (rc > worst)
            worst = rc;
    }
    mc_source_cache_release(&warned);
    return worst;
}
