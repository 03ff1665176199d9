/* chips/prices.tsv: $ per chip-hour with sources (chip.h "prices";
 * docs/chips.md "Prices"). */
#include "chip/chip_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const pricing_names[] = {
#define X(e, name) name,
    CHIP_PRICINGS(X)
#undef X
};
_Static_assert(ARRAY_LEN(pricing_names) == CHIP_PRICING_COUNT, "pricing_names");

static const char *const status_names[] = {
#define X(e, name) name,
    CHIP_PRICE_STATUSES(X)
#undef X
};
_Static_assert(ARRAY_LEN(status_names) == CHIP_PRICE_STATUS_COUNT, "status_names");

const char *chip_pricing_name(enum chip_pricing p) { return (unsigned)p < CHIP_PRICING_COUNT ? pricing_names[p] : "?"; }

bool chip_pricing_lookup(const char *name, enum chip_pricing *out)
{
    for (int i = 0; i < CHIP_PRICING_COUNT; i++)
        if (!strcmp(name, pricing_names[i])) {
            *out = (enum chip_pricing)i;
            return true;
        }
    return false;
}

const char *chip_price_status_name(enum chip_price_status s)
{
    return (unsigned)s < CHIP_PRICE_STATUS_COUNT ? status_names[s] : "?";
}

/* The columns, in the file's order. */
#define PRICE_COLUMNS(X)                                                                                               \
    X(CHIP, "chip")                                                                                                    \
    X(PROVIDER, "provider")                                                                                            \
    X(INSTANCE, "instance")                                                                                            \
    X(REGION, "region")                                                                                                \
    X(PRICING, "pricing")                                                                                              \
    X(USD_CHIP, "usd_per_chip_hour")                                                                                   \
    X(USD_INSTANCE, "usd_per_instance_hour")                                                                           \
    X(CHIPS, "chips_per_instance")                                                                                     \
    X(DEFAULT, "default")                                                                                              \
    X(STATUS, "status")                                                                                                \
    X(SOURCE, "source")                                                                                                \
    X(DATE, "source_date")                                                                                             \
    X(NOTES, "notes")
enum {
#define X(e, name) COL_##e,
    PRICE_COLUMNS(X)
#undef X
        COL_COUNT
};
static const char *const col_names[] = {
#define X(e, name) name,
    PRICE_COLUMNS(X)
#undef X
};
_Static_assert(ARRAY_LEN(col_names) == COL_COUNT, "col_names");

struct field {
    const char *s;
    size_t len;
    int col; /* 1-based column of its first byte */
};

/* Copies a field into dst (cap bytes, truncated). */
static void copy_field(char *dst, size_t cap, const struct field *f)
{
    size_t n = f->len < cap - 1 ? f->len : cap - 1;
    memcpy(dst, f->s, n);
    dst[n] = 0;
}

static bool field_is(const struct field *f, const char *word)
{
    return f->len == strlen(word) && !memcmp(f->s, word, f->len);
}

/* A number field ("21.60 (v6e-8)": the leading number; "" 0). */
static bool field_number(const struct field *f, bool need, double *out)
{
    char buf[64];
    copy_field(buf, sizeof buf, f);
    *out = 0;
    if (!buf[0]) return !need;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || errno || v < 0) return false;
    if (need && (*end || v <= 0)) return false;
    *out = v;
    return true;
}

static enum base_status parse_row(const struct field *fl, const char *path, int line, struct chip_price *r,
                                  struct base_diag *diag)
{
    memset(r, 0, sizeof *r);
    r->line = line;
#define BAD(c, ...) base_diag_set(diag, BASE_ERR_INVALID, path, line, fl[c].col, __VA_ARGS__)
    if (!fl[COL_CHIP].len || fl[COL_CHIP].len >= CHIP_NAME_MAX) return BAD(COL_CHIP, "a row needs a chip name");
    copy_field(r->chip, sizeof r->chip, &fl[COL_CHIP]);
    copy_field(r->provider, sizeof r->provider, &fl[COL_PROVIDER]);
    copy_field(r->instance, sizeof r->instance, &fl[COL_INSTANCE]);
    copy_field(r->region, sizeof r->region, &fl[COL_REGION]);
    char word[32];
    copy_field(word, sizeof word, &fl[COL_PRICING]);
    if (!chip_pricing_lookup(word, &r->pricing))
        return BAD(COL_PRICING, "unknown pricing '%s' (on-demand, spot, commit-1y, commit-3y, capacity-block, "
                                "ri-effective)",
                   word);
    if (!field_number(&fl[COL_USD_CHIP], true, &r->usd_per_chip_hour))
        return BAD(COL_USD_CHIP, "usd_per_chip_hour must be a price > 0 (a chip without one has no row)");
    if (!field_number(&fl[COL_USD_INSTANCE], false, &r->usd_per_instance_hour))
        return BAD(COL_USD_INSTANCE, "usd_per_instance_hour must be a number or empty");
    double chips = 0;
    if (!field_number(&fl[COL_CHIPS], false, &chips) || chips != (double)(uint32_t)chips)
        return BAD(COL_CHIPS, "chips_per_instance must be a whole number or empty");
    r->chips_per_instance = (uint32_t)chips;
    if (field_is(&fl[COL_DEFAULT], "yes")) r->is_default = true;
    else if (fl[COL_DEFAULT].len) return BAD(COL_DEFAULT, "default is 'yes' or empty");
    copy_field(word, sizeof word, &fl[COL_STATUS]);
    bool known = false;
    for (int i = 0; i < CHIP_PRICE_STATUS_COUNT && !known; i++)
        if (!strcmp(word, status_names[i])) {
            r->status = (enum chip_price_status)i;
            known = true;
        }
    if (!known)
        return BAD(COL_STATUS, "unknown status '%s' (list, secondary, unconfirmed, low-confidence, estimate)", word);
    if (!fl[COL_SOURCE].len) return BAD(COL_SOURCE, "every price names its source");
    if (!fl[COL_DATE].len) return BAD(COL_DATE, "every price gives its source's date (or says it is not printed)");
    copy_field(r->source, sizeof r->source, &fl[COL_SOURCE]);
    copy_field(r->source_date, sizeof r->source_date, &fl[COL_DATE]);
    copy_field(r->notes, sizeof r->notes, &fl[COL_NOTES]);
#undef BAD
    return BASE_OK;
}

/* Splits one line (without its newline) at tabs into fl[]; returns the count. */
static int split(const char *s, size_t len, struct field *fl, int cap)
{
    int n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++)
        if (i == len || s[i] == '\t') {
            if (n < cap) fl[n] = (struct field){s + start, i - start, (int)start + 1};
            n++;
            start = i + 1;
        }
    return n;
}

enum base_status chip_prices_parse(const char *text, size_t len, const char *path, struct chip_prices *out,
                                   struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path ? path : "prices.tsv");
    path = out->path;
    bool header = false;
    int cap = 0, line = 0;
    size_t pos = 0;
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n') end++;
        line++;
        const char *s = text + pos;
        size_t n = end - pos;
        if (n && s[n - 1] == '\r') n--;
        pos = end + 1;
        if (!n || s[0] == '#') continue;
        struct field fl[COL_COUNT + 1];
        int nf = split(s, n, fl, COL_COUNT + 1);
        if (!header) {
            for (int c = 0; c < COL_COUNT; c++)
                if (c >= nf || !field_is(&fl[c], col_names[c])) {
                    chip_prices_free(out);
                    return base_diag_set(diag, BASE_ERR_INVALID, path, line, c < nf ? fl[c].col : 1,
                                         "the header's column %d must be '%s'", c + 1, col_names[c]);
                }
            if (nf != COL_COUNT) {
                chip_prices_free(out);
                return base_diag_set(diag, BASE_ERR_INVALID, path, line, 1, "the header has %d columns, not %d", nf,
                                     COL_COUNT);
            }
            header = true;
            continue;
        }
        if (nf != COL_COUNT) {
            chip_prices_free(out);
            return base_diag_set(diag, BASE_ERR_INVALID, path, line, 1, "%d tab-separated fields, not %d", nf,
                                 COL_COUNT);
        }
        if (out->n == cap) {
            cap = cap ? 2 * cap : 64;
            struct chip_price *nr = realloc(out->rows, (size_t)cap * sizeof *nr);
            if (!nr) {
                chip_prices_free(out);
                return BASE_ERR_NOMEM;
            }
            out->rows = nr;
        }
        struct chip_price *r = &out->rows[out->n];
        enum base_status st = parse_row(fl, path, line, r, diag);
        for (int i = 0; st == BASE_OK && i < out->n; i++)
            if (r->is_default && out->rows[i].is_default && !strcmp(out->rows[i].chip, r->chip))
                st = base_diag_set(diag, BASE_ERR_INVALID, path, line, fl[COL_DEFAULT].col,
                                   "a second default row for %s (the first: line %d)", r->chip, out->rows[i].line);
        if (st != BASE_OK) {
            chip_prices_free(out);
            return st;
        }
        out->n++;
    }
    if (!header) return base_diag_set(diag, BASE_ERR_INVALID, path, 1, 1, "no header row (chip, provider, ...)");
    return BASE_OK;
}

enum base_status chip_prices_load(const char *path, struct chip_prices *out, struct base_diag *diag)
{
    memset(out, 0, sizeof *out);
    char found[4096], tried[1024] = "";
    if (!path) {
        if (!chip_data_path("prices.tsv", found, sizeof found, tried, sizeof tried))
            return base_diag_set(diag, BASE_ERR_IO, "prices.tsv", 0, 0,
                                 "no prices.tsv in %s (set NPUSIM_CHIPS to the chips directory)", tried);
        path = found;
    }
    char *text;
    size_t len;
    TRY(chip_read_text(path, "prices file", &text, &len, diag));
    enum base_status st = chip_prices_parse(text, len, path, out, diag);
    free(text);
    return st;
}

void chip_prices_free(struct chip_prices *p)
{
    if (!p) return;
    free(p->rows);
    p->rows = NULL;
    p->n = 0;
}

/* Whether the comma-separated list has `item` (trimmed), "all" counting for any. */
static bool list_has(const char *list, const char *item)
{
    size_t n = strlen(item);
    for (const char *s = list; *s;) {
        while (*s == ' ' || *s == ',') s++;
        const char *e = s;
        while (*e && *e != ',') e++;
        const char *t = e;
        while (t > s && t[-1] == ' ') t--;
        if (((size_t)(t - s) == n && !strncmp(s, item, n)) || ((size_t)(t - s) == 3 && !strncmp(s, "all", 3)))
            return true;
        s = e;
    }
    return false;
}

const struct chip_price *chip_price_find(const struct chip_prices *p, const char *chip, int pricing, const char *region)
{
    if (!p || !chip) return NULL;
    for (int i = 0; pricing < 0 && !region && i < p->n; i++)
        if (p->rows[i].is_default && !strcmp(p->rows[i].chip, chip)) return &p->rows[i];
    if (pricing < 0 && !region) return NULL;
    for (int i = 0; i < p->n; i++) {
        const struct chip_price *r = &p->rows[i];
        if (strcmp(r->chip, chip) || (pricing >= 0 && (int)r->pricing != pricing)) continue;
        if (region && !list_has(r->region, region)) continue;
        return r;
    }
    return NULL;
}
