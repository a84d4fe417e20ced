/* mc_soundtrack_make (soundtrack.h): a resolved scene's sound events -- frame commands and
 * cues -- on the mixer's emitters, heard by the camera, mixed over the whole scene. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <md5cine/framecmd.h>
#include <md5cine/pose.h>
#include <md5cine/scene.h>
#include <md5cine/soundtrack.h>
#include <md5cine/view.h>

#include "scene/soundtrack_int.h"

__extension__ typedef __int128 st_i128;

/* Sound events a scene may make (frame commands of looping anims included). */
#define ST_MAX_EVENTS 10000000

/* One sound to start, before its shader is read. */
typedef struct st_pending {
    int64_t sample;
    double time;
    size_t seq; /* order among events of one sample: the order they were made in */
    int actor;  /* -1: none */
    int emitter;
    const char *command; /* frame command word, or "cue" */
    int anim_frame;
    int channel, flags;
    const char *shader;
    bool has_volume;
    float volume;
    const char *place;
    int line, col;
} st_pending;

typedef struct st_list {
    st_pending *items;
    size_t count, cap;
    int64_t end; /* samples of the scene: nothing at or after it */
} st_list;

static mc_status nomem(mc_error *err)
{
    return mc_error_set(err, MC_ERR_NOMEM, NULL, 0, 0, "out of memory");
}

static mc_status list_add(st_list *l, const st_pending *p, mc_error *err)
{
    if (l->count == ST_MAX_EVENTS)
        return mc_error_set(err, MC_ERR_LIMIT, p->place, p->line, p->col,
                            "more than %d sound events in the scene", ST_MAX_EVENTS);
    if (l->count == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 64;
        st_pending *grown = realloc(l->items, ncap * sizeof *grown);

        if (!grown)
            return nomem(err);
        l->items = grown;
        l->cap = ncap;
    }
    l->items[l->count] = *p;
    l->items[l->count].seq = l->count;
    l->count++;
    return MC_OK;
}

/* The shader a sound command plays: its argument, or the key it names (footsteps: the key
 * snd_footstep); NULL when the entity has no such key (idEntity::StartSound fails). */
static const char *command_shader(const mc_frame_command *fc, const mc_entitydef *keys)
{
    const char *arg;

    if (fc->kind == MC_FC_FOOTSTEP || fc->kind == MC_FC_LEFTFOOT || fc->kind == MC_FC_RIGHTFOOT)
        arg = "snd_footstep";
    else if (fc->num_args >= 1)
        arg = fc->args[0].text;
    else
        return NULL;
    if (fc->kind == MC_FC_FOOTSTEP || fc->kind == MC_FC_LEFTFOOT ||
        fc->kind == MC_FC_RIGHTFOOT || mc_frame_cmd_names_key(arg))
        return mc_entitydef_value(keys, arg, NULL);
    return arg;
}

/* Every moment frame command fc of actor a fires before the scene's end, in samples: start +
 * the anim time of each cycle (scene.h, mc_scene_command_offset; one cycle unless the anim
 * loops). */
static mc_status command_times(st_list *l, const mc_scene_actor *a, const mc_frame_command *fc,
                               st_pending *p, mc_error *err)
{
    int nf = a->anim.num_frames, rate = a->anim.frame_rate;
    bool repeats = mc_scene_command_repeats(a);
    double base = (double)a->start * MC_SOUND_RATE;
    int64_t c = 0;

    if (repeats && base < 0.0) {
        /* the first cycle that fires at or after 0 */
        double before = -base / MC_SOUND_RATE * rate - (fc->frame - 1);

        c = before > 0.0 ? (int64_t)ceil(before / (nf - 1)) : 0;
    }
    for (;; c++) {
        double s = base + mc_scene_command_offset(a, fc->frame, c, MC_SOUND_RATE);

        if (s >= (double)l->end)
            break;
        if (s >= -0.5) {
            mc_status st;

            p->sample = llround(s);
            p->time = s / MC_SOUND_RATE;
            if (p->sample < l->end && (st = list_add(l, p, err)) != MC_OK)
                return st;
        }
        if (!repeats)
            break;
    }
    return MC_OK;
}

static mc_status actor_commands(st_list *l, const mc_scene *scene, int ai,
                                const mc_entitydef *keys, mc_error *err)
{
    const mc_scene_actor *a = &scene->actors[ai];

    if (!a->played || a->anim.num_frames < 1)
        return MC_OK;
    for (int i = 0; i < a->num_frame_commands; i++) {
        const mc_frame_command *fc = &a->frame_commands[i];
        mc_sound_channel ch;
        int flags;
        st_pending p;
        mc_status s;

        if (!mc_frame_cmd_sound(fc->kind, &ch, &flags))
            continue;
        memset(&p, 0, sizeof p);
        p.shader = command_shader(fc, keys);
        if (!p.shader)
            continue;
        p.actor = ai;
        p.emitter = 1 + ai;
        p.command = mc_frame_cmd_word(fc->kind);
        p.anim_frame = fc->frame;
        p.channel = (int)ch;
        p.flags = flags;
        p.place = a->played->file;
        p.line = fc->line;
        p.col = fc->col;
        s = command_times(l, a, fc, &p, err);
        if (s != MC_OK)
            return s;
    }
    return MC_OK;
}

/* The scene's cues; *next_emitter numbers the positioned ones' emitters. */
static mc_status cues(st_list *l, const mc_scene *scene, int *next_emitter, mc_error *err)
{
    for (int i = 0; i < scene->num_sounds; i++) {
        const mc_scene_sound *c = &scene->sounds[i];
        st_pending p;
        mc_status s;

        memset(&p, 0, sizeof p);
        p.sample = llround((double)c->at * MC_SOUND_RATE);
        p.time = (double)c->at;
        p.actor = c->actor_index;
        p.emitter = c->actor_index >= 0 ? 1 + c->actor_index : c->has_origin ? (*next_emitter)++
                                                                              : 0;
        p.command = "cue";
        p.channel = c->channel;
        p.shader = c->shader;
        p.has_volume = c->has_volume;
        p.volume = c->volume;
        p.place = scene->name;
        p.line = c->line;
        p.col = c->col;
        if (p.sample < l->end && (s = list_add(l, &p, err)) != MC_OK)
            return s;
    }
    return MC_OK;
}

static int by_sample(const void *a, const void *b)
{
    const st_pending *x = a, *y = b;

    if (x->sample != y->sample)
        return x->sample < y->sample ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

bool mc_soundtrack_scene_has_sound(const mc_scene *scene)
{
    if (scene->num_sounds > 0)
        return true;
    for (int i = 0; i < scene->num_actors; i++) {
        for (int j = 0; j < scene->actors[i].num_frame_commands; j++) {
            if (mc_frame_cmd_sound(scene->actors[i].frame_commands[j].kind, NULL, NULL))
                return true;
        }
    }
    return false;
}

/* ---------------------------------------------------------------- listener, emitters */

/* The camera's view at every output frame; a cut between frames of different shots. */
static mc_status make_listeners(struct mc_soundtrack_data *d, const mc_scene *scene,
                                mc_rate fps, int64_t n, mc_error *err)
{
    mc_timeline_sample prev, cur;
    mc_view v;

    d->listeners = calloc((size_t)n, sizeof *d->listeners);
    if (!d->listeners)
        return nomem(err);
    for (int64_t k = 0; k < n; k++) {
        mc_view_at_frame(&scene->camera, fps, k, 16, 16, MC_FOV_HORIZONTAL, &v, &cur);
        d->listeners[k].origin = v.origin;
        d->listeners[k].axis = v.axis;
        if (k > 0)
            d->listeners[k - 1].cut_after = cur.shot != prev.shot;
        prev = cur;
    }
    return MC_OK;
}

/* Where the actor's root joint is at scene time t: its placement of joint 0's translation
 * (the anim's, lerped as the pose is; none when in_place or without an anim). */
static mc_vec3 actor_root(const mc_scene_actor *a, double t)
{
    mc_vec3 r = { 0.0f, 0.0f, 0.0f }, o;
    mc_mat4 m;

    if (a->anim_path && a->anim.num_frames >= 1 && !a->in_place) {
        mc_anim_frame_pos pos;
        mc_local_joint j0, j1;

        mc_anim_frame_at(&a->anim, mc_scene_actor_time(a, t) * a->anim.frame_rate, a->loop,
                         &pos);
        j0 = mc_anim_joint_at(&a->anim, 0, pos.frame0);
        j1 = mc_anim_joint_at(&a->anim, 0, pos.frame1);
        r.x = j0.pos.x + (j1.pos.x - j0.pos.x) * pos.lerp;
        r.y = j0.pos.y + (j1.pos.y - j0.pos.y) * pos.lerp;
        r.z = j0.pos.z + (j1.pos.z - j0.pos.z) * pos.lerp;
    }
    mc_scene_actor_matrix(a, &m);
    o.x = m.m[0] * r.x + m.m[4] * r.y + m.m[8] * r.z + m.m[12];
    o.y = m.m[1] * r.x + m.m[5] * r.y + m.m[9] * r.z + m.m[13];
    o.z = m.m[2] * r.x + m.m[6] * r.y + m.m[10] * r.z + m.m[14];
    return o;
}

/* Emitter 0 is the world's (global), 1 + i actor i's (its root at every output frame), then
 * one per positioned cue, in cue order. */
static mc_status make_emitters(struct mc_soundtrack_data *d, const mc_scene *scene,
                               mc_rate fps, int64_t n, int count, mc_error *err)
{
    int e = 1 + scene->num_actors;

    d->emitters = calloc((size_t)count, sizeof *d->emitters);
    d->origins = calloc((size_t)count, sizeof *d->origins);
    if (!d->emitters || !d->origins)
        return nomem(err);
    d->num_emitters = count;
    for (int i = 0; i < scene->num_actors; i++) {
        mc_vec3 *o = malloc((size_t)n * sizeof *o);

        if (!o)
            return nomem(err);
        d->origins[1 + i] = o;
        for (int64_t k = 0; k < n; k++)
            o[k] = actor_root(&scene->actors[i], (double)k * fps.den / fps.num);
        d->emitters[1 + i].origins = o;
        d->emitters[1 + i].num_origins = n;
    }
    for (int i = 0; i < scene->num_sounds && e < count; i++) {
        if (scene->sounds[i].actor_index >= 0 || !scene->sounds[i].has_origin)
            continue;
        d->origins[e] = malloc(sizeof *d->origins[e]);
        if (!d->origins[e])
            return nomem(err);
        d->origins[e][0] = scene->sounds[i].origin;
        d->emitters[e].origins = d->origins[e];
        d->emitters[e++].num_origins = 1;
    }
    return MC_OK;
}

/* ---------------------------------------------------------------- events */

/* splitmix64: the seeded generator of the diversities (the engine's gameLocal.random). */
static float next_diversity(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (float)(z >> 40) * (1.0f / 16777216.0f);
}

/* The mixer's event of pending p: its shader read, its parms after the entity's keys. */
static mc_status make_event(struct mc_soundtrack_data *d, const st_pending *p, bool strict,
                            uint64_t *rng, mc_mix_event *e, mc_error *err)
{
    st_shader *sh;
    mc_sound_parms over;
    float div = -1.0f;
    mc_status s = st_shader_get(d, p->shader, &sh, err);

    if (s != MC_OK)
        return s;
    if (strict && sh->missing)
        return mc_error_set(err, MC_ERR_IO, p->place, p->line, p->col,
                            "sound shader '%s': no sound file '%s' in the base (tried its .ogg "
                            "first)",
                            p->shader, sh->missing);
    memset(e, 0, sizeof *e);
    e->start = p->sample;
    e->kind = MC_MIX_START;
    e->emitter = p->emitter;
    e->channel = (mc_sound_channel)p->channel;
    e->shader = &sh->mix;
    e->parms = sh->decl->parms;
    if (p->actor >= 0) {
        s = mc_entitydef_sound_parms(&d->keys[p->actor], &over, &div, err);
        if (s != MC_OK)
            return s;
        mc_sndshd_override_parms(&e->parms, &over, &e->parms);
    }
    e->parms.flags |= p->flags;
    if (p->has_volume)
        e->parms.volume = p->volume;
    /* a diversity is drawn for every start, so that one event's key does not move the others' */
    e->diversity = next_diversity(rng);
    if (div >= 0.0f && div < 1.0f)
        e->diversity = div;
    return MC_OK;
}

/* The file a played record chose. */
static const char *chosen_file(const mc_mix_shader *mix, const mc_mix_record *r)
{
    const st_shader *sh = (const st_shader *)((const char *)mix - offsetof(st_shader, mix));
    const st_file *f;

    if (r->outcome != MC_MIX_PLAYED || r->choice < 0)
        return NULL;
    f = r->leadin ? sh->leadin[r->choice] : sh->entry[r->choice];
    return f ? f->played : NULL;
}

static void fill_events(mc_soundtrack *st, const st_list *l, const mc_mix *mix,
                        const mc_scene *scene, mc_rate fps)
{
    for (size_t i = 0; i < l->count; i++) {
        const st_pending *p = &l->items[i];
        const mc_mix_record *r = &mix->records[i];
        mc_soundtrack_event *e = &st->events[i];
        const mc_mix_event *me = &mix->desc.events[i];

        e->frame = (int64_t)((st_i128)p->sample * fps.num / ((st_i128)MC_SOUND_RATE * fps.den));
        e->time = p->time;
        e->sample = p->sample;
        e->actor = p->actor;
        e->actor_name = p->actor >= 0 ? scene->actors[p->actor].name : NULL;
        e->command = p->command;
        e->anim_frame = p->anim_frame;
        e->channel = p->channel;
        e->shader = ((const st_shader *)((const char *)me->shader - offsetof(st_shader, mix)))
                            ->name;
        e->file = chosen_file(me->shader, r);
        e->volume = me->parms.volume;
        e->cut = r->cut >= 0;
        e->outcome = r->outcome;
        e->place = p->place;
        e->line = p->line;
        e->col = p->col;
    }
}

/* ---------------------------------------------------------------- make */

static mc_status gather(st_list *l, struct mc_soundtrack_data *d, const mc_scene *scene,
                        int *num_emitters, mc_error *err)
{
    mc_status s;

    for (int i = 0; i < scene->num_actors; i++) {
        s = actor_commands(l, scene, i, &d->keys[i], err);
        if (s != MC_OK)
            return s;
    }
    *num_emitters = 1 + scene->num_actors;
    s = cues(l, scene, num_emitters, err);
    if (s == MC_OK && l->count > 1)
        qsort(l->items, l->count, sizeof *l->items, by_sample);
    return s;
}

/* The mixer's events, prepared, and the whole scene mixed. */
static mc_status mix_all(mc_soundtrack *st, const mc_soundtrack_desc *desc, const st_list *l,
                         int num_emitters, mc_error *err)
{
    struct mc_soundtrack_data *d = st->data;
    uint64_t rng = (uint64_t)desc->scene->seed;
    mc_mix_desc md;
    mc_status s;

    d->events = calloc(l->count, sizeof *d->events);
    st->events = calloc(l->count, sizeof *st->events);
    if (!d->events || !st->events)
        return nomem(err);
    for (size_t i = 0; i < l->count; i++) {
        s = make_event(d, &l->items[i], desc->strict, &rng, &d->events[i], err);
        if (s != MC_OK)
            return s;
    }
    s = make_listeners(d, desc->scene, desc->fps, desc->num_frames, err);
    if (s == MC_OK)
        s = make_emitters(d, desc->scene, desc->fps, desc->num_frames, num_emitters, err);
    if (s != MC_OK)
        return s;
    memset(&md, 0, sizeof md);
    md.rate = desc->fps;
    md.num_frames = desc->num_frames;
    md.listener = d->listeners;
    md.emitters = d->emitters;
    md.num_emitters = num_emitters;
    md.events = d->events;
    md.num_events = l->count;
    s = mc_mix_prepare(&md, &d->mix, err);
    if (s != MC_OK)
        return s;
    st->num_events = l->count;
    fill_events(st, l, &d->mix, desc->scene, desc->fps);
    st->mix = malloc((size_t)st->frames * 2 * sizeof *st->mix);
    if (!st->mix)
        return nomem(err);
    mc_mix_render(&d->mix, 0, (size_t)st->frames, st->mix);
    return MC_OK;
}

static int count_missing(const struct mc_soundtrack_data *d)
{
    int n = 0;

    for (size_t i = 0; i < d->num_files; i++)
        n += d->files[i]->played == NULL;
    return n;
}

mc_status mc_soundtrack_make(const mc_soundtrack_desc *desc, mc_soundtrack *out, mc_error *err)
{
    st_list l;
    int num_emitters = 0;
    mc_status s;

    memset(out, 0, sizeof *out);
    memset(&l, 0, sizeof l);
    if (!desc || !desc->scene || !desc->scene->resolved || desc->fps.num < 1 ||
        desc->fps.den < 1 || desc->num_frames < 1)
        return mc_error_set(err, MC_ERR_USAGE, NULL, 0, 0,
                            "mc_soundtrack_make needs a resolved scene, a rate and frames");
    out->data = calloc(1, sizeof *out->data);
    if (!out->data)
        return nomem(err);
    out->data->opts = desc->opts;
    out->data->budget = MC_LIMIT_AUDIO_DECODED_BYTES;
    out->frames = mc_mix_frame_sample(desc->fps, desc->num_frames);
    out->seed = desc->scene->seed;
    l.end = out->frames;
    s = st_open_base(out->data, desc, err);
    if (s == MC_OK)
        s = st_actor_keys(out->data, desc->scene, err);
    if (s == MC_OK)
        s = gather(&l, out->data, desc->scene, &num_emitters, err);
    if (s == MC_OK && l.count > 0)
        s = mix_all(out, desc, &l, num_emitters, err);
    free(l.items);
    if (s != MC_OK) {
        mc_soundtrack_release(out);
        return s;
    }
    out->missing_files = count_missing(out->data);
    return MC_OK;
}

void mc_soundtrack_release(mc_soundtrack *st)
{
    struct mc_soundtrack_data *d = st ? st->data : NULL;

    if (!st)
        return;
    if (d) {
        mc_mix_release(&d->mix);
        free(d->listeners);
        if (d->origins) {
            for (int i = 0; i < d->num_emitters; i++)
                free(d->origins[i]);
        }
        free(d->origins);
        free(d->emitters);
        free(d->events);
        st_data_release(d);
        free(d);
    }
    free(st->events);
    free(st->mix);
    memset(st, 0, sizeof *st);
}
