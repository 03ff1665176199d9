/* The op table: GRAPH_OPS expanded into names, categories and flags, and
 * the name -> kind lookup.
 *
 * The lookup filters by length and by the name's last character (both kept
 * in the table) before comparing bytes, so a miss costs ~170 integer compares
 * and a hit a handful of memcmp calls.  The parser keeps its own per-parse
 * cache on top of this. */
#include "graph/graph.h"

#include <string.h>

struct op_info {
    const char *name;
    unsigned char len;
    unsigned char last;
    unsigned char cat;
    unsigned flags;
};

#define OP_LAST(name) ((unsigned char)(name)[sizeof(name) - 2])
/* the flag the category implies */
#define OP_CAT_FLAGS(c)                                                                     \
    (GRAPH_CAT_##c == GRAPH_CAT_UNARY || GRAPH_CAT_##c == GRAPH_CAT_BINARY ||               \
             GRAPH_CAT_##c == GRAPH_CAT_TERNARY                                             \
         ? (unsigned)GRAPH_OPF_ELEMENTWISE                                                  \
         : 0u)
static const struct op_info op_table[] = {
#define X(e, name, cat, flags)                                                              \
    {name, (unsigned char)(sizeof(name) - 1), OP_LAST(name), GRAPH_CAT_##cat,               \
     (unsigned)(flags) | OP_CAT_FLAGS(cat)},
    GRAPH_OPS(X)
#undef X
};
#undef OP_CAT_FLAGS
#undef OP_LAST
_Static_assert(ARRAY_LEN(op_table) == GRAPH_OP_COUNT, "op table out of sync with GRAPH_OPS");

const char *graph_op_kind_name(enum graph_op_kind k)
{
    if ((unsigned)k >= GRAPH_OP_COUNT) return "<invalid>";
    return op_table[k].name;
}

enum graph_op_cat graph_op_kind_cat(enum graph_op_kind k)
{
    if ((unsigned)k >= GRAPH_OP_COUNT) return GRAPH_CAT_MISC;
    return (enum graph_op_cat)op_table[k].cat;
}

unsigned graph_op_kind_flags(enum graph_op_kind k)
{
    if ((unsigned)k >= GRAPH_OP_COUNT) return 0;
    return op_table[k].flags;
}

enum graph_op_kind graph_op_kind_from_name(const char *name, size_t len)
{
    if (!name || len == 0 || len > 255) return GRAPH_OP_UNKNOWN;
    /* Shardy's constant (one the sharding propagation must not merge with
     * another) is a stablehlo.constant in every other respect; sdy's own
     * export pass turns it into one */
    if (len == 12 && !memcmp(name, "sdy.constant", 12)) return GRAPH_OP_CONSTANT;
    unsigned char last = (unsigned char)name[len - 1];
    /* entry 0 is the UNKNOWN placeholder */
    for (int k = 1; k < GRAPH_OP_COUNT; k++) {
        const struct op_info *e = &op_table[k];
        if (e->len == len && e->last == last && memcmp(e->name, name, len) == 0)
            return (enum graph_op_kind)k;
    }
    return GRAPH_OP_UNKNOWN;
}
