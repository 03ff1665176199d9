/* Logging through an explicit logger context. */
#include "base/base.h"

static const char *const cat_names[] = {
#define X(name, text) text,
    LOG_CATS(X)
#undef X
};
_Static_assert(ARRAY_LEN(cat_names) == BASE_LOG_CAT_COUNT, "log category table");

static const char *const level_names[] = {"error", "warn", "info", "debug", "trace"};

const char *base_log_cat_name(enum base_log_cat cat)
{
    return (unsigned)cat < BASE_LOG_CAT_COUNT ? cat_names[cat] : "?";
}

const char *base_log_level_name(enum base_log_level level)
{
    return (unsigned)level < ARRAY_LEN(level_names) ? level_names[level] : "?";
}

void base_logger_init(struct base_logger *lg, enum base_log_level level)
{
    lg->sink = NULL;
    lg->user = NULL;
    lg->level = level;
    lg->sim_time_ps = 0;
}

void base_log_write(struct base_logger *lg, enum base_log_cat cat, enum base_log_level level,
                    const char *fmt, ...)
{
    if (!lg || level > lg->level) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (lg->sink) {
        lg->sink(lg->user, cat, level, lg->sim_time_ps, msg);
        return;
    }
    fprintf(stderr, "[%llu ps] %s %s: %s\n", (unsigned long long)lg->sim_time_ps,
            base_log_cat_name(cat), base_log_level_name(level), msg);
}
