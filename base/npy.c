/* NumPy .npy files: format versions 1.0, 2.0 and 3.0, little-endian, C order.
 *
 * Layout: "\x93NUMPY", major, minor, header length (uint16 for 1.x, uint32
 * for 2.x/3.x, little-endian), then an ASCII (3.x: UTF-8) Python dict literal
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * padded with spaces and a final '\n' so that the data starts on a multiple
 * of 64 bytes (16 in old files; any length is accepted on reading). */
#include "base/base.h"

#include <errno.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
/* Largest header we read (numpy's own np.load refuses more than 10000 bytes
 * by default; real headers are under 200). */
#define NPY_MAX_HEADER_BYTES (1u << 16)
#define NPY_ALIGN 64

/* descr strings for writing; reading also accepts the variants below */
struct npy_type {
    enum base_dtype dt;
    const char *descr; /* without the byte-order character */
};
static const struct npy_type npy_types[] = {
    {BASE_DT_I1, "b1"},    {BASE_DT_SI8, "i1"},   {BASE_DT_SI16, "i2"}, {BASE_DT_SI32, "i4"},
    {BASE_DT_SI64, "i8"},  {BASE_DT_UI8, "u1"},   {BASE_DT_UI16, "u2"}, {BASE_DT_UI32, "u4"},
    {BASE_DT_UI64, "u8"},  {BASE_DT_F16, "f2"},   {BASE_DT_F32, "f4"},  {BASE_DT_F64, "f8"},
    {BASE_DT_C64, "c8"},   {BASE_DT_C128, "c16"}, {BASE_DT_BF16, "V2"},
};

struct npy_header {
    enum base_dtype dt;
    int rank;
    int64_t dims[BASE_MAX_RANK];
};

/* ------------------------------------------------------------------------ */
/* Header parsing                                                            */

struct cursor {
    const char *p, *end;
    const char *name;
    size_t base; /* file offset of the header text */
    const char *start;
    struct base_diag *diag;
};

static enum base_status hdr_error(struct cursor *c, const char *what)
{
    size_t off = c->base + (size_t)(c->p - c->start);
    enum base_status st = base_diag_set(c->diag, BASE_ERR_PARSE, c->name, 0, 0,
                                        "npy header: %s at byte %zu", what, off);
    if (c->diag) base_diag_set_snippet(c->diag, c->start, (size_t)(c->end - c->start));
    return st;
}

static void skip_ws(struct cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

static bool eat(struct cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A quoted Python string (no escapes needed for npy keys and descrs). */
static enum base_status parse_str(struct cursor *c, const char **s, size_t *n)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return hdr_error(c, "expected a string");
    char q = *c->p++;
    const char *b = c->p;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\') return hdr_error(c, "escapes in strings are not supported");
        c->p++;
    }
    if (c->p >= c->end) return hdr_error(c, "unterminated string");
    *s = b;
    *n = (size_t)(c->p - b);
    c->p++;
    return BASE_OK;
}

static bool str_is(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static enum base_status parse_descr(struct cursor *c, struct npy_header *h)
{
    const char *s0;
    size_t n0;
    TRY(parse_str(c, &s0, &n0));
    if (str_is(s0, n0, "bfloat16")) {
        h->dt = BASE_DT_BF16;
        return BASE_OK;
    }
    const char *s = s0;
    size_t n = n0;
    char order = '|';
    if (n && (s[0] == '<' || s[0] == '|' || s[0] == '=' || s[0] == '>')) {
        order = s[0];
        s++;
        n--;
    }
    for (size_t i = 0; i < ARRAY_LEN(npy_types); i++) {
        if (!str_is(s, n, npy_types[i].descr)) continue;
        if (order == '>' && base_dtype_size(npy_types[i].dt) > 1)
            return base_diag_set(c->diag, BASE_ERR_UNSUPPORTED, c->name, 0, 0,
                                 "npy: big-endian data (descr '%.*s') is not supported; save "
                                 "little-endian",
                                 (int)n0, s0);
        h->dt = npy_types[i].dt;
        return BASE_OK;
    }
    return base_diag_set(c->diag, BASE_ERR_UNSUPPORTED, c->name, 0, 0,
                         "npy: unsupported dtype descr '%.*s' (supported: b1 i1 i2 i4 i8 u1 u2 u4 "
                         "u8 f2 f4 f8 c8 c16, and V2 or bfloat16 as bf16)",
                         (int)n0, s0);
}

static enum base_status parse_bool(struct cursor *c, bool *out)
{
    skip_ws(c);
    size_t left = (size_t)(c->end - c->p);
    if (left >= 4 && memcmp(c->p, "True", 4) == 0) {
        c->p += 4;
        *out = true;
        return BASE_OK;
    }
    if (left >= 5 && memcmp(c->p, "False", 5) == 0) {
        c->p += 5;
        *out = false;
        return BASE_OK;
    }
    return hdr_error(c, "expected True or False");
}

static enum base_status parse_shape(struct cursor *c, struct npy_header *h)
{
    if (!eat(c, '(')) return hdr_error(c, "expected a shape tuple");
    h->rank = 0;
    for (;;) {
        if (eat(c, ')')) break;
        skip_ws(c);
        if (c->p >= c->end || *c->p < '0' || *c->p > '9') return hdr_error(c, "expected a dimension");
        int64_t v = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            if (v > (INT64_MAX - 9) / 10)
                return base_diag_set(c->diag, BASE_ERR_LIMIT, c->name, 0, 0,
                                     "npy: shape dimension too large");
            v = v * 10 + (*c->p++ - '0');
        }
        if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 longs */
        if (h->rank == BASE_MAX_RANK)
            return base_diag_set(c->diag, BASE_ERR_LIMIT, c->name, 0, 0,
                                 "npy: rank above the limit of %d", BASE_MAX_RANK);
        h->dims[h->rank++] = v;
        if (eat(c, ',')) continue;
        if (eat(c, ')')) break;
        return hdr_error(c, "expected ',' or ')' in shape");
    }
    return BASE_OK;
}

static enum base_status parse_dict(struct cursor *c, struct npy_header *h)
{
    bool seen_descr = false, seen_order = false, seen_shape = false;
    if (!eat(c, '{')) return hdr_error(c, "expected '{'");
    for (;;) {
        if (eat(c, '}')) break;
        const char *k;
        size_t kn;
        TRY(parse_str(c, &k, &kn));
        if (!eat(c, ':')) return hdr_error(c, "expected ':'");
        if (str_is(k, kn, "descr")) {
            TRY(parse_descr(c, h));
            seen_descr = true;
        } else if (str_is(k, kn, "fortran_order")) {
            bool fortran = false;
            TRY(parse_bool(c, &fortran));
            seen_order = true;
            if (fortran)
                return base_diag_set(c->diag, BASE_ERR_UNSUPPORTED, c->name, 0, 0,
                                     "npy: Fortran-order arrays are not supported (save with "
                                     "np.ascontiguousarray)");
        } else if (str_is(k, kn, "shape")) {
            TRY(parse_shape(c, h));
            seen_shape = true;
        } else {
            return hdr_error(c, "unknown key in header dict");
        }
        if (eat(c, ',')) continue;
        if (eat(c, '}')) break;
        return hdr_error(c, "expected ',' or '}'");
    }
    skip_ws(c);
    if (c->p != c->end) return hdr_error(c, "trailing characters after the header dict");
    if (!seen_descr || !seen_order || !seen_shape)
        return base_diag_set(c->diag, BASE_ERR_PARSE, c->name, 0, 0,
                             "npy header: missing key '%s'",
                             !seen_descr ? "descr" : !seen_order ? "fortran_order" : "shape");
    return BASE_OK;
}

/* Parses the preamble (magic, version, header length) in buf[0..len): the
 * header text is buf[*text_off .. *text_off + *header_len). */
static enum base_status parse_preamble(const unsigned char *buf, size_t len, const char *name,
                                       size_t *header_len, size_t *text_off, struct base_diag *diag)
{
    size_t m = len < NPY_MAGIC_LEN ? len : NPY_MAGIC_LEN;
    if (len == 0 || memcmp(buf, NPY_MAGIC, m) != 0)
        return base_diag_set(diag, BASE_ERR_PARSE, name, 0, 0,
                             "not a .npy file (bad magic; expected \\x93NUMPY)");
    if (len < NPY_MAGIC_LEN + 2) goto truncated;
    int major = buf[6], minor = buf[7];
    if (major == 1) {
        if (len < 10) goto truncated;
        *header_len = (size_t)buf[8] | (size_t)buf[9] << 8;
        *text_off = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12) goto truncated;
        *header_len = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        *text_off = 12;
    } else {
        return base_diag_set(diag, BASE_ERR_UNSUPPORTED, name, 0, 0,
                             "npy format version %d.%d is not supported (1.0, 2.0, 3.0 are)", major,
                             minor);
    }
    if (*header_len > NPY_MAX_HEADER_BYTES)
        return base_diag_set(diag, BASE_ERR_LIMIT, name, 0, 0,
                             "npy header is %zu bytes, above the limit of %u", *header_len,
                             NPY_MAX_HEADER_BYTES);
    return BASE_OK;
truncated:
    return base_diag_set(diag, BASE_ERR_PARSE, name, 0, 0, "npy file truncated in its preamble");
}

static enum base_status parse_header_text(const char *text, size_t n, size_t base, const char *name,
                                          struct npy_header *h, struct base_diag *diag)
{
    struct cursor c = {text, text + n, name, base, text, diag};
    return parse_dict(&c, h);
}

static enum base_status check_count(const struct npy_header *h, const char *name, int64_t *count,
                                    struct base_diag *diag)
{
    *count = base_shape_count(h->rank, h->dims);
    if (*count < 0)
        return base_diag_set(diag, BASE_ERR_LIMIT, name, 0, 0,
                             "npy shape has more than %lld elements", (long long)BASE_MAX_ELEMS);
    return BASE_OK;
}

/* bool files may hold any nonzero byte for true; canonicalise to 0/1. */
static void fix_bools(struct base_tensor *t)
{
    if (t->dtype != BASE_DT_I1) return;
    unsigned char *p = t->data;
    for (int64_t i = 0; i < t->count; i++) p[i] = p[i] != 0;
}

static enum base_status base_npy_read_mem_impl(const void *buf, size_t len, const char *name,
                                   struct base_tensor **out, struct base_diag *diag)
{
    const unsigned char *b = buf;
    *out = NULL;
    size_t hlen = 0, toff = 0;
    TRY(parse_preamble(b, len, name, &hlen, &toff, diag));
    if (len - toff < hlen)
        return base_diag_set(diag, BASE_ERR_PARSE, name, 0, 0,
                             "npy file truncated: header needs %zu bytes, file has %zu", toff + hlen,
                             len);
    struct npy_header h;
    memset(&h, 0, sizeof h);
    TRY(parse_header_text((const char *)b + toff, hlen, toff, name, &h, diag));
    int64_t count;
    TRY(check_count(&h, name, &count, diag));
    size_t nbytes = (size_t)count * base_dtype_size(h.dt);
    size_t off = toff + hlen;
    if (len - off < nbytes)
        return base_diag_set(diag, BASE_ERR_PARSE, name, 0, 0,
                             "npy data truncated: %zu bytes of data expected, %zu present", nbytes,
                             len - off);
    enum base_status st = base_tensor_create(h.dt, h.rank, h.dims, out);
    if (st != BASE_OK)
        return base_diag_set(diag, st, name, 0, 0, "npy: cannot allocate the tensor: %s",
                             base_status_str(st));
    if (nbytes) memcpy((*out)->data, b + off, nbytes);
    fix_bools(*out);
    return BASE_OK;
}

enum base_status base_npy_read_mem(const void *buf, size_t len, const char *name,
                                   struct base_tensor **out, struct base_diag *diag)
{
    return base_diag_ensure(diag, base_npy_read_mem_impl(buf, len, name, out, diag), name, "reading a .npy");
}

enum base_status base_npy_read(const char *path, struct base_tensor **out, struct base_diag *diag)
{
    return base_npy_read_lim(path, NULL, out, diag);
}

static enum base_status base_npy_read_lim_impl(const char *path, const struct base_limits *lim, struct base_tensor **out,
                                   struct base_diag *diag)
{
    *out = NULL;
    FILE *f;
    uint64_t fsize;
    TRY(base_file_open(path, lim, &f, &fsize, diag));
    unsigned char pre[12];
    size_t got = fread(pre, 1, sizeof pre, f);
    size_t hlen = 0, toff = 0;
    enum base_status st = parse_preamble(pre, got, path, &hlen, &toff, diag);
    char *text = NULL;
    struct base_tensor *t = NULL;
    if (st != BASE_OK) goto done;
    text = malloc(hlen + 1);
    if (!text) {
        st = base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory for a %zu-byte header", hlen);
        goto done;
    }
    /* the first bytes of the header text may already be in pre[] */
    size_t have = got - toff;
    if (have > hlen) have = hlen;
    memcpy(text, pre + toff, have);
    if (hlen > have && fread(text + have, 1, hlen - have, f) != hlen - have) {
        st = base_diag_set(diag, BASE_ERR_PARSE, path, 0, 0,
                           "npy file truncated: header needs %zu bytes", toff + hlen);
        goto done;
    }
    struct npy_header h;
    memset(&h, 0, sizeof h);
    st = parse_header_text(text, hlen, toff, path, &h, diag);
    if (st != BASE_OK) goto done;
    int64_t count;
    st = check_count(&h, path, &count, diag);
    if (st != BASE_OK) goto done;
    /* check the size before allocating, so a lying header cannot make us
     * allocate (and zero) more than the file holds */
    size_t nbytes_hdr = (size_t)count * base_dtype_size(h.dt);
    if (!fsize && (uint64_t)nbytes_hdr > base_limit(lim, BASE_LIMIT_INPUT_BYTES)) {
        /* a FIFO or device (--allow-special-files): no size to check against */
        st = base_limit_fail(diag, path, 0, 0, lim, BASE_LIMIT_INPUT_BYTES, (uint64_t)nbytes_hdr, "npy data bytes");
        goto done;
    }
    off_t here = fsize ? ftello(f) : -1;
    if (here >= 0 && fseeko(f, 0, SEEK_END) == 0) {
        off_t end = ftello(f);
        size_t data_start = toff + hlen;
        size_t avail = end > (off_t)data_start ? (size_t)(end - (off_t)data_start) : 0;
        if (fseeko(f, here, SEEK_SET) != 0) {
            st = base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "seek failed: %s", strerror(errno));
            goto done;
        }
        if (avail < nbytes_hdr) {
            st = base_diag_set(diag, BASE_ERR_PARSE, path, 0, 0,
                               "npy data truncated: %zu bytes of data expected, %zu present",
                               nbytes_hdr, avail);
            goto done;
        }
    }
    st = base_tensor_create(h.dt, h.rank, h.dims, &t);
    if (st != BASE_OK) {
        base_diag_set(diag, st, path, 0, 0, "npy: cannot allocate the tensor: %s", base_status_str(st));
        goto done;
    }
    size_t nbytes = base_tensor_nbytes(t);
    unsigned char *dst = t->data;
    size_t pre_data = got > toff + hlen ? got - toff - hlen : 0; /* data bytes already read */
    if (pre_data > nbytes) pre_data = nbytes;
    memcpy(dst, pre + toff + hlen, pre_data);
    size_t n = pre_data + (nbytes > pre_data ? fread(dst + pre_data, 1, nbytes - pre_data, f) : 0);
    if (ferror(f)) {
        st = base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "read error: %s", strerror(errno));
        goto done;
    }
    if (n != nbytes) {
        st = base_diag_set(diag, BASE_ERR_PARSE, path, 0, 0,
                           "npy data truncated: %zu bytes of data expected, %zu present", nbytes, n);
        goto done;
    }
    fix_bools(t);
    *out = t;
    t = NULL;
done:
    base_tensor_release(t);
    free(text);
    fclose(f);
    return st;
}

enum base_status base_npy_read_lim(const char *path, const struct base_limits *lim, struct base_tensor **out,
                                   struct base_diag *diag)
{
    return base_diag_ensure(diag, base_npy_read_lim_impl(path, lim, out, diag), path, "reading a .npy");
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */

/* Appends s at dict[n]; the buffer is sized for the longest header. */
static size_t append(char *dict, size_t cap, size_t n, const char *s)
{
    size_t l = strlen(s);
    BASE_ASSERT(n + l < cap);
    memcpy(dict + n, s, l);
    return n + l;
}

/* Builds the padded header (preamble + dict) into buf; returns its length or
 * 0 when the dtype has no npy form. */
static size_t build_header(const struct base_tensor *t, char *buf, size_t cap)
{
    enum base_dtype dt = t->dtype == BASE_DT_INDEX ? BASE_DT_SI64 : t->dtype;
    const char *descr = NULL;
    for (size_t i = 0; i < ARRAY_LEN(npy_types); i++)
        if (npy_types[i].dt == dt) descr = npy_types[i].descr;
    if (!descr) return 0;
    char dict[64 + BASE_MAX_RANK * 24];
    char order = base_dtype_size(dt) == 1 ? '|' : '<';
    size_t n = 0;
    n = append(dict, sizeof dict, n, "{'descr': '");
    dict[n++] = order;
    n = append(dict, sizeof dict, n, descr);
    n = append(dict, sizeof dict, n, "', 'fortran_order': False, 'shape': (");
    for (int i = 0; i < t->rank; i++) {
        char num[32];
        snprintf(num, sizeof num, "%s%lld", i ? ", " : "", (long long)t->dims[i]);
        n = append(dict, sizeof dict, n, num);
    }
    n = append(dict, sizeof dict, n, t->rank == 1 ? ",), }" : "), }");
    dict[n] = 0;
    n = strlen(dict); /* lets GCC -O1 bound n (else a false -Wstringop-overflow) */
    size_t dlen = n + 1; /* + '\n' */
    size_t pre = 10;
    size_t total = (pre + dlen + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    if (total - pre > 0xFFFF) {
        pre = 12;
        total = (pre + dlen + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
    }
    BASE_ASSERT(total <= cap);
    size_t hlen = total - pre;
    memcpy(buf, NPY_MAGIC, NPY_MAGIC_LEN);
    buf[6] = pre == 10 ? 1 : 2;
    buf[7] = 0;
    buf[8] = (char)(hlen & 0xFF);
    buf[9] = (char)((hlen >> 8) & 0xFF);
    if (pre == 12) {
        buf[10] = (char)((hlen >> 16) & 0xFF);
        buf[11] = (char)((hlen >> 24) & 0xFF);
    }
    memcpy(buf + pre, dict, n);
    memset(buf + pre + n, ' ', total - pre - n - 1);
    buf[total - 1] = '\n';
    return total;
}

static enum base_status base_npy_write_impl(const char *path, const struct base_tensor *t, struct base_diag *diag)
{
    char hdr[1024];
    size_t hn = build_header(t, hdr, sizeof hdr);
    if (!hn)
        return base_diag_set(diag, BASE_ERR_UNSUPPORTED, path, 0, 0,
                             "npy: element type %s has no .npy form", base_dtype_name(t->dtype));
    /* whole or not at all (base_out: a temporary name, renamed); a lazy
     * tensor is written in chunks of its values */
    struct base_out o;
    TRY(base_out_open(&o, path, diag));
    size_t nbytes = base_tensor_nbytes(t);
    bool ok = fwrite(hdr, 1, hn, o.f) == hn;
    if (ok && nbytes && !t->lazy) {
        fwrite(t->data, 1, nbytes, o.f);
    } else if (ok && nbytes) {
        size_t es = base_dtype_size(t->dtype);
        int64_t per = (int64_t)((size_t)1 << 20) / (int64_t)es;
        char *buf = malloc((size_t)per * es);
        if (!buf) {
            base_out_abort(&o);
            return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory");
        }
        for (int64_t i = 0; i < t->count; i += per) {
            int64_t n = t->count - i < per ? t->count - i : per;
            enum base_status rst = base_tensor_read(t, i, n, buf);
            if (rst != BASE_OK) {
                free(buf);
                base_out_abort(&o);
                return base_diag_set(diag, rst, path, 0, 0, "cannot read the values to write: %s", base_status_str(rst));
            }
            fwrite(buf, es, (size_t)n, o.f);
        }
        free(buf);
    }
    return base_out_commit(&o, diag);
}

enum base_status base_npy_write(const char *path, const struct base_tensor *t, struct base_diag *diag)
{
    return base_diag_ensure(diag, base_npy_write_impl(path, t, diag), path, "writing a .npy");
}
