/* Host memory: what the machine and the process's limits leave, sizes
 * parsed and printed, and the one form of an out-of-memory diagnostic. */
#include "base/base.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* A "Key:   N kB" line of a /proc file, in bytes; false when absent. */
static bool proc_kb(const char *path, const char *key, uint64_t *out)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[256];
    size_t kn = strlen(key);
    bool found = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, kn) || line[kn] != ':') continue;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(line + kn + 1, &end, 10);
        if (errno || end == line + kn + 1) break;
        *out = (uint64_t)v * 1024;
        found = true;
        break;
    }
    fclose(f);
    return found;
}

uint64_t base_mem_machine_available(void)
{
    uint64_t v;
    return proc_kb("/proc/meminfo", "MemAvailable", &v) ? v : UINT64_MAX;
}

uint64_t base_mem_available(void)
{
    uint64_t avail = base_mem_machine_available();
    struct rlimit rl;
    uint64_t used;
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && proc_kb("/proc/self/status", "VmData", &used)) {
        uint64_t left = (uint64_t)rl.rlim_cur > used ? (uint64_t)rl.rlim_cur - used : 0;
        if (left < avail) avail = left;
    }
    return avail;
}

uint64_t base_mem_rss(void)
{
    uint64_t v;
    return proc_kb("/proc/self/status", "VmRSS", &v) ? v : 0;
}

uint64_t base_mem_peak_rss(void)
{
    uint64_t v;
    return proc_kb("/proc/self/status", "VmHWM", &v) ? v : 0;
}

bool base_size_parse(const char *s, uint64_t *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || !(v >= 0)) return false;
    double mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1024.0; end++; break;
    case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
    case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (mul > 1 && *end == 'i') end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return false;
    double b = v * mul;
    if (b >= 18446744073709551615.0) return false;
    *out = (uint64_t)b;
    return true;
}

void base_size_format(uint64_t bytes, char *buf, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    if (bytes == UINT64_MAX) {
        snprintf(buf, cap, "unknown");
        return;
    }
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (u == 0) snprintf(buf, cap, "%llu B", (unsigned long long)bytes);
    else snprintf(buf, cap, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, units[u]);
}

enum base_status base_diag_nomem(struct base_diag *d, const char *file, int line, int col, uint64_t needed,
                                 const char *fmt, ...)
{
    char what[BASE_DIAG_MSG_MAX / 2] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
    }
    char n[32], m[32];
    base_size_format(needed, n, sizeof n);
    base_size_format(base_mem_available(), m, sizeof m);
    return base_diag_set(d, BASE_ERR_NOMEM, file, line, col, "out of memory: needed %s, available %s%s%s", n, m,
                         what[0] ? ": " : "", what);
}
