/* Character-level scanning for the StableHLO text parser. */
#include "graph/lexer.h"

#include <stdlib.h>
#include <string.h>

const char *graph_lex_skip_ws(const char *p, const char *end)
{
    while (p < end) {
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            p++;
        } else if (c == '/' && p + 1 < end && p[1] == '/') {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl + 1 : end;
        } else {
            break;
        }
    }
    return p;
}

size_t graph_lex_bare_id(const char *p, const char *end)
{
    if (p >= end || !lex_is_id_start(*p)) return 0;
    const char *q = p + 1;
    while (q < end && lex_is_id_char(*q)) q++;
    return (size_t)(q - p);
}

size_t graph_lex_suffix_id(const char *p, const char *end)
{
    if (p >= end) return 0;
    const char *q = p;
    if (lex_is_digit(*q)) {
        while (q < end && lex_is_digit(*q)) q++;
        return (size_t)(q - p);
    }
    if (!(lex_is_alpha(*q) || *q == '_' || *q == '$' || *q == '.' || *q == '-')) return 0;
    while (q < end && lex_is_suffix_char(*q)) q++;
    return (size_t)(q - p);
}

size_t graph_lex_string(const char *p, const char *end)
{
    if (p >= end || *p != '"') return 0;
    const char *close = memchr(p + 1, '"', (size_t)(end - p - 1));
    if (close && !memchr(p + 1, '\\', (size_t)(close - p - 1)) && !memchr(p + 1, '\n', (size_t)(close - p - 1)))
        return (size_t)(close + 1 - p);
    const char *q = p + 1;
    while (q < end) {
        char c = *q;
        if (c == '"') return (size_t)(q + 1 - p);
        if (c == '\n') return 0;
        if (c == '\\') {
            if (q + 1 >= end) return 0;
            q += 2;
            continue;
        }
        q++;
    }
    return 0;
}

int graph_lex_hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

size_t graph_lex_unescape(const char *p, size_t n, char *out)
{
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c != '\\') {
            out[j++] = c;
            continue;
        }
        if (++i >= n) return SIZE_MAX;
        c = p[i];
        switch (c) {
        case '"':
        case '\\':
            out[j++] = c;
            break;
        case 'n':
            out[j++] = '\n';
            break;
        case 't':
            out[j++] = '\t';
            break;
        default: {
            int h = graph_lex_hex_digit(c), l = i + 1 < n ? graph_lex_hex_digit(p[i + 1]) : -1;
            if (h < 0 || l < 0) return SIZE_MAX;
            out[j++] = (char)(h * 16 + l);
            i++;
        }
        }
    }
    return j;
}

size_t graph_lex_number(const char *p, const char *end, struct graph_lex_number *out)
{
    memset(out, 0, sizeof *out);
    if (p >= end || !lex_is_digit(*p)) return 0;
    const char *q = p;
    if (*q == '0' && q + 2 <= end && q + 1 < end && (q[1] == 'x' || q[1] == 'X') && q + 2 < end &&
        graph_lex_hex_digit(q[2]) >= 0) {
        q += 2;
        uint64_t v = 0;
        while (q < end && graph_lex_hex_digit(*q) >= 0) {
            if (v >> 60) out->overflow = true;
            v = (v << 4) | (uint64_t)graph_lex_hex_digit(*q);
            q++;
        }
        out->is_hex = true;
        out->mag = v;
        out->len = (size_t)(q - p);
        return out->len;
    }
    uint64_t v = 0;
    while (q < end && lex_is_digit(*q)) {
        uint64_t d = (uint64_t)(*q - '0');
        if (v > (UINT64_MAX - d) / 10) out->overflow = true;
        v = v * 10 + d;
        q++;
    }
    out->mag = v;
    if (q < end && *q == '.') {
        out->is_float = true;
        q++;
        while (q < end && lex_is_digit(*q)) q++;
        if (q < end && (*q == 'e' || *q == 'E')) {
            const char *e = q + 1;
            if (e < end && (*e == '+' || *e == '-')) e++;
            if (e < end && lex_is_digit(*e)) {
                while (e < end && lex_is_digit(*e)) e++;
                q = e;
            }
        }
    }
    out->len = (size_t)(q - p);
    return out->len;
}

/* Powers of ten that are exact doubles. */
static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

bool graph_lex_parse_f64(const char *p, size_t n, double *out)
{
    const char *q = p, *end = p + n;
    uint64_t m = 0;
    int nd = 0;         /* significant digits taken into m */
    int exp10 = 0;
    bool inexact = false;
    while (q < end && lex_is_digit(*q)) {
        int d = *q - '0';
        if (nd < 19) {
            if (m || d) {
                m = m * 10 + (uint64_t)d;
                nd++;
            }
        } else {
            exp10++;
            if (d) inexact = true;
        }
        q++;
    }
    if (q < end && *q == '.') {
        q++;
        while (q < end && lex_is_digit(*q)) {
            int d = *q - '0';
            if (nd < 19) {
                if (m || d) {
                    m = m * 10 + (uint64_t)d;
                    nd++;
                }
                exp10--;
            } else if (d) {
                inexact = true;
            }
            q++;
        }
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        q++;
        bool neg = false;
        if (q < end && (*q == '+' || *q == '-')) neg = *q++ == '-';
        int e = 0;
        while (q < end && lex_is_digit(*q)) {
            if (e < 100000) e = e * 10 + (*q - '0');
            q++;
        }
        exp10 += neg ? -e : e;
    }
    if (m == 0 && !inexact) {
        *out = 0.0;
        return true;
    }
    if (!inexact && m <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
        /* both operands exact: one IEEE rounding */
        double d = (double)m;
        *out = exp10 < 0 ? d / exact_pow10[-exp10] : d * exact_pow10[exp10];
        return true;
    }
    char buf[512];
    if (n >= sizeof buf) return false;
    memcpy(buf, p, n);
    buf[n] = 0;
    *out = strtod(buf, NULL);
    return true;
}
