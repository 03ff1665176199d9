/* Dynamic shapes: request lengths, compiles per shape, padding under
 * bucketing, and the bucket boundaries that minimise the total
 * (report/estimate.h "Dynamic shapes"; docs/estimate.md). */
#include "report/estimate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LENGTHS_MAX 10000000 /* samples a file or a distribution may give */
#define LENGTH_MAX (INT64_C(1) << 40)
#define CANDIDATES_MAX 20000 /* distinct bucket ends the optimiser weighs (O(n^2)) */

void rep_lengths_free(struct rep_lengths *l)
{
    if (!l) return;
    free(l->len);
    l->len = NULL;
    l->n = 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static enum base_status push_len(struct rep_lengths *l, int *cap, int64_t v)
{
    if (l->n == *cap) {
        int nc = *cap ? *cap * 2 : 256;
        int64_t *nl = realloc(l->len, (size_t)nc * sizeof *nl);
        if (!nl) return BASE_ERR_NOMEM;
        l->len = nl;
        *cap = nc;
    }
    l->len[l->n++] = v;
    return BASE_OK;
}

/* One length per line (or several, separated by spaces or commas); '#'
 * starts a comment. */
static enum base_status parse_file(const char *path, struct rep_lengths *out, struct base_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    enum base_status st = base_file_read(path, &text, &len, diag);
    if (st) return st;
    int cap = 0, line = 1;
    size_t i = 0, line_start = 0;
    while (i < len && st == BASE_OK) {
        char c = text[i];
        if (c == '\n') {
            line++;
            line_start = ++i;
            continue;
        }
        if (c == '#') {
            while (i < len && text[i] != '\n') i++;
            continue;
        }
        if (isspace((unsigned char)c) || c == ',') {
            i++;
            continue;
        }
        int col = (int)(i - line_start) + 1;
        if (!isdigit((unsigned char)c)) {
            st = base_diag_set(diag, BASE_ERR_INVALID, path, line, col,
                               "a request length must be a positive integer (tokens), got '%c'", c);
            break;
        }
        int64_t v = 0;
        while (i < len && isdigit((unsigned char)text[i])) {
            v = v * 10 + (text[i] - '0');
            if (v > LENGTH_MAX) break;
            i++;
        }
        if (v < 1 || v > LENGTH_MAX) {
            st = base_diag_set(diag, BASE_ERR_INVALID, path, line, col, "a request length must be 1 to 2^40 tokens");
            break;
        }
        if (out->n >= LENGTHS_MAX) {
            st = base_diag_set(diag, BASE_ERR_LIMIT, path, line, col, "more than %d request lengths", LENGTHS_MAX);
            break;
        }
        st = push_len(out, &cap, v);
    }
    free(text);
    if (st == BASE_OK && out->n == 0)
        st = base_diag_set(diag, BASE_ERR_INVALID, path, 0, 0, "no request lengths in the file");
    return st;
}

/* "NAME:A:B[:n=N][:seed=S]" */
static enum base_status parse_dist(const char *spec, struct rep_lengths *out, struct base_diag *diag)
{
    char name[32];
    const char *colon = strchr(spec, ':');
    size_t nl = (size_t)(colon - spec);
    if (nl >= sizeof name) nl = sizeof name - 1;
    memcpy(name, spec, nl);
    name[nl] = 0;
    double p[2] = {0, 0};
    int np = 0;
    long long n = 1000, seed = 1;
    const char *s = colon + 1;
    while (*s) {
        const char *e = strchr(s, ':');
        size_t fl = e ? (size_t)(e - s) : strlen(s);
        char f[64];
        if (fl == 0 || fl >= sizeof f)
            return base_diag_set(diag, BASE_ERR_INVALID, "--seq-lengths", 0, (int)(s - spec) + 1,
                                 "'%s': an empty or too long field", spec);
        memcpy(f, s, fl);
        f[fl] = 0;
        char *end = NULL;
        errno = 0;
        if (!strncmp(f, "n=", 2) || !strncmp(f, "seed=", 5)) {
            const char *v = f + (f[0] == 'n' ? 2 : 5);
            long long x = strtoll(v, &end, 10);
            if (errno || !*v || *end || x < 1 || (f[0] == 'n' && x > LENGTHS_MAX))
                return base_diag_set(diag, BASE_ERR_INVALID, "--seq-lengths", 0, (int)(s - spec) + 1,
                                     "'%s': %s must be an integer from 1%s", f, f[0] == 'n' ? "n" : "seed",
                                     f[0] == 'n' ? " to 10^7" : "");
            if (f[0] == 'n') n = x;
            else seed = x;
        } else {
            double x = strtod(f, &end);
            if (errno || *end || np >= 2 || !isfinite(x) || x < 0)
                return base_diag_set(diag, BASE_ERR_INVALID, "--seq-lengths", 0, (int)(s - spec) + 1,
                                     "'%s': expected two non-negative numbers, then n=N or seed=S", f);
            p[np++] = x;
        }
        s += fl + (e ? 1 : 0);
    }
    bool uniform = !strcmp(name, "uniform"), normal = !strcmp(name, "normal"), lognormal = !strcmp(name, "lognormal");
    if (!uniform && !normal && !lognormal)
        return base_diag_set(diag, BASE_ERR_INVALID, "--seq-lengths", 0, 1,
                             "'%s': unknown distribution '%s' (uniform:LO:HI, normal:MEAN:SD, lognormal:MEDIAN:SIGMA) "
                             "and no such file",
                             spec, name);
    if (np != 2 || (uniform && (p[0] < 1 || p[1] < p[0])) || (!uniform && p[0] < 1))
        return base_diag_set(diag, BASE_ERR_INVALID, "--seq-lengths", 0, 1,
                             "'%s': %s takes two numbers (%s)", spec, name,
                             uniform  ? "1 <= LO <= HI"
                             : normal ? "MEAN >= 1, SD"
                                      : "MEDIAN >= 1, SIGMA");
    struct base_rng rng;
    base_rng_seed(&rng, (uint64_t)seed);
    int cap = 0;
    for (long long i = 0; i < n; i++) {
        double x;
        if (uniform) x = floor(p[0] + base_rng_uniform(&rng) * (p[1] - p[0] + 1));
        else if (normal) x = llround(p[0] + p[1] * base_rng_normal(&rng));
        else x = llround(p[0] * exp(p[1] * base_rng_normal(&rng)));
        if (x < 1) x = 1; /* a request has at least one token */
        if (x > (double)LENGTH_MAX) x = (double)LENGTH_MAX;
        enum base_status st = push_len(out, &cap, (int64_t)x);
        if (st) return st;
    }
    return BASE_OK;
}

enum base_status rep_lengths_parse(const char *spec, struct rep_lengths *out, struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!spec || !*spec) return base_diag_set(diag, BASE_ERR_INVALID, "--seq-lengths", 0, 0, "empty");
    snprintf(out->source, sizeof out->source, "%s", spec);
    /* a file when one exists by that name, else a distribution */
    FILE *f = fopen(spec, "rb");
    enum base_status st;
    if (f) {
        fclose(f);
        st = parse_file(spec, out, diag);
    } else if (strchr(spec, ':')) {
        st = parse_dist(spec, out, diag);
    } else {
        st = base_diag_set(diag, BASE_ERR_IO, spec, 0, 0,
                           "no such file, and not a distribution (uniform:LO:HI, normal:MEAN:SD, lognormal:MEDIAN:SIGMA)");
    }
    if (st) {
        rep_lengths_free(out);
        return st;
    }
    qsort(out->len, (size_t)out->n, sizeof *out->len, cmp_i64);
    return BASE_OK;
}

int rep_lengths_distinct(const struct rep_lengths *l)
{
    int d = 0;
    for (int i = 0; i < l->n; i++)
        if (i == 0 || l->len[i] != l->len[i - 1]) d++;
    return d;
}

double rep_bucket_step_s(const struct rep_bucket_cost *c, int64_t len)
{
    return c->step_fixed_s + c->step_s_per_token * (double)len;
}

/* The weight of one sample: the steps it stands for. */
static double sample_weight(const struct rep_lengths *l, const struct rep_bucket_cost *c)
{
    return c->requests > 0 ? c->requests / l->n : 1.0;
}

enum base_status rep_bucketing_eval(const struct rep_lengths *l, const int64_t *bounds, int nb,
                                    const struct rep_bucket_cost *c, struct rep_bucketing *out,
                                    struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (l->n < 1) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "no request lengths");
    if (nb < 1 || nb > REP_BUCKETS_MAX)
        return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "%d buckets (1 to %d)", nb, REP_BUCKETS_MAX);
    for (int b = 0; b < nb; b++)
        if (bounds[b] < 1 || (b && bounds[b] <= bounds[b - 1]))
            return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0,
                                 "bucket boundaries must be positive and increasing (bucket %d: %lld)", b,
                                 (long long)bounds[b]);
    if (bounds[nb - 1] < l->len[l->n - 1])
        return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0,
                             "the largest bucket (%lld) is shorter than the longest request (%lld)",
                             (long long)bounds[nb - 1], (long long)l->len[l->n - 1]);
    double w = sample_weight(l, c);
    bool used[REP_BUCKETS_MAX] = {false};
    int b = 0;
    for (int i = 0; i < l->n; i++) {
        while (bounds[b] < l->len[i]) b++; /* lengths ascend: the smallest bucket that holds it */
        used[b] = true;
        out->real_tokens += w * (double)l->len[i];
        out->pad_tokens += w * (double)(bounds[b] - l->len[i]);
        out->run_s += w * rep_bucket_step_s(c, bounds[b]);
        out->exact_run_s += w * rep_bucket_step_s(c, l->len[i]);
    }
    out->n_buckets = nb;
    for (int k = 0; k < nb; k++) {
        out->bounds[k] = bounds[k];
        if (!used[k]) continue;
        out->compiles++;
        double first = c->compile_s + rep_bucket_step_s(c, bounds[k]);
        if (first > out->first_call_s) out->first_call_s = first;
    }
    double steps = w * l->n;
    out->steps = steps;
    out->cache_hits = steps - out->compiles;
    out->compile_s = out->compiles * c->compile_s;
    out->total_s = out->compile_s + out->run_s;
    return BASE_OK;
}

enum base_status rep_buckets_exact(const struct rep_lengths *l, const struct rep_bucket_cost *c,
                                   struct rep_bucketing *out, struct base_diag *diag)
{
    /* every distinct length its own shape: no padding, a compile per shape;
     * evaluated directly (there may be more shapes than REP_BUCKETS_MAX) */
    memset(out, 0, sizeof *out);
    if (l->n < 1) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "no request lengths");
    double w = sample_weight(l, c);
    for (int i = 0; i < l->n; i++) {
        out->real_tokens += w * (double)l->len[i];
        out->run_s += w * rep_bucket_step_s(c, l->len[i]);
        if (i == 0 || l->len[i] != l->len[i - 1]) {
            if (out->n_buckets < REP_BUCKETS_MAX) out->bounds[out->n_buckets] = l->len[i];
            out->n_buckets++;
        }
    }
    out->exact_run_s = out->run_s;
    out->compiles = (uint32_t)out->n_buckets;
    out->steps = w * l->n;
    out->cache_hits = out->steps - out->compiles;
    out->compile_s = out->compiles * c->compile_s;
    out->total_s = out->compile_s + out->run_s;
    out->first_call_s = c->compile_s + rep_bucket_step_s(c, l->len[l->n - 1]);
    return BASE_OK;
}

enum base_status rep_buckets_pow2(const struct rep_lengths *l, int64_t min_bucket, const struct rep_bucket_cost *c,
                                  struct rep_bucketing *out, struct base_diag *diag)
{
    if (l->n < 1) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "no request lengths");
    int64_t b[REP_BUCKETS_MAX];
    int nb = 0;
    int64_t v = min_bucket > 0 ? min_bucket : 1;
    for (;;) {
        b[nb++] = v;
        if (v >= l->len[l->n - 1] || nb == REP_BUCKETS_MAX) break;
        v *= 2;
    }
    return rep_bucketing_eval(l, b, nb, c, out, diag);
}

enum base_status rep_buckets_optimal(const struct rep_lengths *l, int64_t align, const struct rep_bucket_cost *c,
                                     struct rep_bucketing *out, struct base_diag *diag)
{
    if (l->n < 1) return base_diag_set(diag, BASE_ERR_INVALID, NULL, 0, 0, "no request lengths");
    if (align < 1) align = 1;
    /* Candidate ends: each distinct length rounded up to the alignment (an
     * optimal bucket ends at a length it holds: a longer end only pads more).
     * cnt[j]: samples whose rounded length is cand[j]. */
    int m = 0;
    int64_t *cand = malloc((size_t)l->n * sizeof *cand);
    double *cnt = calloc((size_t)l->n, sizeof *cnt);
    if (!cand || !cnt) {
        free(cand);
        free(cnt);
        return BASE_ERR_NOMEM;
    }
    for (int i = 0; i < l->n; i++) {
        int64_t r = (l->len[i] + align - 1) / align * align;
        if (m == 0 || cand[m - 1] != r) cand[m++] = r;
        cnt[m - 1] += 1;
    }
    enum base_status st = BASE_OK;
    if (m > CANDIDATES_MAX)
        st = base_diag_set(diag, BASE_ERR_LIMIT, NULL, 0, 0,
                           "%d distinct lengths after alignment %lld: more than %d (give --bucket-align)", m,
                           (long long)align, CANDIDATES_MAX);
    /* f[j]: least cost of the samples up to cand[j-1] with a bucket ending
     * there; from[j]: where that last bucket starts.  cost of a bucket
     * (i, j] = compile + weight x samples x step(cand[j-1]). */
    double *f = st ? NULL : malloc((size_t)(m + 1) * sizeof *f);
    int *from = st ? NULL : malloc((size_t)(m + 1) * sizeof *from);
    int *nbk = st ? NULL : malloc((size_t)(m + 1) * sizeof *nbk);
    if (!st && (!f || !from || !nbk)) st = BASE_ERR_NOMEM;
    if (!st) {
        double w = sample_weight(l, c);
        f[0] = 0;
        nbk[0] = 0;
        for (int j = 1; j <= m; j++) {
            double step = rep_bucket_step_s(c, cand[j - 1]), samples = 0;
            f[j] = INFINITY;
            from[j] = 0;
            nbk[j] = 0;
            for (int i = j - 1; i >= 0; i--) {
                samples += cnt[i];
                if (nbk[i] + 1 > REP_BUCKETS_MAX) continue;
                double v = f[i] + c->compile_s + w * samples * step;
                if (v < f[j]) { /* ties: the first found (fewer, wider buckets come later) */
                    f[j] = v;
                    from[j] = i;
                    nbk[j] = nbk[i] + 1;
                }
            }
        }
        int64_t b[REP_BUCKETS_MAX];
        int nb = nbk[m];
        if (!isfinite(f[m]) || nb < 1) {
            st = base_diag_set(diag, BASE_ERR_LIMIT, NULL, 0, 0, "no bucketing of at most %d buckets", REP_BUCKETS_MAX);
        } else {
            for (int j = m, k = nb - 1; j > 0; j = from[j], k--) b[k] = cand[j - 1];
            st = rep_bucketing_eval(l, b, nb, c, out, diag);
        }
    }
    free(f);
    free(from);
    free(nbk);
    free(cand);
    free(cnt);
    return st;
}

enum base_status rep_recompile_compute(const struct rep_lengths *l, const struct rep_bucket_cost *c, int64_t align,
                                       double usd_per_s, struct rep_recompile *out, struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->samples = l->n;
    out->distinct = rep_lengths_distinct(l);
    out->longest = l->n ? l->len[l->n - 1] : 0;
    out->cost = *c;
    out->usd_per_s = usd_per_s;
    TRY(rep_buckets_exact(l, c, &out->exact, diag));
    TRY(rep_buckets_pow2(l, REP_POW2_MIN_BUCKET, c, &out->pow2, diag));
    TRY(rep_buckets_optimal(l, align, c, &out->optimal, diag));
    return BASE_OK;
}
