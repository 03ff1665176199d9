/* diff_fuzz: the differential fuzzer's command (docs/fuzzing.md).
 *
 *   diff_fuzz [--seed N] [--iterations N] [--max-ops N] [--chips trn2,tpu-v5e]
 *             [--spmd N] [--minimize|--no-minimize] [--out DIR] [--timeout S]
 *             [--time-limit S] [--only FAMILIES] [--print] [--in-process] [-v]
 *   diff_fuzz --replay FILE_OR_DIR...
 *
 * Iteration i generates the program of seed (seed + i): its size, whether it
 * is an SPMD program, the compiler's mode and core count and its inputs all
 * follow from that seed, which is printed, so `--seed S --iterations 1`
 * runs that program again. */
#include "fuzz/diff/diff.h"

#include "compiler/compiler.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

struct args {
    uint64_t seed;
    long iterations;
    int max_ops, min_ops;
    int spmd;
    double spmd_rate;
    bool minimize;
    const char *out;
    double timeout_s, time_limit_s;
    unsigned families;
    bool print, in_process;
    int verbose;
    int max_evals;
    const char *chips[DF_MAX_CHIPS];
    int n_chips;
    char chip_buf[256];
    const char *dump_dir;
    const char *replay[256];
    int n_replay;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: diff_fuzz [--seed N] [--iterations N] [--max-ops N] [--chips A,B] [--spmd N]\n"
            "                 [--minimize|--no-minimize] [--max-evals N] [--out DIR] [--timeout S]\n"
            "                 [--time-limit S] [--only FAMILY,...] [--print] [--in-process] [-v]\n"
            "       diff_fuzz --replay FILE_OR_DIR... [--chips A,B]\n"
            "\n"
            "Generates random valid StableHLO programs, runs each on the golden interpreter and\n"
            "compiled + simulated on each chip (functional, simulator checks on, --precision\n"
            "highest), and reports crashes, unexpected errors and outputs beyond the documented\n"
            "tolerance.  A finding is written to DIR and minimized.\n"
            "  --seed N          first program's seed (default 1); program i has seed N + i\n"
            "  --iterations N    programs to run (default 100; 0: until --time-limit)\n"
            "  --max-ops N       largest program, in ops (default 300; sizes are drawn up to it)\n"
            "  --min-ops N       smallest program drawn (default 2)\n"
            "  --chips A,B       chips (default trn2,tpu-v5e); --chips N (a number) is --spmd N\n"
            "  --spmd N          SPMD programs run on N simulated chips (2 or 4; 0: none; default 4)\n"
            "  --spmd-rate P     the share of SPMD programs (default 0.3)\n"
            "  --minimize        minimize findings (default); --no-minimize writes them as found\n"
            "  --max-evals N     evaluations the minimizer may make per finding (default 300)\n"
            "  --out DIR         where findings go (default fuzz-findings)\n"
            "  --timeout S       per evaluation (default 120 s)\n"
            "  --time-limit S    stop after S seconds of CPU time\n"
            "  --only F,...      op families: %s",
            df_family_name(0));
    for (int i = 1; i < DF_FAM_COUNT; i++) fprintf(f, ",%s", df_family_name((enum df_family)i));
    fprintf(f, "\n"
               "  --print           print each program instead of running it\n"
               "  --in-process      no fork (for a debugger; a crash ends the fuzzer)\n"
               "  --replay PATH     run reproducers (.mlir files, or folders of them); fails on a finding\n"
               "  --dump-inputs DIR write each program's inputs as DIR/input_<i>.npy (npusim run --inputs)\n");
}

static int parse_chips(struct args *a, const char *s)
{
    snprintf(a->chip_buf, sizeof a->chip_buf, "%s", s);
    a->n_chips = 0;
    char *save = NULL;
    for (char *t = strtok_r(a->chip_buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (a->n_chips == DF_MAX_CHIPS) return -1;
        a->chips[a->n_chips++] = t;
    }
    return a->n_chips ? 0 : -1;
}

static int parse_args(int argc, char **argv, struct args *a)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->iterations = 100;
    a->max_ops = 300;
    a->spmd = 4;
    a->spmd_rate = 0.3;
    a->min_ops = 2;
    a->minimize = true;
    a->out = "fuzz-findings";
    a->timeout_s = 120;
    a->families = DF_FAM_ALL;
    a->max_evals = 300;
    parse_chips(a, "trn2,tpu-v5e");
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (!strcmp(s, name) && v && (i++, true))
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            usage(stdout);
            return 1;
        } else if (OPT("--seed")) {
            a->seed = strtoull(v, NULL, 0);
        } else if (OPT("--iterations")) {
            a->iterations = strtol(v, NULL, 0);
        } else if (OPT("--max-ops")) {
            a->max_ops = atoi(v);
        } else if (OPT("--min-ops")) {
            a->min_ops = atoi(v);
        } else if (OPT("--spmd-rate")) {
            a->spmd_rate = atof(v);
        } else if (OPT("--spmd")) {
            a->spmd = atoi(v);
        } else if (OPT("--max-evals")) {
            a->max_evals = atoi(v);
        } else if (OPT("--dump-inputs")) {
            a->dump_dir = v;
        } else if (OPT("--out")) {
            a->out = v;
        } else if (OPT("--timeout")) {
            a->timeout_s = atof(v);
        } else if (OPT("--time-limit")) {
            a->time_limit_s = atof(v);
        } else if (OPT("--chips")) {
            if (v[0] >= '0' && v[0] <= '9') { /* a count: the SPMD programs' chips */
                a->spmd = atoi(v);
            } else if (parse_chips(a, v)) {
                fprintf(stderr, "diff_fuzz: --chips takes 1 to %d names\n", DF_MAX_CHIPS);
                return 2;
            }
        } else if (OPT("--only")) {
            a->families = 0;
            char buf[256];
            snprintf(buf, sizeof buf, "%s", v);
            char *save = NULL;
            for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                int f = 0;
                while (f < DF_FAM_COUNT && strcmp(t, df_family_name((enum df_family)f))) f++;
                if (f == DF_FAM_COUNT) {
                    fprintf(stderr, "diff_fuzz: no op family '%s'\n", t);
                    return 2;
                }
                a->families |= 1u << f;
            }
        } else if (!strcmp(s, "--minimize")) {
            a->minimize = true;
        } else if (!strcmp(s, "--no-minimize")) {
            a->minimize = false;
        } else if (!strcmp(s, "--print")) {
            a->print = true;
        } else if (!strcmp(s, "--in-process")) {
            a->in_process = true;
        } else if (!strcmp(s, "-v") || !strcmp(s, "--verbose")) {
            a->verbose++;
        } else if (!strcmp(s, "--replay")) {
            while (i + 1 < argc && argv[i + 1][0] != '-' && a->n_replay < 256) a->replay[a->n_replay++] = argv[++i];
            if (!a->n_replay) {
                fprintf(stderr, "diff_fuzz: --replay needs files or folders\n");
                return 2;
            }
        } else {
            fprintf(stderr, "diff_fuzz: unknown option %s\n", s);
            usage(stderr);
            return 2;
        }
#undef OPT
    }
    if (a->spmd == 1 || a->spmd < 0 || a->spmd > 8) {
        fprintf(stderr, "diff_fuzz: --spmd takes 0 or 2..8 chips\n");
        return 2;
    }
    return 0;
}

static double cpu_s(void)
{
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    double s = 0;
    s += (double)self.ru_utime.tv_sec + (double)self.ru_utime.tv_usec * 1e-6;
    s += (double)self.ru_stime.tv_sec + (double)self.ru_stime.tv_usec * 1e-6;
    s += (double)kids.ru_utime.tv_sec + (double)kids.ru_utime.tv_usec * 1e-6;
    s += (double)kids.ru_stime.tv_sec + (double)kids.ru_stime.tv_usec * 1e-6;
    return s;
}

/* What program seed s is: its size, SPMD or not, mode, cores, inputs. */
struct plan_of_seed {
    struct df_gen_opts g;
    struct df_run_opts r;
};

static void plan_seed(const struct args *a, uint64_t s, struct plan_of_seed *p)
{
    struct base_rng r;
    base_rng_seed(&r, df_mix(s ^ UINT64_C(0x5eed)));
    memset(p, 0, sizeof *p);
    p->g.seed = s;
    double u = base_rng_uniform(&r);
    int mx = a->max_ops > 0 ? a->max_ops : 1;
    /* sizes log-uniform up to max_ops; a tenth of the programs at the maximum */
    int mn = a->min_ops > 1 && a->min_ops <= mx ? a->min_ops : mx < 2 ? mx : 2;
    p->g.max_ops = u < 0.1 ? mx : (int)exp(log((double)mn) + (log((double)mx + 1) - log((double)mn)) * base_rng_uniform(&r));
    if (p->g.max_ops < 1) p->g.max_ops = 1;
    if (p->g.max_ops > mx) p->g.max_ops = mx;
    p->g.chips = a->spmd > 1 && base_rng_uniform(&r) < a->spmd_rate ? a->spmd : 0;
    p->g.scale = 1;
    p->g.families = a->families;
    for (int i = 0; i < a->n_chips; i++) p->r.chips[i] = a->chips[i];
    p->r.n_chips = a->n_chips;
    double m = base_rng_uniform(&r);
    p->r.mode = m < 0.7 ? CC_MODE_COMPILED : m < 0.85 ? CC_MODE_FUSED_EAGER : CC_MODE_EAGER;
    double c = base_rng_uniform(&r);
    p->r.n_cores = c < 0.8 ? 0 : c < 0.9 ? 1 : 2;
    p->r.input_seed = s;
    p->r.timeout_s = a->timeout_s;
    p->r.in_process = a->in_process;
    p->r.verbose = a->verbose;
    p->r.dump_dir = a->dump_dir;
}

static char *generate_text(const struct df_gen_opts *g, size_t *len, struct base_diag *d)
{
    struct graph_module *m = NULL;
    if (df_generate(g, &m, d) != BASE_OK) return NULL;
    char *text = NULL;
    if (graph_print_str(m, &text, len) != BASE_OK) text = NULL;
    graph_module_destroy(m);
    return text;
}

static int count_ops_text(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, "\"stablehlo.")) != NULL; p++) n++;
    for (const char *p = text; (p = strstr(p, "\"chlo.")) != NULL; p++) n++;
    return n;
}

static int mkdir_p(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        mkdir(buf, 0777);
        *p = '/';
    }
    return mkdir(buf, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

static void write_finding(const char *path, const char *text, const struct df_result *r, const struct df_run_opts *o,
                          uint64_t seed)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "diff_fuzz: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    fprintf(f, "// diff_fuzz: mode=%s cores=%d inputs=%llu\n", cc_mode_name((enum cc_mode)o->mode), o->n_cores,
            (unsigned long long)o->input_seed);
    fprintf(f, "// found with --seed %llu: ", (unsigned long long)seed);
    char msg[sizeof r->msg];
    snprintf(msg, sizeof msg, "%s", r->msg);
    for (char *p = msg; *p; p++)
        if (*p == '\n') *p = ' ';
    const char *chip = r->chip >= 0 && r->chip < o->n_chips ? o->chips[r->chip] : "interpreter";
    fprintf(f, "%s on %s: %s\n", df_kind_name(r->kind), chip, msg);
    fputs(text, f);
    fclose(f);
}

struct stats {
    long graphs, ops, outputs, host_ops, kernels, refused, spmd;
    long by_kind[DF_KIND_COUNT];
    long findings, unique;
    char sigs[256][400];
    int n_sigs;
};

static bool seen(struct stats *st, const char *sig)
{
    for (int i = 0; i < st->n_sigs; i++)
        if (!strcmp(st->sigs[i], sig)) return true;
    if (st->n_sigs < 256) snprintf(st->sigs[st->n_sigs++], sizeof st->sigs[0], "%s", sig);
    return false;
}

/* Shrinks a generated finding: fewer ops (a prefix of the same program),
 * smaller tensors, then the text. */
static char *minimize(const struct args *a, struct plan_of_seed *p, const char *sig, char *text, size_t *len)
{
    int evals = 0;
    struct base_diag d;
    /* fewer ops: the generator's first k ops are the same program's */
    int lo = 1, hi = p->g.max_ops;
    while (lo < hi && evals < a->max_evals / 3) {
        int mid = lo + (hi - lo) / 2;
        struct df_gen_opts g = p->g;
        g.max_ops = mid;
        size_t n = 0;
        base_diag_clear(&d);
        char *t = generate_text(&g, &n, &d);
        evals++;
        struct df_result r;
        bool same = false;
        if (t) {
            df_evaluate(t, n, "min.mlir", &p->r, &r);
            char s2[400];
            df_signature(&r, &p->r, s2, sizeof s2);
            same = !strcmp(s2, sig);
        }
        if (same) {
            hi = mid;
            free(text);
            text = t;
            *len = n;
            p->g.max_ops = mid;
        } else {
            free(t);
            lo = mid + 1;
        }
    }
    /* smaller tensors */
    static const double scales[] = {0.3, 0.1, 0.03, 0.01};
    for (size_t i = 0; i < ARRAY_LEN(scales) && evals < a->max_evals / 2; i++) {
        struct df_gen_opts g = p->g;
        g.scale = scales[i];
        size_t n = 0;
        base_diag_clear(&d);
        char *t = generate_text(&g, &n, &d);
        evals++;
        struct df_result r;
        bool same = false;
        if (t) {
            df_evaluate(t, n, "min.mlir", &p->r, &r);
            char s2[400];
            df_signature(&r, &p->r, s2, sizeof s2);
            same = !strcmp(s2, sig);
        }
        if (same) {
            free(text);
            text = t;
            *len = n;
            p->g.scale = scales[i];
        } else {
            free(t);
        }
    }
    if (a->verbose)
        fprintf(stderr, "  minimize: generator: %d ops budget, scale %g (%d evaluations)\n", p->g.max_ops, p->g.scale,
                evals);
    evals += df_minimize_text(&text, len, sig, &p->r, a->max_evals - evals, a->verbose);
    if (a->verbose) fprintf(stderr, "  minimize: %d evaluations\n", evals);
    return text;
}

static int fuzz(const struct args *a)
{
    struct stats *st = calloc(1, sizeof *st);
    if (!st) return 1;
    double t0 = cpu_s();
    printf("diff_fuzz: seed %llu, %ld iterations, max %d ops, chips", (unsigned long long)a->seed, a->iterations,
           a->max_ops);
    for (int i = 0; i < a->n_chips; i++) printf(" %s", a->chips[i]);
    printf(", SPMD on %d chips\n", a->spmd);
    fflush(stdout);
    int rc = 0;
    for (long it = 0; a->iterations == 0 || it < a->iterations; it++) {
        if (a->time_limit_s > 0 && cpu_s() - t0 > a->time_limit_s) break;
        uint64_t s = a->seed + (uint64_t)it;
        struct plan_of_seed p;
        plan_seed(a, s, &p);
        struct base_diag d;
        base_diag_clear(&d);
        size_t len = 0;
        char *text = generate_text(&p.g, &len, &d);
        if (!text) {
            char buf[800];
            base_diag_format(&d, buf, sizeof buf);
            printf("seed %llu: generator error: %s\n", (unsigned long long)s, buf);
            st->by_kind[DF_KIND_GENERATOR]++;
            rc = 1;
            continue;
        }
        if (a->print) {
            printf("// seed %llu: %d ops budget, %s\n%s\n", (unsigned long long)s, p.g.max_ops,
                   p.g.chips ? "SPMD" : "single program", text);
            free(text);
            continue;
        }
        struct df_result r;
        df_evaluate(text, len, "fuzz.mlir", &p.r, &r);
        int n_ops = count_ops_text(text);
        st->graphs++;
        st->ops += n_ops;
        st->outputs += r.n_outputs;
        st->host_ops += r.host_ops;
        st->kernels += (long)r.kernels;
        st->spmd += p.g.chips > 1;
        st->by_kind[r.kind]++;
        if (r.kind == DF_KIND_REFUSED) st->refused++;
        if (a->verbose || df_kind_is_finding(r.kind))
            printf("seed %llu: %d ops%s, %s, %s: %s%s%s\n", (unsigned long long)s, n_ops, p.g.chips ? " (SPMD)" : "",
                   cc_mode_name((enum cc_mode)p.r.mode), df_kind_name(r.kind),
                   r.chip >= 0 ? p.r.chips[r.chip] : "", r.chip >= 0 ? ": " : "", r.msg);
        if (df_kind_is_finding(r.kind)) {
            st->findings++;
            char sig[400];
            df_signature(&r, &p.r, sig, sizeof sig);
            /* a mismatch's signature is only its chip and type: each is minimized */
            bool dup = seen(st, sig) && r.kind != DF_KIND_MISMATCH;
            if (!dup) st->unique++;
            mkdir_p(a->out);
            char path[1200];
            snprintf(path, sizeof path, "%s/seed%llu-%s.mlir", a->out, (unsigned long long)s, df_kind_name(r.kind));
            write_finding(path, text, &r, &p.r, s);
            printf("  signature %s%s; written to %s\n", sig, dup ? " (seen before)" : "", path);
            if (a->minimize && !dup && r.kind != DF_KIND_GENERATOR) {
                text = minimize(a, &p, sig, text, &len);
                struct df_result r2;
                df_evaluate(text, len, "min.mlir", &p.r, &r2);
                snprintf(path, sizeof path, "%s/seed%llu-%s-min.mlir", a->out, (unsigned long long)s,
                         df_kind_name(r.kind));
                write_finding(path, text, &r2, &p.r, s);
                printf("  minimized to %d ops: %s\n", count_ops_text(text), path);
            }
            rc = 1;
        }
        free(text);
        fflush(stdout);
    }
    double cpu = cpu_s() - t0;
    printf("diff_fuzz: %ld programs (%ld SPMD), %ld ops, %ld outputs compared on %d chip(s), %ld kernel launches, "
           "%ld host steps; %ld refused as documented limits\n",
           st->graphs, st->spmd, st->ops, st->outputs, a->n_chips, st->kernels, st->host_ops, st->refused);
    printf("diff_fuzz: %ld finding(s), %ld distinct", st->findings, st->unique);
    for (int k = 1; k < DF_KIND_COUNT; k++)
        if (df_kind_is_finding((enum df_kind)k) && st->by_kind[k]) printf(", %s %ld", df_kind_name((enum df_kind)k), st->by_kind[k]);
    printf("\ndiff_fuzz: CPU time %.1f s (this process and its children)\n", cpu);
    free(st);
    return rc;
}

/* ------------------------------------------------------------------ replay */

static int replay_file(const struct args *a, const char *path, int *n_files)
{
    char *text = NULL;
    size_t len = 0;
    struct base_diag d;
    base_diag_clear(&d);
    if (base_file_read(path, &text, &len, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        return 1;
    }
    struct plan_of_seed p;
    plan_seed(a, 0, &p);
    p.r.mode = CC_MODE_COMPILED;
    p.r.n_cores = 0;
    p.r.input_seed = 1;
    const char *h = strstr(text, "// diff_fuzz:");
    if (h) {
        char mode[32] = "compiled";
        int cores = 0;
        unsigned long long in = 1;
        if (sscanf(h, "// diff_fuzz: mode=%31s cores=%d inputs=%llu", mode, &cores, &in) == 3) {
            enum cc_mode m;
            if (cc_mode_lookup(mode, &m)) p.r.mode = m;
            p.r.n_cores = cores;
            p.r.input_seed = in;
        }
    }
    struct df_result r;
    df_evaluate(text, len, path, &p.r, &r);
    (*n_files)++;
    free(text);
    bool bad = df_kind_is_finding(r.kind);
    printf("%s %s: %s%s%s%s%s\n", bad ? "FAIL" : "ok  ", path, df_kind_name(r.kind), r.chip >= 0 ? " on " : "",
           r.chip >= 0 ? p.r.chips[r.chip] : "", r.msg[0] ? ": " : "", r.msg);
    return bad;
}

static int replay_path(const struct args *a, const char *path, int *n_files)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "diff_fuzz: %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (!S_ISDIR(sb.st_mode)) return replay_file(a, path, n_files);
    DIR *dir = opendir(path);
    if (!dir) return 1;
    char *names[4096];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && n < 4096) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l < 5 || strcmp(e->d_name + l - 5, ".mlir")) continue;
        names[n++] = strdup(e->d_name);
    }
    closedir(dir);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (strcmp(names[j], names[i]) < 0) {
                char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
    int bad = 0;
    for (int i = 0; i < n; i++) {
        char full[2048];
        snprintf(full, sizeof full, "%s/%s", path, names[i]);
        bad |= replay_file(a, full, n_files);
        free(names[i]);
    }
    return bad;
}

int main(int argc, char **argv)
{
    struct args a;
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc == 1 ? 0 : rc;
    if (a.n_replay) {
        int bad = 0, n = 0;
        for (int i = 0; i < a.n_replay; i++) bad |= replay_path(&a, a.replay[i], &n);
        printf("diff_fuzz: %d reproducer(s) replayed, %s\n", n, bad ? "FAILED" : "all pass");
        return bad;
    }
    return fuzz(&a);
}
