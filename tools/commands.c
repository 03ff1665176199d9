/* The npusim commands: one table for the command line (tools/npusim.c) and
 * the C API (tools/api.c). */
#include "tools/tools.h"

#include <string.h>

static const struct tool_cmd cmd_table[] = {
    {"parse", "parse and verify a StableHLO file, optionally print it", cmd_parse},
    {"interp", "run a StableHLO model on the golden interpreter", cmd_interp},
    {"conform", "run StableHLO conformance tests (files or folders)", cmd_conform},
    {"chips", "list chip descriptions with derived peaks (chips/*.chip)", cmd_chips},
    {"asm", "assemble an ISA text program into its binary encoding", cmd_asm},
    {"disasm", "print an ISA program (binary or text) as canonical text", cmd_disasm},
    {"exec", "run an ISA program on a simulated chip: time, statistics, dumps", cmd_exec},
    {"gemm", "generate and run a tiled GEMM: time, % of peak, closed form, check", cmd_gemm},
    {"run", "compile a model and run it on one chip or many: time, MFU, kernels, collectives, check", cmd_run},
    {"estimate", "which chip, how many, at what cost: step time, tokens/s, MFU, memory, $ per 1M tokens per system",
     cmd_estimate},
    {"coverage", "which ops of a model the compiler lowers for a chip, and where it does not", cmd_coverage},
    {"trace", "trace files: stats (busy time, top ops), convert (npt <-> Perfetto json), check", cmd_trace},
    {"partition", "split an unsharded program over a device mesh: per-partition SPMD program, collectives",
     cmd_partition},
    {"model", "generate a transformer's program (presets, train / prefill / decode, parallel layouts)", cmd_model},
    {"net", "time a collective on a modelled chip-to-chip network: algorithm, busbw, link use", cmd_net},
    {"view", "the trace viewer (SDL2): lanes, zoom, details, search; --screenshot renders headless", cmd_view},
};

const struct tool_cmd *tool_commands(size_t *n)
{
    *n = ARRAY_LEN(cmd_table);
    return cmd_table;
}

const struct tool_cmd *tool_command_find(const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(cmd_table); i++)
        if (!strcmp(name, cmd_table[i].name)) return &cmd_table[i];
    return NULL;
}
