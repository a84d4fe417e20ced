/* libFuzzer target: the .md5scene parser on arbitrary bytes. Parse only: no file named in the
 * scene is opened. A successful parse must hand back a consistent scene. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <md5cine/scene.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mc_scene scene;
    mc_error err;

    if (mc_scene_parse((const char *)data, size, "fuzz/in.md5scene", NULL, &scene, &err) ==
        MC_OK) {
        if (!scene.camera_path || scene.num_actors < 0 || scene.num_actors > MC_SCENE_MAX_ACTORS)
            abort();
        for (int i = 0; i < scene.num_actors; i++) {
            if (!scene.actors[i].mesh_path || !(scene.actors[i].scale > 0.0f))
                abort();
        }
        mc_scene_release(&scene);
    } else if (err.line < 1 || err.col < 1) {
        abort(); /* every parse error has a position */
    }
    return 0;
}
