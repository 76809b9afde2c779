/* rows.h - memory.aos_soa's rows, declared once: host/families/memory.c builds its variant table from this
 * list and cuda/memory.cu its launch table. X(name, shader, FIELDS, REC, note): FIELDS floats per record,
 * stored REC words apart (mem_soa: REC = FIELDS, the fields as FIELDS arrays). */
#ifndef VKB_MEMORY_ROWS_H
#define VKB_MEMORY_ROWS_H

#include "memory.h"

/* spec constants each layout shader declares: mem_aos {FIELDS, REC}, mem_soa {FIELDS} */
#define MEM_NSPEC_mem_aos 2
#define MEM_NSPEC_mem_soa 1

#define MEM_LAYOUT_ROWS(X)                                                                                     \
    X(aos12, mem_aos, 3, 3,                                                                                    \
      "array of 12-byte records (std430 struct of 3 floats): three 4-byte loads 12 bytes apart")              \
    X(aos12_pad16, mem_aos, 3, 4,                                                                              \
      "12-byte records padded to 16 bytes: one aligned vec4 load, a quarter of the bytes padding")            \
    X(soa12, mem_soa, 3, 3, "the 3 fields as 3 arrays: 3 coalesced streams")                                  \
    X(aos20, mem_aos, 5, 5, "array of 20-byte records (5 floats): five 4-byte loads 20 bytes apart")         \
    X(aos20_pad32, mem_aos, 5, 8,                                                                              \
      "20-byte records padded to 32 bytes: two aligned vec4 loads, 3/8 of the bytes padding")                 \
    X(soa20, mem_soa, 5, 5, "the 5 fields as 5 arrays: 5 coalesced streams")

#endif
