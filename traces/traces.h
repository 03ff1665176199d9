/* traces: what a simulation did, over time.
 *
 * A trace is a set of lanes (one per engine, DMA queue, kernel track and
 * counter of each chip), each holding slices (busy intervals: instructions,
 * DMA transfers, semaphore waits, kernel launches) or counter samples, plus
 * flows (a DMA -> the wait it released) and the simulation parameters.
 *
 *   building    trc_trace_create / _add_lane / _add_slice ... / _finalize
 *               (the recorder of record/ builds one from a simulation).
 *   writing     trc_write (format from the extension): native .npt (chunked,
 *               zlib-compressed, crc32-checked, indexed, with summaries per
 *               zoom level: docs/traces.md), Perfetto/Chrome .json or .json.gz.
 *   reading     trc_open (.npt, lazily: only the index at open, chunks on
 *               demand) for viewers: lanes, slices in [t0, t1), summaries at a
 *               zoom level, counters, flows.  trc_read loads any format whole.
 *
 * Times are uint64_t picoseconds of simulated time.  Strings (instruction
 * names, graph ops, locations, kernel names) are interned: a slice holds
 * string ids (0 = none), the trace or file resolves them.  Output is
 * deterministic: the same run gives byte-identical files.  This module is
 * the file formats only: it depends on base/ alone.
 */
#ifndef NPUSIM_TRACES_H
#define NPUSIM_TRACES_H

#include "base/base.h"

#include <string.h>

/* ------------------------------------------------------------ records */

/* X(ENUM, "name") */
#define TRC_LANE_KINDS(X)                                                   \
    X(KERNELS, "kernels") /* kernel launches of a chip */                    \
    X(HOST, "host")       /* the host's dispatch and the launch gaps before kernels */ \
    X(ENGINE, "engine")   /* a compute engine of a core: instructions, waits */ \
    X(DMA, "dma")         /* a DMA queue of a core: transfers, waits */       \
    X(COUNTER, "counter") /* samples of a quantity over time */          \
    X(COLLECTIVE, "collectives") /* the collectives of a chip (SPMD runs) */   \
    X(LINK, "link")       /* one chip-to-chip link the chip sends on: what each collective moved over it */

enum trc_lane_kind {
#define X(e, name) TRC_LANE_##e,
    TRC_LANE_KINDS(X)
#undef X
        TRC_LANE_KIND_COUNT
};

#define TRC_SLICE_KINDS(X)                                                  \
    X(INSTR, "instr")   /* an instruction on an engine */                      \
    X(DMA, "dma")       /* a DMA transfer */                                   \
    X(WAIT, "wait")     /* an engine blocked on a semaphore */                 \
    X(KERNEL, "kernel") /* a kernel launch: first start to last end of its records */ \
    X(DISPATCH, "dispatch") /* simulated time between kernels: host dispatch or launch gap */ \
    X(COLLECTIVE, "collective") /* a collective op, start to end (the interconnect model's time) */ \
    X(LINK, "link")     /* the bytes one collective moved over one link, over the collective's time */

enum trc_slice_kind {
#define X(e, name) TRC_SLICE_##e,
    TRC_SLICE_KINDS(X)
#undef X
        TRC_SLICE_KIND_COUNT
};
const char *trc_lane_kind_name(enum trc_lane_kind k);
const char *trc_slice_kind_name(enum trc_slice_kind k);
bool trc_slice_kind_lookup(const char *name, enum trc_slice_kind *out);
bool trc_lane_kind_lookup(const char *name, enum trc_lane_kind *out);

#define TRC_NAME_MAX 48

struct trc_lane {
    char name[TRC_NAME_MAX];  /* "core0 pe", "core3 dma12", "kernels", "hbm GB/s" */
    uint32_t kind;            /* enum trc_lane_kind */
    uint32_t chip;            /* one process per chip */
    int32_t core;             /* -1: chip-wide */
    uint32_t sort_index;      /* display order within the chip */
    char unit[16];            /* counters: "GB/s", "%" */
};

/* Memory spaces at the ends of a DMA slice, as the file formats spell them.
 * The codes are the instruction set's (enum isa_space, isa/isa.h): record/
 * checks that they agree, so the formats need nothing above base/.
 * X(ENUM, "name") */
#define TRC_SPACES(X) \
    X(NONE, "none")   \
    X(HBM, "hbm")     \
    X(SP, "sp")       \
    X(ACC, "acc")

enum trc_space {
#define X(e, name) TRC_SPACE_##e,
    TRC_SPACES(X)
#undef X
    TRC_SPACE_COUNT
};
/* "hbm", "sp", ...; NULL when out of range. */
const char *trc_space_name(uint64_t space);

/* Doubles carried in a slice's integer fields (as their bits). */
static inline uint64_t trc_f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
static inline double trc_bits_f64(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* One busy interval.  Fields a, b, c by kind:
 *   INSTR   a = stream index, b = loop iterations (iter0 | iter1 << 32),
 *           c = visible_ps - end (results visible / signal after the end)
 *   DMA     a = source space, b = destination space (enum trc_space),
 *           c = data start - start (dispatch, fixed cost, HBM latency)
 *   WAIT    a = semaphore, b = target value (int64 as bits), c = stream index
 *   KERNEL  a = kernel index in the plan, b = launch number, c = FLOPs of its
 *           instructions as simulated; bytes = HBM bytes as simulated,
 *           flops = the graph's FLOPs of the kernel (the run report's figures)
 *   DISPATCH the gap before a kernel: as KERNEL, for the kernel it precedes
 *   COLLECTIVE a = group size | groups << 32, b = exposed ps (the part the
 *           chip waited for), c = bus bandwidth GB/s (double bits);
 *           kernel = the algorithm ("ring"), bytes = per chip
 *   LINK    a = link id in the topology, b = the link's bandwidth GB/s per
 *           direction (double bits), c = the collective's number (0, 1, ...
 *           in start order); name, op, loc, kernel as its COLLECTIVE slice;
 *           bytes = what it carried: GB/s = bytes / dur x 1000,
 *           utilisation = that / b (trc_link_gbps, trc_link_util) */
struct trc_slice {
    uint64_t start_ps, dur_ps;
    uint64_t bytes, flops;
    uint64_t a, b, c;
    uint32_t name;   /* "matmul", "activate.exp", "dma hbm->sp", "wait s3", kernel name */
    uint32_t op;     /* graph op name ("stablehlo.dot_general") */
    uint32_t loc;    /* "file:line:col" of the graph op */
    uint32_t kernel; /* kernel name ("fusion(multiply,add)") */
    uint32_t kind;   /* enum trc_slice_kind */
    uint32_t src;    /* the graph op's whole location chain (graph_loc.chain: its name in the framework,
                      * the file:line:col of the code that made it and its callers), 0: none */
};

/* A LINK slice's achieved GB/s (bytes / duration) and its share of the
 * link's bandwidth (0..1; 0 when either is unknown). */
double trc_link_gbps(const struct trc_slice *s);
double trc_link_util(const struct trc_slice *s);

struct trc_sample {
    uint64_t t_ps;
    double value; /* holds from t_ps to the next sample */
};

/* A DMA (from) released the semaphore wait (to) of another lane. */
struct trc_flow {
    uint32_t from_lane, to_lane;
    uint64_t from_ps, to_ps; /* inside the source slice / the waiting slice */
};

/* ----------------------------------------------------- in-memory trace */

struct trc_lane_data {
    struct trc_lane lane;
    struct trc_slice *slices; /* sorted by start; slices of non-zero length never overlap (zero-length ones may lie inside one) */
    size_t n_slices, cap_slices;
    struct trc_sample *samples; /* counters: sorted by time */
    size_t n_samples, cap_samples;
};

struct trc_meta_kv {
    char key[32];
    char value[224];
};

struct trc_strtab {
    char **s;        /* s[0] = "" */
    uint32_t n, cap;
    uint32_t *hash;  /* open addressing: string id + 1, 0 empty */
    uint32_t hcap;
};

struct trc_trace {
    struct trc_meta_kv *meta; /* simulation parameters: chip, mode, seed, ... in insertion order */
    size_t n_meta;
    struct trc_strtab strings;
    struct trc_lane_data *lanes;
    uint32_t n_lanes;
    struct trc_flow *flows;
    size_t n_flows, cap_flows;
    uint64_t end_ps; /* the latest slice end or sample */
};

enum base_status trc_trace_create(struct trc_trace **out);
void trc_trace_destroy(struct trc_trace *t);
/* Interns s; *id = its id (0 for NULL or ""). */
enum base_status trc_trace_intern(struct trc_trace *t, const char *s, uint32_t *id);
const char *trc_trace_string(const struct trc_trace *t, uint32_t id); /* "" when out of range */
enum base_status trc_trace_set_meta(struct trc_trace *t, const char *key, const char *value);
const char *trc_trace_meta(const struct trc_trace *t, const char *key); /* NULL if absent */
enum base_status trc_trace_add_lane(struct trc_trace *t, const struct trc_lane *l, uint32_t *id);
/* Appends (any order; trc_trace_finalize sorts). */
enum base_status trc_trace_add_slice(struct trc_trace *t, uint32_t lane, const struct trc_slice *s);
enum base_status trc_trace_add_sample(struct trc_trace *t, uint32_t lane, uint64_t t_ps, double value);
enum base_status trc_trace_add_flow(struct trc_trace *t, const struct trc_flow *f);
/* Sorts slices (by start, then length), samples and flows (stably),
 * renumbers strings in order of first use (slices lane by lane; unused ones
 * dropped) and sets end_ps: the canonical form the writers need (two equal
 * traces give equal bytes). */
enum base_status trc_trace_finalize(struct trc_trace *t);
/* Structural checks of a finalized trace: slices of a lane sorted, those
 * of non-zero length not overlapping, string ids, kinds and flow lanes in
 * range.  diag names the lane and slice. */
enum base_status trc_trace_validate(const struct trc_trace *t, struct base_diag *diag);

/* ------------------------------------------------------------- writers */

enum trc_format { TRC_FORMAT_NPT, TRC_FORMAT_JSON, TRC_FORMAT_JSON_GZ };
/* From the path's extension: .npt, .json, .json.gz; false otherwise. */
bool trc_format_from_path(const char *path, enum trc_format *out);

/* Writes a finalized trace. */
enum base_status trc_write(const struct trc_trace *t, const char *path, enum trc_format fmt, struct base_diag *diag);
enum base_status trc_write_npt(const struct trc_trace *t, const char *path, struct base_diag *diag);
/* gz: zlib-gzipped. */
enum base_status trc_write_json(const struct trc_trace *t, const char *path, bool gz, struct base_diag *diag);

/* Appends src's lanes (their chip kept), slices, samples, flows and the
 * meta keys dst lacks to dst, then finalizes dst: one trace of several
 * chips, each recorded on its own (record/).  src is not changed. */
enum base_status trc_trace_merge(struct trc_trace *dst, const struct trc_trace *src);

/* Reads any format whole (finalized).  JSON must be npusim's own (it
 * carries the lane table in otherData); errors name the byte offset. */
enum base_status trc_read(const char *path, struct trc_trace **out, struct base_diag *diag);
enum base_status trc_read_json(const char *path, struct trc_trace **out, struct base_diag *diag);
/* The same within lim (NULL: the defaults): a regular file of at most
 * input-bytes that inflates (.json.gz) to at most inflated-bytes. */
enum base_status trc_read_json_lim(const char *path, const struct base_limits *lim, struct trc_trace **out,
                                   struct base_diag *diag);

/* How the top-ops table groups the ops entries.  X(ENUM, "name") */
#define TRC_GROUPS(X)                                                          \
    X(OP, "op")         /* one graph op: its name and location */               \
    X(KIND, "kind")     /* every op of one name (stablehlo.dot_general) */       \
    X(KERNEL, "kernel") /* one kernel: engine time and its launches' wall time */ \
    X(SOURCE, "source") /* one source line: the first file:line of the location chain (else of the .mlir) */
enum trc_group {
#define X(e, name) TRC_GROUP_##e,
    TRC_GROUPS(X)
#undef X
        TRC_GROUP_COUNT
};
const char *trc_group_name(enum trc_group g);
bool trc_group_lookup(const char *name, enum trc_group *out);

/* ---------------------------------------------------- .npt random access */

/* An open .npt.  Queries read and cache chunks, so one trc_file serves one
 * thread at a time (open one per thread to read in parallel). */
struct trc_file;

/* Summary of one lane over one time bucket [index << level, (index + 1) << level). */
struct trc_bucket {
    uint64_t index;
    uint64_t busy_ps;  /* time covered by slices (waits not counted) */
    uint64_t wait_ps;  /* time covered by wait slices */
    uint64_t bytes;    /* bytes of the slices starting in it */
    uint32_t count;    /* slices starting in it */
    uint32_t dominant; /* string id: the op (else name) with most busy time in it */
};

struct trc_slice_vec {
    struct trc_slice *v;
    size_t n, cap;
};
struct trc_bucket_vec {
    struct trc_bucket *v;
    size_t n, cap;
};
struct trc_sample_vec {
    struct trc_sample *v;
    size_t n, cap;
};
struct trc_flow_vec {
    struct trc_flow *v;
    size_t n, cap;
};
void trc_slice_vec_free(struct trc_slice_vec *v);
void trc_bucket_vec_free(struct trc_bucket_vec *v);
void trc_sample_vec_free(struct trc_sample_vec *v);
void trc_flow_vec_free(struct trc_flow_vec *v);

/* Opens an .npt: reads and checks the header, the footer and the index
 * (and the small string and lane chunks).  Slice, summary, sample and flow
 * chunks are read on demand (and cached).  A truncated or corrupt file is
 * an ERR_PARSE: diag.file is the file, the message names the chunk, its
 * byte offset and the check that failed.  Every query below fails the same
 * way when the chunk it reads is damaged; none crashes.  A .json or
 * .json.gz (npusim's own) is read whole and converted on open into an
 * anonymous temporary .npt (tmpfile()), which the same queries read. */
enum base_status trc_open(const char *path, struct trc_file **out, struct base_diag *diag);
void trc_close(struct trc_file *f);

uint32_t trc_file_n_lanes(const struct trc_file *f);
const struct trc_lane *trc_file_lane(const struct trc_file *f, uint32_t lane);
uint64_t trc_file_lane_count(const struct trc_file *f, uint32_t lane); /* slices or samples */
const char *trc_file_string(const struct trc_file *f, uint32_t id);
uint32_t trc_file_n_strings(const struct trc_file *f);
const char *trc_file_meta(const struct trc_file *f, const char *key);
size_t trc_file_n_meta(const struct trc_file *f);
const struct trc_meta_kv *trc_file_meta_at(const struct trc_file *f, size_t i);
uint64_t trc_file_end_ps(const struct trc_file *f);

/* Slices of lane overlapping [t0_ps, t1_ps) (a zero-length slice counts
 * when t0 <= start < t1), in start order, appended to out. */
enum base_status trc_file_slices(struct trc_file *f, uint32_t lane, uint64_t t0_ps, uint64_t t1_ps,
                                 struct trc_slice_vec *out, struct base_diag *diag);
/* Summary levels: a level L has buckets of 2^L ps.  A lane has summaries
 * for levels in [min_level, max_level] (max_level: one bucket covers the
 * run); below min_level its slices are sparse enough to draw directly
 * (min_level > max_level: no summaries, the lane is small).  The level for
 * a zoom of P ps per pixel: trc_level_for(P). */
void trc_file_lane_levels(const struct trc_file *f, uint32_t lane, uint32_t *min_level, uint32_t *max_level);
uint32_t trc_level_for(uint64_t ps_per_pixel); /* floor(log2), >= 0 */
/* Non-empty buckets of lane at level overlapping [t0_ps, t1_ps), in order,
 * appended to out.  ERR_INVALID when the lane has no summary at level. */
enum base_status trc_file_summary(struct trc_file *f, uint32_t lane, uint32_t level, uint64_t t0_ps, uint64_t t1_ps,
                                  struct trc_bucket_vec *out, struct base_diag *diag);
/* Counter samples of lane in [t0_ps, t1_ps), plus the one before t0 (the value at t0). */
enum base_status trc_file_samples(struct trc_file *f, uint32_t lane, uint64_t t0_ps, uint64_t t1_ps,
                                  struct trc_sample_vec *out, struct base_diag *diag);
/* Flows whose interval [from_ps, to_ps] meets [t0_ps, t1_ps). */
enum base_status trc_file_flows(struct trc_file *f, uint64_t t0_ps, uint64_t t1_ps, struct trc_flow_vec *out,
                                struct base_diag *diag);
/* Whole-run totals of a lane (the figures trc_stats_compute gives), from
 * the lane table: no chunk is read.  NULL when out of range. */
const struct trc_lane_stats *trc_file_lane_stats(const struct trc_file *f, uint32_t lane);
/* The graph ops by busy time, descending (as trc_stats_compute orders
 * them), from the file's ops chunk; *ops is owned by f. */
struct trc_op_stats;
enum base_status trc_file_ops(struct trc_file *f, const struct trc_op_stats **ops, size_t *n, struct base_diag *diag);
/* trc_stats from the lane table and the ops chunk (fast: no slice is
 * read); free with trc_stats_free. */
struct trc_stats;
enum base_status trc_file_stats(struct trc_file *f, struct trc_stats *out, struct base_diag *diag);
void trc_file_stats_write_text(const struct trc_file *f, const struct trc_stats *s, size_t n_top, enum trc_group by,
                               FILE *out);
/* Reads every chunk and checks its crc32 and decoding. */
enum base_status trc_file_verify(struct trc_file *f, struct base_diag *diag);
/* The whole file as an in-memory trace. */
enum base_status trc_file_load(struct trc_file *f, struct trc_trace **out, struct base_diag *diag);
/* Chunk statistics for `trace stats`: chunks, compressed and raw bytes. */
void trc_file_chunk_stats(const struct trc_file *f, uint64_t *n_chunks, uint64_t *comp_bytes, uint64_t *raw_bytes);

/* Summaries computed from slices, the same way the writer does (tests and
 * the JSON path use it): non-empty buckets of level over the whole lane. */
enum base_status trc_summarize(const struct trc_slice *s, size_t n, uint32_t level, struct trc_bucket_vec *out);

/* --------------------------------------------------------------- stats */

struct trc_lane_stats {
    uint32_t lane;
    uint64_t slices, busy_ps, wait_ps, bytes, flops;
};
/* The time of one graph op in one kernel (kind 0: summed over the
 * instruction and DMA slices of every lane), or of one kernel's launches
 * (kind 1: its kernel slices: wall time, launches, their bytes and FLOPs). */
struct trc_op_stats {
    uint32_t op;     /* string id: the graph op (else the instruction name) */
    uint32_t loc;    /* its location (.mlir file:line:col) */
    uint32_t src;    /* its location chain (trc_slice.src) */
    uint32_t kernel; /* the kernel */
    uint32_t kind;   /* 0: engine time, 1: kernel launches */
    uint64_t busy_ps, slices, bytes, flops;
};
struct trc_stats {
    uint64_t end_ps, n_slices, n_samples, n_flows;
    struct trc_lane_stats *lanes; /* one per lane */
    uint32_t n_lanes;
    struct trc_op_stats *ops;     /* sorted by busy time, descending */
    size_t n_ops;
};
enum base_status trc_stats_compute(const struct trc_trace *t, struct trc_stats *out);
void trc_stats_free(struct trc_stats *s);

/* ------------------------------------------------------ top-op groups */


#define TRC_KEY_MAX 256
struct trc_group_row {
    char key[TRC_KEY_MAX]; /* what rows are matched on across traces: "op loc", op name, kernel, source line */
    uint32_t op, loc, src, kernel; /* string ids of its busiest entry (colour, search) */
    uint64_t busy_ps, slices, bytes, flops; /* engine time (kind 0 entries) */
    uint64_t kernel_ps, launches; /* KERNEL rows: its launches' wall time; other rows: of the kernels of their entries */
    uint64_t time_ps;  /* what the row is sorted and compared by: kernel_ps for KERNEL rows, else busy_ps */
    uint32_t n_ops;    /* distinct graph ops (op, location) in it */
};
struct trc_groups {
    enum trc_group by;
    struct trc_group_row *rows; /* by time_ps, descending */
    size_t n;
    uint64_t total_ps;          /* the sum of time_ps: shares are of it */
    uint64_t total_busy_ps, total_kernel_ps;
};
/* str(strs, id) resolves the entries' string ids. */
enum base_status trc_groups_make(const struct trc_op_stats *ops, size_t n, enum trc_group by,
                                 const char *(*str)(const void *strs, uint32_t id), const void *strs,
                                 struct trc_groups *out);
enum base_status trc_file_groups(struct trc_file *f, enum trc_group by, struct trc_groups *out, struct base_diag *diag);
enum base_status trc_trace_groups(const struct trc_trace *t, const struct trc_stats *s, enum trc_group by,
                                  struct trc_groups *out);
void trc_groups_free(struct trc_groups *g);
/* The source line of a location chain (src): its first file:line, else
 * the .mlir location's (loc) file:line; "" when neither has one. */
const char *trc_source_line(const char *src, const char *loc, char *buf, size_t cap);

/* Two traces' rows matched by key (A's groups against B's, grouped alike):
 * time in A, in B (0: absent), B - A; by |delta| descending, ties by key. */
struct trc_diff_row {
    char key[TRC_KEY_MAX];
    uint64_t a_ps, b_ps;
    int64_t delta_ps;
    size_t a_row, b_row; /* SIZE_MAX: absent */
};
enum base_status trc_groups_diff(const struct trc_groups *a, const struct trc_groups *b, struct trc_diff_row **rows,
                                 size_t *n);

/* Per-lane busy time and the top n_top ops by time grouped by `by`, with
 * totals and shares, as text. */
void trc_stats_write_text(const struct trc_trace *t, const struct trc_stats *s, size_t n_top, enum trc_group by,
                          FILE *f);

#endif
