/* libFuzzer target: a base folder as a whole. The bytes are written as base/pak000.pk4 of a
 * scratch folder; the folder is opened (vfs.h), its declaration files indexed, and every
 * declared material resolved -- parsed, its images read through the archive and decoded, its
 * image programs run -- under a small image budget; the sound shaders and entityDefs named a,
 * b, c and d (the seeds' names) are looked up, entityDefs merged through their inherits.
 * Whatever the bytes: no crash, a failure is a sane error, a resolved material's maps have sane
 * sizes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <md5cine/entitydef.h>
#include <md5cine/material.h>
#include <md5cine/sndshd.h>
#include <md5cine/vfs.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_map(const mc_material_map *m)
{
    if (!m->present)
        return;
    FUZZ_REQUIRE(m->image.pixels && m->image.width >= 1 && m->image.height >= 1);
    FUZZ_REQUIRE(m->image.width <= MC_LIMIT_IMAGE_SIDE && m->image.height <= MC_LIMIT_IMAGE_SIDE);
    FUZZ_REQUIRE(m->program && m->sources);
}

/* The sound shader and entityDef of each seed name: found or not, or a sane error. */
static void look_up_sounds(mc_material_set *set)
{
    static const char *const names[] = { "a", "b", "c", "d" };

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const mc_sndshd *sh;
        const mc_entitydef *d;
        mc_status st;
        mc_error err;

        sh = mc_material_set_sound(set, names[i], &st, &err);
        FUZZ_REQUIRE(sh ? st == MC_OK : st == MC_OK || (err.code == st && err.msg[0]));
        FUZZ_REQUIRE(!sh || (sh->num_entries <= MC_SOUND_MAX_ENTRIES &&
                             (!sh->defaulted || sh->num_entries == 0)));
        d = mc_material_set_entitydef(set, names[i], &st, &err);
        FUZZ_REQUIRE(d ? st == MC_OK : st == MC_OK || (err.code == st && err.msg[0]));
        FUZZ_REQUIRE(!d || (d->merged && d->num_pairs >= 1 &&
                            mc_entitydef_find(d, "classname") != NULL));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[] = "/tmp/md5cine_fuzz_vfs_XXXXXX", path[64];
    mc_parse_opts opts = { .image_pixels = 1 << 16 };
    mc_vfs *v = NULL;
    mc_material_set *set = NULL;
    mc_error err;
    FILE *f;

    if (!mkdtemp(dir))
        return 0;
    snprintf(path, sizeof path, "%s/pak000.pk4", dir);
    f = fopen(path, "wb");
    if (f && fwrite(data, 1, size, f) == size && fclose(f) == 0 &&
        mc_vfs_open(dir, &v, &err) == MC_OK && mc_material_set_load(v, &opts, &set, &err) == MC_OK) {
        for (int i = 0; i < mc_material_set_count(set) && i < 64; i++) {
            mc_status st;
            const mc_material *m = mc_material_set_find(set, mc_material_set_name(set, i), &st,
                                                        &err);

            FUZZ_REQUIRE((m != NULL) == (st == MC_OK));
            if (!m) {
                FUZZ_REQUIRE(err.code == st && err.msg[0]);
                continue;
            }
            check_map(&m->diffuse);
            check_map(&m->normal);
            check_map(&m->specular);
            for (int k = 0; k < m->num_layers; k++)
                check_map(&m->layers[k].map);
        }
        look_up_sounds(set);
    } else if (f == NULL) {
        rmdir(dir);
        return 0;
    }
    mc_material_set_destroy(set);
    mc_vfs_destroy(v);
    unlink(path);
    rmdir(dir);
    return 0;
}
