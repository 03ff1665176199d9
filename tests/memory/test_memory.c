/* HBM pages and written-bytes tracking, SRAM geometry and banks. */
#include "tests/harness.h"

#include "memory/memory.h"

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

TEST_MAIN(NULL, NULL, T(test_hbm_lazy_pages_roundtrip), T(test_hbm_timing_only_stores_nothing),
          T(test_hbm_written_tracking_finds_first_gap), T(test_sram_rows_banks_and_written_bits))
