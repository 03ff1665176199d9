/* The Perfetto JSON of a small real run, parsed back by a JSON reader of
 * the test's own and checked against the trace-event format's rules:
 * every X has ts, dur, pid and tid; X slices of one thread are disjoint or
 * properly nested; timestamps are microseconds, rebased so the first is 0;
 * every thread has thread_name and thread_sort_index; flows pair up and land
 * inside slices; counters carry a numeric value; the simulation parameters
 * are in otherData.  Also: the recorder's figures against the simulator's
 * own statistics. */
#include "tests/traces/trace_test_util.h"

#include <math.h>

/* --------------------------------------------------- a small JSON DOM */

enum jt { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };
struct jv {
    enum jt t;
    double num;
    char *str;        /* J_STR; also the raw text of a J_NUM */
    struct jv *items; /* J_ARR, J_OBJ (values) */
    char **keys;      /* J_OBJ */
    size_t n;
};

struct jp {
    const char *p, *end;
    bool ok;
};

static void jp_ws(struct jp *j)
{
    while (j->p < j->end && strchr(" \t\r\n", *j->p)) j->p++;
}

static bool jp_parse(struct jp *j, struct jv *v, int depth);

static char *jp_string(struct jp *j)
{
    if (j->p >= j->end || *j->p != '"') return NULL;
    j->p++;
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    while (j->p < j->end && *j->p != '"') {
        char c = *j->p++;
        if (c == '\\') {
            if (j->p >= j->end) break;
            char e = *j->p++;
            if (e == 'u') {
                if (j->end - j->p < 4) break;
                c = (char)strtol((char[5]){j->p[0], j->p[1], j->p[2], j->p[3], 0}, NULL, 16);
                j->p += 4;
            } else {
                c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
            }
        } else if ((unsigned char)c < 0x20) {
            free(s);
            return NULL; /* raw control characters are not JSON */
        }
        if (n + 2 > cap) s = realloc(s, cap *= 2);
        s[n++] = c;
    }
    if (j->p >= j->end) {
        free(s);
        return NULL;
    }
    j->p++;
    s[n] = 0;
    return s;
}

static bool jp_parse(struct jp *j, struct jv *v, int depth)
{
    memset(v, 0, sizeof *v);
    jp_ws(j);
    if (j->p >= j->end || depth > 32) return false;
    char c = *j->p;
    if (c == '{' || c == '[') {
        bool obj = c == '{';
        v->t = obj ? J_OBJ : J_ARR;
        j->p++;
        size_t cap = 0;
        jp_ws(j);
        if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
            j->p++;
            return true;
        }
        for (;;) {
            if (v->n == cap) {
                cap = cap ? cap * 2 : 8;
                v->items = realloc(v->items, cap * sizeof *v->items);
                if (obj) v->keys = realloc(v->keys, cap * sizeof *v->keys);
            }
            jp_ws(j);
            if (obj) {
                v->keys[v->n] = jp_string(j);
                if (!v->keys[v->n]) return false;
                jp_ws(j);
                if (j->p >= j->end || *j->p++ != ':') return false;
            }
            if (!jp_parse(j, &v->items[v->n], depth + 1)) {
                v->n++;
                return false;
            }
            v->n++;
            jp_ws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
                j->p++;
                return true;
            }
            return false;
        }
    }
    if (c == '"') {
        v->t = J_STR;
        v->str = jp_string(j);
        return v->str != NULL;
    }
    if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "false", 5) || !strncmp(j->p, "null", 4)) {
        v->t = c == 'n' ? J_NULL : J_BOOL;
        v->num = c == 't';
        j->p += c == 'f' ? 5 : 4;
        return true;
    }
    const char *s = j->p;
    char *e;
    v->t = J_NUM;
    v->num = strtod(s, &e);
    if (e == s) return false;
    v->str = strndup(s, (size_t)(e - s));
    j->p = e;
    return true;
}

static void jv_free(struct jv *v)
{
    for (size_t i = 0; i < v->n; i++) {
        jv_free(&v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

static const struct jv *jget(const struct jv *o, const char *key)
{
    if (!o || o->t != J_OBJ) return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->keys[i], key)) return &o->items[i];
    return NULL;
}

static double jnum(const struct jv *o, const char *key)
{
    const struct jv *v = jget(o, key);
    if (!v || v->t != J_NUM) fail_msg("missing number %s", key);
    return v->num;
}

/* "123.456789" (microseconds) -> integer picoseconds, by text */
static int64_t us_text_to_ps(const struct jv *v)
{
    assert_non_null(v);
    assert_int_equal(v->t, J_NUM);
    const char *dot = strchr(v->str, '.');
    int64_t ip = strtoll(v->str, NULL, 10), fp = 0;
    int digits = 0;
    if (dot)
        for (const char *q = dot + 1; *q >= '0' && *q <= '9'; q++, digits++) fp = fp * 10 + (*q - '0');
    assert_true(digits <= 6);
    for (; digits < 6; digits++) fp *= 10;
    return ip * 1000000 + fp;
}

/* ------------------------------------------------------------ fixture */

struct fx {
    struct small_run run;
    struct tmpdir dir;
    struct jv doc;
    char *text;
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    small_run_do(&f->run);
    tmpdir_make(&f->dir);
    char p[256];
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_json(f->run.t, tmpdir_path(&f->dir, "t.json", p, sizeof p), false, &d), BASE_OK);
    size_t n;
    f->text = (char *)read_all(p, &n);
    struct jp j = {f->text, f->text + n, true};
    if (!jp_parse(&j, &f->doc, 0)) fail_msg("the trace is not valid JSON near byte %zu", (size_t)(j.p - f->text));
    jp_ws(&j);
    assert_true(j.p == j.end);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    const char *names[] = {"t.json", "t.json.gz", "a.npt", "b.npt"};
    tmpdir_remove(&f->dir, names, ARRAY_LEN(names));
    jv_free(&f->doc);
    free(f->text);
    trc_trace_destroy(f->run.t);
    free(f);
    return 0;
}

static const struct jv *events(struct fx *f)
{
    const struct jv *ev = jget(&f->doc, "traceEvents");
    assert_non_null(ev);
    assert_int_equal(ev->t, J_ARR);
    assert_true(ev->n > 100);
    return ev;
}

static const char *ph_of(const struct jv *e)
{
    const struct jv *ph = jget(e, "ph");
    assert_non_null(ph);
    assert_int_equal(ph->t, J_STR);
    return ph->str;
}

/* --------------------------------------------------------------- tests */

static void test_json_every_x_event_has_ts_dur_pid_tid_and_name(void **state)
{
    const struct jv *ev = events(*state);
    size_t nx = 0;
    for (size_t i = 0; i < ev->n; i++) {
        const struct jv *e = &ev->items[i];
        if (strcmp(ph_of(e), "X")) continue;
        nx++;
        assert_true(jnum(e, "ts") >= 0);
        assert_true(jnum(e, "dur") >= 0);
        assert_true(jnum(e, "pid") >= 1);
        assert_true(jnum(e, "tid") >= 1);
        const struct jv *name = jget(e, "name");
        assert_non_null(name);
        assert_int_equal(name->t, J_STR);
        const struct jv *args = jget(e, "args");
        assert_non_null(args);
        assert_int_equal(args->t, J_OBJ);
        assert_non_null(jget(args, "bytes"));
    }
    assert_true(nx > 50);
}

struct xs {
    int64_t ts, end;
};
static int xs_cmp(const void *a, const void *b)
{
    const struct xs *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->end > y->end ? -1 : x->end < y->end; /* the enclosing one first */
}

static void test_json_slices_of_a_thread_are_disjoint_or_properly_nested(void **state)
{
    const struct jv *ev = events(*state);
    /* group by tid (one process) */
    int max_tid = 0;
    for (size_t i = 0; i < ev->n; i++)
        if (!strcmp(ph_of(&ev->items[i]), "X") && jnum(&ev->items[i], "tid") > max_tid) max_tid = (int)jnum(&ev->items[i], "tid");
    size_t checked = 0;
    for (int tid = 1; tid <= max_tid; tid++) {
        struct xs *v = NULL;
        size_t n = 0;
        for (size_t i = 0; i < ev->n; i++) {
            const struct jv *e = &ev->items[i];
            if (strcmp(ph_of(e), "X") || (int)jnum(e, "tid") != tid) continue;
            v = realloc(v, (n + 1) * sizeof *v);
            v[n].ts = us_text_to_ps(jget(e, "ts"));
            v[n].end = v[n].ts + us_text_to_ps(jget(e, "dur"));
            n++;
        }
        if (n) qsort(v, n, sizeof *v, xs_cmp);
        int64_t stack[64];
        int depth = 0;
        for (size_t k = 0; k < n; k++) {
            while (depth > 0 && stack[depth - 1] <= v[k].ts && !(stack[depth - 1] == v[k].ts && v[k].end == v[k].ts))
                depth--;
            if (depth > 0 && v[k].end > stack[depth - 1])
                fail_msg("tid %d: slice [%lld, %lld) ps crosses the end of its enclosing slice (%lld)", tid,
                         (long long)v[k].ts, (long long)v[k].end, (long long)stack[depth - 1]);
            assert_true(depth < 64);
            stack[depth++] = v[k].end;
            checked++;
        }
        free(v);
    }
    assert_true(checked > 50);
}

static void test_json_timestamps_are_microseconds_rebased_to_zero(void **state)
{
    struct fx *f = *state;
    const struct jv *ev = events(f);
    int64_t min_ts = INT64_MAX, kernel_ps = 0;
    for (size_t i = 0; i < ev->n; i++) {
        const struct jv *e = &ev->items[i];
        const char *ph = ph_of(e);
        if (!strcmp(ph, "M")) continue;
        int64_t ts = us_text_to_ps(jget(e, "ts"));
        if (ts < min_ts) min_ts = ts;
        const struct jv *cat = jget(e, "cat");
        if (!strcmp(ph, "X") && cat && !strcmp(cat->str, "kernel")) kernel_ps += us_text_to_ps(jget(e, "dur"));
    }
    assert_int_equal(min_ts, 0);
    /* units: the kernel slices, read as microseconds, add up to the
     * runtime's device time in picoseconds */
    assert_true(f->run.device_ps > 1000000); /* > 1 us: a unit slip would show */
    assert_int_equal(kernel_ps, (int64_t)f->run.device_ps);
    assert_string_equal(jget(&f->doc, "displayTimeUnit")->str, "ns");
}

static void test_json_every_thread_has_name_and_sort_index_metadata(void **state)
{
    const struct jv *ev = events(*state);
    for (size_t i = 0; i < ev->n; i++) {
        const struct jv *e = &ev->items[i];
        const char *ph = ph_of(e);
        if (strcmp(ph, "X") && strcmp(ph, "s") && strcmp(ph, "f")) continue;
        double pid = jnum(e, "pid"), tid = jnum(e, "tid");
        bool name = false, sort = false, proc = false;
        for (size_t k = 0; k < ev->n; k++) {
            const struct jv *m = &ev->items[k];
            if (strcmp(ph_of(m), "M") || jnum(m, "pid") != pid) continue;
            const char *mn = jget(m, "name")->str;
            if (!strcmp(mn, "process_name")) proc = true;
            if (jnum(m, "tid") != tid) continue;
            if (!strcmp(mn, "thread_name")) name = jget(jget(m, "args"), "name")->t == J_STR;
            if (!strcmp(mn, "thread_sort_index")) sort = jget(jget(m, "args"), "sort_index")->t == J_NUM;
        }
        if (!name || !sort || !proc) fail_msg("pid %g tid %g: metadata missing", pid, tid);
        i += 50; /* sample the events: the metadata scan is quadratic */
    }
}

/* An X on (pid, tid) containing ts? */
static void test_json_flows_pair_up_from_a_dma_to_a_wait(void **state)
{
    const struct jv *ev = events(*state);
    size_t n_s = 0;
    for (size_t i = 0; i < ev->n; i++) {
        const struct jv *s = &ev->items[i];
        if (strcmp(ph_of(s), "s")) continue;
        n_s++;
        double id = jnum(s, "id");
        const struct jv *f = NULL;
        int matches = 0;
        for (size_t k = 0; k < ev->n; k++)
            if (!strcmp(ph_of(&ev->items[k]), "f") && jnum(&ev->items[k], "id") == id) {
                f = &ev->items[k];
                matches++;
            }
        assert_int_equal(matches, 1);
        assert_string_equal(jget(f, "bp")->str, "e");
        int64_t ts = us_text_to_ps(jget(s, "ts")), tf = us_text_to_ps(jget(f, "ts"));
        assert_true(ts < tf); /* Perfetto needs the end after the start, Chrome's engine two timestamps */
        /* each binds to the X event of its ts, pid, tid and cat (Chrome's
         * trace engine), the first of them in the file: the DMA, and the
         * wait or the instruction the wait released */
        const struct jv *xs = NULL, *xf = NULL;
        for (size_t k = 0; k < ev->n; k++) {
            const struct jv *e = &ev->items[k];
            if (strcmp(ph_of(e), "X")) continue;
            int64_t a = us_text_to_ps(jget(e, "ts"));
            bool cat_s = !strcmp(jget(e, "cat")->str, jget(s, "cat")->str);
            bool cat_f = !strcmp(jget(e, "cat")->str, jget(f, "cat")->str);
            if (!xs && a == ts && cat_s && jnum(e, "pid") == jnum(s, "pid") && jnum(e, "tid") == jnum(s, "tid")) xs = e;
            if (!xf && a == tf && cat_f && jnum(e, "pid") == jnum(f, "pid") && jnum(e, "tid") == jnum(f, "tid")) xf = e;
        }
        assert_non_null(xs);
        assert_non_null(xf);
        assert_string_equal(jget(jget(xs, "args"), "kind")->str, "dma");
        const char *k = jget(jget(xf, "args"), "kind")->str;
        assert_true(!strcmp(k, "wait") || !strcmp(k, "instr"));
    }
    assert_true(n_s >= 1);
    for (size_t i = 0; i < ev->n; i++) /* no end without a start */
        if (!strcmp(ph_of(&ev->items[i]), "f")) {
            int starts = 0;
            for (size_t k = 0; k < ev->n; k++)
                starts += !strcmp(ph_of(&ev->items[k]), "s") && jnum(&ev->items[k], "id") == jnum(&ev->items[i], "id");
            assert_int_equal(starts, 1);
        }
}

static void test_json_counters_and_parameters_are_present(void **state)
{
    struct fx *f = *state;
    const struct jv *ev = events(f);
    size_t n_c = 0;
    bool hbm = false;
    for (size_t i = 0; i < ev->n; i++) {
        const struct jv *e = &ev->items[i];
        if (strcmp(ph_of(e), "C")) continue;
        n_c++;
        assert_true(isfinite(jnum(jget(e, "args"), "value")));
        if (!strcmp(jget(e, "name")->str, "hbm GB/s")) hbm = true;
    }
    assert_true(n_c > 10);
    assert_true(hbm);
    const struct jv *o = jget(&f->doc, "otherData");
    assert_non_null(o);
    assert_string_equal(jget(o, "meta.chip")->str, "trn2");
    assert_string_equal(jget(o, "meta.mode")->str, "eager");
    assert_string_equal(jget(o, "meta.seed")->str, "1");
}

/* The recorder's lanes against the simulator's statistics: busy time is
 * the union of an engine's instruction intervals, wait time its blocked
 * time, instructions its count. */
static void test_recorder_lanes_agree_with_the_simulator_statistics(void **state)
{
    struct fx *f = *state;
    const struct trc_trace *t = f->run.t;
    uint64_t total_instr = 0;
    for (uint32_t e = 0; e < f->run.n_engines; e++) {
        const struct sim_engine_stats *es = &f->run.eng[e];
        const struct trc_lane_data *l = &t->lanes[2 + e]; /* lanes 0, 1: kernels, host; then core-major engines */
        char want[64];
        snprintf(want, sizeof want, "core%u %s", es->core, es->name);
        assert_string_equal(l->lane.name, want);
        uint64_t busy = 0, wait = 0, n = 0, bytes = 0, flops = 0;
        for (size_t k = 0; k < l->n_slices; k++) {
            const struct trc_slice *s = &l->slices[k];
            if (s->kind == TRC_SLICE_WAIT) {
                wait += s->dur_ps;
                continue;
            }
            busy += s->dur_ps;
            bytes += s->bytes;
            flops += s->flops;
            n++;
        }
        assert_int_equal(busy, es->busy_ps);
        assert_int_equal(wait, es->wait_ps);
        assert_int_equal(n, es->instructions);
        assert_int_equal(bytes, es->bytes);
        assert_int_equal(flops, es->flops);
        total_instr += n;
    }
    assert_true(total_instr > 20);
    assert_int_equal(t->lanes[0].n_slices, f->run.launches);
    /* the host lane: the runtime's dispatch gaps, which with the kernels tile the run */
    assert_string_equal(t->lanes[1].lane.name, "host");
    uint64_t gaps = 0, kernels = 0;
    for (size_t k = 0; k < t->lanes[1].n_slices; k++) gaps += t->lanes[1].slices[k].dur_ps;
    for (size_t k = 0; k < t->lanes[0].n_slices; k++) kernels += t->lanes[0].slices[k].dur_ps;
    assert_true(f->run.dispatch_ps > 0);
    assert_int_equal(gaps, f->run.dispatch_ps);
    assert_int_equal(gaps + kernels, f->run.total_ps);
}

/* The HBM counter, integrated over time, gives back the bytes the
 * simulator moved through HBM. */
static void test_recorder_hbm_counter_integrates_to_the_hbm_bytes(void **state)
{
    struct fx *f = *state;
    const struct trc_trace *t = f->run.t;
    const struct trc_lane_data *l = NULL;
    for (uint32_t i = 0; i < t->n_lanes; i++)
        if (!strcmp(t->lanes[i].lane.name, "hbm GB/s")) l = &t->lanes[i];
    assert_non_null(l);
    double bytes = 0;
    for (size_t k = 0; k + 1 < l->n_samples; k++)
        bytes += l->samples[k].value * (double)(l->samples[k + 1].t_ps - l->samples[k].t_ps) / 1000.0; /* GB/s * ps */
    if (fabs(bytes - (double)f->run.hbm_bytes) > 1e-6 * (double)f->run.hbm_bytes) print_message("counter %.1f bytes, simulator %llu\n", bytes, (unsigned long long)f->run.hbm_bytes);
    assert_true(f->run.hbm_bytes > 100000);
    assert_true(fabs(bytes - (double)f->run.hbm_bytes) <= 1e-6 * (double)f->run.hbm_bytes);
}

/* A utilisation counter, integrated over time, gives back the busy time of
 * the engines it averages (here the DMA queues of each core: mean over 16). */
static void test_recorder_utilisation_counter_integrates_to_the_busy_time(void **state)
{
    struct fx *f = *state;
    const struct trc_trace *t = f->run.t;
    int checked = 0;
    for (uint32_t core = 0; core < 8; core++) {
        char name[64];
        snprintf(name, sizeof name, "core%u dma util %%", core);
        const struct trc_lane_data *c = NULL;
        for (uint32_t i = 0; i < t->n_lanes; i++)
            if (!strcmp(t->lanes[i].lane.name, name)) c = &t->lanes[i];
        assert_non_null(c);
        double busy_from_counter = 0;
        for (size_t k = 0; k + 1 < c->n_samples; k++)
            busy_from_counter += c->samples[k].value / 100.0 * (double)(c->samples[k + 1].t_ps - c->samples[k].t_ps);
        uint64_t busy = 0;
        uint32_t queues = 0;
        for (uint32_t e = 0; e < f->run.n_engines; e++)
            if (f->run.eng[e].core == core && f->run.eng[e].kind == ISA_ENGINE_DMA) {
                busy += f->run.eng[e].busy_ps;
                queues++;
            }
        assert_int_equal(queues, 16);
        double want = (double)busy / queues;
        if (busy) checked++;
        assert_true(fabs(busy_from_counter - want) <= 1e-6 * want + 1.0);
    }
    assert_true(checked >= 1);
}

static void test_recorder_same_run_gives_identical_files(void **state)
{
    struct fx *f = *state;
    struct small_run again;
    small_run_do(&again);
    char a[256], b[256];
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_npt(f->run.t, tmpdir_path(&f->dir, "a.npt", a, sizeof a), &d), BASE_OK);
    assert_int_equal(trc_write_npt(again.t, tmpdir_path(&f->dir, "b.npt", b, sizeof b), &d), BASE_OK);
    size_t na, nb;
    uint8_t *x = read_all(a, &na), *y = read_all(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(x, y, na);
    free(x);
    free(y);
    trc_trace_destroy(again.t);
}

static void test_json_gz_reads_back_to_the_same_trace(void **state)
{
    struct fx *f = *state;
    char p[256], a[256], b[256];
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_write_json(f->run.t, tmpdir_path(&f->dir, "t.json.gz", p, sizeof p), true, &d), BASE_OK);
    size_t n;
    uint8_t *z = read_all(p, &n);
    assert_true(n > 2 && z[0] == 0x1f && z[1] == 0x8b); /* gzip magic */
    free(z);
    struct trc_trace *back = NULL;
    if (trc_read(p, &back, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail();
    }
    assert_int_equal(trc_write_npt(f->run.t, tmpdir_path(&f->dir, "a.npt", a, sizeof a), &d), BASE_OK);
    assert_int_equal(trc_write_npt(back, tmpdir_path(&f->dir, "b.npt", b, sizeof b), &d), BASE_OK);
    size_t na, nb;
    uint8_t *x = read_all(a, &na), *y = read_all(b, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(x, y, na);
    free(x);
    free(y);
    trc_trace_destroy(back);
}

/* The scratchpad and accumulator occupancy counters: during each kernel
 * launch, the highest byte per partition that the kernel's program on that
 * core touches (read statically from the emitted program here), as a share
 * of the memory. */
static void test_recorder_occupancy_counters_follow_the_kernels_programs(void **state)
{
    struct fx *f = *state;
    const struct trc_trace *t = f->run.t;
    struct base_diag d;
    base_diag_clear(&d);
    struct chip_desc chip;
    assert_int_equal(chip_load("trn2", &chip, &d), BASE_OK);
    struct graph_module *m = NULL;
    struct graph_parse_options po;
    memset(&po, 0, sizeof po);
    assert_int_equal(graph_parse(k_small_model, strlen(k_small_model), &po, &m, &d), BASE_OK);
    struct cc_options co;
    cc_options_default(&co);
    co.mode = CC_MODE_EAGER;
    struct cc_plan *p = NULL;
    assert_int_equal(cc_compile(m, &chip, &co, &p, &d), BASE_OK);
    assert_int_equal(cc_plan_n_kernels(p), 2);
    /* the static footprint of each kernel on core 0 */
    double want[2][2] = {{0, 0}, {0, 0}};
    for (uint32_t k = 0; k < 2; k++) {
        struct isa_program prog;
        isa_program_init(&prog);
        struct cc_emit_ctx ctx = {0, chip.cores, NULL};
        assert_int_equal(cc_kernel_emit(p, k, &ctx, &prog, &d), BASE_OK);
        int64_t hi_sp = 0, hi_acc = 0;
        for (int si = 0; si < prog.n_streams; si++)
            for (uint32_t i = 0; i < prog.streams[si].n; i++) {
                const struct isa_instr *in = &prog.streams[si].instrs[i];
                const struct isa_ap *aps[4] = {&in->dst, &in->src0, &in->src1, &in->src2};
                for (int a = 0; a < 4; a++) {
                    if (aps[a]->space != ISA_SPACE_SP && aps[a]->space != ISA_SPACE_ACC) continue;
                    if (!aps[a]->part_count) continue;
                    int64_t lo, hi;
                    isa_ap_extent(aps[a], &lo, &hi);
                    int64_t *h = aps[a]->space == ISA_SPACE_SP ? &hi_sp : &hi_acc;
                    if (hi > *h) *h = hi;
                }
            }
        want[k][0] = 100.0 * (double)hi_sp / (double)chip.scratchpad.bytes_per_partition;
        want[k][1] = 100.0 * (double)hi_acc / (double)chip.accumulator.bytes_per_partition;
        isa_program_deinit(&prog);
    }
    assert_true(want[0][0] > 0 && want[0][1] > 0); /* the matmul uses both */
    assert_true(want[1][0] > 0);                   /* the exponential the scratchpad */
    const char *names[2] = {"core0 sp use %", "core0 acc use %"};
    for (int mi = 0; mi < 2; mi++) {
        const struct trc_lane_data *l = NULL;
        for (uint32_t i = 0; i < t->n_lanes; i++)
            if (!strcmp(t->lanes[i].lane.name, names[mi])) l = &t->lanes[i];
        assert_non_null(l);
        /* the launches in order: the value held during launch k */
        int launch = 0;
        for (size_t k = 0; k < l->n_samples && launch < 2; k++) {
            if (l->samples[k].value == 0) continue;
            while (launch < 2 && want[launch][mi] == 0) launch++;
            if (launch >= 2) break;
            if (fabs(l->samples[k].value - want[launch][mi]) > 1e-9)
                fail_msg("%s, launch %d: %g, the program's footprint %g", names[mi], launch, l->samples[k].value,
                         want[launch][mi]);
            launch++;
        }
        assert_true(launch >= 1);
    }
    cc_plan_destroy(p);
    graph_module_destroy(m);
}

TEST_MAIN(setup, teardown, T(test_json_every_x_event_has_ts_dur_pid_tid_and_name),
          T(test_json_slices_of_a_thread_are_disjoint_or_properly_nested),
          T(test_json_timestamps_are_microseconds_rebased_to_zero),
          T(test_json_every_thread_has_name_and_sort_index_metadata), T(test_json_flows_pair_up_from_a_dma_to_a_wait),
          T(test_json_counters_and_parameters_are_present), T(test_recorder_lanes_agree_with_the_simulator_statistics),
          T(test_recorder_occupancy_counters_follow_the_kernels_programs),
          T(test_recorder_hbm_counter_integrates_to_the_hbm_bytes),
          T(test_recorder_utilisation_counter_integrates_to_the_busy_time), T(test_recorder_same_run_gives_identical_files),
          T(test_json_gz_reads_back_to_the_same_trace))
