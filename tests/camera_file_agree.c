/* `md5cine camera` writes a file that reads back to the same views, checked three ways:
 *  1. md5cine's own reader (mc_camera_load) gives the in-memory camera of the camera block
 *     (mc_scene_camera_build): the same frame count, rate, cuts, and positions, quaternions and
 *     fovs within float rounding, so every output frame has the same view matrix and shot;
 *  2. assimp, an independent MD5 reader, reads the same positions and orientations per stored
 *     frame and puts its animation boundaries at the same cuts;
 *  3. the orientations assimp reads look where the block says: the forward axis points from
 *     the eye to the shot's target (hand-computed below), the left axis is horizontal and the
 *     up axis points up.
 *
 * The scene is written to a scratch folder and given to the md5cine binary named by $MD5CINE.
 *
 * assimp's reading of a .md5camera (assimp 5.x, code/AssetLib/MD5/MD5Loader.cpp,
 * MD5Importer::LoadMD5CameraFile):
 *  - one aiAnimation per shot: MD5CameraParser reads each cut c as c + 1 (the first stored
 *    frame of the new shot, as in Doom), the list is 0, cut_1 + 1 .. cut_n + 1, N - 1 (the last
 *    added only when the last entry is below N - 1), and animation i holds the stored frames
 *    list[i] .. list[i+1] - 1 as keys whose mTime is the stored frame index. So each animation
 *    after the first starts one frame after a cut, and stored frame N - 1 is in no animation
 *    (assimp drops it): the last frame is checked through md5cine's reader only.
 *  - mTicksPerSecond: assimp 5.2.5 (Debian 12) reports its default 24 whatever the file's
 *    frameRate, so the rate is checked through md5cine's reader only.
 *  - positions are the file's, untouched (the Z-up -> Y-up rotation is a node transform).
 *  - quaternions get w = -sqrt(1 - x^2 - y^2 - z^2) (0 where that is negative); the Hamilton
 *    rotation matrix of (x, y, z, -w) is the transpose of Doom's ToMat3 of (x, y, z, w), so
 *    the columns of aiMatrix3FromQuaternion are Doom's rows forward, left, up. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/scene.h>

#include <md5cine/mathx.h>
#include <md5cine/md5camera.h>
#include <md5cine/scene.h>
#include <md5cine/timeline.h>
#include <md5cine/view.h>

#include "test.h"

/* fps 10. Shot 1: look_at, 0.5 s -> n = 5 steps, stored 0..5, cut 5. Shot 2: orbit, 1.5 s ->
 * n = 15, stored 6..21 at angle 45 + 270 * i / 15, cut 21. Shot 3: turntable, 0.3 s -> n = 3,
 * stored 22..25 at angle -90 * i / 3, cut 25. Shot 4: keys at 0 and 0.2 s -> n = 2, stored
 * 26..28 at key time 0.2 * i / 2. 29 stored frames, cuts { 5 21 25 }. */
static const char scene_text[] =
        "md5scene 1\n"
        "camera {\n"
        "    fps 10\n"
        "    look_at { position ( 100 0 50 ) target ( 0 0 30 ) seconds 0.5 fov 70 }\n"
        "    orbit { center ( 10 20 0 ) radius 80 height 40 aim 20 start 45 degrees 270 "
        "seconds 1.5 fov 60 }\n"
        "    turntable { center ( 0 0 0 ) radius 50 height 10 degrees -90 seconds 0.3 }\n"
        "    keys { key 0 ( 0 -60 20 ) ( 0 0 0 ) key 0.2 ( 20 -60 20 ) ( 0 0 0 ) }\n"
        "}\n";

#define NUM_FRAMES 29
#define NUM_CUTS   3
static const int expected_cuts[NUM_CUTS] = { 5, 21, 25 };

/* The eye and the point looked at for stored frame f, from the shot rules of scene.h. */
static void hand_eye_and_target(int f, double eye[3], double target[3])
{
    const double deg = 3.14159265358979323846 / 180.0;

    if (f <= 5) {
        eye[0] = 100, eye[1] = 0, eye[2] = 50;
        target[0] = 0, target[1] = 0, target[2] = 30;
    } else if (f <= 21) {
        double a = (45.0 + 270.0 * (f - 6) / 15.0) * deg;
        eye[0] = 10 + 80 * cos(a), eye[1] = 20 + 80 * sin(a), eye[2] = 40;
        target[0] = 10, target[1] = 20, target[2] = 20;
    } else if (f <= 25) {
        double a = (-90.0 * (f - 22) / 3.0) * deg;
        eye[0] = 50 * cos(a), eye[1] = 50 * sin(a), eye[2] = 10;
        target[0] = 0, target[1] = 0, target[2] = 0;
    } else { /* from key ( 0 -60 20 ) to ( 20 -60 20 ) in 2 steps */
        eye[0] = 20.0 * (f - 26) / 2.0, eye[1] = -60, eye[2] = 20;
        target[0] = 0, target[1] = 0, target[2] = 0;
    }
}

static const struct aiScene *import_camera(const char *path)
{
    const struct aiScene *sc = aiImportFile(path, 0);

    if (!sc)
        test_fail(__FILE__, __LINE__, "assimp cannot read %s: %s", path, aiGetErrorString());
    return sc;
}

/* Runs `md5cine camera` on scene_text; fills path with the written file. */
static bool write_with_cli(char *scene_path, size_t scap, char *path, size_t cap)
{
    const char *bin = getenv("MD5CINE");
    char cmd[4096];
    FILE *f;

    if (!bin)
        return test_fail(__FILE__, __LINE__, "MD5CINE must name the md5cine binary");
    test_tmp_path(scene_path, scap, "agree.md5scene");
    test_tmp_path(path, cap, "agree.md5camera");
    f = fopen(scene_path, "w");
    if (!f || fputs(scene_text, f) < 0 || fclose(f) != 0)
        return test_fail(__FILE__, __LINE__, "cannot write %s", scene_path);
    if (strchr(bin, '\'') || strchr(path, '\'') || strchr(scene_path, '\''))
        return test_fail(__FILE__, __LINE__, "a path holds a quote");
    snprintf(cmd, sizeof cmd, "'%s' camera '%s' -o '%s' --quiet", bin, scene_path, path);
    if (system(cmd) != 0)
        return test_fail(__FILE__, __LINE__, "'%s' failed", cmd);
    return true;
}

static bool build_in_memory(const char *scene_path, mc_scene *s, mc_camera *cam)
{
    mc_error err;

    if (mc_scene_parse(scene_text, strlen(scene_text), scene_path, NULL, s, &err) != MC_OK)
        return test_fail(__FILE__, __LINE__, "%s:%d:%d: %s", err.file, err.line, err.col,
                         err.msg);
    if (mc_scene_camera_build(s, cam, &err) != MC_OK) {
        mc_scene_release(s);
        return test_fail(__FILE__, __LINE__, "%s", err.msg);
    }
    return true;
}

TEST(md5cine_reads_the_written_file_back_to_the_same_views)
{
    char scene_path[1024], path[1024];
    mc_scene s;
    mc_camera mem, file;
    mc_error err;

    if (!write_with_cli(scene_path, sizeof scene_path, path, sizeof path))
        return;
    if (!build_in_memory(scene_path, &s, &mem))
        return;
    if (mc_camera_load(path, NULL, &file, &err) != MC_OK) {
        test_fail(__FILE__, __LINE__, "%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
        mc_camera_release(&mem);
        mc_scene_release(&s);
        return;
    }
    EXPECT_EQ_INT(mem.num_frames, NUM_FRAMES);
    EXPECT_EQ_INT(file.num_frames, NUM_FRAMES);
    EXPECT_EQ_INT(file.frame_rate, 10);
    EXPECT_EQ_INT(mem.frame_rate, 10);
    EXPECT_EQ_INT(file.num_cuts, NUM_CUTS);
    EXPECT_EQ_INT(mem.num_cuts, NUM_CUTS);
    for (int i = 0; i < NUM_CUTS && i < file.num_cuts && i < mem.num_cuts; i++) {
        EXPECT_EQ_INT(file.cuts[i], expected_cuts[i]);
        EXPECT_EQ_INT(mem.cuts[i], expected_cuts[i]);
    }
    for (int f = 0; f < NUM_FRAMES && f < file.num_frames && f < mem.num_frames; f++) {
        const mc_camera_frame *a = &mem.frames[f], *b = &file.frames[f];

        /* 9 significant digits read back to the same float */
        EXPECT(a->pos.x == b->pos.x && a->pos.y == b->pos.y && a->pos.z == b->pos.z);
        EXPECT(a->rot.x == b->rot.x && a->rot.y == b->rot.y && a->rot.z == b->rot.z);
        EXPECT(a->fov == b->fov);
        EXPECT_NEAR(a->rot.w, b->rot.w, 1e-6); /* rebuilt from x, y, z by the reader */
    }
    /* Every output frame at the camera's rate and at another: the same view, shot, stored. */
    for (int r = 0; r < 2; r++) {
        mc_rate fps = r == 0 ? (mc_rate){ 10, 1 } : (mc_rate){ 24, 1 };
        int64_t n = mc_timeline_frame_count(&mem, fps, 1);

        EXPECT_EQ_INT(n, mc_timeline_frame_count(&file, fps, 1));
        if (r == 0)
            EXPECT_EQ_INT(n, NUM_FRAMES - NUM_CUTS); /* N - cuts (DESIGN.md 2.1) */
        for (int64_t k = 0; k < n; k++) {
            mc_view va, vb;
            mc_timeline_sample sa, sb;

            mc_view_at_frame(&mem, fps, k, 640, 360, MC_FOV_HORIZONTAL, &va, &sa);
            mc_view_at_frame(&file, fps, k, 640, 360, MC_FOV_HORIZONTAL, &vb, &sb);
            EXPECT_EQ_INT(sa.stored, sb.stored);
            EXPECT_EQ_INT(sa.shot, sb.shot);
            for (int i = 0; i < 16; i++) {
                EXPECT_NEAR(va.view.m[i], vb.view.m[i], 1e-4);
                EXPECT_NEAR(va.proj.m[i], vb.proj.m[i], 1e-6);
            }
        }
    }
    mc_camera_release(&file);
    mc_camera_release(&mem);
    mc_scene_release(&s);
}

/* The stored frame an assimp key stands for, checked against the in-memory camera and the
 * hand-computed look direction. */
static void check_key(const mc_camera *mem, int f, const struct aiVectorKey *pk,
                      const struct aiQuatKey *rk)
{
    struct aiMatrix3x3 m;
    double eye[3], target[3], fw[3], len = 0.0;
    mc_mat3 ours;

    if (f < 0 || f >= mem->num_frames) {
        test_fail(__FILE__, __LINE__, "assimp key at stored frame %d", f);
        return;
    }
    const mc_camera_frame *c = &mem->frames[f];
    EXPECT_EQ_VEC3(mc_v3(pk->mValue.x, pk->mValue.y, pk->mValue.z), c->pos, 1e-4f);
    aiMatrix3FromQuaternion(&m, &rk->mValue);
    /* columns of assimp's matrix = Doom's rows forward, left, up */
    const float cols[3][3] = { { m.a1, m.b1, m.c1 }, { m.a2, m.b2, m.c2 }, { m.a3, m.b3, m.c3 } };
    ours = mc_quat_to_mat3(c->rot);
    for (int r = 0; r < 3; r++)
        EXPECT_EQ_VEC3(mc_v3(cols[r][0], cols[r][1], cols[r][2]),
                       mc_v3(ours.m[r][0], ours.m[r][1], ours.m[r][2]), 1e-5f);
    hand_eye_and_target(f, eye, target);
    EXPECT_EQ_VEC3(c->pos, mc_v3((float)eye[0], (float)eye[1], (float)eye[2]), 1e-3f);
    for (int i = 0; i < 3; i++) {
        fw[i] = target[i] - eye[i];
        len += fw[i] * fw[i];
    }
    len = sqrt(len);
    EXPECT_EQ_VEC3(mc_v3(cols[0][0], cols[0][1], cols[0][2]),
                   mc_v3((float)(fw[0] / len), (float)(fw[1] / len), (float)(fw[2] / len)),
                   1e-5f);
    EXPECT_NEAR(cols[1][2], 0.0, 1e-5); /* left is horizontal */
    EXPECT(cols[2][2] > 0.0f);          /* up points up */
}

TEST(assimp_reads_the_same_frames_and_cuts)
{
    char scene_path[1024], path[1024];
    mc_scene s;
    mc_camera mem;
    const struct aiScene *sc;
    int seen[NUM_FRAMES] = { 0 };

    if (!write_with_cli(scene_path, sizeof scene_path, path, sizeof path))
        return;
    if (!build_in_memory(scene_path, &s, &mem))
        return;
    sc = import_camera(path);
    if (!sc) {
        mc_camera_release(&mem);
        mc_scene_release(&s);
        return;
    }
    EXPECT_EQ_INT(sc->mNumCameras, 1);
    if (sc->mNumCameras == 1) /* assimp keeps the first frame's fov */
        EXPECT_NEAR(sc->mCameras[0]->mHorizontalFOV, 70.0 * 3.14159265358979323846 / 180.0,
                    1e-5);
    /* one animation per shot, each after the first starting just after a cut */
    EXPECT_EQ_INT(sc->mNumAnimations, NUM_CUTS + 1);
    for (unsigned a = 0; a < sc->mNumAnimations && a < NUM_CUTS + 1; a++) {
        const struct aiAnimation *an = sc->mAnimations[a];

        ASSERT(an->mNumChannels == 1);
        const struct aiNodeAnim *nd = an->mChannels[0];
        ASSERT(nd->mNumPositionKeys == nd->mNumRotationKeys && nd->mNumPositionKeys > 0);
        EXPECT_EQ_INT((int)nd->mPositionKeys[0].mTime, a == 0 ? 0 : expected_cuts[a - 1] + 1);
        for (unsigned k = 0; k < nd->mNumPositionKeys; k++) {
            int f = (int)nd->mPositionKeys[k].mTime;

            EXPECT_NEAR(nd->mRotationKeys[k].mTime, nd->mPositionKeys[k].mTime, 0.0);
            check_key(&mem, f, &nd->mPositionKeys[k], &nd->mRotationKeys[k]);
            if (f >= 0 && f < NUM_FRAMES)
                seen[f]++;
        }
    }
    /* every stored frame but the last (which assimp drops) once */
    for (int f = 0; f < NUM_FRAMES - 1; f++)
        EXPECT_EQ_INT(seen[f], 1);
    aiReleaseImport(sc);
    mc_camera_release(&mem);
    mc_scene_release(&s);
}
