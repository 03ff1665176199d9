/* safetensors files (base.h "Weight files"): 8 bytes of little-endian header
 * length N, N bytes of JSON ({"name": {"dtype": "BF16", "shape": [..],
 * "data_offsets": [begin, end]}, ..., "__metadata__": {..}}), then the data;
 * offsets are relative to the data's start.  Files are memory-mapped and
 * their tensors read as lazy tensors, converted to the element type asked
 * for when read.  Every inconsistency is refused when the file is opened,
 * located: the file, the tensor's name, the field.
 *
 * Why base/: this is a tensor file format beside .npy, needing nothing but
 * element types and tensors; the graph and the runtime read weights through
 * base_tensor like any input. */
#include "base/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#define ST_MAX_HEADER (UINT64_C(100) << 20) /* the format's own limit (100 MB) */
#define ST_MAX_DEPTH 16

struct base_st_file {
    atomic_long refs;
    char *path;
    const uint8_t *base; /* the whole file (mapped, or the caller's buffer) */
    size_t len;
    bool mapped;
    const uint8_t *data; /* the data section */
    uint64_t data_len;
    int n, cap;
    struct base_st_tensor *t;
};

/* ------------------------------------------------------------ dtypes */

static const struct {
    const char *name;
    enum base_dtype dt;
} st_dtypes[] = {
    {"BOOL", BASE_DT_I1},      {"U8", BASE_DT_UI8},         {"I8", BASE_DT_SI8},       {"U16", BASE_DT_UI16},
    {"I16", BASE_DT_SI16},     {"U32", BASE_DT_UI32},       {"I32", BASE_DT_SI32},     {"U64", BASE_DT_UI64},
    {"I64", BASE_DT_SI64},     {"F16", BASE_DT_F16},        {"BF16", BASE_DT_BF16},    {"F32", BASE_DT_F32},
    {"F64", BASE_DT_F64},      {"C64", BASE_DT_C64},        {"F8_E4M3", BASE_DT_F8E4M3FN},
    {"F8_E5M2", BASE_DT_F8E5M2}, {"F8_E8M0", BASE_DT_F8E8M0FNU},
};

const char *base_st_dtype_name(enum base_dtype dt)
{
    for (size_t i = 0; i < ARRAY_LEN(st_dtypes); i++)
        if (st_dtypes[i].dt == dt) return st_dtypes[i].name;
    return NULL;
}

/* ------------------------------------------------------------ JSON */

struct json {
    const char *s, *end, *start; /* the header text */
    const char *file;
    struct base_diag *diag;
    int depth;
};

static enum base_status jerr(struct json *j, const char *at, const char *fmt, ...) BASE_PRINTF(3, 4);
static enum base_status jerr(struct json *j, const char *at, const char *fmt, ...)
{
    char msg[BASE_DIAG_MSG_MAX - 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* column: the byte of the header (the file's byte 8 + col - 1) */
    return base_diag_set(j->diag, BASE_ERR_PARSE, j->file, 1, (int)(at - j->start) + 1, "safetensors header: %s", msg);
}

static void ws(struct json *j)
{
    while (j->s < j->end && (*j->s == ' ' || *j->s == '\t' || *j->s == '\n' || *j->s == '\r')) j->s++;
}

static bool peek(struct json *j, char c)
{
    ws(j);
    return j->s < j->end && *j->s == c;
}

static enum base_status expect(struct json *j, char c)
{
    if (!peek(j, c)) return jerr(j, j->s, "expected '%c'", c);
    j->s++;
    return BASE_OK;
}

static void put_utf8(char *o, size_t *n, uint32_t c)
{
    if (c < 0x80) o[(*n)++] = (char)c;
    else if (c < 0x800) {
        o[(*n)++] = (char)(0xC0 | c >> 6);
        o[(*n)++] = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        o[(*n)++] = (char)(0xE0 | c >> 12);
        o[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3F));
        o[(*n)++] = (char)(0x80 | (c & 0x3F));
    } else {
        o[(*n)++] = (char)(0xF0 | c >> 18);
        o[(*n)++] = (char)(0x80 | ((c >> 12) & 0x3F));
        o[(*n)++] = (char)(0x80 | ((c >> 6) & 0x3F));
        o[(*n)++] = (char)(0x80 | (c & 0x3F));
    }
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string, unescaped into a new NUL-terminated buffer (out may be NULL: skip). */
static enum base_status jstring(struct json *j, char **out)
{
    if (out) *out = NULL;
    if (!peek(j, '"')) return jerr(j, j->s, "expected a string");
    const char *at = j->s++;
    char *o = out ? malloc((size_t)(j->end - j->s) + 1) : NULL;
    if (out && !o) return base_diag_set(j->diag, BASE_ERR_NOMEM, j->file, 1, 0, "out of memory");
    size_t n = 0;
    for (;;) {
        if (j->s >= j->end) {
            free(o);
            return jerr(j, at, "unterminated string");
        }
        unsigned char c = (unsigned char)*j->s++;
        if (c == '"') break;
        if (c < 0x20) {
            free(o);
            return jerr(j, j->s - 1, "control character in a string");
        }
        if (c != '\\') {
            if (o) o[n++] = (char)c;
            continue;
        }
        if (j->s >= j->end) continue; /* reported as unterminated */
        char e = *j->s++;
        uint32_t cp = 0;
        switch (e) {
        case '"': case '\\': case '/': cp = (uint32_t)e; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'n': cp = '\n'; break;
        case 'r': cp = '\r'; break;
        case 't': cp = '\t'; break;
        case 'u':
            for (int k = 0; k < 4; k++) {
                int h = j->s < j->end ? hexval(*j->s) : -1;
                if (h < 0) {
                    free(o);
                    return jerr(j, j->s, "bad \\u escape");
                }
                cp = cp * 16 + (uint32_t)h;
                j->s++;
            }
            if (cp == 0) {
                free(o);
                return jerr(j, j->s - 6, "a NUL character in a string");
            }
            break;
        default:
            free(o);
            return jerr(j, j->s - 2, "bad escape \\%c", e);
        }
        if (o) put_utf8(o, &n, cp);
    }
    if (o) {
        o[n] = 0;
        *out = o;
    }
    return BASE_OK;
}

/* A non-negative integer (no sign, fraction or exponent: shapes and offsets). */
static enum base_status juint(struct json *j, uint64_t *out, const char *what)
{
    ws(j);
    const char *at = j->s;
    uint64_t v = 0;
    if (j->s >= j->end || *j->s < '0' || *j->s > '9') return jerr(j, at, "%s: expected a non-negative integer", what);
    while (j->s < j->end && *j->s >= '0' && *j->s <= '9') {
        uint64_t d = (uint64_t)(*j->s - '0');
        if (v > (UINT64_MAX - d) / 10) return jerr(j, at, "%s: integer too large", what);
        v = v * 10 + d;
        j->s++;
    }
    if (j->s < j->end && (*j->s == '.' || *j->s == 'e' || *j->s == 'E'))
        return jerr(j, at, "%s: expected an integer", what);
    *out = v;
    return BASE_OK;
}

/* Skips any value (the metadata, fields we do not use). */
static enum base_status jskip(struct json *j)
{
    ws(j);
    if (j->s >= j->end) return jerr(j, j->s, "expected a value");
    if (++j->depth > ST_MAX_DEPTH) return jerr(j, j->s, "nested deeper than %d", ST_MAX_DEPTH);
    enum base_status st = BASE_OK;
    char c = *j->s;
    if (c == '"') {
        st = jstring(j, NULL);
    } else if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        j->s++;
        if (peek(j, close)) {
            j->s++;
        } else {
            for (;;) {
                if (c == '{') {
                    if ((st = jstring(j, NULL)) != BASE_OK || (st = expect(j, ':')) != BASE_OK) break;
                }
                if ((st = jskip(j)) != BASE_OK) break;
                if (peek(j, ',')) {
                    j->s++;
                    continue;
                }
                st = expect(j, close);
                break;
            }
        }
    } else {
        const char *at = j->s;
        while (j->s < j->end && (strchr("+-.eE", *j->s) || (*j->s >= '0' && *j->s <= '9') || (*j->s >= 'a' && *j->s <= 'z')))
            j->s++;
        size_t n = (size_t)(j->s - at);
        bool word = (n == 4 && !memcmp(at, "true", 4)) || (n == 5 && !memcmp(at, "false", 5)) || (n == 4 && !memcmp(at, "null", 4));
        bool num = n > 0 && (at[0] == '-' || (at[0] >= '0' && at[0] <= '9'));
        if (!word && !num) st = jerr(j, at, "expected a value");
    }
    j->depth--;
    return st;
}

/* ------------------------------------------------------------ header */

static enum base_status field_err(struct base_st_file *f, struct base_diag *d, const char *name, const char *field,
                                  const char *fmt, ...) BASE_PRINTF(5, 6);
static enum base_status field_err(struct base_st_file *f, struct base_diag *d, const char *name, const char *field,
                                  const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return base_diag_set(d, BASE_ERR_INVALID, f->path, 0, 0, "tensor '%.120s': %s: %s", name, field, msg);
}

static enum base_status parse_entry(struct json *j, struct base_st_file *f, char *name)
{
    struct base_st_tensor t;
    memset(&t, 0, sizeof t);
    t.name = name;
    bool have_dtype = false, have_shape = false, have_off = false;
    enum base_status st = expect(j, '{');
    uint64_t off[2] = {0, 0};
    while (st == BASE_OK && !peek(j, '}')) {
        char *key = NULL;
        const char *kat = j->s;
        if ((st = jstring(j, &key)) != BASE_OK || (st = expect(j, ':')) != BASE_OK) {
            free(key);
            break;
        }
        if (!strcmp(key, "dtype")) {
            char *v = NULL;
            st = jstring(j, &v);
            bool known = false;
            for (size_t i = 0; st == BASE_OK && i < ARRAY_LEN(st_dtypes); i++)
                if (!strcmp(v, st_dtypes[i].name)) {
                    t.dtype = st_dtypes[i].dt;
                    known = true;
                }
            if (st == BASE_OK && !known) st = field_err(f, j->diag, name, "dtype", "unknown dtype '%.40s'", v);
            free(v);
            have_dtype = true;
        } else if (!strcmp(key, "shape")) {
            st = expect(j, '[');
            while (st == BASE_OK && !peek(j, ']')) {
                uint64_t v;
                if ((st = juint(j, &v, "shape")) != BASE_OK) break;
                if (t.rank >= BASE_MAX_RANK) {
                    st = field_err(f, j->diag, name, "shape", "more than %d dimensions", BASE_MAX_RANK);
                    break;
                }
                if (v > (uint64_t)BASE_MAX_ELEMS) {
                    st = field_err(f, j->diag, name, "shape", "dimension %llu too large", (unsigned long long)v);
                    break;
                }
                t.dims[t.rank++] = (int64_t)v;
                if (peek(j, ',')) j->s++;
                else if (!peek(j, ']')) st = jerr(j, j->s, "expected ',' or ']' in a shape");
            }
            if (st == BASE_OK) st = expect(j, ']');
            have_shape = true;
        } else if (!strcmp(key, "data_offsets")) {
            st = expect(j, '[');
            if (st == BASE_OK) st = juint(j, &off[0], "data_offsets");
            if (st == BASE_OK) st = expect(j, ',');
            if (st == BASE_OK) st = juint(j, &off[1], "data_offsets");
            if (st == BASE_OK && !peek(j, ']'))
                st = field_err(f, j->diag, name, "data_offsets", "expected two offsets [begin, end]");
            if (st == BASE_OK) st = expect(j, ']');
            have_off = true;
        } else {
            (void)kat;
            st = jskip(j);
        }
        free(key);
        if (st == BASE_OK && peek(j, ',')) {
            j->s++;
            if (peek(j, '}')) st = jerr(j, j->s, "a ',' before '}'");
        } else if (st == BASE_OK && !peek(j, '}')) {
            st = jerr(j, j->s, "expected ',' or '}'");
        }
    }
    if (st == BASE_OK) st = expect(j, '}');
    if (st == BASE_OK && !have_dtype) st = field_err(f, j->diag, name, "dtype", "missing");
    if (st == BASE_OK && !have_shape) st = field_err(f, j->diag, name, "shape", "missing");
    if (st == BASE_OK && !have_off) st = field_err(f, j->diag, name, "data_offsets", "missing");
    if (st == BASE_OK) {
        int64_t count = base_shape_count(t.rank, t.dims);
        uint64_t want = count < 0 ? 0 : (uint64_t)count * base_dtype_size(t.dtype);
        if (count < 0) st = field_err(f, j->diag, name, "shape", "more than %lld elements", (long long)BASE_MAX_ELEMS);
        else if (off[0] > off[1])
            st = field_err(f, j->diag, name, "data_offsets", "begin %llu after end %llu", (unsigned long long)off[0],
                           (unsigned long long)off[1]);
        else if (off[1] > f->data_len)
            st = field_err(f, j->diag, name, "data_offsets",
                           "[%llu, %llu) out of range: the data section has %llu bytes (the file is truncated or the "
                           "offsets are wrong)",
                           (unsigned long long)off[0], (unsigned long long)off[1], (unsigned long long)f->data_len);
        else if (off[1] - off[0] != want)
            st = field_err(f, j->diag, name, "data_offsets",
                           "%llu bytes, but %s x %lld elements take %llu", (unsigned long long)(off[1] - off[0]),
                           base_st_dtype_name(t.dtype), (long long)count, (unsigned long long)want);
        t.begin = off[0];
        t.end = off[1];
    }
    for (int i = 0; st == BASE_OK && i < f->n; i++)
        if (!strcmp(f->t[i].name, name)) st = field_err(f, j->diag, name, "name", "appears twice in the header");
    if (st == BASE_OK) {
        size_t cap = (size_t)f->cap;
        if (!base_grow((void **)&f->t, &cap, (size_t)f->n + 1, sizeof *f->t)) st = BASE_ERR_NOMEM;
        f->cap = (int)cap;
    }
    if (st != BASE_OK) {
        free(name);
        return st;
    }
    f->t[f->n++] = t;
    return BASE_OK;
}

static enum base_status parse_header(struct base_st_file *f, struct base_diag *diag)
{
    if (f->len < 8)
        return base_diag_set(diag, BASE_ERR_INVALID, f->path, 0, 0, "truncated: %zu bytes, not even the 8-byte header length",
                             f->len);
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--) n = n << 8 | f->base[i];
    if (n > ST_MAX_HEADER)
        return base_diag_set(diag, BASE_ERR_INVALID, f->path, 0, 0, "header length %llu: more than the format's 100 MB",
                             (unsigned long long)n);
    if (n > f->len - 8)
        return base_diag_set(diag, BASE_ERR_INVALID, f->path, 0, 0,
                             "truncated: the header takes %llu bytes, the file has %zu after the length",
                             (unsigned long long)n, f->len - 8);
    f->data = f->base + 8 + n;
    f->data_len = f->len - 8 - n;
    struct json j = {(const char *)f->base + 8, (const char *)f->base + 8 + n, (const char *)f->base + 8, f->path, diag, 0};
    TRY(expect(&j, '{'));
    while (!peek(&j, '}')) {
        char *name = NULL;
        TRY(jstring(&j, &name));
        enum base_status st = expect(&j, ':');
        if (st == BASE_OK && !strcmp(name, "__metadata__")) {
            free(name);
            st = jskip(&j);
        } else if (st == BASE_OK) {
            st = parse_entry(&j, f, name); /* takes name */
        } else {
            free(name);
        }
        TRY(st);
        if (peek(&j, ',')) {
            j.s++;
            if (peek(&j, '}')) return jerr(&j, j.s, "a ',' before '}'");
        } else if (!peek(&j, '}')) {
            return jerr(&j, j.s, "expected ',' or '}'");
        }
    }
    TRY(expect(&j, '}'));
    ws(&j);
    if (j.s != j.end) return jerr(&j, j.s, "text after the header's object");
    return BASE_OK;
}

/* ------------------------------------------------------------ files */

static void file_free(struct base_st_file *f)
{
    for (int i = 0; i < f->n; i++) free(f->t[i].name);
    free(f->t);
    if (f->mapped && f->len) munmap((void *)(uintptr_t)f->base, f->len);
    free(f->path);
    free(f);
}

static void file_release(struct base_st_file *f)
{
    if (f && atomic_fetch_sub(&f->refs, 1) == 1) file_free(f);
}

void base_st_close(struct base_st_file *f) { file_release(f); }

static enum base_status file_new(const char *name, struct base_st_file **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out) return BASE_ERR_NOMEM;
    atomic_init(&(*out)->refs, 1);
    (*out)->path = malloc(strlen(name) + 1);
    if (!(*out)->path) {
        free(*out);
        *out = NULL;
        return BASE_ERR_NOMEM;
    }
    strcpy((*out)->path, name);
    return BASE_OK;
}

enum base_status base_st_parse(const void *buf, size_t len, const char *name, struct base_st_file **out,
                               struct base_diag *diag)
{
    struct base_st_file *f;
    enum base_status st = file_new(name ? name : "<memory>", &f);
    if (st != BASE_OK) return base_diag_set(diag, st, name, 0, 0, "out of memory");
    f->base = buf;
    f->len = len;
    st = parse_header(f, diag);
    if (st != BASE_OK) {
        file_free(f);
        *out = NULL;
        return st;
    }
    *out = f;
    return BASE_OK;
}

enum base_status base_st_open(const char *path, struct base_st_file **out, struct base_diag *diag)
{
    *out = NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "not a regular file");
    }
    struct base_st_file *f;
    if (file_new(path, &f) != BASE_OK) {
        close(fd);
        return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    f->len = (size_t)sb.st_size;
    if (f->len) {
        void *m = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            close(fd);
            file_free(f);
            return e == ENOMEM ? base_diag_nomem(diag, path, 0, 0, (uint64_t)sb.st_size, "mapping the weight file")
                               : base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot map: %s", strerror(e));
        }
        f->base = m;
        f->mapped = true;
    }
    close(fd);
    enum base_status st = parse_header(f, diag);
    if (st != BASE_OK) {
        file_free(f);
        return st;
    }
    *out = f;
    return BASE_OK;
}

int base_st_count(const struct base_st_file *f) { return f->n; }
const struct base_st_tensor *base_st_get(const struct base_st_file *f, int i) { return &f->t[i]; }
const char *base_st_path(const struct base_st_file *f) { return f->path; }

int base_st_find(const struct base_st_file *f, const char *name)
{
    for (int i = 0; i < f->n; i++)
        if (!strcmp(f->t[i].name, name)) return i;
    return -1;
}

struct st_src {
    struct base_st_file *f; /* a reference */
    const uint8_t *p;       /* the tensor's first byte */
    enum base_dtype from, to;
};

static enum base_status st_read(void *user, int64_t first, int64_t n, void *out)
{
    const struct st_src *s = user;
    const uint8_t *src = s->p + (size_t)first * base_dtype_size(s->from);
    if (s->from == s->to) memcpy(out, src, (size_t)n * base_dtype_size(s->to));
    else base_convert(s->to, out, s->from, src, (size_t)n);
    return BASE_OK;
}

static void st_release(void *user)
{
    struct st_src *s = user;
    file_release(s->f);
    free(s);
}

static bool convertible(enum base_dtype from, enum base_dtype to)
{
    enum base_dtype_kind a = base_dtype_kind(from), b = base_dtype_kind(to);
    bool fa = a == BASE_KIND_FLOAT || a == BASE_KIND_COMPLEX, fb = b == BASE_KIND_FLOAT || b == BASE_KIND_COMPLEX;
    if (fa || fb) return fa && fb && (a == BASE_KIND_COMPLEX) == (b == BASE_KIND_COMPLEX);
    return (a == BASE_KIND_BOOL) == (b == BASE_KIND_BOOL); /* integers of any width and sign; booleans */
}

enum base_status base_st_tensor_lazy(struct base_st_file *f, int i, enum base_dtype dt, int rank, const int64_t *dims,
                                     struct base_tensor **out, struct base_diag *diag)
{
    *out = NULL;
    const struct base_st_tensor *t = &f->t[i];
    bool same = t->rank == rank;
    for (int d = 0; same && d < rank; d++) same = t->dims[d] == dims[d];
    if (!same) {
        char want[160] = "", got[160] = "";
        size_t a = 0, b = 0;
        for (int d = 0; d < rank && a < sizeof want; d++) a += (size_t)snprintf(want + a, sizeof want - a, "%s%lld", d ? ", " : "", (long long)dims[d]);
        for (int d = 0; d < t->rank && b < sizeof got; d++) b += (size_t)snprintf(got + b, sizeof got - b, "%s%lld", d ? ", " : "", (long long)t->dims[d]);
        return field_err(f, diag, t->name, "shape", "[%s] in the file, the argument takes [%s]", got, want);
    }
    if (!convertible(t->dtype, dt))
        return field_err(f, diag, t->name, "dtype", "%s in the file cannot become the argument's %s (floats convert to "
                         "floats, integers to integers)", base_st_dtype_name(t->dtype), base_dtype_name(dt));
    struct st_src *s = malloc(sizeof *s);
    if (!s) return base_diag_nomem(diag, f->path, 0, 0, sizeof *s, "tensor '%s'", t->name);
    s->f = f;
    atomic_fetch_add(&f->refs, 1);
    s->p = f->data + t->begin;
    s->from = t->dtype;
    s->to = dt;
    struct base_lazy_src src = {st_read, st_release, s};
    enum base_status st = base_tensor_create_lazy(dt, rank, dims, &src, out); /* releases s on failure */
    if (st != BASE_OK) return base_diag_set(diag, st, f->path, 0, 0, "tensor '%s': %s", t->name, base_status_str(st));
    return BASE_OK;
}

/* ------------------------------------------------------------ sets of files */

struct base_st_set {
    int n_files;
    struct base_st_file **files;
};

void base_st_set_close(struct base_st_set *s)
{
    if (!s) return;
    for (int i = 0; i < s->n_files; i++) base_st_close(s->files[i]);
    free(s->files);
    free(s);
}

static enum base_status set_add(struct base_st_set *s, const char *path, struct base_diag *diag)
{
    for (int i = 0; i < s->n_files; i++)
        if (!strcmp(s->files[i]->path, path)) return BASE_OK;
    struct base_st_file **nf = realloc(s->files, (size_t)(s->n_files + 1) * sizeof *nf);
    if (!nf) return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory");
    s->files = nf;
    TRY(base_st_open(path, &s->files[s->n_files], diag));
    s->n_files++;
    return BASE_OK;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

/* The shards an index names ({"weight_map": {"tensor": "file", ...}}), in
 * the order they first appear. */
static enum base_status open_index(struct base_st_set *s, const char *dir, const char *index, struct base_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    TRY(base_file_read(index, &text, &len, diag));
    struct json j = {text, text + len, text, index, diag, 0};
    enum base_status st = expect(&j, '{');
    bool found = false;
    while (st == BASE_OK && !peek(&j, '}')) {
        char *key = NULL;
        if ((st = jstring(&j, &key)) == BASE_OK) st = expect(&j, ':');
        if (st == BASE_OK && !strcmp(key, "weight_map")) {
            found = true;
            st = expect(&j, '{');
            while (st == BASE_OK && !peek(&j, '}')) {
                char *file = NULL;
                if ((st = jstring(&j, NULL)) == BASE_OK && (st = expect(&j, ':')) == BASE_OK) st = jstring(&j, &file);
                if (st == BASE_OK && (strchr(file, '/') || !strcmp(file, "..")))
                    st = base_diag_set(diag, BASE_ERR_INVALID, index, 0, 0, "weight_map names '%.100s': shards must be "
                                       "files of the index's directory", file);
                if (st == BASE_OK) {
                    char path[4096];
                    snprintf(path, sizeof path, "%s/%s", dir, file);
                    st = set_add(s, path, diag);
                }
                free(file);
                if (st == BASE_OK && peek(&j, ',')) j.s++;
                else if (st == BASE_OK && !peek(&j, '}')) st = jerr(&j, j.s, "expected ',' or '}'");
            }
            if (st == BASE_OK) st = expect(&j, '}');
        } else if (st == BASE_OK) {
            st = jskip(&j);
        }
        free(key);
        if (st == BASE_OK && peek(&j, ',')) j.s++;
        else if (st == BASE_OK && !peek(&j, '}')) st = jerr(&j, j.s, "expected ',' or '}'");
    }
    if (st == BASE_OK) st = expect(&j, '}');
    if (st == BASE_OK && !found) st = base_diag_set(diag, BASE_ERR_INVALID, index, 0, 0, "no \"weight_map\" in the index");
    free(text);
    return st;
}

enum base_status base_st_set_open(const char *path, struct base_st_set **out, struct base_diag *diag)
{
    *out = calloc(1, sizeof **out);
    if (!*out) return base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory");
    struct base_st_set *s = *out;
    struct stat sb;
    enum base_status st = BASE_OK;
    if (stat(path, &sb) != 0) {
        st = base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errno));
    } else if (!S_ISDIR(sb.st_mode)) {
        st = ends_with(path, ".json") ? BASE_ERR_INVALID : set_add(s, path, diag);
        if (st == BASE_ERR_INVALID) { /* an index file itself */
            char dir[4096];
            snprintf(dir, sizeof dir, "%s", path);
            char *slash = strrchr(dir, '/');
            if (slash) *slash = 0;
            else snprintf(dir, sizeof dir, ".");
            st = open_index(s, dir, path, diag);
        }
    } else {
        DIR *d = opendir(path);
        char **names = NULL, *index = NULL;
        size_t n = 0, cap = 0;
        for (struct dirent *e; d && st == BASE_OK && (e = readdir(d));) {
            if (e->d_name[0] == '.') continue;
            if (ends_with(e->d_name, ".safetensors.index.json") && !index) {
                index = malloc(strlen(path) + strlen(e->d_name) + 2);
                if (!index) st = BASE_ERR_NOMEM;
                else sprintf(index, "%s/%s", path, e->d_name);
            } else if (ends_with(e->d_name, ".safetensors")) {
                if (!base_grow((void **)&names, &cap, n + 1, sizeof *names) ||
                    !(names[n] = malloc(strlen(path) + strlen(e->d_name) + 2)))
                    st = BASE_ERR_NOMEM;
                else
                    sprintf(names[n++], "%s/%s", path, e->d_name);
            }
        }
        if (d) closedir(d);
        else st = base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot read the directory: %s", strerror(errno));
        if (st == BASE_ERR_NOMEM) st = base_diag_set(diag, st, path, 0, 0, "out of memory");
        if (st == BASE_OK && index) {
            st = open_index(s, path, index, diag);
        } else if (st == BASE_OK) {
            qsort(names, n, sizeof *names, cmp_str);
            for (size_t i = 0; st == BASE_OK && i < n; i++) st = set_add(s, names[i], diag);
            if (st == BASE_OK && n == 0)
                st = base_diag_set(diag, BASE_ERR_INVALID, path, 0, 0, "no .safetensors file and no index in the directory");
        }
        for (size_t i = 0; i < n; i++) free(names[i]);
        free(names);
        free(index);
    }
    if (st != BASE_OK) {
        base_st_set_close(s);
        *out = NULL;
        return st;
    }
    /* a name in two shards is ambiguous */
    for (int a = 0; a < s->n_files; a++)
        for (int i = 0; i < s->files[a]->n; i++)
            for (int b = a + 1; b < s->n_files; b++)
                if (base_st_find(s->files[b], s->files[a]->t[i].name) >= 0) {
                    st = base_diag_set(diag, BASE_ERR_INVALID, s->files[b]->path, 0, 0,
                                       "tensor '%.120s': name: also in %s", s->files[a]->t[i].name, s->files[a]->path);
                    base_st_set_close(s);
                    *out = NULL;
                    return st;
                }
    return BASE_OK;
}

int base_st_set_n_files(const struct base_st_set *s) { return s->n_files; }
struct base_st_file *base_st_set_file(const struct base_st_set *s, int i) { return s->files[i]; }

bool base_st_set_find(const struct base_st_set *s, const char *name, struct base_st_file **f, int *i)
{
    for (int k = 0; k < s->n_files; k++) {
        int j = base_st_find(s->files[k], name);
        if (j >= 0) {
            *f = s->files[k];
            *i = j;
            return true;
        }
    }
    return false;
}
