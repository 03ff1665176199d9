/* Reads npusim's own Perfetto JSON back into a trace (trace convert json ->
 * npt).  Plain or gzipped.  Numbers that must stay exact (timestamps in
 * microseconds with up to 6 decimals, 64-bit counts) are parsed as text,
 * never through a double.  Errors name the line and column. */
#include "traces/trc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>

struct jr {
    const char *p, *end, *start;
    const char *path;
    struct base_diag *diag;
    bool failed;
};

static enum base_status jfail(struct jr *r, const char *what)
{
    if (r->failed) return BASE_ERR_PARSE;
    r->failed = true;
    int line = 1, col = 1;
    for (const char *q = r->start; q < r->p && q < r->end; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    return base_diag_set(r->diag, BASE_ERR_PARSE, r->path, line, col, "%s (byte %lld)", what, (long long)(r->p - r->start));
}

static void ws(struct jr *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t')) r->p++;
}

static bool eat(struct jr *r, char c)
{
    ws(r);
    if (r->p < r->end && *r->p == c) {
        r->p++;
        return true;
    }
    return false;
}

/* A string into buf (decoded; \u escapes below 0x80 only, others as '?'). */
static bool jstr(struct jr *r, char *buf, size_t cap)
{
    ws(r);
    if (r->p >= r->end || *r->p != '"') {
        jfail(r, "expected a string");
        return false;
    }
    r->p++;
    size_t n = 0;
    while (r->p < r->end && *r->p != '"') {
        char c = *r->p++;
        if (c == '\\') {
            if (r->p >= r->end) break;
            char e = *r->p++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    if (r->p >= r->end) break;
                    char h = *r->p++;
                    v = v * 16 + (unsigned)(h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : 0);
                }
                c = v < 0x80 ? (char)v : '?';
                break;
            }
            default: c = e; break;
            }
        }
        if (n + 1 < cap) buf[n++] = c;
    }
    if (cap) buf[n] = 0;
    if (r->p >= r->end) {
        jfail(r, "unterminated string");
        return false;
    }
    r->p++;
    return true;
}

/* A scalar's raw text (number, true, false, null) into buf. */
static bool jnum(struct jr *r, char *buf, size_t cap)
{
    ws(r);
    size_t n = 0;
    while (r->p < r->end && (strchr("+-.eE", *r->p) || (*r->p >= '0' && *r->p <= '9') || (*r->p >= 'a' && *r->p <= 'z'))) {
        if (n + 1 < cap) buf[n++] = *r->p;
        r->p++;
    }
    buf[n] = 0;
    if (!n) {
        jfail(r, "expected a value");
        return false;
    }
    return true;
}

static bool skip_value(struct jr *r, int depth)
{
    ws(r);
    if (depth > 64) {
        jfail(r, "nesting too deep");
        return false;
    }
    if (r->p >= r->end) {
        jfail(r, "unexpected end of file");
        return false;
    }
    char c = *r->p;
    char tmp[64];
    if (c == '"') return jstr(r, tmp, sizeof tmp);
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        r->p++;
        if (eat(r, close)) return true;
        for (;;) {
            if (c == '{') {
                if (!jstr(r, tmp, sizeof tmp)) return false;
                if (!eat(r, ':')) return jfail(r, "expected ':'"), false;
            }
            if (!skip_value(r, depth + 1)) return false;
            if (eat(r, ',')) continue;
            if (eat(r, close)) return true;
            jfail(r, "expected ',' or a closing bracket");
            return false;
        }
    }
    return jnum(r, tmp, sizeof tmp);
}

/* "123.456789" microseconds -> ps, exactly. */
static bool us_to_ps(const char *s, uint64_t *out)
{
    uint64_t ip = 0, fp = 0;
    int fd = 0;
    const char *q = s;
    if (!(*q >= '0' && *q <= '9')) return false;
    for (; *q >= '0' && *q <= '9'; q++) {
        if (ip > UINT64_MAX / 10 / 1000000) return false;
        ip = ip * 10 + (uint64_t)(*q - '0');
    }
    if (*q == '.')
        for (q++; *q >= '0' && *q <= '9'; q++) {
            if (fd == 6) {
                if (*q != '0') return false; /* finer than a picosecond */
                continue;
            }
            fp = fp * 10 + (uint64_t)(*q - '0');
            fd++;
        }
    if (*q) return false;
    for (; fd < 6; fd++) fp *= 10;
    *out = ip * 1000000 + fp;
    return true;
}

static bool to_u64(const char *s, uint64_t *out)
{
    if (!(*s >= '0' && *s <= '9')) return false;
    char *e;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 10);
    if (*e || errno) return false;
    *out = v;
    return true;
}

static bool to_i64(const char *s, int64_t *out)
{
    char *e;
    errno = 0;
    long long v = strtoll(s, &e, 10);
    if (!*s || *e || errno) return false;
    *out = v;
    return true;
}

/* ------------------------------------------------------------- events */

#define VAL_MAX 4096
struct kv {
    char key[32];
    char val[VAL_MAX];
    bool is_str;
};
#define EV_MAX 32
struct ev {
    struct kv top[EV_MAX], args[EV_MAX];
    int n_top, n_args;
};

static const struct kv *find(const struct kv *v, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(v[i].key, key)) return &v[i];
    return NULL;
}

/* An object of scalars (nested objects and arrays: only "args", one level). */
static bool parse_flat(struct jr *r, struct kv *out, int *n, struct kv *args, int *n_args)
{
    *n = 0;
    if (n_args) *n_args = 0;
    if (!eat(r, '{')) return jfail(r, "expected '{'"), false;
    if (eat(r, '}')) return true;
    for (;;) {
        char key[32];
        if (!jstr(r, key, sizeof key)) return false;
        if (!eat(r, ':')) return jfail(r, "expected ':'"), false;
        ws(r);
        if (r->p < r->end && *r->p == '{' && args && !strcmp(key, "args")) {
            if (!parse_flat(r, args, n_args, NULL, NULL)) return false;
        } else if (r->p < r->end && (*r->p == '{' || *r->p == '[')) {
            if (!skip_value(r, 1)) return false;
        } else if (*n < EV_MAX) {
            struct kv *k = &out[(*n)++];
            snprintf(k->key, sizeof k->key, "%s", key);
            k->is_str = r->p < r->end && *r->p == '"';
            if (!(k->is_str ? jstr(r, k->val, sizeof k->val) : jnum(r, k->val, sizeof k->val))) return false;
        } else if (!skip_value(r, 1)) {
            return false;
        }
        if (eat(r, ',')) continue;
        if (eat(r, '}')) return true;
        jfail(r, "expected ',' or '}'");
        return false;
    }
}

struct rd {
    struct jr r;
    struct trc_trace *t;
    uint64_t base;
    struct trc_flow *pend; /* flow halves by id - 1 */
    uint8_t *have;         /* bit 1: s seen, bit 2: f seen */
    size_t n_pend, cap_pend, cap_have;
    uint32_t last_counter;
};

static enum base_status ev_fail(struct rd *d, const char *what) { return jfail(&d->r, what); }

static bool get_u64(const struct kv *v, int n, const char *key, uint64_t *out)
{
    const struct kv *k = find(v, n, key);
    *out = 0;
    return !k || to_u64(k->val, out);
}

/* A number (absent: 0) as the bits of a double. */
static bool get_f64_bits(const struct kv *v, int n, const char *key, uint64_t *out)
{
    const struct kv *k = find(v, n, key);
    *out = 0;
    if (!k) return true;
    char *e;
    double x = strtod(k->val, &e);
    if (!*k->val || *e || k->is_str) return false;
    *out = trc_f64_bits(x);
    return true;
}

static enum base_status intern_arg(struct rd *d, const struct kv *v, int n, const char *key, uint32_t *id)
{
    const struct kv *k = find(v, n, key);
    *id = 0;
    if (!k) return BASE_OK;
    return trc_trace_intern(d->t, k->val, id);
}

static bool lookup_space(const struct kv *k, uint64_t *out)
{
    *out = 0;
    if (!k) return true;
    for (unsigned i = 0; i < TRC_SPACE_COUNT; i++)
        if (!strcmp(k->val, trc_space_name(i))) {
            *out = i;
            return true;
        }
    return to_u64(k->val, out);
}

static enum base_status on_slice(struct rd *d, const struct ev *e)
{
    uint64_t tid, ts, dur;
    const struct kv *kts = find(e->top, e->n_top, "ts"), *kdur = find(e->top, e->n_top, "dur");
    if (!get_u64(e->top, e->n_top, "tid", &tid) || tid == 0 || tid > d->t->n_lanes)
        return ev_fail(d, "an X event's tid names no lane of otherData.npusim_lanes");
    if (!kts || !us_to_ps(kts->val, &ts) || !kdur || !us_to_ps(kdur->val, &dur))
        return ev_fail(d, "an X event needs ts and dur in microseconds with at most 6 decimals");
    struct trc_slice s;
    memset(&s, 0, sizeof s);
    s.start_ps = ts + d->base;
    s.dur_ps = dur;
    /* args.kind (files of npusim 0.x before it: the category) */
    const struct kv *cat = find(e->args, e->n_args, "kind");
    if (!cat) cat = find(e->top, e->n_top, "cat");
    enum trc_slice_kind kind;
    if (!cat || !trc_slice_kind_lookup(cat->val, &kind)) return ev_fail(d, "an X event's args.kind is not a slice kind");
    s.kind = kind;
    TRY(intern_arg(d, e->top, e->n_top, "name", &s.name));
    TRY(intern_arg(d, e->args, e->n_args, "op", &s.op));
    TRY(intern_arg(d, e->args, e->n_args, "loc", &s.loc));
    TRY(intern_arg(d, e->args, e->n_args, "source", &s.src));
    bool coll = kind == TRC_SLICE_COLLECTIVE || kind == TRC_SLICE_LINK; /* their kernel field is the algorithm */
    TRY(intern_arg(d, e->args, e->n_args, coll ? "algorithm" : "kernel", &s.kernel));
    bool ok = get_u64(e->args, e->n_args, "bytes", &s.bytes) && get_u64(e->args, e->n_args, "flops", &s.flops);
    uint64_t i0 = 0, i1 = 0;
    int64_t target = 0;
    const struct kv *kt;
    switch (kind) {
    case TRC_SLICE_INSTR:
        ok = ok && get_u64(e->args, e->n_args, "stream_index", &s.a) && get_u64(e->args, e->n_args, "iter0", &i0) &&
             get_u64(e->args, e->n_args, "iter1", &i1) && get_u64(e->args, e->n_args, "visible_after_ps", &s.c);
        s.b = i0 | i1 << 32;
        break;
    case TRC_SLICE_DMA:
        ok = ok && lookup_space(find(e->args, e->n_args, "src"), &s.a) && lookup_space(find(e->args, e->n_args, "dst"), &s.b) &&
             get_u64(e->args, e->n_args, "data_after_ps", &s.c);
        break;
    case TRC_SLICE_WAIT:
        kt = find(e->args, e->n_args, "target");
        ok = ok && get_u64(e->args, e->n_args, "sem", &s.a) && get_u64(e->args, e->n_args, "stream_index", &s.c) &&
             (!kt || to_i64(kt->val, &target));
        s.b = (uint64_t)target;
        break;
    case TRC_SLICE_COLLECTIVE:
        ok = ok && get_u64(e->args, e->n_args, "group_size", &i0) && get_u64(e->args, e->n_args, "n_groups", &i1) &&
             i0 <= UINT32_MAX && i1 <= UINT32_MAX && get_u64(e->args, e->n_args, "exposed_ps", &s.b) &&
             get_f64_bits(e->args, e->n_args, "busbw_gbps", &s.c);
        s.a = i0 | i1 << 32;
        break;
    case TRC_SLICE_LINK: /* gbps and util are derived */
        ok = ok && get_u64(e->args, e->n_args, "link", &s.a) && get_f64_bits(e->args, e->n_args, "link_gbps", &s.b) &&
             get_u64(e->args, e->n_args, "collective", &s.c);
        break;
    default:
        ok = ok && get_u64(e->args, e->n_args, "kernel_index", &s.a) && get_u64(e->args, e->n_args, "launch", &s.b) &&
             get_u64(e->args, e->n_args, kind == TRC_SLICE_KERNEL ? "sim_flops" : "c", &s.c);
        break;
    }
    if (!ok) return ev_fail(d, "an X event's args do not decode (counts must be non-negative integers)");
    return trc_trace_add_slice(d->t, (uint32_t)(tid - 1), &s);
}

static enum base_status on_counter(struct rd *d, const struct ev *e)
{
    const struct kv *name = find(e->top, e->n_top, "name"), *kts = find(e->top, e->n_top, "ts");
    const struct kv *val = find(e->args, e->n_args, "value");
    uint64_t ts;
    if (!name || !kts || !us_to_ps(kts->val, &ts) || !val) return ev_fail(d, "a C event needs name, ts and args.value");
    uint64_t pid = 1; /* chip + 1: counters of several chips share their names */
    if (!get_u64(e->top, e->n_top, "pid", &pid)) return ev_fail(d, "a C event's pid is not a number");
    uint32_t lane = d->last_counter;
    if (lane >= d->t->n_lanes || strcmp(d->t->lanes[lane].lane.name, name->val) != 0 ||
        d->t->lanes[lane].lane.chip + 1 != pid) {
        for (lane = 0; lane < d->t->n_lanes; lane++)
            if (d->t->lanes[lane].lane.kind == TRC_LANE_COUNTER && !strcmp(d->t->lanes[lane].lane.name, name->val) &&
                d->t->lanes[lane].lane.chip + 1 == pid)
                break;
        if (lane == d->t->n_lanes) return ev_fail(d, "a C event names no counter lane of otherData.npusim_lanes");
        d->last_counter = lane;
    }
    char *end;
    double v = strtod(val->val, &end);
    if (*end) return ev_fail(d, "a C event's value is not a number");
    return trc_trace_add_sample(d->t, lane, ts + d->base, v);
}

static enum base_status on_flow(struct rd *d, const struct ev *e, bool start)
{
    uint64_t id, tid, ts;
    const struct kv *kts = find(e->args, e->n_args, "at"); /* the exact time, when the event binds to a slice's start */
    if (!kts) kts = find(e->top, e->n_top, "ts");
    if (!get_u64(e->top, e->n_top, "id", &id) || id == 0 || id > (1u << 28) || !get_u64(e->top, e->n_top, "tid", &tid) ||
        tid == 0 || tid > d->t->n_lanes || !kts || !us_to_ps(kts->val, &ts))
        return ev_fail(d, "a flow event needs id, tid (a lane) and ts");
    if (!base_grow((void **)&d->pend, &d->cap_pend, id, sizeof *d->pend)) return BASE_ERR_NOMEM;
    if (!base_grow((void **)&d->have, &d->cap_have, id, 1)) return BASE_ERR_NOMEM;
    while (d->n_pend < id) {
        memset(&d->pend[d->n_pend], 0, sizeof *d->pend);
        d->have[d->n_pend++] = 0;
    }
    struct trc_flow *f = &d->pend[id - 1];
    uint8_t bit = start ? 1 : 2;
    if (d->have[id - 1] & bit) return ev_fail(d, "a flow id has two starts or two ends");
    d->have[id - 1] |= bit;
    if (start) {
        f->from_lane = (uint32_t)(tid - 1);
        f->from_ps = ts + d->base;
    } else {
        f->to_lane = (uint32_t)(tid - 1);
        f->to_ps = ts + d->base;
    }
    return BASE_OK;
}

static enum base_status read_other(struct rd *d)
{
    struct jr *r = &d->r;
    if (!eat(r, '{')) return jfail(r, "otherData: expected '{'");
    if (eat(r, '}')) return BASE_OK;
    bool lanes = false;
    for (;;) {
        char key[64];
        if (!jstr(r, key, sizeof key)) return BASE_ERR_PARSE;
        if (!eat(r, ':')) return jfail(r, "expected ':'");
        ws(r);
        if (!strcmp(key, "npusim_lanes")) {
            lanes = true;
            if (!eat(r, '[')) return jfail(r, "npusim_lanes: expected '['");
            if (!eat(r, ']'))
                for (;;) {
                    struct trc_lane l;
                    memset(&l, 0, sizeof l);
                    char kind[32], num[64];
                    uint64_t chip, sort;
                    int64_t core;
                    enum trc_lane_kind k;
                    if (!eat(r, '[') || !jstr(r, l.name, sizeof l.name) || !eat(r, ',') || !jstr(r, kind, sizeof kind) ||
                        !eat(r, ',') || !jnum(r, num, sizeof num) || !to_u64(num, &chip) || !eat(r, ',') ||
                        !jnum(r, num, sizeof num) || !to_i64(num, &core) || !eat(r, ',') || !jnum(r, num, sizeof num) ||
                        !to_u64(num, &sort) || !eat(r, ',') || !jstr(r, l.unit, sizeof l.unit) || !eat(r, ']') ||
                        !trc_lane_kind_lookup(kind, &k) || chip >= UINT32_MAX || core < -1 || core > INT32_MAX ||
                        sort > UINT32_MAX)
                        return jfail(r, "npusim_lanes: each lane is [name, kind, chip, core, sort, unit]");
                    l.kind = k;
                    l.chip = (uint32_t)chip;
                    l.core = (int32_t)core;
                    l.sort_index = (uint32_t)sort;
                    TRY(trc_trace_add_lane(d->t, &l, NULL));
                    if (eat(r, ',')) continue;
                    if (eat(r, ']')) break;
                    return jfail(r, "npusim_lanes: expected ',' or ']'");
                }
        } else if (!strcmp(key, "time_base_ps") || !strncmp(key, "meta.", 5)) {
            char *v = malloc(VAL_MAX);
            if (!v) return BASE_ERR_NOMEM;
            enum base_status st = BASE_OK;
            if (!jstr(r, v, VAL_MAX)) st = BASE_ERR_PARSE;
            else if (key[0] == 't' && !to_u64(v, &d->base)) st = jfail(r, "time_base_ps is not an integer");
            else if (key[0] == 'm') st = trc_trace_set_meta(d->t, key + 5, v);
            free(v);
            TRY(st);
        } else if (!skip_value(r, 1)) {
            return BASE_ERR_PARSE;
        }
        if (eat(r, ',')) continue;
        if (eat(r, '}')) break;
        return jfail(r, "otherData: expected ',' or '}'");
    }
    if (!lanes) return jfail(r, "not an npusim trace: otherData has no npusim_lanes table");
    return BASE_OK;
}

static enum base_status read_events(struct rd *d)
{
    struct jr *r = &d->r;
    struct ev *e = malloc(sizeof *e);
    if (!e) return BASE_ERR_NOMEM;
    enum base_status st = BASE_OK;
    if (!eat(r, '[')) st = jfail(r, "traceEvents: expected '['");
    else if (!eat(r, ']'))
        for (;;) {
            if (!parse_flat(r, e->top, &e->n_top, e->args, &e->n_args)) {
                st = BASE_ERR_PARSE;
                break;
            }
            const struct kv *ph = find(e->top, e->n_top, "ph");
            if (!ph) st = jfail(r, "an event without ph");
            else if (!strcmp(ph->val, "X")) st = on_slice(d, e);
            else if (!strcmp(ph->val, "C")) st = on_counter(d, e);
            else if (!strcmp(ph->val, "s")) st = on_flow(d, e, true);
            else if (!strcmp(ph->val, "f")) st = on_flow(d, e, false);
            if (st != BASE_OK) break;
            if (eat(r, ',')) continue;
            if (eat(r, ']')) break;
            st = jfail(r, "traceEvents: expected ',' or ']'");
            break;
        }
    free(e);
    return st;
}

/* The whole file, inflated when it is gzip: a regular file (base_file_open)
 * of at most input-bytes, inflating to at most inflated-bytes (a 6 MB
 * .json.gz can hold 6 GB of zeros). */
static enum base_status slurp(const char *path, const struct base_limits *lim, char **buf, size_t *n,
                              struct base_diag *diag)
{
    FILE *f;
    TRY(base_file_open(path, lim, &f, NULL, diag));
    int fd = dup(fileno(f));
    fclose(f);
    gzFile gz = fd >= 0 ? gzdopen(fd, "rb") : NULL; /* reads plain files too */
    if (!gz) {
        int err = errno;
        if (fd >= 0) close(fd);
        return base_diag_set(diag, BASE_ERR_IO, path, 0, 0, "cannot open: %s", strerror(err));
    }
    uint64_t max = base_limit(lim, BASE_LIMIT_INFLATED_BYTES), in_max = base_limit(lim, BASE_LIMIT_INPUT_BYTES);
    size_t cap = 1 << 20, len = 0;
    char *b = malloc(cap);
    enum base_status st = b ? BASE_OK : base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory");
    while (st == BASE_OK) {
        if (len + (1 << 20) > cap) {
            char *q = cap > SIZE_MAX / 2 ? NULL : realloc(b, cap * 2);
            if (!q) {
                st = base_diag_set(diag, BASE_ERR_NOMEM, path, 0, 0, "out of memory reading %zu bytes", len);
                break;
            }
            b = q;
            cap *= 2;
        }
        int got = gzread(gz, b + len, 1 << 20);
        if (got < 0) {
            int zerr;
            st = base_diag_set(diag, BASE_ERR_PARSE, path, 0, 0, "cannot inflate: %s (a truncated .gz?)", gzerror(gz, &zerr));
            break;
        }
        if (got == 0) break;
        len += (size_t)got;
        if (gzdirect(gz) ? (uint64_t)len > in_max : (uint64_t)len > max) {
            st = gzdirect(gz) ? base_limit_fail(diag, path, 0, 0, lim, BASE_LIMIT_INPUT_BYTES, (uint64_t)len, "bytes read")
                              : base_limit_fail(diag, path, 0, 0, lim, BASE_LIMIT_INFLATED_BYTES, (uint64_t)len,
                                                "bytes inflated");
            break;
        }
    }
    gzclose(gz);
    if (st != BASE_OK) {
        free(b);
        return st;
    }
    *buf = b;
    *n = len;
    return BASE_OK;
}

enum base_status trc_read_json(const char *path, struct trc_trace **out, struct base_diag *diag)
{
    return trc_read_json_lim(path, NULL, out, diag);
}

static enum base_status trc_read_json_lim_impl(const char *path, const struct base_limits *lim, struct trc_trace **out,
                                   struct base_diag *diag)
{
    *out = NULL;
    char *buf = NULL;
    size_t len = 0;
    TRY(slurp(path, lim, &buf, &len, diag));
    struct rd d;
    memset(&d, 0, sizeof d);
    d.r.p = d.r.start = buf;
    d.r.end = buf + len;
    d.r.path = path;
    d.r.diag = diag;
    enum base_status st = trc_trace_create(&d.t);
    /* otherData first (the lane table), then the events */
    const char *events = NULL;
    bool other = false;
    if (st == BASE_OK && !eat(&d.r, '{')) st = jfail(&d.r, "expected a JSON object");
    if (st == BASE_OK && !eat(&d.r, '}'))
        for (;;) {
            char key[64];
            if (!jstr(&d.r, key, sizeof key)) {
                st = BASE_ERR_PARSE;
                break;
            }
            if (!eat(&d.r, ':')) {
                st = jfail(&d.r, "expected ':'");
                break;
            }
            ws(&d.r);
            if (!strcmp(key, "traceEvents")) events = d.r.p;
            if (!strcmp(key, "otherData")) {
                other = true;
                st = read_other(&d);
            } else if (!skip_value(&d.r, 0)) {
                st = BASE_ERR_PARSE;
            }
            if (st != BASE_OK) break;
            if (eat(&d.r, ',')) continue;
            if (eat(&d.r, '}')) break;
            st = jfail(&d.r, "expected ',' or '}'");
            break;
        }
    if (st == BASE_OK && (!events || !other)) st = jfail(&d.r, "not an npusim trace: traceEvents or otherData missing");
    if (st == BASE_OK) {
        d.r.p = events;
        st = read_events(&d);
    }
    for (size_t i = 0; st == BASE_OK && i < d.n_pend; i++) {
        if (d.have[i] == 0) continue;
        if (d.have[i] != 3) {
            st = base_diag_set(diag, BASE_ERR_PARSE, path, 0, 0, "flow id %zu has a start without an end or an end without a start", i + 1);
            break;
        }
        st = trc_trace_add_flow(d.t, &d.pend[i]);
    }
    if (st == BASE_OK) st = trc_trace_finalize(d.t);
    if (st == BASE_OK) st = trc_validate_read(d.t, path, diag);
    free(d.pend);
    free(d.have);
    free(buf);
    if (st != BASE_OK) {
        trc_trace_destroy(d.t);
        return st;
    }
    *out = d.t;
    return BASE_OK;
}

enum base_status trc_read_json_lim(const char *path, const struct base_limits *lim, struct trc_trace **out,
                                   struct base_diag *diag)
{
    return base_diag_ensure(diag, trc_read_json_lim_impl(path, lim, out, diag), path, "reading a trace");
}
