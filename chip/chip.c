/* Chip description files (chips/NAME.chip): the parser, the loader and the
 * derived figures.  The format is documented in docs/chips.md; in short:
 *
 *   # comment
 *   [chip]                  sections; [engine NAME] once per engine (or group)
 *   key = value             # [S6] tpu.md §1      <- source of every number
 *   key = value             # EST: how it was derived
 *
 * Values are integers, floats (digits may be grouped with '_'), true/false,
 * identifiers (tpu-v5e, torus3d), "quoted strings" and [lists, of, names].
 * Every error is located (file:line:col) and names the key and the rule.
 * The parser never trusts its input: it is fed truncated and mutated files by
 * tests/sim/test_chip.c.
 */
/* dladdr: where the library itself was loaded from (an installed libnpusim.so) */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "chip/chip_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Names                                                                     */

const char *chip_topology_name(enum chip_topology t)
{
    static const char *const names[] = {
#define X(e, name) name,
        CHIP_TOPOLOGIES(X)
#undef X
    };
    _Static_assert(ARRAY_LEN(names) == CHIP_TOPO_COUNT, "topology names");
    return (unsigned)t < CHIP_TOPO_COUNT ? names[t] : "?";
}

const char *chip_family_name(enum chip_family f)
{
    return f == CHIP_FAMILY_TPU ? "tpu" : f == CHIP_FAMILY_GPU ? "gpu" : "neuron";
}

const char *chip_rate_class_name(enum chip_rate_class rc)
{
    static const char *const names[] = {"fp32", "bf16", "fp8", "int8"};
    _Static_assert(ARRAY_LEN(names) == CHIP_RATE_COUNT, "rate class names");
    return (unsigned)rc < CHIP_RATE_COUNT ? names[rc] : "?";
}

static const char *const kind_names[] = {
#define X(e, name) name,
    ISA_ENGINE_KINDS(X)
#undef X
};
_Static_assert(ARRAY_LEN(kind_names) == ISA_ENGINE_KIND_COUNT, "engine kind names");

/* Engine kinds per family: TPU cores have MXUs, the VPU (which also runs
 * activations) and DMA queues; NeuronCores add the Scalar (act) and GpSimd
 * (pool) engines.  Bit i = 1u << enum isa_engine_kind. */
#define KB(k) (1u << ISA_ENGINE_##k)
static const unsigned family_kinds[] = {
    [CHIP_FAMILY_TPU] = KB(SYSTOLIC) | KB(VECTOR) | KB(DMA),
    [CHIP_FAMILY_NEURON] = KB(SYSTOLIC) | KB(VECTOR) | KB(SCALAR) | KB(GPSIMD) | KB(DMA),
    /* GPU SMs: tensor cores (systolic), CUDA cores and SFUs (vector), loads and stores (DMA) */
    [CHIP_FAMILY_GPU] = KB(SYSTOLIC) | KB(VECTOR) | KB(DMA),
};

/* The bundled chips, in the order `npusim chips` lists them. */
static const char *const bundled[] = {"tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu-7x", "trn1", "inf2",
                                      "trn2",   "trn3",    "a100",    "h100",    "h200",   "b200"};

int chip_list(const char ***names)
{
    /* the API hands out a non-const pointer type; the strings are never written */
    *names = (const char **)bundled;
    return (int)ARRAY_LEN(bundled);
}

enum chip_rate_class chip_rate_class_of(enum base_dtype dt)
{
    if ((unsigned)dt >= BASE_DT_COUNT) return CHIP_RATE_FP32;
    int bits = base_dtype_bits(dt);
    switch (base_dtype_kind(dt)) {
    case BASE_KIND_FLOAT:
        if (bits == 16) return CHIP_RATE_BF16; /* bf16 and f16 share the 16-bit path */
        return bits <= 8 ? CHIP_RATE_FP8 : CHIP_RATE_FP32;
    case BASE_KIND_BOOL:
        /* a predicate is produced and consumed at the engines' full-width
         * rate (docs/timing.md section 5), not as packed 8-bit data */
        return CHIP_RATE_FP32;
    case BASE_KIND_SINT:
    case BASE_KIND_UINT:
        return bits <= 8 ? CHIP_RATE_INT8 : CHIP_RATE_FP32;
    case BASE_KIND_COMPLEX:
        break;
    }
    return CHIP_RATE_FP32;
}

/* ------------------------------------------------------------------------ */
/* The format: sections and keys                                             */

/* X(ENUM, "name", required) */
#define CHIP_SECTIONS(X)             \
    X(CHIP, "chip", 1)               \
    X(ENGINE, "engine", 1)           \
    X(SCRATCHPAD, "scratchpad", 1)   \
    X(ACCUMULATOR, "accumulator", 1) \
    X(HBM, "hbm", 1)                 \
    X(LINKS, "links", 0)             \
    X(HOST, "host", 0)               \
    X(NUMERICS, "numerics", 1)       \
    X(COST, "cost", 0)               \
    X(PUBLISHED, "published", 0)

enum section {
#define X(e, name, req) SEC_##e,
    CHIP_SECTIONS(X)
#undef X
    SEC_COUNT,
    SEC_NONE = SEC_COUNT
};
static const char *const section_names[] = {
#define X(e, name, req) name,
    CHIP_SECTIONS(X)
#undef X
};
static const bool section_required[] = {
#define X(e, name, req) req,
    CHIP_SECTIONS(X)
#undef X
};
_Static_assert(ARRAY_LEN(section_names) == SEC_COUNT, "section names");
_Static_assert(ARRAY_LEN(section_required) == SEC_COUNT, "section flags");

/* How a value is read and stored. */
enum vkind {
    V_U32,      /* integer >= 0 -> uint32_t */
    V_U64,      /* integer >= 0 -> uint64_t */
    V_F64,      /* number >= 0 -> double */
    V_NS_PS,    /* nanoseconds (number >= 0) -> uint64_t picoseconds */
    V_BOOL,     /* true / false */
    V_NAME,     /* identifier or "string" -> char[CHIP_NAME_MAX] */
    V_FAMILY,   /* tpu | neuron | gpu */
    V_KIND,     /* pe | vec | act | pool | dma */
    V_TOPOLOGY, /* none | ring | torus2d | torus3d | switch */
    V_DTYPES,   /* [bf16, f8E4M3FN, ...] -> matmul_supports[] */
    V_COUNT,    /* engine group size (not stored in the description) */
    V_PRICE,    /* double; the source comment also sets price_is_estimate */
};

enum {
    K_REQ = 1 << 0, /* required (in an engine section: for the kinds in req_kinds) */
    K_POS = 1 << 1, /* must be > 0 */
    K_SRC = 1 << 2, /* the line must end in a source comment */
};

#define E_PE KB(SYSTOLIC)
#define E_CMP (KB(VECTOR) | KB(SCALAR) | KB(GPSIMD))
#define E_DMA KB(DMA)
#define E_ALL (E_PE | E_CMP | E_DMA)

struct key_def {
    enum section sec;
    const char *name;
    enum vkind kind;
    size_t off;         /* into the section's object (see section_object) */
    unsigned flags;
    unsigned kinds;     /* engine keys: kinds the key applies to */
    unsigned req_kinds; /* engine keys: kinds that must give it */
    const char *what;   /* for messages: "a bandwidth" */
    double max;         /* largest value accepted (0: the type's range) */
};

#define OC(f) offsetof(struct chip_desc, f)
#define OE(f) offsetof(struct chip_engine_desc, f)
#define OS(f) offsetof(struct chip_sram_desc, f)
#define OH(f) offsetof(struct chip_hbm_desc, f)
#define OL(f) offsetof(struct chip_link_desc, f)
#define OHO(f) offsetof(struct chip_host_desc, f)
#define SRQ (K_SRC | K_REQ)
#define SRP (K_SRC | K_REQ | K_POS)

/* The smallest positive rate, clock (GHz) or bandwidth (bytes/ns) a chip
 * file may give: 1 MHz, a thousandth of a row or element per cycle. */
#define CHIP_MIN_POSITIVE 1e-3

static const struct key_def keys[] = {
    /* [chip] */
    {SEC_CHIP, "name", V_NAME, OC(name), K_REQ, 0, 0, "a name", 0},
    {SEC_CHIP, "family", V_FAMILY, 0, K_REQ, 0, 0, "a family", 0},
    {SEC_CHIP, "cores", V_U32, OC(cores), SRP, 0, 0, "a count", CHIP_MAX_CORES},
    {SEC_CHIP, "sms", V_U32, OC(sms), K_SRC | K_POS, 0, 0, "a count", 1 << 16},
    {SEC_CHIP, "ranks_per_chip", V_U32, OC(ranks_per_chip), K_SRC | K_POS, 0, 0, "a count", CHIP_MAX_CORES},
    /* [engine NAME] */
    {SEC_ENGINE, "kind", V_KIND, OE(kind), K_REQ, E_ALL, E_ALL, "an engine kind", 0},
    {SEC_ENGINE, "count", V_COUNT, 0, K_SRC | K_POS, E_ALL, 0, "a count", CHIP_MAX_ENGINES},
    {SEC_ENGINE, "clock_ghz", V_F64, OE(clock_ghz), SRP, E_ALL, E_PE | E_CMP, "a clock", 100},
    {SEC_ENGINE, "dispatch_cycles", V_U32, OE(dispatch_cycles), SRQ, E_ALL, E_PE | E_CMP, "a cycle count", 1e6},
    {SEC_ENGINE, "rows", V_U32, OE(rows), SRP, E_PE, E_PE, "an array size", 4096},
    {SEC_ENGINE, "cols", V_U32, OE(cols), SRP, E_PE, E_PE, "an array size", 4096},
    {SEC_ENGINE, "preload", V_BOOL, OE(preload), SRQ, E_PE, E_PE, "a flag", 0},
    {SEC_ENGINE, "load_rows_per_cycle", V_U32, OE(load_rows_per_cycle), SRP, E_PE, E_PE, "a rate", 4096},
    {SEC_ENGINE, "min_stream_cycles", V_U32, OE(min_stream_cycles), SRQ, E_PE, E_PE, "a cycle count", 1e6},
    {SEC_ENGINE, "rows_per_cycle_fp32", V_F64, OE(rows_per_cycle[CHIP_RATE_FP32]), K_SRC, E_PE, 0, "a rate", 64},
    {SEC_ENGINE, "rows_per_cycle_bf16", V_F64, OE(rows_per_cycle[CHIP_RATE_BF16]), SRP, E_PE, E_PE, "a rate", 64},
    {SEC_ENGINE, "rows_per_cycle_fp8", V_F64, OE(rows_per_cycle[CHIP_RATE_FP8]), K_SRC, E_PE, 0, "a rate", 64},
    {SEC_ENGINE, "rows_per_cycle_int8", V_F64, OE(rows_per_cycle[CHIP_RATE_INT8]), K_SRC, E_PE, 0, "a rate", 64},
    {SEC_ENGINE, "lanes", V_U32, OE(lanes), SRP, E_CMP, E_CMP, "a lane count", ISA_MAX_PARTITIONS},
    {SEC_ENGINE, "elems_per_cycle_fp32", V_F64, OE(elems_per_cycle[CHIP_RATE_FP32]), SRP, E_CMP, E_CMP, "a rate", 1e4},
    {SEC_ENGINE, "elems_per_cycle_bf16", V_F64, OE(elems_per_cycle[CHIP_RATE_BF16]), SRP, E_CMP, E_CMP, "a rate", 1e4},
    {SEC_ENGINE, "elems_per_cycle_fp8", V_F64, OE(elems_per_cycle[CHIP_RATE_FP8]), SRP, E_CMP, E_CMP, "a rate", 1e4},
    {SEC_ENGINE, "elems_per_cycle_int8", V_F64, OE(elems_per_cycle[CHIP_RATE_INT8]), SRP, E_CMP, E_CMP, "a rate", 1e4},
    {SEC_ENGINE, "elems_per_cycle_2in_fp32", V_F64, OE(elems_per_cycle_2in[CHIP_RATE_FP32]), K_SRC, E_CMP, 0, "a rate", 1e4},
    {SEC_ENGINE, "elems_per_cycle_2in_bf16", V_F64, OE(elems_per_cycle_2in[CHIP_RATE_BF16]), K_SRC, E_CMP, 0, "a rate", 1e4},
    {SEC_ENGINE, "elems_per_cycle_2in_fp8", V_F64, OE(elems_per_cycle_2in[CHIP_RATE_FP8]), K_SRC, E_CMP, 0, "a rate", 1e4},
    {SEC_ENGINE, "elems_per_cycle_2in_int8", V_F64, OE(elems_per_cycle_2in[CHIP_RATE_INT8]), K_SRC, E_CMP, 0, "a rate", 1e4},
    {SEC_ENGINE, "transcendental_cost", V_F64, OE(transcendental_cost), SRP, E_CMP, E_CMP, "a cost factor", 1e4},
    {SEC_ENGINE, "bytes_per_ns", V_F64, OE(bytes_per_ns), SRP, E_DMA, E_DMA, "a bandwidth", 1e6},
    {SEC_ENGINE, "fixed_ns", V_NS_PS, OE(fixed_ps), SRQ, E_DMA, E_DMA, "a time", 1e9},
    /* [scratchpad] and [accumulator] */
    {SEC_SCRATCHPAD, "partitions", V_U32, OS(partitions), SRP, 0, 0, "a count", ISA_MAX_PARTITIONS},
    {SEC_SCRATCHPAD, "bytes_per_partition", V_U64, OS(bytes_per_partition), SRP, 0, 0, "a size", 1ull << 40},
    {SEC_SCRATCHPAD, "banks", V_U32, OS(banks), K_SRC | K_POS, 0, 0, "a count", 1024},
    {SEC_SCRATCHPAD, "bytes_per_cycle", V_F64, OS(bytes_per_cycle), SRP, 0, 0, "a bandwidth", 1e6},
    {SEC_ACCUMULATOR, "partitions", V_U32, OS(partitions), SRP, 0, 0, "a count", ISA_MAX_PARTITIONS},
    {SEC_ACCUMULATOR, "bytes_per_partition", V_U64, OS(bytes_per_partition), SRP, 0, 0, "a size", 1ull << 40},
    {SEC_ACCUMULATOR, "banks", V_U32, OS(banks), SRP, 0, 0, "a count", 1024},
    {SEC_ACCUMULATOR, "bytes_per_cycle", V_F64, OS(bytes_per_cycle), SRP, 0, 0, "a bandwidth", 1e6},
    /* [hbm] */
    {SEC_HBM, "capacity_bytes", V_U64, OH(capacity_bytes), SRP, 0, 0, "a size", 1ull << 50},
    {SEC_HBM, "bytes_per_ns", V_F64, OH(bytes_per_ns), SRP, 0, 0, "a bandwidth", 1e7},
    {SEC_HBM, "latency_ns", V_NS_PS, OH(latency_ps), SRQ, 0, 0, "a time", 1e9},
    {SEC_HBM, "channels", V_U32, OH(channels), SRP, 0, 0, "a count", 1 << 20},
    {SEC_HBM, "l2_bytes", V_U64, OH(l2_bytes), K_SRC | K_POS, 0, 0, "a size", 1ull << 40},
    /* [links] */
    {SEC_LINKS, "count", V_U32, OL(count), SRQ, 0, 0, "a count", 1024},
    {SEC_LINKS, "bytes_per_ns", V_F64, OL(bytes_per_ns), SRQ, 0, 0, "a bandwidth", 1e7},
    {SEC_LINKS, "latency_ns", V_NS_PS, OL(latency_ps), SRQ, 0, 0, "a time", 1e9},
    {SEC_LINKS, "topology", V_TOPOLOGY, OL(topology), K_REQ, 0, 0, "a topology", 0},
    {SEC_LINKS, "domain_chips", V_U32, OL(domain_chips), SRQ, 0, 0, "a count", 1 << 24},
    {SEC_LINKS, "dcn_bytes_per_ns", V_F64, OL(dcn_bytes_per_ns), K_SRC, 0, 0, "a bandwidth", 1e7},
    {SEC_LINKS, "dcn_latency_ns", V_NS_PS, OL(dcn_latency_ps), K_SRC, 0, 0, "a time", 1e9},
    {SEC_LINKS, "collective_launch_ns", V_NS_PS, OL(collective_launch_ps), K_SRC, 0, 0, "a time", 1e9},
    /* [host] */
    {SEC_HOST, "dispatch_overhead_ns", V_NS_PS, OHO(dispatch_overhead_ps), SRQ, 0, 0, "a time", 1e9},
    {SEC_HOST, "kernel_launch_ns", V_NS_PS, OHO(kernel_launch_ps), SRQ, 0, 0, "a time", 1e9},
    {SEC_HOST, "pcie_bytes_per_ns", V_F64, OHO(pcie_bytes_per_ns), K_SRC | K_POS, 0, 0, "a bandwidth", 1e6},
    {SEC_HOST, "fallback_elems_per_ns", V_F64, OHO(fallback_elems_per_ns), K_SRC | K_POS, 0, 0, "a rate", 1e6},
    {SEC_HOST, "compile_us_per_op", V_F64, OHO(compile_us_per_op), K_SRC | K_POS, 0, 0, "a time", 1e9},
    /* [numerics] */
    {SEC_NUMERICS, "matmul_types", V_DTYPES, 0, SRQ, 0, 0, "a list of element types", 0},
    {SEC_NUMERICS, "fp32_passes_default", V_U32, OC(fp32_passes_default), SRP, 0, 0, "a pass count", 64},
    {SEC_NUMERICS, "fp32_passes_high", V_U32, OC(fp32_passes_high), SRP, 0, 0, "a pass count", 64},
    {SEC_NUMERICS, "fp32_passes_highest", V_U32, OC(fp32_passes_highest), SRP, 0, 0, "a pass count", 64},
    /* [cost] */
    {SEC_COST, "price_per_chip_hour_usd", V_PRICE, OC(price_per_chip_hour_usd), SRQ, 0, 0, "a price", 1e6},
    /* [published] */
    {SEC_PUBLISHED, "bf16_tflops", V_F64, OC(published_bf16_tflops), K_SRC, 0, 0, "a peak", 1e7},
    {SEC_PUBLISHED, "fp8_tflops", V_F64, OC(published_fp8_tflops), K_SRC, 0, 0, "a peak", 1e7},
    {SEC_PUBLISHED, "int8_tops", V_F64, OC(published_int8_tops), K_SRC, 0, 0, "a peak", 1e7},
    {SEC_PUBLISHED, "hbm_gbps", V_F64, OC(published_hbm_gbps), K_SRC, 0, 0, "a bandwidth", 1e7},
    {SEC_PUBLISHED, "chip_page_bf16_tflops", V_F64, OC(published_alt_bf16_tflops), K_SRC, 0, 0, "a peak", 1e7},
    {SEC_PUBLISHED, "chip_page_fp8_tflops", V_F64, OC(published_alt_fp8_tflops), K_SRC, 0, 0, "a peak", 1e7},
    {SEC_PUBLISHED, "chip_page_int8_tops", V_F64, OC(published_alt_int8_tops), K_SRC, 0, 0, "a peak", 1e7},
};
#define N_KEYS ARRAY_LEN(keys)
_Static_assert(ARRAY_LEN(keys) <= 128, "key bit sets are 128 bits");
#define KEY_SEEN(p, i) (((p)->sec_keys[(i) / 64] >> ((i) % 64)) & 1u)

/* ------------------------------------------------------------------------ */
/* Parser state                                                              */

#define MAX_FILE_BYTES (1u << 20)

struct parser {
    const char *text;
    size_t len;
    const char *path;
    struct base_diag *diag;
    struct chip_desc *out;

    int lineno;           /* current line, 1-based */
    size_t line_start;    /* offset of the current line */
    int last_line;        /* number of lines in the file */

    enum section sec;
    int sec_line;                /* header line of the open section */
    int sec_first_line[SEC_COUNT]; /* where each section first appeared (0 = not yet) */
    int key_line[N_KEYS];        /* line/col of each key in the open section (engines) or file */
    int key_col[N_KEYS];
    uint64_t sec_keys[2];        /* keys seen in the open section (bit per key index) */

    /* the open [engine NAME] section */
    struct chip_engine_desc eng;
    char eng_name[CHIP_NAME_MAX];
    int eng_name_col;
    uint32_t eng_count;
    bool eng_has_kind;
    int eng_decl_line[CHIP_MAX_ENGINES];

    bool matmul_listed[CHIP_RATE_COUNT];
    bool family_set;
};

/* Finds the text of line `line` (for the snippet). */
static void line_span(const struct parser *p, int line, size_t *start, size_t *n)
{
    size_t i = 0;
    for (int l = 1; l < line && i < p->len; i++)
        if (p->text[i] == '\n') l++;
    size_t e = i;
    while (e < p->len && p->text[e] != '\n') e++;
    if (e > i && p->text[e - 1] == '\r') e--;
    *start = i;
    *n = e - i;
}

static enum base_status perr(struct parser *p, int line, int col, const char *fmt, ...) BASE_PRINTF(4, 5);
static enum base_status perr(struct parser *p, int line, int col, const char *fmt, ...)
{
    if (line < 1) line = 1;
    if (col < 1) col = 1;
    if (p->diag && p->diag->status == BASE_OK) {
        va_list ap;
        va_start(ap, fmt);
        base_diag_vset(p->diag, BASE_ERR_PARSE, p->path, line, col, fmt, ap);
        va_end(ap);
        size_t s, n;
        line_span(p, line, &s, &n);
        /* snippets are text: stop at the first NUL byte */
        size_t k = 0;
        while (k < n && p->text[s + k] != 0) k++;
        base_diag_set_snippet(p->diag, p->text + s, k);
    }
    return BASE_ERR_PARSE;
}

/* Column (1-based) of byte offset `off` on the current line. */
static int col_of(const struct parser *p, size_t off) { return (int)(off - p->line_start) + 1; }

static bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}
static bool is_key_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }
static bool is_space(char c) { return c == ' ' || c == '\t'; }

/* A token of the current line: [b, e). */
struct tok {
    size_t b, e;
};

static bool tok_is(const struct parser *p, struct tok t, const char *s)
{
    size_t n = strlen(s);
    return t.e - t.b == n && memcmp(p->text + t.b, s, n) == 0;
}

/* Copies a token into buf for messages, truncating long ones. */
static const char *tok_str(const struct parser *p, struct tok t, char *buf, size_t cap)
{
    size_t n = t.e - t.b;
    if (n >= cap) n = cap - 1;
    size_t k = 0;
    for (; k < n; k++) {
        char c = p->text[t.b + k];
        buf[k] = (c >= 32 && c < 127) ? c : '?';
    }
    buf[k] = 0;
    if (t.e - t.b >= cap && cap > 4) memcpy(buf + cap - 4, "...", 4);
    return buf;
}

/* ------------------------------------------------------------------------ */
/* Source comments                                                           */

/* A source comment is "[Sn]...[Sm] text" or "EST: text" (text not empty). */
static bool source_ok(const char *c, size_t n)
{
    size_t i = 0;
    while (i < n && is_space(c[i])) i++;
    if (n - i >= 4 && memcmp(c + i, "EST:", 4) == 0) {
        for (i += 4; i < n; i++)
            if (!is_space(c[i])) return true;
        return false;
    }
    int tags = 0;
    /* [Sn]: ../shared/hw/sources.md; [Gn]: the GPU sources of docs/gpu.md */
    while (i + 2 < n && c[i] == '[' && (c[i + 1] == 'S' || c[i + 1] == 'G')) {
        size_t j = i + 2, d = j;
        while (j < n && c[j] >= '0' && c[j] <= '9') j++;
        if (j == d || j >= n || c[j] != ']') return false;
        tags++;
        i = j + 1;
        while (i < n && is_space(c[i])) i++;
    }
    if (!tags) return false;
    for (; i < n; i++)
        if (!is_space(c[i])) return true;
    return false;
}

static bool comment_is_est(const char *c, size_t n)
{
    size_t i = 0;
    while (i < n && is_space(c[i])) i++;
    return n - i >= 4 && memcmp(c + i, "EST:", 4) == 0;
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                   */

/* Scans a number token at offset i: [+-]digits[_digits]*[.digits][e[+-]digits].
 * Returns the end offset, or i when it is not a well-formed number. */
static size_t scan_number(const struct parser *p, size_t i, size_t end)
{
    const char *s = p->text;
    size_t j = i;
    if (j < end && (s[j] == '+' || s[j] == '-')) j++;
    size_t d0 = j;
    while (j < end && ((s[j] >= '0' && s[j] <= '9') || (s[j] == '_' && j > d0 && j + 1 < end && s[j + 1] >= '0' && s[j + 1] <= '9' && s[j - 1] != '_')))
        j++;
    bool int_digits = j > d0;
    if (j < end && s[j] == '.') {
        j++;
        size_t f0 = j;
        while (j < end && s[j] >= '0' && s[j] <= '9') j++;
        if (j == f0 && !int_digits) return i;
    } else if (!int_digits) {
        return i;
    }
    if (j < end && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < end && (s[k] == '+' || s[k] == '-')) k++;
        size_t e0 = k;
        while (k < end && s[k] >= '0' && s[k] <= '9') k++;
        if (k == e0) return i;
        j = k;
    }
    return j;
}

struct number {
    double v;
    bool integral_text; /* digits only (no '.', no exponent): exact in u */
    uint64_t u;
    bool u_overflow;
    bool negative;
};

static void eval_number(const struct parser *p, struct tok t, struct number *n)
{
    char buf[80];
    size_t k = 0;
    bool plain = true;
    for (size_t i = t.b; i < t.e && k + 1 < sizeof buf; i++) {
        char c = p->text[i];
        if (c == '_') continue;
        if (c == '.' || c == 'e' || c == 'E') plain = false;
        buf[k++] = c;
    }
    buf[k] = 0;
    memset(n, 0, sizeof *n);
    errno = 0;
    n->v = strtod(buf, NULL);
    if (errno == ERANGE && fabs(n->v) > 1) n->v = HUGE_VAL;
    n->negative = buf[0] == '-' && n->v != 0;
    n->integral_text = plain;
    if (plain && !n->negative) {
        const char *d = buf[0] == '+' ? buf + 1 : buf;
        errno = 0;
        unsigned long long u = strtoull(d, NULL, 10);
        n->u = u;
        n->u_overflow = errno == ERANGE || t.e - t.b >= sizeof buf - 1;
    }
}

/* ------------------------------------------------------------------------ */
/* Sections                                                                  */

static size_t key_index(enum section s, const char *name)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (keys[i].sec == s && !strcmp(keys[i].name, name)) return i;
    BASE_ASSERT(!"key in table");
    return 0;
}

static void *section_object(struct parser *p, enum section s)
{
    switch (s) {
    case SEC_ENGINE: return &p->eng;
    case SEC_SCRATCHPAD: return &p->out->scratchpad;
    case SEC_ACCUMULATOR: return &p->out->accumulator;
    case SEC_HBM: return &p->out->hbm;
    case SEC_LINKS: return &p->out->links;
    case SEC_HOST: return &p->out->host;
    default: return p->out;
    }
}

static const struct key_def *find_key(const struct parser *p, struct tok t, size_t *idx)
{
    for (size_t i = 0; i < N_KEYS; i++) {
        if (keys[i].sec == p->sec && tok_is(p, t, keys[i].name)) {
            *idx = i;
            return &keys[i];
        }
    }
    return NULL;
}

/* "a, b, c": the keys of section s (for engines: those of kind bits `kinds`). */
static void key_list(enum section s, unsigned kinds, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; i < N_KEYS; i++) {
        if (keys[i].sec != s) continue;
        if (s == SEC_ENGINE && kinds && !(keys[i].kinds & kinds)) continue;
        int w = snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", keys[i].name);
        if (w < 0 || (size_t)w >= cap - n) break;
        n += (size_t)w;
    }
}

static enum base_status finish_engine(struct parser *p)
{
    struct chip_desc *c = p->out;
    if (!p->eng_has_kind)
        return perr(p, p->sec_line, 1, "missing required key 'kind' in [engine %s] (pe, vec, act, pool or dma)",
                    p->eng_name);
    unsigned kb = 1u << p->eng.kind;
    for (size_t i = 0; i < N_KEYS; i++) {
        if (keys[i].sec != SEC_ENGINE || !(keys[i].req_kinds & kb)) continue;
        if (!KEY_SEEN(p, i))
            return perr(p, p->sec_line, 1, "missing required key '%s' in [engine %s] (an engine of kind %s)",
                        keys[i].name, p->eng_name, kind_names[p->eng.kind]);
    }
    /* DMA queues are timed in ns (fixed_ns, bytes_per_ns); unless the file
     * gives their clock, a cycle of theirs is one ns. */
    if (p->eng.kind == ISA_ENGINE_DMA && !KEY_SEEN(p, key_index(SEC_ENGINE, "clock_ghz")))
        p->eng.clock_ghz = 1.0;
    uint32_t count = p->eng_count ? p->eng_count : 1;
    const size_t stream_max = sizeof(((struct isa_stream *)0)->engine) - 1;
    for (uint32_t k = 0; k < count; k++) {
        char name[CHIP_NAME_MAX + 16];
        if (count > 1)
            snprintf(name, sizeof name, "%s%u", p->eng_name, (unsigned)k);
        else
            snprintf(name, sizeof name, "%s", p->eng_name);
        if (strlen(name) > stream_max)
            return perr(p, p->sec_line, p->eng_name_col,
                        "engine name '%s' is too long: program streams take at most %zu characters", name,
                        stream_max);
        for (uint32_t e = 0; e < c->n_engines; e++)
            if (!strcmp(c->engines[e].name, name))
                return perr(p, p->sec_line, p->eng_name_col,
                            "duplicate engine name '%s' (first declared at line %d)", name, p->eng_decl_line[e]);
        if (c->n_engines >= CHIP_MAX_ENGINES)
            return perr(p, p->sec_line, p->eng_name_col, "too many engines: a core has at most %d",
                        CHIP_MAX_ENGINES);
        struct chip_engine_desc *d = &c->engines[c->n_engines];
        *d = p->eng;
        memcpy(d->name, name, strlen(name) + 1);
        p->eng_decl_line[c->n_engines] = p->sec_line;
        c->n_engines++;
    }
    return BASE_OK;
}

static enum base_status finish_section(struct parser *p)
{
    if (p->sec == SEC_NONE) return BASE_OK;
    if (p->sec == SEC_ENGINE) return finish_engine(p);
    for (size_t i = 0; i < N_KEYS; i++) {
        if (keys[i].sec != p->sec || !(keys[i].flags & K_REQ)) continue;
        if (!KEY_SEEN(p, i))
            return perr(p, p->sec_line, 1, "missing required key '%s' in [%s]", keys[i].name,
                        section_names[p->sec]);
    }
    if (p->sec == SEC_CHIP) p->family_set = true;
    return BASE_OK;
}

/* "[name]" or "[engine NAME]", at offset i (the '[') of the current line. */
static enum base_status parse_header(struct parser *p, size_t i, size_t end)
{
    const char *s = p->text;
    size_t j = i + 1;
    while (j < end && is_space(s[j])) j++;
    struct tok w = {j, j};
    while (w.e < end && is_key_char(s[w.e])) w.e++;
    j = w.e;
    while (j < end && is_space(s[j])) j++;
    struct tok nm = {j, j};
    while (nm.e < end && s[nm.e] != ']' && !is_space(s[nm.e]) && s[nm.e] != '#') nm.e++;
    j = nm.e;
    while (j < end && is_space(s[j])) j++;
    if (j < end && s[j] != ']' && s[j] != '#')
        return perr(p, p->lineno, col_of(p, j), "unexpected text in the section header (expected ']')");
    if (j >= end || s[j] != ']') return perr(p, p->lineno, col_of(p, j), "section header without a closing ']'");
    size_t close = j;
    j++;
    while (j < end && is_space(s[j])) j++;
    if (j < end && s[j] != '#')
        return perr(p, p->lineno, col_of(p, j), "unexpected text after the section header");

    char buf[64];
    enum section sec = SEC_NONE;
    for (int k = 0; k < SEC_COUNT; k++)
        if (tok_is(p, w, section_names[k])) sec = (enum section)k;
    if (sec == SEC_NONE) {
        struct tok all = {i + 1, close};
        return perr(p, p->lineno, col_of(p, w.b),
                    "unknown section [%s] (sections: chip, engine NAME, scratchpad, accumulator, hbm, links, "
                    "host, numerics, cost, published)",
                    tok_str(p, all, buf, sizeof buf));
    }
    if (sec != SEC_CHIP && !p->sec_first_line[SEC_CHIP])
        return perr(p, p->lineno, col_of(p, w.b), "[chip] must be the first section (found [%s])",
                    section_names[sec]);
    if (sec == SEC_ENGINE) {
        if (nm.e == nm.b) return perr(p, p->lineno, col_of(p, close), "[engine] needs a name, e.g. [engine pe]");
        bool ok = nm.e - nm.b < CHIP_NAME_MAX && s[nm.b] >= 'a' && s[nm.b] <= 'z';
        for (size_t k = nm.b; ok && k < nm.e; k++)
            ok = (s[k] >= 'a' && s[k] <= 'z') || (s[k] >= '0' && s[k] <= '9') || s[k] == '_';
        if (!ok)
            return perr(p, p->lineno, col_of(p, nm.b),
                        "bad engine name '%s' (a lowercase letter, then letters, digits or '_'; at most %d)",
                        tok_str(p, nm, buf, sizeof buf), CHIP_NAME_MAX - 1);
    } else if (nm.e != nm.b) {
        return perr(p, p->lineno, col_of(p, nm.b), "section [%s] takes no name", section_names[sec]);
    } else if (p->sec_first_line[sec]) {
        return perr(p, p->lineno, col_of(p, w.b), "duplicate section [%s] (first at line %d)", section_names[sec],
                    p->sec_first_line[sec]);
    }
    TRY(finish_section(p));
    p->sec = sec;
    p->sec_line = p->lineno;
    p->sec_keys[0] = p->sec_keys[1] = 0;
    if (!p->sec_first_line[sec]) p->sec_first_line[sec] = p->lineno;
    if (sec == SEC_ENGINE) {
        memset(&p->eng, 0, sizeof p->eng);
        memcpy(p->eng_name, s + nm.b, nm.e - nm.b);
        p->eng_name[nm.e - nm.b] = 0;
        p->eng_name_col = col_of(p, nm.b);
        p->eng_count = 0;
        p->eng_has_kind = false;
    }
    return BASE_OK;
}

enum vtok { T_NUMBER, T_IDENT, T_STRING, T_LIST };

/* Stores a number into the key's field after checking its rules. */
static enum base_status store_number(struct parser *p, const struct key_def *k, struct tok t, void *obj)
{
    char buf[64];
    struct number n;
    eval_number(p, t, &n);
    int col = col_of(p, t.b);
    if (n.negative)
        return perr(p, p->lineno, col, "'%s' must not be negative (%s), got %s", k->name, k->what,
                    tok_str(p, t, buf, sizeof buf));
    bool integer = k->kind == V_U32 || k->kind == V_U64 || k->kind == V_COUNT;
    double maxv = k->max > 0 ? k->max : (k->kind == V_U32 ? (double)UINT32_MAX : 9007199254740992.0);
    if (!isfinite(n.v) || n.v > maxv || (n.integral_text && n.u_overflow))
        return perr(p, p->lineno, col, "'%s' is out of range (%s, at most %.15g), got %s", k->name, k->what, maxv,
                    tok_str(p, t, buf, sizeof buf));
    if ((k->flags & K_POS) && n.v <= 0)
        return perr(p, p->lineno, col, "'%s' must be > 0 (%s), got %s", k->name, k->what,
                    tok_str(p, t, buf, sizeof buf));
    /* a positive rate, clock or bandwidth far below any chip's would make
     * simulated times past 2^64 ps and MFU figures past 10^299 % */
    if ((k->flags & K_POS) && (k->kind == V_F64) && n.v < CHIP_MIN_POSITIVE)
        return perr(p, p->lineno, col, "'%s' is out of range (%s, at least %g), got %s", k->name, k->what,
                    CHIP_MIN_POSITIVE, tok_str(p, t, buf, sizeof buf));
    uint64_t u = 0;
    if (integer) {
        if (n.integral_text) {
            u = n.u;
        } else if (n.v == floor(n.v)) {
            u = (uint64_t)n.v;
        } else {
            return perr(p, p->lineno, col, "bad number: '%s' takes an integer (%s), got %s", k->name, k->what,
                        tok_str(p, t, buf, sizeof buf));
        }
        if ((double)u > maxv)
            return perr(p, p->lineno, col, "'%s' is out of range (%s, at most %.15g), got %s", k->name, k->what,
                        maxv, tok_str(p, t, buf, sizeof buf));
    }
    char *f = (char *)obj + k->off;
    switch (k->kind) {
    case V_U32: {
        uint32_t v = (uint32_t)u;
        memcpy(f, &v, sizeof v);
        break;
    }
    case V_U64: memcpy(f, &u, sizeof u); break;
    case V_F64:
    case V_PRICE: memcpy(f, &n.v, sizeof n.v); break;
    case V_NS_PS: {
        uint64_t ps = (uint64_t)llround(n.v * 1000.0);
        memcpy(f, &ps, sizeof ps);
        break;
    }
    case V_COUNT: p->eng_count = (uint32_t)u; break;
    default: BASE_ASSERT(!"number kind"); break;
    }
    return BASE_OK;
}

/* matmul_types = [bf16, f8E4M3FN, ...]: the list token is [b, e) including brackets. */
static enum base_status store_dtypes(struct parser *p, struct tok t)
{
    const char *s = p->text;
    size_t i = t.b + 1, end = t.e - 1; /* inside the brackets */
    int n = 0;
    memset(p->out->matmul_supports, 0, sizeof p->out->matmul_supports);
    memset(p->matmul_listed, 0, sizeof p->matmul_listed);
    for (;;) {
        while (i < end && is_space(s[i])) i++;
        if (i >= end) {
            if (n == 0) return perr(p, p->lineno, col_of(p, t.b), "matmul_types is empty: list at least bf16");
            break;
        }
        struct tok it = {i, i};
        while (it.e < end && s[it.e] != ',' && !is_space(s[it.e])) it.e++;
        enum base_dtype dt;
        char buf[48];
        if (it.e == it.b) return perr(p, p->lineno, col_of(p, i), "empty item in the list");
        if (!base_dtype_parse(s + it.b, it.e - it.b, &dt))
            return perr(p, p->lineno, col_of(p, it.b), "unknown element type '%s' in matmul_types (e.g. bf16, f16, "
                        "f32, f8E4M3FN, f8E5M2, i8)", tok_str(p, it, buf, sizeof buf));
        if (p->out->matmul_supports[dt])
            return perr(p, p->lineno, col_of(p, it.b), "'%s' is listed twice in matmul_types", base_dtype_name(dt));
        p->out->matmul_supports[dt] = true;
        p->matmul_listed[chip_rate_class_of(dt)] = true;
        n++;
        i = it.e;
        while (i < end && is_space(s[i])) i++;
        if (i < end) {
            if (s[i] != ',') return perr(p, p->lineno, col_of(p, i), "expected ',' or ']' in the list");
            i++;
        }
    }
    return BASE_OK;
}

/* key = value [# comment], at offset i of the current line (which ends at end). */
static enum base_status parse_key(struct parser *p, size_t i, size_t end)
{
    const char *s = p->text;
    char buf[64], list[512];
    struct tok kt = {i, i};
    while (kt.e < end && is_key_char(s[kt.e])) kt.e++;
    if (kt.e == kt.b) return perr(p, p->lineno, col_of(p, i), "expected a key (lowercase letters, digits, '_') or a section");
    if (p->sec == SEC_NONE)
        return perr(p, p->lineno, col_of(p, i), "key '%s' outside a section: a chip file starts with [chip]",
                    tok_str(p, kt, buf, sizeof buf));
    size_t j = kt.e;
    while (j < end && is_space(s[j])) j++;
    if (j >= end || s[j] != '=')
        return perr(p, p->lineno, col_of(p, j), "expected '=' after the key '%s'", tok_str(p, kt, buf, sizeof buf));
    j++;
    while (j < end && is_space(s[j])) j++;

    size_t kidx = 0;
    const struct key_def *k = find_key(p, kt, &kidx);
    if (!k) {
        key_list(p->sec, p->sec == SEC_ENGINE && p->eng_has_kind ? 1u << p->eng.kind : 0, list, sizeof list);
        return perr(p, p->lineno, col_of(p, kt.b), "unknown key '%s' in [%s%s%s] (keys: %s)",
                    tok_str(p, kt, buf, sizeof buf), section_names[p->sec], p->sec == SEC_ENGINE ? " " : "",
                    p->sec == SEC_ENGINE ? p->eng_name : "", list);
    }
    if (KEY_SEEN(p, kidx))
        return perr(p, p->lineno, col_of(p, kt.b), "duplicate key '%s' in [%s%s%s] (first at line %d)", k->name,
                    section_names[p->sec], p->sec == SEC_ENGINE ? " " : "", p->sec == SEC_ENGINE ? p->eng_name : "",
                    p->key_line[kidx]);
    if (p->sec == SEC_ENGINE) {
        if (k->kind == V_KIND && (p->sec_keys[0] | p->sec_keys[1]))
            return perr(p, p->lineno, col_of(p, kt.b), "'kind' must be the first key of [engine %s]", p->eng_name);
        if (k->kind != V_KIND && !p->eng_has_kind)
            return perr(p, p->lineno, col_of(p, kt.b),
                        "'kind' must be the first key of [engine %s] (found '%s')", p->eng_name, k->name);
        if (k->kind != V_KIND && !(k->kinds & (1u << p->eng.kind))) {
            key_list(SEC_ENGINE, 1u << p->eng.kind, list, sizeof list);
            return perr(p, p->lineno, col_of(p, kt.b), "key '%s' does not apply to an engine of kind %s (keys: %s)",
                        k->name, kind_names[p->eng.kind], list);
        }
    }

    /* the value token */
    if (j >= end || s[j] == '#') return perr(p, p->lineno, col_of(p, j), "missing value for '%s'", k->name);
    struct tok vt = {j, j};
    enum vtok vk;
    char c = s[j];
    if (c == '"') {
        vk = T_STRING;
        size_t q = j + 1;
        while (q < end && s[q] != '"') q++;
        if (q >= end) return perr(p, p->lineno, col_of(p, j), "unterminated string for '%s'", k->name);
        vt.b = j + 1;
        vt.e = q;
        j = q + 1;
    } else if (c == '[') {
        vk = T_LIST;
        size_t q = j + 1;
        while (q < end && s[q] != ']' && s[q] != '#' && s[q] != '[') q++;
        if (q >= end || s[q] != ']') return perr(p, p->lineno, col_of(p, j), "unterminated list for '%s'", k->name);
        vt.e = q + 1;
        j = q + 1;
    } else if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
        vk = T_NUMBER;
        size_t q = j;
        while (q < end && !is_space(s[q]) && s[q] != '#') q++;
        vt.e = q;
        if (scan_number(p, j, q) != q)
            return perr(p, p->lineno, col_of(p, j), "bad number '%s' for '%s'", tok_str(p, vt, buf, sizeof buf),
                        k->name);
        j = q;
    } else if (is_ident_start(c)) {
        vk = T_IDENT;
        size_t q = j;
        while (q < end && is_ident_char(s[q])) q++;
        vt.e = q;
        j = q;
    } else {
        return perr(p, p->lineno, col_of(p, j), "expected a value for '%s' (a number, true/false, a name or a list)",
                    k->name);
    }
    /* what follows: nothing, or a comment */
    while (j < end && is_space(s[j])) j++;
    bool has_comment = false;
    size_t cb = end;
    if (j < end) {
        if (s[j] != '#') return perr(p, p->lineno, col_of(p, j), "unexpected text after the value of '%s'", k->name);
        has_comment = true;
        cb = j + 1;
    }

    /* the value's type, then store */
    void *obj = section_object(p, p->sec);
    int vcol = col_of(p, vt.b);
    switch (k->kind) {
    case V_U32:
    case V_U64:
    case V_F64:
    case V_NS_PS:
    case V_COUNT:
    case V_PRICE:
        if (vk != T_NUMBER)
            return perr(p, p->lineno, vcol, "bad number '%s' for '%s' (%s)", tok_str(p, vt, buf, sizeof buf), k->name,
                        k->what);
        TRY(store_number(p, k, vt, obj));
        if (k->kind == V_PRICE) p->out->price_is_estimate = has_comment && comment_is_est(s + cb, end - cb);
        break;
    case V_BOOL: {
        bool v = tok_is(p, vt, "true");
        if (vk != T_IDENT || (!v && !tok_is(p, vt, "false")))
            return perr(p, p->lineno, vcol, "'%s' takes true or false, got '%s'", k->name,
                        tok_str(p, vt, buf, sizeof buf));
        memcpy((char *)obj + k->off, &v, sizeof v);
        break;
    }
    case V_NAME:
        if (vk != T_IDENT && vk != T_STRING)
            return perr(p, p->lineno, vcol, "'%s' takes a name, e.g. tpu-v5e", k->name);
        if (vt.e == vt.b || vt.e - vt.b >= CHIP_NAME_MAX)
            return perr(p, p->lineno, vcol, "'%s' must have 1 to %d characters", k->name, CHIP_NAME_MAX - 1);
        for (size_t q = vt.b; q < vt.e; q++)
            if (!is_ident_char(s[q]))
                return perr(p, p->lineno, col_of(p, q), "'%s' may hold letters, digits, '-', '_' and '.' only", k->name);
        memcpy((char *)obj + k->off, s + vt.b, vt.e - vt.b);
        ((char *)obj + k->off)[vt.e - vt.b] = 0;
        break;
    case V_FAMILY:
        if (tok_is(p, vt, "tpu") && vk == T_IDENT)
            p->out->family = CHIP_FAMILY_TPU;
        else if (tok_is(p, vt, "neuron") && vk == T_IDENT)
            p->out->family = CHIP_FAMILY_NEURON;
        else if (tok_is(p, vt, "gpu") && vk == T_IDENT)
            p->out->family = CHIP_FAMILY_GPU;
        else
            return perr(p, p->lineno, vcol, "family must be tpu, neuron or gpu, got '%s'", tok_str(p, vt, buf, sizeof buf));
        break;
    case V_KIND: {
        int kind = -1;
        for (int q = 0; q < ISA_ENGINE_KIND_COUNT && vk == T_IDENT; q++)
            if (tok_is(p, vt, kind_names[q])) kind = q;
        if (kind < 0)
            return perr(p, p->lineno, vcol, "unknown engine kind '%s' (pe, vec, act, pool or dma)",
                        tok_str(p, vt, buf, sizeof buf));
        unsigned allowed = family_kinds[p->out->family];
        if (!(allowed & (1u << kind))) {
            char have[64] = "";
            for (int q = 0; q < ISA_ENGINE_KIND_COUNT; q++)
                if (allowed & (1u << q)) {
                    size_t hl = strlen(have);
                    snprintf(have + hl, sizeof have - hl, "%s%s", hl ? ", " : "", kind_names[q]);
                }
            return perr(p, p->lineno, vcol, "engine kind '%s' does not exist on family %s (a %s core has %s)",
                        kind_names[kind], chip_family_name(p->out->family), chip_family_name(p->out->family), have);
        }
        p->eng.kind = (enum isa_engine_kind)kind;
        p->eng_has_kind = true;
        break;
    }
    case V_TOPOLOGY: {
        int t = -1;
        for (int q = 0; q < CHIP_TOPO_COUNT && vk == T_IDENT; q++)
            if (tok_is(p, vt, chip_topology_name((enum chip_topology)q))) t = q;
        if (t < 0)
            return perr(p, p->lineno, vcol, "unknown topology '%s' (none, ring, torus2d, torus3d or switch)",
                        tok_str(p, vt, buf, sizeof buf));
        p->out->links.topology = (enum chip_topology)t;
        break;
    }
    case V_DTYPES:
        if (vk != T_LIST) return perr(p, p->lineno, vcol, "'%s' takes a list, e.g. [bf16, f32]", k->name);
        TRY(store_dtypes(p, vt));
        break;
    }

    /* every number (and flag and list) names its source */
    if ((k->flags & K_SRC) && (!has_comment || !source_ok(s + cb, end - cb)))
        return perr(p, p->lineno, has_comment ? col_of(p, cb - 1) : col_of(p, vt.e),
                    "numeric line without a source comment: end the line of '%s' with '# [Sn] file §section' "
                    "(a source in ../shared/hw/sources.md; [Gn]: docs/gpu.md) or '# EST: how it was derived'",
                    k->name);

    p->sec_keys[kidx / 64] |= UINT64_C(1) << (kidx % 64);
    p->key_line[kidx] = p->lineno;
    p->key_col[kidx] = vcol;
    return BASE_OK;
}

/* ------------------------------------------------------------------------ */
/* Whole-file rules                                                          */

static enum base_status check_file(struct parser *p)
{
    struct chip_desc *c = p->out;
    int eof_line = p->last_line > 0 ? p->last_line : 1;
    for (int s = 0; s < SEC_COUNT; s++)
        if (section_required[s] && !p->sec_first_line[s])
            return perr(p, eof_line, 1, "missing section [%s]%s", s == SEC_ENGINE ? "engine NAME" : section_names[s],
                        s == SEC_CHIP ? ": a chip file starts with [chip]" : "");

    unsigned have = 0;
    for (uint32_t e = 0; e < c->n_engines; e++) have |= 1u << c->engines[e].kind;
    static const int needed[] = {ISA_ENGINE_SYSTOLIC, ISA_ENGINE_VECTOR, ISA_ENGINE_DMA};
    for (size_t q = 0; q < ARRAY_LEN(needed); q++)
        if (!(have & (1u << needed[q])))
            return perr(p, p->sec_first_line[SEC_ENGINE], 1,
                        "a core needs at least one engine of kind %s (an [engine NAME] section with kind = %s)",
                        kind_names[needed[q]], kind_names[needed[q]]);

    /* matmul_types and the arrays' rates must tell the same story */
    size_t mi = key_index(SEC_NUMERICS, "matmul_types");
    for (int rc = 0; rc < CHIP_RATE_COUNT; rc++) {
        bool rate = false;
        for (uint32_t e = 0; e < c->n_engines; e++)
            if (c->engines[e].kind == ISA_ENGINE_SYSTOLIC && c->engines[e].rows_per_cycle[rc] > 0) rate = true;
        const char *rn = chip_rate_class_name((enum chip_rate_class)rc);
        if (rc == CHIP_RATE_FP32) {
            if (rate && !p->matmul_listed[rc])
                return perr(p, p->key_line[mi], p->key_col[mi],
                            "pe engines have rows_per_cycle_fp32 > 0 but matmul_types does not list f32");
            continue;
        }
        if (p->matmul_listed[rc] && !rate)
            return perr(p, p->key_line[mi], p->key_col[mi],
                        "matmul_types lists a %s type but no pe engine has rows_per_cycle_%s > 0", rn, rn);
        if (rate && !p->matmul_listed[rc])
            return perr(p, p->key_line[mi], p->key_col[mi],
                        "pe engines have rows_per_cycle_%s > 0 but matmul_types lists no %s type", rn, rn);
    }
    if (!(c->fp32_passes_default <= c->fp32_passes_high && c->fp32_passes_high <= c->fp32_passes_highest)) {
        size_t hi = key_index(SEC_NUMERICS, "fp32_passes_high");
        return perr(p, p->key_line[hi], p->key_col[hi],
                    "fp32 passes must not decrease with precision: default %u <= high %u <= highest %u",
                    c->fp32_passes_default, c->fp32_passes_high, c->fp32_passes_highest);
    }
    if (c->scratchpad.banks == 0) c->scratchpad.banks = 1;
    struct {
        struct chip_sram_desc *m;
        enum section s;
    } srams[] = {{&c->scratchpad, SEC_SCRATCHPAD}, {&c->accumulator, SEC_ACCUMULATOR}};
    for (size_t q = 0; q < ARRAY_LEN(srams); q++) {
        if (srams[q].m->bytes_per_partition % srams[q].m->banks) {
            size_t bi = key_index(srams[q].s, "banks");
            return perr(p, p->key_line[bi], p->key_col[bi],
                        "[%s] bytes_per_partition (%llu) must be a multiple of banks (%u)", section_names[srams[q].s],
                        (unsigned long long)srams[q].m->bytes_per_partition, srams[q].m->banks);
        }
    }
    if (c->ranks_per_chip == 0) c->ranks_per_chip = 1;
    if (c->cores % c->ranks_per_chip) {
        size_t ri = key_index(SEC_CHIP, "ranks_per_chip");
        return perr(p, p->key_line[ri], p->key_col[ri],
                    "ranks_per_chip (%u) must divide cores (%u): each rank runs on cores / ranks_per_chip cores",
                    c->ranks_per_chip, c->cores);
    }
    if (c->links.count > 0 && !(c->links.bytes_per_ns > 0)) {
        size_t bi = key_index(SEC_LINKS, "bytes_per_ns");
        return perr(p, p->key_line[bi], p->key_col[bi], "[links] bytes_per_ns must be > 0 (a bandwidth) when count > 0");
    }
    return BASE_OK;
}

static enum base_status parse_lines(struct parser *p)
{
    const char *s = p->text;
    size_t i = 0;
    p->lineno = 0;
    while (i < p->len) {
        size_t end = i;
        while (end < p->len && s[end] != '\n') end++;
        size_t next = end < p->len ? end + 1 : end;
        p->lineno++;
        p->line_start = i;
        if (end > i && s[end - 1] == '\r') end--;
        for (size_t q = i; q < end; q++)
            if (s[q] == 0) return perr(p, p->lineno, col_of(p, q), "NUL byte in a chip file");
        size_t j = i;
        while (j < end && is_space(s[j])) j++;
        if (j < end && s[j] != '#') {
            if (s[j] == '[')
                TRY(parse_header(p, j, end));
            else
                TRY(parse_key(p, j, end));
        }
        i = next;
    }
    p->last_line = p->lineno;
    TRY(finish_section(p));
    p->sec = SEC_NONE;
    return check_file(p);
}

static enum base_status chip_parse_impl(const char *text, size_t len, const char *path, struct chip_desc *out,
                                struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!path) path = "<chip>";
    if (!text) len = 0;
    if (len > MAX_FILE_BYTES)
        return base_diag_set(diag, BASE_ERR_LIMIT, path, 1, 1, "chip file is larger than %u bytes", MAX_FILE_BYTES);
    struct parser p;
    memset(&p, 0, sizeof p);
    p.text = text ? text : "";
    p.len = len;
    p.path = path;
    p.diag = diag;
    p.out = out;
    p.sec = SEC_NONE;
    enum base_status st = parse_lines(&p);
    if (st != BASE_OK) {
        memset(out, 0, sizeof *out);
        return st;
    }
    snprintf(out->path, sizeof out->path, "%s", path);
    return BASE_OK;
}

enum base_status chip_parse(const char *text, size_t len, const char *path, struct chip_desc *out,
                                struct base_diag *diag)
{
    return base_diag_ensure(diag, chip_parse_impl(text, len, path, out, diag), path, "reading a chip file");
}

/* ------------------------------------------------------------------------ */
/* Ranks                                                                     */

enum base_status chip_set_ranks(struct chip_desc *c, uint32_t ranks_per_chip, struct base_diag *diag)
{
    if (c->rank_view)
        return base_diag_set(diag, BASE_ERR_INVALID, c->path, 0, 0, "%s: ranks cannot change on one rank's view",
                             c->name);
    if (ranks_per_chip == 0 || c->cores % ranks_per_chip)
        return base_diag_set(diag, BASE_ERR_INVALID, c->path, 0, 0,
                             "%s: %u ranks per chip do not divide its %u cores", c->name, ranks_per_chip, c->cores);
    c->ranks_per_chip = ranks_per_chip;
    return BASE_OK;
}

enum base_status chip_set_lnc(struct chip_desc *c, uint32_t lnc, struct base_diag *diag)
{
    if (c->family != CHIP_FAMILY_NEURON)
        return base_diag_set(diag, BASE_ERR_INVALID, c->path, 0, 0,
                             "%s: --lnc applies to Neuron chips (a logical NeuronCore of LNC physical cores)",
                             c->name);
    if (lnc == 0 || c->cores % lnc)
        return base_diag_set(diag, BASE_ERR_INVALID, c->path, 0, 0, "%s: LNC %u does not divide its %u cores",
                             c->name, lnc, c->cores);
    return chip_set_ranks(c, c->cores / lnc, diag);
}

void chip_rank_view(const struct chip_desc *c, struct chip_desc *out)
{
    if (out != c) *out = *c;
    uint32_t r = c->ranks_per_chip ? c->ranks_per_chip : 1;
    if (c->rank_view || r == 1) return;
    out->cores = c->cores / r;
    out->hbm.capacity_bytes = c->hbm.capacity_bytes / r;
    out->hbm.bytes_per_ns = c->hbm.bytes_per_ns / r;
    out->rank_view = true;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static bool file_readable(const char *path) { return access(path, R_OK) == 0; }

/* The directory of the running executable, or "" when unknown. */
static void exe_dir(char *buf, size_t cap)
{
    buf[0] = 0;
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n <= 0) {
        buf[0] = 0;
        return;
    }
    buf[n] = 0;
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = 0;
    else
        buf[0] = 0;
}

bool chip_data_path(const char *file, char *path, size_t cap, char *tried, size_t tried_cap)
{
    char dirs[5][2048];
    int nd = 0;
    const char *env = getenv("NPUSIM_CHIPS");
    if (env && *env) snprintf(dirs[nd++], sizeof dirs[0], "%s", env);
    snprintf(dirs[nd++], sizeof dirs[0], "chips");
    char ed[1800];
    exe_dir(ed, sizeof ed);
    if (ed[0]) snprintf(dirs[nd++], sizeof dirs[0], "%s/../../chips", ed);
    /* an installed copy (make install): PREFIX/bin/npusim, PREFIX/share/npusim/chips */
    if (ed[0]) snprintf(dirs[nd++], sizeof dirs[0], "%s/../share/npusim/chips", ed);
    /* a program linked to an installed libnpusim.so: PREFIX/lib/libnpusim.so */
    Dl_info so;
    if (dladdr((void *)(uintptr_t)chip_data_path, &so) && so.dli_fname && strchr(so.dli_fname, '/')) {
        char sd[1800];
        snprintf(sd, sizeof sd, "%s", so.dli_fname);
        *strrchr(sd, '/') = 0;
        if (strcmp(sd, ed) != 0) snprintf(dirs[nd++], sizeof dirs[0], "%s/../share/npusim/chips", sd);
    }
    for (int d = 0; d < nd; d++) {
        int w = snprintf(path, cap, "%s/%s", dirs[d], file);
        if (w > 0 && (size_t)w < cap && file_readable(path)) return true;
    }
    if (tried && tried_cap) {
        tried[0] = 0;
        for (int d = 0; d < nd; d++) {
            size_t tl = strlen(tried);
            snprintf(tried + tl, tried_cap - tl, "%s%s", d ? ", " : "", dirs[d]);
        }
    }
    return false;
}

static enum base_status read_file(const char *path, char **text, size_t *len, struct base_diag *diag)
{
    return chip_read_text(path, "chip file", text, len, diag);
}

enum base_status chip_read_text(const char *path, const char *what, char **text, size_t *len, struct base_diag *diag)
{
    *text = NULL;
    *len = 0;
    FILE *f;
    TRY(base_file_open(path, NULL, &f, NULL, diag)); /* a regular file: a FIFO would block */
    char *buf = malloc(MAX_FILE_BYTES + 1);
    if (!buf) {
        fclose(f);
        return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory reading a chip file");
    }
    size_t n = fread(buf, 1, MAX_FILE_BYTES + 1, f);
    bool err = ferror(f) != 0;
    fclose(f);
    if (err) {
        free(buf);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot read %s", what);
    }
    if (n > MAX_FILE_BYTES) {
        free(buf);
        return base_diag_set(diag, BASE_ERR_LIMIT, path, 1, 1, "%s is larger than %u bytes", what, MAX_FILE_BYTES);
    }
    *text = buf;
    *len = n;
    return BASE_OK;
}

static enum base_status chip_load_impl(const char *name_or_path, struct chip_desc *out, struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!name_or_path || !*name_or_path)
        return base_diag_set(diag, BASE_ERR_INVALID, "", 0, 0, "no chip name given");
    char path[4096];
    bool by_name = !strchr(name_or_path, '/') && !ends_with(name_or_path, ".chip");
    if (!by_name) {
        if (strlen(name_or_path) >= sizeof path)
            return base_diag_set(diag, BASE_ERR_INVALID, "", 0, 0, "chip path too long");
        snprintf(path, sizeof path, "%s", name_or_path);
    } else {
        for (const char *q = name_or_path; *q; q++)
            if (!is_ident_char(*q) || q - name_or_path >= CHIP_NAME_MAX - 1)
                return base_diag_set(diag, BASE_ERR_INVALID, name_or_path, 0, 0,
                                     "bad chip name '%s' (letters, digits, '-', '_', '.'; or give a path)",
                                     name_or_path);
        char file[CHIP_NAME_MAX + 8], tried[1024] = "";
        snprintf(file, sizeof file, "%s.chip", name_or_path);
        if (!chip_data_path(file, path, sizeof path, tried, sizeof tried)) {
            char names[256] = "";
            for (size_t b = 0; b < ARRAY_LEN(bundled); b++) {
                size_t nl = strlen(names);
                snprintf(names + nl, sizeof names - nl, "%s%s", b ? ", " : "", bundled[b]);
            }
            return base_diag_set(diag, BASE_ERR_IO, name_or_path, 0, 0,
                                 "no chip file %s.chip in %s (set NPUSIM_CHIPS to the chips directory, or give a "
                                 "path); bundled chips: %s",
                                 name_or_path, tried, names);
        }
    }
    char *text;
    size_t len;
    TRY(read_file(path, &text, &len, diag));
    enum base_status st = chip_parse(text, len, path, out, diag);
    if (st == BASE_OK && by_name && strcmp(out->name, name_or_path)) {
        /* a chip looked up by name must be the chip of that name */
        struct parser p;
        memset(&p, 0, sizeof p);
        p.text = text;
        p.len = len;
        p.path = path;
        p.diag = diag;
        int line = 1;
        const char *hit = strstr(text, "\nname");
        if (hit) {
            for (const char *q = text; q <= hit; q++)
                if (*q == '\n') line++;
        }
        char want[CHIP_NAME_MAX];
        snprintf(want, sizeof want, "%s", out->name);
        memset(out, 0, sizeof *out);
        st = perr(&p, line, 1, "chip file %s.chip says name = %s: the name must match the file name", name_or_path,
                  want);
    }
    free(text);
    return st;
}

enum base_status chip_load(const char *name_or_path, struct chip_desc *out, struct base_diag *diag)
{
    return base_diag_ensure(diag, chip_load_impl(name_or_path, out, diag), name_or_path, "loading a chip");
}

/* ------------------------------------------------------------------------ */
/* Derived figures                                                           */

double chip_peak_flops(const struct chip_desc *c, enum chip_rate_class rc)
{
    if (!c || (unsigned)rc >= CHIP_RATE_COUNT) return 0;
    double per_core = 0;
    for (uint32_t e = 0; e < c->n_engines && e < CHIP_MAX_ENGINES; e++) {
        const struct chip_engine_desc *d = &c->engines[e];
        if (d->kind != ISA_ENGINE_SYSTOLIC) continue;
        double rate = d->rows_per_cycle[rc];
        if (rc == CHIP_RATE_FP32 && c->family == CHIP_FAMILY_TPU) /* as the timing runs it: bf16 passes */
            rate = d->rows_per_cycle[CHIP_RATE_BF16] / (c->fp32_passes_highest ? c->fp32_passes_highest : 1);
        per_core += (double)d->rows * (double)d->cols * 2.0 * d->clock_ghz * 1e9 * rate;
    }
    return per_core * c->cores;
}

const struct chip_engine_desc *chip_engine(const struct chip_desc *c, const char *name)
{
    if (!c || !name) return NULL;
    for (uint32_t e = 0; e < c->n_engines && e < CHIP_MAX_ENGINES; e++)
        if (!strcmp(c->engines[e].name, name)) return &c->engines[e];
    return NULL;
}
