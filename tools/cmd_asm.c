/* npusim asm PROG.s [-o PROG.bin]   and   npusim disasm PROG.bin|PROG.s [-o OUT.s] */
#include "tools/tools.h"
#include "isa/isa.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void asm_help(FILE *f)
{
    fprintf(f,
            "usage: npusim asm PROG.s [-o PROG.bin]\n"
            "\n"
            "Assembles a text program (syntax: docs/isa.md) into the binary encoding.\n"
            "Every instruction is validated; errors are printed as file:line:col with the\n"
            "instruction and the rule it breaks.\n"
            "  -o FILE   output (default: PROG with its extension replaced by .bin)\n"
            "  --check   validate only, write nothing\n"
            "\n"
            "example:\n"
            "  npusim asm examples/isa/gemm_tile.s -o gemm_tile.bin\n");
}

static void disasm_help(FILE *f)
{
    fprintf(f,
            "usage: npusim disasm PROG [-o OUT.s]\n"
            "\n"
            "Prints a program as canonical assembly text.  PROG is a binary (it starts\n"
            "with the NPUISA magic) or a text program, which this canonicalises: the\n"
            "output assembles back to the identical instructions, and disassembling\n"
            "canonical text gives the same text again.\n"
            "  -o FILE   write to FILE instead of stdout\n"
            "\n"
            "example:\n"
            "  npusim disasm gemm_tile.bin\n");
}

/* PROG.s -> PROG.bin */
static char *default_output(const char *in)
{
    size_t n = strlen(in);
    const char *slash = strrchr(in, '/');
    const char *dot = strrchr(in, '.');
    if (dot && (!slash || dot > slash)) n = (size_t)(dot - in);
    char *out = malloc(n + 5);
    if (!out) return NULL;
    memcpy(out, in, n);
    memcpy(out + n, ".bin", 5);
    return out;
}

static int parse_args(const char *cmd, int argc, char **argv, void (*help)(FILE *), const char **in,
                      const char **out, bool *check)
{
    for (int i = 1; i < argc; i++) {
        if (tool_flag(argv[i], "--help") || tool_flag(argv[i], "-h")) {
            help(stdout);
            return -1;
        } else if (tool_opt(argc, argv, &i, "-o", out) || tool_opt(argc, argv, &i, "--output", out)) {
        } else if (check && tool_flag(argv[i], "--check")) {
            *check = true;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "npusim %s: unknown option %s\n", cmd, argv[i]);
            help(stderr);
            return TOOL_USAGE;
        } else if (!*in) {
            *in = argv[i];
        } else {
            fprintf(stderr, "npusim %s: one program at a time\n", cmd);
            return TOOL_USAGE;
        }
    }
    if (!*in) {
        help(stderr);
        return TOOL_USAGE;
    }
    return TOOL_OK;
}

static int write_file(const char *path, const uint8_t *buf, size_t len)
{
    struct base_out o;
    if (!tool_out_begin(&o, path)) return TOOL_FAIL;
    return tool_out_end(&o, fwrite(buf, 1, len, o.f) == len);
}

int cmd_asm(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    bool check = false;
    int rc = parse_args("asm", argc, argv, asm_help, &in, &out, &check);
    if (rc) return rc < 0 ? TOOL_OK : rc;
    struct base_diag d;
    base_diag_clear(&d);
    char *text = NULL;
    size_t len = 0;
    if (base_file_read(in, &text, &len, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    struct isa_program p;
    enum base_status st = isa_assemble(text, len, in, &p, &d);
    free(text);
    if (st != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    uint8_t *bin = NULL;
    size_t blen = 0;
    rc = TOOL_OK;
    if (!check) {
        st = isa_encode(&p, &bin, &blen);
        if (st != BASE_OK) {
            fprintf(stderr, "npusim asm: %s: cannot encode: %s\n", in, base_status_str(st));
            rc = TOOL_FAIL;
        } else {
            char *def = out ? NULL : default_output(in);
            const char *path = out ? out : def;
            if (path && tool_same_file(path, in)) { /* asm x.bin, asm x.s -o x.s */
                fprintf(stderr, "npusim asm: %s: the output is the input (give -o FILE)\n", path);
                rc = TOOL_FAIL;
            } else {
                rc = path ? write_file(path, bin, blen) : TOOL_FAIL;
            }
            if (rc == TOOL_OK)
                fprintf(stderr, "npusim asm: %s: %d stream(s), %llu instruction(s) -> %s (%zu bytes)\n", in,
                        p.n_streams, (unsigned long long)isa_program_count(&p), path, blen);
            free(def);
            free(bin);
        }
    } else {
        printf("%s: ok, %d stream(s), %llu instruction(s)\n", in, p.n_streams,
               (unsigned long long)isa_program_count(&p));
    }
    isa_program_deinit(&p);
    return rc;
}

int cmd_disasm(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int rc = parse_args("disasm", argc, argv, disasm_help, &in, &out, NULL);
    if (rc) return rc < 0 ? TOOL_OK : rc;
    struct base_diag d;
    base_diag_clear(&d);
    struct isa_program p;
    if (isa_program_load(in, &p, &d) != BASE_OK) {
        tool_print_diag(&d);
        return TOOL_FAIL;
    }
    struct base_out o;
    if (out && tool_same_file(out, in)) {
        fprintf(stderr, "npusim disasm: %s: the output is the input\n", out);
        isa_program_deinit(&p);
        return TOOL_FAIL;
    }
    if (!tool_out_begin(&o, out)) {
        isa_program_deinit(&p);
        return TOOL_FAIL;
    }
    rc = tool_out_end(&o, isa_disassemble(&p, o.f) == BASE_OK);
    isa_program_deinit(&p);
    return rc;
}
