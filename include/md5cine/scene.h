/* scene: the .md5scene file (DESIGN.md 3) -- one camera, any number of actors, output settings.
 *
 *   md5scene 1                                    // required first: the format version (1)
 *   camera "cams/intro.md5camera"                 // required: a camera file, or a block:
 *   camera { fps 24  look_at { ... }  orbit { ... } }   // see "Camera block" below
 *   base "assets"                                 // optional: implicit textures, materials
 *   frames 240                                    // optional: length of a one-frame camera
 *   output { width 1280 height 720 fps 24 background ( 0.05 0.05 0.08 ) }  // all optional
 *   actor "drone" {                               // any number; names are unique
 *       mesh "models/drone/drone.md5mesh"         // required, or instead:
 *       model "monster_zombie_fat"                // a model declaration of base's def/ files
 *       anim "models/drone/forward.md5anim"       // optional: without it the bind pose; with
 *                                                 // a model also a name: anim "walk"
 *       origin ( 0 0 0 )  yaw 90  scale 1  start 0.5  loop 1  in_place 0
 *       rebase_root 1                             // optional: joint 0 as the engine loads it
 *       material "models/drone/skin" "models/drone/skin.jpg"   // repeatable; "" maps ""
 *       skin "models/drone/red"          // optional: a skin of the base's skins/ (material.h)
 *       parm 4 0.5                                // shader parameter 0..11, once per number
 *   }
 *   light "key" { origin ( -200 150 300 ) color ( 1 0.95 0.9 ) radius 900 }  // up to 8
 *   ambient ( 0.1 0.1 0.12 )                      // optional
 *   sound "SHADER" { at 4.0 actor "drone" channel voice volume -3 }  // any number; or global
 *                                                 // without actor, or `origin ( x y z )`
 *   seed 7                                        // optional: the sound's random choices
 * An actor block may also hold `key "snd_footstep" "SHADER"` lines (its entity's keys).
 * docs/scene-files.md ("Sound") has the sound lines' rules.
 *
 * Keywords may come in any order inside their block; each at most once (material: once per
 * shader name, names compared as for matching below). Paths are relative to the scene file's folder (absolute paths stay as they
 * are; a backslash is read as '/'). Values: version 1; frames 1..10000000; width and height
 * 16..16384; fps 1..1000; background components 0..1; scale > 0; loop, in_place and
 * rebase_root 0 or 1;
 * yaw (degrees about +Z, counter-clockwise seen from above) and start (seconds) any number.
 * Every error names file:line:col of the offending token.
 *
 * Lights: `light "name" { ... }` is a light fixed in the world, as Doom's: origin (required,
 * inches), color (optional, default ( 1 1 1 ), components 0..100; Doom's r_lightScale 2
 * multiplies it) and its volume: either a point light's box, `radius R` (the same half-size R
 * on every axis) or `light_radius ( x y z )` (Doom's key: half-sizes, each above 0), at most
 * 1e6 inches; or a projected light, `target ( x y z ) right ( x y z ) up ( x y z )` with
 * optional `start ( x y z ) end ( x y z )`, relative to origin as in Doom's map files (right
 * and up not parallel, target off their plane). `noShadows 1` marks a light that casts no
 * shadows. `shader "lights/NAME"` names a light material of the scene's base (a scene without
 * a base may not name one): its stages give the light's projection images and colours, the
 * light's color becoming the material's parm0..parm2 (scene_renderer.h). Names are unique, at
 * most 8 lights. `ambient ( r g b )` (components 0..1, default
 * 0 0 0 when the scene has lights) is an ambient light over the whole scene: diffuse * ambient * 2.
 * How they shade is render.h's interaction (docs/materials-and-shading.md, "Shading and lights"). A
 * scene without any light gets the scene renderer's default rig, also fixed in the world
 * (scene_renderer.h); its `ambient` line, if any, replaces the rig's ambient.
 *
 * Camera block: `camera { ... }` instead of a file makes the camera from shots, in file order,
 * with a cut between each shot and the next. `fps N` (optional, 1..1000, default 24) is the
 * camera's frame rate. Shots (1 to MC_SCENE_MAX_SHOTS):
 *   look_at { position ( x y z ) target ( x y z ) fov 90 seconds 2 }
 *       a still camera at position looking at target (they differ, and not straight up or down).
 *   orbit { center ( x y z ) | around "actor"  radius 200 height 64 aim 32 start 0 degrees 360
 *           seconds 4 fov 90 }          (`turntable` is the same shot)
 *       circles the centre (a point, or the named actor's origin) counter-clockwise seen from
 *       above (negative degrees: clockwise) at distance radius (> 0) and height above it,
 *       looking at the point aim above it; start is the first angle, degrees about +Z from +X.
 *   keys { fov 90  key 0 ( x y z ) ( x y z )  key 1.5 ( x y z ) ( x y z ) ... }
 *       a camera moved through keys: each `key T ( position ) ( target )` puts the eye at
 *       position looking at target T seconds into the shot; 2 to MC_SCENE_MAX_KEYS keys, the
 *       first at 0, times strictly increasing, the last (at most 3600) is the shot's length.
 *       Between two keys position and target are interpolated linearly.
 * seconds (above 0, at most 3600; default 1; not in keys, whose last key sets it) and fov
 * (0..180 exclusive; default 90, degrees across the output width) in every shot. A shot of
 * seconds S has n = max(1, round(S * fps)) steps: stored frames i = 0..n at time i / fps, at
 * angle start + degrees * i / n for an orbit, at key time S * i / n for keys; the
 * shot's last stored frame is the cut (md5camera cuts: the next shot's first frame is the same
 * instant), so at the camera's rate the scene lasts the sum of the steps plus one output frame
 * (the last shot's end pose).
 * The view axis of a frame (rows forward, left, up, +Z up): F = normalize(target - position),
 * L = normalize(Z x F), U = F x L; its quaternion is stored with w >= 0 as md5camera's is.
 * mc_scene_camera_build makes the mc_camera; mc_scene_resolve calls it.
 *
 * Two steps: mc_scene_parse reads the text only (what the fuzzer calls); mc_scene_resolve loads
 * every file the scene names -- camera, meshes, anims -- cross-checks each mesh against its
 * anim and resolves each submesh's texture path, so that a bad file anywhere fails before the
 * first frame. mc_scene_load does read + parse + resolve.
 *
 * Texture of a submesh (paths only: decoding images is the caller's job):
 *   1. the actor's material line whose shader name equals the submesh's shader (compared
 *      case-insensitively with '\' read as '/'); its file must exist (else an error there);
 *   2. Doom's implicit rule: the shader name with '\' as '/' and the extension after its last
 *      '.' removed (a '.' inside a folder name is kept), plus ".tga", ".png", ".jpg" in that
 *      order: first its file name in the mesh file's folder, then its whole path under the
 *      scene's base folder;
 *   3. nothing: texture NULL (plain lit material) and a warning through opts->warn naming the
 *      shader and the places looked at, positioned at the submesh's shader in the mesh file --
 *      unless the base folder may declare materials (it holds a materials/ folder or a .pk4
 *      archive): then mc_scene_materials_load (scene_materials.h) gives the submesh its
 *      material, and warns if there is none.
 */
#ifndef MC_SCENE_H
#define MC_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <md5cine/arena.h>
#include <md5cine/chunk_tags.h>
#include <md5cine/error.h>
#include <md5cine/framecmd.h>
#include <md5cine/limits.h>
#include <md5cine/md5anim.h>
#include <md5cine/md5camera.h>
#include <md5cine/md5mesh.h>
#include <md5cine/timeline.h>
#include <md5cine/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest counts a scene may hold (MC_ERR_LIMIT beyond). */
#define MC_SCENE_MAX_ACTORS    MC_LIMIT_SCENE_ACTORS
#define MC_SCENE_MAX_MATERIALS MC_LIMIT_SCENE_MATERIALS /* per actor */
#define MC_SCENE_PARMS 12 /* parm0..parm11 */
#define MC_SCENE_MAX_LIGHTS    MC_LIMIT_SCENE_LIGHTS
#define MC_SCENE_MAX_SHOTS     256 /* shots of a camera block */
#define MC_SCENE_MAX_KEYS      64  /* keys of a keys shot */

/* One shot of a camera block (see "Camera block" above). */
typedef enum mc_scene_shot_kind {
    MC_SHOT_LOOK_AT = 0,
    MC_SHOT_ORBIT,
    MC_SHOT_KEYS,
} mc_scene_shot_kind;

/* One key of a keys shot. */
typedef struct mc_scene_key {
    float time;       /* seconds from the shot's start */
    mc_vec3 position; /* eye, world space */
    mc_vec3 target;   /* point looked at */
    int line, col;    /* position of the `key` keyword */
} mc_scene_key;

typedef struct mc_scene_shot {
    mc_scene_shot_kind kind;
    int line, col;      /* position of the shot's keyword */
    float seconds;      /* > 0 */
    float fov;          /* degrees, (0, 180) */
    mc_vec3 position;   /* look_at: eye, world space */
    mc_vec3 target;     /* look_at: point looked at */
    mc_vec3 center;     /* orbit: centre when around is NULL */
    const char *around; /* orbit: actor whose origin is the centre, or NULL */
    int around_line, around_col;
    float radius, height, aim, start, degrees; /* orbit: inches, inches, inches, deg, deg */
    int num_keys;              /* keys: 2..MC_SCENE_MAX_KEYS; 0 otherwise */
    mc_scene_key *keys;        /* keys: in time order, in the scene's arena */
} mc_scene_shot;

/* A point light fixed in the world (Doom's point light): see "Lights" above. */
typedef struct mc_scene_light {
    const char *name; /* as written; unique among the scene's lights */
    int line, col;    /* position of the name token */
    mc_vec3 origin;   /* world position, inches */
    float color[3];   /* linear RGB, each 0..100; default (1 1 1) */
    float radius;     /* inches, > 0 and <= 1e6: the box's half-size on every axis; 0 when
                         light_radius or a projection is given */
    mc_vec3 box;      /* light_radius ( x y z ): half-sizes of Doom's point-light box; 0 0 0
                         when not given */
    bool projected;   /* target, right and up given: Doom's projected light */
    mc_vec3 target, right, up, start, end; /* projected: relative to origin (start 0 0 0
                                              and end target when not given, as Doom's
                                              Light.cpp; start != end) */
    bool no_shadows;  /* noShadows 1: the light casts no shadows */
    const char *shader; /* `shader "lights/NAME"`: a light material of the base, or NULL (see
                           "Lights" above) */
    int shader_line, shader_col;
} mc_scene_light;

/* A key of an actor's entity the scene sets (`key "snd_footstep" "SHADER"`): it adds to the
 * model's entityDef keys and wins over one of the same name (keys compared without case, as
 * idDict compares them). */
typedef struct mc_scene_spawnarg {
    const char *key, *value; /* as written */
    int line, col;           /* the key's token */
} mc_scene_spawnarg;

/* A sound cue of the scene (see "Sound" in docs/scene-files.md): what a map script's
 * sys.music (global) or an entity's startSoundShader (on the actor's emitter and channel) does
 * at a moment. */
typedef struct mc_scene_sound {
    const char *shader; /* the sound shader's name as written */
    int line, col;      /* its token */
    float at;           /* scene seconds, >= 0 */
    const char *actor;  /* the actor whose emitter plays it, or NULL */
    int actor_index;    /* index into the scene's actors; -1 without an actor */
    int actor_line, actor_col;
    bool has_origin;    /* `origin ( x y z )`: a fixed emitter there (no actor) */
    mc_vec3 origin;     /* world, inches */
    int channel;        /* mc_sound_channel (types.h); default MC_SND_CHANNEL_ANY */
    bool has_volume;    /* `volume DB`: replaces the shader's volume */
    float volume;       /* dB */
} mc_scene_sound;

#define MC_SCENE_MAX_SOUNDS    100000 /* sound cues of a scene */
#define MC_SCENE_MAX_SPAWNARGS 256    /* `key` lines of an actor */
#define MC_SCENE_DEFAULT_SEED  1      /* the seed of a scene without a `seed` line */

/* The word of a sound channel ("any", "voice", ...: the engine's s_channelType names of
 * game/Game_local.h, lower case), NULL out of range; and the channel of a word (compared without
 * case), -1 when none. */
const char *mc_scene_channel_word(int channel);
int mc_scene_channel_find(const char *word, size_t len);

typedef struct mc_scene_material {
    const char *shader; /* shader name as written (may be ""), in the scene's arena */
    const char *path;   /* image path, resolved against the scene's folder */
    int line, col;      /* position of the path token */
    bool used;          /* set by resolve: some submesh uses this line */
} mc_scene_material;

/* A model declaration's anim, as an actor with `model` resolved it. */
typedef struct mc_scene_model_anim {
    const char *name; /* as the declaration names it ("walk", "idle2") */
    const char *path; /* under the scene's base */
    const char *file; /* the place of the .def file whose declaration gives it (where its
                         frame commands' positions are) */
    unsigned flags;   /* MC_ANIMFLAG_* (framecmd.h) */
    int num_commands; /* its frame commands (framecmd.h), in file order */
    const mc_frame_command *commands;
    int num_unknown_flags; /* the words of its block that are no flags md5cine knows */
    const mc_frame_command *unknown_flags;
} mc_scene_model_anim;

typedef struct mc_scene_actor {
    const char *name;      /* as written; unique in the scene */
    int line, col;         /* position of the name token */
    const char *mesh_path; /* resolved against the scene's folder; never NULL once resolved
                              (after parsing, NULL for an actor with a model) */
    int mesh_line, mesh_col;
    const char *anim_path; /* NULL: no anim, the actor keeps its bind pose */
    int anim_line, anim_col;
    /* Model declarations (Doom's `model NAME { mesh ... anim ... }` of def/NAME.def files under
     * the scene's base, game/anim/Anim_Blend.cpp idDeclModelDef): `model "NAME"` instead of
     * `mesh`. Resolving finds the declaration (and those it inherits), and takes its mesh, its
     * skin (unless the actor names one), its offset and its anims: an `anim` that does not end
     * in .md5anim is then the name of one of them. The def files, the mesh and the anims are
     * read through the base as the engine's file system does (vfs.h: loose files, then the
     * .pk4 archives), and only there: a name leaving the base is an error in the .def; errors
     * in them name their place ("base/pak000.pk4:def/x.def:12:5"). A model is resolved once
     * per scene: its actors share model_anims.
     * Every anim such an actor plays has its joint 0 rebased as the engine loads it
     * (md5anim.h, mc_anim_rebase_root); an actor of files keeps the file's joint 0.
     * The played anim's frame commands come with it: a frame past the anim file's numFrames
     * is an error at its `frame` in the .def file; the commands md5cine does not act on
     * (framecmd.h: all but sounds, footsteps and skins) and the anims' unknown flags are one
     * warning per name for the whole scene. */
    const char *model;      /* `model "NAME"` as written, or NULL */
    int model_line, model_col;
    const char *anim_name;  /* `anim "NAME"` naming a model's anim, or NULL (then anim_path) */
    mc_vec3 offset;         /* the model's offset (inches, model space): moves the model as
                               Doom adds it to joint 0 (idAnimator::CreateFrame); 0 0 0
                               without one */
    const char *model_file; /* resolved: the place of the .def file that declares the model,
                               "base/def/x.def" or "base/pak000.pk4:def/x.def" */
    int model_decl_line;    /* resolved: the line of its name there */
    const char *model_skin; /* resolved: the declaration's skin, or NULL */
    int num_model_anims;    /* resolved: the declaration's anims, inherited ones included */
    mc_scene_model_anim *model_anims;
    const char *mesh_game;  /* resolved: the model's mesh as a game path, read through the base
                               (vfs.h), mesh_path being its place there; NULL when mesh_path is
                               a file (no model) */
    const char *anim_game;  /* the same for the played anim of the model */
    const mc_scene_model_anim *played; /* resolved: the model anim played, or NULL */
    int num_frame_commands; /* resolved: played's frame commands (0 without one), each frame
                               within 1..anim.num_frames: what the engine runs as the anim
                               plays (idAnim::CallFrameCommands; framecmd.h) */
    const mc_frame_command *frame_commands; /* positions in played->file */
    mc_vec3 origin; /* world position, inches; default (0 0 0) */
    float yaw;      /* degrees about +Z; default 0 */
    float scale;    /* uniform, > 0; default 1 */
    float start;    /* scene time in seconds at which the anim starts; default 0 */
    bool loop;      /* default false: hold the last frame */
    bool in_place;  /* default false: keep joint 0's translation */
    int rebase_root; /* `rebase_root 0|1`, or -1 (not given): 1 has every anim the actor plays
                        rebased as the engine loads it (md5anim.h, mc_anim_rebase_root), 0 keeps
                        the file's joint 0; not given, a `model` actor rebases and an actor of
                        files does not (mc_scene_actor_rebases_root) */
    const char *skin; /* `skin "NAME"`: a skin declaration of the base's skins/ (material.h),
                         or NULL */
    int skin_line, skin_col;
    int num_materials;
    mc_scene_material *materials;
    float parms[MC_SCENE_PARMS]; /* `parm N VALUE`: Doom's shaderParms for its materials'
                                    expressions; default 1 1 1 1 0 0 0 0 0 0 0 0 */
    int num_spawnargs;               /* `key` lines, in file order, each key once */
    mc_scene_spawnarg *spawnargs;

    /* Filled by mc_scene_resolve (zero until then); owned by the scene. */
    mc_mesh mesh;
    mc_anim anim;          /* zeroed when anim_path is NULL */
    int *joint_map;        /* mesh.num_joints entries: the anim joint of each mesh joint;
                              NULL without an anim */
    const char **textures; /* mesh.num_meshes entries: image path or NULL (plain material) */
    bool mesh_shared, anim_shared; /* mesh (anim) is a copy of an earlier actor's, which loaded
                                      the same path and owns its memory: read it, never
                                      release it */
} mc_scene_actor;

typedef struct mc_scene {
    const char *name; /* the scene file's path as given, for messages */
    const char *dir;  /* its folder with a trailing '/', or "" for the current folder */
    int version;
    const char *camera_path; /* resolved; NULL when the scene has a camera block */
    int camera_line, camera_col; /* the path token, or the block's '{' */
    int camera_fps;              /* camera block: its frame rate (default 24); 0 otherwise */
    int num_shots;               /* camera block: its shots, in file order; 0 otherwise */
    mc_scene_shot *shots;
    const char *base_path; /* resolved base folder, or NULL when not given */
    int frames;            /* 0 when not given */
    int width, height;     /* 0 when not given */
    int fps;               /* 0 when not given (then the camera's frame rate) */
    bool has_background;
    float background[3]; /* linear 0..1 RGB when has_background */
    int num_actors;
    mc_scene_actor *actors;
    int num_lights;         /* 0: the scene renderer's default rig */
    mc_scene_light *lights; /* num_lights, in file order */
    bool has_ambient;
    float ambient[3]; /* linear 0..1 RGB when has_ambient */
    int num_sounds;          /* sound cues, in file order */
    mc_scene_sound *sounds;
    unsigned seed;           /* `seed N` (0..2147483647), else MC_SCENE_DEFAULT_SEED: the
                                random choices of the sound (which file a shader plays) */

    bool resolved; /* mc_scene_resolve succeeded: camera and actors' files are loaded */
    mc_camera camera;
    mc_arena arena; /* owns every pointer above except the loaded structs, which
                       mc_scene_release frees */
} mc_scene;

/* Parses scene text buf[0..len) (need not be NUL-terminated). name is the scene file's path:
 * it names the file in errors and its folder is the base of every relative path (it is
 * copied). opts may be NULL. Loads no file. On success fills *out (end it with
 * mc_scene_release); on failure returns the code, fills *err (if not NULL) and leaves *out
 * zeroed. */
mc_status mc_scene_parse(const char *buf, size_t len, const char *name, const mc_parse_opts *opts,
                         mc_scene *out, mc_error *err);

/* Loads the camera and every actor's mesh and anim (with opts, so lenient parsing and warnings
 * reach them), maps mesh joints to anim joints by name, and resolves textures (see above).
 * Errors: a file that cannot be read is MC_ERR_IO at the scene token naming it; a parse error
 * inside a referenced file keeps that file's own position; a mesh joint missing from the anim
 * (positioned at the joint in the mesh file) or with another parent there (positioned at the
 * joint in the anim file) is MC_ERR_MISMATCH naming the joint; a material file that does not exist is MC_ERR_IO at the material's path token. On failure the
 * scene stays parsed but not resolved (release it as usual). Calling it twice is an error
 * (MC_ERR_USAGE). Once *opts->stop is set, MC_ERR_INTERRUPTED before the next file. */
mc_status mc_scene_resolve(mc_scene *scene, const mc_parse_opts *opts, mc_error *err);

/* Makes the camera of the scene's camera block (see "Camera block"): num_shots >= 1. An orbit
 * around an actor not in the scene is MC_ERR_SYNTAX at the actor's name; a look_at whose
 * position equals its target or looks straight up or down is MC_ERR_RANGE at the shot. On
 * success *out is a camera as mc_camera_parse gives (end it with mc_camera_release); on
 * failure *out is zeroed. */
mc_status mc_scene_camera_build(const mc_scene *scene, mc_camera *out, mc_error *err);

/* Whether two shader names are the same as the scene compares them (a submesh's shader against
 * a material line's): without case, '\' read as '/'. */
bool mc_scene_shader_equal(const char *a, const char *b);

/* Reads the file at path, parses and resolves it. Same contract as mc_scene_parse; on failure
 * nothing needs releasing. */
mc_status mc_scene_load(const char *path, const mc_parse_opts *opts, mc_scene *out, mc_error *err);

/* Frees everything (loaded files included); *scene is zeroed. Accepts a zeroed struct. */
void mc_scene_release(mc_scene *scene);

/* The output frame rate: fps if >= 1 (a command-line override), else the scene's fps
 * setting, else the camera's frame rate. Needs a resolved scene. */
mc_rate mc_scene_fps(const mc_scene *scene, mc_rate fps);

/* The scene's length when the camera has a single frame, in output frames at fps (>= 1):
 * the frames setting if given; else the longest actor animation, floor(end * fps) + 1 frames
 * where end = start + (numFrames - 1) / frameRate seconds (one cycle for a looping anim; a
 * negative end counts as 0); else 1. Needs a resolved scene. */
int64_t mc_scene_single_frame_length(const mc_scene *scene, mc_rate fps);

/* Number of output frames at fps (>= 1): mc_timeline_frame_count(camera, fps,
 * mc_scene_single_frame_length(scene, fps)). A camera with several frames decides alone.
 * Needs a resolved scene. */
int64_t mc_scene_frame_count(const mc_scene *scene, mc_rate fps);

/* mc_scene_frame_count with either clock (timeline.h): the camera's end on that clock; a
 * one-frame camera's length (mc_scene_single_frame_length) counts output frames and is the same
 * with both clocks. */
int64_t mc_scene_frame_count_clock(const mc_scene *scene, mc_rate fps, mc_clock clock);

/* The actor's model-to-world transform (OpenGL column-major): a model-space point p goes to
 * origin + scale * ((p + offset) rotated by yaw degrees about +Z, counter-clockwise seen from
 * above), offset being the model declaration's (0 without one).
 * Doom's row-vector form: world = origin + (scale * p) . R with R's rows (cos, sin, 0),
 * (-sin, cos, 0), (0, 0, 1). */
void mc_scene_actor_matrix(const mc_scene_actor *actor, mc_mat4 *out);

/* Whether the anims the actor plays have joint 0 rebased as the engine loads them: its
 * `rebase_root`, else true for a `model` actor and false for an actor of files. */
bool mc_scene_actor_rebases_root(const mc_scene_actor *actor);

/* The actor's anim clock at scene time t seconds: t - start (negative before the anim
 * starts; the pose module holds frame 0 there and handles loop/hold after the end). */
double mc_scene_actor_time(const mc_scene_actor *actor, double t);

/* The same on the engine clock: game time ms minus start rounded to whole milliseconds (the
 * engine keeps times in ms), the time mc_anim_frame_at_ms takes. */
int64_t mc_scene_actor_ms(const mc_scene_actor *actor, int64_t ms);

/* When the played anim's frame commands fire (game/anim/Anim_Blend.cpp: idAnimBlend::
 * CallFrameCommands runs the frames passed since the last tick, a looping anim wrapping from its
 * last frame to its first; idAnim::CallFrameCommands runs one frame's in the order they were
 * added, file order): a command on frame N (from 1) fires at anim time (N - 1 + c *
 * (numFrames - 1)) / frameRate seconds, for cycle c = 0 only when the anim holds its last frame,
 * for every c >= 0 when it loops (mc_scene_command_repeats); never before the anim starts. At
 * the wrap, the last frame's commands of cycle c fire at the moment of the first frame's of
 * c + 1, before them. The soundtrack (soundtrack.h) and the skins a frame draws follow this. */

/* Whether the actor's frame commands fire again every cycle: a looping anim of 2+ frames. */
bool mc_scene_command_repeats(const mc_scene_actor *actor);

/* The anim time at which a command on frame `frame` (from 1) of the actor's anim fires in
 * cycle `cycle`, in `unit`s per second (1: seconds, 1000: ms, 44100: samples of the mix):
 * (frame - 1 + cycle * (numFrames - 1)) * unit / frameRate. Needs a resolved actor with an
 * anim. */
double mc_scene_command_offset(const mc_scene_actor *actor, int frame, int64_t cycle,
                               double unit);

/* The last cycle in which a command on frame `frame` has fired by anim time t (in `unit`s per
 * second; the time itself included, within a nanosecond, so that a frame at start plus an exact
 * ratio reaches it whatever the rounding): -1 when it has not fired yet (t before its first
 * time), 0 for an anim that holds, and for a looping one the largest c with
 * mc_scene_command_offset <= t. */
int64_t mc_scene_command_last_cycle(const mc_scene_actor *actor, int frame, double t,
                                    double unit);

/* The index in actor->frame_commands of the `skin` command in effect at timeline sample smp:
 * the last one fired at or before its time (the ideal clock's scene time, or with the engine
 * clock its game time in ms, mc_scene_actor_ms), in firing order; -1 when none has fired (the
 * actor's own skin applies). The command's argument "none" means no skin at all
 * (idEntity::SetSkin(NULL)). */
int mc_scene_actor_skin_at(const mc_scene_actor *actor, const mc_timeline_sample *smp);

/* Whether the actor's played anim has a `skin` frame command. */
bool mc_scene_actor_has_skin_commands(const mc_scene_actor *actor);

/* Writes the scene's identity (chunk.h, "Scene identity": the md5cine_scene tag) as 64
 * lower-case hex digits and a NUL into out. Needs a resolved scene. Errors: MC_ERR_IO naming a
 * file that cannot be read, MC_ERR_NOMEM. */
mc_status mc_chunk_scene_id(const mc_scene *scene, char out[MC_CHUNK_ID_LEN + 1], mc_error *err);

#ifdef __cplusplus
}
#endif

#endif
