/* Parser throughput: parses each file given on the command line repeatedly
 * (at least 0.3 s of CPU time per file) and prints MB/s of parsing (CPU
 * time, so other jobs on the machine matter less) and of printing.
 *
 *   make BUILD=release all
 *   cc -O2 -I. bench/parse_bench.c build/release/libnpusim.a -lm -lpthread -o build/release/parse_bench
 *   build/release/parse_bench ../shared/models/qwen_3_0_6b_shlo.mlir ...
 */
#define _POSIX_C_SOURCE 200809L
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU time of this process: the machine may be shared with other jobs. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s file.mlir ...\n", argv[0]);
        return 2;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        char *text;
        size_t len;
        struct base_diag d;
        base_diag_clear(&d);
        if (base_file_read(argv[i], &text, &len, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            rc = 1;
            continue;
        }
        struct graph_parse_options opt = {argv[i], 0, 0, false};
        int reps = 0;
        double t0 = now_s(), t = 0;
        struct graph_module *m = NULL;
        do {
            graph_module_destroy(m);
            m = NULL;
            base_diag_clear(&d);
            double a = now_s();
            if (graph_parse(text, len, &opt, &m, &d) != BASE_OK) {
                base_diag_print(&d, stderr);
                rc = 1;
                break;
            }
            t += now_s() - a;
            reps++;
        } while (now_s() - t0 < 0.3);
        if (m) {
            char *out;
            size_t out_len;
            double a = now_s();
            enum base_status st = graph_print_str(m, &out, &out_len);
            double tp = now_s() - a;
            if (st == BASE_OK) {
                printf("%-60s %8.2f MB  parse %7.1f MB/s (%d runs)  print %7.1f MB/s  values %u ops %u\n", argv[i],
                       (double)len / 1e6, (double)len * reps / t / 1e6, reps, (double)out_len / tp / 1e6,
                       m->n_values, m->n_ops);
                free(out);
            }
            graph_module_destroy(m);
        }
        free(text);
    }
    return rc;
}
