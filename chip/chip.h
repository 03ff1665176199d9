/* The description of a chip, as read from a chips/<name>.chip file.
 *
 * A chip has `cores` identical cores; a core has engines (systolic arrays,
 * vector, scalar/activation, gpsimd, DMA queues), a scratchpad and an
 * accumulator; the chip has HBM shared by every DMA queue, and links.
 * Every number comes from the file, where it names its source
 * (../shared/hw/...) or says it is an estimate (EST); nothing here is
 * hard-coded per chip.  The format is documented in docs/chips.md.
 */
#ifndef NPUSIM_CHIP_CHIP_H
#define NPUSIM_CHIP_CHIP_H

#include "base/base.h"
#include "isa/isa.h"

#define CHIP_MAX_ENGINES 32
#define CHIP_MAX_CORES 64 /* cores a chip file may have (sim_create's limit) */
#define CHIP_NAME_MAX 32

enum chip_family { CHIP_FAMILY_TPU, CHIP_FAMILY_NEURON };

/* Systolic dataflow: which operand stays in the array.  WS (weight
 * stationary: TPU MXUs, the Neuron PE; the default, 0), OS (output
 * stationary) and IS (input stationary) for generic arrays (`--array RxC`).
 * Timing of each: docs/timing.md. */
enum chip_dataflow { CHIP_DATAFLOW_WS, CHIP_DATAFLOW_OS, CHIP_DATAFLOW_IS, CHIP_DATAFLOW_COUNT };

/* Rate classes of element types for the engines' throughput tables. */
enum chip_rate_class { CHIP_RATE_FP32, CHIP_RATE_BF16, CHIP_RATE_FP8, CHIP_RATE_INT8, CHIP_RATE_COUNT };
enum chip_rate_class chip_rate_class_of(enum base_dtype dt);

struct chip_engine_desc {
    char name[CHIP_NAME_MAX];   /* stream name in programs: "pe", "mxu0", "vec", "act", "pool", "dma3" */
    enum isa_engine_kind kind;
    double clock_ghz;
    uint32_t dispatch_cycles;  /* fixed cost of issuing one instruction */

    /* SYSTOLIC: a rows x cols array; the stationary operand (weights) occupies
     * it, the moving operand streams through row by row. */
    uint32_t rows, cols;
    bool preload;              /* the next stationary operand loads while the current one streams */
    enum chip_dataflow dataflow; /* ws (default), os, is; preload applies to ws only */
    /* SCALE-Sim's accounting (generic arrays of `npusim gemm --array` only;
     * never from a chip file): every fold is charged as the whole rows x cols
     * array, loading all rows (ws, is; os loads nothing) and draining
     * rows + cols - 2, however much of it the fold uses (docs/gemm.md). */
    bool fold_full_array;
    uint32_t load_rows_per_cycle;  /* stationary rows loaded per cycle */
    uint32_t min_stream_cycles;    /* a matmul streams for at least this many cycles (Neuron: 64) */
    /* moving rows entering per cycle, per rate class (bf16 1, fp8 2 on trn2, fp32 0.25 ...) */
    double rows_per_cycle[CHIP_RATE_COUNT];

    /* VECTOR / SCALAR / GPSIMD: lanes (partitions processed in parallel) and
     * free-dimension elements per lane per cycle, per rate class and for one
     * or two tensor inputs. */
    uint32_t lanes;
    double elems_per_cycle[CHIP_RATE_COUNT];
    double elems_per_cycle_2in[CHIP_RATE_COUNT];
    double transcendental_cost; /* cycles multiplier for exp/tanh/... (1 = same as add) */

    /* DMA: one queue. */
    double bytes_per_ns;        /* the queue's own bandwidth limit */
    uint64_t fixed_ps;          /* per-transfer cost: descriptors, semaphores, start */
};

struct chip_sram_desc {
    uint32_t partitions;        /* 128 */
    uint64_t bytes_per_partition;
    uint32_t banks;             /* accumulator banks (PSUM: 8), 1 for the scratchpad */
    double bytes_per_cycle;     /* engine-side bandwidth per partition (informative) */
};

struct chip_hbm_desc {
    uint64_t capacity_bytes;
    double bytes_per_ns;        /* whole-chip bandwidth, shared by every DMA queue */
    uint64_t latency_ps;
    uint32_t channels;
};

/* Topology hint of the chip-to-chip links (for the interconnect module).
 * X(ENUM, "file name") */
#define CHIP_TOPOLOGIES(X)     \
    X(NONE, "none")           \
    X(RING, "ring")           \
    X(TORUS2D, "torus2d")     \
    X(TORUS3D, "torus3d")     \
    X(SWITCH, "switch")

enum chip_topology {
#define X(e, name) CHIP_TOPO_##e,
    CHIP_TOPOLOGIES(X)
#undef X
    CHIP_TOPO_COUNT
};
const char *chip_topology_name(enum chip_topology t);
const char *chip_family_name(enum chip_family f);
const char *chip_rate_class_name(enum chip_rate_class rc); /* "fp32" "bf16" "fp8" "int8" */

struct chip_link_desc {
    uint32_t count;             /* links per chip */
    double bytes_per_ns;        /* per link, per direction */
    uint64_t latency_ps;
    enum chip_topology topology; /* how the links are wired (hint) */
    uint32_t domain_chips;      /* chips in the largest scale-up domain (pod, UltraServer) */
    /* Between scale-up domains (slices, instances): the chip's share of its
     * host's NICs, per direction, and one traversal; 0 when the file does
     * not say (the interconnect then uses its defaults). */
    double dcn_bytes_per_ns;
    uint64_t dcn_latency_ps;
    /* The software cost of one collective (runtime, descriptors, the first
     * synchronisation) paid once per collective before its first transfer;
     * 0 when the file does not say. */
    uint64_t collective_launch_ps;
};

/* The host side of running a graph (the runtime, runtime/): what a kernel
 * launch costs besides the kernel.  0 when the file has no [host] section. */
struct chip_host_desc {
    uint64_t dispatch_overhead_ps; /* host dispatch of one op in the eager modes (framework + runtime) */
    uint64_t kernel_launch_ps;     /* device-side gap between two kernels of a compiled program */
    /* An op the chip cannot run runs on the host (cc_options.no_fallback):
     * its operands and results cross the host link, and the host computes.
     * 0 when the file does not say: that part then costs nothing. */
    double pcie_bytes_per_ns;      /* the host link, each way (GB/s) */
    double fallback_elems_per_ns;  /* result elements the host computes per ns on a fallback op */
};

struct chip_desc {
    char name[CHIP_NAME_MAX];    /* "tpu-v5e" */
    char path[256];             /* file it came from */
    enum chip_family family;
    uint32_t cores;
    /* Logical devices (ranks) the chip exposes to an SPMD program: 1 on the
     * megacore TPUs, 2 on TPU7x (a device per TensorCore), cores / LNC on
     * Neuron chips (trn2 at LNC=2: 4).  Rank r of a program runs on chip
     * r / ranks_per_chip.  1 when the file does not say. */
    uint32_t ranks_per_chip;
    /* true: cores and HBM are one rank's share of the chip (chip_rank_view) */
    bool rank_view;
    uint32_t n_engines;         /* per core */
    struct chip_engine_desc engines[CHIP_MAX_ENGINES];
    struct chip_sram_desc scratchpad;
    struct chip_sram_desc accumulator;
    struct chip_hbm_desc hbm;
    struct chip_link_desc links;
    struct chip_host_desc host;
    /* numerics */
    bool matmul_supports[BASE_DT_COUNT]; /* element types the systolic arrays take */
    uint32_t fp32_passes_default, fp32_passes_high, fp32_passes_highest; /* bf16 passes per fp32 matmul */
    double price_per_chip_hour_usd;
    /* published peaks (chips.tsv), to check derived figures against; 0 = not published */
    double published_bf16_tflops, published_fp8_tflops, published_int8_tops;
    double published_hbm_gbps;
    /* A second published chip-level figure, where the chip page disagrees with
     * the per-core figures the file follows (Trainium); 0 = none.  Informative. */
    double published_alt_bf16_tflops, published_alt_fp8_tflops, published_alt_int8_tops;
    bool price_is_estimate;     /* the price line's source comment says EST */
};

/* Loads a chip by name or by path.  A name (no '/', not ending in .chip) is
 * looked up as NAME.chip in, in order: the directory $NPUSIM_CHIPS (when set),
 * ./chips, and ../../chips relative to the running executable (the build puts
 * npusim in build/<b>/, so that is the source tree's chips/).  Anything else is
 * a path to a user's own file.  Bad files get a located diag naming the key
 * and the rule. */
enum base_status chip_load(const char *name_or_path, struct chip_desc *out, struct base_diag *diag);
enum base_status chip_parse(const char *text, size_t len, const char *path, struct chip_desc *out,
                                struct base_diag *diag);
/* Names of the bundled chips, in a fixed order. */
int chip_list(const char ***names);

/* Neuron's logical NeuronCore size: LNC physical cores per rank, so
 * ranks_per_chip = cores / lnc.  ERR_INVALID (with a diag naming the rule)
 * on a TPU chip, or when lnc does not divide the cores, or on a rank view. */
enum base_status chip_set_lnc(struct chip_desc *c, uint32_t lnc, struct base_diag *diag);
/* Sets ranks_per_chip (any family); it must divide the cores. */
enum base_status chip_set_ranks(struct chip_desc *c, uint32_t ranks_per_chip, struct base_diag *diag);
/* One rank's share of chip c: cores, HBM capacity and HBM bandwidth divided
 * by ranks_per_chip (the ranks of a chip run at once and share its HBM);
 * everything else, ranks_per_chip and the links included, unchanged;
 * rank_view set.  A chip of one rank per chip (or a rank view) is copied. */
void chip_rank_view(const struct chip_desc *c, struct chip_desc *out);

/* Derived figures.  Peak FLOP/s per chip =
 *   cores x sum over systolic engines (rows x cols x 2 x clock x rows_per_cycle[rc]);
 * 0 when no array takes the rate class.  For CHIP_RATE_FP32, as the timing
 * model runs an fp32 matmul (docs/timing.md): on TPU the bf16 rate divided by
 * fp32_passes_highest (full fp32 accuracy), on Neuron rows_per_cycle[FP32]
 * (native fp32, no passes). */
double chip_peak_flops(const struct chip_desc *c, enum chip_rate_class rc); /* per chip, FLOP/s */
const struct chip_engine_desc *chip_engine(const struct chip_desc *c, const char *name);

/* ------------------------------------------------------------------ prices */

/* $ per chip-hour from chips/prices.tsv (docs/chips.md "Prices"): one row
 * per chip, provider, instance, regions and pricing, each with its source
 * and date; at most one row per chip is its default (the chip file's
 * price_per_chip_hour_usd).  X(ENUM, "name") */
#define CHIP_PRICINGS(X)                                                     \
    X(ON_DEMAND, "on-demand")                                                \
    X(SPOT, "spot")                                                          \
    X(COMMIT_1Y, "commit-1y")                                                \
    X(COMMIT_3Y, "commit-3y")                                                \
    X(CAPACITY_BLOCK, "capacity-block")                                      \
    X(RI_EFFECTIVE, "ri-effective") /* a reserved instance's effective rate */
enum chip_pricing {
#define X(e, name) CHIP_PRICING_##e,
    CHIP_PRICINGS(X)
#undef X
    CHIP_PRICING_COUNT
};
const char *chip_pricing_name(enum chip_pricing p);
bool chip_pricing_lookup(const char *name, enum chip_pricing *out);

/* How far a price can be trusted: a list price as a catalog or the provider
 * gives it; a secondary source; one catalog row with no second source; a
 * catalog inconsistent across regions; a cost model, not a price. */
#define CHIP_PRICE_STATUSES(X)                                               \
    X(LIST, "list")                                                          \
    X(SECONDARY, "secondary")                                                \
    X(UNCONFIRMED, "unconfirmed")                                            \
    X(LOW_CONFIDENCE, "low-confidence")                                      \
    X(ESTIMATE, "estimate")
enum chip_price_status {
#define X(e, name) CHIP_PRICE_##e,
    CHIP_PRICE_STATUSES(X)
#undef X
    CHIP_PRICE_STATUS_COUNT
};
const char *chip_price_status_name(enum chip_price_status s);

struct chip_price {
    char chip[CHIP_NAME_MAX];   /* "tpu-v6e", or a GPU's name ("h100-sxm") */
    char provider[32];
    char instance[96];
    char region[128];           /* one or more, comma-separated, or "n/p", "all" */
    enum chip_pricing pricing;
    double usd_per_chip_hour;   /* > 0 */
    double usd_per_instance_hour; /* 0: not given */
    uint32_t chips_per_instance;  /* 0: not given */
    bool is_default;
    enum chip_price_status status;
    char source[256];           /* "[S45] SkyPilot catalog ..." */
    char source_date[96];
    char notes[256];
    int line;                   /* in the file */
};

struct chip_prices {
    char path[256];
    int n;
    struct chip_price *rows;
};

/* Reads a prices file (path NULL: the bundled chips/prices.tsv, looked up as
 * chip_load looks up chip files).  Tab-separated: '#' comment lines, the
 * header row, then rows; every row needs a chip, a known pricing and status,
 * a price > 0, a source and a date; a chip has at most one default row.
 * Errors are located (file:line:col of the field).  chip_prices_free frees. */
enum base_status chip_prices_load(const char *path, struct chip_prices *out, struct base_diag *diag);
enum base_status chip_prices_parse(const char *text, size_t len, const char *path, struct chip_prices *out,
                                   struct base_diag *diag);
void chip_prices_free(struct chip_prices *p);
/* The row for chip: its default row (pricing < 0 and region NULL), else the
 * first row of that pricing (any, when pricing < 0) whose region list
 * contains region (any, when NULL).  NULL: no price. */
const struct chip_price *chip_price_find(const struct chip_prices *p, const char *chip, int pricing, const char *region);

#endif
