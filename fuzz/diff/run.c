/* The differential fuzzer's evaluation: a program's text runs on the golden
 * interpreter and, compiled, on each chip's simulator (functional, checks
 * on: races, uninitialised reads, out-of-range accesses); every output is
 * compared with rt_compare_output.  Each evaluation runs in a forked child
 * that reports its phases through a pipe, so a crash or a hang is a finding
 * with the phase it happened in, not the end of the fuzzer. */
#include "fuzz/diff/diff.h"

#include "compiler/compiler.h"
#include "interp/interp.h"
#include "runtime/runtime.h"
#include "sim/sim.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const k_kind_names[] = {
#define X(e, name) name,
    DF_KINDS(X)
#undef X
};
_Static_assert(ARRAY_LEN(k_kind_names) == DF_KIND_COUNT, "a name per kind");

const char *df_kind_name(enum df_kind k) { return (unsigned)k < DF_KIND_COUNT ? k_kind_names[k] : "?"; }

/* ------------------------------------------------------------------ inputs */

static uint64_t hash_str(uint64_t h, const char *s)
{
    for (; s && *s; s++) h = df_mix(h ^ (unsigned char)*s);
    return h;
}

enum base_status df_make_input(const struct graph_value *arg, uint64_t seed, struct base_tensor **out)
{
    const struct graph_type *t = arg->type;
    *out = NULL;
    if (t->kind != GRAPH_TYPE_TENSOR || !graph_type_is_static(t) || t->quant) return BASE_ERR_UNSUPPORTED;
    TRY(base_tensor_create(t->elem, t->rank, t->dims, out));
    struct base_rng r;
    char idx[16];
    snprintf(idx, sizeof idx, "#%d", arg->index);
    base_rng_seed(&r, hash_str(hash_str(df_mix(seed), arg->name ? arg->name : idx), "input"));
    struct base_tensor *x = *out;
    enum base_dtype dt = x->dtype;
    int mode = (int)(base_rng_next(&r) % 10);
    bool specials = base_rng_next(&r) % 20 == 0;
    for (int64_t i = 0; i < x->count; i++) {
        size_t k = (size_t)i;
        if (base_dtype_is_float(dt) || base_dtype_is_complex(dt)) {
            double v = base_rng_normal(&r), im = base_rng_normal(&r);
            if (mode == 0) v *= 100;
            if (specials && base_rng_next(&r) % 16 == 0) {
                static const double sp[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-40, 65504.0, 3.0e38};
                v = sp[base_rng_next(&r) % ARRAY_LEN(sp)];
                /* complex: finite ones (the chips multiply as (ac - bd, ad + bc);
                 * the interpreter, as C and the reference do, recovers
                 * infinities from NaN parts: C11 Annex G) */
                if (base_dtype_is_complex(dt) && !isfinite(v)) v = 0.0;
            }
            if (base_dtype_is_complex(dt)) base_elem_set_c128(dt, x->data, k, v, im);
            else base_elem_set_f64(dt, x->data, k, v);
        } else if (dt == BASE_DT_I1) {
            base_elem_set_i64(dt, x->data, k, (int64_t)(base_rng_next(&r) & 1));
        } else {
            bool sgn = base_dtype_kind(dt) == BASE_KIND_SINT;
            uint64_t u = base_rng_next(&r);
            int64_t v;
            if (mode < 5) v = sgn ? (int64_t)(u % 17) - 8 : (int64_t)(u % 17);
            else if (mode < 8) v = sgn ? (int64_t)(u % 2001) - 1000 : (int64_t)(u % 2001);
            else v = (int64_t)u;
            base_elem_set_i64(dt, x->data, k, v);
        }
    }
    return BASE_OK;
}

/* ---------------------------------------------------------------- the child */

struct msg {
    bool final;
    char phase[96];
    struct df_result res;
};

struct ctx {
    int fd; /* -1: in process */
    char phase[96];
    struct df_result *res;
};

static void phase(struct ctx *c, const char *what, const char *arg)
{
    snprintf(c->phase, sizeof c->phase, "%s%s%s", what, arg ? " " : "", arg ? arg : "");
    if (c->fd < 0) return;
    struct msg m;
    memset(&m, 0, sizeof m);
    snprintf(m.phase, sizeof m.phase, "%s", c->phase);
    ssize_t w = write(c->fd, &m, sizeof m);
    (void)w;
}

static void set(struct df_result *r, enum df_kind k, int chip, int status, const char *fmt, ...) BASE_PRINTF(5, 6);
static void set(struct df_result *r, enum df_kind k, int chip, int status, const char *fmt, ...)
{
    r->kind = k;
    r->chip = chip;
    r->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
}

static void set_diag(struct df_result *r, enum df_kind k, int chip, const struct base_diag *d, const char *what)
{
    char buf[BASE_DIAG_MSG_MAX + BASE_DIAG_SNIPPET_MAX + 300];
    base_diag_format(d, buf, sizeof buf);
    set(r, k, chip, d->status, "%s: %s: %s", what, base_status_str(d->status), buf);
}

/* Compile errors that are documented limits, not findings: a substring of
 * the message and where docs/compiler.md says so. */
static const char *const k_refusals[] = {
    /* "Views": complex values can be held and viewed but not copied on chip */
    "a copy of complex elements",
    /* "Views": between a sub-byte type and another width the bits are a packed stream */
    "packed stream",
};

static bool documented_refusal(const struct base_diag *d)
{
    for (size_t i = 0; i < ARRAY_LEN(k_refusals); i++)
        if (strstr(d->msg, k_refusals[i])) return true;
    return false;
}

/* Whether op is a complex multiply or divide: f32 parts on chip, doubles in
 * the interpreter, so a part past FLT_MAX is inf (or inf - inf = NaN) on
 * chip and may be finite in the interpreter. */
static bool is_complex_product(const struct graph_op *op)
{
    return (op->kind == GRAPH_OP_MULTIPLY || op->kind == GRAPH_OP_DIVIDE) && op->n_results == 1 &&
           base_dtype_is_complex(op->results[0].type->elem);
}

/* Whether op sums in an order of its own (a matmul, convolution, reduction,
 * collective reduction) or is a complex product: steps the chips and the
 * interpreter compute at other precisions. */
static bool is_wide_step(const struct graph_op *op)
{
    switch (op->kind) {
    case GRAPH_OP_DOT_GENERAL:
    case GRAPH_OP_DOT:
    case GRAPH_OP_CONVOLUTION:
    case GRAPH_OP_REDUCE:
    case GRAPH_OP_REDUCE_WINDOW:
    case GRAPH_OP_ALL_REDUCE:
    case GRAPH_OP_REDUCE_SCATTER: return true;
    default: return is_complex_product(op);
    }
}

/* Whether a block (or a region below it) has an op that pred holds for. */
static bool block_any(const struct graph_block *b, bool (*pred)(const struct graph_op *))
{
    for (int i = 0; i < b->n_ops; i++) {
        const struct graph_op *op = b->ops[i];
        if (pred(op)) return true;
        for (int r = 0; r < op->n_regions; r++)
            for (int k = 0; k < op->regions[r].n_blocks; k++)
                if (block_any(&op->regions[r].blocks[k], pred)) return true;
    }
    return false;
}

/* What of a program decides whether a difference is documented. */
struct traits {
    bool sums;             /* is_wide_step */
    bool near_inputs;      /* inputs_near_overflow */
    bool complex_products; /* is_complex_product */
    bool f32_matmuls;      /* is_f32_matmul */
};

/* Whether op is a matmul or convolution with an f32 operand. */
static bool is_f32_matmul(const struct graph_op *op)
{
    if (op->kind != GRAPH_OP_DOT_GENERAL && op->kind != GRAPH_OP_DOT && op->kind != GRAPH_OP_CONVOLUTION) return false;
    for (int i = 0; i < op->n_operands && i < 2; i++)
        if (op->operands[i]->type->elem == BASE_DT_F32) return true;
    return false;
}

/* docs/compiler.md: a chip that multiplies f32 in bf16 passes (a TPU) rounds
 * an operand below bf16's range to zero (and its arrays flush subnormals),
 * so inf times such a value is inf x 0 = NaN on chip where the spec's f32
 * product is inf, as XLA's bf16_6x decomposition gives.  Not a finding: NaN
 * against an infinity on such a chip when the program has an f32 matmul. */
static bool inf_times_flushed(const struct chip_desc *chip, const struct traits *t, const struct rt_compare *cmp)
{
    return t->f32_matmuls && chip->fp32_passes_highest > 1 && isnan(cmp->got_at_worst) && isinf(cmp->want_at_worst);
}

/* Whether an input holds a finite float within 4x of its type's largest
 * (df_make_input's 3e38 in f32 or bf16, 65504 in f16). */
static bool inputs_near_overflow(struct base_tensor *const *in, int n_in)
{
    for (int i = 0; i < n_in; i++) {
        const struct base_float_format *ff = in[i] ? base_float_format(in[i]->dtype) : NULL;
        if (!ff) continue;
        for (int64_t j = 0; j < in[i]->count; j++) {
            double v = fabs(base_elem_get_f64(in[i]->dtype, in[i]->data, (size_t)j));
            if (isfinite(v) && v >= ff->max_finite / 4) return true;
        }
    }
    return false;
}

/* docs/compiler.md: the interpreter sums a matmul in f64, a chip in f32, and
 * a sum below f32 rounds per chunk on chip, per step in the interpreter: a
 * sum whose partial sums pass the type's largest value is inf or NaN on one
 * side and finite on the other.  Not a finding when the program sums and
 * either its inputs come near their type's largest value or the output's
 * finite side is within 2x of its own type's. */
static bool overflow_of_sums(const struct traits *t, enum base_dtype out, const struct rt_compare *cmp)
{
    double x = cmp->got_at_worst, y = cmp->want_at_worst;
    if (!t->sums) return false;
    if ((t->near_inputs || t->complex_products) && !isfinite(x) && isfinite(y)) return true;
    /* a complex product's f32 parts overflow where the interpreter's doubles
     * do not: inf - inf = NaN in a part that is 0 or inf in doubles */
    if (t->complex_products && isnan(x) && isinf(y)) return true;
    /* a sum rounded to a narrow output type whose largest value it reaches
     * (f8E4M3FN: 448, then NaN): a rounding of the sum's order decides
     * between the largest value and inf / NaN */
    const struct base_float_format *ff = base_float_format(out);
    double fin = isfinite(x) ? fabs(x) : fabs(y);
    return ff && isfinite(x) != isfinite(y) && fin >= ff->max_finite / 2;
}

static void run_chip(struct ctx *c, const struct graph_module *m, const struct df_run_opts *o, int ci,
                     struct base_tensor *const *in, int n_in, const struct interp_result *gold,
                     const struct traits *t)
{
    struct df_result *res = c->res;
    struct base_diag d;
    base_diag_clear(&d);
    struct chip_desc chip;
    phase(c, "load chip", o->chips[ci]);
    if (chip_load(o->chips[ci], &chip, &d) != BASE_OK) {
        set_diag(res, DF_KIND_RUN, ci, &d, "chip_load");
        return;
    }
    struct cc_options co;
    cc_options_default(&co);
    co.mode = (enum cc_mode)o->mode;
    co.n_cores = o->n_cores;
    co.default_precision = ISA_PREC_HIGHEST;
    struct cc_plan *p = NULL;
    phase(c, "compile for", o->chips[ci]);
    if (cc_compile(m, &chip, &co, &p, &d) != BASE_OK) {
        set_diag(res, documented_refusal(&d) ? DF_KIND_REFUSED : DF_KIND_COMPILE, ci, &d, "cc_compile");
        return;
    }
    int n_parts = cc_plan_num_partitions(p);
    struct sim *sims[64] = {NULL};
    struct rt_report reps[64];
    memset(reps, 0, sizeof reps);
    int n_out = cc_plan_n_outputs(p);
    struct base_tensor **outs = calloc((size_t)n_out + 1, sizeof *outs);
    struct sim_options so;
    sim_options_default(&so);
    so.check_races = so.check_uninit = true;
    enum base_status st = BASE_OK;
    for (int i = 0; i < n_parts && i < 64 && st == BASE_OK; i++) st = sim_create(&chip, &so, &sims[i], &d);
    if (st != BASE_OK || !outs || n_parts > 64) {
        set_diag(res, DF_KIND_RUN, ci, &d, "sim_create");
        goto done;
    }
    struct rt_options ro;
    rt_options_default(&ro);
    phase(c, "run on", o->chips[ci]);
    st = n_parts > 1 ? rt_run_spmd(p, sims, n_parts, in, n_in, &ro, outs, reps, &d)
                     : rt_run(p, sims[0], in, n_in, &ro, outs, reps, &d);
    if (st != BASE_OK) {
        set_diag(res, DF_KIND_RUN, ci, &d, n_parts > 1 ? "rt_run_spmd" : "rt_run");
        goto done;
    }
    res->host_ops += (int)reps[0].host_ops;
    res->kernels += reps[0].launches;
    phase(c, "compare on", o->chips[ci]);
    if (n_out != gold->n_outputs) {
        set(res, DF_KIND_RUN, ci, BASE_ERR_INTERNAL, "the plan has %d outputs, the interpreter %d", n_out,
            gold->n_outputs);
        goto done;
    }
    for (int i = 0; i < n_out; i++) {
        struct rt_compare cmp;
        rt_compare_output(p, outs[i], gold->outputs[i], &cmp);
        if (cmp.passed) continue;
        if (overflow_of_sums(t, outs[i] ? outs[i]->dtype : BASE_DT_F32, &cmp)) {
            set(res, DF_KIND_REFUSED, ci, BASE_ERR_CHECK, "output %d: %.9g against %.9g after sums near the type's largest value",
                i, cmp.got_at_worst, cmp.want_at_worst);
            break;
        }
        if (inf_times_flushed(&chip, t, &cmp)) {
            set(res, DF_KIND_REFUSED, ci, BASE_ERR_CHECK,
                "output %d: %.9g against %.9g after an f32 matmul in bf16 passes (inf x a value below bf16's range)", i,
                cmp.got_at_worst, cmp.want_at_worst);
            break;
        }
        char tw[64] = "?", tg[64] = "?";
        if (gold->outputs[i]) base_tensor_type_str(gold->outputs[i], tw, sizeof tw);
        if (outs[i]) base_tensor_type_str(outs[i], tg, sizeof tg);
        set(res, DF_KIND_MISMATCH, ci, BASE_ERR_CHECK,
            "output %d (%s, got %s): %lld element(s) beyond the bound (%lld allowed), worst at %lld: got %.9g want %.9g "
            "(ratio %.3g, rtol %.3g atol %.3g, max abs err %.3g)",
            i, tw, tg, (long long)cmp.n_bad, (long long)cmp.n_allowed, (long long)cmp.worst, cmp.got_at_worst,
            cmp.want_at_worst, cmp.worst_ratio, cmp.tol.rtol, cmp.tol.atol, cmp.max_abs_err);
        res->output = i;
        break;
    }
done:
    for (int i = 0; i < n_out && outs; i++) base_tensor_release(outs[i]);
    free(outs);
    for (int i = 0; i < n_parts && i < 64; i++) {
        rt_report_free(&reps[i]);
        sim_destroy(sims[i]);
    }
    cc_plan_destroy(p);
}

static void evaluate(struct ctx *c, const char *text, size_t len, const char *path, const struct df_run_opts *o)
{
    struct df_result *res = c->res;
    memset(res, 0, sizeof *res);
    res->chip = -1;
    struct base_diag d;
    base_diag_clear(&d);
    struct graph_module *m = NULL;
    phase(c, "parse", NULL);
    if (graph_parse(text, len, &(struct graph_parse_options){.path = path}, &m, &d) != BASE_OK) {
        set_diag(res, DF_KIND_PARSE, -1, &d, "graph_parse");
        return;
    }
    phase(c, "verify", NULL);
    if (graph_verify(m, &d) != BASE_OK) {
        set_diag(res, DF_KIND_GENERATOR, -1, &d, "graph_verify");
        graph_module_destroy(m);
        return;
    }
    const struct graph_op *f = graph_module_entry(m);
    if (!f) {
        set(res, DF_KIND_GENERATOR, -1, BASE_ERR_INVALID, "no entry function");
        graph_module_destroy(m);
        return;
    }
    const struct graph_block *b = &f->regions[0].blocks[0];
    int n_in = b->n_args;
    struct base_tensor **in = calloc((size_t)n_in + 1, sizeof *in);
    for (int i = 0; in && i < n_in; i++)
        if (df_make_input(&b->args[i], o->input_seed, &in[i]) != BASE_OK) {
            set(res, DF_KIND_GENERATOR, -1, BASE_ERR_UNSUPPORTED, "argument %d: no input of its type", i);
            goto done;
        }
    for (int i = 0; o->dump_dir && in && i < n_in; i++) {
        char file[1024];
        snprintf(file, sizeof file, "%s/input_%d.npy", o->dump_dir, i);
        if (base_npy_write(file, in[i], &d) != BASE_OK) base_diag_print(&d, stderr);
    }
    phase(c, "interp", NULL);
    struct interp_options io;
    memset(&io, 0, sizeof io);
    io.num_replicas = 1;
    io.num_partitions = interp_module_mesh_size(m);
    io.seed = 0; /* as npusim run --check: the runtime's host steps run stablehlo.rng with the same */
    struct interp_result gold;
    memset(&gold, 0, sizeof gold);
    if (interp_run(m, NULL, in, n_in, &io, &gold, &d) != BASE_OK) {
        set_diag(res, DF_KIND_INTERP, -1, &d, "interp_run");
        interp_result_free(&gold);
        goto done;
    }
    res->n_outputs = gold.n_outputs;
    struct traits t = {.sums = block_any(&m->body, is_wide_step),
                       .near_inputs = inputs_near_overflow(in, n_in),
                       .complex_products = block_any(&m->body, is_complex_product),
                       .f32_matmuls = block_any(&m->body, is_f32_matmul)};
    for (int ci = 0; ci < o->n_chips && !df_kind_is_finding(res->kind); ci++) {
        enum df_kind before = res->kind;
        run_chip(c, m, o, ci, in, n_in, &gold, &t);
        if (res->kind == DF_KIND_REFUSED && before == DF_KIND_NONE) continue;
    }
    interp_result_free(&gold);
done:
    for (int i = 0; in && i < n_in; i++) base_tensor_release(in[i]);
    free(in);
    graph_module_destroy(m);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void df_evaluate(const char *text, size_t len, const char *path, const struct df_run_opts *o, struct df_result *res)
{
    if (o->in_process) {
        struct ctx c = {.fd = -1, .res = res};
        evaluate(&c, text, len, path, o);
        return;
    }
    memset(res, 0, sizeof *res);
    res->chip = -1;
    int fds[2];
    if (pipe(fds) != 0) {
        set(res, DF_KIND_CRASH, -1, BASE_ERR_IO, "pipe: %s", strerror(errno));
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        set(res, DF_KIND_CRASH, -1, BASE_ERR_IO, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        struct df_result r;
        struct ctx c = {.fd = fds[1], .res = &r};
        evaluate(&c, text, len, path, o);
        struct msg m;
        memset(&m, 0, sizeof m);
        m.final = true;
        m.res = r;
        snprintf(m.phase, sizeof m.phase, "%s", c.phase);
        ssize_t w = write(fds[1], &m, sizeof m);
        (void)w;
        close(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    struct msg last;
    memset(&last, 0, sizeof last);
    snprintf(last.phase, sizeof last.phase, "start");
    double t0 = now_s();
    bool final = false, timed_out = false;
    size_t have = 0;
    struct msg cur;
    for (;;) {
        double left = o->timeout_s - (now_s() - t0);
        if (o->timeout_s > 0 && left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd pf = {.fd = fds[0], .events = POLLIN};
        int pr = poll(&pf, 1, o->timeout_s > 0 ? (int)(left * 1000) + 1 : -1);
        if (pr < 0 && errno == EINTR) continue;
        if (pr == 0) continue;
        ssize_t n = read(fds[0], (char *)&cur + have, sizeof cur - have);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        have += (size_t)n;
        if (have == sizeof cur) {
            last = cur;
            have = 0;
            if (cur.final) final = true;
        }
    }
    if (timed_out) kill(pid, SIGKILL);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (final) {
        *res = last.res;
        return;
    }
    if (timed_out) {
        set(res, DF_KIND_TIMEOUT, -1, 0, "no result after %.0f s (during: %s)", o->timeout_s, last.phase);
    } else if (WIFSIGNALED(status)) {
        res->signal = WTERMSIG(status);
        set(res, DF_KIND_CRASH, -1, 0, "signal %d (%s) during: %s", res->signal, strsignal(res->signal), last.phase);
    } else {
        set(res, DF_KIND_CRASH, -1, 0, "the child exited with status %d during: %s", WEXITSTATUS(status), last.phase);
    }
}

/* ------------------------------------------------------------- reporting */

void df_signature(const struct df_result *r, const struct df_run_opts *o, char *buf, size_t cap)
{
    const char *chip = r->chip >= 0 && r->chip < o->n_chips ? o->chips[r->chip] : "-";
    char norm[200];
    size_t n = 0;
    const char *s = r->msg;
    /* the message after its location, without numbers, types, op names and
     * anything in brackets: what stays when the program shrinks */
    const char *e = NULL;
    for (const char *p = s; (p = strstr(p, "error: ")) != NULL; p++) e = p + 7;
    if (r->kind == DF_KIND_CRASH || r->kind == DF_KIND_TIMEOUT) e = strstr(s, "during: ");
    if (e) s = e;
    int depth = 0;
    for (; *s && n + 1 < sizeof norm && n < 90; s++) {
        char ch = *s;
        if (ch == '<' || ch == '(' || ch == '[' || ch == '{') depth++;
        if (depth) {
            if ((ch == '>' || ch == ')' || ch == ']' || ch == '}') && depth > 0) depth--;
            continue;
        }
        if (!strncmp(s, "stablehlo.", 10) || !strncmp(s, "chlo.", 5)) {
            while (s[1] && s[1] != ' ' && s[1] != ':' && s[1] != ',') s++;
            ch = '@';
        }
        if (ch >= '0' && ch <= '9') {
            if (n && norm[n - 1] == '#') continue;
            ch = '#';
        }
        if (ch == '\n') break;
        norm[n++] = ch;
    }
    norm[n] = 0;
    if (r->kind == DF_KIND_MISMATCH) {
        /* the output's element type: the rest varies with the program */
        const char *p = strchr(r->msg, '(');
        const char *q = p ? strchr(p, ',') : NULL;
        const char *x = q;
        while (x && x > p && *x != 'x' && *x != '(') x--;
        snprintf(norm, sizeof norm, "%.*s", x && q > x ? (int)(q - x - 1) : 0, x ? x + 1 : "");
    }
    snprintf(buf, cap, "%s|%s|%s", df_kind_name(r->kind), chip, norm);
}

void df_result_print(const struct df_result *r, const struct df_run_opts *o, FILE *f)
{
    const char *chip = r->chip >= 0 && r->chip < o->n_chips ? o->chips[r->chip] : "interpreter";
    fprintf(f, "%s on %s: %s\n", df_kind_name(r->kind), chip, r->msg);
}
