/* Private to graph/: the string builder and the type/attribute printers
 * shared by printer.c and ir.c (graph_type_str). */
#ifndef NPUSIM_GRAPH_PRINT_INTERNAL_H
#define NPUSIM_GRAPH_PRINT_INTERNAL_H

#include "graph/graph.h"

/* A growable (heap) or fixed (caller buffer, truncating) string. */
struct sbuf {
    char *p;
    size_t n;
    size_t cap;
    bool fixed;
    bool oom; /* heap growth failed: content is incomplete */
};

void graph_print_buf_init(struct sbuf *s);
void graph_print_buf_init_fixed(struct sbuf *s, char *buf, size_t cap);
void graph_print_buf_free(struct sbuf *s);
void graph_print_buf_putc(struct sbuf *s, char c);
void graph_print_buf_putn(struct sbuf *s, const char *t, size_t n);
void graph_print_buf_puts(struct sbuf *s, const char *t);
void graph_print_buf_printf(struct sbuf *s, const char *fmt, ...) BASE_PRINTF(2, 3);

/* MLIR spellings. */
void graph_print_type(struct sbuf *s, const struct graph_type *t);
void graph_print_attr(struct sbuf *s, const struct graph_attr *a);
/* A float as a literal MLIR reads back to the same double ("1.0", "2.5e-05"). */
void graph_print_f64(struct sbuf *s, double v);
/* "text" with MLIR escapes. */
void graph_print_string(struct sbuf *s, const char *t, size_t n);
/* @name, quoted when it is not a bare identifier. */
void graph_print_symbol(struct sbuf *s, const char *t, size_t n);

/* Attribute equality (deep; floats and tensors bitwise). */
bool graph_attr_equal(const struct graph_attr *a, const struct graph_attr *b);

#endif
