/* Private to graph/: the canonical shapes of the IR that the parser
 * (parser.c, parse_*.c) and the builder (builder.c) both produce, so a built
 * module and a parsed one are the same IR. */
#ifndef NPUSIM_GRAPH_CANON_INTERNAL_H
#define NPUSIM_GRAPH_CANON_INTERNAL_H

#include "graph/graph.h"

/* Tags of dialect attributes (shared constant strings). */
extern const char GRAPH_TAG_FUNCTION_TYPE[];
extern const char GRAPH_TAG_SDY_SHARDING[];
extern const char GRAPH_TAG_SDY_MESH[];
extern const char GRAPH_TAG_CONV[];
extern const char GRAPH_TAG_DOT[];
extern const char GRAPH_TAG_DOT_ALGORITHM[];
extern const char GRAPH_TAG_PRECISION[];
extern const char GRAPH_TAG_CHLO_PRECISION[];
extern const char GRAPH_TAG_SDY_SUB_AXIS[];
extern const char GRAPH_TAG_BOUNDS[];

/* Sorts attributes by name (an op's attributes, an attribute dictionary);
 * returns a name given twice, or NULL. */
const char *graph_named_attrs_sort(struct graph_named_attr *a, int n);

/* Puts the fields of a tagged dictionary in the order the parser gives them
 * (#stablehlo.dot<...>, #stablehlo.gather<...>, #stablehlo.conv<...>,
 * #sdy.sharding<...>, ...): known fields first, in their order, the others
 * after, as given.  Other tags: unchanged. */
void graph_dict_order_fields(const char *tag, struct graph_named_attr *items, int n);

/* Op attributes in canonical form (docs/graph-ir.md): the name attribute
 * `name` of an op of kind k goes by (interpreter.probe's "iteration" is
 * "iter"), and the element type of the array<...> a 1-D integer dense<...>
 * literal given for it stands for (false: none, the literal stays). */
const char *graph_op_attr_canonical_name(enum graph_op_kind k, const char *name);
bool graph_op_attr_dense_list(enum graph_op_kind k, const char *name, enum base_dtype *elem);
/* dense<[1, 2]> : tensor<2xi64> as array<elem: 1, 2> (new, in arena); a itself
 * when it is not a 1-D (or scalar) integer literal; NULL when out of memory. */
const struct graph_attr *graph_elements_to_dense(struct base_arena *arena, const struct graph_attr *a,
                                                 enum base_dtype elem);

/* v rounded to float type dt (RNE), as a float literal of that type reads; other types: v. */
double graph_parse_round_float(enum base_dtype dt, double v);

/* Whether the regions of an op of kind k are isolated from above (func.func, builtin.module). */
bool graph_op_kind_isolated(enum graph_op_kind k);

/* Every ELEMENTS attribute reachable from m (its attributes, its ops' attributes
 * and types, at any depth), as a heap array (free()) that may name one twice.
 * false when out of memory. */
bool graph_module_elements(const struct graph_module *m, const struct graph_attr ***out, size_t *n);

#endif
