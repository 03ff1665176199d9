/* Arena: bump allocation in chunks, freed in one call. */
#include "base/base.h"

#include <stdlib.h>
#include <string.h>

struct base_arena_chunk {
    struct base_arena_chunk *next;
    size_t cap;
    size_t used;
    _Alignas(16) unsigned char mem[];
};

void base_arena_init(struct base_arena *a, size_t chunk_bytes)
{
    a->head = NULL;
    a->chunk_bytes = chunk_bytes ? chunk_bytes : 64 * 1024;
    a->total_bytes = 0;
}

void base_arena_deinit(struct base_arena *a)
{
    struct base_arena_chunk *c = a->head;
    while (c) {
        struct base_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
    a->total_bytes = 0;
}

void *base_arena_alloc(struct base_arena *a, size_t n)
{
    size_t need = (n + 15) & ~(size_t)15;
    if (need < n) return NULL;
    struct base_arena_chunk *c = a->head;
    if (!c || c->cap - c->used < need) {
        size_t cap = need > a->chunk_bytes ? need : a->chunk_bytes;
        c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->cap = cap;
        c->used = 0;
        /* A big one-off allocation goes behind the current chunk so the
         * current chunk's free space stays usable. */
        if (a->head && need > a->chunk_bytes) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    void *p = c->mem + c->used;
    c->used += need;
    a->total_bytes += need;
    memset(p, 0, n);
    return p;
}

char *base_arena_strndup(struct base_arena *a, const char *s, size_t n)
{
    char *p = base_arena_alloc(a, n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *base_arena_strdup(struct base_arena *a, const char *s)
{
    return base_arena_strndup(a, s, strlen(s));
}

bool base_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2) return false;
        c *= 2;
    }
    if (elem && c > SIZE_MAX / elem) return false;
    void *q = realloc(*p, c * elem);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}
