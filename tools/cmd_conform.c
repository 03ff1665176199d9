/* npusim conform [--chip NAME [--mode M] [--min-pass PCT]] [--json] [--known FILE] [-v] [--jobs N]
 *                [--timeout S] PATH...
 *
 * Each file (or each `// -----` chunk of it) is one case, run in a forked
 * child so that a crash or a hang is reported as that case's failure.
 * Without --chip the golden interpreter runs the cases; with it the compiled
 * path does (runtime/: compile, simulate, check on the host). */
#include "tools/tools.h"
#include "runtime/runtime.h"
#include "interp/interp.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct conf_case {
    char *file;      /* path as found */
    char *id;        /* path relative to the root given, plus "#N" for chunk N of a split file */
    int chunk;       /* 0-based */
    int n_chunks;
    struct case_out {
        struct interp_case_result res;
        struct rt_case_info info; /* --chip: scope, host steps */
    } out;
    const char *known_reason; /* from --known */
    bool listed;
};

struct conf_list {
    struct conf_case *v;
    int n, cap;
};

/* How cases run: the interpreter, or the compiled path on a chip. */
struct conf_cfg {
    const struct chip_desc *chip; /* NULL: the golden interpreter */
    struct cc_options copt;
};

struct known {
    char *id;
    char *reason;
    bool seen;
};

static void help(FILE *f)
{
    fprintf(f,
            "usage: npusim conform [options] PATH...\n"
            "\n"
            "Runs StableHLO conformance tests: .mlir (or .mlir.bc) files, or folders searched recursively.\n"
            "A file is split at lines '// -----' and each chunk is a case (id: file#N).\n"
            "A case passes when it parses, verifies, runs, and every check op in it passes\n"
            "(check.expect_*, custom_call @check.*).  Cases without check ops, and cases\n"
            "whose entry function takes arguments and that embed no inputs, are counted as\n"
            "'nocheck' (parse+verify only).\n"
            "\n"
            "A case with '// expected-error {{...}}' comments is a verifier case (upstream's\n"
            "stablehlo-opt -verify-diagnostics tests): it passes when parsing or verifying\n"
            "rejects it, and fails when both accept it.  The summary gives the front end's\n"
            "two rates: valid cases accepted, invalid (verifier) cases rejected, and how\n"
            "many rejections resemble the expected message.\n"
            "\n"
            "With --chip the cases run through the compiled path instead of the golden\n"
            "interpreter: each is compiled for the chip, simulated with real values, and\n"
            "judged by its own check ops; what the chip cannot run falls back to the host.\n"
            "The summary gives the pass rate over all cases with checks, how many ran\n"
            "entirely on the chip and how many with host steps, and the older figure over\n"
            "the compiler issue's scope (docs/compiler.md \"Conformance\").\n"
            "\n"
            "options:\n"
            "  --chip NAME    run compiled on this chip (see npusim chips)\n"
            "  --mode M       with --chip: compiled (default), fused-eager or eager\n"
            "  --precision P  with --chip: the precision of f32 matmuls that ask for the\n"
            "                 default: default (the chip's: one bf16 pass on TPU), high or\n"
            "                 highest (as JAX's own test suites set it)\n"
            "  --min-pass PCT with --chip: fail unless at least PCT%% of the cases with\n"
            "                 checks pass (all of them, not only the in-scope ones)\n"
            "  --known FILE   list of expected failures ('ID  reason' per line, '#' comments):\n"
            "                 an unlisted failure fails the run, and so does a listed case\n"
            "                 that now passes (remove it from the list)\n"
            "  --json         print results as JSON on stdout\n"
            "  -v             print every case, not only failures\n"
            "  --jobs N       cases run in parallel (default 2)\n"
            "  --timeout S    seconds before a case is killed (default 300)\n"
            "  --no-fork      run cases in this process (for debugging)\n"
            "exit status: 0 all as expected, 1 unexpected results, 2 usage.\n");
}

/* ------------------------------------------------------------------------ */
/* Collecting files                                                          */

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

struct strvec {
    char **v;
    int n, cap;
};

static void strvec_push(struct strvec *s, char *x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->v = realloc(s->v, (size_t)s->cap * sizeof *s->v);
        if (!s->v) {
            tool_print_nomem("conform", (uint64_t)s->cap * sizeof *s->v, "the list of files");
            exit(TOOL_FAIL);
        }
    }
    s->v[s->n++] = x;
}

static void walk(const char *dir, struct strvec *out)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "npusim conform: cannot open %s: %s\n", dir, strerror(errno));
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(n);
        if (!p) continue;
        snprintf(p, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            walk(p, out);
            free(p);
        } else if (has_suffix(p, ".mlir") || has_suffix(p, ".mlir.bc")) {
            strvec_push(out, p);
        } else {
            free(p);
        }
    }
    closedir(d);
}

static void add_cases(struct conf_list *cl, const char *root, const char *file)
{
    char *text = NULL;
    size_t len = 0;
    struct base_diag d;
    base_diag_clear(&d);
    int n_chunks = 1;
    size_t *starts = NULL, *lens = NULL;
    int *lines = NULL;
    if (base_file_read(file, &text, &len, &d) == BASE_OK &&
        graph_split_chunks(text, len, &n_chunks, &starts, &lens, &lines) != BASE_OK)
        n_chunks = 1;
    free(text);
    free(starts);
    free(lens);
    free(lines);
    const char *rel = file;
    size_t rl = strlen(root);
    if (rl && !strncmp(file, root, rl) && file[rl] == '/') rel = file + rl + 1;
    for (int c = 0; c < n_chunks; c++) {
        if (cl->n == cl->cap) {
            cl->cap = cl->cap ? cl->cap * 2 : 256;
            cl->v = realloc(cl->v, (size_t)cl->cap * sizeof *cl->v);
            if (!cl->v) exit(TOOL_FAIL);
        }
        struct conf_case *k = &cl->v[cl->n++];
        memset(k, 0, sizeof *k);
        k->file = strdup(file);
        size_t n = strlen(rel) + 16;
        k->id = malloc(n);
        if (n_chunks > 1) snprintf(k->id, n, "%s#%d", rel, c + 1);
        else snprintf(k->id, n, "%s", rel);
        k->chunk = c;
        k->n_chunks = n_chunks;
    }
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */

static void run_case_here(const struct conf_cfg *cfg, struct conf_case *k)
{
    char *text = NULL;
    size_t len = 0;
    struct base_diag d;
    base_diag_clear(&d);
    memset(&k->out, 0, sizeof k->out);
    if (base_file_read(k->file, &text, &len, &d) != BASE_OK) {
        k->out.res.outcome = INTERP_CASE_FAIL;
        base_diag_format(&d, k->out.res.reason, sizeof k->out.res.reason);
        return;
    }
    int n_chunks = 1;
    size_t *starts = NULL, *lens = NULL;
    int *lines = NULL;
    const char *ctext = text;
    size_t clen = len;
    int first_line = 1;
    if (graph_split_chunks(text, len, &n_chunks, &starts, &lens, &lines) == BASE_OK && k->chunk < n_chunks) {
        ctext = text + starts[k->chunk];
        clen = lens[k->chunk];
        first_line = lines[k->chunk];
    }
    struct interp_options opt = {0};
    enum base_status st = cfg->chip ? rt_run_case(ctext, clen, k->file, first_line, cfg->chip, &cfg->copt,
                                                  &k->out.res, &k->out.info)
                                    : interp_run_case(ctext, clen, k->file, first_line, &opt, &k->out.res);
    if (st != BASE_OK) {
        k->out.res.outcome = INTERP_CASE_FAIL;
        snprintf(k->out.res.reason, sizeof k->out.res.reason, "%s: out of memory", k->file);
    }
    free(starts);
    free(lens);
    free(lines);
    free(text);
}

struct slot {
    pid_t pid;
    int fd;
    int idx;
    struct timespec start;
    size_t got;
};

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void finish_slot(struct conf_list *cl, struct slot *s, bool timed_out, int timeout_s)
{
    struct conf_case *k = &cl->v[s->idx];
    int status = 0;
    if (timed_out) kill(s->pid, SIGKILL);
    waitpid(s->pid, &status, 0);
    close(s->fd);
    if (timed_out) {
        memset(&k->out, 0, sizeof k->out);
        k->out.res.outcome = INTERP_CASE_FAIL;
        snprintf(k->out.res.reason, sizeof k->out.res.reason, "%s: timed out after %d s", k->file, timeout_s);
    } else if (s->got != sizeof k->out) {
        memset(&k->out, 0, sizeof k->out);
        k->out.res.outcome = INTERP_CASE_FAIL;
        if (WIFSIGNALED(status))
            snprintf(k->out.res.reason, sizeof k->out.res.reason, "%s: crashed (signal %d: %s)", k->file, WTERMSIG(status),
                     strsignal(WTERMSIG(status)));
        else
            snprintf(k->out.res.reason, sizeof k->out.res.reason, "%s: runner exited (status %d) without a result", k->file,
                     WEXITSTATUS(status));
    }
    s->pid = 0;
}

static void run_all(const struct conf_cfg *cfg, struct conf_list *cl, int jobs, int timeout_s, bool fork_cases)
{
    if (!fork_cases) {
        for (int i = 0; i < cl->n; i++) run_case_here(cfg, &cl->v[i]);
        return;
    }
    if (jobs < 1) jobs = 1;
    struct slot *slots = calloc((size_t)jobs, sizeof *slots);
    struct pollfd *pfd = calloc((size_t)jobs, sizeof *pfd);
    if (!slots || !pfd) exit(TOOL_FAIL);
    int next = 0, running = 0;
    fflush(stdout);
    fflush(stderr);
    while (next < cl->n || running > 0) {
        for (int j = 0; j < jobs && next < cl->n; j++) {
            if (slots[j].pid) continue;
            int fds[2];
            if (pipe(fds) != 0) {
                perror("pipe");
                exit(TOOL_FAIL);
            }
            pid_t pid = fork();
            if (pid < 0) {
                perror("fork");
                exit(TOOL_FAIL);
            }
            if (pid == 0) {
                close(fds[0]);
                struct conf_case *k = &cl->v[next];
                run_case_here(cfg, k);
                const char *p = (const char *)&k->out;
                size_t left = sizeof k->out;
                while (left) {
                    ssize_t w = write(fds[1], p, left);
                    if (w <= 0) _exit(3);
                    p += w;
                    left -= (size_t)w;
                }
                _exit(0);
            }
            close(fds[1]);
            slots[j].pid = pid;
            slots[j].fd = fds[0];
            slots[j].idx = next++;
            slots[j].got = 0;
            clock_gettime(CLOCK_MONOTONIC, &slots[j].start);
            running++;
        }
        int np = 0;
        int map[64] = {0};
        for (int j = 0; j < jobs && np < 64; j++)
            if (slots[j].pid) {
                pfd[np].fd = slots[j].fd;
                pfd[np].events = POLLIN;
                pfd[np].revents = 0;
                map[np++] = j;
            }
        poll(pfd, (nfds_t)np, 200);
        for (int q = 0; q < np; q++) {
            struct slot *s = &slots[map[q]];
            if (pfd[q].revents & (POLLIN | POLLHUP | POLLERR)) {
                char *dst = (char *)&cl->v[s->idx].out + s->got;
                ssize_t r = read(s->fd, dst, sizeof cl->v[s->idx].out - s->got);
                if (r > 0) {
                    s->got += (size_t)r;
                    if (s->got < sizeof cl->v[s->idx].out) continue;
                }
                finish_slot(cl, s, false, timeout_s);
                running--;
            } else if (since(&s->start) > timeout_s) {
                finish_slot(cl, s, true, timeout_s);
                running--;
            }
        }
    }
    free(slots);
    free(pfd);
}

/* ------------------------------------------------------------------------ */
/* Known failures                                                            */

static struct known *load_known(const char *path, int *n_out)
{
    char *text = NULL;
    size_t len = 0;
    struct base_diag d;
    base_diag_clear(&d);
    *n_out = 0;
    if (base_file_read(path, &text, &len, &d) != BASE_OK) {
        tool_print_diag(&d);
        exit(TOOL_USAGE);
    }
    int cap = 64, n = 0;
    struct known *k = malloc((size_t)cap * sizeof *k);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        while (*line == ' ' || *line == '\t') line++;
        if (!*line || *line == '#') continue;
        char *sp = line;
        while (*sp && *sp != ' ' && *sp != '\t') sp++;
        char *reason = sp;
        if (*sp) {
            *sp = 0;
            reason = sp + 1;
            while (*reason == ' ' || *reason == '\t') reason++;
        }
        if (n == cap) {
            struct known *grown = realloc(k, (size_t)(cap *= 2) * sizeof *k);
            if (!grown) {
                tool_print_nomem("conform", (uint64_t)cap * sizeof *k, "the known-failures list");
                exit(TOOL_FAIL);
            }
            k = grown;
        }
        k[n].id = strdup(line);
        k[n].reason = strdup(reason);
        k[n].seen = false;
        n++;
    }
    free(text);
    *n_out = n;
    return k;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

static bool is_failure(enum interp_case_outcome o) { return o == INTERP_CASE_FAIL || o == INTERP_CASE_UNSUPPORTED; }

/* --chip: what the cases with checks (all but nocheck) did: the headline
 * pass rate is over all of them, whatever their ops; how many of those that
 * ran did so entirely on the chip or with host steps (host fallback, host
 * I/O); and the older figure over the compiler issue's scope. */
struct chip_tally {
    int checked, passed;
    int ran_on_chip, ran_with_host, passed_on_chip, passed_with_host;
    int scope_cases, scope_passed;
};

static void chip_tally_add(struct chip_tally *t, const struct conf_case *k)
{
    if (k->out.res.outcome == INTERP_CASE_NOCHECK) return;
    bool pass = k->out.res.outcome == INTERP_CASE_PASS;
    t->checked++;
    t->passed += pass;
    if (k->out.info.ran) {
        bool host = k->out.info.host_ops > 0;
        t->ran_on_chip += !host;
        t->ran_with_host += host;
        t->passed_on_chip += pass && !host;
        t->passed_with_host += pass && host;
    }
    if (k->out.info.in_scope) {
        t->scope_cases++;
        t->scope_passed += pass;
    }
}

static double pct_of(int part, int whole) { return whole ? 100.0 * part / whole : 0.0; }

int cmd_conform(int argc, char **argv)
{
    struct strvec roots = {0};
    const char *known_path = NULL, *v = NULL;
    bool json = false, verbose = false, fork_cases = true;
    int jobs = 2, timeout_s = 300;
    const char *chip_name = NULL, *mode_name = NULL, *prec_name = NULL;
    double min_pass = -1;
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return TOOL_OK;
        } else if (tool_flag(argv[i], "--json")) {
            json = true;
        } else if (tool_flag(argv[i], "-v") || tool_flag(argv[i], "--verbose")) {
            verbose = true;
        } else if (tool_flag(argv[i], "--no-fork")) {
            fork_cases = false;
        } else if (tool_opt(argc, argv, &i, "--known", &known_path)) {
        } else if (tool_opt(argc, argv, &i, "--chip", &chip_name)) {
        } else if (tool_opt(argc, argv, &i, "--mode", &mode_name)) {
        } else if (tool_opt(argc, argv, &i, "--precision", &prec_name)) {
        } else if (tool_opt(argc, argv, &i, "--min-pass", &v)) {
            char *end;
            min_pass = strtod(v, &end);
            if (*end || min_pass < 0 || min_pass > 100) {
                fprintf(stderr, "npusim conform: --min-pass must be a percentage 0..100\n");
                return TOOL_USAGE;
            }
        } else if (tool_opt(argc, argv, &i, "--jobs", &v)) {
            uint64_t x;
            if (!tool_count("conform", "--jobs", v, 1, 64, -1, &x)) return TOOL_USAGE;
            jobs = (int)x;
        } else if (tool_opt(argc, argv, &i, "--timeout", &v)) {
            uint64_t x; /* "-5" and "5s" are refused, not read as -5 or 5 */
            if (!tool_count("conform", "--timeout", v, 1, 30 * 24 * 3600, -1, &x)) return TOOL_USAGE;
            timeout_s = (int)x;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "npusim conform: unknown option %s\n", argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else {
            strvec_push(&roots, argv[i]);
        }
    }
    if (!roots.n) {
        help(stderr);
        return TOOL_USAGE;
    }
    struct conf_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cc_options_default(&cfg.copt);
    static struct chip_desc chip;
    if (chip_name) {
        struct base_diag cd;
        base_diag_clear(&cd);
        if (chip_load(chip_name, &chip, &cd) != BASE_OK) {
            tool_print_diag(&cd);
            return TOOL_USAGE;
        }
        cfg.chip = &chip;
    }
    if (mode_name && !cc_mode_lookup(mode_name, &cfg.copt.mode)) {
        fprintf(stderr, "npusim conform: unknown mode %s (compiled, fused-eager, eager)\n", mode_name);
        return TOOL_USAGE;
    }
    if (prec_name && !tool_precision_parse(prec_name, &cfg.copt.default_precision)) {
        fprintf(stderr, "npusim conform: unknown precision %s (default, high, highest)\n", prec_name);
        return TOOL_USAGE;
    }
    if ((mode_name || prec_name || min_pass >= 0) && !chip_name) {
        fprintf(stderr, "npusim conform: --mode, --precision and --min-pass need --chip\n");
        return TOOL_USAGE;
    }

    struct conf_list cl = {0};
    for (int r = 0; r < roots.n; r++) {
        char *root = roots.v[r];
        size_t rl = strlen(root);
        while (rl > 1 && root[rl - 1] == '/') root[--rl] = 0;
        struct stat st;
        if (stat(root, &st) != 0) {
            fprintf(stderr, "npusim conform: %s: %s\n", root, strerror(errno));
            return TOOL_FAIL;
        }
        struct strvec files = {0};
        if (S_ISDIR(st.st_mode)) walk(root, &files);
        else strvec_push(&files, strdup(root));
        if (files.n > 1) qsort(files.v, (size_t)files.n, sizeof *files.v, cmp_str); /* qsort(NULL, 0) is undefined */
        const char *base = S_ISDIR(st.st_mode) ? root : "";
        for (int f = 0; f < files.n; f++) {
            add_cases(&cl, base, files.v[f]);
            free(files.v[f]);
        }
        free(files.v);
    }

    if (cl.n == 0) {
        fprintf(stderr, "npusim conform: no cases: no .mlir or .mlir.bc files under the path%s given\n",
                roots.n == 1 ? "" : "s");
        return TOOL_FAIL;
    }
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_all(&cfg, &cl, jobs, timeout_s, fork_cases);
    double secs = since(&t0);

    int n_known = 0;
    struct known *known = known_path ? load_known(known_path, &n_known) : NULL;
    for (int i = 0; i < cl.n; i++)
        for (int k = 0; k < n_known; k++)
            if (!strcmp(known[k].id, cl.v[i].id)) {
                cl.v[i].listed = true;
                cl.v[i].known_reason = known[k].reason;
                known[k].seen = true;
            }

    int counts[4] = {0};
    int unexpected = 0, fixed = 0, stale = 0;
    int valid_cases = 0, valid_accepted = 0, invalid_cases = 0, invalid_rejected = 0, invalid_resembling = 0;
    int files_with_checks = 0, files_with_checks_passed = 0;
    struct chip_tally ct;
    memset(&ct, 0, sizeof ct);
    for (int i = 0; i < cl.n; i++) {
        struct conf_case *k = &cl.v[i];
        counts[k->out.res.outcome]++;
        if (cfg.chip) chip_tally_add(&ct, k);
        if (k->out.res.expects_error) {
            invalid_cases++;
            if (!k->out.res.accepted) invalid_rejected++;
            if (!k->out.res.accepted && k->out.res.message_resembles) invalid_resembling++;
        } else {
            valid_cases++;
            if (k->out.res.accepted) valid_accepted++;
        }
        if (k->n_chunks == 1 && k->out.res.n_checks > 0) {
            files_with_checks++;
            if (k->out.res.outcome == INTERP_CASE_PASS) files_with_checks_passed++;
        }
        bool fail = is_failure(k->out.res.outcome);
        if (fail && !k->listed) unexpected++;
        if (!fail && k->listed) fixed++;
    }
    for (int k = 0; k < n_known; k++)
        if (!known[k].seen) stale++;

    if (json) {
        printf("{\n  \"cases\": [\n");
        for (int i = 0; i < cl.n; i++) {
            struct conf_case *k = &cl.v[i];
            printf("    {\"id\": ");
            tool_json_str(stdout, k->id);
            printf(", \"outcome\": \"%s\", \"checks\": %d, \"checks_failed\": %d, \"known\": %s, ",
                   interp_case_outcome_name(k->out.res.outcome), k->out.res.n_checks, k->out.res.n_checks_failed,
                   k->listed ? "true" : "false");
            if (cfg.chip)
                printf("\"in_scope\": %s, \"ran\": %s, \"host_ops\": %llu, ", k->out.info.in_scope ? "true" : "false",
                       k->out.info.ran ? "true" : "false", (unsigned long long)k->out.info.host_ops);
            printf("\"expects_error\": %s, \"accepted\": %s, ", k->out.res.expects_error ? "true" : "false",
                   k->out.res.accepted ? "true" : "false");
            if (k->out.res.expects_error) {
                printf("\"expected\": ");
                tool_json_str(stdout, k->out.res.expected);
                printf(", \"message_resembles\": %s, ", k->out.res.message_resembles ? "true" : "false");
            }
            printf("\"reason\": ");
            tool_json_str(stdout, k->out.res.reason);
            printf("}%s\n", i + 1 < cl.n ? "," : "");
        }
        printf("  ],\n  \"summary\": {\"cases\": %d, \"passed\": %d, \"failed\": %d, \"unsupported\": %d, "
               "\"nocheck\": %d, \"single_file_cases_with_checks\": %d, \"of_them_passed\": %d, "
               "\"unexpected_failures\": %d, \"listed_but_passing\": %d, \"listed_but_missing\": %d, "
               "\"valid_cases\": %d, \"valid_accepted\": %d, \"valid_accepted_pct\": %.1f, "
               "\"invalid_cases\": %d, \"invalid_rejected\": %d, \"invalid_rejected_pct\": %.1f, "
               "\"invalid_rejected_message_resembles\": %d, \"seconds\": %.1f",
               cl.n, counts[INTERP_CASE_PASS], counts[INTERP_CASE_FAIL], counts[INTERP_CASE_UNSUPPORTED],
               counts[INTERP_CASE_NOCHECK], files_with_checks, files_with_checks_passed, unexpected, fixed, stale,
               valid_cases, valid_accepted, pct_of(valid_accepted, valid_cases), invalid_cases, invalid_rejected,
               pct_of(invalid_rejected, invalid_cases), invalid_resembling, secs);
        if (cfg.chip)
            printf(", \"chip\": \"%s\", \"checked_cases\": %d, \"checked_passed\": %d, \"checked_pass_pct\": %.2f, "
                   "\"ran_on_chip\": %d, \"ran_with_host_steps\": %d, \"passed_on_chip\": %d, "
                   "\"passed_with_host_steps\": %d, \"in_scope_cases\": %d, \"in_scope_passed\": %d",
                   chip.name, ct.checked, ct.passed, pct_of(ct.passed, ct.checked), ct.ran_on_chip, ct.ran_with_host,
                   ct.passed_on_chip, ct.passed_with_host, ct.scope_cases, ct.scope_passed);
        printf("}\n}\n");
    } else {
        for (int i = 0; i < cl.n; i++) {
            struct conf_case *k = &cl.v[i];
            bool fail = is_failure(k->out.res.outcome);
            if (fail && !k->listed)
                printf("%-11s %s: %s\n", k->out.res.outcome == INTERP_CASE_FAIL ? "FAIL" : "UNSUPPORTED", k->id,
                       k->out.res.reason);
            else if (!fail && k->listed)
                printf("NOW-PASSES  %s (listed as known failure: %s) - remove it from %s\n", k->id, k->known_reason,
                       known_path);
            else if (verbose)
                printf("%-11s %s%s%s\n", fail ? "known-fail" : interp_case_outcome_name(k->out.res.outcome), k->id,
                       fail ? ": " : "", fail ? k->out.res.reason : "");
        }
        for (int k = 0; k < n_known; k++)
            if (!known[k].seen) printf("STALE       %s is listed in %s but no such case ran\n", known[k].id, known_path);
        printf("summary: %d cases in %.1f s: %d passed, %d failed, %d unsupported, %d nocheck (parse+verify only)\n",
               cl.n, secs, counts[INTERP_CASE_PASS], counts[INTERP_CASE_FAIL], counts[INTERP_CASE_UNSUPPORTED],
               counts[INTERP_CASE_NOCHECK]);
        if (files_with_checks)
            printf("         single-case files with checks: %d/%d passed (%.1f%%)\n", files_with_checks_passed,
                   files_with_checks, 100.0 * files_with_checks_passed / files_with_checks);
        int ran = counts[INTERP_CASE_PASS] + counts[INTERP_CASE_FAIL] + counts[INTERP_CASE_UNSUPPORTED];
        if (ran) printf("         cases run: %d/%d passed (%.1f%%)\n", counts[INTERP_CASE_PASS], ran,
                        100.0 * counts[INTERP_CASE_PASS] / ran);
        if (cfg.chip) {
            printf("         compiled on %s (%s, %s precision): %d/%d cases with checks passed (%.2f%%)\n", chip.name,
                   cc_mode_name(cfg.copt.mode), isa_precision_name(cfg.copt.default_precision), ct.passed, ct.checked,
                   pct_of(ct.passed, ct.checked));
            printf("         ran entirely on the chip: %d (%d passed); with host steps: %d (%d passed)\n", ct.ran_on_chip,
                   ct.passed_on_chip, ct.ran_with_host, ct.passed_with_host);
            printf("         in the compiler issue's scope: %d/%d passed (%.1f%%)\n", ct.scope_passed, ct.scope_cases,
                   pct_of(ct.scope_passed, ct.scope_cases));
        }
        if (invalid_cases)
            printf("         front end: valid cases accepted %d/%d (%.1f%%), invalid cases rejected %d/%d (%.1f%%; "
                   "%d with a message resembling the expected one)\n",
                   valid_accepted, valid_cases, pct_of(valid_accepted, valid_cases), invalid_rejected, invalid_cases,
                   pct_of(invalid_rejected, invalid_cases), invalid_resembling);
        if (known_path)
            printf("         against %s: %d unexpected failures, %d listed cases now pass, %d stale entries\n",
                   known_path, unexpected, fixed, stale);
    }
    for (int i = 0; i < cl.n; i++) {
        free(cl.v[i].file);
        free(cl.v[i].id);
    }
    free(cl.v);
    for (int k = 0; k < n_known; k++) {
        free(known[k].id);
        free(known[k].reason);
    }
    free(known);
    free(roots.v);
    bool below = min_pass >= 0 && pct_of(ct.passed, ct.checked) < min_pass;
    if (below && !json)
        printf("FAIL: %d/%d cases with checks passed, below --min-pass %g%%\n", ct.passed, ct.checked, min_pass);
    if (known_path) return unexpected || fixed || stale || below ? TOOL_FAIL : TOOL_OK;
    return counts[INTERP_CASE_FAIL] + counts[INTERP_CASE_UNSUPPORTED] > 0 || below ? TOOL_FAIL : TOOL_OK;
}
