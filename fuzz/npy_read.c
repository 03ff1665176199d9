/* Fuzz target: the .npy reader never crashes on any bytes, refuses with a
 * message, and what it accepts survives a write and a read back (atomic
 * write, then the file reader) bit for bit. */
#include "fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct base_diag d;
    base_diag_clear(&d);
    struct base_tensor *t = NULL;
    enum base_status st = base_npy_read_mem(data, size, "fuzz.npy", &t, &d);
    char path[64];
    fuzz_to_file(data, size, ".npy", path, sizeof path);
    struct base_tensor *u = NULL;
    struct base_diag du;
    base_diag_clear(&du);
    enum base_status su = base_npy_read(path, &u, &du); /* the file reader agrees with the memory reader */
    unlink(path);
    if (st != BASE_OK) fuzz_check_refusal(st, &d);
    if (su != BASE_OK) fuzz_check_refusal(su, &du);
    if ((st == BASE_OK) != (su == BASE_OK) && st != BASE_ERR_NOMEM && su != BASE_ERR_NOMEM) abort();
    base_tensor_release(u);
    if (st != BASE_OK) return 0;
    base_diag_clear(&d);
    snprintf(path, sizeof path, "/tmp/npusim_fuzz_npy_%d.npy", (int)getpid());
    st = base_npy_write(path, t, &d);
    if (st == BASE_OK) {
        struct base_tensor *back = NULL;
        st = base_npy_read(path, &back, &d);
        if (st != BASE_OK) fuzz_check_refusal(st, &d);
        else if (back->dtype != t->dtype || back->rank != t->rank ||
                 memcmp(back->dims, t->dims, (size_t)t->rank * sizeof *t->dims) ||
                 (base_tensor_nbytes(t) && memcmp(back->data, t->data, base_tensor_nbytes(t))))
            abort();
        base_tensor_release(back);
    } else {
        fuzz_check_refusal(st, &d); /* an element type without a .npy form */
    }
    unlink(path);
    base_tensor_release(t);
    return 0;
}
