/* Character-level scanning for the StableHLO text parser (private to graph/).
 *
 * The parser is scannerless: MLIR's syntax is context sensitive (`2x3xf32`
 * inside a tensor type, `->` inside attribute brackets, hex blobs), so the
 * parser reads characters directly and these helpers recognise the lexical
 * classes.  Every function takes an explicit end pointer: the input is not
 * NUL-terminated. */
#ifndef NPUSIM_GRAPH_LEXER_H
#define NPUSIM_GRAPH_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool lex_is_digit(char c) { return c >= '0' && c <= '9'; }
static inline bool lex_is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
/* bare-id ::= (letter|[_]) (letter|digit|[_$.])* */
static inline bool lex_is_id_start(char c) { return lex_is_alpha(c) || c == '_'; }
static inline bool lex_is_id_char(char c)
{
    return lex_is_alpha(c) || lex_is_digit(c) || c == '_' || c == '$' || c == '.';
}
/* suffix-id (after % ^ # !): digits, or [a-zA-Z$._-][a-zA-Z0-9$._-]* */
static inline bool lex_is_suffix_char(char c)
{
    return lex_is_alpha(c) || lex_is_digit(c) || c == '_' || c == '$' || c == '.' || c == '-';
}
static inline bool lex_is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Skips whitespace and // comments. */
const char *graph_lex_skip_ws(const char *p, const char *end);
/* Length of the bare identifier at p (0 if none). */
size_t graph_lex_bare_id(const char *p, const char *end);
/* Length of the suffix id at p (the part after %, ^, #, !; 0 if none). */
size_t graph_lex_suffix_id(const char *p, const char *end);
/* Length of the string literal starting at p (which is '"'), quotes included;
 * 0 when it is not terminated on its line or before end. */
size_t graph_lex_string(const char *p, const char *end);
/* Decodes the body of a string literal (without quotes) into out (at least n
 * bytes).  Returns the decoded length, or SIZE_MAX on a bad escape. */
size_t graph_lex_unescape(const char *p, size_t n, char *out);
int graph_lex_hex_digit(char c);

/* An unsigned numeric literal: [0-9]+ ('.' [0-9]* ([eE][+-]?[0-9]+)?)? or 0x[0-9a-fA-F]+ */
struct graph_lex_number {
    bool is_float;
    bool is_hex;
    bool overflow; /* integer magnitude does not fit in 64 bits */
    uint64_t mag;  /* integer value (decimal or hex) */
    size_t len;
};
/* Returns the literal's length (0 if p does not start a number). */
size_t graph_lex_number(const char *p, const char *end, struct graph_lex_number *out);
/* Decimal text (digits, optional fraction and exponent, no sign) to the
 * correctly rounded double.  Fast exact path for <= 19 significant digits and
 * small exponents, strtod otherwise.  False when the text is too long. */
bool graph_lex_parse_f64(const char *p, size_t n, double *out);

#endif
