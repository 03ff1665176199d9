/* Every op npusim knows, once: X(ENUM, "full name", CATEGORY, FLAGS).
 * Expanded into the enum (graph/graph.h) and the table of names, categories
 * and flags (graph/ops.c).  FLAGS is 0 or GRAPH_OPF_* values or-ed together
 * (enum graph_op_flag says what each means); GRAPH_OPF_ELEMENTWISE is not
 * written here: the UNARY, BINARY and TERNARY categories imply it.  Code asks
 * graph_op_kind_has(kind, flag) instead of listing op kinds by hand.
 * Ops not listed parse as GRAPH_OP_UNKNOWN and are reported, never skipped. */
#ifndef NPUSIM_GRAPH_OPS_LIST_H
#define NPUSIM_GRAPH_OPS_LIST_H

#define GRAPH_OPS(X)                                                                               \
    X(UNKNOWN, "<unknown>", MISC, 0)                                                               \
    /* builtin / func / sdy: module structure */                                                   \
    X(MODULE, "builtin.module", META, GRAPH_OPF_REGIONS | GRAPH_OPF_ISOLATED)                      \
    X(FUNC, "func.func", META, GRAPH_OPF_REGIONS | GRAPH_OPF_ISOLATED)                             \
    X(CALL, "func.call", CONTROL, 0)                                                               \
    X(FUNC_RETURN, "func.return", CONTROL, GRAPH_OPF_TERMINATOR)                                   \
    X(SDY_MESH, "sdy.mesh", META, 0)                                                               \
    X(SDY_MANUAL_COMPUTATION, "sdy.manual_computation", CONTROL,                                   \
      GRAPH_OPF_SPMD | GRAPH_OPF_REGIONS | GRAPH_OPF_CONTROL_FLOW)                                 \
    X(SDY_RETURN, "sdy.return", CONTROL, GRAPH_OPF_TERMINATOR)                                     \
    /* annotations that exports carry: the identity on values (sdy.constant \
     * is read as stablehlo.constant, graph_op_kind_from_name) */                                  \
    X(SDY_SHARDING_CONSTRAINT, "sdy.sharding_constraint", MISC, GRAPH_OPF_IDENTITY)                \
    X(SDY_RESHARD, "sdy.reshard", MISC, GRAPH_OPF_IDENTITY)                                        \
    X(SDY_PROPAGATION_BARRIER, "sdy.propagation_barrier", MISC, GRAPH_OPF_IDENTITY)                \
    X(MHLO_COPY, "mhlo.copy", MISC, GRAPH_OPF_IDENTITY)                                            \
    /* elementwise unary */                                                                        \
    X(ABS, "stablehlo.abs", UNARY, 0)                                                              \
    X(CBRT, "stablehlo.cbrt", UNARY, 0)                                                            \
    X(CEIL, "stablehlo.ceil", UNARY, 0)                                                            \
    X(CONVERT, "stablehlo.convert", UNARY, 0)                                                      \
    X(COSINE, "stablehlo.cosine", UNARY, 0)                                                        \
    X(COUNT_LEADING_ZEROS, "stablehlo.count_leading_zeros", UNARY, 0)                              \
    X(EXPONENTIAL, "stablehlo.exponential", UNARY, 0)                                              \
    X(EXPONENTIAL_MINUS_ONE, "stablehlo.exponential_minus_one", UNARY, 0)                          \
    X(FLOOR, "stablehlo.floor", UNARY, 0)                                                          \
    X(IMAG, "stablehlo.imag", UNARY, 0)                                                            \
    X(IS_FINITE, "stablehlo.is_finite", UNARY, 0)                                                  \
    X(LOG, "stablehlo.log", UNARY, 0)                                                              \
    X(LOG_PLUS_ONE, "stablehlo.log_plus_one", UNARY, 0)                                            \
    X(LOGISTIC, "stablehlo.logistic", UNARY, 0)                                                    \
    X(NEGATE, "stablehlo.negate", UNARY, 0)                                                        \
    X(NOT, "stablehlo.not", UNARY, 0)                                                              \
    X(POPCNT, "stablehlo.popcnt", UNARY, 0)                                                        \
    X(REAL, "stablehlo.real", UNARY, 0)                                                            \
    X(REDUCE_PRECISION, "stablehlo.reduce_precision", UNARY, 0)                                    \
    X(ROUND_NEAREST_AFZ, "stablehlo.round_nearest_afz", UNARY, 0)                                  \
    X(ROUND_NEAREST_EVEN, "stablehlo.round_nearest_even", UNARY, 0)                                \
    X(RSQRT, "stablehlo.rsqrt", UNARY, 0)                                                          \
    X(SIGN, "stablehlo.sign", UNARY, 0)                                                            \
    X(SINE, "stablehlo.sine", UNARY, 0)                                                            \
    X(SQRT, "stablehlo.sqrt", UNARY, 0)                                                            \
    X(TAN, "stablehlo.tan", UNARY, 0)                                                              \
    X(TANH, "stablehlo.tanh", UNARY, 0)                                                            \
    X(BITCAST_CONVERT, "stablehlo.bitcast_convert", SHAPE, 0)                                      \
    /* elementwise binary */                                                                       \
    X(ADD, "stablehlo.add", BINARY, GRAPH_OPF_COMMUTATIVE)                                         \
    X(AND, "stablehlo.and", BINARY, GRAPH_OPF_COMMUTATIVE)                                         \
    X(ATAN2, "stablehlo.atan2", BINARY, 0)                                                         \
    X(COMPARE, "stablehlo.compare", BINARY, 0)                                                     \
    X(COMPLEX, "stablehlo.complex", BINARY, 0)                                                     \
    X(DIVIDE, "stablehlo.divide", BINARY, 0)                                                       \
    X(MAXIMUM, "stablehlo.maximum", BINARY, GRAPH_OPF_COMMUTATIVE)                                 \
    X(MINIMUM, "stablehlo.minimum", BINARY, GRAPH_OPF_COMMUTATIVE)                                 \
    X(MULTIPLY, "stablehlo.multiply", BINARY, GRAPH_OPF_COMMUTATIVE)                               \
    X(OR, "stablehlo.or", BINARY, GRAPH_OPF_COMMUTATIVE)                                           \
    X(POWER, "stablehlo.power", BINARY, 0)                                                         \
    X(REMAINDER, "stablehlo.remainder", BINARY, 0)                                                 \
    X(SHIFT_LEFT, "stablehlo.shift_left", BINARY, 0)                                               \
    X(SHIFT_RIGHT_ARITHMETIC, "stablehlo.shift_right_arithmetic", BINARY, 0)                       \
    X(SHIFT_RIGHT_LOGICAL, "stablehlo.shift_right_logical", BINARY, 0)                             \
    X(SUBTRACT, "stablehlo.subtract", BINARY, 0)                                                   \
    X(XOR, "stablehlo.xor", BINARY, GRAPH_OPF_COMMUTATIVE)                                         \
    /* elementwise ternary */                                                                      \
    X(CLAMP, "stablehlo.clamp", TERNARY, 0)                                                        \
    X(SELECT, "stablehlo.select", TERNARY, 0)                                                      \
    /* data movement */                                                                            \
    X(BROADCAST, "stablehlo.broadcast", SHAPE, 0)                                                  \
    X(BROADCAST_IN_DIM, "stablehlo.broadcast_in_dim", SHAPE, 0)                                    \
    X(CONCATENATE, "stablehlo.concatenate", SHAPE, 0)                                              \
    X(DYNAMIC_BROADCAST_IN_DIM, "stablehlo.dynamic_broadcast_in_dim", SHAPE, 0)                    \
    X(DYNAMIC_GATHER, "stablehlo.dynamic_gather", SHAPE, 0)                                        \
    X(DYNAMIC_IOTA, "stablehlo.dynamic_iota", SHAPE, 0)                                            \
    X(DYNAMIC_PAD, "stablehlo.dynamic_pad", SHAPE, 0)                                              \
    X(DYNAMIC_RESHAPE, "stablehlo.dynamic_reshape", SHAPE, 0)                                      \
    X(DYNAMIC_SLICE, "stablehlo.dynamic_slice", SHAPE, 0)                                          \
    X(DYNAMIC_UPDATE_SLICE, "stablehlo.dynamic_update_slice", SHAPE, 0)                            \
    X(GATHER, "stablehlo.gather", SHAPE, 0)                                                        \
    X(GET_DIMENSION_SIZE, "stablehlo.get_dimension_size", SHAPE, 0)                                \
    X(PAD, "stablehlo.pad", SHAPE, 0)                                                              \
    X(REAL_DYNAMIC_SLICE, "stablehlo.real_dynamic_slice", SHAPE, 0)                                \
    X(RESHAPE, "stablehlo.reshape", SHAPE, 0)                                                      \
    X(REVERSE, "stablehlo.reverse", SHAPE, 0)                                                      \
    X(SCATTER, "stablehlo.scatter", SHAPE, GRAPH_OPF_REGIONS)                                      \
    X(SET_DIMENSION_SIZE, "stablehlo.set_dimension_size", SHAPE, 0)                                \
    X(SLICE, "stablehlo.slice", SHAPE, 0)                                                          \
    X(SORT, "stablehlo.sort", SHAPE, GRAPH_OPF_REGIONS)                                            \
    X(TORCH_INDEX_SELECT, "stablehlo.torch_index_select", SHAPE, 0)                                \
    X(TRANSPOSE, "stablehlo.transpose", SHAPE, 0)                                                  \
    /* reductions */                                                                               \
    X(MAP, "stablehlo.map", REDUCE, GRAPH_OPF_REGIONS)                                             \
    X(REDUCE, "stablehlo.reduce", REDUCE, GRAPH_OPF_REGIONS)                                       \
    X(REDUCE_WINDOW, "stablehlo.reduce_window", REDUCE, GRAPH_OPF_REGIONS)                         \
    X(SELECT_AND_SCATTER, "stablehlo.select_and_scatter", REDUCE, GRAPH_OPF_REGIONS)               \
    X(CHLO_SCAN, "chlo.scan", REDUCE, GRAPH_OPF_REGIONS)                                           \
    X(CHLO_TOP_K, "chlo.top_k", REDUCE, 0)                                                         \
    /* linear algebra */                                                                           \
    X(BATCH_NORM_GRAD, "stablehlo.batch_norm_grad", LINALG, 0)                                     \
    X(BATCH_NORM_INFERENCE, "stablehlo.batch_norm_inference", LINALG, 0)                           \
    X(BATCH_NORM_TRAINING, "stablehlo.batch_norm_training", LINALG, 0)                             \
    X(CHOLESKY, "stablehlo.cholesky", LINALG, 0)                                                   \
    X(CONVOLUTION, "stablehlo.convolution", LINALG, GRAPH_OPF_CONTRACTION)                         \
    X(DOT, "stablehlo.dot", LINALG, GRAPH_OPF_CONTRACTION)                                         \
    X(DOT_GENERAL, "stablehlo.dot_general", LINALG, GRAPH_OPF_CONTRACTION)                         \
    X(DYNAMIC_CONV, "stablehlo.dynamic_conv", LINALG, GRAPH_OPF_CONTRACTION)                       \
    X(EINSUM, "stablehlo.einsum", LINALG, GRAPH_OPF_CONTRACTION)                                   \
    X(UNARY_EINSUM, "stablehlo.unary_einsum", LINALG, 0)                                           \
    X(FFT, "stablehlo.fft", LINALG, 0)                                                             \
    X(TRIANGULAR_SOLVE, "stablehlo.triangular_solve", LINALG, 0)                                   \
    X(CHLO_RAGGED_DOT, "chlo.ragged_dot", LINALG, GRAPH_OPF_CONTRACTION)                           \
    /* control flow */                                                                             \
    X(CASE, "stablehlo.case", CONTROL, GRAPH_OPF_REGIONS | GRAPH_OPF_CONTROL_FLOW)                 \
    X(IF, "stablehlo.if", CONTROL, GRAPH_OPF_REGIONS | GRAPH_OPF_CONTROL_FLOW)                     \
    X(WHILE, "stablehlo.while", CONTROL, GRAPH_OPF_REGIONS | GRAPH_OPF_CONTROL_FLOW)               \
    X(RETURN, "stablehlo.return", CONTROL, GRAPH_OPF_TERMINATOR)                                   \
    X(COMPOSITE, "stablehlo.composite", CONTROL, 0)                                                \
    X(OPTIMIZATION_BARRIER, "stablehlo.optimization_barrier", CONTROL, 0)                          \
    X(ASYNC_START, "stablehlo.async_start", CONTROL, GRAPH_OPF_REGIONS)                            \
    X(ASYNC_DONE, "stablehlo.async_done", CONTROL, 0)                                              \
    /* collectives and distribution */                                                             \
    X(ALL_GATHER, "stablehlo.all_gather", COLLECTIVE, GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD)       \
    X(ALL_REDUCE, "stablehlo.all_reduce", COLLECTIVE,                                              \
      GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD | GRAPH_OPF_REGIONS)                                   \
    X(ALL_TO_ALL, "stablehlo.all_to_all", COLLECTIVE, GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD)       \
    X(COLLECTIVE_BROADCAST, "stablehlo.collective_broadcast", COLLECTIVE,                          \
      GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD)                                                       \
    X(COLLECTIVE_PERMUTE, "stablehlo.collective_permute", COLLECTIVE,                              \
      GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD)                                                       \
    X(COLLECTIVE_REDUCE, "stablehlo.collective_reduce", COLLECTIVE,                                \
      GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD | GRAPH_OPF_REGIONS)                                   \
    X(REDUCE_SCATTER, "stablehlo.reduce_scatter", COLLECTIVE,                                      \
      GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD | GRAPH_OPF_REGIONS)                                   \
    X(CROSS_REPLICA_SUM, "stablehlo.cross-replica-sum", COLLECTIVE,                                \
      GRAPH_OPF_COLLECTIVE | GRAPH_OPF_SPMD)                                                       \
    X(PARTITION_ID, "stablehlo.partition_id", COLLECTIVE, GRAPH_OPF_SPMD)                          \
    X(REPLICA_ID, "stablehlo.replica_id", COLLECTIVE, 0)                                           \
    X(SEND, "stablehlo.send", COLLECTIVE, GRAPH_OPF_SPMD)                                          \
    X(RECV, "stablehlo.recv", COLLECTIVE, GRAPH_OPF_SPMD)                                          \
    X(INFEED, "stablehlo.infeed", COLLECTIVE, 0)                                                   \
    X(OUTFEED, "stablehlo.outfeed", COLLECTIVE, 0)                                                 \
    /* quantization */                                                                             \
    X(UNIFORM_QUANTIZE, "stablehlo.uniform_quantize", QUANT, 0)                                    \
    X(UNIFORM_DEQUANTIZE, "stablehlo.uniform_dequantize", QUANT, 0)                                \
    /* misc */                                                                                     \
    X(CONSTANT, "stablehlo.constant", MISC, 0)                                                     \
    X(IOTA, "stablehlo.iota", MISC, 0)                                                             \
    X(RNG, "stablehlo.rng", MISC, 0)                                                               \
    X(RNG_BIT_GENERATOR, "stablehlo.rng_bit_generator", MISC, 0)                                   \
    X(CUSTOM_CALL, "stablehlo.custom_call", MISC, 0)                                               \
    X(AFTER_ALL, "stablehlo.after_all", MISC, 0)                                                   \
    X(CREATE_TOKEN, "stablehlo.create_token", MISC, 0)                                             \
    X(TUPLE, "stablehlo.tuple", MISC, 0)                                                           \
    X(GET_TUPLE_ELEMENT, "stablehlo.get_tuple_element", MISC, 0)                                   \
    /* chlo elementwise (decomposed by the reference pipeline) */                                  \
    X(CHLO_ACOS, "chlo.acos", UNARY, 0)                                                            \
    X(CHLO_ACOSH, "chlo.acosh", UNARY, 0)                                                          \
    X(CHLO_ASIN, "chlo.asin", UNARY, 0)                                                            \
    X(CHLO_ASINH, "chlo.asinh", UNARY, 0)                                                          \
    X(CHLO_ATAN, "chlo.atan", UNARY, 0)                                                            \
    X(CHLO_ATANH, "chlo.atanh", UNARY, 0)                                                          \
    X(CHLO_BESSEL_I1E, "chlo.bessel_i1e", UNARY, 0)                                                \
    X(CHLO_CONJ, "chlo.conj", UNARY, 0)                                                            \
    X(CHLO_COSH, "chlo.cosh", UNARY, 0)                                                            \
    X(CHLO_DIGAMMA, "chlo.digamma", UNARY, 0)                                                      \
    X(CHLO_ERF, "chlo.erf", UNARY, 0)                                                              \
    X(CHLO_ERF_INV, "chlo.erf_inv", UNARY, 0)                                                      \
    X(CHLO_ERFC, "chlo.erfc", UNARY, 0)                                                            \
    X(CHLO_IS_INF, "chlo.is_inf", UNARY, 0)                                                        \
    X(CHLO_IS_NEG_INF, "chlo.is_neg_inf", UNARY, 0)                                                \
    X(CHLO_IS_POS_INF, "chlo.is_pos_inf", UNARY, 0)                                                \
    X(CHLO_LGAMMA, "chlo.lgamma", UNARY, 0)                                                        \
    X(CHLO_SINH, "chlo.sinh", UNARY, 0)                                                            \
    X(CHLO_SQUARE, "chlo.square", UNARY, 0)                                                        \
    X(CHLO_TAN, "chlo.tan", UNARY, 0)                                                              \
    X(CHLO_MULHI, "chlo.mulhi", BINARY, 0)                                                         \
    X(CHLO_NEXT_AFTER, "chlo.next_after", BINARY, 0)                                               \
    X(CHLO_POLYGAMMA, "chlo.polygamma", BINARY, 0)                                                 \
    X(CHLO_ZETA, "chlo.zeta", BINARY, 0)                                                           \
    X(CHLO_ASIN_ACOS_KERNEL, "chlo._asin_acos_kernel", MISC, 0)                                    \
    X(CHLO_CONSTANT, "chlo.constant", MISC, 0)                                                     \
    X(CHLO_CONSTANT_LIKE, "chlo.constant_like", MISC, 0)                                           \
    X(CHLO_BROADCAST_ADD, "chlo.broadcast_add", MISC, 0)                                           \
    X(CHLO_BROADCAST_ATAN2, "chlo.broadcast_atan2", MISC, 0)                                       \
    X(CHLO_BROADCAST_DIVIDE, "chlo.broadcast_divide", MISC, 0)                                     \
    X(CHLO_BROADCAST_MAXIMUM, "chlo.broadcast_maximum", MISC, 0)                                   \
    X(CHLO_BROADCAST_MINIMUM, "chlo.broadcast_minimum", MISC, 0)                                   \
    X(CHLO_BROADCAST_MULTIPLY, "chlo.broadcast_multiply", MISC, 0)                                 \
    X(CHLO_BROADCAST_NEXT_AFTER, "chlo.broadcast_next_after", MISC, 0)                             \
    X(CHLO_BROADCAST_POLYGAMMA, "chlo.broadcast_polygamma", MISC, 0)                               \
    X(CHLO_BROADCAST_POWER, "chlo.broadcast_power", MISC, 0)                                       \
    X(CHLO_BROADCAST_REMAINDER, "chlo.broadcast_remainder", MISC, 0)                               \
    X(CHLO_BROADCAST_SHIFT_LEFT, "chlo.broadcast_shift_left", MISC, 0)                             \
    X(CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC, "chlo.broadcast_shift_right_arithmetic", MISC, 0)     \
    X(CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL, "chlo.broadcast_shift_right_logical", MISC, 0)           \
    X(CHLO_BROADCAST_SUBTRACT, "chlo.broadcast_subtract", MISC, 0)                                 \
    X(CHLO_BROADCAST_ZETA, "chlo.broadcast_zeta", MISC, 0)                                         \
    X(CHLO_BROADCAST_AND, "chlo.broadcast_and", MISC, 0)                                           \
    X(CHLO_BROADCAST_OR, "chlo.broadcast_or", MISC, 0)                                             \
    X(CHLO_BROADCAST_XOR, "chlo.broadcast_xor", MISC, 0)                                           \
    X(CHLO_BROADCAST_COMPLEX, "chlo.broadcast_complex", MISC, 0)                                   \
    X(CHLO_BROADCAST_COMPARE, "chlo.broadcast_compare", MISC, 0)                                   \
    X(CHLO_BROADCAST_SELECT, "chlo.broadcast_select", MISC, 0)                                     \
    X(ARITH_CONSTANT, "arith.constant", MISC, 0)                                                   \
    X(TENSOR_CAST, "tensor.cast", MISC, 0)                                                         \
    /* test harness ops (stablehlo/tests/CheckOps, interpreter ops) */                             \
    X(CHECK_EXPECT_EQ, "check.expect_eq", CHECK, GRAPH_OPF_VALUE_CHECK)                            \
    X(CHECK_EXPECT_EQ_CONST, "check.expect_eq_const", CHECK, GRAPH_OPF_VALUE_CHECK)                \
    X(CHECK_EXPECT_ALMOST_EQ, "check.expect_almost_eq", CHECK, GRAPH_OPF_VALUE_CHECK)              \
    X(CHECK_EXPECT_ALMOST_EQ_CONST, "check.expect_almost_eq_const", CHECK,                         \
      GRAPH_OPF_VALUE_CHECK)                                                                       \
    X(CHECK_EXPECT_CLOSE, "check.expect_close", CHECK, GRAPH_OPF_VALUE_CHECK)                      \
    X(CHECK_EXPECT_SERIALIZED_EQ, "check.expect_serialized_eq", CHECK, GRAPH_OPF_PROBE)            \
    X(INTERP_RUN_PARALLEL, "interpreter.run_parallel", CONTROL, 0)                                 \
    X(INTERP_PROBE, "interpreter.probe", CHECK, GRAPH_OPF_PROBE)                                   \
    X(INTERP_PRINT, "interpreter.print", CHECK, 0)

#endif
