/* Collectives and chip-to-chip links in traces: the recorder fed two
 * hand-built collectives on a 2x2 torus (link bytes known) makes the
 * `collectives` lane and one lane per link chip 0 sends on, with the
 * names, bytes, rates and exposed times worked out by hand below; .npt and
 * JSON keep them; `trace stats` lists them; an older .npt is refused,
 * located. */
#include "tests/traces/trace_test_util.h"

#include "interconnect/interconnect.h"
#include "tests/runtime/spmd_programs.h" /* k_overlap: an all_reduce and an independent matmul */

#include <math.h>
#include <zlib.h>

/* 2x2 torus without wrap links, 50 GB/s per link and direction.  Link ids
 * (interconnect.h): chip c, axis d, direction + (0) / - (1): c*4 + 2d + dir.
 * Chip 0 sends on link 0 (x+ to chip 1) and link 2 (y+ to chip 2); links 1
 * and 3 (its x- and y-) do not exist without wrap. */
#define LINK_GBPS 50.0

/* Two collectives:
 *   all_reduce [1000, 5000) ps, 1 MB, ring, group 4: link 0 carries 100 B
 *     (100 / 4000 ps = 25 GB/s = 50% of 50), link 2 40 B (10 GB/s, 20%),
 *     link 4 (chip 1's x+) 777 B: not chip 0's, no lane; link 1: absent.
 *     A launch at 3000 after a 1000 ps dispatch: the chip is busy until
 *     3000, so 5000 - 3000 = 2000 ps exposed.
 *   all_gather [10000, 12000) ps, 2 KB: link 0 90 B (45 GB/s, 90%).
 *     A dispatch [10500, 11000) and the kernel at 11000; the next dispatch
 *     starts at 12000, the collective's end: 1000 ps exposed. */
struct fx {
    struct chip_desc chip;
    struct icn_topo topo;
    struct graph_op ops[2];
    struct trc_trace *t;
    struct tmpdir dir;
};

static const char *const k_files[] = {"l.npt", "l.json", "l2.npt", "old.npt", "s1.txt", "s2.txt"};

static void feed(struct fx *f, struct rec_recorder *r)
{
    double lb[2][16];
    memset(lb, 0, sizeof lb);
    lb[0][0] = 100;
    lb[0][2] = 40;
    lb[0][4] = 777;
    lb[0][1] = 500;
    lb[1][0] = 90;
    struct rt_collective c;
    memset(&c, 0, sizeof c);
    c.op = &f->ops[0];
    c.algorithm = "ring";
    c.group_size = 4;
    c.n_groups = 1;
    c.bytes = 1e6;
    c.start_ps = 1000;
    c.time_ps = 4000;
    c.exposed_ps = c.time_ps; /* the runtime knows it only at the end */
    c.busbw_gbps = 123.5;
    rec_recorder_on_collective(r, &c, &f->topo, lb[0]);
    rec_recorder_launch(r, 0, "k0", UINT32_MAX, 3000, 1000);
    c.op = &f->ops[1];
    c.algorithm = "bidir_ring";
    c.bytes = 2048;
    c.start_ps = 10000;
    c.time_ps = 2000;
    c.exposed_ps = c.time_ps;
    c.busbw_gbps = 0.75;
    rec_recorder_on_collective(r, &c, &f->topo, lb[1]);
    rec_recorder_launch(r, 1, "k1", UINT32_MAX, 11000, 500);
    rec_recorder_launch(r, 2, "k2", UINT32_MAX, 13000, 1000);
}

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(chip_load("trn2", &f->chip, &d), BASE_OK);
    uint32_t dims[2] = {2, 2};
    bool wrap[2] = {false, false};
    assert_int_equal(icn_topo_torus(&f->topo, 2, dims, wrap, LINK_GBPS, 1000), BASE_OK);
    assert_true(f->topo.n_links <= 16);
    f->ops[0].name = "stablehlo.all_reduce";
    f->ops[0].loc = (struct graph_loc){"m.mlir", 7, 3, NULL, NULL};
    f->ops[0].id = 1000; /* not named by a plan: the recorder takes the op's own name */
    f->ops[1].name = "stablehlo.all_gather";
    f->ops[1].loc = (struct graph_loc){"m.mlir", 9, 5, NULL, NULL};
    f->ops[1].id = 1001;
    struct rec_recorder *r = NULL;
    assert_int_equal(rec_recorder_create(&f->chip, 0, &r), BASE_OK);
    feed(f, r);
    assert_int_equal(rec_recorder_finish(r, &f->t), BASE_OK);
    rec_recorder_destroy(r);
    tmpdir_make(&f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    tmpdir_remove(&f->dir, k_files, ARRAY_LEN(k_files));
    trc_trace_destroy(f->t);
    free(f);
    return 0;
}

static uint32_t lane_named(const struct trc_trace *t, const char *name)
{
    for (uint32_t i = 0; i < t->n_lanes; i++)
        if (!strcmp(t->lanes[i].lane.name, name)) return i;
    fail_msg("no lane '%s'", name);
    return UINT32_MAX;
}

static double f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* ------------------------------------------------------------ recorder */

static void test_links_collective_lane_has_one_slice_per_collective(void **state)
{
    struct fx *f = *state;
    const struct trc_trace *t = f->t;
    const struct trc_lane_data *l = &t->lanes[lane_named(t, "collectives")];
    assert_int_equal(l->lane.kind, TRC_LANE_COLLECTIVE);
    assert_int_equal(l->lane.core, -1);
    assert_int_equal(l->n_slices, 2);
    const struct trc_slice *a = &l->slices[0], *b = &l->slices[1];
    assert_int_equal(a->kind, TRC_SLICE_COLLECTIVE);
    assert_string_equal(trc_trace_string(t, a->name), "all_reduce");
    assert_string_equal(trc_trace_string(t, a->op), "stablehlo.all_reduce");
    assert_string_equal(trc_trace_string(t, a->loc), "m.mlir:7:3");
    assert_string_equal(trc_trace_string(t, a->kernel), "ring");
    assert_int_equal(a->start_ps, 1000);
    assert_int_equal(a->dur_ps, 4000);
    assert_int_equal(a->bytes, 1000000);
    assert_int_equal(a->a & 0xffffffffu, 4);
    assert_int_equal(a->a >> 32, 1);
    assert_true(f64(a->c) == 123.5);
    assert_string_equal(trc_trace_string(t, b->name), "all_gather");
    assert_string_equal(trc_trace_string(t, b->kernel), "bidir_ring");
    assert_int_equal(b->bytes, 2048);
    assert_true(f64(b->c) == 0.75);
}

static void test_links_exposed_time_is_the_idle_tail_of_each_collective(void **state)
{
    struct fx *f = *state;
    const struct trc_lane_data *l = &f->t->lanes[lane_named(f->t, "collectives")];
    assert_int_equal(l->slices[0].b, 2000); /* busy to 3000 of [1000, 5000) */
    assert_int_equal(l->slices[1].b, 1000); /* busy to 11000 of [10000, 12000) */
}

static void test_links_one_lane_per_link_chip0_sends_on_with_its_bytes(void **state)
{
    struct fx *f = *state;
    const struct trc_trace *t = f->t;
    uint32_t n_link_lanes = 0;
    for (uint32_t i = 0; i < t->n_lanes; i++) n_link_lanes += t->lanes[i].lane.kind == TRC_LANE_LINK;
    assert_int_equal(n_link_lanes, 2); /* not chip 1's link 4, not the absent link 1 */
    const struct trc_lane_data *x = &t->lanes[lane_named(t, "ici x+ 0->1")];
    const struct trc_lane_data *y = &t->lanes[lane_named(t, "ici y+ 0->2")];
    assert_int_equal(x->lane.kind, TRC_LANE_LINK);
    assert_int_equal(x->n_slices, 2);
    assert_int_equal(y->n_slices, 1);
    const struct trc_slice *s = &x->slices[0];
    assert_int_equal(s->kind, TRC_SLICE_LINK);
    assert_string_equal(trc_trace_string(t, s->name), "all_reduce");
    assert_string_equal(trc_trace_string(t, s->loc), "m.mlir:7:3");
    assert_int_equal(s->start_ps, 1000);
    assert_int_equal(s->dur_ps, 4000);
    assert_int_equal(s->bytes, 100);
    assert_int_equal(s->a, 0);    /* link id */
    assert_int_equal(s->c, 0);    /* first collective */
    assert_true(f64(s->b) == LINK_GBPS);
    assert_true(fabs(trc_link_gbps(s) - 25.0) < 1e-12);
    assert_true(fabs(trc_link_util(s) - 0.5) < 1e-12);
    s = &x->slices[1];
    assert_int_equal(s->bytes, 90);
    assert_int_equal(s->c, 1);
    assert_true(fabs(trc_link_util(s) - 0.9) < 1e-12);
    s = &y->slices[0];
    assert_int_equal(s->a, 2);
    assert_int_equal(s->bytes, 40);
    assert_true(fabs(trc_link_util(s) - 0.2) < 1e-12);
    assert_string_equal(trc_trace_meta(t, "gbps.ici x+ 0->1"), "50");
    assert_non_null(trc_trace_meta(t, "topology"));
    struct base_diag d;
    base_diag_clear(&d);
    assert_int_equal(trc_trace_validate(t, &d), BASE_OK);
}

static void test_links_lanes_sort_after_the_engines_before_the_counters(void **state)
{
    struct fx *f = *state;
    const struct trc_trace *t = f->t;
    uint32_t engines = f->chip.cores * f->chip.n_engines;
    uint32_t c = lane_named(t, "collectives"), x = lane_named(t, "ici x+ 0->1"), y = lane_named(t, "ici y+ 0->2");
    assert_int_equal(t->lanes[c].lane.sort_index, 2 + engines);
    assert_int_equal(t->lanes[x].lane.sort_index, 3 + engines);
    assert_int_equal(t->lanes[y].lane.sort_index, 4 + engines);
    for (uint32_t i = 0; i < t->n_lanes; i++)
        if (t->lanes[i].lane.kind == TRC_LANE_COUNTER) assert_true(t->lanes[i].lane.sort_index > 4 + engines);
}

static void test_links_a_run_without_collectives_has_no_such_lanes(void **state)
{
    (void)state;
    struct small_run run;
    small_run_do(&run);
    for (uint32_t i = 0; i < run.t->n_lanes; i++) {
        assert_int_not_equal(run.t->lanes[i].lane.kind, TRC_LANE_COLLECTIVE);
        assert_int_not_equal(run.t->lanes[i].lane.kind, TRC_LANE_LINK);
    }
    trc_trace_destroy(run.t);
}

/* ------------------------------------------------------------ formats */

static void test_links_npt_and_json_round_trips_keep_them(void **state)
{
    struct fx *f = *state;
    struct base_diag d;
    base_diag_clear(&d);
    char p[256], j[256], p2[256];
    tmpdir_path(&f->dir, "l.npt", p, sizeof p);
    tmpdir_path(&f->dir, "l.json", j, sizeof j);
    tmpdir_path(&f->dir, "l2.npt", p2, sizeof p2);
    assert_int_equal(trc_write_npt(f->t, p, &d), BASE_OK);
    struct trc_file *tf = NULL;
    assert_int_equal(trc_open(p, &tf, &d), BASE_OK);
    uint32_t x = lane_named(f->t, "ici x+ 0->1");
    assert_int_equal(trc_file_lane(tf, x)->kind, TRC_LANE_LINK);
    assert_string_equal(trc_file_lane(tf, x)->name, "ici x+ 0->1");
    struct trc_slice_vec sv = {NULL, 0, 0};
    assert_int_equal(trc_file_slices(tf, x, 0, UINT64_MAX, &sv, &d), BASE_OK);
    assert_int_equal(sv.n, 2);
    assert_int_equal(sv.v[0].bytes, 100);
    assert_int_equal(sv.v[1].bytes, 90);
    assert_true(f64(sv.v[1].b) == LINK_GBPS);
    assert_string_equal(trc_file_string(tf, sv.v[0].kernel), "ring");
    trc_slice_vec_free(&sv);
    const struct trc_lane_stats *ls = trc_file_lane_stats(tf, lane_named(f->t, "collectives"));
    assert_int_equal(ls->busy_ps, 6000);
    assert_int_equal(ls->wait_ps, 3000); /* exposed: 2000 + 1000 */
    trc_close(tf);
    /* npt -> json -> npt: byte-identical */
    struct trc_trace *t1 = NULL;
    assert_int_equal(trc_read(p, &t1, &d), BASE_OK);
    assert_int_equal(trc_write_json(t1, j, false, &d), BASE_OK);
    trc_trace_destroy(t1);
    t1 = NULL;
    if (trc_read(j, &t1, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        fail();
    }
    assert_int_equal(trc_write_npt(t1, p2, &d), BASE_OK);
    trc_trace_destroy(t1);
    size_t na, nb;
    uint8_t *a = read_all(p, &na), *b = read_all(p2, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    free(a);
    free(b);
}

static void test_links_json_puts_links_in_their_own_process(void **state)
{
    struct fx *f = *state;
    struct base_diag d;
    base_diag_clear(&d);
    char j[256];
    tmpdir_path(&f->dir, "l.json", j, sizeof j);
    assert_int_equal(trc_write_json(f->t, j, false, &d), BASE_OK);
    size_t n;
    char *s = (char *)read_all(j, &n);
    s[n] = 0;
    /* one chip: pid 1 is the chip, pid 2 its links */
    assert_non_null(strstr(s, "\"pid\":2,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"chip0 links\"}"));
    char want[160];
    uint32_t x = lane_named(f->t, "ici x+ 0->1"), c = lane_named(f->t, "collectives");
    snprintf(want, sizeof want, "\"pid\":2,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"ici x+ 0->1\"}", x + 1);
    assert_non_null(strstr(s, want));
    snprintf(want, sizeof want, "\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"collectives\"}", c + 1);
    assert_non_null(strstr(s, want));
    /* the first link slice (the counters' first samples are at 0: no rebasing) */
    snprintf(want, sizeof want, "{\"ph\":\"X\",\"pid\":2,\"tid\":%u,\"ts\":0.001000,\"dur\":0.004000,\"name\":\"all_reduce\"",
             x + 1);
    const char *e = strstr(s, want);
    assert_non_null(e);
    assert_non_null(strstr(e, "\"cat\":\"link\",\"args\":{\"kind\":\"link\",\"bytes\":100,"));
    assert_non_null(strstr(e, "\"algorithm\":\"ring\",\"link\":0,\"link_gbps\":50,\"collective\":0,\"gbps\":25,\"util\":0.5}"));
    snprintf(want, sizeof want, "{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":0.001000,\"dur\":0.004000,\"name\":\"all_reduce\"",
             c + 1);
    e = strstr(s, want);
    assert_non_null(e);
    assert_non_null(strstr(e, "\"group_size\":4,\"n_groups\":1,\"exposed_ps\":2000,\"busbw_gbps\":123.5}"));
    free(s);
}

static void test_links_older_npt_version_is_refused_located(void **state)
{
    struct fx *f = *state;
    struct base_diag d;
    base_diag_clear(&d);
    char p[256], o[256];
    tmpdir_path(&f->dir, "l.npt", p, sizeof p);
    tmpdir_path(&f->dir, "old.npt", o, sizeof o);
    assert_int_equal(trc_write_npt(f->t, p, &d), BASE_OK);
    size_t n;
    uint8_t *b = read_all(p, &n);
    assert_int_equal(b[8], 3); /* this version */
    b[8] = 1;                  /* version 1, with a valid header crc: only the version is wrong */
    uint32_t crc = (uint32_t)crc32(0L, b, 20);
    for (int i = 0; i < 4; i++) b[20 + i] = (uint8_t)(crc >> (8 * i));
    write_all(o, b, n);
    free(b);
    struct trc_file *tf = NULL;
    base_diag_clear(&d);
    assert_int_equal(trc_open(o, &tf, &d), BASE_ERR_PARSE);
    assert_null(tf);
    assert_string_equal(d.file, o);
    assert_non_null(strstr(d.msg, "bytes 8-11"));
    assert_non_null(strstr(d.msg, "format version 1"));
    assert_non_null(strstr(d.msg, "version 3"));
}

/* ------------------------------------------------------------ stats */

static char *stats_text(const struct fx *f, bool from_file)
{
    struct base_diag d;
    base_diag_clear(&d);
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    assert_non_null(m);
    struct trc_stats s;
    if (from_file) {
        char p[256];
        tmpdir_path(&f->dir, "l.npt", p, sizeof p);
        assert_int_equal(trc_write_npt(f->t, p, &d), BASE_OK);
        struct trc_file *tf = NULL;
        assert_int_equal(trc_open(p, &tf, &d), BASE_OK);
        assert_int_equal(trc_file_stats(tf, &s, &d), BASE_OK);
        trc_file_stats_write_text(tf, &s, 10, TRC_GROUP_OP, m);
        trc_close(tf);
    } else {
        assert_int_equal(trc_stats_compute(f->t, &s), BASE_OK);
        trc_stats_write_text(f->t, &s, 10, TRC_GROUP_OP, m);
    }
    trc_stats_free(&s);
    fclose(m);
    return buf;
}

static void test_links_stats_list_collectives_and_links(void **state)
{
    struct fx *f = *state;
    char *a = stats_text(f, false), *b = stats_text(f, true);
    assert_string_equal(a, b); /* the .npt's lane table gives the same figures */
    const char *sec = strstr(a, "collectives and links");
    assert_non_null(sec);
    /* collectives: 2 slices, 6000 ps busy, 3000 exposed, 1.002048 MB, 1002048 B / 6000 ps = 167008 GB/s */
    assert_non_null(strstr(sec, "collectives                   2        0.006        0.003        1.002 167008.000        -\n"));
    /* x+: 190 B over 6000 ps = 31.667 GB/s = 63.3% of 50; y+: 40 B / 4000 ps = 10 GB/s = 20% */
    assert_non_null(strstr(sec, "ici x+ 0->1                   2        0.006            -        0.000     31.667     63.3\n"));
    assert_non_null(strstr(sec, "ici y+ 0->2                   1        0.004            -        0.000     10.000     20.0\n"));
    /* not in the ops table (engine time) */
    assert_null(strstr(strstr(a, "top ops"), "all_reduce"));
    free(a);
    free(b);
}

/* ------------------------------------------------------------ a real run */

/* Wired as `npusim run --trace` wires it: the collective slice is the
 * runtime's collective (start, time, bytes, algorithm), its exposed time is
 * the one the runtime's report ends up with, and chip 0's links carry what
 * a bandwidth-optimal all-reduce sends from each chip, 2 (n - 1) / n of the
 * bytes (ring and torus schedules are). */
static void test_links_a_real_spmd_run_records_the_runtimes_collective(void **state)
{
    (void)state;
    const char *chips[] = {"trn2", "tpu-v5e"};
    for (int ci = 0; ci < 2; ci++) {
        struct base_diag d;
        base_diag_clear(&d);
        struct chip_desc chip;
        assert_int_equal(chip_load(chips[ci], &chip, &d), BASE_OK);
        struct graph_module *m = NULL;
        struct graph_parse_options po;
        memset(&po, 0, sizeof po);
        po.path = "overlap.mlir";
        assert_int_equal(graph_parse(k_overlap, strlen(k_overlap), &po, &m, &d), BASE_OK);
        struct cc_plan *p = NULL;
        if (cc_compile(m, &chip, NULL, &p, &d) != BASE_OK) {
            base_diag_print(&d, stderr);
            fail_msg("compile on %s", chips[ci]);
        }
        struct rec_recorder *rec = NULL;
        assert_int_equal(rec_recorder_create(&chip, 0, &rec), BASE_OK);
        assert_int_equal(rec_recorder_describe_plan(rec, p), BASE_OK);
        struct sim *s = NULL;
        struct rt_report rep;
        recorded_run(&chip, p, rec, &rep, &s);
        struct trc_trace *t = NULL;
        assert_int_equal(rec_recorder_finish(rec, &t), BASE_OK);
        assert_int_equal(rep.n_colls, 1);
        const struct rt_collective *c = &rep.colls[0];
        const struct trc_lane_data *cl = &t->lanes[lane_named(t, "collectives")];
        assert_int_equal(cl->n_slices, 1);
        const struct trc_slice *cs = &cl->slices[0];
        assert_int_equal(cs->start_ps, c->start_ps);
        assert_int_equal(cs->dur_ps, c->time_ps);
        assert_int_equal(cs->bytes, 64 * 512 * 2);
        assert_int_equal(cs->b, c->exposed_ps);
        assert_true(c->exposed_ps < c->time_ps); /* the matmul hid part of it */
        assert_string_equal(trc_trace_string(t, cs->name), "all_reduce");
        assert_string_equal(trc_trace_string(t, cs->kernel), c->algorithm);
        assert_string_equal(trc_trace_string(t, cs->loc), "overlap.mlir:7:5");
        uint64_t sent = 0;
        uint32_t lanes = 0;
        for (uint32_t i = 0; i < t->n_lanes; i++) {
            const struct trc_lane_data *l = &t->lanes[i];
            if (l->lane.kind != TRC_LANE_LINK) continue;
            lanes++;
            assert_int_equal(l->n_slices, 1);
            sent += l->slices[0].bytes;
            assert_true(trc_link_util(&l->slices[0]) > 0 && trc_link_util(&l->slices[0]) <= 1.0 + 1e-9);
        }
        assert_true(lanes >= 1);
        /* ring schedules: each chip sends 2 (n - 1) / n of the bytes to its
         * neighbours.  direct on a 2 x 2 torus without wrap links: chip 0
         * sends all of them to each of the 3 others, and chip 1's copy for
         * chip 2 goes x first, then y: through chip 0's y+ link (4x). */
        double b = 64 * 512 * 2, want = !strcmp(c->algorithm, "direct") ? 4 * b : 2.0 * 3.0 / 4.0 * b;
        if (fabs((double)sent - want) > lanes) /* each link's bytes rounded */
            fail_msg("%s (%s): chip 0 sent %llu bytes over %u links, want %.0f", chips[ci], c->algorithm,
                     (unsigned long long)sent, lanes, want);
        struct base_diag vd;
        base_diag_clear(&vd);
        assert_int_equal(trc_trace_validate(t, &vd), BASE_OK);
        trc_trace_destroy(t);
        rt_report_free(&rep);
        rec_recorder_destroy(rec);
        sim_destroy(s);
        cc_plan_destroy(p);
        graph_module_destroy(m);
    }
}

TEST_MAIN(setup, teardown, T(test_links_collective_lane_has_one_slice_per_collective),
          T(test_links_exposed_time_is_the_idle_tail_of_each_collective),
          T(test_links_one_lane_per_link_chip0_sends_on_with_its_bytes),
          T(test_links_lanes_sort_after_the_engines_before_the_counters),
          T(test_links_a_run_without_collectives_has_no_such_lanes), T(test_links_npt_and_json_round_trips_keep_them),
          T(test_links_json_puts_links_in_their_own_process), T(test_links_older_npt_version_is_refused_located),
          T(test_links_stats_list_collectives_and_links), T(test_links_a_real_spmd_run_records_the_runtimes_collective))
