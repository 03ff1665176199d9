/* Fuzz target: the binary decoder never crashes and locates every error
 * (byte offset); whatever it accepts disassembles, assembles back to the
 * same instructions, and encodes back to the same bytes. */
#include "isa/isa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct isa_program p, q;
    struct base_diag d;
    base_diag_clear(&d);
    enum base_status st = isa_decode(data, size, "fuzz.bin", &p, &d);
    if (st != BASE_OK) {
        if (p.n_streams != 0) abort();
        if (st != BASE_ERR_NOMEM && (d.status != st || !d.file[0] || !d.msg[0] || !strstr(d.msg, "at byte offset")))
            abort();
        return 0;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) abort();
    if (isa_disassemble(&p, f) != BASE_OK) abort();
    fclose(f);
    base_diag_clear(&d);
    if (isa_assemble(text, len, "fuzz.s", &q, &d) != BASE_OK) {
        base_diag_print(&d, stderr);
        abort();
    }
    if (q.n_streams != p.n_streams || strcmp(q.name, p.name) != 0) abort();
    for (int s = 0; s < p.n_streams; s++) {
        if (q.streams[s].n != p.streams[s].n || strcmp(q.streams[s].engine, p.streams[s].engine) != 0) abort();
        for (uint32_t i = 0; i < p.streams[s].n; i++) {
            struct isa_instr a = p.streams[s].instrs[i], b = q.streams[s].instrs[i];
            a.src_line = b.src_line = 0;
            if (memcmp(&a, &b, sizeof a) != 0) abort();
        }
    }
    uint8_t *bin = NULL;
    size_t blen = 0;
    if (isa_encode(&q, &bin, &blen) != BASE_OK || blen != size || memcmp(bin, data, size) != 0) abort();
    free(bin);
    free(text);
    isa_program_deinit(&p);
    isa_program_deinit(&q);
    return 0;
}
