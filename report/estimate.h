/* report/estimate.h: the estimator ("which chip, how many, at what cost").
 *
 * For a workload (a preset model of model/, or the user's graph) and a list
 * of systems (a chip kind and a count), one row per system: the step time
 * simulated on a representative chip (timing only, loop reuse on), tokens/s
 * per chip and per system, MFU, memory per device and whether it fits,
 * exposed communication, $ per step and $ per 1M tokens.  Without a layout,
 * a preset's DP/FSDP/TP/PP layouts are searched for the cheapest $ per 1M
 * tokens that fits.  Everything is defined in docs/estimate.md.
 *
 * Use:
 *     struct rep_est_request q;
 *     rep_est_request_default(&q);
 *     q.model = "llama3-70b"; q.workload = REP_TRAIN; q.batch = 256; q.seq = 4096;
 *     q.systems = sys; q.n_systems = n;          // rep_est_systems_parse("tpu-v6e:256,trn2:64")
 *     struct rep_estimate *e;
 *     rep_estimate_preset(&q, &e, &diag);        // or rep_estimate_graph(module, &q, &e, &diag)
 *     rep_estimate_write_text(e, stdout);        // _json, _csv
 *     rep_estimate_destroy(e);
 */
#ifndef NPUSIM_REPORT_ESTIMATE_H
#define NPUSIM_REPORT_ESTIMATE_H

#include "report/report.h"

#define REP_WORKLOADS(X)                                                                                              \
    X(TRAIN, "train")     /* forward, backward, optimiser */                                                           \
    X(PREFILL, "prefill") /* the forward over the prompt */                                                            \
    X(DECODE, "decode")   /* one token per sequence against a KV cache */
enum rep_workload {
#define X(e, name) REP_##e,
    REP_WORKLOADS(X)
#undef X
    REP_WORKLOAD_COUNT
};
const char *rep_workload_name(enum rep_workload w);
bool rep_workload_lookup(const char *name, enum rep_workload *out);
/* Tokens one step processes: train/prefill batch x seq, decode batch. */
double rep_workload_tokens(enum rep_workload w, int64_t batch, int64_t seq);

/* A system: a chip (a bundled name or a .chip path) and how many. */
struct rep_est_system {
    char chip[256];
    uint32_t chips;
};
/* "tpu-v6e:256,trn2:64" (a count of 1 may be left out); located errors. */
enum base_status rep_est_systems_parse(const char *s, struct rep_est_system *out, int cap, int *n,
                                       struct base_diag *diag);

/* A layout: mesh axis sizes (1: unused), their product the system's chips
 * (model/model.h struct mdl_parallel's fields). */
struct rep_est_layout {
    int dp, fsdp, tp, sp, ep, pp;
    int microbatches; /* pipeline microbatches (0: 2 x pp) */
};
/* "dp=8,fsdp=4,tp=8,pp=1,mb=8" (keys dp fsdp tp sp ep pp mb); located errors. */
enum base_status rep_est_layout_parse(const char *s, struct rep_est_layout *out, struct base_diag *diag);
int rep_est_layout_devices(const struct rep_est_layout *l);
void rep_est_layout_str(const struct rep_est_layout *l, char *buf, size_t cap); /* "fsdp=64,tp=4" ("1 chip") */

/* ------------------------------------------------------------------ prices */

/* Where a row's $/chip-hour comes from: an override (--price CHIP=USD), else
 * chips/prices.tsv (the chip's default row, or the first row of `pricing`
 * in `region`), else the chip file's price_per_chip_hour_usd; none: the $
 * figures are missing. */
#define REP_MAX_PRICE_OVERRIDES 16
struct rep_est_prices {
    const struct chip_prices *table;  /* may be NULL */
    int pricing;                      /* enum chip_pricing, or -1: the default row */
    const char *region;               /* NULL: any */
    int n_overrides;
    char override_chip[REP_MAX_PRICE_OVERRIDES][CHIP_NAME_MAX];
    double override_usd[REP_MAX_PRICE_OVERRIDES];
};
/* Adds "CHIP=USD" (USD > 0) to p's overrides; located errors. */
enum base_status rep_est_price_override(struct rep_est_prices *p, const char *s, struct base_diag *diag);
/* Sets thr's price fields (has_price, usd_per_chip_hour, price_basis,
 * price_is_estimate) for chip. */
void rep_est_price(const struct rep_est_prices *p, const struct chip_desc *chip, struct rep_throughput *thr);

/* The figures a row derives from its step time (row->step_ps), its chips,
 * model FLOPs and peak, thr.tokens_per_step and thr's price: tokens/s per
 * system and per chip, MFU, $ per step and $ per 1M tokens (docs/estimate.md
 * gives the formulas). */
void rep_est_row_finish(struct rep_compare_row *row);

/* ------------------------------------------------------------ memory model */

/* What the memory model and the layout ranking need of a model (a preset's
 * configuration gives it: report/estimate_model.c). */
struct rep_est_model_size {
    double params, params_active;     /* total; active per token (MoE) */
    int64_t layers, hidden, heads, kv_heads, head_dim, ffn, vocab;
    uint32_t dtype_bytes;             /* the weights the layers compute with, activations (bf16: 2) */
    uint32_t master_bytes;            /* training: the weights and AdamW moments kept (f32: 4) */
};
/* Memory per device of one step of workload w (global batch, seq) laid out
 * as l, against capacity bytes (docs/estimate.md "Memory"). */
void rep_est_memory(const struct rep_est_model_size *m, enum rep_workload w, int64_t batch, int64_t seq,
                    const struct rep_est_layout *l, double capacity, struct rep_memory *out);

/* ------------------------------------------------------------------ search */

/* Layouts of `chips` devices a search considers: dp x fsdp x tp x pp =
 * chips (sp = ep = 1), tp dividing the heads, pp dividing the layers, the
 * batch divisible by dp x fsdp (and by the microbatches when pp > 1).
 * Returns how many (at most cap written). */
int rep_est_layouts(uint32_t chips, const struct rep_est_model_size *m, enum rep_workload w, int64_t batch,
                    struct rep_est_layout *out, int cap);
/* A quick estimate of a layout's step time (s), used only to order the
 * layouts the search simulates: the roofline of the chip's peak and HBM
 * bandwidth, the pipeline bubble, and the closed-form time of the
 * collectives the layout implies on the chip's links (docs/estimate.md
 * "Layout search").  < 0 when it cannot tell. */
double rep_est_rank(const struct rep_est_model_size *m, enum rep_workload w, int64_t batch, int64_t seq,
                    const struct rep_est_layout *l, const struct chip_desc *chip);

struct rep_est_candidate {
    struct rep_est_layout layout;
    struct rep_memory mem;            /* fits: considered for simulation */
    double rank_s;                    /* rep_est_rank */
};
/* Simulates one layout into row (its figures, row->ok; a layout the
 * generator or the compiler refuses: row->ok false and row->error why). */
typedef enum base_status (*rep_est_eval_fn)(void *user, const struct rep_est_layout *l, struct rep_compare_row *row,
                                            struct base_diag *diag);
/* The search: the candidates that fit are simulated by eval in rank order
 * until max_simulated (0: 3) gave figures (one eval refuses, the next takes
 * its place), and the one with the cheapest $ per 1M tokens (without a
 * price: the shortest step) is *best, with the search's counts set.  No candidate fits: best->ok false, error says how
 * close the least memory came. */
enum base_status rep_est_search(struct rep_est_candidate *cands, int n, int max_simulated, rep_est_eval_fn eval,
                                void *user, struct rep_compare_row *best, struct base_diag *diag);

/* ------------------------------------------------------------------ running */

struct rep_est_sim_options {
    enum cc_mode mode;                /* compiled (the modes side by side: to come) */
    bool checks;                      /* the simulator's race and uninitialised-read checks */
    bool no_loop_reuse;               /* simulate every trip of every loop */
    enum isa_precision precision;
};

/* Compiles m (an SPMD program: its partitions, or one chip's program) for
 * chip and runs it timing-only on a representative chip whose collectives
 * run on the system's links (`chips` chips: rep_est_topology), with loop
 * reuse: fills row's times (step_ps = the representative chip's total),
 * the graph's FLOPs x partitions x replicas (model_flops), peak_flops, the
 * plan's memory figures and the loop counts.  The plan is compiled for a
 * copy of the chip with unbounded HBM (fit is the estimator's to judge:
 * mem.capacity stays the chip's).  run (may be NULL) gets the run report. */
enum base_status rep_est_simulate(const struct graph_module *m, const struct chip_desc *chip, uint32_t chips,
                                  const struct rep_est_sim_options *o, struct rep_compare_row *row,
                                  struct rep_run **run, struct base_diag *diag);
/* The topology `npusim run --topology` would be given for n chips of chip:
 * the chip's smallest slice of n (rt_default_shape), or, past its scale-up
 * domain (links.domain_chips), "K slices of SHAPE" joined by the DCN. */
void rep_est_topology(const struct chip_desc *chip, uint32_t n, char *buf, size_t cap);

/* ------------------------------------------------------------------ estimates */

struct rep_est_request {
    const char *model;                /* a preset's name, or the graph's path (the title) */
    enum rep_workload workload;
    int64_t batch, seq;               /* global sequences per step; tokens per sequence (decode: KV length) */
    const struct rep_est_system *systems;
    int n_systems;
    const struct rep_est_layout *layout; /* NULL: search (presets) / the graph's own (graphs) */
    const struct rep_est_prices *prices; /* NULL: the chip files' prices */
    struct rep_est_sim_options sim;
    int max_simulated;                /* layouts simulated per system by the search (0: 3) */
    /* optional: called after each row is done (progress, host time) */
    void (*on_row)(void *user, const struct rep_compare_row *row);
    void *user;
};
void rep_est_request_default(struct rep_est_request *q);

struct rep_estimate {
    char model[256];
    char source[16];                  /* "preset" or "graph" */
    char workload[16];
    int64_t batch, seq;
    double tokens_per_step;           /* one run of the workload (a graph: one run of its partitions) */
    double params_total, params_active; /* presets; 0 for graphs */
    uint32_t n_rows;
    struct rep_compare_row *rows;     /* one per system, in the request's order */
    uint32_t n_modes;                 /* execution modes side by side: to come (0) */
    struct rep_mode_row *modes;
};
void rep_estimate_destroy(struct rep_estimate *e);

/* The user's graph m on each system: an SPMD program of P partitions runs on
 * P chips, replicated chips / P times (each replica independent: no
 * communication between them); one chip's program is replicated on every
 * chip.  tokens_per_step = one run of the graph (rep_workload_tokens of the
 * request's batch and seq), times the replicas.  A system whose chip count
 * is not a multiple of P gets a row with the error. */
enum base_status rep_estimate_graph(const struct graph_module *m, const struct rep_est_request *q,
                                    struct rep_estimate **out, struct base_diag *diag);
/* A preset of model/ (q->model its name) on each system: generated for the
 * layout (q->layout, or each layout the search simulates), partitioned,
 * simulated.  ERR_UNSUPPORTED when npusim was built without the model
 * generator. */
enum base_status rep_estimate_preset(const struct rep_est_request *q, struct rep_estimate **out,
                                     struct base_diag *diag);

/* The table (one row per system), JSON and CSV: docs/estimate.md. */
void rep_estimate_write_text(const struct rep_estimate *e, FILE *f);
void rep_estimate_write_json(const struct rep_estimate *e, FILE *f);
void rep_estimate_write_csv(const struct rep_estimate *e, FILE *f);

#endif
