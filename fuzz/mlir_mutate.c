/* Fuzz target with a structure-aware mutator: seeds are valid StableHLO
 * programs, and LLVMFuzzerCustomMutator edits them as MLIR text rather than
 * as bytes: a number becomes an edge value (0, -1, 2^31, 2^63 - 1, 1e308,
 * nan, a huge dim), a word becomes another word of the program or of a
 * dictionary (op names, element types, attributes), a line is duplicated,
 * dropped, swapped or copied, a tensor type's dims change.  Most mutants
 * still tokenise and many still parse, so the verifier, the type rules and
 * the printer are reached far more often than by byte flips.  Each input is
 * parsed, printed and read back to an equal module, and verified (every
 * refusal has a message). */
#include "fuzz/fuzz_util.h"
#include "graph/graph.h"

#include <ctype.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
/* libFuzzer's own byte mutator (absent when replaying: never called then) */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct graph_parse_options opt = {"fuzz.mlir", 0, INT64_C(1) << 16, false};
    struct graph_module *a = NULL, *b = NULL;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = graph_parse((const char *)data, size, &opt, &a, &d);
    if (st != BASE_OK) {
        fuzz_check_refusal(st, &d);
        return 0;
    }
    char *t1 = NULL;
    size_t n1 = 0;
    if (graph_print_str(a, &t1, &n1) != BASE_OK) abort();
    struct graph_parse_options opt2 = {"printed.mlir", 0, INT64_C(1) << 16, false};
    base_diag_clear(&d);
    if (graph_parse(t1, n1, &opt2, &b, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        abort();
    }
    if (!graph_module_equal(a, b)) abort();
    base_diag_clear(&d);
    st = graph_verify(a, &d);
    if (st != BASE_OK) fuzz_check_refusal(st, &d);
    free(t1);
    graph_module_destroy(a);
    graph_module_destroy(b);
    return 0;
}

/* ------------------------------------------------------------ mutator */

static unsigned next(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

static const char *const numbers[] = {"0", "1", "-1", "2", "3", "7", "64", "127", "128", "255", "-128",
                                      "2147483647", "2147483648", "-2147483648", "4294967295", "4294967296",
                                      "9223372036854775807", "-9223372036854775808", "18446744073709551615",
                                      "99999999999", "1.0e308", "-0.0", "0x7FC00000", "0xFFFFFFFF", "1.5e-45"};
static const char *const words[] = {
    "f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64", "ui8", "ui32", "complex<f32>", "f8E4M3FN", "f8E5M2",
    "tensor", "dense", "stablehlo.add", "stablehlo.multiply", "stablehlo.dot_general", "stablehlo.reduce",
    "stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.transpose", "stablehlo.convolution",
    "stablehlo.while", "stablehlo.if", "stablehlo.case", "stablehlo.gather", "stablehlo.scatter", "stablehlo.slice",
    "stablehlo.dynamic_slice", "stablehlo.concatenate", "stablehlo.pad", "stablehlo.iota", "stablehlo.constant",
    "stablehlo.convert", "stablehlo.bitcast_convert", "stablehlo.sort", "stablehlo.select", "stablehlo.compare",
    "stablehlo.all_reduce", "stablehlo.custom_call", "stablehlo.return", "func.return", "func.call",
    "dims", "contracting_dims", "batching_dims", "dimensions", "applies", "across", "EQ", "LT", "SIGNED", "FLOAT",
    "true", "false", "inf", "nan", "?", "!stablehlo.token", "tuple", "#stablehlo.bounds<8, ?>"};

struct tok {
    size_t at, len;
    int kind; /* 0 word, 1 number */
};

/* Words and numbers of the text (at most cap). */
static size_t tokens(const char *s, size_t n, struct tok *t, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k < cap;) {
        unsigned char c = (unsigned char)s[i];
        if (isdigit(c) || (c == '-' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            size_t j = i + 1;
            while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '.' || s[j] == '+' ||
                             ((s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
                j++;
            t[k++] = (struct tok){i, j - i, 1};
            i = j;
        } else if (isalpha(c) || c == '_') {
            size_t j = i + 1;
            while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '.')) j++;
            t[k++] = (struct tok){i, j - i, 0};
            i = j;
        } else {
            i++;
        }
    }
    return k;
}

/* Replaces [at, at+len) of data (size bytes) by rep; the new size, or size
 * unchanged when it would pass max. */
static size_t splice(uint8_t *data, size_t size, size_t max, size_t at, size_t len, const char *rep, size_t rlen)
{
    if (size - len + rlen > max) return size;
    memmove(data + at + rlen, data + at + len, size - at - len);
    memcpy(data + at, rep, rlen);
    return size - len + rlen;
}

/* [start, end) of line number `which` (mod the line count). */
static void line_at(const uint8_t *data, size_t size, unsigned which, size_t *start, size_t *end)
{
    size_t lines = 1;
    for (size_t i = 0; i < size; i++) lines += data[i] == '\n';
    which %= (unsigned)lines;
    size_t i = 0;
    for (unsigned l = 0; l < which; i++)
        if (data[i] == '\n') l++;
    *start = i;
    while (i < size && data[i] != '\n') i++;
    *end = i < size ? i + 1 : i;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    unsigned s = seed;
    enum { TOKS = 4096 };
    static struct tok tk[TOKS];
    size_t nt = tokens((const char *)data, size, tk, TOKS);
    char buf[512];
    switch (next(&s) % 8) {
    case 0: /* a number becomes an edge value */
    case 1: {
        size_t nn = 0;
        for (size_t i = 0; i < nt; i++) nn += tk[i].kind == 1;
        if (!nn) break;
        size_t pick = next(&s) % nn;
        for (size_t i = 0; i < nt; i++)
            if (tk[i].kind == 1 && pick-- == 0) {
                const char *r = numbers[next(&s) % ARRAY_LEN(numbers)];
                return splice(data, size, max_size, tk[i].at, tk[i].len, r, strlen(r));
            }
        break;
    }
    case 2: /* a word becomes a dictionary word */
    case 3: { /* ... or another word of the program */
        if (!nt) break;
        struct tok a = tk[next(&s) % nt];
        if (next(&s) % 2) {
            const char *r = words[next(&s) % ARRAY_LEN(words)];
            return splice(data, size, max_size, a.at, a.len, r, strlen(r));
        }
        struct tok b = tk[next(&s) % nt];
        if (b.len >= sizeof buf) break;
        memcpy(buf, data + b.at, b.len);
        return splice(data, size, max_size, a.at, a.len, buf, b.len);
    }
    case 4: { /* duplicate a line, or copy it elsewhere */
        size_t a0, a1, b0, b1;
        line_at(data, size, next(&s), &a0, &a1);
        line_at(data, size, next(&s), &b0, &b1);
        if (a1 - a0 >= sizeof buf) break;
        memcpy(buf, data + a0, a1 - a0);
        return splice(data, size, max_size, b0, 0, buf, a1 - a0);
    }
    case 5: { /* drop a line */
        size_t a0, a1;
        line_at(data, size, next(&s), &a0, &a1);
        return splice(data, size, max_size, a0, a1 - a0, "", 0);
    }
    case 6: { /* a dim of a tensor type: "NxM" gets another size or loses a dim */
        for (int tries = 0; tries < 8 && nt; tries++) {
            struct tok a = tk[next(&s) % nt];
            if (a.kind != 1 || a.at + a.len >= size || data[a.at + a.len] != 'x') continue;
            static const char *const dims[] = {"0", "1", "2", "3", "?", "65536", "99999999999", ""};
            const char *r = dims[next(&s) % ARRAY_LEN(dims)];
            return splice(data, size, max_size, a.at, a.len + (*r ? 0 : 1), r, strlen(r));
        }
        break;
    }
    default:
        break;
    }
    return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
}
