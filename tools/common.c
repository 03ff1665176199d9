/* Helpers shared by the subcommands. */
#include "tools/tools.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "runtime/runtime.h"

/* d, then for an allocation that failed without saying what is left: the
 * memory available now and, when known, what the run was estimated to
 * need (every out-of-memory error names its numbers: docs/memory.md). */
static void print_diag(const char *cmd, const struct base_diag *d, uint64_t estimate_bytes)
{
    fprintf(stderr, "npusim: ");
    if (!d->msg[0]) {
        /* every error must say something: an empty one is a bug to fix where
         * the status was returned without a diagnostic */
        fprintf(stderr, "%s%serror: %s (an error without a message: please report it)\n", d->file,
                d->file[0] ? ": " : "", base_status_str(d->status));
        const char *strict = getenv("NPUSIM_STRICT_DIAG");
        if (strict && strict[0] == '1') abort();
    } else {
        base_diag_print(d, stderr);
    }
    if (d->status != BASE_ERR_NOMEM || strstr(d->msg, "available")) return;
    char e[32], m[32];
    base_size_format(estimate_bytes, e, sizeof e);
    base_size_format(base_mem_available(), m, sizeof m);
    if (estimate_bytes)
        fprintf(stderr, "npusim %s: out of memory: needed %s (the run's estimate), available %s now\n", cmd, e, m);
    else
        fprintf(stderr, "npusim%s%s: out of memory: available %s now\n", cmd ? " " : "", cmd ? cmd : "", m);
}

void tool_print_diag(const struct base_diag *d) { print_diag(NULL, d, 0); }

bool tool_count(const char *cmd, const char *opt, const char *v, uint64_t lo, uint64_t hi, int k, uint64_t *out)
{
    uint64_t x;
    if (!base_parse_u64(v, &x) || x < lo || (k < 0 && x > hi)) {
        fprintf(stderr, "npusim %s: %s wants a whole number", cmd, opt);
        if (k >= 0) fprintf(stderr, " >= %llu", (unsigned long long)lo);
        else fprintf(stderr, " in %llu..%llu", (unsigned long long)lo, (unsigned long long)hi);
        fprintf(stderr, ", got '%s'\n", v);
        return false;
    }
    if (k >= 0 && x > base_limit(tool_limits(), (enum base_limit)k)) {
        struct base_diag d;
        base_diag_clear(&d);
        base_limit_fail(&d, "", 0, 0, tool_limits(), (enum base_limit)k, x, "npusim %s %s", cmd, opt);
        tool_print_diag(&d);
        return false;
    }
    *out = x;
    return true;
}

struct graph_module *tool_load_model(const char *path, bool verify)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct graph_module *m = NULL;
    if (graph_parse_file(path, &m, &d) != BASE_OK) {
        tool_print_diag(&d);
        return NULL;
    }
    if (verify && graph_verify(m, &d) != BASE_OK) {
        tool_print_diag(&d);
        graph_module_destroy(m);
        return NULL;
    }
    return m;
}

int tool_unknown_dialects(const struct graph_module *m, const char *path, FILE *f)
{
    struct graph_dialect_count d[16];
    int n_dialects = 0;
    int n = graph_module_unknown_dialects(m, d, 16, &n_dialects);
    if (!n) return 0;
    bool foreign = false;
    for (int i = 0; i < n_dialects; i++) foreign |= !graph_dialect_known(d[i].dialect, strlen(d[i].dialect));
    /* on stderr it is the command's error; on stdout, parse's verdict */
    fprintf(f, "%s%s: %s%s: %d op%s npusim does not know:", f == stderr ? "npusim: " : "", path,
            f == stderr ? "error: " : "", foreign ? "not StableHLO" : "ops newer than npusim", n, n == 1 ? "" : "s");
    for (int i = 0; i < n_dialects; i++)
        fprintf(f, "%s %s%s (%d, first %s at %d:%d)", i ? "," : "", d[i].dialect,
                graph_dialect_known(d[i].dialect, strlen(d[i].dialect)) ? "" : " (another dialect)", d[i].n_ops,
                d[i].first->name, d[i].first->loc.line, d[i].first->loc.col);
    fprintf(f, "\n");
    return n;
}

enum base_status tool_random_tensor(const struct graph_type *ty, uint64_t seed, int i, bool procedural,
                                    struct base_tensor **out)
{
    *out = NULL;
    if (ty->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(ty)) return BASE_ERR_UNSUPPORTED;
    double scale = ty->rank >= 2 && ty->dims[ty->rank - 1] > 0 ? 1.0 / sqrt((double)ty->dims[ty->rank - 1]) : 1.0;
    uint64_t s = seed * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)i;
    int64_t count = base_shape_count(ty->rank, ty->dims);
    if (procedural && count >= 0 && (uint64_t)count * base_dtype_size(ty->elem) >= TOOL_PROCEDURAL_MIN_BYTES)
        return base_tensor_create_random(ty->elem, ty->rank, ty->dims, s, scale, out);
    TRY(base_tensor_create(ty->elem, ty->rank, ty->dims, out));
    return base_tensor_fill_random(*out, s, scale);
}

/* Elided constant k (in file order) draws from stream ELIDED_STREAM + k. */
#define ELIDED_STREAM 0x40000000

struct fill_ctx {
    uint64_t seed;
    int k;
};

static enum base_status fill_random(void *user, const struct graph_op *constant, const struct graph_type *type,
                                    struct base_tensor **out)
{
    (void)constant;
    struct fill_ctx *c = user;
    return tool_random_tensor(type, c->seed, ELIDED_STREAM + c->k++, false, out);
}

int tool_fill_elided(struct graph_module *m, const char *cmd, long seed, bool need_values)
{
    int n = 0;
    const struct graph_op *first = NULL;
    graph_module_fill_elided(m, NULL, NULL, &n, &first);
    if (!n || (seed < 0 && !need_values)) return TOOL_OK;
    if (seed < 0) {
        fprintf(stderr,
                "npusim %s: %s:%d:%d: error: %d constant%s printed elided (dense_resource<__elided__>), this one "
                "first: it has no values; give --random-inputs SEED to fill them with random values%s\n",
                cmd, first->loc.file ? first->loc.file : "?", first->loc.line, first->loc.col, n, n == 1 ? " is" : "s are",
                strcmp(cmd, "run") ? "" : ", or run --timing-only");
        return TOOL_FAIL;
    }
    struct fill_ctx c = {(uint64_t)seed, 0};
    enum base_status st = graph_module_fill_elided(m, fill_random, &c, &n, NULL);
    if (st != BASE_OK) {
        fprintf(stderr, "npusim %s: cannot fill the elided constants: %s\n", cmd, base_status_str(st));
        return TOOL_FAIL;
    }
    fprintf(stderr, "npusim %s: %d elided constant%s filled with random values (seed %ld)\n", cmd, n,
            n == 1 ? "" : "s", seed);
    return TOOL_OK;
}

bool tool_flag(const char *arg, const char *name) { return !strcmp(arg, name); }

bool tool_opt(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n)) return false;
    if (a[n] == '=') {
        *value = a + n + 1;
        return true;
    }
    if (a[n] != 0) return false;
    if (*i + 1 >= argc) {
        fprintf(stderr, "npusim: option %s needs a value\n", name);
        exit(TOOL_USAGE);
    }
    *value = argv[++*i];
    return true;
}

bool tool_out_begin(struct base_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (!path) {
        o->f = stdout;
        return true;
    }
    struct base_diag d;
    base_diag_clear(&d);
    if (base_out_open(o, path, &d) == BASE_OK) return true;
    tool_print_diag(&d);
    return false;
}

int tool_out_end(struct base_out *o, bool ok)
{
    if (!o->path) { /* stdout */
        ok = fflush(stdout) == 0 && ok;
        return ok ? TOOL_OK : TOOL_FAIL;
    }
    if (!ok) {
        fprintf(stderr, "npusim: %s: error: write failed (nothing written)\n", o->path);
        base_out_abort(o);
        return TOOL_FAIL;
    }
    struct base_diag d;
    base_diag_clear(&d);
    if (base_out_commit(o, &d) == BASE_OK) return TOOL_OK;
    tool_print_diag(&d);
    return TOOL_FAIL;
}

bool tool_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool tool_out_dir(const char *cmd, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return true;
        fprintf(stderr, "npusim %s: --out %s: not a folder\n", cmd, path);
        return false;
    }
    /* one folder, not a path: a typo must not create a tree anywhere */
    if (mkdir(path, 0777) == 0 || errno == EEXIST) return true;
    fprintf(stderr, "npusim %s: --out %s: cannot create the folder: %s%s\n", cmd, path, strerror(errno),
            errno == ENOENT ? " (npusim creates the last folder only: its parent must exist)" : "");
    return false;
}

bool tool_precision_parse(const char *s, enum isa_precision *out)
{
    for (int p = 0; p < ISA_PREC_COUNT; p++)
        if (!strcmp(s, isa_precision_name((enum isa_precision)p))) {
            *out = (enum isa_precision)p;
            return true;
        }
    return false;
}

void tool_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* ------------------------------------------------------------ memory */

#if defined(__SANITIZE_ADDRESS__)
#define TOOL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOOL_SANITIZED 1
#endif
#endif

int tool_memory_admit(const char *cmd, const struct rt_mem_estimate *est, const char *max_memory, bool quiet)
{
    uint64_t limit = base_mem_machine_available();
    const char *source = "the machine's available memory";
    if (max_memory) {
        if (!base_size_parse(max_memory, &limit) || limit == 0) {
            fprintf(stderr, "npusim %s: --max-memory takes a size such as 16G, 800M or 1.5GiB (not '%s')\n", cmd,
                    max_memory);
            return TOOL_USAGE;
        }
        source = "--max-memory";
    }
    char need[512], lim[32];
    rt_memory_estimate_str(est, need, sizeof need);
    base_size_format(limit, lim, sizeof lim);
    if (limit != UINT64_MAX && est->total_bytes > limit) {
        char n[32];
        base_size_format(est->total_bytes, n, sizeof n);
        fprintf(stderr, "npusim %s: out of memory: needed %s, available %s (%s): the run would need %s\n", cmd, n,
                lim, source, need);
        return TOOL_FAIL;
    }
    if (!quiet) fprintf(stderr, "npusim %s: memory: estimated %s; limit %s (%s)\n", cmd, need, lim, source);
#ifndef TOOL_SANITIZED
    /* --max-memory holds for the whole process: an allocation past it fails
     * (and is reported with its numbers) rather than the machine's OOM
     * killer.  Not the default limit: MemAvailable is a snapshot that other
     * processes move, and the data limit counts allocations never touched. */
    struct rlimit rl;
    if (max_memory && getrlimit(RLIMIT_DATA, &rl) == 0 && (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= limit)) {
        rl.rlim_cur = (rlim_t)limit;
        setrlimit(RLIMIT_DATA, &rl);
    }
#endif
    return TOOL_OK;
}

void tool_print_nomem(const char *cmd, uint64_t needed, const char *what)
{
    char n[32], m[32];
    base_size_format(needed, n, sizeof n);
    base_size_format(base_mem_available(), m, sizeof m);
    if (needed) fprintf(stderr, "npusim %s: out of memory: needed %s, available %s: %s\n", cmd, n, m, what);
    else fprintf(stderr, "npusim %s: out of memory: available %s: %s\n", cmd, m, what);
}

void tool_print_run_error(const char *cmd, const struct base_diag *d, uint64_t estimate_bytes)
{
    print_diag(cmd, d, estimate_bytes);
}

void tool_print_peak_memory(const char *cmd, uint64_t estimate_bytes)
{
    char r[32], e[32];
    base_size_format(base_mem_peak_rss(), r, sizeof r);
    base_size_format(estimate_bytes, e, sizeof e);
    fprintf(stderr, "npusim %s: peak memory %s (estimated %s)\n", cmd, r, e);
}

/* The limits of this run (docs/limits.md): the defaults, raised by --limit
 * NAME=VALUE and --allow-special-files anywhere on the command line (main
 * sets them before the command runs; read-only after: the command's one
 * piece of process-wide state, like argv).  Here, not in main's file, so
 * that libnpusim.so's commands (npusim_command) have them too. */
static struct base_limits g_limits;
static bool g_limits_set;

struct base_limits *tool_limits_edit(void)
{
    if (!g_limits_set) {
        base_limits_default(&g_limits);
        g_limits_set = true;
    }
    return &g_limits;
}

const struct base_limits *tool_limits(void) { return tool_limits_edit(); }
