/* report/ private: shared by the report's and the estimator's writers. */
#ifndef NPUSIM_REPORT_INTERNAL_H
#define NPUSIM_REPORT_INTERNAL_H

#include "report/report.h"

/* A JSON string: quotes, backslashes and control characters escaped ("" for NULL). */
void rep_json_str(FILE *f, const char *s);

#endif
