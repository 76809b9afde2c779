/* rows.h - the memory families' rows, declared once: host/families/memory/memory.c builds each family's variant table
 * from these lists and host/families/memory/memory.cu its launch table (one twin per row's shader); host/families/memory/shaders.cmake
 * compiles the shaders they name. Every row's workgroup is memory.c's 256 x 1 x 1 (the checks and predictions
 * assume it), so no row states one. */
#ifndef VKB_MEMORY_ROWS_H
#define VKB_MEMORY_ROWS_H

#include "memory.h"

/* memory.width's element widths in words (float, vec2, vec4: --width 4, 8 or 16 bytes), the values of
 * mem_width's WORDS constant: the host's --width check and defaults, and the CUDA twins instantiated. */
#define MEM_WIDTH_WORDS(W) W(1) W(2) W(4)

/* memory.width, .offset, .stride, .shared_stride, .shared_broadcast and .uniform: X(name, shader, param, flags,
 * note, ceiling). param and flags are host symbols (memory.c: the shared kernels' access mode SH_*, memory.uniform's
 * UN_* bits; VKB_VAR_*), unused by the CUDA table; ceiling the row compared with, or NULL (the family's fastest). */
#define MEM_WIDTH_ROWS(X)                                                                                              \
    X(copy, mem_width, 0, 0,                                                                                           \
      "copy n words as --width 4, 8 or 16-byte elements (float, vec2, vec4; WORDS spec constant)", NULL)

#define MEM_OFFSET_ROWS(X)                                                                                             \
    X(copy, mem_offset, 0, 0, "dst[i] = src[i + k], k = --offset words: loads misaligned by k words, stores aligned",  \
      NULL)

#define MEM_STRIDE_ROWS(X)                                                                                             \
    X(read, mem_stride, 0, 0, "thread i sums src[i * s], s = --stride words; useful bytes = the words summed", NULL)

/* memory.aos_soa: X(name, shader, FIELDS, REC, note): FIELDS floats per record, stored REC words apart (mem_soa:
 * REC = FIELDS, the fields as FIELDS arrays). */

/* spec constants each layout shader declares: mem_aos {FIELDS, REC}, mem_soa {FIELDS} */
#define MEM_NSPEC_mem_aos 2
#define MEM_NSPEC_mem_soa 1

#define MEM_LAYOUT_ROWS(X)                                                                                             \
    X(aos12, mem_aos, 3, 3, "array of 12-byte records (std430 struct of 3 floats): three 4-byte loads 12 bytes apart") \
    X(aos12_pad16, mem_aos, 3, 4,                                                                                      \
      "12-byte records padded to 16 bytes: one aligned vec4 load, a quarter of the bytes padding")                     \
    X(soa12, mem_soa, 3, 3, "the 3 fields as 3 arrays: 3 coalesced streams")                                           \
    X(aos20, mem_aos, 5, 5, "array of 20-byte records (5 floats): five 4-byte loads 20 bytes apart")                   \
    X(aos20_pad32, mem_aos, 5, 8,                                                                                      \
      "20-byte records padded to 32 bytes: two aligned vec4 loads, 3/8 of the bytes padding")                          \
    X(soa20, mem_soa, 5, 5, "the 5 fields as 5 arrays: 5 coalesced streams")

#define MEM_SHARED_ROWS(X)                                                                                             \
    X(read, mem_shared, SH_STRIDE, 0,                                                                                  \
      "thread t reads shared[(t * s) % 1024], s = --stride: conflict degree gcd(s, 32 banks) assumed", NULL)           \
    X(stride1, mem_shared, SH_ONE, VKB_VAR_CEILING, "the same kernel at s = 1, conflict-free: the ceiling", NULL)

#define MEM_BROADCAST_ROWS(X)                                                                                          \
    X(distinct, mem_shared, SH_DISTINCT, VKB_VAR_CEILING,                                                              \
      "thread t reads word t: distinct words in distinct banks, conflict-free: the ceiling", NULL)                     \
    X(same, mem_shared, SH_SAME, 0, "every thread reads word 0: one word broadcast to all", NULL)                      \
    X(few4, mem_shared, SH_FEW, 0, "thread t reads word t % 4: 4 words in 4 banks, each broadcast", NULL)              \
    X(few4_one_bank, mem_shared, SH_FEW_BANK, 0,                                                                       \
      "thread t reads word 32 (t % 4): 4 words in one bank, a 4-way conflict", NULL)

/* mem_uniform reads its table from a uniform buffer (CUDA: __constant__), mem_uniform_storage from a storage
 * buffer (CUDA: global memory): one source, shaders.cmake compiles it twice */
#define MEM_UNIFORM_ROWS(X)                                                                                            \
    X(uniform_same, mem_uniform, UN_CONSTANT, VKB_VAR_CEILING,                                                         \
      "a subgroup reads one word of a uniform buffer (CUDA: __constant__), broadcast: the uniform reference",          \
      "uniform_same")                                                                                                  \
    X(uniform_divergent, mem_uniform, UN_CONSTANT | UN_DIVERGENT, 0,                                                   \
      "invocation t reads word t + k of the uniform buffer: a subgroup's distinct addresses served one by one",        \
      "uniform_same")                                                                                                  \
    X(storage_same, mem_uniform_storage, 0, VKB_VAR_CEILING,                                                           \
      "the same reads from a storage buffer (CUDA: global memory): the storage reference", "storage_same")             \
    X(storage_divergent, mem_uniform_storage, UN_DIVERGENT, 0,                                                         \
      "invocation t reads word t + k of the storage buffer: one cache line per 32 invocations, not serialized",        \
      "storage_same")

#endif
