/* Private to graph/: the MLIR bytecode reader (bytecode.c) and the VHLO
 * dialect's half of it (bytecode_vhlo.c: its attribute and type encodings,
 * its ops and their legalization to StableHLO).  The reader decodes the
 * container into attribute and type trees and walks the IR, writing the
 * module as StableHLO generic text, which graph_parse then reads. */
#ifndef NPUSIM_GRAPH_BYTECODE_INTERNAL_H
#define NPUSIM_GRAPH_BYTECODE_INTERNAL_H

#include "graph/graph.h"
#include "graph/print_internal.h"

#define GRAPH_BC_MAGIC "ML\xefR"

/* Reads the module in data (bytecode) and parses it (graph_parse calls this
 * when the input starts with the magic). */
enum base_status graph_bytecode_parse(const void *data, size_t len, const struct graph_parse_options *opt,
                                      struct graph_module **out, struct base_diag *diag);

/* ------------------------------------------------------------------------ */
/* The byte reader                                                           */

struct bc_ctx;

struct bc_rd {
    const uint8_t *p, *end;
    const char *sect; /* "IR", "AttrType", ... for messages */
};

/* ------------------------------------------------------------------------ */
/* Types                                                                     */

enum bc_tkind {
    BCT_SCALAR,   /* name: "f32", "i1", "ui8", "index", "none", "tf32", ... */
    BCT_COMPLEX,  /* elem */
    BCT_TENSOR,   /* rank, dims, elem, encoding (or NULL) */
    BCT_UNRANKED, /* elem */
    BCT_BUFFER,   /* memref: rank, dims, elem */
    BCT_TUPLE,    /* n, items */
    BCT_FUNC,     /* n inputs then n2 results in items */
    BCT_TOKEN,
    BCT_FUTURE, /* n, items */
    BCT_QUANT,  /* !quant.uniform: per-tensor (quant_dim < 0) or per-axis */
    BCT_TEXT,   /* textual fallback, verbatim */
};

struct bc_attr;

struct bc_type {
    enum bc_tkind kind;
    const char *name;     /* SCALAR: MLIR spelling; TEXT: the text */
    int dtype;            /* SCALAR: enum base_dtype, or -1 when npusim has none */
    int storage_bits;     /* SCALAR: bits per element in a dense blob (1 for i1, 8 for i4, ...) */
    const struct bc_type *elem;
    int64_t rank;
    const int64_t *dims;  /* INT64_MIN: dynamic */
    const struct bc_attr *encoding;
    int64_t n, n2;
    const struct bc_type *const *items;
    /* QUANT */
    bool q_signed;
    const struct bc_type *q_storage, *q_expressed;
    int64_t q_min, q_max, q_dim; /* q_dim -1: per-tensor */
    int64_t q_n;
    const double *q_scales;
    const int64_t *q_zps;
};

/* ------------------------------------------------------------------------ */
/* Attributes                                                                */

enum bc_enum {
    BCE_CMP_DIR,
    BCE_CMP_TYPE,
    BCE_API_VERSION,
    BCE_FFT,
    BCE_PRECISION,
    BCE_RNG_ALG,
    BCE_RNG_DIST,
    BCE_TRANSPOSE,
    BCE_ACCURACY_MODE,
};

enum bc_akind {
    BCA_TEXT,        /* textual fallback, verbatim (s) */
    BCA_ARRAY,       /* items[n] */
    BCA_DICT,        /* items[2n]: name, value */
    BCA_STRING,      /* s, len; type (StringAttr with a type) or NULL */
    BCA_BOOL,        /* b */
    BCA_INT,         /* type, i (two's complement in 64 bits) */
    BCA_FLOAT,       /* type, bits */
    BCA_ENUM,        /* en, i */
    BCA_TYPE,        /* type */
    BCA_TENSOR,      /* type, data/len (blob as stored; i1 unpacked to bytes) */
    BCA_DENSE_ARRAY, /* type (element), n, data */
    BCA_STRINGS,     /* dense<["a", ...]>: type, n, items (STRING) */
    BCA_RESOURCE,    /* dense_resource: type, i (resource index) */
    BCA_SYMREF,      /* s (root), items[n] nested FLAT symbols */
    BCA_UNIT,
    BCA_DISTINCT,    /* items[0] */
    BCA_ALIAS,       /* output_operand_alias: ints: [n] out tuple, i operand, [n2] operand tuple */
    BCA_BOUNDS,      /* type extensions: ints[n] */
    BCA_ACCURACY,    /* result accuracy: f (atol), f2 (rtol), i (ulps), items[0] mode */
    BCA_SUBAXIS,     /* i pre, i2 size */
    BCA_AXISREF,     /* items[0] name, items[1] sub-axis or NULL */
    BCA_MESHAXIS,    /* items[0] name, i size */
    BCA_MESH,        /* items[0] axes, items[1] device ids or NULL */
    BCA_RG_MESH,     /* replica group mesh axes: items[0] mesh, items[1] axes */
    /* locations */
    BCA_LOC_UNKNOWN,
    BCA_LOC_FILE,     /* s/len file, i line, i2 col */
    BCA_LOC_NAME,     /* s/len name, items[0] child */
    BCA_LOC_CALLSITE, /* items[0] callee, items[1] caller */
    BCA_LOC_FUSED,    /* items[n]; meta (or NULL) */
};

struct bc_attr {
    enum bc_akind kind;
    bool vhlo; /* from the VHLO dialect (names of its dictionaries are attributes) */
    bool b;
    enum bc_enum en;
    const char *s;
    size_t len;
    int64_t i, i2;
    uint64_t bits;
    double f, f2;
    const struct bc_type *type;
    const uint8_t *data;
    size_t data_len;
    int64_t n, n2;
    const struct bc_attr *const *items;
    const int64_t *ints;
    const struct bc_attr *meta;
    const char *inner; /* TEXT from sdy: the stripped spelling (<@mesh, [...]>) */
};

/* ------------------------------------------------------------------------ */
/* The context                                                               */

struct bc_span {
    const uint8_t *p;
    size_t len;
};

struct bc_entry {
    struct bc_span data;
    uint32_t dialect;
    bool custom;
    uint8_t state; /* 0 not read, 1 reading, 2 done */
    const void *val;
    const char *text; /* types: printed form, memoized */
};

struct bc_opname {
    uint32_t dialect;
    struct bc_span name;
    int registered; /* -1: not recorded (bytecode < 5) */
    char *full;     /* "dialect.name" */
    int vhlo_op;    /* index into the VHLO op table, or -1 */
};

struct bc_resource {
    struct bc_span key;
    uint8_t kind; /* 0 blob, 1 bool, 2 string */
    struct bc_span data;
    uint64_t align;
};

struct bc_ctx {
    const uint8_t *base;
    size_t size;
    const char *path;
    struct base_diag *diag;
    uint64_t version;
    struct bc_span producer;
    int vhlo_version[3]; /* StableHLO_vX.Y.Z of the producer, or -1s */
    struct bc_span strings_sec;
    uint64_t n_strings;
    struct bc_span *strings;
    uint64_t n_dialects;
    struct bc_span *dialects;
    uint64_t n_opnames;
    struct bc_opname *opnames;
    uint64_t n_attrs, n_types;
    struct bc_entry *attrs, *types;
    uint64_t n_resources;
    struct bc_resource *resources;
    struct bc_span props;
    uint64_t n_props;
    size_t *prop_off;
    int depth;        /* attribute/type decoding nesting */
    int region_depth; /* region nesting */
    int print_depth;  /* attribute/type printing nesting */
    uint64_t budget;  /* attribute/type prints left: shared subtrees cannot blow up the text */
    bool too_big;     /* set when the budget or the printing depth ran out */
    struct base_arena arena;
    struct sbuf out;
    /* value scopes */
    struct bc_slot *slots;
    size_t n_slots, cap_slots;
    uint32_t region_serial;
    uint32_t block_serial;
    /* text line -> op byte offset, for errors found by the text parser */
    size_t *line_off;
    size_t n_lines, cap_lines;
    size_t text_line; /* current line of out (1-based) */
};

struct bc_slot {
    uint32_t gen;
    int64_t type;  /* type index, -1 until defined */
    int64_t alias; /* the slot this one stands for (a folded cast), or -1 */
};

/* Reader primitives: each failure sets a located diag (byte offset, section). */
enum base_status graph_bc_fail(struct bc_ctx *c, const struct bc_rd *r, enum base_status st, const char *fmt, ...)
    BASE_PRINTF(4, 5);
enum base_status graph_bc_byte(struct bc_ctx *c, struct bc_rd *r, uint8_t *out);
enum base_status graph_bc_varint(struct bc_ctx *c, struct bc_rd *r, uint64_t *out);
enum base_status graph_bc_svarint(struct bc_ctx *c, struct bc_rd *r, int64_t *out);
enum base_status graph_bc_count(struct bc_ctx *c, struct bc_rd *r, size_t elem_min_bytes, uint64_t *out);
enum base_status graph_bc_string(struct bc_ctx *c, struct bc_rd *r, struct bc_span *out);
enum base_status graph_bc_blob(struct bc_ctx *c, struct bc_rd *r, struct bc_span *out);
enum base_status graph_bc_attr_at(struct bc_ctx *c, const struct bc_rd *at, uint64_t idx, const struct bc_attr **out);
enum base_status graph_bc_attr_ref(struct bc_ctx *c, struct bc_rd *r, const struct bc_attr **out);
enum base_status graph_bc_type_ref(struct bc_ctx *c, struct bc_rd *r, const struct bc_type **out);
/* A count, then that many type references (an array in the context's arena). */
enum base_status graph_bc_type_list(struct bc_ctx *c, struct bc_rd *r, int64_t *n, const struct bc_type ***out);
void *graph_bc_alloc(struct bc_ctx *c, size_t n);
enum base_status graph_bc_nomem(struct bc_ctx *c);
/* An APInt of a known width: 1 byte up to 8 bits, a signed varint up to 64. */
enum base_status graph_bc_apint(struct bc_ctx *c, struct bc_rd *r, int bits, uint64_t *out);
struct bc_type *graph_bc_scalar(struct bc_ctx *c, const char *name);

/* The VHLO dialect's encodings. */
enum base_status graph_bc_vhlo_attr(struct bc_ctx *c, struct bc_rd *r, const struct bc_attr **out);
enum base_status graph_bc_vhlo_type(struct bc_ctx *c, struct bc_rd *r, const struct bc_type **out);
/* The sdy (Shardy) dialect's attribute encodings, decoded to their spelling. */
enum base_status graph_bc_sdy_attr(struct bc_ctx *c, struct bc_rd *r, const struct bc_attr **out);
/* The chlo dialect's two encoded attributes (comparison direction and type). */
enum base_status graph_bc_chlo_attr(struct bc_ctx *c, struct bc_rd *r, const struct bc_attr **out);

/* Printing (StableHLO spellings). */
void graph_bc_print_type(struct bc_ctx *c, const struct bc_type *t);
const char *graph_bc_type_text(struct bc_ctx *c, int64_t index);
void graph_bc_print_attr(struct bc_ctx *c, const struct bc_attr *a);
void graph_bc_print_tensor(struct bc_ctx *c, const struct bc_attr *a);
void graph_bc_print_dense_array(struct bc_ctx *c, const struct bc_attr *a, const char *elem);
/* The elements of an integer tensor attribute (splat expanded, at most
 * GRAPH_BC_MAX_CONVERT of them): false when it is not one. */
#define GRAPH_BC_MAX_CONVERT (INT64_C(1) << 24)
bool graph_bc_tensor_i64s(const struct bc_attr *a, int64_t *out, int64_t cap, int64_t *n);
/* Counts one print against the budget and the depth; false: stop printing. */
bool graph_bc_print_enter(struct bc_ctx *c);
void graph_bc_print_leave(struct bc_ctx *c);

/* VHLO ops. */
struct bc_named {
    const char *name;
    const struct bc_attr *value;
};
int graph_bc_vhlo_op_find(const char *name, size_t len);
int graph_bc_vhlo_op_count(void);
/* The inherent attributes of a VHLO op, sorted by name (their order in the
 * properties encoding): count and names. */
int graph_bc_vhlo_op_props(int op, const char *const **names);
const char *graph_bc_vhlo_op_vname(int op);
/* An attribute of a legalized op: its text, or an attribute printed when
 * the op is written (so large tensors are printed once, in place), or unit. */
struct bc_out_attr {
    const char *name;
    const char *text;
    const struct bc_attr *attr;
};
/* A VHLO op's StableHLO counterpart: its name and attributes (sorted). */
enum base_status graph_bc_vhlo_legalize(struct bc_ctx *c, const struct bc_rd *at, int op, bool in_func,
                                        struct bc_named *attrs, int n_attrs, const char **name_out,
                                        struct bc_out_attr **out, int *n_out);
/* Writes " {name = value, ...}" (nothing when n is 0). */
void graph_bc_print_out_attrs(struct bc_ctx *c, const struct bc_out_attr *attrs, int n);
/* Writes " {attrs}" for a legalized op (or nothing when empty). */
void graph_bc_print_dict_attrs(struct bc_ctx *c, struct bc_named *attrs, int n);

#endif
