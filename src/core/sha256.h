/* SHA-256 (FIPS 180-4), private to the library: what the scene's identity (scene.h,
 * mc_chunk_scene_id) hashes with, so that the scene layer needs no FFmpeg for it.
 * Use: mc_sha256_init, any number of mc_sha256_update, then mc_sha256_final once. */
#ifndef MC_CORE_SHA256_H
#define MC_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct mc_sha256 {
    uint32_t h[8];       /* the hash value so far */
    uint64_t bytes;      /* message length so far */
    uint8_t block[64];   /* the partial block */
    size_t fill;         /* bytes in block, 0..63 */
} mc_sha256;

void mc_sha256_init(mc_sha256 *s);
void mc_sha256_update(mc_sha256 *s, const void *data, size_t len);
void mc_sha256_final(mc_sha256 *s, uint8_t digest[32]);

#endif
