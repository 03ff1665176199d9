/* Input scripts (--script): replay zoom, pan, clicks, keys and search
 * through the same handlers the window's events go to. */
#include "visualizer/viz_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool viz_time_parse(const char *s, uint64_t *out_ps)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno || !(x >= 0) || isinf(x)) return false;
    static const struct {
        const char *suffix;
        double mul;
    } units[] = {{"", 1}, {"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"\xC2\xB5s", 1e6}, {"ms", 1e9}, {"s", 1e12}};
    for (size_t i = 0; i < ARRAY_LEN(units); i++) {
        if (strcmp(end, units[i].suffix) == 0) {
            double ps = x * units[i].mul;
            if (ps >= 1.8e19) return false;
            *out_ps = (uint64_t)floor(ps + 0.5);
            return true;
        }
    }
    return false;
}

/* Splits line into at most max words (the last keeps the rest of the line). */
static int split(char *line, char **w, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        w[n++] = p;
        if (n == max) break;
        while (*p && *p != ' ' && *p != '\t') p++;
        if (*p) *p++ = 0;
    }
    if (n > 0) { /* trim the last word's trailing blanks */
        char *e = w[n - 1] + strlen(w[n - 1]);
        while (e > w[n - 1] && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
    }
    return n;
}

static bool to_int(const char *s, int *out)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || *end || x < -1000000 || x > 1000000) return false;
    *out = (int)x;
    return true;
}

static enum base_status run_line(struct viz_viewer *v, char *line, const char *name, int lineno,
                                 struct base_diag *diag)
{
    char *w[5];
    int n = split(line, w, 2);
    if (n == 0 || w[0][0] == '#') return BASE_OK;
    const char *cmd = w[0];
    char *rest = n > 1 ? w[1] : (char *)"";
    int a[4];
#define BAD(...) return base_diag_set(diag, BASE_ERR_PARSE, name, lineno, 1, __VA_ARGS__)
    if (!strcmp(cmd, "type") || !strcmp(cmd, "search")) {
        if (!strcmp(cmd, "search")) viz_input_key(v, "/");
        /* one character at a time, as a keyboard delivers it */
        const unsigned char *p = (const unsigned char *)rest;
        while (*p) {
            char ch[5] = {0};
            size_t k = 1;
            if (*p >= 0xC0) k = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : 2;
            for (size_t i = 0; i < k && p[i]; i++) ch[i] = (char)p[i];
            p += strlen(ch);
            viz_input_text(v, ch);
        }
        if (!strcmp(cmd, "search")) viz_input_key(v, "Return");
        return BASE_OK;
    }
    char *args[5];
    int na = split(rest, args, 5);
    if (!strcmp(cmd, "range")) {
        uint64_t t0, t1;
        if (na != 2 || !viz_time_parse(args[0], &t0) || !viz_time_parse(args[1], &t1) || t1 <= t0)
            BAD("script: want `range T0 T1` with T0 < T1 (e.g. range 1us 2.5us)");
        viz_set_range(v, t0, t1);
    } else if (!strcmp(cmd, "key")) {
        int times = 1;
        if (na < 1 || na > 2 || (na == 2 && (!to_int(args[1], &times) || times < 0)))
            BAD("script: want `key NAME [N]`");
        for (int i = 0; i < times; i++)
            if (!viz_input_key(v, args[0])) BAD("script: unknown key '%s' (SDL key names: W, Escape, Return, /)", args[0]);
    } else if (!strcmp(cmd, "move") || !strcmp(cmd, "click")) {
        if (na != 2 || !to_int(args[0], &a[0]) || !to_int(args[1], &a[1])) BAD("script: want `%s X Y`", cmd);
        viz_input_motion(v, a[0], a[1]);
        if (!strcmp(cmd, "click")) {
            viz_input_button(v, a[0], a[1], true);
            viz_input_button(v, a[0], a[1], false);
        }
    } else if (!strcmp(cmd, "drag")) {
        if (na != 4) BAD("script: want `drag X0 Y0 X1 Y1`");
        for (int i = 0; i < 4; i++)
            if (!to_int(args[i], &a[i])) BAD("script: want `drag X0 Y0 X1 Y1`");
        viz_input_motion(v, a[0], a[1]);
        viz_input_button(v, a[0], a[1], true);
        for (int s = 1; s <= 8; s++) viz_input_motion(v, a[0] + (a[2] - a[0]) * s / 8, a[1] + (a[3] - a[1]) * s / 8);
        viz_input_button(v, a[2], a[3], false);
    } else if (!strcmp(cmd, "wheel")) {
        if (na != 3 || !to_int(args[0], &a[0]) || !to_int(args[1], &a[1]) || !to_int(args[2], &a[2]))
            BAD("script: want `wheel X Y N`");
        viz_input_motion(v, a[0], a[1]);
        viz_input_wheel(v, a[0], a[1], a[2]);
    } else if (!strcmp(cmd, "collapse") || !strcmp(cmd, "expand") || !strcmp(cmd, "toggle")) {
        if (na != 1) BAD("script: want `%s PATH` (all, cores, chip0, chip0/core1, chip0/core1/dma, B:chip0)", cmd);
        int how = !strcmp(cmd, "collapse") ? 1 : !strcmp(cmd, "expand") ? 0 : -1;
        if (!viz_collapse(v, args[0], how))
            BAD("script: %s %s: no such group (all, cores, chipN, chipN/coreM, chipN/coreM/engines|dma|counters; "
                "A: or B: first in a compare view)",
                cmd, args[0]);
    } else if (!strcmp(cmd, "group")) {
        if (na != 1 || !viz_set_group(v, args[0])) BAD("script: want `group op|kind|kernel|source`");
    } else if (!strcmp(cmd, "render")) {
        TRY(viz_render(v, diag));
    } else if (!strcmp(cmd, "screenshot")) {
        if (na != 1) BAD("script: want `screenshot PATH`");
        TRY(viz_render(v, diag));
        TRY(viz_write_png(v, args[0], diag));
    } else {
        BAD("script: unknown command '%s' (range, key, type, search, move, click, drag, wheel, collapse, expand, "
            "toggle, group, render, screenshot)",
            cmd);
    }
#undef BAD
    return BASE_OK;
}

enum base_status viz_script_run(struct viz_viewer *v, const char *text, const char *name, struct base_diag *diag)
{
    int lineno = 0;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        lineno++;
        char line[1024];
        if (len >= sizeof line)
            return base_diag_set(diag, BASE_ERR_PARSE, name, lineno, 1, "script: line longer than %zu bytes",
                                 sizeof line - 1);
        memcpy(line, p, len);
        line[len] = 0;
        TRY(run_line(v, line, name, lineno, diag));
        p += len + (e ? 1 : 0);
    }
    return BASE_OK;
}

enum base_status viz_script_run_file(struct viz_viewer *v, const char *path, struct base_diag *diag)
{
    char *buf = NULL;
    size_t n = 0;
    TRY(base_file_read(path, &buf, &n, diag)); /* a regular file, at most input-bytes */
    if (strlen(buf) != n) {
        free(buf);
        return base_diag_set(diag, BASE_ERR_PARSE, path, 0, 0, "script: a NUL byte in the text");
    }
    enum base_status st = viz_script_run(v, buf, path, diag);
    free(buf);
    return st;
}
