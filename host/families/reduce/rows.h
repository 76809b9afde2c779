/* rows.h - the reduce family's rows, declared once: host/families/reduce/reduce.c builds its variant table from this
 * list (each row twice: NAME sums float32, NAME_i32 int32, wrapping) and host/families/reduce/reduce.cu its launch table
 * (each algorithm's float and int twins). X(name, algo, param, needs, flags, note): the shader is
 * reduce/ALGO.comp (compiled because a row names it: shaders/CMakeLists.txt reads this list); param, needs
 * and flags are host symbols (how pass 1 loads and sizes its grid, its workgroup tree; features; row flags),
 * unused by the CUDA table. The int32 row needs no float atomics and is deterministic (int adds commute). */
#ifndef VKB_REDUCE_ROWS_H
#define VKB_REDUCE_ROWS_H

#include "reduce.h"

#define REDUCE_ROWS(X)                                                                                                 \
    X(interleaved_divergent, interleaved_divergent, LOAD_BLOCK1 | TREE_BARRIER, 0, 0,                                  \
      "naive: interleaved addressing, t % (2s) == 0 picks threads: divergent subgroups")                               \
    X(interleaved_strided, interleaved_strided, LOAD_BLOCK1 | TREE_BARRIER, 0, 0,                                      \
      "interleaved addressing by index 2st: no divergence, shared-memory bank conflicts")                              \
    X(sequential, sequential, LOAD_BLOCK1 | TREE_BARRIER, 0, 0,                                                        \
      "divergence-free: sequential addressing, conflict-free, half the threads idle at once")                          \
    X(first_add, first_add, LOAD_BLOCK2 | TREE_BARRIER, 0, 0,                                                          \
      "each thread adds two elements L apart while loading: half the workgroups")                                      \
    X(unroll_last_subgroup, unroll_last_subgroup, LOAD_BLOCK2 | TREE_TAIL, SUB, 0,                                     \
      "first_add, barrier steps only down to one subgroup, then subgroupAdd (any subgroup size)")                      \
    X(unroll_complete, unroll_complete, LOAD_BLOCK2 | TREE_TAIL, SUB, 0,                                               \
      "unroll_last_subgroup with every step written out for the workgroup size (a spec constant)")                     \
    X(stride_global_threads, stride_global, LOAD_GRID | GRID_THREADS | TREE_TAIL, SUB, 0,                              \
      "Stride-Global-Size: grid-stride adds per thread, 2^18 threads, then unroll_complete's tree")                    \
    X(stride_global_cus, stride_global, LOAD_GRID | GRID_CUS | TREE_TAIL, SUB, 0,                                      \
      "Stride-Global-Size with 8 workgroups per compute unit (count from the device, else 16)")                        \
    X(stride_local_threads, stride_local, LOAD_LOCAL | GRID_THREADS | TREE_TAIL, SUB, 0,                               \
      "Stride-Local-Size: a contiguous chunk per workgroup, adds L apart, 2^18 threads")                               \
    X(stride_local_cus, stride_local, LOAD_LOCAL | GRID_CUS | TREE_TAIL, SUB, 0,                                       \
      "Stride-Local-Size with 8 workgroups per compute unit (count from the device, else 16)")                         \
    X(vec4, vec4, LOAD_VEC4 | GRID_CUS | TREE_TAIL, SUB, 0,                                                            \
      "Vector-Size: 16-byte loads on stride_global_cus's grid-stride loop, four running sums")                         \
    X(subgroup, subgroup, LOAD_VEC4 | GRID_CUS | TREE_SUBGROUP, SUB, 0,                                                \
      "vec4's loads, subgroupAdd, one shared slot per subgroup; workgroups combined by a second pass")                 \
    X(subgroup_atomic, subgroup_atomic, LOAD_VEC4 | GRID_CUS | TREE_SUBGROUP | COMBINE_ATOMIC,                         \
      SUB | VKB_NEED_ATOMIC_FLOAT, VKB_VAR_NONDETERMINISTIC,                                                           \
      "subgroup with the workgroups combined by atomicAdd, no second pass: float not deterministic, int is "           \
      "(int adds commute)")                                                                                            \
    X(subgroup_lastblock, subgroup_lastblock, LOAD_VEC4 | GRID_CUS | TREE_SUBGROUP | COMBINE_LAST, SUB, 0,             \
      "subgroup in one dispatch: the last workgroup to count itself in adds the partials in the second "               \
      "pass's order (same bits); predict: subgroup's ~2 us dispatch boundary gone, >= CUB at 2^12..2^28")

#endif
