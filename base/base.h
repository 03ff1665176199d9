/* base: the ground floor of npusim.
 *
 * Status codes and located diagnostics, arenas, logging, a deterministic RNG,
 * element types with exact numerics, reference-counted tensors and .npy I/O.
 * Nothing here knows about graphs, chips or simulation.
 */
#ifndef NPUSIM_BASE_H
#define NPUSIM_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define BASE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define BASE_VPRINTF(f) __attribute__((format(printf, f, 0)))
#define BASE_NORETURN __attribute__((noreturn))
#else
#define BASE_PRINTF(f, a)
#define BASE_VPRINTF(f)
#define BASE_NORETURN
#endif

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */

#define BASE_STATUS_LIST(X)                                   \
    X(OK, "ok")                                               \
    X(ERR_NOMEM, "out of memory")                             \
    X(ERR_IO, "I/O error")                                    \
    X(ERR_PARSE, "parse error")                               \
    X(ERR_INVALID, "invalid argument")                        \
    X(ERR_VERIFY, "verification failed")                      \
    X(ERR_UNSUPPORTED, "unsupported")                         \
    X(ERR_LIMIT, "limit exceeded")                            \
    X(ERR_RUNTIME, "runtime error")                           \
    X(ERR_CHECK, "check failed")                              \
    X(ERR_INTERNAL, "internal error")

enum base_status {
#define X(name, text) BASE_##name,
    BASE_STATUS_LIST(X)
#undef X
    BASE_STATUS_COUNT
};

const char *base_status_str(enum base_status st);

/* Invariant checks stay on in every build. */
#define BASE_ASSERT(cond)                                                   \
    do {                                                                    \
        if (!(cond)) base_assert_fail(#cond, __FILE__, __LINE__);           \
    } while (0)
BASE_NORETURN void base_assert_fail(const char *expr, const char *file, int line);

/* Propagate a failing status. */
#define TRY(expr)                                                           \
    do {                                                                    \
        enum base_status try_st_ = (expr);                                  \
        if (try_st_ != BASE_OK) return try_st_;                             \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Located diagnostics                                                       */

#define BASE_DIAG_MSG_MAX 512
#define BASE_DIAG_SNIPPET_MAX 200
#define BASE_DIAG_FILE_MAX 256

/* One diagnostic: where (file:line:col, 1-based; 0 = unknown), what, and the
 * offending text.  Library code fills one in and returns a status; only the
 * tools print and exit. */
struct base_diag {
    enum base_status status;
    char file[BASE_DIAG_FILE_MAX];
    int line;
    int col;
    char msg[BASE_DIAG_MSG_MAX];
    char snippet[BASE_DIAG_SNIPPET_MAX];
};

void base_diag_clear(struct base_diag *d);
/* Sets d (if not NULL) and returns st, so callers can `return base_diag_set(...)`.
 * An already-set diagnostic is kept: the first error wins. */
enum base_status base_diag_set(struct base_diag *d, enum base_status st, const char *file,
                               int line, int col, const char *fmt, ...) BASE_PRINTF(6, 7);
enum base_status base_diag_vset(struct base_diag *d, enum base_status st, const char *file,
                                int line, int col, const char *fmt, va_list ap) BASE_VPRINTF(6);
void base_diag_set_snippet(struct base_diag *d, const char *text, size_t len);
/* "file:line:col: error: msg\n    snippet" */
void base_diag_format(const struct base_diag *d, char *buf, size_t cap);
void base_diag_print(const struct base_diag *d, FILE *f);

/* ------------------------------------------------------------------------ */
/* Integers of w bits carried in 64 (w in 1..64): the interpreter's and the   */
/* simulator's integer ops share these.                                      */

/* The low w bits set. */
static inline uint64_t base_wmask(int w) { return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1; }

/* The low w bits of v, sign-extended. */
static inline int64_t base_sext(uint64_t v, int w)
{
    if (w >= 64) return (int64_t)v;
    uint64_t m = UINT64_C(1) << (w - 1);
    v &= base_wmask(w);
    return (int64_t)((v ^ m) - m);
}

/* base ** e in w-bit arithmetic (wrapping), e signed when sgn: a negative
 * exponent gives 0 except for a base of 1 or -1 (the spec's integer power). */
static inline uint64_t base_ipow(uint64_t base, uint64_t e, int w, bool sgn)
{
    if (sgn && base_sext(e, w) < 0) {
        int64_t b = base_sext(base, w);
        if (b != 1 && b != -1) return 0;
        e = 0 - e; /* |e|: only its parity matters for +-1 */
    }
    e &= base_wmask(w);
    uint64_t r = 1;
    while (e) {
        if (e & 1) r *= base;
        base *= base;
        e >>= 1;
    }
    return r;
}

/* ------------------------------------------------------------------------ */
/* Arena: bump allocation, freed in one call.                                */

struct base_arena_chunk;
struct base_arena {
    struct base_arena_chunk *head;
    size_t chunk_bytes;
    size_t total_bytes; /* bytes handed out */
};

void base_arena_init(struct base_arena *a, size_t chunk_bytes);
void base_arena_deinit(struct base_arena *a);
/* Zeroed, 16-byte aligned.  NULL only when out of memory. */
void *base_arena_alloc(struct base_arena *a, size_t n);
char *base_arena_strndup(struct base_arena *a, const char *s, size_t n);
char *base_arena_strdup(struct base_arena *a, const char *s);

/* Growable arrays: grows *p (elements of `elem` bytes, capacity *cap) to hold
 * at least `need` elements, doubling from 16.  false when out of memory or
 * when the size would overflow (then *p and *cap are unchanged). */
bool base_grow(void **p, size_t *cap, size_t need, size_t elem);

/* ------------------------------------------------------------------------ */
/* Logging                                                                   */

#define LOG_CATS(X)        \
    X(BASE, "base")        \
    X(GRAPH, "graph")      \
    X(INTERP, "interp")    \
    X(ISA, "isa")          \
    X(COMP, "compiler")    \
    X(SIM, "sim")          \
    X(MEM, "memory")       \
    X(ICN, "interconnect") \
    X(TRACES, "traces")    \
    X(REPORT, "report")    \
    X(TOOL, "tool")

enum base_log_cat {
#define X(name, text) BASE_LOG_##name,
    LOG_CATS(X)
#undef X
    BASE_LOG_CAT_COUNT
};

enum base_log_level { BASE_LOG_ERROR, BASE_LOG_WARN, BASE_LOG_INFO, BASE_LOG_DEBUG, BASE_LOG_TRACE };

#ifndef LOG_MAX_LEVEL
#define LOG_MAX_LEVEL BASE_LOG_TRACE
#endif

typedef void (*base_log_sink_fn)(void *user, enum base_log_cat cat, enum base_log_level level,
                                 uint64_t sim_time_ps, const char *msg);

/* A logger is an explicit context (no globals).  A NULL logger drops messages. */
struct base_logger {
    base_log_sink_fn sink; /* NULL: stderr */
    void *user;
    enum base_log_level level;
    uint64_t sim_time_ps; /* stamped on each message */
};

void base_logger_init(struct base_logger *lg, enum base_log_level level);
void base_log_write(struct base_logger *lg, enum base_log_cat cat, enum base_log_level level,
                    const char *fmt, ...) BASE_PRINTF(4, 5);
const char *base_log_cat_name(enum base_log_cat cat);
const char *base_log_level_name(enum base_log_level level);

#define BASE_LOG(lg, CAT, LEVEL, ...)                                              \
    do {                                                                           \
        if (BASE_LOG_##LEVEL <= LOG_MAX_LEVEL && (lg) && BASE_LOG_##LEVEL <= (lg)->level) \
            base_log_write((lg), BASE_LOG_##CAT, BASE_LOG_##LEVEL, __VA_ARGS__);   \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Deterministic RNG (splitmix64)                                            */

struct base_rng {
    uint64_t state;
};
void base_rng_seed(struct base_rng *r, uint64_t seed);
uint64_t base_rng_next(struct base_rng *r);
double base_rng_uniform(struct base_rng *r);  /* [0, 1) */
double base_rng_normal(struct base_rng *r);   /* N(0, 1), Box-Muller */

/* ------------------------------------------------------------------------ */
/* Element types                                                             */

enum base_dtype_kind { BASE_KIND_BOOL, BASE_KIND_SINT, BASE_KIND_UINT, BASE_KIND_FLOAT, BASE_KIND_COMPLEX };

/* X(ENUM, "mlir name", value bits, storage bytes, kind)
 * Storage: one element per storage unit, little-endian; sub-byte types take a
 * whole byte (signed ones sign-extended, floats in the low bits).  i1 is 0 or 1.
 * index is a 64-bit signed integer (it appears in attributes). */
#define BASE_DTYPES(X)                                   \
    X(I1, "i1", 1, 1, BOOL)                              \
    X(SI2, "i2", 2, 1, SINT)                             \
    X(SI4, "i4", 4, 1, SINT)                             \
    X(SI8, "i8", 8, 1, SINT)                             \
    X(SI16, "i16", 16, 2, SINT)                          \
    X(SI32, "i32", 32, 4, SINT)                          \
    X(SI64, "i64", 64, 8, SINT)                          \
    X(UI2, "ui2", 2, 1, UINT)                            \
    X(UI4, "ui4", 4, 1, UINT)                            \
    X(UI8, "ui8", 8, 1, UINT)                            \
    X(UI16, "ui16", 16, 2, UINT)                         \
    X(UI32, "ui32", 32, 4, UINT)                         \
    X(UI64, "ui64", 64, 8, UINT)                         \
    X(INDEX, "index", 64, 8, SINT)                       \
    X(F4E2M1FN, "f4E2M1FN", 4, 1, FLOAT)                 \
    X(F6E2M3FN, "f6E2M3FN", 6, 1, FLOAT)                 \
    X(F6E3M2FN, "f6E3M2FN", 6, 1, FLOAT)                 \
    X(F8E3M4, "f8E3M4", 8, 1, FLOAT)                     \
    X(F8E4M3, "f8E4M3", 8, 1, FLOAT)                     \
    X(F8E4M3FN, "f8E4M3FN", 8, 1, FLOAT)                 \
    X(F8E4M3FNUZ, "f8E4M3FNUZ", 8, 1, FLOAT)             \
    X(F8E4M3B11FNUZ, "f8E4M3B11FNUZ", 8, 1, FLOAT)       \
    X(F8E5M2, "f8E5M2", 8, 1, FLOAT)                     \
    X(F8E5M2FNUZ, "f8E5M2FNUZ", 8, 1, FLOAT)             \
    X(F8E8M0FNU, "f8E8M0FNU", 8, 1, FLOAT)               \
    X(BF16, "bf16", 16, 2, FLOAT)                        \
    X(F16, "f16", 16, 2, FLOAT)                          \
    X(F32, "f32", 32, 4, FLOAT)                          \
    X(F64, "f64", 64, 8, FLOAT)                          \
    X(C64, "complex<f32>", 64, 8, COMPLEX)               \
    X(C128, "complex<f64>", 128, 16, COMPLEX)

enum base_dtype {
#define X(e, name, bits, bytes, kind) BASE_DT_##e,
    BASE_DTYPES(X)
#undef X
    BASE_DT_COUNT
};

const char *base_dtype_name(enum base_dtype dt);
int base_dtype_bits(enum base_dtype dt);      /* value bits: 1 for i1, 4 for i4, 64 for c64 */
size_t base_dtype_size(enum base_dtype dt);   /* storage bytes per element */
enum base_dtype_kind base_dtype_kind(enum base_dtype dt);
/* Parses an MLIR element type name ("bf16", "ui8", "complex<f32>", "f8E4M3FN").
 * Returns false when s[0..n) is not one. */
bool base_dtype_parse(const char *s, size_t n, enum base_dtype *out);
static inline bool base_dtype_is_float(enum base_dtype dt) { return base_dtype_kind(dt) == BASE_KIND_FLOAT; }
static inline bool base_dtype_is_complex(enum base_dtype dt) { return base_dtype_kind(dt) == BASE_KIND_COMPLEX; }
static inline bool base_dtype_is_int(enum base_dtype dt) {
    enum base_dtype_kind k = base_dtype_kind(dt);
    return k == BASE_KIND_SINT || k == BASE_KIND_UINT;
}
/* For complex types, the component float type (f32 / f64); otherwise dt. */
enum base_dtype base_dtype_component(enum base_dtype dt);

/* Float format parameters (for FLOAT kinds only).
 *  - IEEE-like formats (bf16, f16, f32, f64, f8E5M2, f8E4M3, f8E3M4) have inf and NaN
 *    at the all-ones exponent.
 *  - FN formats (f8E4M3FN, f6*, f4*) have no inf; f8E4M3FN's NaN is S.1111.111; f4/f6 have no NaN.
 *  - FNUZ formats have no inf, no negative zero, and NaN is 0x80.
 *  - f8E8M0FNU is unsigned, exponent only, no zero and no inf, NaN is 0xFF. */
struct base_float_format {
    int exp_bits;
    int man_bits;
    int bias;
    bool has_sign;
    bool has_inf;
    bool has_nan;
    bool has_neg_zero;
    bool has_zero;
    double max_finite;
    double min_normal;
    double min_subnormal; /* smallest positive; == min_normal when no subnormals */
};
const struct base_float_format *base_float_format(enum base_dtype dt);

/* Exact numerics.  All float conversions round to nearest, ties to even.
 * Overflow gives inf where the format has one, else NaN where it has one,
 * else the largest finite value with the sign (saturation; f4/f6).
 * NaN maps to the format's canonical quiet NaN (sign kept where possible). */
uint64_t base_float_bits_from_f64(enum base_dtype dt, double v);
double base_float_f64_from_bits(enum base_dtype dt, uint64_t bits);
/* Exact integer to float (one rounding, no double-rounding through f64). */
uint64_t base_float_bits_from_i64(enum base_dtype dt, int64_t v);
uint64_t base_float_bits_from_u64(enum base_dtype dt, uint64_t v);
/* Rounds v to the precision/range of dt and back (RNE); dt is a float dtype. */
double base_float_round(enum base_dtype dt, double v);

/* Fast paths used in hot loops. */
static inline float base_bf16_to_f32(uint16_t b) {
    union { uint32_t u; float f; } c;
    c.u = (uint32_t)b << 16;
    return c.f;
}
uint16_t base_f32_to_bf16(float f);
/* The bf16 parts of an f32 as a TPU's f32 passes take them (docs/isa.md,
 * Numerics): p0 = bf16(v), p1 = bf16(v - p0), p2 = bf16(v - p0 - p1), with
 * p0 + p1 + p2 within 2^-24 |v|.  A non-finite v is p0 alone (its low parts
 * are 0, never inf - inf); a finite v whose nearest bf16 overflows takes the
 * largest finite one toward zero, so every part stays finite. */
void base_f32_bf16_parts(float v, float parts[3]);
float base_f16_to_f32(uint16_t h);
uint16_t base_f32_to_f16(float f);

/* Element access on raw storage (index i in elements).  Integers come back
 * sign- or zero-extended to 64 bits; setters wrap to the type's width.
 * get_f64 works for every real type (ints converted exactly where possible);
 * set_f64 rounds to nearest even for floats and truncates toward zero with
 * saturation for ints (NaN -> 0), as StableHLO convert does. */
int64_t base_elem_get_i64(enum base_dtype dt, const void *data, size_t i);
uint64_t base_elem_get_u64(enum base_dtype dt, const void *data, size_t i);
void base_elem_set_i64(enum base_dtype dt, void *data, size_t i, int64_t v);
double base_elem_get_f64(enum base_dtype dt, const void *data, size_t i);
void base_elem_set_f64(enum base_dtype dt, void *data, size_t i, double v);
/* Raw storage bits (zero-extended), for bitcasts and exact compares. */
uint64_t base_elem_get_bits(enum base_dtype dt, const void *data, size_t i);
/* Whether elements [0, count) of data all have element 0's bits (as
 * base_elem_get_bits reads them); count < 1: false.  Fast on whole-byte
 * types (one memcmp of the data against itself shifted by an element). */
bool base_elems_splat(enum base_dtype dt, const void *data, int64_t count);
void base_elem_set_bits(enum base_dtype dt, void *data, size_t i, uint64_t bits);
/* Complex parts; for real types im is 0 and set ignores im. */
void base_elem_get_c128(enum base_dtype dt, const void *data, size_t i, double *re, double *im);
void base_elem_set_c128(enum base_dtype dt, void *data, size_t i, double re, double im);

/* Convert n elements between any two dtypes with StableHLO `convert` semantics
 * (bool<->number, int<->int wraps, float->int truncates and saturates, NaN->0,
 * int->float and float->float round to nearest even, complex->real takes the
 * real part, real->complex has zero imaginary part). */
void base_convert(enum base_dtype dst_dt, void *dst, enum base_dtype src_dt, const void *src, size_t n);

/* Minimum and maximum finite values (ints) as int64/uint64. */
int64_t base_int_min(enum base_dtype dt);
uint64_t base_int_max(enum base_dtype dt);

/* ------------------------------------------------------------------------ */
/* Tensors: shape, element type, contiguous row-major buffer.                */

#define BASE_MAX_RANK 16
/* Largest element count a tensor may have (guards against hostile shapes). */
#define BASE_MAX_ELEMS (INT64_C(1) << 36)

struct base_blob; /* reference-counted storage, shared by reshaped views */

/* A tensor is immutable once it has been handed to someone else; writers fill
 * a fresh one.  Reference counts are atomic, so tensors may be shared between
 * threads (the interpreter runs one thread per process). */
struct base_tensor {
    enum base_dtype dtype;
    int rank;
    int64_t dims[BASE_MAX_RANK];
    int64_t count;  /* product of dims (1 for rank 0) */
    void *data;     /* count * base_dtype_size(dtype) bytes, 64-byte aligned; NULL when lazy */
    struct base_blob *blob;
    _Atomic long refs; /* use retain/release */
    /* A lazy tensor (base_tensor_create_lazy) stores no values: they are
     * computed when read (base_tensor_read) from its source, of which it is
     * the box at lazy_off (of the source's rank) or, when lazy_whole, the
     * whole source in row-major order (possibly reshaped). */
    bool lazy;
    bool lazy_whole;
    int64_t lazy_off[BASE_MAX_RANK];
};

/* New zero-filled tensor with one reference.  ERR_LIMIT for shapes that are
 * negative or too large, ERR_NOMEM when allocation fails. */
enum base_status base_tensor_create(enum base_dtype dt, int rank, const int64_t *dims,
                                    struct base_tensor **out);
/* Same shape and type as t, zero-filled. */
enum base_status base_tensor_create_like(const struct base_tensor *t, struct base_tensor **out);
/* A new tensor sharing t's storage with another shape of the same count.  A
 * lazy tensor reshapes only when it is its whole source (ERR_UNSUPPORTED). */
enum base_status base_tensor_reshape(struct base_tensor *t, int rank, const int64_t *dims,
                                     struct base_tensor **out);
/* A deep copy (stored, also of a lazy tensor). */
enum base_status base_tensor_clone(const struct base_tensor *t, struct base_tensor **out);
struct base_tensor *base_tensor_retain(struct base_tensor *t);
void base_tensor_release(struct base_tensor *t); /* NULL is a no-op */
size_t base_tensor_nbytes(const struct base_tensor *t);
/* Element count of a shape; -1 when a dim is negative or the count overflows
 * BASE_MAX_ELEMS, or the product of its nonzero dims does (the strides of a
 * shape with a zero dim). */
int64_t base_shape_count(int rank, const int64_t *dims);
/* Fills t with deterministic random data for tests and estimates: floats
 * (and complex parts) uniform with mean 0 and standard deviation `scale`;
 * integers uniform in [0, min(1000, max+1)); booleans 50/50.  (ERR_INVALID
 * for a lazy tensor.) */
enum base_status base_tensor_fill_random(struct base_tensor *t, uint64_t seed, double scale);
/* Elements [first, first + n) of what base_tensor_fill_random(seed, scale)
 * writes into a tensor of type dt, computed directly (each value is a pure
 * function of seed and its index), into out (n elements of dt). */
void base_random_elems(enum base_dtype dt, uint64_t seed, double scale, int64_t first, int64_t n, void *out);

/* Lazy tensors: values computed when they are read, never stored whole
 * (procedural random inputs, memory-mapped weight files).  A source reads
 * elements [first, first + n) of its tensor, in row-major order and in the
 * tensor's element type, into out; it must be safe to call from several
 * threads at once.  release (may be NULL) frees user when the last tensor
 * reading the source is gone. */
struct base_lazy_src {
    enum base_status (*read)(void *user, int64_t first, int64_t n, void *out);
    void (*release)(void *user);
    void *user;
};
/* A lazy tensor over src (copied; its user is released with the tensor, also
 * when creation fails).  ERR_LIMIT for bad shapes, ERR_NOMEM. */
enum base_status base_tensor_create_lazy(enum base_dtype dt, int rank, const int64_t *dims,
                                         const struct base_lazy_src *src, struct base_tensor **out);
/* A lazy tensor of the values base_tensor_fill_random(seed, scale) would
 * write: the procedural random inputs. */
enum base_status base_tensor_create_random(enum base_dtype dt, int rank, const int64_t *dims, uint64_t seed,
                                           double scale, struct base_tensor **out);
/* Elements [first, first + n) of t (row-major, t's element type) into out,
 * for stored and lazy tensors alike.  A source's error is returned. */
enum base_status base_tensor_read(const struct base_tensor *t, int64_t first, int64_t n, void *out);
/* The box of extent size[] at off[] of t (in range; t->rank dims): a new
 * stored tensor. */
enum base_status base_tensor_read_box(const struct base_tensor *t, const int64_t *off, const int64_t *size,
                                      struct base_tensor **out);
/* The same box, lazy when t is (a view reading t's source), else stored. */
enum base_status base_tensor_box(struct base_tensor *t, const int64_t *off, const int64_t *size,
                                 struct base_tensor **out);
/* t itself (a new reference) when it is stored; a stored copy of its values
 * when it is lazy. */
enum base_status base_tensor_materialize(struct base_tensor *t, struct base_tensor **out);
/* Bytes of values a tensor stores (0 for a lazy one). */
size_t base_tensor_stored_bytes(const struct base_tensor *t);
/* Row-major strides in elements. */
void base_shape_strides(int rank, const int64_t *dims, int64_t *strides);
/* "2x3xf32" */
void base_tensor_type_str(const struct base_tensor *t, char *buf, size_t cap);

/* ------------------------------------------------------------------------ */
/* NumPy .npy files (format 1.0/2.0/3.0, little-endian, C order).            */
/* bool, i1..i8, u1..u8, f2, f4, f8, c8, c16 map to the obvious dtypes.  bf16 is
 * written as '<V2' (raw 16-bit patterns, as ml_dtypes' bfloat16 saves) and read
 * back as bf16.  Fortran-order and big-endian files are rejected with a diag. */
enum base_status base_npy_read(const char *path, struct base_tensor **out, struct base_diag *diag);
/* The same within lim (NULL: the defaults): a regular file (base_file_open)
 * of at most input-bytes. */
struct base_limits;
enum base_status base_npy_read_lim(const char *path, const struct base_limits *lim, struct base_tensor **out,
                                   struct base_diag *diag);
enum base_status base_npy_read_mem(const void *buf, size_t len, const char *name,
                                   struct base_tensor **out, struct base_diag *diag);
enum base_status base_npy_write(const char *path, const struct base_tensor *t, struct base_diag *diag);

/* ------------------------------------------------------------------------ */
/* Weight files: safetensors (base/safetensors.c)                           */
/* 8 bytes of little-endian header length N, N bytes of JSON naming each
 * tensor's dtype, shape and data_offsets [begin, end) (relative to the data
 * after the header), then the data.  Files are memory-mapped; their tensors
 * are lazy (base_st_tensor_lazy), read and converted to the element type
 * asked for only when used.  Every inconsistency (truncated data, offsets
 * out of range or of the wrong size, unknown dtypes, bad JSON) is refused
 * when the file is opened, naming the file, the tensor and the field. */

struct base_st_tensor {
    char *name;
    enum base_dtype dtype; /* as stored: BOOL U8 I8 U16 I16 U32 I32 U64 I64 F16 BF16 F32 F64 C64 F8_E4M3 F8_E5M2 F8_E8M0 */
    int rank;
    int64_t dims[BASE_MAX_RANK];
    uint64_t begin, end;   /* bytes of the data section */
};
struct base_st_file; /* reference-counted: lazy tensors keep it open */
/* A file held in memory (buf must outlive the file and its tensors; name
 * for diagnostics). */
enum base_status base_st_parse(const void *buf, size_t len, const char *name, struct base_st_file **out,
                               struct base_diag *diag);
/* A file on disk, memory-mapped. */
enum base_status base_st_open(const char *path, struct base_st_file **out, struct base_diag *diag);
void base_st_close(struct base_st_file *f); /* NULL is a no-op */
int base_st_count(const struct base_st_file *f);
const struct base_st_tensor *base_st_get(const struct base_st_file *f, int i);
const char *base_st_path(const struct base_st_file *f);
int base_st_find(const struct base_st_file *f, const char *name); /* -1: none */
/* The safetensors name of a dtype ("BF16"), NULL when the format has none. */
const char *base_st_dtype_name(enum base_dtype dt);
/* Tensor i as a lazy tensor of type dt and shape dims: the shape must be the
 * file's; floats convert to floats and integers to integers on read (else a
 * located ERR_INVALID naming the field). */
enum base_status base_st_tensor_lazy(struct base_st_file *f, int i, enum base_dtype dt, int rank, const int64_t *dims,
                                     struct base_tensor **out, struct base_diag *diag);
/* Several files as one: a .safetensors file, an index (*.safetensors.index.json
 * and its weight_map's shards), or a directory (its index, else every
 * .safetensors in it).  A name in two files is refused. */
struct base_st_set;
enum base_status base_st_set_open(const char *path, struct base_st_set **out, struct base_diag *diag);
void base_st_set_close(struct base_st_set *s);
int base_st_set_n_files(const struct base_st_set *s);
struct base_st_file *base_st_set_file(const struct base_st_set *s, int i);
bool base_st_set_find(const struct base_st_set *s, const char *name, struct base_st_file **f, int *i);

/* ------------------------------------------------------------------------ */
/* Host memory (base/mem.c)                                                  */

/* The machine's available memory (/proc/meminfo MemAvailable); UINT64_MAX
 * when unknown. */
uint64_t base_mem_machine_available(void);
/* What this process can still take: the machine's available memory, or
 * less when a data limit (setrlimit RLIMIT_DATA, npusim --max-memory) leaves
 * less. */
uint64_t base_mem_available(void);
/* The process's resident memory now (VmRSS), 0 when unknown. */
uint64_t base_mem_rss(void);
/* The process's peak resident memory so far (VmHWM), 0 when unknown. */
uint64_t base_mem_peak_rss(void);
/* "16G", "1.5GiB", "800M", "512k", "4096" (binary units) into bytes. */
bool base_size_parse(const char *s, uint64_t *out);
/* "1.23 GiB", "812 MiB", "4096 B". */
void base_size_format(uint64_t bytes, char *buf, size_t cap);
/* The one form of an out-of-memory error: "out of memory: needed N,
 * available M: what" (M: base_mem_available now).  Returns ERR_NOMEM. */
enum base_status base_diag_nomem(struct base_diag *d, const char *file, int line, int col, uint64_t needed,
                                 const char *fmt, ...) BASE_PRINTF(6, 7);

/* ------------------------------------------------------------------------ */
/* Small file helpers                                                        */
/* A module's public entry point returns through this: an error without a
 * message (an out-of-memory path deep inside that only returned its status)
 * gets one naming the step ("out of memory while compiling"), so no error
 * ever reaches the user empty (issue 20).  Returns st. */
enum base_status base_diag_ensure(struct base_diag *d, enum base_status st, const char *file, const char *what);

/* ------------------------------------------------------------------------ */
/* Checked arithmetic: sizes, addresses and shape products never wrap.       */
/* Each gives the exact result in *out and true, or false when it does not   */
/* fit (then *out is unspecified).  base_sat_* saturate instead.             */

static inline bool base_add_u64(uint64_t a, uint64_t b, uint64_t *out) { return !__builtin_add_overflow(a, b, out); }
static inline bool base_mul_u64(uint64_t a, uint64_t b, uint64_t *out) { return !__builtin_mul_overflow(a, b, out); }
static inline bool base_add_i64(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }
static inline bool base_sub_i64(int64_t a, int64_t b, int64_t *out) { return !__builtin_sub_overflow(a, b, out); }
static inline bool base_mul_i64(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }
static inline bool base_add_size(size_t a, size_t b, size_t *out) { return !__builtin_add_overflow(a, b, out); }
static inline bool base_mul_size(size_t a, size_t b, size_t *out) { return !__builtin_mul_overflow(a, b, out); }
static inline uint64_t base_sat_add_u64(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static inline uint64_t base_sat_mul_u64(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
/* Bytes of a row-major tensor of `dims` and element type dt; false when a
 * dim is negative or the shape is past BASE_MAX_ELEMS (base_shape_count). */
bool base_shape_bytes(int rank, const int64_t *dims, enum base_dtype dt, uint64_t *bytes);
/* A decimal count, optionally with a suffix K M G T (powers of 1024) or KB
 * MB GB TB (powers of 1000), whole and exact: "4x", "-5", "1e3", "" and
 * values past UINT64_MAX are refused (false). */
bool base_parse_u64(const char *s, uint64_t *out);

/* ------------------------------------------------------------------------ */
/* Limits: every bound npusim puts on its inputs and on its work, in one     */
/* table (docs/limits.md).  X(ENUM, "name", default, "what it bounds",       */
/* ceiling): a command raises one with --limit NAME=VALUE (up to the         */
/* ceiling), and the error at a limit names it and that option.  Library     */
/* functions take a `const struct base_limits *` (NULL: the defaults).       */

#define BASE_LIMITS(X)                                                                                      \
    X(INPUT_BYTES, "input-bytes", UINT64_C(4) << 30, "bytes of one input file (programs, .npy, chip files, " \
      "traces, scripts, corpus files)", UINT64_MAX)                                                        \
    X(INFLATED_BYTES, "inflated-bytes", UINT64_C(2) << 30, "bytes a compressed input (.json.gz) inflates to", \
      UINT64_MAX)                                                                                           \
    X(NESTING, "nesting", 64, "nesting depth of a program's regions, brackets and attributes", 1024)       \
    X(STEPS, "steps", UINT64_C(10000000000), "instructions one simulated program executes (loops "        \
      "counted trip by trip)", UINT64_MAX)                                                                  \
    X(LOOP_TRIPS, "loop-trips", UINT64_C(10000000), "trips of one while loop in the interpreter", UINT64_MAX) \
    X(HOST_STEPS, "host-steps", UINT64_C(100000000), "steps of a compiled program's host side (launches, "  \
      "branches, collectives) in one run", UINT64_MAX)                                                      \
    X(CHIPS, "chips", 65536, "chips (or ranks) of one simulated system", UINT64_C(1) << 32)               \
    X(CHUNKS, "chunks", 65536, "pipelined chunks of one collective", UINT64_C(1) << 32)                   \
    X(COLLECTIVE_BYTES, "collective-bytes", UINT64_C(1) << 50, "bytes one collective moves per chip",      \
      UINT64_C(1) << 60)

enum base_limit {
#define X(e, name, def, what, ceil) BASE_LIMIT_##e,
    BASE_LIMITS(X)
#undef X
    BASE_LIMIT_COUNT
};

struct base_limits {
    uint64_t v[BASE_LIMIT_COUNT];
    bool special_files; /* readers take FIFOs and devices (still capped at input-bytes) */
};

void base_limits_default(struct base_limits *l);
/* Makes *l (copied) what a NULL `lim` means from now on, process-wide (NULL:
 * back to the defaults).  Called once by the command line before any work
 * and before any thread starts; library callers pass their own instead. */
void base_limits_install(const struct base_limits *l);
/* The installed limits, or NULL when none are. */
const struct base_limits *base_limits_current(void);
/* The value of limit k (l NULL: its default). */
uint64_t base_limit(const struct base_limits *l, enum base_limit k);
const char *base_limit_name(enum base_limit k);
const char *base_limit_what(enum base_limit k);
uint64_t base_limit_default(enum base_limit k);
uint64_t base_limit_ceiling(enum base_limit k);
/* "NAME=VALUE" (VALUE as base_parse_u64 reads it, at most the ceiling). */
enum base_status base_limits_set(struct base_limits *l, const char *spec, struct base_diag *diag);
/* The error at limit k: "<context>: <value> is over the <name> limit of <max>
 * (<what>; raise it with --limit <name>=N)", ERR_LIMIT. */
enum base_status base_limit_fail(struct base_diag *d, const char *file, int line, int col, const struct base_limits *l,
                                 enum base_limit k, uint64_t value, const char *fmt, ...) BASE_PRINTF(8, 9);

/* ------------------------------------------------------------------------ */
/* Files                                                                     */

/* Reads a whole file into a NUL-terminated heap buffer (free with free()),
 * with the default limits (base_file_read_lim). */
enum base_status base_file_read(const char *path, char **out, size_t *len, struct base_diag *diag);
/* The same within lim: a regular file (FIFOs, devices and folders are refused
 * unless lim->special_files: they could block or never end) of at most
 * input-bytes.  Every error names the file and the reason. */
enum base_status base_file_read_lim(const char *path, const struct base_limits *lim, char **out, size_t *len,
                                    struct base_diag *diag);
/* Opens a file for reading under the same rules; *size gets its size (0 for a
 * special file, whose reader must cap what it reads: base_limit(lim,
 * BASE_LIMIT_INPUT_BYTES)). */
enum base_status base_file_open(const char *path, const struct base_limits *lim, FILE **out, uint64_t *size,
                                struct base_diag *diag);

/* Atomic outputs: every file npusim writes goes to a temporary name in the
 * same folder (PATH.tmp-PID-N) and is renamed to PATH when the write has
 * succeeded; a failed write leaves nothing behind, and the error names the
 * file and the reason.
 *     struct base_out o;
 *     TRY(base_out_open(&o, path, diag));
 *     fwrite(..., o.f); ...
 *     return base_out_commit(&o, diag);   // or base_out_abort(&o)
 * Writers that need their own stream (gzip) write through a dup of
 * fileno(o.f) and close it before the commit. */
struct base_out {
    FILE *f;
    char *path; /* the final name */
    char *tmp;  /* the temporary name */
};
enum base_status base_out_open(struct base_out *o, const char *path, struct base_diag *diag);
/* Flushes, closes and renames; on any failure (a write error on o->f
 * included) removes the temporary file and returns ERR_IO naming PATH and the
 * reason. */
enum base_status base_out_commit(struct base_out *o, struct base_diag *diag);
/* Closes and removes the temporary file (a no-op after commit). */
void base_out_abort(struct base_out *o);
/* dir/name (dir "" or NULL: name) into buf, when name stays inside dir: a
 * relative path without "." or ".." components (no way out of the folder).
 * ERR_INVALID (naming `what`, e.g. "dump name") otherwise. */
enum base_status base_path_join(const char *dir, const char *name, const char *suffix, char *buf, size_t cap,
                                const char *what, struct base_diag *diag);

#endif
