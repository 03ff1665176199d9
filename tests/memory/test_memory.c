/* HBM pages and written-bytes tracking, SRAM geometry and banks. */
#include "tests/harness.h"

#include "memory/memory.h"

#include <stdlib.h>

static void test_hbm_lazy_pages_roundtrip(void **state)
{
    (void)state;
    struct mem_hbm h;
    assert_int_equal(mem_hbm_init(&h, UINT64_C(96) << 30, true, false), BASE_OK);
    assert_int_equal(h.pages_allocated, 0);
    /* a write straddling two pages allocates exactly those */
    uint8_t buf[100], out[100];
    for (int i = 0; i < 100; i++) buf[i] = (uint8_t)(i * 7 + 1);
    uint64_t addr = (UINT64_C(5) << 30) + MEM_HBM_PAGE_BYTES - 40;
    assert_int_equal(mem_hbm_write(&h, addr, buf, sizeof buf), BASE_OK);
    assert_int_equal(h.pages_allocated, 2);
    mem_hbm_read(&h, addr, out, sizeof out);
    assert_memory_equal(buf, out, sizeof buf);
    /* never-written bytes read as zero */
    mem_hbm_read(&h, 12345, out, 10);
    for (int i = 0; i < 10; i++) assert_int_equal(out[i], 0);
    assert_true(mem_hbm_in_range(&h, 0, (int64_t)h.capacity_bytes));
    assert_false(mem_hbm_in_range(&h, 0, (int64_t)h.capacity_bytes + 1));
    assert_false(mem_hbm_in_range(&h, -1, 4));
    mem_hbm_deinit(&h);
}

static void test_hbm_timing_only_stores_nothing(void **state)
{
    (void)state;
    struct mem_hbm h;
    assert_int_equal(mem_hbm_init(&h, UINT64_C(1) << 34, false, false), BASE_OK);
    assert_null(h.pages);
    assert_null(h.written);
    assert_true(mem_hbm_all_written(&h, 0, 100, NULL)); /* not tracking: all counts as written */
    mem_hbm_deinit(&h);
}

/* Overlapping writes that cover a page count each byte once: the page is
 * found full only when its last byte is written. */
static void test_hbm_page_full_only_when_every_byte_written(void **state)
{
    (void)state;
    struct mem_hbm h;
    const uint64_t P = MEM_HBM_PAGE_BYTES;
    assert_int_equal(mem_hbm_init(&h, UINT64_C(1) << 30, false, true), BASE_OK);
    uint64_t first = 0;
    /* the page [P, 2P) but byte P + 777, written twice over in overlapping pieces */
    assert_int_equal(mem_hbm_mark_written(&h, P, P + 700), BASE_OK);
    assert_int_equal(mem_hbm_mark_written(&h, P + 500, P + 777), BASE_OK);
    assert_int_equal(mem_hbm_mark_written(&h, P + 778, 2 * P), BASE_OK);
    assert_int_equal(mem_hbm_mark_written(&h, P, P + 777), BASE_OK);
    assert_false(mem_hbm_all_written(&h, P, 2 * P, &first));
    assert_int_equal(first, P + 777);
    assert_int_equal(h.written_bytes[1], P - 1);
    assert_int_equal(mem_hbm_mark_written(&h, P + 700, P + 800), BASE_OK);
    assert_int_equal(h.written_bytes[1], P);
    assert_true(mem_hbm_all_written(&h, P - 0, 2 * P, &first));
    assert_false(mem_hbm_all_written(&h, P - 1, 2 * P, &first));
    assert_int_equal(first, P - 1);
    mem_hbm_deinit(&h);
}

static void test_hbm_written_tracking_finds_first_gap(void **state)
{
    (void)state;
    struct mem_hbm h;
    assert_int_equal(mem_hbm_init(&h, UINT64_C(1) << 30, false, true), BASE_OK);
    uint64_t first = 0;
    assert_false(mem_hbm_all_written(&h, 10, 20, &first));
    assert_int_equal(first, 10);
    assert_int_equal(mem_hbm_mark_written(&h, 0, 3 * MEM_HBM_PAGE_BYTES + 5), BASE_OK);
    assert_int_equal(mem_hbm_mark_written(&h, 3 * MEM_HBM_PAGE_BYTES + 6, 3 * MEM_HBM_PAGE_BYTES + 100), BASE_OK);
    assert_true(mem_hbm_all_written(&h, 0, 3 * MEM_HBM_PAGE_BYTES + 5, &first));
    assert_false(mem_hbm_all_written(&h, 100, 3 * MEM_HBM_PAGE_BYTES + 50, &first));
    assert_int_equal(first, 3 * MEM_HBM_PAGE_BYTES + 5);
    assert_false(mem_hbm_all_written(&h, 3 * MEM_HBM_PAGE_BYTES + 6, 5 * MEM_HBM_PAGE_BYTES, &first));
    assert_int_equal(first, 3 * MEM_HBM_PAGE_BYTES + 100);
    mem_hbm_deinit(&h);
}

static void test_sram_rows_banks_and_written_bits(void **state)
{
    (void)state;
    struct mem_sram s;
    assert_int_equal(mem_sram_init(&s, 128, 16 * 1024, 8, true, true), BASE_OK);
    assert_int_equal(s.bank_bytes, 2048);
    assert_int_equal(mem_sram_bank(&s, 2047), 0);
    assert_int_equal(mem_sram_bank(&s, 2048), 1);
    assert_int_equal(mem_sram_bank(&s, 16383), 7);
    mem_sram_row(&s, 3)[5] = 42;
    assert_int_equal(s.data[3 * 16 * 1024 + 5], 42);
    assert_true(mem_sram_in_range(&s, 0, 128, 0, 16 * 1024));
    assert_false(mem_sram_in_range(&s, 1, 128, 0, 4));
    assert_false(mem_sram_in_range(&s, 0, 1, 0, 16 * 1024 + 1));
    mem_sram_mark_written(&s, 7, 63, 130);
    uint64_t first;
    assert_true(mem_sram_all_written(&s, 7, 63, 130, &first));
    assert_false(mem_sram_all_written(&s, 7, 60, 130, &first));
    assert_int_equal(first, 60);
    assert_false(mem_sram_all_written(&s, 6, 63, 130, &first)); /* another partition */
    assert_false(mem_sram_all_written(&s, 7, 63, 131, &first));
    assert_int_equal(first, 130);
    mem_sram_deinit(&s);
}


static void test_wcache_containment_and_merging(void **state)
{
    (void)state;
    struct mem_wcache c;
    memset(&c, 0, sizeof c);
    assert_false(mem_wcache_has(&c, 0, 1, 0, 1));
    mem_wcache_add(&c, 0, 4, 0, 64);
    assert_true(mem_wcache_has(&c, 0, 4, 0, 64));
    assert_true(mem_wcache_has(&c, 1, 3, 8, 16));
    assert_false(mem_wcache_has(&c, 0, 5, 0, 64)); /* one partition more */
    assert_false(mem_wcache_has(&c, 0, 4, 0, 65)); /* one byte more */
    /* the same partitions, touching bytes: one box [0, 128) */
    mem_wcache_add(&c, 0, 4, 64, 128);
    assert_int_equal(c.n, 1);
    assert_true(mem_wcache_has(&c, 0, 4, 32, 96));
    /* a gap stays a gap */
    mem_wcache_add(&c, 0, 4, 129, 200);
    assert_false(mem_wcache_has(&c, 0, 4, 100, 150));
    assert_true(mem_wcache_has(&c, 0, 4, 129, 200));
    /* the same bytes, adjacent partitions */
    mem_wcache_add(&c, 4, 8, 0, 128);
    assert_true(mem_wcache_has(&c, 0, 8, 0, 128));
    assert_false(mem_wcache_has(&c, 0, 9, 0, 128));
    /* a box containing others absorbs them */
    mem_wcache_add(&c, 0, 8, 0, 256);
    assert_int_equal(c.n, 1);
    /* full: the oldest entries are replaced, each entry stays exact */
    for (uint32_t i = 0; i < 2 * MEM_WBOX_CACHE; i++) mem_wcache_add(&c, 20 + 2 * i, 21 + 2 * i, 0, 8);
    assert_int_equal(c.n, MEM_WBOX_CACHE);
    assert_true(mem_wcache_has(&c, 20 + 2 * (2 * MEM_WBOX_CACHE - 1), 21 + 2 * (2 * MEM_WBOX_CACHE - 1), 0, 8));
    assert_false(mem_wcache_has(&c, 20, 22, 0, 8)); /* never one box */
}

static void test_sram_box_checks_find_the_first_gap(void **state)
{
    (void)state;
    struct mem_sram s;
    assert_int_equal(mem_sram_init(&s, 8, 1024, 1, false, true), BASE_OK);
    uint32_t part = 99;
    uint64_t first = 99;
    mem_sram_mark_written(&s, 0, 0, 64);
    mem_sram_mark_written(&s, 1, 0, 64);
    mem_sram_mark_written(&s, 2, 0, 60);
    assert_false(mem_sram_box_written(&s, 0, 3, 0, 64, &part, &first));
    assert_int_equal(part, 2);
    assert_int_equal(first, 60);
    assert_true(mem_sram_box_written(&s, 0, 2, 0, 64, &part, &first));
    uint64_t hits = s.wcache.hits;
    assert_true(mem_sram_box_written(&s, 0, 2, 16, 32, &part, &first)); /* inside the box just verified */
    assert_int_equal(s.wcache.hits, hits + 1);
    assert_false(mem_sram_box_written(&s, 0, 2, 0, 65, &part, &first));
    assert_int_equal(part, 0);
    assert_int_equal(first, 64);
    /* marking a box sets every bit and remembers it; a second mark is free */
    mem_sram_box_mark_written(&s, 4, 8, 100, 200);
    for (uint32_t p = 4; p < 8; p++) assert_true(mem_sram_all_written(&s, p, 100, 200, &first));
    assert_false(mem_sram_all_written(&s, 3, 100, 200, &first));
    assert_false(mem_sram_all_written(&s, 4, 99, 200, &first));
    hits = s.wcache.hits;
    mem_sram_box_mark_written(&s, 5, 6, 120, 130);
    assert_int_equal(s.wcache.hits, hits + 1);
    mem_sram_deinit(&s);
}

static void test_hbm_range_checks_use_the_cache(void **state)
{
    (void)state;
    struct mem_hbm h;
    assert_int_equal(mem_hbm_init(&h, UINT64_C(1) << 30, false, true), BASE_OK);
    uint64_t first = 0;
    assert_int_equal(mem_hbm_range_mark_written(&h, MEM_HBM_PAGE_BYTES - 10, MEM_HBM_PAGE_BYTES + 10), BASE_OK);
    assert_true(mem_hbm_all_written(&h, MEM_HBM_PAGE_BYTES - 10, MEM_HBM_PAGE_BYTES + 10, &first));
    assert_true(mem_hbm_range_written(&h, MEM_HBM_PAGE_BYTES - 5, MEM_HBM_PAGE_BYTES + 5, &first));
    assert_int_equal(h.wcache.hits, 1);
    assert_false(mem_hbm_range_written(&h, MEM_HBM_PAGE_BYTES - 11, MEM_HBM_PAGE_BYTES, &first));
    assert_int_equal(first, MEM_HBM_PAGE_BYTES - 11);
    assert_false(mem_hbm_range_written(&h, MEM_HBM_PAGE_BYTES, MEM_HBM_PAGE_BYTES + 11, &first));
    assert_int_equal(first, MEM_HBM_PAGE_BYTES + 10);
    mem_hbm_deinit(&h);
}

/* A lazy region reads as its tensor's values, at any alignment, without
 * storing a page; a write stores its page with the values it had; regions
 * may not overlap. */
static void test_hbm_lazy_region_reads_values_without_pages(void **state)
{
    (void)state;
    struct mem_hbm h;
    assert_int_equal(mem_hbm_init(&h, UINT64_C(1) << 32, true, false), BASE_OK);
    int64_t dims[2] = {300, 257}; /* 154 200 bytes of bf16: three pages, not page-aligned */
    struct base_tensor *lazy = NULL, *want = NULL;
    assert_int_equal(base_tensor_create_random(BASE_DT_BF16, 2, dims, 42, 0.5, &lazy), BASE_OK);
    assert_int_equal(base_tensor_materialize(lazy, &want), BASE_OK);
    uint64_t base = 3 * MEM_HBM_PAGE_BYTES - 1000;
    uint64_t len = base_tensor_nbytes(lazy);
    assert_int_equal(mem_hbm_map_lazy(&h, base, lazy), BASE_OK);
    base_tensor_release(lazy); /* the HBM keeps its reference */
    uint8_t *out = malloc(len + 64);
    assert_non_null(out);
    mem_hbm_read(&h, base, out, len);
    assert_memory_equal(out, want->data, len);
    assert_int_equal(h.pages_allocated, 0);
    /* odd offsets and lengths (elements cut at both ends), and bytes around the region read zero */
    struct base_rng r;
    base_rng_seed(&r, test_seed());
    for (int k = 0; k < 50; k++) {
        uint64_t a = base_rng_next(&r) % len, n = 1 + base_rng_next(&r) % (len - a);
        mem_hbm_read(&h, base + a, out, n);
        assert_memory_equal(out, (uint8_t *)want->data + a, n);
    }
    mem_hbm_read(&h, base - 7, out, 9);
    for (int i = 0; i < 7; i++) assert_int_equal(out[i], 0);
    assert_memory_equal(out + 7, want->data, 2);
    mem_hbm_read(&h, base + len - 3, out, 8);
    assert_memory_equal(out, (uint8_t *)want->data + len - 3, 3);
    for (int i = 3; i < 8; i++) assert_int_equal(out[i], 0);
    assert_int_equal(h.pages_allocated, 0);
    /* a write stores its page: the bytes around it keep the values */
    uint8_t w[4] = {1, 2, 3, 4};
    uint64_t at = base + 2 * MEM_HBM_PAGE_BYTES + 11;
    assert_int_equal(mem_hbm_write(&h, at, w, sizeof w), BASE_OK);
    assert_int_equal(h.pages_allocated, 1);
    memcpy((uint8_t *)want->data + (at - base), w, sizeof w);
    mem_hbm_read(&h, base, out, len);
    assert_memory_equal(out, want->data, len);
    /* overlapping or out-of-range regions are refused */
    int64_t d1[1] = {16};
    struct base_tensor *small = NULL;
    assert_int_equal(base_tensor_create_random(BASE_DT_F32, 1, d1, 1, 1.0, &small), BASE_OK);
    assert_int_equal(mem_hbm_map_lazy(&h, base + len - 4, small), BASE_ERR_INVALID);
    assert_int_equal(mem_hbm_map_lazy(&h, base - 60, small), BASE_ERR_INVALID);
    assert_int_equal(mem_hbm_map_lazy(&h, h.capacity_bytes - 32, small), BASE_ERR_INVALID);
    assert_int_equal(mem_hbm_map_lazy(&h, base - 64, small), BASE_OK);
    assert_int_equal(mem_hbm_map_lazy(&h, base + len, small), BASE_OK);
    mem_hbm_read(&h, base + len, out, 64);
    float fv[16];
    assert_int_equal(base_tensor_read(small, 0, 16, fv), BASE_OK);
    assert_memory_equal(out, fv, 64);
    base_tensor_release(small);
    /* a region mapped onto a page a neighbour already stored: its bytes
     * there read as its values, the neighbour's stay (inputs share pages) */
    uint64_t nb = 40 * MEM_HBM_PAGE_BYTES + 100;
    uint8_t mark[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    assert_int_equal(mem_hbm_write(&h, nb, mark, sizeof mark), BASE_OK);
    int64_t d2[1] = {1000};
    struct base_tensor *late = NULL;
    assert_int_equal(base_tensor_create_random(BASE_DT_F32, 1, d2, 5, 1.0, &late), BASE_OK);
    assert_int_equal(mem_hbm_map_lazy(&h, nb + 412, late), BASE_OK);
    float lv[1000];
    assert_int_equal(base_tensor_read(late, 0, 1000, lv), BASE_OK);
    mem_hbm_read(&h, nb + 412, out, sizeof lv);
    assert_memory_equal(out, lv, sizeof lv);
    mem_hbm_read(&h, nb, out, sizeof mark);
    assert_memory_equal(out, mark, sizeof mark);
    base_tensor_release(late);
    free(out);
    base_tensor_release(want);
    mem_hbm_deinit(&h);
}

/* Marking whole pages written takes no bitmap; partial marks still do, and
 * a page later marked whole drops its bitmap. */
static void test_hbm_whole_pages_need_no_bitmap(void **state)
{
    (void)state;
    struct mem_hbm h;
    const uint64_t P = MEM_HBM_PAGE_BYTES;
    uint64_t first = 0;
    assert_int_equal(mem_hbm_init(&h, UINT64_C(1) << 34, false, true), BASE_OK);
    assert_int_equal(mem_hbm_mark_written(&h, 100, 1000 * P + 100), BASE_OK);
    assert_int_equal(h.written_pages, 2); /* the two partial end pages */
    assert_true(mem_hbm_all_written(&h, 100, 1000 * P + 100, &first));
    assert_false(mem_hbm_all_written(&h, 99, 200, &first));
    assert_int_equal(first, 99);
    assert_false(mem_hbm_all_written(&h, 5 * P, 1000 * P + 101, &first));
    assert_int_equal(first, 1000 * P + 100);
    assert_int_equal(mem_hbm_mark_written(&h, 0, P), BASE_OK);
    assert_int_equal(h.written_pages, 1);
    assert_true(mem_hbm_all_written(&h, 0, 2 * P, &first));
    mem_hbm_deinit(&h);
}

TEST_MAIN(NULL, NULL, T(test_hbm_lazy_pages_roundtrip), T(test_hbm_timing_only_stores_nothing),
          T(test_hbm_written_tracking_finds_first_gap), T(test_hbm_page_full_only_when_every_byte_written), T(test_sram_rows_banks_and_written_bits),
          T(test_wcache_containment_and_merging), T(test_sram_box_checks_find_the_first_gap),
          T(test_hbm_range_checks_use_the_cache), T(test_hbm_lazy_region_reads_values_without_pages),
          T(test_hbm_whole_pages_need_no_bitmap))
