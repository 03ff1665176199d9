/* Fuzz target: the safetensors reader never crashes, refuses every bad file
 * with a diagnostic that names the file and says what is wrong, and every
 * tensor of a file it accepts reads within the data (each read whole,
 * converted to f32, a float tensor, or i64, an integer one). */
#include "base/base.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct base_st_file *f = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = base_st_parse(data, size, "fuzz.safetensors", &f, &d);
    if (st != BASE_OK) {
        if (f) abort();
        if (st != BASE_ERR_NOMEM && (d.status != st || strcmp(d.file, "fuzz.safetensors") || !d.msg[0])) abort();
        return 0;
    }
    for (int i = 0; i < base_st_count(f); i++) {
        const struct base_st_tensor *t = base_st_get(f, i);
        if (t->end > size || t->begin > t->end) abort();
        enum base_dtype to = base_dtype_is_float(t->dtype) ? BASE_DT_F32 : base_dtype_is_complex(t->dtype) ? BASE_DT_C64
                                                                                                             : BASE_DT_SI64;
        if (t->dtype == BASE_DT_I1) to = BASE_DT_I1;
        struct base_tensor *x = NULL, *m = NULL;
        base_diag_clear(&d);
        if (base_st_tensor_lazy(f, i, to, t->rank, t->dims, &x, &d) != BASE_OK) abort();
        if (x->count <= (1 << 16) && base_tensor_materialize(x, &m) != BASE_OK) abort();
        base_tensor_release(m);
        base_tensor_release(x);
    }
    base_st_close(f);
    return 0;
}
