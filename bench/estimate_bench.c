/* The estimator's host time on a training step of a 70B-class model
 * (bench/train_step.h: a stand-in with the kernel shapes, collectives and
 * layer loops of Llama 3 70B's step laid out fsdp x tp), and on one chip.
 *   estimate_bench [--chips tpu-v6e:256,trn2:256] [--fsdp 64 --tp 4] [--batch 256 --seq 4096]
 *                  [--layers 80] [--llama3-8b] [--no-loop-reuse] [--out FILE.mlir]
 * Prints each system's row (simulated step, MFU) and its host time. */
#include "bench/train_step.h"

#include "report/estimate.h"

#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct timing {
    double wall, cpu;
};

static void on_row(void *user, const struct rep_compare_row *r)
{
    struct timing *t = user;
    double w = now_s(), c = cpu_s();
    if (r->ok)
        printf("  %-8s x%-5u step %8.3f s  MFU %5.1f%%  exposed comm %7.3f s  loops %llu simulated / %llu reused  "
               "host %.2f s CPU (%.2f s wall)\n",
               r->chip, r->chips, (double)r->step_ps * 1e-12, 100 * r->mfu, (double)r->collective_exposed_ps * 1e-12,
               (unsigned long long)r->loop_trips_simulated, (unsigned long long)r->loop_trips_reused, c - t->cpu,
               w - t->wall);
    else
        printf("  %-8s x%-5u %s\n", r->chip, r->chips, r->error);
    t->wall = w;
    t->cpu = c;
}

int main(int argc, char **argv)
{
    /* Llama 3 70B [S52]: hidden 8192, 80 layers, 64 heads, 8 KV heads of 128, FFN 28672 */
    struct ts_dims d = {80, 8192, 64, 8, 128, 28672, 256, 4096, 64, 4};
    const char *chips = "tpu-v6e:256,trn2:256", *out = NULL;
    bool no_reuse = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--chips")) chips = v, i++;
        else if (!strcmp(a, "--fsdp")) d.fsdp = atoi(v), i++;
        else if (!strcmp(a, "--tp")) d.tp = atoi(v), i++;
        else if (!strcmp(a, "--batch")) d.batch = atoi(v), i++;
        else if (!strcmp(a, "--seq")) d.seq = atoi(v), i++;
        else if (!strcmp(a, "--layers")) d.layers = atoi(v), i++;
        else if (!strcmp(a, "--llama3-8b")) /* [S52]: hidden 4096, 32 layers, 32 heads, 8 KV heads, FFN 14336 */
            d.layers = 32, d.hidden = 4096, d.heads = 32, d.kv_heads = 8, d.ffn = 14336;
        else if (!strcmp(a, "--out")) out = v, i++;
        else if (!strcmp(a, "--no-loop-reuse")) no_reuse = true;
        else {
            fprintf(stderr, "estimate_bench: unknown option %s\n", a);
            return 2;
        }
    }
    char *text = NULL;
    size_t n = ts_program(&d, &text);
    if (!n) return 1;
    if (out) {
        FILE *f = fopen(out, "w");
        if (f) {
            fwrite(text, 1, n, f);
            fclose(f);
        }
    }
    struct base_diag diag;
    base_diag_clear(&diag);
    double t0 = now_s(), c0 = cpu_s();
    struct graph_module *m = NULL;
    struct graph_parse_options po = {.path = "train_step.mlir"};
    if (graph_parse(text, n, &po, &m, &diag) != BASE_OK || graph_verify(m, &diag) != BASE_OK) {
        base_diag_print(&diag, stderr);
        free(text);
        graph_module_destroy(m);
        return 1;
    }
    struct rep_est_system sys[8];
    int ns = 0;
    if (rep_est_systems_parse(chips, sys, 8, &ns, &diag) != BASE_OK) {
        base_diag_print(&diag, stderr);
        return 2;
    }
    printf("training step stand-in (bench/train_step.h): %d layers, hidden %d, %d heads (%d KV), FFN %d; batch %d x "
           "seq %d; fsdp %d x tp %d = %d partitions; parse %.2f s\n",
           d.layers, d.hidden, d.heads, d.kv_heads, d.ffn, d.batch, d.seq, d.fsdp, d.tp, d.fsdp * d.tp,
           now_s() - t0);
    struct rep_est_request q;
    rep_est_request_default(&q);
    q.model = "train_step.mlir";
    q.workload = REP_TRAIN;
    q.batch = d.batch;
    q.seq = d.seq;
    q.systems = sys;
    q.n_systems = ns;
    q.sim.no_loop_reuse = no_reuse;
    struct timing t = {now_s(), cpu_s()};
    q.on_row = on_row;
    q.user = &t;
    struct rep_estimate *e = NULL;
    enum base_status st = rep_estimate_graph(m, &q, &e, &diag);
    if (st != BASE_OK) base_diag_print(&diag, stderr);
    printf("total host %.2f s CPU (%.2f s wall)\n", cpu_s() - c0, now_s() - t0);
    rep_estimate_destroy(e);
    graph_module_destroy(m);
    free(text);
    return st == BASE_OK ? 0 : 1;
}
