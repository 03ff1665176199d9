/* Private to graph/: element loads and stores in the accumulation type of
 * the sums of products (interp_dot.c, interp_conv.c, einsum in
 * interp_linalg.c; the rule is in interp_dot.c's header comment).  Loads
 * convert with one rounding; stores round the sum once to the result type. */
#ifndef NPUSIM_GRAPH_INTERP_ACC_H
#define NPUSIM_GRAPH_INTERP_ACC_H

#include "base/base.h"

#include <string.h>

/* Integer value of an element: bools 0/1, signed sign-extended, unsigned
 * zero-extended; the product mod 2^64 is the same for both extensions. */
static inline uint64_t interp_acc_ld_u(enum base_dtype dt, const void *d, int64_t i)
{
    return base_dtype_kind(dt) == BASE_KIND_UINT ? base_elem_get_u64(dt, d, (size_t)i)
                                                 : (uint64_t)base_elem_get_i64(dt, d, (size_t)i);
}

/* Element i of (dt, d) converted to f32 with one rounding (RNE). */
static inline float interp_acc_ld_f32(enum base_dtype dt, const void *d, int64_t i)
{
    switch (dt) {
    case BASE_DT_F32: return ((const float *)d)[i];
    case BASE_DT_BF16: return base_bf16_to_f32(((const uint16_t *)d)[i]);
    case BASE_DT_F16: return base_f16_to_f32(((const uint16_t *)d)[i]);
    case BASE_DT_F64: return (float)((const double *)d)[i];
    default: break;
    }
    switch (base_dtype_kind(dt)) {
    case BASE_KIND_UINT: return (float)base_elem_get_u64(dt, d, (size_t)i);
    case BASE_KIND_SINT:
    case BASE_KIND_BOOL: return (float)base_elem_get_i64(dt, d, (size_t)i);
    default: return (float)base_elem_get_f64(dt, d, (size_t)i); /* narrower floats: exact */
    }
}

/* Element i of (dt, d) converted to f64 with one rounding. */
static inline double interp_acc_ld_f64(enum base_dtype dt, const void *d, int64_t i)
{
    switch (dt) {
    case BASE_DT_F64: return ((const double *)d)[i];
    case BASE_DT_F32: return ((const float *)d)[i];
    case BASE_DT_BF16: return base_bf16_to_f32(((const uint16_t *)d)[i]);
    case BASE_DT_F16: return base_f16_to_f32(((const uint16_t *)d)[i]);
    default: break;
    }
    switch (base_dtype_kind(dt)) {
    case BASE_KIND_UINT: return (double)base_elem_get_u64(dt, d, (size_t)i);
    case BASE_KIND_SINT:
    case BASE_KIND_BOOL: return (double)base_elem_get_i64(dt, d, (size_t)i);
    default: return base_elem_get_f64(dt, d, (size_t)i);
    }
}

/* Complex (or real, im 0) element converted to complex<f32> / complex<f64>. */
static inline void interp_acc_ld_c64(enum base_dtype dt, const void *d, int64_t i, float *re, float *im)
{
    if (dt == BASE_DT_C64) {
        *re = ((const float *)d)[2 * i];
        *im = ((const float *)d)[2 * i + 1];
    } else if (dt == BASE_DT_C128) {
        *re = (float)((const double *)d)[2 * i];
        *im = (float)((const double *)d)[2 * i + 1];
    } else {
        *re = interp_acc_ld_f32(dt, d, i);
        *im = 0.0f;
    }
}

static inline void interp_acc_ld_c128(enum base_dtype dt, const void *d, int64_t i, double *re, double *im)
{
    if (base_dtype_is_complex(dt)) {
        base_elem_get_c128(dt, d, (size_t)i, re, im);
    } else {
        *re = interp_acc_ld_f64(dt, d, i);
        *im = 0.0;
    }
}

/* f32 -> bf16, round to nearest even; NaN -> canonical quiet NaN with its
 * sign (as base_f32_to_bf16, inlined for the store loops). */
static inline uint16_t interp_acc_bf16_from_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((u >> 16) & 0x8000u) | 0x7fc0u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* Stores an f32 sum into element i of a float tensor, rounded once. */
static inline void interp_acc_st_f32(enum base_dtype dt, void *d, int64_t i, float v)
{
    switch (dt) {
    case BASE_DT_F32: ((float *)d)[i] = v; break;
    case BASE_DT_BF16: ((uint16_t *)d)[i] = interp_acc_bf16_from_f32(v); break;
    case BASE_DT_F16: ((uint16_t *)d)[i] = base_f32_to_f16(v); break;
    default: base_elem_set_f64(dt, d, (size_t)i, (double)v); break;
    }
}

#endif
