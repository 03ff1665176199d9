/* Private to the StableHLO parser (graph/parser.c, graph/parse_*.c). */
#ifndef NPUSIM_GRAPH_PARSE_INTERNAL_H
#define NPUSIM_GRAPH_PARSE_INTERNAL_H

#include "graph/canon_internal.h"
#include "graph/graph.h"
#include "graph/lexer.h"

#include <string.h>

/* Open-addressing hash table keyed by (bytes, scope); 32-byte slots. */
struct ptab_slot {
    const char *key; /* NULL: empty; ptab_tomb: deleted */
    void *val;
    uint32_t len;
    uint32_t scope;
    uint32_t hash;
    uint32_t aux; /* value tables: result count; aliases: kind */
};

/* A definition in an open region (undone when the region closes). */
struct undo_entry {
    const char *key;
    const char *pos; /* where it was defined (diagnostics) */
    uint32_t len;
    uint32_t scope;
    uint32_t hash;
    int32_t num; /* >= 0: in the numeric-name array */
};

/* A numeric SSA name (%123) in an open scope. */
struct num_slot {
    struct graph_value *v; /* NULL: free */
    uint32_t scope;
    uint32_t count;
};

/* A named blob of the {-# dialect_resources #-} trailer. */
struct blob_entry {
    const char *name;
    size_t len;
    const char *text; /* the "0x..." string literal, quotes included */
    size_t text_len;
};
struct ptab {
    struct ptab_slot *slots;
    size_t cap;  /* power of two */
    size_t used; /* live + tombstones */
};

/* A growable array of fixed-size elements, used as a stack: nested constructs
 * push on top and pop back to their base, so parsing allocates only when a
 * stack grows (never per token). */
struct pstack {
    void *data;
    size_t n;
    size_t cap;
    size_t elem;
};

struct result_name {
    const char *name; /* arena string, NUL-terminated */
    const char *pos;
    int count;
    struct graph_loc *loc; /* a block argument's location, or NULL */
};

struct loc_fixup {
    struct graph_loc *loc;
    const char *alias; /* points into the source */
    size_t len;
    const char *pos;
};

/* An op location whose chain is formatted once every alias is known. */
struct loc_chain_fix {
    struct graph_loc *loc;
    const char *body; /* after "loc(" */
};

struct loc_alias {
    const char *body;  /* after "loc(" */
    int state;         /* 0 unresolved, 1 resolving, 2 resolved */
    const char *name;  /* resolved name (or NULL) */
};

struct pending_resource {
    struct graph_attr *attr;
    const char *pos;
};

struct parser {
    const char *src;
    const char *end;
    const char *cur;
    const char *path;
    struct graph_module *m;
    struct base_arena *arena;
    struct base_diag *diag;
    int max_nesting;
    int64_t max_elements;
    bool positions_from_locs;
    int depth;

    /* line/col cache (monotonic scanning) */
    const char *lc_pos;
    const char *lc_line_start;
    int lc_line;

    /* SSA names: key (name, isolated scope id) -> graph_value*; aux = result count */
    struct ptab values;
    struct num_slot *nums; /* numeric names, indexed by number */
    size_t nums_cap;
    uint32_t scope;
    uint32_t next_scope;
    struct pstack undo; /* struct undo_entry */

    struct ptab types;    /* tensor type text -> const struct graph_type * */
    struct ptab opnames;  /* op name -> kind + 1 */
    struct ptab aliases;  /* #name / !name -> attr / type / loc alias */
    struct loc_alias **loc_nums; /* #loc<N> location aliases, indexed by N */
    size_t loc_nums_cap;
    struct pstack chains;   /* struct loc_chain_fix */

    struct pstack ops;      /* struct graph_op * */
    struct pstack vals;     /* struct graph_value * (operands) */
    struct pstack nattrs;   /* struct graph_named_attr */
    struct pstack attrs;    /* const struct graph_attr * */
    struct pstack tys;      /* const struct graph_type * */
    struct pstack i64s;     /* int64_t */
    struct pstack f64s;     /* double */
    struct pstack regions;  /* struct graph_region */
    struct pstack rnames;   /* struct result_name */
    struct pstack argnames; /* struct result_name (block argument names) */
    struct pstack fixups;   /* struct loc_fixup */
    struct pstack resources;/* struct pending_resource */
    struct pstack tensors;  /* struct base_tensor * created (released on error) */
    struct pstack blobs;    /* struct blob_entry */

    char *scratch;          /* string unescape buffer */
    size_t scratch_cap;
};

/* ---- parser.c: core ---- */
enum base_status graph_perr(struct parser *p, const char *pos, const char *fmt, ...) BASE_PRINTF(3, 4);
enum base_status graph_perr_st(struct parser *p, const char *pos, enum base_status st, const char *fmt, ...)
    BASE_PRINTF(4, 5);
static inline enum base_status nomem(struct parser *p)
{
    return graph_perr_st(p, p->cur, BASE_ERR_NOMEM, "out of memory");
}
void graph_describe_at(const struct parser *p, const char *pos, char *buf, size_t cap);
void graph_pos_linecol(struct parser *p, const char *pos, int *line, int *col);

static inline void skip_ws(struct parser *p)
{
    const char *c = p->cur, *e = p->end;
    while (c < e && *c == ' ') c++;
    if (c < e && (*c == '\n' || *c == '\t' || *c == '\r' || *c == '/')) c = graph_lex_skip_ws(c, e);
    p->cur = c;
}
static inline bool at_char(struct parser *p, char c)
{
    skip_ws(p);
    return p->cur < p->end && *p->cur == c;
}
static inline bool accept_char(struct parser *p, char c)
{
    skip_ws(p);
    if (p->cur < p->end && *p->cur == c) {
        p->cur++;
        return true;
    }
    return false;
}
bool graph_accept_str(struct parser *p, const char *s);  /* punctuation like "->" */
bool graph_accept_kw(struct parser *p, const char *kw);  /* a whole bare identifier */
bool graph_peek_kw(struct parser *p, const char *kw);
enum base_status graph_expect_char_slow(struct parser *p, char c, const char *ctx);
static inline enum base_status expect_char(struct parser *p, char c, const char *ctx)
{
    if (accept_char(p, c)) return BASE_OK;
    return graph_expect_char_slow(p, c, ctx);
}
enum base_status graph_expect_str(struct parser *p, const char *s, const char *ctx);
enum base_status graph_expect_kw(struct parser *p, const char *kw, const char *ctx);
/* A bare identifier (not consumed when absent: *len = 0). */
const char *graph_take_bare_id(struct parser *p, size_t *len);
enum base_status graph_expect_bare_id(struct parser *p, const char **s, size_t *len, const char *ctx);
enum base_status graph_parse_string_lit(struct parser *p, const char **s, size_t *len); /* arena copy */
enum base_status graph_parse_int_lit(struct parser *p, int64_t *v, const char *ctx);    /* signed */
enum base_status graph_parse_symbol_name(struct parser *p, const char **s, size_t *len); /* after '@' */
enum base_status graph_enter_nesting(struct parser *p, const char *pos);
static inline void leave_nesting(struct parser *p) { p->depth--; }

void *graph_palloc(struct parser *p, size_t n);
char *graph_pstrndup(struct parser *p, const char *s, size_t n);

enum base_status graph_ps_push_slow(struct parser *p, struct pstack *s, const void *elem);
static inline enum base_status ps_push(struct parser *p, struct pstack *s, const void *elem)
{
    if (s->n < s->cap && s->elem == sizeof(void *)) {
        memcpy((char *)s->data + s->n * sizeof(void *), elem, sizeof(void *));
        s->n++;
        return BASE_OK;
    }
    return graph_ps_push_slow(p, s, elem);
}
static inline void *ps_at(struct pstack *s, size_t i)
{
    return s->data ? (char *)s->data + i * s->elem : NULL; /* NULL only while empty */
}
/* Copies s[base..n) into the arena and pops back to base. */
enum base_status graph_ps_take(struct parser *p, struct pstack *s, size_t base, void **out, int *n);

/* Values */
enum base_status graph_parse_value_use(struct parser *p, struct graph_value **out);
enum base_status graph_define_values(struct parser *p, const char *name, size_t len, const char *pos,
                               struct graph_value *first, int count);
struct graph_value *graph_lookup_value(struct parser *p, const char *name, size_t len, int *count);
size_t graph_scope_enter(struct parser *p, bool isolated, uint32_t *saved_scope);
void graph_scope_leave(struct parser *p, size_t undo_base, uint32_t saved_scope);
uint32_t graph_new_value_id(struct parser *p);

/* Aliases (#name = attr / loc(...), !name = type) */
enum { ALIAS_ATTR = 1, ALIAS_TYPE = 2, ALIAS_LOC = 3 };
const void *graph_lookup_alias(struct parser *p, const char *name, size_t len, int kind);
bool graph_is_alias_value(struct parser *p, const void *v);
enum graph_op_kind graph_lookup_op_kind(struct parser *p, const char *name, size_t len);
const struct graph_type *graph_type_cache_get(struct parser *p, const char *text, size_t len);
enum base_status graph_type_cache_put(struct parser *p, const char *text, size_t len, const struct graph_type *t);

/* Locations */
enum base_status graph_parse_opt_loc(struct parser *p, struct graph_loc *loc); /* NULL loc: discard */
/* The decimal float literal text[0..n) (at pos): too long, or past the
 * largest double, is an error. */
enum base_status graph_parse_f64_literal(struct parser *p, const char *text, size_t n, const char *pos, double *out);
/* A block argument's optional loc(...), kept (*out NULL when there is none). */
enum base_status graph_parse_arg_loc(struct parser *p, struct graph_loc **out);

/* Regions and ops */
struct region_args {
    int n;
    const char *const *names;     /* arena strings (may be NULL: unnamed) */
    const char *const *name_pos;
    const struct graph_type *const *types;
    struct graph_loc *const *locs; /* may be NULL */
};
enum base_status graph_parse_region(struct parser *p, struct graph_region *r, const struct region_args *args,
                              bool isolated);
enum base_status graph_parse_operation(struct parser *p, struct graph_block *parent);

/* Op under construction (custom and generic forms share the finish step). */
struct op_build {
    const char *pos;
    const char *name;
    enum graph_op_kind kind;
    size_t rn_base;     /* result names */
    size_t val_base;    /* operands */
    size_t nattr_base;  /* attributes */
    size_t reg_base;    /* regions */
    size_t ty_base;     /* result types */
    struct graph_loc loc;
    struct graph_op *op; /* set by graph_finish_op */
    struct graph_block *parent;
};
enum base_status graph_finish_op(struct parser *p, struct op_build *b);
int graph_build_n_operands(struct parser *p, const struct op_build *b);
int graph_build_n_results(struct parser *p, const struct op_build *b);
int graph_build_n_names(struct parser *p, const struct op_build *b);
struct graph_value *graph_build_operand(struct parser *p, const struct op_build *b, int i);
enum base_status graph_push_attr(struct parser *p, const char *name, const struct graph_attr *a);

/* ---- graph_parse_attr.c: types and attributes ---- */
enum base_status graph_parse_type(struct parser *p, const struct graph_type **out);
/* (T, ...) -> (R, ...) or -> R: pushes inputs then results on p->tys. */
enum base_status graph_parse_function_type(struct parser *p, int *n_in, int *n_out);
/* T, T, ... (at least one) onto p->tys. */
enum base_status graph_parse_type_list(struct parser *p);
/* What follows "->": (R, ...), () or one R, onto p->tys. */
enum base_status graph_parse_result_types(struct parser *p);
enum base_status graph_parse_attr(struct parser *p, const struct graph_attr **out);
enum base_status graph_parse_attr_dict(struct parser *p); /* '{' ... '}' onto p->nattrs */
enum base_status graph_parse_attr_dict_value(struct parser *p, const struct graph_attr **out);
const struct graph_type *graph_make_tensor_type(struct parser *p, enum base_dtype elem,
                                          const struct graph_quant *q, int rank, const int64_t *dims);
struct graph_attr *graph_new_attr(struct parser *p, enum graph_attr_kind kind);
const struct graph_attr *graph_attr_int(struct parser *p, int64_t v, enum base_dtype elem);
const struct graph_attr *graph_attr_bool(struct parser *p, bool v);
const struct graph_attr *graph_attr_string(struct parser *p, const char *s, size_t len);
const struct graph_attr *graph_attr_keyword(struct parser *p, const char *tag, const char *s, size_t len);
const struct graph_attr *graph_attr_dense_i64(struct parser *p, const int64_t *v, int n);
const struct graph_attr *graph_attr_elements_i64(struct parser *p, const int64_t *v, int rank, const int64_t *dims);
enum base_status graph_parse_float_attr_value(struct parser *p, enum base_dtype elem, const struct graph_attr **out);
/* Hands a literal tensor to the module (freed with it, or on a parse error). */
enum base_status graph_parse_track_tensor(struct parser *p, struct base_tensor *t);
/* Bodies after '<' (through the closing '>'): #sdy.sharding<...>, #sdy.mesh<...>. */
enum base_status graph_parse_sdy_sharding_body(struct parser *p, const struct graph_attr **out);
enum base_status graph_parse_sdy_mesh_body(struct parser *p, const struct graph_attr **out);
/* <lhs_precision_type = ..., ...> -> DICT tag stablehlo.dot_algorithm */
enum base_status graph_parse_dot_algorithm_body(struct parser *p, const struct graph_attr **out);
/* [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] -> DICT tag stablehlo.conv */
enum base_status graph_parse_conv_dims(struct parser *p, const struct graph_attr **out);
/* A float (or integer) literal with optional sign, as a double. */
enum base_status graph_parse_f64_lit(struct parser *p, double *out, const char *ctx);
/* A list of sdy axis names {"a", "b"} -> ARRAY of STRING */
enum base_status graph_parse_sdy_axis_set(struct parser *p, const struct graph_attr **out);
/* Attribute canonicalisation shared by generic and pretty forms. */
enum base_status graph_normalize_op_attrs(struct parser *p, struct op_build *b);

/* ---- parse_literal.c: dense literals ---- */
/* After the keyword: dense<...> : type, dense_resource<name> : type, array<T: ...>. */
enum base_status graph_parse_dense(struct parser *p, const struct graph_attr **out);
enum base_status graph_parse_dense_resource(struct parser *p, const struct graph_attr **out);
enum base_status graph_parse_dense_array(struct parser *p, const struct graph_attr **out);
/* A dense<...> literal whose type is given separately (check ops). */
enum base_status graph_parse_elements_attr(struct parser *p, const struct graph_attr **out);
/* Same, also accepting `dense<...>, tolerance = X : T` (pushes "tolerance"). */
enum base_status graph_parse_elements_attr_tol(struct parser *p, const struct graph_attr **out);
enum base_status graph_parse_dense_i64_list(struct parser *p, const struct graph_attr **out); /* [1, 2] */
/* Finish: fill dense_resource tensors from the trailer. */
enum base_status graph_parse_resource_trailer(struct parser *p);
enum base_status graph_resolve_resources(struct parser *p);

/* ---- parse_ops.c: custom (pretty) forms ---- */
enum base_status graph_parse_custom_op(struct parser *p, struct op_build *b);

#endif
