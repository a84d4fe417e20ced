#include <md5cine/arena.h>

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct mc_arena_block {
    mc_arena_block *next;
    size_t cap;  /* bytes in data */
    size_t used; /* bytes handed out from data */
    alignas(max_align_t) unsigned char data[];
};

#define MIN_BLOCK ((size_t)64 * 1024)
#define ALIGN ((size_t)alignof(max_align_t))

void *mc_arena_alloc(mc_arena *a, size_t count, size_t size)
{
    mc_arena_block *b = a->head;
    size_t bytes, start;

    if (size && count > SIZE_MAX / size)
        return NULL;
    bytes = count * size;
    if (bytes > SIZE_MAX - 2 * ALIGN - sizeof(mc_arena_block))
        return NULL;
    bytes = (bytes + ALIGN - 1) & ~(ALIGN - 1);
    start = b ? b->used : 0;
    if (!b || b->cap - start < bytes) {
        size_t cap = bytes > MIN_BLOCK ? bytes : MIN_BLOCK;

        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->cap = cap;
        b->used = 0;
        b->next = a->head;
        a->head = b;
        a->reserved += sizeof *b + cap;
        start = 0;
    }
    b->used = start + bytes;
    a->used += bytes;
    memset(b->data + start, 0, bytes);
    return b->data + start;
}

char *mc_arena_strndup(mc_arena *a, const char *s, size_t len)
{
    char *p = mc_arena_alloc(a, len + 1, 1);

    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

void mc_arena_release(mc_arena *a)
{
    mc_arena_block *b = a->head;

    while (b) {
        mc_arena_block *next = b->next;

        free(b);
        b = next;
    }
    a->head = NULL;
    a->used = 0;
    a->reserved = 0;
}
