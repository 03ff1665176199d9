/* Golden interpreter: fft (FFT, IFFT, RFFT, IRFFT over the last 1-3 dims).
 *
 * Everything is computed in double and rounded once to the result type.
 * 1-D transforms: iterative radix-2 for powers of two, a direct DFT with exact
 * twiddle indices (j*k mod n) for other lengths up to DIRECT_MAX, Bluestein's
 * chirp-z algorithm over a power-of-two FFT beyond that.  Complex values are
 * interleaved doubles (re, im) and multiplied by the textbook formula.
 *
 * IFFT and IRFFT divide by the transform length of each dimension.  IRFFT
 * first inverts the leading fft dims of the n/2+1-wide input, then extends each
 * last-dim line by Hermitian symmetry (X[n-k] = conj(X[k])) and keeps the real
 * part of its inverse, which ignores the imaginary parts of the DC and Nyquist
 * terms as numpy's irfftn does.
 */
#include "interp/interp_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DIRECT_MAX 64
#define FFT_MAX_DIMS 3

static const double fft_pi = 3.14159265358979323846264338327950288;

struct fft_plan {
    int64_t n;
    enum { PLAN_TRIVIAL, PLAN_POW2, PLAN_DIRECT, PLAN_BLUESTEIN } kind;
    double *tw;    /* POW2: n/2 twiddles; DIRECT: n twiddles exp(-2 pi i t / n) */
    /* BLUESTEIN */
    int64_t m;     /* power of two >= 2n - 1 */
    double *chirp; /* n values exp(-pi i j^2 / n) */
    double *bfft;  /* FFT_m of the conjugate chirp, wrapped */
    double *work;  /* 2m doubles */
    struct fft_plan *sub;
};

static bool is_pow2(int64_t n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

static void cmul(double ar, double ai, double br, double bi, double *re, double *im)
{
    *re = ar * br - ai * bi;
    *im = ar * bi + ai * br;
}

static void plan_free(struct fft_plan *pl)
{
    if (!pl) return;
    free(pl->tw);
    free(pl->chirp);
    free(pl->bfft);
    free(pl->work);
    if (pl->sub) {
        plan_free(pl->sub);
        free(pl->sub);
    }
    memset(pl, 0, sizeof *pl);
}

static void pow2_run(const struct fft_plan *pl, double *x, bool inverse)
{
    int64_t n = pl->n;
    /* bit-reversal permutation */
    for (int64_t i = 1, j = 0; i < n; i++) {
        int64_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            double tr = x[2 * i], ti = x[2 * i + 1];
            x[2 * i] = x[2 * j];
            x[2 * i + 1] = x[2 * j + 1];
            x[2 * j] = tr;
            x[2 * j + 1] = ti;
        }
    }
    double sgn = inverse ? -1.0 : 1.0;
    for (int64_t len = 2; len <= n; len <<= 1) {
        int64_t half = len >> 1, step = n / len;
        for (int64_t i = 0; i < n; i += len)
            for (int64_t j = 0; j < half; j++) {
                double wr = pl->tw[2 * j * step], wi = sgn * pl->tw[2 * j * step + 1];
                double *u = x + 2 * (i + j), *v = x + 2 * (i + j + half);
                double vr, vi;
                cmul(v[0], v[1], wr, wi, &vr, &vi);
                v[0] = u[0] - vr;
                v[1] = u[1] - vi;
                u[0] += vr;
                u[1] += vi;
            }
    }
}

static enum base_status plan_init(struct fft_plan *pl, int64_t n)
{
    memset(pl, 0, sizeof *pl);
    pl->n = n;
    if (n <= 1) {
        pl->kind = PLAN_TRIVIAL;
        return BASE_OK;
    }
    if (is_pow2(n)) {
        pl->kind = PLAN_POW2;
        pl->tw = malloc((size_t)n * sizeof(double)); /* n/2 complex */
        if (!pl->tw) return BASE_ERR_NOMEM;
        for (int64_t t = 0; t < n / 2; t++) {
            double a = 2.0 * fft_pi * (double)t / (double)n;
            pl->tw[2 * t] = cos(a);
            pl->tw[2 * t + 1] = -sin(a);
        }
        return BASE_OK;
    }
    if (n <= DIRECT_MAX) {
        pl->kind = PLAN_DIRECT;
        pl->tw = malloc((size_t)(2 * n) * sizeof(double));
        pl->work = malloc((size_t)(2 * n) * sizeof(double));
        if (!pl->tw || !pl->work) return BASE_ERR_NOMEM;
        for (int64_t t = 0; t < n; t++) {
            double a = 2.0 * fft_pi * (double)t / (double)n;
            pl->tw[2 * t] = cos(a);
            pl->tw[2 * t + 1] = -sin(a);
        }
        return BASE_OK;
    }
    pl->kind = PLAN_BLUESTEIN;
    int64_t m = 1;
    while (m < 2 * n - 1) m <<= 1;
    pl->m = m;
    pl->chirp = malloc((size_t)(2 * n) * sizeof(double));
    pl->bfft = calloc((size_t)(2 * m), sizeof(double));
    pl->work = malloc((size_t)(2 * m) * sizeof(double));
    pl->sub = malloc(sizeof *pl->sub);
    if (!pl->chirp || !pl->bfft || !pl->work || !pl->sub) return BASE_ERR_NOMEM;
    TRY(plan_init(pl->sub, m));
    /* q = j^2 mod 2n, updated as (j+1)^2 = j^2 + 2j + 1: keeps the angle small and exact */
    for (int64_t j = 0, q = 0; j < n; q = (q + 2 * j + 1) % (2 * n), j++) {
        double a = fft_pi * (double)q / (double)n;
        pl->chirp[2 * j] = cos(a);
        pl->chirp[2 * j + 1] = -sin(a);
    }
    pl->bfft[0] = pl->chirp[0];
    pl->bfft[1] = -pl->chirp[1];
    for (int64_t t = 1; t < n; t++) {
        pl->bfft[2 * t] = pl->bfft[2 * (m - t)] = pl->chirp[2 * t];
        pl->bfft[2 * t + 1] = pl->bfft[2 * (m - t) + 1] = -pl->chirp[2 * t + 1];
    }
    pow2_run(pl->sub, pl->bfft, false);
    return BASE_OK;
}

/* In-place unnormalised transform of x[0..n) (interleaved complex). */
static void plan_run(const struct fft_plan *pl, double *x, bool inverse)
{
    int64_t n = pl->n;
    switch (pl->kind) {
    case PLAN_TRIVIAL:
        return;
    case PLAN_POW2:
        pow2_run(pl, x, inverse);
        return;
    case PLAN_DIRECT: {
        double sgn = inverse ? -1.0 : 1.0;
        for (int64_t k = 0; k < n; k++) {
            double re = 0.0, im = 0.0;
            for (int64_t j = 0; j < n; j++) {
                int64_t t = (j * k) % n;
                double pr, pi;
                cmul(x[2 * j], x[2 * j + 1], pl->tw[2 * t], sgn * pl->tw[2 * t + 1], &pr, &pi);
                re += pr;
                im += pi;
            }
            pl->work[2 * k] = re;
            pl->work[2 * k + 1] = im;
        }
        memcpy(x, pl->work, (size_t)(2 * n) * sizeof(double));
        return;
    }
    case PLAN_BLUESTEIN: {
        int64_t m = pl->m;
        double *a = pl->work;
        double sgn = inverse ? -1.0 : 1.0; /* inverse = conj(FFT(conj(x))) */
        for (int64_t j = 0; j < n; j++)
            cmul(x[2 * j], sgn * x[2 * j + 1], pl->chirp[2 * j], pl->chirp[2 * j + 1], &a[2 * j], &a[2 * j + 1]);
        memset(a + 2 * n, 0, (size_t)(2 * (m - n)) * sizeof(double));
        pow2_run(pl->sub, a, false);
        for (int64_t t = 0; t < m; t++) {
            double r, i;
            cmul(a[2 * t], a[2 * t + 1], pl->bfft[2 * t], pl->bfft[2 * t + 1], &r, &i);
            a[2 * t] = r;
            a[2 * t + 1] = i;
        }
        pow2_run(pl->sub, a, true);
        double inv_m = 1.0 / (double)m;
        for (int64_t k = 0; k < n; k++) {
            double r, i;
            cmul(a[2 * k] * inv_m, a[2 * k + 1] * inv_m, pl->chirp[2 * k], pl->chirp[2 * k + 1], &r, &i);
            x[2 * k] = r;
            x[2 * k + 1] = sgn * i;
        }
        return;
    }
    }
}

/* Transforms every line along dim d of buf (shape dims[0..rank)), scaling
 * inverse transforms by 1/n. */
static enum base_status transform_dim(double *buf, int rank, const int64_t *dims, int d, bool inverse)
{
    int64_t n = dims[d];
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < d; i++) outer *= dims[i];
    for (int i = d + 1; i < rank; i++) inner *= dims[i];
    if (n <= 1 || outer == 0 || inner == 0) return BASE_OK;
    struct fft_plan pl;
    double *line = malloc((size_t)(2 * n) * sizeof(double));
    enum base_status st = line ? plan_init(&pl, n) : BASE_ERR_NOMEM;
    if (st != BASE_OK) {
        if (line) plan_free(&pl);
        free(line);
        return st;
    }
    double scale = inverse ? 1.0 / (double)n : 1.0;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            double *base = buf + 2 * (o * n * inner + i);
            for (int64_t j = 0; j < n; j++) {
                line[2 * j] = base[2 * j * inner];
                line[2 * j + 1] = base[2 * j * inner + 1];
            }
            plan_run(&pl, line, inverse);
            for (int64_t j = 0; j < n; j++) {
                base[2 * j * inner] = line[2 * j] * scale;
                base[2 * j * inner + 1] = line[2 * j + 1] * scale;
            }
        }
    plan_free(&pl);
    free(line);
    return BASE_OK;
}

static enum base_status k_fft(struct interp_proc *p, const struct graph_op *op, struct interp_value *const *in,
                              struct interp_value **out)
{
    const struct base_tensor *x = op->n_operands == 1 ? iv_t(in[0]) : NULL;
    if (!x) return interp_fail(p, op, BASE_ERR_INVALID, "fft expects one tensor operand");
    const struct graph_attr *ta = graph_op_attr(op, "fft_type");
    if (!ta || ta->kind != GRAPH_ATTR_KEYWORD)
        return interp_fail(p, op, BASE_ERR_INVALID, "missing fft_type");
    enum { T_FFT, T_IFFT, T_RFFT, T_IRFFT } type;
    const char *tn = ta->u.str.s;
    size_t tl = ta->u.str.len;
    if (tl == 3 && !memcmp(tn, "FFT", 3)) type = T_FFT;
    else if (tl == 4 && !memcmp(tn, "IFFT", 4)) type = T_IFFT;
    else if (tl == 4 && !memcmp(tn, "RFFT", 4)) type = T_RFFT;
    else if (tl == 5 && !memcmp(tn, "IRFFT", 5)) type = T_IRFFT;
    else return interp_fail(p, op, BASE_ERR_INVALID, "unknown fft_type %.*s", (int)tl, tn);
    int64_t len[FFT_MAX_DIMS + 1];
    const struct graph_attr *la = graph_op_attr(op, "fft_length");
    int nl = la ? graph_attr_as_i64_list(la, len, FFT_MAX_DIMS + 1) : -1;
    if (nl < 1 || nl > FFT_MAX_DIMS)
        return interp_fail(p, op, BASE_ERR_INVALID, "fft_length must have 1 to %d elements", FFT_MAX_DIMS);
    if (nl > x->rank) return interp_fail(p, op, BASE_ERR_INVALID, "fft_length is longer than the operand rank");
    int rank = x->rank, first = rank - nl;
    for (int i = 0; i < nl; i++)
        if (len[i] < 0) return interp_fail(p, op, BASE_ERR_INVALID, "fft_length must be non-negative");
    bool in_complex = base_dtype_is_complex(x->dtype);
    if ((type == T_RFFT) == in_complex)
        return interp_fail(p, op, BASE_ERR_INVALID, "%s expects a %s operand", type == T_RFFT ? "RFFT" : "this fft type",
                           type == T_RFFT ? "real" : "complex");

    /* full complex working shape: the last nl dims are fft_length */
    int64_t wd[BASE_MAX_RANK], rd[BASE_MAX_RANK];
    memcpy(wd, x->dims, (size_t)rank * sizeof *wd);
    memcpy(rd, x->dims, (size_t)rank * sizeof *rd);
    int64_t last = len[nl - 1], half = last / 2 + 1;
    for (int i = 0; i < nl; i++) {
        int64_t want = len[i];
        if (i == nl - 1 && type == T_IRFFT) want = last == 0 ? 0 : half;
        if (x->dims[first + i] != want)
            return interp_fail(p, op, BASE_ERR_INVALID, "operand dimension %d is %lld, expected %lld", first + i,
                               (long long)x->dims[first + i], (long long)want);
        wd[first + i] = len[i];
        rd[first + i] = len[i];
    }
    if (type == T_RFFT) rd[rank - 1] = last == 0 ? 0 : half;

    struct base_tensor *res = NULL;
    enum base_status st = base_tensor_create(interp_result_dtype(p, op, 0), rank, rd, &res);
    if (st != BASE_OK) return interp_fail(p, op, st, "cannot allocate the result");
    int64_t wcount = base_shape_count(rank, wd);
    double *buf = calloc((size_t)(2 * (wcount > 0 ? wcount : 1)), sizeof(double));
    if (!buf) {
        base_tensor_release(res);
        return interp_fail(p, op, BASE_ERR_NOMEM, "out of memory");
    }

    if (type == T_IRFFT) {
        /* load the half spectrum into a [..., half] buffer, invert the leading dims */
        int64_t hd[BASE_MAX_RANK];
        memcpy(hd, wd, (size_t)rank * sizeof *hd);
        hd[rank - 1] = x->dims[rank - 1];
        int64_t hcount = x->count;
        double *hb = malloc((size_t)(2 * (hcount > 0 ? hcount : 1)) * sizeof(double));
        if (!hb) st = BASE_ERR_NOMEM;
        for (int64_t i = 0; i < hcount && st == BASE_OK; i++)
            base_elem_get_c128(x->dtype, x->data, (size_t)i, &hb[2 * i], &hb[2 * i + 1]);
        for (int d = first; d < rank - 1 && st == BASE_OK; d++) st = transform_dim(hb, rank, hd, d, true);
        /* Hermitian extension along the last dim */
        int64_t h = hd[rank - 1], lines = last ? wcount / last : 0;
        for (int64_t l = 0; l < lines && st == BASE_OK; l++) {
            double *dst = buf + 2 * l * last;
            const double *src = hb + 2 * l * h;
            for (int64_t k = 0; k < last; k++) {
                if (k < h) {
                    dst[2 * k] = src[2 * k];
                    dst[2 * k + 1] = src[2 * k + 1];
                } else {
                    dst[2 * k] = src[2 * (last - k)];
                    dst[2 * k + 1] = -src[2 * (last - k) + 1];
                }
            }
        }
        free(hb);
        if (st == BASE_OK) st = transform_dim(buf, rank, wd, rank - 1, true);
        for (int64_t i = 0; i < wcount && st == BASE_OK; i++)
            base_elem_set_f64(res->dtype, res->data, (size_t)i, buf[2 * i]);
    } else {
        for (int64_t i = 0; i < wcount; i++)
            base_elem_get_c128(x->dtype, x->data, (size_t)i, &buf[2 * i], &buf[2 * i + 1]);
        bool inverse = type == T_IFFT;
        for (int d = rank - 1; d >= first && st == BASE_OK; d--) st = transform_dim(buf, rank, wd, d, inverse);
        if (st == BASE_OK) {
            if (type == T_RFFT) {
                int64_t lines = last ? wcount / last : 0, o = 0;
                for (int64_t l = 0; l < lines; l++)
                    for (int64_t k = 0; k < half; k++, o++)
                        base_elem_set_c128(res->dtype, res->data, (size_t)o, buf[2 * (l * last + k)],
                                           buf[2 * (l * last + k) + 1]);
            } else {
                for (int64_t i = 0; i < wcount; i++)
                    base_elem_set_c128(res->dtype, res->data, (size_t)i, buf[2 * i], buf[2 * i + 1]);
            }
        }
    }
    free(buf);
    if (st != BASE_OK) {
        base_tensor_release(res);
        return interp_fail(p, op, st, "out of memory");
    }
    return interp_set_out(p, op, out, 0, res);
}

void interp_register_fft(interp_kernel_fn *table)
{
    table[GRAPH_OP_FFT] = k_fft;
}
