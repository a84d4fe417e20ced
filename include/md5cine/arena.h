/* A bump allocator: one per loaded file, freed in one step. Every pointer inside a parsed
 * md5mesh/md5anim/md5camera/scene lives in its arena. */
#ifndef MC_ARENA_H
#define MC_ARENA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mc_arena_block mc_arena_block;

typedef struct mc_arena {
    mc_arena_block *head; /* newest block first; NULL when empty */
    size_t used;          /* bytes handed out, for memory reports */
    size_t reserved;      /* bytes obtained from malloc */
} mc_arena;

/* Zeroed memory for count objects of size bytes, aligned for any type, or NULL when out of
 * memory or when count * size overflows. */
void *mc_arena_alloc(mc_arena *a, size_t count, size_t size);

/* A NUL-terminated copy of s[0..len), or NULL when out of memory. */
char *mc_arena_strndup(mc_arena *a, const char *s, size_t len);

/* Frees every block; the arena is empty (and reusable) afterwards. */
void mc_arena_release(mc_arena *a);

#ifdef __cplusplus
}
#endif

#endif
