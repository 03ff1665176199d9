/* Every op npusim knows, once: X(ENUM, "full name", CATEGORY).
 * Expanded into the enum, the name table and the category table (graph/ops.c).
 * Ops not listed parse as GRAPH_OP_UNKNOWN and are reported, never skipped. */
#ifndef NPUSIM_GRAPH_OPS_LIST_H
#define NPUSIM_GRAPH_OPS_LIST_H

#define GRAPH_OPS(X)                                                        \
    X(UNKNOWN, "<unknown>", MISC)                                           \
    /* builtin / func / sdy: module structure */                            \
    X(MODULE, "builtin.module", META)                                       \
    X(FUNC, "func.func", META)                                              \
    X(CALL, "func.call", CONTROL)                                           \
    X(FUNC_RETURN, "func.return", CONTROL)                                  \
    X(SDY_MESH, "sdy.mesh", META)                                           \
    X(SDY_MANUAL_COMPUTATION, "sdy.manual_computation", CONTROL)            \
    X(SDY_RETURN, "sdy.return", CONTROL)                                    \
    /* elementwise unary */                                                 \
    X(ABS, "stablehlo.abs", UNARY)                                          \
    X(CBRT, "stablehlo.cbrt", UNARY)                                        \
    X(CEIL, "stablehlo.ceil", UNARY)                                        \
    X(CONVERT, "stablehlo.convert", UNARY)                                  \
    X(COSINE, "stablehlo.cosine", UNARY)                                    \
    X(COUNT_LEADING_ZEROS, "stablehlo.count_leading_zeros", UNARY)          \
    X(EXPONENTIAL, "stablehlo.exponential", UNARY)                          \
    X(EXPONENTIAL_MINUS_ONE, "stablehlo.exponential_minus_one", UNARY)      \
    X(FLOOR, "stablehlo.floor", UNARY)                                      \
    X(IMAG, "stablehlo.imag", UNARY)                                        \
    X(IS_FINITE, "stablehlo.is_finite", UNARY)                              \
    X(LOG, "stablehlo.log", UNARY)                                          \
    X(LOG_PLUS_ONE, "stablehlo.log_plus_one", UNARY)                        \
    X(LOGISTIC, "stablehlo.logistic", UNARY)                                \
    X(NEGATE, "stablehlo.negate", UNARY)                                    \
    X(NOT, "stablehlo.not", UNARY)                                          \
    X(POPCNT, "stablehlo.popcnt", UNARY)                                    \
    X(REAL, "stablehlo.real", UNARY)                                        \
    X(REDUCE_PRECISION, "stablehlo.reduce_precision", UNARY)                \
    X(ROUND_NEAREST_AFZ, "stablehlo.round_nearest_afz", UNARY)              \
    X(ROUND_NEAREST_EVEN, "stablehlo.round_nearest_even", UNARY)            \
    X(RSQRT, "stablehlo.rsqrt", UNARY)                                      \
    X(SIGN, "stablehlo.sign", UNARY)                                        \
    X(SINE, "stablehlo.sine", UNARY)                                        \
    X(SQRT, "stablehlo.sqrt", UNARY)                                        \
    X(TAN, "stablehlo.tan", UNARY)                                          \
    X(TANH, "stablehlo.tanh", UNARY)                                        \
    X(BITCAST_CONVERT, "stablehlo.bitcast_convert", SHAPE)                  \
    /* elementwise binary */                                                \
    X(ADD, "stablehlo.add", BINARY)                                         \
    X(AND, "stablehlo.and", BINARY)                                         \
    X(ATAN2, "stablehlo.atan2", BINARY)                                     \
    X(COMPARE, "stablehlo.compare", BINARY)                                 \
    X(COMPLEX, "stablehlo.complex", BINARY)                                 \
    X(DIVIDE, "stablehlo.divide", BINARY)                                   \
    X(MAXIMUM, "stablehlo.maximum", BINARY)                                 \
    X(MINIMUM, "stablehlo.minimum", BINARY)                                 \
    X(MULTIPLY, "stablehlo.multiply", BINARY)                               \
    X(OR, "stablehlo.or", BINARY)                                           \
    X(POWER, "stablehlo.power", BINARY)                                     \
    X(REMAINDER, "stablehlo.remainder", BINARY)                             \
    X(SHIFT_LEFT, "stablehlo.shift_left", BINARY)                           \
    X(SHIFT_RIGHT_ARITHMETIC, "stablehlo.shift_right_arithmetic", BINARY)   \
    X(SHIFT_RIGHT_LOGICAL, "stablehlo.shift_right_logical", BINARY)         \
    X(SUBTRACT, "stablehlo.subtract", BINARY)                               \
    X(XOR, "stablehlo.xor", BINARY)                                         \
    /* elementwise ternary */                                               \
    X(CLAMP, "stablehlo.clamp", TERNARY)                                    \
    X(SELECT, "stablehlo.select", TERNARY)                                  \
    /* data movement */                                                     \
    X(BROADCAST, "stablehlo.broadcast", SHAPE)                              \
    X(BROADCAST_IN_DIM, "stablehlo.broadcast_in_dim", SHAPE)                \
    X(CONCATENATE, "stablehlo.concatenate", SHAPE)                          \
    X(DYNAMIC_BROADCAST_IN_DIM, "stablehlo.dynamic_broadcast_in_dim", SHAPE) \
    X(DYNAMIC_GATHER, "stablehlo.dynamic_gather", SHAPE)                    \
    X(DYNAMIC_IOTA, "stablehlo.dynamic_iota", SHAPE)                        \
    X(DYNAMIC_PAD, "stablehlo.dynamic_pad", SHAPE)                          \
    X(DYNAMIC_RESHAPE, "stablehlo.dynamic_reshape", SHAPE)                  \
    X(DYNAMIC_SLICE, "stablehlo.dynamic_slice", SHAPE)                      \
    X(DYNAMIC_UPDATE_SLICE, "stablehlo.dynamic_update_slice", SHAPE)        \
    X(GATHER, "stablehlo.gather", SHAPE)                                    \
    X(GET_DIMENSION_SIZE, "stablehlo.get_dimension_size", SHAPE)            \
    X(PAD, "stablehlo.pad", SHAPE)                                          \
    X(REAL_DYNAMIC_SLICE, "stablehlo.real_dynamic_slice", SHAPE)            \
    X(RESHAPE, "stablehlo.reshape", SHAPE)                                  \
    X(REVERSE, "stablehlo.reverse", SHAPE)                                  \
    X(SCATTER, "stablehlo.scatter", SHAPE)                                  \
    X(SET_DIMENSION_SIZE, "stablehlo.set_dimension_size", SHAPE)            \
    X(SLICE, "stablehlo.slice", SHAPE)                                      \
    X(SORT, "stablehlo.sort", SHAPE)                                        \
    X(TORCH_INDEX_SELECT, "stablehlo.torch_index_select", SHAPE)            \
    X(TRANSPOSE, "stablehlo.transpose", SHAPE)                              \
    /* reductions */                                                        \
    X(MAP, "stablehlo.map", REDUCE)                                         \
    X(REDUCE, "stablehlo.reduce", REDUCE)                                   \
    X(REDUCE_WINDOW, "stablehlo.reduce_window", REDUCE)                     \
    X(SELECT_AND_SCATTER, "stablehlo.select_and_scatter", REDUCE)           \
    X(CHLO_SCAN, "chlo.scan", REDUCE)                                       \
    X(CHLO_TOP_K, "chlo.top_k", REDUCE)                                     \
    /* linear algebra */                                                    \
    X(BATCH_NORM_GRAD, "stablehlo.batch_norm_grad", LINALG)                 \
    X(BATCH_NORM_INFERENCE, "stablehlo.batch_norm_inference", LINALG)       \
    X(BATCH_NORM_TRAINING, "stablehlo.batch_norm_training", LINALG)         \
    X(CHOLESKY, "stablehlo.cholesky", LINALG)                               \
    X(CONVOLUTION, "stablehlo.convolution", LINALG)                         \
    X(DOT, "stablehlo.dot", LINALG)                                         \
    X(DOT_GENERAL, "stablehlo.dot_general", LINALG)                         \
    X(DYNAMIC_CONV, "stablehlo.dynamic_conv", LINALG)                       \
    X(EINSUM, "stablehlo.einsum", LINALG)                                   \
    X(UNARY_EINSUM, "stablehlo.unary_einsum", LINALG)                       \
    X(FFT, "stablehlo.fft", LINALG)                                         \
    X(TRIANGULAR_SOLVE, "stablehlo.triangular_solve", LINALG)               \
    X(CHLO_RAGGED_DOT, "chlo.ragged_dot", LINALG)                           \
    /* control flow */                                                      \
    X(CASE, "stablehlo.case", CONTROL)                                      \
    X(IF, "stablehlo.if", CONTROL)                                          \
    X(WHILE, "stablehlo.while", CONTROL)                                    \
    X(RETURN, "stablehlo.return", CONTROL)                                  \
    X(COMPOSITE, "stablehlo.composite", CONTROL)                            \
    X(OPTIMIZATION_BARRIER, "stablehlo.optimization_barrier", CONTROL)      \
    X(ASYNC_START, "stablehlo.async_start", CONTROL)                        \
    X(ASYNC_DONE, "stablehlo.async_done", CONTROL)                          \
    /* collectives and distribution */                                      \
    X(ALL_GATHER, "stablehlo.all_gather", COLLECTIVE)                       \
    X(ALL_REDUCE, "stablehlo.all_reduce", COLLECTIVE)                       \
    X(ALL_TO_ALL, "stablehlo.all_to_all", COLLECTIVE)                       \
    X(COLLECTIVE_BROADCAST, "stablehlo.collective_broadcast", COLLECTIVE)   \
    X(COLLECTIVE_PERMUTE, "stablehlo.collective_permute", COLLECTIVE)       \
    X(COLLECTIVE_REDUCE, "stablehlo.collective_reduce", COLLECTIVE)         \
    X(REDUCE_SCATTER, "stablehlo.reduce_scatter", COLLECTIVE)               \
    X(CROSS_REPLICA_SUM, "stablehlo.cross-replica-sum", COLLECTIVE)         \
    X(PARTITION_ID, "stablehlo.partition_id", COLLECTIVE)                   \
    X(REPLICA_ID, "stablehlo.replica_id", COLLECTIVE)                       \
    X(SEND, "stablehlo.send", COLLECTIVE)                                   \
    X(RECV, "stablehlo.recv", COLLECTIVE)                                   \
    X(INFEED, "stablehlo.infeed", COLLECTIVE)                               \
    X(OUTFEED, "stablehlo.outfeed", COLLECTIVE)                             \
    /* quantization */                                                      \
    X(UNIFORM_QUANTIZE, "stablehlo.uniform_quantize", QUANT)                \
    X(UNIFORM_DEQUANTIZE, "stablehlo.uniform_dequantize", QUANT)            \
    /* misc */                                                              \
    X(CONSTANT, "stablehlo.constant", MISC)                                 \
    X(IOTA, "stablehlo.iota", MISC)                                         \
    X(RNG, "stablehlo.rng", MISC)                                           \
    X(RNG_BIT_GENERATOR, "stablehlo.rng_bit_generator", MISC)               \
    X(CUSTOM_CALL, "stablehlo.custom_call", MISC)                           \
    X(AFTER_ALL, "stablehlo.after_all", MISC)                               \
    X(CREATE_TOKEN, "stablehlo.create_token", MISC)                         \
    X(TUPLE, "stablehlo.tuple", MISC)                                       \
    X(GET_TUPLE_ELEMENT, "stablehlo.get_tuple_element", MISC)               \
    /* chlo elementwise (decomposed by the reference pipeline) */           \
    X(CHLO_ACOS, "chlo.acos", UNARY)                                        \
    X(CHLO_ACOSH, "chlo.acosh", UNARY)                                      \
    X(CHLO_ASIN, "chlo.asin", UNARY)                                        \
    X(CHLO_ASINH, "chlo.asinh", UNARY)                                      \
    X(CHLO_ATAN, "chlo.atan", UNARY)                                        \
    X(CHLO_ATANH, "chlo.atanh", UNARY)                                      \
    X(CHLO_BESSEL_I1E, "chlo.bessel_i1e", UNARY)                            \
    X(CHLO_CONJ, "chlo.conj", UNARY)                                        \
    X(CHLO_COSH, "chlo.cosh", UNARY)                                        \
    X(CHLO_DIGAMMA, "chlo.digamma", UNARY)                                  \
    X(CHLO_ERF, "chlo.erf", UNARY)                                          \
    X(CHLO_ERF_INV, "chlo.erf_inv", UNARY)                                  \
    X(CHLO_ERFC, "chlo.erfc", UNARY)                                        \
    X(CHLO_IS_INF, "chlo.is_inf", UNARY)                                    \
    X(CHLO_IS_NEG_INF, "chlo.is_neg_inf", UNARY)                            \
    X(CHLO_IS_POS_INF, "chlo.is_pos_inf", UNARY)                            \
    X(CHLO_LGAMMA, "chlo.lgamma", UNARY)                                    \
    X(CHLO_SINH, "chlo.sinh", UNARY)                                        \
    X(CHLO_SQUARE, "chlo.square", UNARY)                                    \
    X(CHLO_TAN, "chlo.tan", UNARY)                                          \
    X(CHLO_MULHI, "chlo.mulhi", BINARY)                                     \
    X(CHLO_NEXT_AFTER, "chlo.next_after", BINARY)                           \
    X(CHLO_POLYGAMMA, "chlo.polygamma", BINARY)                             \
    X(CHLO_ZETA, "chlo.zeta", BINARY)                                       \
    X(CHLO_ASIN_ACOS_KERNEL, "chlo._asin_acos_kernel", MISC)                \
    X(CHLO_CONSTANT, "chlo.constant", MISC)                                 \
    X(CHLO_CONSTANT_LIKE, "chlo.constant_like", MISC)                       \
    /* chlo broadcasting ops (implicit numpy-style broadcasting of operands) */ \
    X(CHLO_BROADCAST_ADD, "chlo.broadcast_add", MISC)                       \
    X(CHLO_BROADCAST_ATAN2, "chlo.broadcast_atan2", MISC)                   \
    X(CHLO_BROADCAST_DIVIDE, "chlo.broadcast_divide", MISC)                 \
    X(CHLO_BROADCAST_MAXIMUM, "chlo.broadcast_maximum", MISC)               \
    X(CHLO_BROADCAST_MINIMUM, "chlo.broadcast_minimum", MISC)               \
    X(CHLO_BROADCAST_MULTIPLY, "chlo.broadcast_multiply", MISC)             \
    X(CHLO_BROADCAST_NEXT_AFTER, "chlo.broadcast_next_after", MISC)         \
    X(CHLO_BROADCAST_POLYGAMMA, "chlo.broadcast_polygamma", MISC)           \
    X(CHLO_BROADCAST_POWER, "chlo.broadcast_power", MISC)                   \
    X(CHLO_BROADCAST_REMAINDER, "chlo.broadcast_remainder", MISC)           \
    X(CHLO_BROADCAST_SHIFT_LEFT, "chlo.broadcast_shift_left", MISC)         \
    X(CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC, "chlo.broadcast_shift_right_arithmetic", MISC) \
    X(CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL, "chlo.broadcast_shift_right_logical", MISC) \
    X(CHLO_BROADCAST_SUBTRACT, "chlo.broadcast_subtract", MISC)             \
    X(CHLO_BROADCAST_ZETA, "chlo.broadcast_zeta", MISC)                     \
    X(CHLO_BROADCAST_AND, "chlo.broadcast_and", MISC)                       \
    X(CHLO_BROADCAST_OR, "chlo.broadcast_or", MISC)                         \
    X(CHLO_BROADCAST_XOR, "chlo.broadcast_xor", MISC)                       \
    X(CHLO_BROADCAST_COMPLEX, "chlo.broadcast_complex", MISC)               \
    X(CHLO_BROADCAST_COMPARE, "chlo.broadcast_compare", MISC)               \
    X(CHLO_BROADCAST_SELECT, "chlo.broadcast_select", MISC)                 \
    /* other dialects' ops that StableHLO programs and tests use */         \
    X(ARITH_CONSTANT, "arith.constant", MISC)                               \
    X(TENSOR_CAST, "tensor.cast", MISC)                                     \
    /* test harness ops (stablehlo/tests/CheckOps, interpreter ops) */      \
    X(CHECK_EXPECT_EQ, "check.expect_eq", CHECK)                            \
    X(CHECK_EXPECT_EQ_CONST, "check.expect_eq_const", CHECK)                \
    X(CHECK_EXPECT_ALMOST_EQ, "check.expect_almost_eq", CHECK)              \
    X(CHECK_EXPECT_ALMOST_EQ_CONST, "check.expect_almost_eq_const", CHECK)  \
    X(CHECK_EXPECT_CLOSE, "check.expect_close", CHECK)                      \
    X(CHECK_EXPECT_SERIALIZED_EQ, "check.expect_serialized_eq", CHECK)      \
    X(INTERP_RUN_PARALLEL, "interpreter.run_parallel", CONTROL)             \
    X(INTERP_PROBE, "interpreter.probe", CHECK)                             \
    X(INTERP_PRINT, "interpreter.print", CHECK)

#endif
