/* npusim_api.h: the stable C API of libnpusim.so (docs/frameworks.md
 * "Python and C"; the static libnpusim.a holds the modules only, not the
 * commands behind this API).  Plain C types only, so
 * that other languages can call it without knowing npusim's structs:
 * python/npusim calls it through ctypes.  The module headers (npusim.h)
 * are the full library; this one changes only with NPUSIM_API_VERSION.
 */
#ifndef NPUSIM_API_H
#define NPUSIM_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPUSIM_API_VERSION 1

/* NPUSIM_API_VERSION of the library linked (a caller built against another
 * header can refuse to go on). */
int npusim_api_version(void);
/* "0.1.0", as `npusim --version` prints it. */
const char *npusim_version(void);

/* Runs one command of the npusim command line in this process: argv[0] is
 * the command ("run", "interp", "estimate", "parse", ...; `npusim --help`
 * lists them), argv[1..argc) its arguments, as after `npusim` on a shell.
 * What it prints on standard output goes to the file out_path, and on
 * standard error to err_path (NULL: the process's own; each file is
 * replaced).  Returns the command's exit status: 0 done, 1 the work failed
 * (bad input, a failed check), 2 usage error, -1 the files could not be
 * opened.  It redirects the process's descriptors 1 and 2 while it runs:
 * one call at a time per process. */
int npusim_command(int argc, const char *const *argv, const char *out_path, const char *err_path);

/* Parses and verifies a StableHLO module held in memory (text, or a
 * portable artifact's bytecode); name labels diagnostics.  0 when it is
 * valid (*n_funcs: its functions, *n_ops: its ops, either may be NULL);
 * else 1 and the located diagnostic in err ("file:line:col: error: ..."). */
int npusim_check_module(const void *buf, size_t len, const char *name, int *n_funcs, int *n_ops, char *err,
                        size_t err_cap);

#ifdef __cplusplus
}
#endif

#endif
