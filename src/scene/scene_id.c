/* The scene's identity (scene.h, mc_chunk_scene_id): SHA-256 over the SHA-256 digests of the
 * files it names, in the order chunk.h's "Scene identity" gives. */
#include <stdio.h>
#include <stdlib.h>

#include <md5cine/fileio.h>
#include <md5cine/scene.h>
#include <md5cine/vfs.h>

#include "core/sha256.h"

/* Adds the SHA-256 digest of the file at path to sum: a file, or the place of a .pk4 entry
 * ("base/pak000.pk4:models/x.md5mesh", a model's mesh or anim read from the base). */
static mc_status hash_file(mc_sha256 *sum, const char *path, mc_error *err)
{
    mc_sha256 one;
    uint8_t digest[32];
    char *buf = NULL;
    size_t len = 0;
    mc_status st = mc_vfs_read_place(path, MC_MAX_FILE_BYTES, &buf, &len)
                           ? MC_OK
                           : mc_read_file(path, &buf, &len, err);

    if (st == MC_OK) {
        mc_sha256_init(&one);
        mc_sha256_update(&one, buf, len);
        mc_sha256_final(&one, digest);
        mc_sha256_update(sum, digest, sizeof digest);
    }
    free(buf);
    return st;
}

mc_status mc_chunk_scene_id(const mc_scene *scene, char out[MC_CHUNK_ID_LEN + 1], mc_error *err)
{
    mc_sha256 sum;
    uint8_t digest[32];
    mc_status st;

    out[0] = '\0';
    mc_sha256_init(&sum);
    st = hash_file(&sum, scene->name, err);
    if (st == MC_OK && scene->camera_path) /* a camera block is in the scene file's bytes */
        st = hash_file(&sum, scene->camera_path, err);
    for (int i = 0; st == MC_OK && i < scene->num_actors; i++) {
        const mc_scene_actor *a = &scene->actors[i];

        st = hash_file(&sum, a->mesh_path, err);
        if (st == MC_OK && a->anim_path)
            st = hash_file(&sum, a->anim_path, err);
        for (int m = 0; st == MC_OK && a->textures && m < a->mesh.num_meshes; m++)
            if (a->textures[m])
                st = hash_file(&sum, a->textures[m], err);
    }
    if (st != MC_OK)
        return st;
    mc_sha256_final(&sum, digest);
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", digest[i]);
    return MC_OK;
}
