/* The ops of the VHLO dialect (stablehlo/dialect/VhloOps.td, StableHLO
 * v1.20.0): name, first and last StableHLO version that writes it, and its
 * attributes sorted by name, which is their order in the op's properties
 * (bytecode 6, StableHLO 0.15 on).  An op's StableHLO counterpart is
 * "stablehlo." + its name without the _vN suffix (func/call/return: func.*).
 * X(name, min_version, max_version, A("attr", ...)) */
#ifndef NPUSIM_GRAPH_BYTECODE_VHLO_LIST_H
#define NPUSIM_GRAPH_BYTECODE_VHLO_LIST_H

#define GRAPH_BC_VHLO_OPS(X) \
    X("abs_v1", "0.9.0", "current", A()) \
    X("add_v1", "0.9.0", "current", A()) \
    X("after_all_v1", "0.9.0", "current", A()) \
    X("all_gather_v1", "0.9.0", "1.4.0", A("all_gather_dim", "channel_id", "replica_groups", "use_global_device_ids",)) \
    X("all_gather_v2", "1.5.0", "current", A("all_gather_dim", "channel_id", "replica_groups", "use_global_device_ids",)) \
    X("all_reduce_v1", "0.9.0", "1.4.0", A("channel_id", "replica_groups", "use_global_device_ids",)) \
    X("all_reduce_v2", "1.5.0", "current", A("channel_id", "replica_groups", "use_global_device_ids",)) \
    X("all_to_all_v1", "0.9.0", "1.4.0", A("channel_id", "concat_dimension", "replica_groups", "split_count", "split_dimension",)) \
    X("all_to_all_v2", "1.5.0", "current", A("channel_id", "concat_dimension", "replica_groups", "split_count", "split_dimension",)) \
    X("and_v1", "0.9.0", "current", A()) \
    X("async_done_v1", "1.15.0", "current", A()) \
    X("async_start_v1", "1.15.0", "current", A()) \
    X("atan2_v1", "0.9.0", "current", A()) \
    X("batch_norm_grad_v1", "0.9.0", "current", A("epsilon", "feature_index",)) \
    X("batch_norm_inference_v1", "0.9.0", "current", A("epsilon", "feature_index",)) \
    X("batch_norm_training_v1", "0.9.0", "current", A("epsilon", "feature_index",)) \
    X("bitcast_convert_v1", "0.9.0", "current", A()) \
    X("broadcast_in_dim_v1", "0.9.0", "current", A("broadcast_dimensions",)) \
    X("broadcast_v1", "0.9.0", "current", A("broadcast_sizes",)) \
    X("call_v1", "0.9.0", "current", A("callee",)) \
    X("case_v1", "0.9.0", "current", A()) \
    X("cbrt_v1", "0.9.0", "1.9.0", A()) \
    X("cbrt_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("ceil_v1", "0.9.0", "current", A()) \
    X("cholesky_v1", "0.9.0", "current", A("lower",)) \
    X("clamp_v1", "0.9.0", "current", A()) \
    X("collective_broadcast_v1", "0.16.0", "1.19.0", A("channel_id", "replica_groups",)) \
    X("collective_broadcast_v2", "1.20.0", "current", A("channel_id", "has_dynamic_root", "replica_groups",)) \
    X("collective_permute_v1", "0.9.0", "current", A("channel_id", "source_target_pairs",)) \
    X("collective_reduce_v1", "1.19.0", "current", A("channel_id", "has_dynamic_root", "replica_groups", "use_global_device_ids",)) \
    X("compare_v1", "0.9.0", "current", A("compare_type", "comparison_direction",)) \
    X("complex_v1", "0.9.0", "current", A()) \
    X("composite_v1", "0.19.0", "1.13.0", A("composite_attributes", "decomposition", "name", "version",)) \
    X("composite_v2", "1.14.0", "current", A("composite_attributes", "decomposition", "name", "version",)) \
    X("concatenate_v1", "0.9.0", "current", A("dimension",)) \
    X("constant_v1", "0.9.0", "current", A("value",)) \
    X("convert_v1", "0.9.0", "current", A()) \
    X("convolution_v1", "0.9.0", "current", A("batch_group_count", "feature_group_count", "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions", "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions", "lhs_dilation", "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions", "padding", "precision_config", "rhs_dilation", "window_reversal", "window_strides",)) \
    X("cosine_v1", "0.9.0", "1.9.0", A()) \
    X("cosine_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("count_leading_zeros_v1", "0.9.0", "current", A()) \
    X("create_token_v1", "0.9.0", "current", A()) \
    X("cross-replica-sum_v1", "0.9.0", "current", A("replica_groups",)) \
    X("custom_call_v1", "0.9.0", "1.17.0", A("api_version", "backend_config", "call_target_name", "called_computations", "has_side_effect", "operand_layouts", "output_operand_aliases", "result_layouts",)) \
    X("custom_call_v2", "1.18.0", "current", A("api_version", "backend_config", "call_target_name", "called_computations", "has_side_effect", "operand_layouts", "output_operand_aliases", "result_layouts", "result_tilings",)) \
    X("divide_v1", "0.9.0", "current", A()) \
    X("dot_general_v1", "0.9.0", "1.5.0", A("lhs_batching_dimensions", "lhs_contracting_dimensions", "precision_config", "rhs_batching_dimensions", "rhs_contracting_dimensions",)) \
    X("dot_general_v2", "1.6.0", "current", A("accumulation_type", "allow_imprecise_accumulation", "lhs_batching_dimensions", "lhs_component_count", "lhs_contracting_dimensions", "lhs_precision_type", "num_primitive_operations", "precision_config", "rhs_batching_dimensions", "rhs_component_count", "rhs_contracting_dimensions", "rhs_precision_type",)) \
    X("dot_v1", "0.9.0", "current", A("precision_config",)) \
    X("dynamic_broadcast_in_dim_v1", "0.9.0", "current", A("broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions",)) \
    X("dynamic_conv_v1", "0.9.0", "0.19.0", A("batch_group_count", "feature_group_count", "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions", "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions", "lhs_dilation", "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions", "padding", "precision_config", "rhs_dilation", "window_reversal", "window_strides",)) \
    X("dynamic_conv_v2", "0.20.0", "current", A("batch_group_count", "feature_group_count", "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions", "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions", "lhs_dilation", "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions", "precision_config", "rhs_dilation", "window_reversal", "window_strides",)) \
    X("dynamic_gather_v1", "0.9.0", "1.0.0", A("collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "start_index_map",)) \
    X("dynamic_gather_v2", "1.1.0", "current", A("collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "operand_batching_dims", "start_index_map", "start_indices_batching_dims",)) \
    X("dynamic_iota_v1", "0.9.0", "current", A("iota_dimension",)) \
    X("dynamic_pad_v1", "0.9.0", "current", A()) \
    X("dynamic_reshape_v1", "0.9.0", "current", A()) \
    X("dynamic_slice_v1", "0.9.0", "current", A("slice_sizes",)) \
    X("dynamic_update_slice_v1", "0.9.0", "current", A()) \
    X("einsum_v1", "0.9.0", "current", A("einsum_config",)) \
    X("exponential_minus_one_v1", "0.9.0", "1.9.0", A()) \
    X("exponential_minus_one_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("exponential_v1", "0.9.0", "1.8.0", A()) \
    X("exponential_v2", "1.9.0", "current", A("result_accuracy",)) \
    X("fft_v1", "0.9.0", "current", A("fft_length", "fft_type",)) \
    X("floor_v1", "0.9.0", "current", A()) \
    X("func_v1", "0.9.0", "current", A("arg_attrs", "function_type", "res_attrs", "sym_name", "sym_visibility",)) \
    X("gather_v1", "0.9.0", "1.0.0", A("collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "slice_sizes", "start_index_map",)) \
    X("gather_v2", "1.1.0", "current", A("collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "operand_batching_dims", "slice_sizes", "start_index_map", "start_indices_batching_dims",)) \
    X("get_dimension_size_v1", "0.9.0", "current", A("dimension",)) \
    X("get_tuple_element_v1", "0.9.0", "current", A("index",)) \
    X("if_v1", "0.9.0", "current", A()) \
    X("imag_v1", "0.9.0", "current", A()) \
    X("infeed_v1", "0.9.0", "current", A("infeed_config", "layout",)) \
    X("iota_v1", "0.9.0", "current", A("iota_dimension",)) \
    X("is_finite_v1", "0.9.0", "current", A()) \
    X("log_plus_one_v1", "0.9.0", "1.9.0", A()) \
    X("log_plus_one_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("log_v1", "0.9.0", "1.9.0", A()) \
    X("log_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("logistic_v1", "0.9.0", "1.9.0", A()) \
    X("logistic_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("map_v1", "0.9.0", "current", A("dimensions",)) \
    X("maximum_v1", "0.9.0", "current", A()) \
    X("minimum_v1", "0.9.0", "current", A()) \
    X("multiply_v1", "0.9.0", "current", A()) \
    X("negate_v1", "0.9.0", "current", A()) \
    X("not_v1", "0.9.0", "current", A()) \
    X("optimization_barrier_v1", "0.9.0", "current", A()) \
    X("or_v1", "0.9.0", "current", A()) \
    X("outfeed_v1", "0.9.0", "current", A("outfeed_config",)) \
    X("pad_v1", "0.9.0", "current", A("edge_padding_high", "edge_padding_low", "interior_padding",)) \
    X("partition_id_v1", "0.9.0", "current", A()) \
    X("popcnt_v1", "0.9.0", "current", A()) \
    X("power_v1", "0.9.0", "current", A()) \
    X("real_dynamic_slice_v1", "0.9.0", "current", A()) \
    X("real_v1", "0.9.0", "current", A()) \
    X("recv_v1", "0.9.0", "1.11.0", A("channel_id", "channel_type", "is_host_transfer",)) \
    X("recv_v2", "1.12.0", "current", A("channel_id", "channel_type", "is_host_transfer", "source_target_pairs",)) \
    X("reduce_precision_v1", "0.9.0", "current", A("exponent_bits", "mantissa_bits",)) \
    X("reduce_scatter_v1", "0.9.0", "current", A("channel_id", "replica_groups", "scatter_dimension", "use_global_device_ids",)) \
    X("reduce_v1", "0.9.0", "current", A("dimensions",)) \
    X("reduce_window_v1", "0.9.0", "current", A("base_dilations", "padding", "window_dilations", "window_dimensions", "window_strides",)) \
    X("remainder_v1", "0.9.0", "current", A()) \
    X("replica_id_v1", "0.9.0", "current", A()) \
    X("reshape_v1", "0.9.0", "current", A()) \
    X("return_v1", "0.9.0", "current", A()) \
    X("reverse_v1", "0.9.0", "current", A("dimensions",)) \
    X("rng_bit_generator_v1", "0.9.0", "current", A("rng_algorithm",)) \
    X("rng_v1", "0.9.0", "current", A("rng_distribution",)) \
    X("round_nearest_afz_v1", "0.9.0", "current", A()) \
    X("round_nearest_even_v1", "0.9.0", "current", A()) \
    X("rsqrt_v1", "0.9.0", "1.9.0", A()) \
    X("rsqrt_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("scatter_v1", "0.9.0", "1.0.0", A("index_vector_dim", "indices_are_sorted", "inserted_window_dims", "scatter_dims_to_operand_dims", "unique_indices", "update_window_dims",)) \
    X("scatter_v2", "1.1.0", "current", A("index_vector_dim", "indices_are_sorted", "input_batching_dims", "inserted_window_dims", "scatter_dims_to_operand_dims", "scatter_indices_batching_dims", "unique_indices", "update_window_dims",)) \
    X("select_and_scatter_v1", "0.9.0", "current", A("padding", "window_dimensions", "window_strides",)) \
    X("select_v1", "0.9.0", "current", A()) \
    X("send_v1", "0.9.0", "1.11.0", A("channel_id", "channel_type", "is_host_transfer",)) \
    X("send_v2", "1.12.0", "current", A("channel_id", "channel_type", "is_host_transfer", "source_target_pairs",)) \
    X("set_dimension_size_v1", "0.9.0", "current", A("dimension",)) \
    X("shift_left_v1", "0.9.0", "current", A()) \
    X("shift_right_arithmetic_v1", "0.9.0", "current", A()) \
    X("shift_right_logical_v1", "0.9.0", "current", A()) \
    X("sign_v1", "0.9.0", "current", A()) \
    X("sine_v1", "0.9.0", "1.9.0", A()) \
    X("sine_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("slice_v1", "0.9.0", "current", A("limit_indices", "start_indices", "strides",)) \
    X("sort_v1", "0.9.0", "current", A("dimension", "is_stable",)) \
    X("sqrt_v1", "0.9.0", "1.9.0", A()) \
    X("sqrt_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("subtract_v1", "0.9.0", "current", A()) \
    X("tan_v1", "1.4.0", "1.9.0", A()) \
    X("tan_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("tanh_v1", "0.9.0", "1.9.0", A()) \
    X("tanh_v2", "1.10.0", "current", A("result_accuracy",)) \
    X("torch_index_select_v1", "0.9.0", "current", A("batch_dims", "dim",)) \
    X("transpose_v1", "0.9.0", "current", A("permutation",)) \
    X("triangular_solve_v1", "0.9.0", "current", A("left_side", "lower", "transpose_a", "unit_diagonal",)) \
    X("tuple_v1", "0.9.0", "current", A()) \
    X("unary_einsum_v1", "0.9.0", "current", A("einsum_config",)) \
    X("uniform_dequantize_v1", "0.9.0", "current", A()) \
    X("uniform_quantize_v1", "0.9.0", "current", A()) \
    X("while_v1", "0.9.0", "current", A()) \
    X("xor_v1", "0.9.0", "current", A())

#endif
