#!/usr/bin/env python3
"""mutate.py - a mutation harness: each mutation (a small, realistic bug) is applied alone to a COPY of
the tree, built, and tested with the ctest subset that should notice it; it is killed when a test fails
(or the build breaks: "stillborn", left out of the score), survives when every test passes. Mutations
of CUDA code cannot run here: they are listed as "gpu", built here into one module each and run on the GPU:

    tools/mutate.py [--tree DIR] [--only ID,...] [--list] [--sites] [--report FILE]
    tools/mutate.py --cuda-mutants [--head] [--out build-mutants]   (here: a CUDA module per mutation, then on
                                                 the GPU machine: tools/gpu.sh cuda-mutants --build build-mutants)
    tools/mutate.py --gpu-table FILE [--report FILE]        (records the GPU's verdicts as killed / survived)
    tools/mutate.py --from-diff REV [--sample N --seed S] [--list] [--tree DIR] [--timeout S] [--report FILE]
                                    (mutants generated from the lines changed since REV, not the list below)

--tree: a copy made with `tar -C SRC --exclude='./build*' --exclude=./.git -cf - . | tar -C DIR -xf -` and configured in DIR/build
(cmake -S DIR -B DIR/build -DCMAKE_BUILD_TYPE=Release -DVKB_CUDA=OFF); never the shared checkout.
Each mutation is applied by exact text replacement (one occurrence, or it is "n/a: site gone") and
reverted before the next. The report (markdown) gives killed / survived / equivalent (with the reason)."""
import argparse, os, shutil, subprocess, sys, tempfile, time

UNIT_CHECK = r"vkb\.unit\.check\."
CLEAN = lambda fam: rf"vkb\.verify\.{fam}\.clean$"
ACC16, ACC16_T = r"vkb\.unit\.acc16_check\.|vkb\.unit\.matmul_tc\.", "test_acc16_check test_matmul_tc"
SINKS, SINKS_T = r"vkb\.unit\.sink_values\.|vkb\.unit\.sinks\.", "test_sink_values test_sinks"
RUNNER, STATS, TIMING = r"vkb\.unit\.runner\.", r"vkb\.unit\.stats\.", r"vkb\.unit\.timing\."
WORK, WORK_T = r"vkb\.unit\.work_counts\.", "test_work_counts"
TOOLS_V, TC_PLANS = r"vkb\.tools\.(report\.(aggregates|units)|tune\.ranking)$", r"vkb\.unit\.tc_plans\."
FIXED_TESTS = r"vkb\.vk\.matmul\.(fixed_spec|warptile_fixed)$"   # FIXED=1 at whole and one-short shapes
LVP26_TC = r"vkb\.lvp26\.matmul\.tensor_cores$"   # skips (a survivor) where tools/setup-lavapipe26.sh is not run
LVP26_INT8 = r"vkb\.lvp26\.matmul\.int8$"   # likewise
S8_REFS, S8_REFS_T = r"vkb\.unit\.(s8_check|check_refs)\.", "test_s8_check test_check_refs"


def M(id, kind, path, old, new, tests, what, equivalent=None, gpu=None, targets="vkbench test_check"):
    """gpu: for a CUDA mutation, the vkbench arguments that must exit 1 with it (and 0 without it); targets: what
    to rebuild before its tests run (the executables they run)."""
    return dict(id=id, kind=kind, path=path, old=old, new=new, tests=tests, what=what, equivalent=equivalent, gpu=gpu,
                targets=targets)


MUTATIONS = [
    # --- shaders: bounds guards, indexing, accumulation, barriers ---
    M("sh01", "shader", "host/families/transpose/transpose_direct_tile.glsl", "if (edge && c >= pc.cols)", "if (edge && c > pc.cols)",
      CLEAN("transpose"), "naive transpose: column guard off by one (writes past the end)"),
    M("sh02", "shader", "host/families/transpose/transpose_direct_tile.glsl", "if (!edge || r < pc.rows) {", "if (!edge || r <= pc.rows) {",
      CLEAN("transpose"), "naive transpose: row guard off by one"),
    M("sh03", "shader", "host/families/transpose/transpose_direct_tile.glsl", "dst[c * pc.rows + r] = v[j / ROWS];", "dst[c * pc.cols + r] = v[j / ROWS];",
      CLEAN("transpose"), "naive transpose: output stride rows/cols swapped"),
    M("sh04", "shader", "host/families/transpose/transpose_tiled_tile.glsl", "if (!edge || (r < pc.cols && c < pc.rows))", "if (!edge || (r <= pc.cols && c < pc.rows))",
      CLEAN("transpose"), "tiled transpose: output row guard off by one"),
    M("sh05", "shader", "host/families/transpose/transpose_tiled_tile.glsl", "v[j / ROWS] = MODE == 0u ? tile[y + j][col_of(y + j, x)] : tile[x][col_of(x, y + j)];",
      "v[j / ROWS] = MODE == 0u ? tile[y + j][col_of(y + j, x)] : tile[y + j][col_of(y + j, x)];", CLEAN("transpose"), "tiled transpose: tile read not transposed"),
    M("sh06", "shader", "host/families/transpose/transpose_pipeline.glsl", "        put_tile_edge(s, o.x, o.y);\n    barrier();\n",
      "        put_tile_edge(s, o.x, o.y);\n", CLEAN("transpose"),
      "tiled transpose: barrier between tile store and load removed (a race)",
      None),
    M("sh07", "shader", "host/families/transpose/transpose_tiled.comp", "return SWIZZLE != 0u ? j ^ i : j;", "return SWIZZLE != 0u ? j ^ (i + 1u) : j;",
      CLEAN("transpose"), "swizzled transpose: store and load use different swizzles? (same function both ways)",
      "col_of is used for the store and the load alike: any bijection per row is equivalent"),
    M("sh08", "shader", "host/families/transpose/transpose_vec4_tile.glsl", "if (edge && (r >= pc.cols || c >= pc.rows))", "if (edge && (r > pc.cols || c >= pc.rows))",
      CLEAN("transpose"), "vec4 transpose: output guard off by one"),
    M("sh09", "shader", "host/families/transpose/transpose_vec4_tile.glsl", "for (uint k = 0u; k < 4u && c + k < pc.rows; k++)", "for (uint k = 0u; k < 4u && c + k <= pc.rows; k++)",
      CLEAN("transpose"), "vec4 transpose: scalar tail writes one past the end"),
    M("sh38", "shader", "host/families/transpose/transpose_pipeline.glsl", "        barrier(); // the last tile's column reads are done",
      "        // the last tile's column reads are done", CLEAN("transpose"),
      "pipelined transpose: no barrier between a tile's column reads and the next tile's rows (a race when a workgroup moves several tiles)"),
    M("sh39", "shader", "host/families/transpose/transpose_pipeline.glsl", "        load_tile(s, tile_origin(ahead, tiles_x));",
      "        load_tile(s, tile_origin(t, tiles_x));", CLEAN("transpose"),
      "pipelined transpose: the next tile's loads read the current tile again"),
    # DEPTH > 1 only: killed by the _deep rows (DEPTH 2, 8 tiles per workgroup: 130 x 129 gives a workgroup 5 tiles)
    M("dp01", "shader", "host/families/transpose/transpose_pipeline.glsl", "        load_tile(s, tile_origin(ahead, tiles_x));",
      "        load_tile((s + 1u) % DEPTH, tile_origin(ahead, tiles_x));", CLEAN("transpose"),
      "deep transpose: the tile DEPTH ahead loaded into the next slot, overwriting a tile not yet stored"),
    M("dp02", "shader", "host/families/transpose/transpose_pipeline.glsl", "uint ahead = t + DEPTH * stride;",
      "uint ahead = t + stride;", CLEAN("transpose"),
      "deep transpose: the loads run one tile ahead whatever DEPTH (a tile loaded twice, another never)"),
    M("dp03", "shader", "host/families/transpose/transpose_pipeline.glsl",
      "    if (s != 0u)\n        barrier(); // the previous tile's",
      "    if (s == 0u)\n        barrier(); // the previous tile's", CLEAN("transpose"),
      "deep transpose: the barrier between slots inverted, none between a slot's tile and the next slot's (a race)"),
    M("dp06", "shader", "host/families/transpose/transpose_pipeline.glsl", "        load_tile(k, tile_origin(t + k * stride, tiles_x));",
      "        load_tile(k & 1u, tile_origin(t + k * stride, tiles_x));", r"vkb\.vk\.transpose\.depth3$",
      "deep transpose: the first tiles' slots taken two by two (right for the rows' DEPTH 2 only)"),
    M("dp04", "shader", "host/families/transpose/transpose_pipeline.glsl", "        load_tile(k, tile_origin(t + k * stride, tiles_x));",
      "        load_tile(k, tile_origin(t + (k - 1u) * stride, tiles_x));", CLEAN("transpose"),
      "deep transpose: the first tiles' loads put the workgroup's k-1-th tile in slot k"),
    M("sh40", "shader", "host/families/reduce/subgroup_lastblock.comp", "if (gl_NumWorkGroups.x == 1u) {",
      "if (gl_NumWorkGroups.x <= 2u) {", CLEAN("reduce"),
      "last-block reduce: two workgroups taken for one (the second one's partial never added)"),
    M("sh37", "shader", "host/families/transpose/transpose.h", "return pc.rows - by >= TILE && pc.cols - bx >= TILE;",
      "return pc.rows + 1u - by >= TILE && pc.cols - bx >= TILE;", CLEAN("transpose"),
      "transpose interior test off by one (a tile one row short takes the guard-free path: writes a row past the edge)"),
    M("sh10", "shader", "host/families/matmul/matmul_naive.comp", "if (row >= pc.m || col >= pc.n)", "if (row > pc.m || col >= pc.n)",
      CLEAN("matmul"), "naive matmul: row guard off by one (writes a row past the end)"),
    M("sh11", "shader", "host/families/matmul/matmul_naive.comp", "for (uint p = 0; p < pc.k; p++)", "for (uint p = 1; p < pc.k; p++)",
      CLEAN("matmul"), "naive matmul: first k term dropped"),
    M("sh12", "shader", "host/families/matmul/matmul_naive.comp", "acc = fma(a[row * pc.k + p], b[p * pc.n + col], acc);",
      "acc = fma(a[row * pc.k + p], b[p * pc.n + col], acc * 1.0000001);", CLEAN("matmul"), "naive matmul: accumulator drifts by 1e-7 per step (a rounding bug)"),
    M("sh13", "shader", "host/families/matmul/matmul_tiled.comp", "if (row < pc.m && k0 + tx < pc.k)", "if (row < pc.m)",
      CLEAN("matmul"), "tiled matmul: k edge of A not guarded (reads past the row)",
      equivalent="found after it survived: the A value read past k is multiplied by B's k-edge, loaded as 0 (inputs finite)"),
    M("sh14", "shader", "host/families/matmul/matmul_tiled.comp", "        barrier();   // the next phase overwrites the tiles\n", "",
      CLEAN("matmul"), "tiled matmul: second barrier removed (a race)"),
    M("sh15", "shader", "host/families/matmul/matmul_tiled.comp", "if (row < pc.m && col < pc.n)\n        c[row * pc.n + col] = acc;",
      "if (row <= pc.m && col < pc.n)\n        c[row * pc.n + col] = acc;", CLEAN("matmul"), "tiled matmul: block M edge off by one"),
    M("sh16", "shader", "host/families/matmul/matmul_block.comp", "        if (gm >= pc.m)\n            break;", "        if (gm > pc.m)\n            break;",
      CLEAN("matmul"), "block matmul: M edge off by one (the audit's survivor)"),
    M("sh17", "shader", "host/families/matmul/matmul_block.comp", "                    if (gn0 + j < pc.n)\n                        c1[", "                    if (gn0 + j <= pc.n)\n                        c1[",
      CLEAN("matmul"), "block matmul: N edge off by one (scalar store)"),
    M("sh18", "shader", "host/families/matmul/matmul_block.comp", "                    if (gk + q < pc.k)", "                    if (gk + q <= pc.k)",
      CLEAN("matmul"), "block matmul: k edge of the A load off by one",
      equivalent="found after it survived: the A value read past k is multiplied by B's k-edge, loaded as 0 (inputs finite)"),
    M("sh19", "shader", "host/families/reduce/reduce.glsl", "        if (t < s)\n            sh[t] += sh[t + s];", "        if (t <= s)\n            sh[t] += sh[t + s];",
      CLEAN("reduce"), "reduce tree: t <= s adds a slot twice"),
    M("sh20", "shader", "host/families/reduce/reduce.glsl", "s >= keep && s > 0u; s >>= 1)", "s > keep && s > 0u; s >>= 1)",
      CLEAN("reduce"), "reduce tree: last level skipped"),
    M("sh21", "shader", "host/families/reduce/sequential.comp", "sh[t] = i < pc.n ? src[i] : T(0);", "sh[t] = i + 1u < pc.n ? src[i] : T(0);",
      CLEAN("reduce"), "sequential reduce: last element dropped"),
    M("sh22", "shader", "host/families/reduce/partials.comp", "uint end = min(base + pc.per * L, pc.n);", "uint end = min(base + pc.per * L, pc.n - 1u);",
      CLEAN("reduce"), "partial sums pass: last partial dropped"),
    M("sh23", "shader", "host/families/reduce/stride_global.comp", "for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += VKB_GRID_THREADS_X)",
      "for (uint i = gl_GlobalInvocationID.x + 1u; i < pc.n; i += VKB_GRID_THREADS_X)", CLEAN("reduce"), "grid-stride reduce: first element of each thread dropped"),
    M("sh24", "shader", "host/families/reduce/stride_local.comp", "for (uint i = base + t; i < end; i += L)", "for (uint i = base + t; i < end; i += L + 1u)",
      CLEAN("reduce"), "block-stride reduce: wrong stride drops elements"),
    M("sh25", "shader", "host/families/reduce/first_add.comp", "sh[t] = (i < pc.n ? src[i] : T(0)) + (i + L < pc.n ? src[i + L] : T(0));",
      "sh[t] = (i < pc.n ? src[i] : T(0)) + (i + L < pc.n ? src[i + L - 1u] : T(0));", CLEAN("reduce"), "first-add reduce: second load off by one (duplicates an element)"),
    M("sh26", "shader", "host/families/reduce/subgroup_tail.glsl", "    if (gl_SubgroupID == 0u) {", "    if (true) {",
      CLEAN("reduce"), "subgroup tail: every subgroup writes (the last one wins)",
      equivalent="found after it survived: every subgroup reads the same slots sh[0..left) and writes the same sum to the same place"),
    M("sh27", "shader", "host/families/reduce/subgroup_atomic.comp", "atomicAdd(dst[0], sum);", "atomicAdd(dst[0], sum + sum);",
      CLEAN("reduce"), "atomic reduce: doubles each workgroup's sum"),
    M("sh33", "shader", "host/families/reduce/subgroup_lastblock.comp", "last = before == gl_NumWorkGroups.x - 1u;",
      "last = before == gl_NumWorkGroups.x;", CLEAN("reduce"),
      "last-block reduce: the last workgroup's test off by one (no workgroup adds the partials)"),
    M("sh34", "shader", "host/families/reduce/subgroup_lastblock.comp", "        if (last)\n            arrived = 0u;",
      "        if (false)\n            arrived = 0u;", CLEAN("reduce"),
      "last-block reduce: the arrival count not set back to 0 (the next dispatch has no last workgroup)"),
    M("sh28", "shader", "host/families/memory/mem_width.comp", "if (id < pc.n - nel * WORDS)", "if (id + 1u < pc.n - nel * WORDS)",
      CLEAN("memory") + "|" + CLEAN("copy"), "vec4 copy (copy/vec4, memory.width): scalar tail loses its last word"),
    M("sh29", "shader", "host/families/memory/mem_width.comp", "for (uint i = id; i < nel; i += VKB_GRID_THREADS_X) {", "for (uint i = id; i <= nel; i += VKB_GRID_THREADS_X) {",
      CLEAN("memory") + "|" + CLEAN("copy"), "vec4 copy: one vector past the end (a write past the output)"),
    M("sh30", "shader", "host/families/memory/mem_offset.comp", "dst[i] = src[i + pc.k];", "dst[i] = src[i + pc.k + 1u];",
      CLEAN("memory"), "misaligned loads: offset off by one"),
    M("sh31", "shader", "host/families/memory/mem_soa.comp", "dst[f * pc.n + i] = src[f * pc.n + i];", "dst[f * pc.n + i] = src[f * pc.n + i + (f == 1u ? 1u : 0u)];",
      CLEAN("memory"), "structure of arrays: second field shifted"),
    M("sh32", "shader", "host/families/memory/mem_aos.comp", "dst1[i * REC + f] = src1[i * REC + f];", "dst1[i * REC + f] = src1[i * REC + (f + 1u) % FIELDS];",
      CLEAN("memory"), "array of structures: fields rotated"),
    M("sh35", "shader", "host/families/matmul/matmul_warptile.comp", "    uint tiles = (DIM_K + BK - 1u) / BK;", "    uint tiles = DIM_K / BK;",
      CLEAN("matmul"), "warptile matmul: the last, partial k tile skipped"),
    M("sh36", "shader", "host/families/matmul/matmul_warptile.comp", "            stash((t + 1u) & 1u);", "            stash(t & 1u);",
      CLEAN("matmul"), "warptile matmul: the next tile stored into the stage being read (wrong stage index)"),
    M("sh41", "shader", "host/families/matmul/matmul_warptile_named.comp", "ROW_FMA(7, a1.wwww)", "ROW_FMA(7, a1.zzzz)",
      CLEAN("matmul"), "warptile_named matmul: the last row of each strip multiplied by the row above's A element"),
    M("sh42", "shader", "host/families/matmul/matmul_warptile.glsl", "FIXED_N % BN +", "FIXED_N % 4u +",
      FIXED_TESTS, "warptile FIXED=1: the guards folded at an N no block divides (stray columns)"),
    M("sh43", "shader", "host/families/matmul/matmul_warptile.glsl", "#define DIM_N (FIXED != 0u ? FIXED_N : pc.n)",
      "#define DIM_N (FIXED != 0u ? FIXED_M : pc.n)", FIXED_TESTS, "warptile FIXED=1: N taken from FIXED_M"),
    M("sg01", "shader", "host/families/reduce/subgroup_tail.glsl", "    for (uint j = rank; j < count; j += lanes)",
      "    for (uint j = gl_SubgroupInvocationID; j < count; j += gl_SubgroupSize)",
      r"vkb\.vk\.validate\.sg(32|64)$", "subgroup tail assumes a full subgroup (lavapipe runs 16 active of 32/64)"),
    # --- host checks: tolerances, comparisons, Freivalds, guards, poison ---
    M("ck01", "check", "host/core/bounds.c", "return nu < 1.0 ? nu / (1.0 - nu) : INFINITY;", "return nu < 1.0 ? 1000 * nu / (1.0 - nu) : INFINITY;",
      UNIT_CHECK, "gamma_n loosened 1000x (the audit's survivor)"),
    M("ck02", "check", "host/core/bounds.c", "double depth = n > 1 ? ceil(log2((double)n)) : 0.0;", "double depth = n > 1 ? ceil(log2((double)n)) + 1 : 0.0;",
      UNIT_CHECK, "tree-sum bound: depth one too large"),
    M("ck03", "check", "host/core/bounds.c", "return vkb_gamma(n > 1 ? (double)(n - 1) : 0.0, u) * sum_abs;", "return vkb_gamma(n > 1 ? (double)n : 0.0, u) * sum_abs;",
      UNIT_CHECK, "serial-sum bound: n roundings instead of n - 1"),
    M("ck04", "check", "host/core/check.c", "    if (!(*err <= bound)) { /* NaN", "    if (*err > bound) { /* NaN",
      UNIT_CHECK, "element check: NaN passes (err > bound is false for NaN)"),
    M("ck05", "check", "host/core/check.c", "        if (out[i] != ref[i]) {", "        if (out[i] != ref[i] && i > 0) {",
      UNIT_CHECK + "|" + CLEAN("copy"), "exact compare skips the first word"),
    M("ck30", "check", "host/core/check.c", "        if (out[i] != ref[i]) {", "        if ((out[i] & 0xffffu) != (ref[i] & 0xffffu)) {",
      UNIT_CHECK, "exact word check compares only the low 16 bits of each word (a high-byte flip passes)"),
    M("ck33", "check", "host/core/check.c", "    if (part->max_bound > r->max_bound)\n        r->max_bound = part->max_bound;\n", "",
      r"vkb\.unit\.check_chunks\.", "chunked check: the largest bound not merged across chunks", targets="test_check_chunks"),
    M("ck34", "check", "host/core/product_check.c", "    vkb_check_value(r, index, out, ref, tol);\n    r->cols = cols;",
      "    double keep = r->max_bound;\n    vkb_check_value(r, index, out, ref, tol);\n    r->max_bound = keep;\n    r->cols = cols;",
      r"vkb\.unit\.product\.max_bound_covers$", "product check: the Freivalds blocks' tolerances left out of its largest bound",
      targets="test_product"),
    M("ck06", "check", "host/core/check.c", "    r->pass = r->checked > 0 && r->bad == 0;", "    r->pass = r->bad == 0;",
      UNIT_CHECK, "a check of nothing passes",
      "every check compares at least one element: checked == 0 never happens in the tests or the families"),
    M("ck07", "check", "host/core/product_check.h", "#define VKB_PRODUCT_SIGMAS 8.0", "#define VKB_PRODUCT_SIGMAS 800.0",
      UNIT_CHECK, "large-product tolerance 100x wider"),
    M("ck08", "check", "host/core/product_check.h", "#define VKB_PRODUCT_ROUNDS 4", "#define VKB_PRODUCT_ROUNDS 0",
      UNIT_CHECK, "Freivalds with 0 rounds (the audit's survivor)"),
    M("ck09", "check", "host/core/product_check.h", "#define VKB_PRODUCT_SIGMAS 8.0", "#define VKB_PRODUCT_SIGMAS 80.0",
      UNIT_CHECK, "large-product tolerance 10x wider"),
    M("ck10", "check", "host/core/product_check.c", "                if (!isfinite(v) && bad++ == 0)", "                if (isnan(v) && bad++ == 0)",
      UNIT_CHECK, "the finite scan lets Inf through"),
    M("ck11", "check", "host/core/freivalds.c", "                cx += (double)c[i * n + j] * x[j];\n            /* each C_ij", "                cx += (double)c[i * n + j] * x[j] * (j > 0);\n            /* each C_ij",
      UNIT_CHECK, "Freivalds row check ignores column 0"),
    M("ck12", "check", "host/core/product_check.c", "        int64_t v = t < 16 ? (int64_t)t * 129 % size : size - 1;", "        int64_t v = t < 16 ? (int64_t)t * 129 % size : 0;",
      UNIT_CHECK + "|" + ACC16, "exact lines miss the last (edge) line", targets="vkbench test_check " + ACC16_T),
    M("ck13", "check", "host/core/product_check.c", "    var = ((kk + 1) / 2 + 1) * sum_t + (kk + 1) * (2 * kk + 1) / (6 * kk) * sum_c2;",
      "    var = ((kk + 1) / 2 + 1) * sum_t * kk + (kk + 1) * (2 * kk + 1) / (6 * kk) * sum_c2;",
      UNIT_CHECK, "rounding model: variance K times too large"),
    M("ck14", "check", "host/core/product_check.c", "    var = ((kk + 1) / 2 + 1) * sum_t + (kk + 1) * (2 * kk + 1) / (6 * kk) * sum_c2;",
      "    var = 1e-4 * (((kk + 1) / 2 + 1) * sum_t + (kk + 1) * (2 * kk + 1) / (6 * kk) * sum_c2);",
      UNIT_CHECK, "rounding model: variance 1e4 times too small (false failures)"),
    M("ck15", "check", "host/core/guard.c", "        if (before[o] != pattern[o & 3]) {", "        if (0 && before[o] != pattern[o & 3]) {",
      UNIT_CHECK, "guard scan ignores the band before the start"),
    M("ck16", "check", "host/core/guard.c", "        if (after[o] != pattern[o & 3]) {", "        if (o > 64 && after[o] != pattern[o & 3]) {",
      UNIT_CHECK + "|" + r"vkb\.verify\.copy\.oob_write", "guard scan skips the first 64 bytes after the end"),
    M("ck17", "check", "host/core/half.c", "    if (absx >= 0x477ff000u) /* 65520 and up round to infinity */", "    if (absx > 0x477ff000u) /* 65520 and up round to infinity */",
      UNIT_CHECK, "fp16: 65520 rounds to 65504 instead of infinity",
      equivalent="found after it survived: the general path rounds 65520 (a tie, odd 0x7bff) up, and the carry into the exponent gives infinity"),
    M("ck18", "check", "host/core/half.c", "    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))", "    if (rem >= 0x1000u)",
      UNIT_CHECK, "fp16: ties round away from zero, not to even"),
    M("ck19", "check", "host/core/half.c", "        return (uint16_t)(sign | (uint32_t)lrintf(af * 16777216.0f));", "        return (uint16_t)(sign | (uint32_t)(af * 16777216.0f));",
      UNIT_CHECK, "fp16: subnormals truncated"),
    M("ck20", "poison", "host/core/verify.c", "            if (back[w] != VKB_POISON) {", "            if (back[w] != VKB_POISON && 0) {",
      r"vkb\.verify\.copy\.stale_output", "poison read-back accepts anything"),
    M("ck21", "poison", "host/backends/vulkan/buffers.c", "    fill_job j = {buf->buffer, buf->offset, (buf->bytes + 3) & ~3ull, word};\n    if (buf->bytes)",
      "    fill_job j = {buf->buffer, buf->offset, (buf->bytes + 3) & ~3ull, word};\n    if (0)",
      CLEAN("copy") + "|" + r"vkb\.verify\.copy\.no_dispatch", "poison fill removed (the audit's survivor)"),
    M("ck22", "guard", "host/core/verify.c", "        if (vkb_guard_scan(before, after, role_index(plan, i), role_name(plan->buf[i].role), why, len))",
      "        if (0 && vkb_guard_scan(before, after, role_index(plan, i), role_name(plan->buf[i].role), why, len))",
      r"vkb\.verify\.copy\.oob_write", "guard bands never checked"),
    M("ck23", "guard", "host/backends/vulkan/buffers.c", "    j.word = b->guard;", "    j.word = 0;",
      CLEAN("copy"), "guard bands filled with zeros, not the pattern"),
    M("ck24", "guard", "host/backends/vulkan/backend_vulkan.c",
      "                ((bufs[pass->bind[k]]->bytes + 15) & ~15ull) - fault_range_cut(&p->plan, pass->bind[k])};",
      "                VK_WHOLE_SIZE};", r"vkb\.verify\.copy\.oob_write_past$",
      "descriptor range to the end of the allocation (the guard band is in range: robust access no longer drops a "
      "store past the end)"),
    M("ck31", "guard", "host/backends/vulkan/backend_vulkan.c", "((bufs[pass->bind[k]]->bytes + 15) & ~15ull) -",
      "((bufs[pass->bind[k]]->bytes + 16) & ~15ull) -", r"vkb\.verify\.copy\.oob_write_past$",
      "descriptor range rounded up 16 bytes too far for whole-vec4 buffers (16 bytes of the guard band in range)"),
    M("ck32", "guard", "host/backends/vulkan/buffers.c", "staged(vk, buf, buf->offset + ((buf->bytes + 3) & ~3ull), after, VKB_GUARD_BYTES, 0))",
      "staged(vk, buf, buf->offset + ((buf->bytes + 15) & ~15ull), after, VKB_GUARD_BYTES, 0))",
      r"vkb\.verify\.transpose\.oob_write_past$", "the band after read from the 16-byte-rounded end (a store into the "
      "padding inside the range unseen)"),
    M("ck25", "guard", "host/backends/vulkan/buffers.c", "staged(vk, buf, buf->offset + ((buf->bytes + 3) & ~3ull), after, VKB_GUARD_BYTES, 0))",
      "staged(vk, buf, buf->offset + ((buf->bytes + 3) & ~3ull) + 64, after, VKB_GUARD_BYTES - 64, 0))",
      r"vkb\.verify\.copy\.oob_write", "the band after the end read 64 bytes late"),
    M("ck26", "check", "host/families/reduce/reduce.c", "        vkb_check_value(res, 0, out, c->sum_f, 0.0);", "        vkb_check_value(res, 0, out, c->sum_f, 1.0);",
      r"vkb\.verify\.reduce\.drop_element", "float reduce tolerance 1.0 (larger than one element)"),
    M("ck27", "check", "host/families/reduce/reduce.c", "        c->f[k] = (float)x / 16.0f;",
      "        c->f[k] = (float)vkb_rng_uniform(rng, -1, 1);", CLEAN("reduce"), "float reduce inputs back to uniform (the exact bound then fails)"),
    M("ck28", "check", "host/core/verify.c", "        if (plan->buf[i].role != VKB_BUF_OUTPUT)\n            continue;\n        if (vkb_fault(\"second-run-differs\"))",
      "        if (plan->buf[i].role == VKB_BUF_OUTPUT)\n            continue;\n        if (vkb_fault(\"second-run-differs\"))",
      r"vkb\.verify\.copy\.second_run", "determinism re-run never compares"),
    M("ck29", "check", "host/core/verify.c", "    if (vkb_fault_arg(\"skip-pass\", &k) && k >= 0 && k < plan->npass) {", "    if (vkb_fault_arg(\"skip-pass\", &k) && k >= 0 && k + 1 < plan->npass) {",
      r"vkb\.verify\.copy\.skip_pass0", "the fault harness itself: single-pass plans never skip (the test must notice)"),
    # --- values, not form: the fp16-accumulate checks, the result files' values, rules the
    # runner's fakes could not tell apart, the tools' verdicts, the tensor-core plans' arithmetic ---
    M("ac01", "acc16", "host/core/bounds.c", "VKB_ACC16_U_IN * (*g + fabs(s));", "VKB_ACC16_U_IN * fabs(s);", ACC16,
      "fp16-accumulation bound: the group's sum of absolute products term dropped", targets=ACC16_T),
    M("ac02", "acc16", "host/core/bounds.c", "*e = *e * (1 + VKB_ACC16_U) +", "*e = *e +", ACC16,
      "fp16-accumulation bound: the carried error not grown by (1 + u)", targets=ACC16_T),
    M("ac03", "acc16", "host/core/bounds.h", "return (p + 1) % per == 0 || p == k - 1;", "return (p + 1) % per == 0;", ACC16,
      "fp16 accumulator: the last, partial group never rounded (K not a multiple of 16)", targets=ACC16_T),
    M("ac04", "acc16", "host/families/matmul/matmul_tc.c", "    for (int64_t j = 0; j < n; j++)\n        vkb_check_part_value",
      "    for (int64_t j = 0; j + 1 < n; j++)\n        vkb_check_part_value", ACC16,
      "fp16-accumulate element check skips the last column", targets=ACC16_T),
    M("ac05", "acc16", "host/families/matmul/matmul_tc.c", "        if (vkb_acc16_group_ends(p, k, group))",
      "        if (vkb_acc16_group_ends(p, k, 16))", ACC16,
      "fp16-accumulate check: a library's grouping ignored (always 16)", targets=ACC16_T),
    M("ac06", "acc16", "host/core/bounds.h", "#define VKB_ACC16_U 0x1.0p-10", "#define VKB_ACC16_U 0x1.0p-11", ACC16,
      "fp16 accumulator's unit: round to nearest's, truncation not covered", targets=ACC16_T),
    M("ac07", "acc16", "host/families/matmul/matmul_tc.c", "    for (int64_t i = t * run->rows; i < (int64_t)vkb_task_end(t, (uint64_t)run->rows, (uint64_t)run->m); i++)\n",
      "    for (int64_t i = t * run->rows; i + 1 < (int64_t)vkb_task_end(t, (uint64_t)run->rows, (uint64_t)run->m); i++)\n",
      ACC16,
      "fp16-accumulate element check skips each chunk's last row", targets=ACC16_T),
    M("ac08", "acc16", "host/families/matmul/matmul_tc.c", "vkb_check_part_value(part, (uint64_t)(i * n + j),",
      "vkb_check_part_value(part, (uint64_t)(i * k + j),", ACC16,
      "fp16-accumulate check names the wrong element (row stride K)", targets=ACC16_T),
    M("ac09", "acc16", "host/core/bounds.c", "+ VKB_ACC16_U * fabs(s) +", "+ VKB_ACC16_U * fabs(*g) +", ACC16,
      "fp16-accumulation bound: the group's sum of absolute products for the partial sum (too loose)", targets=ACC16_T),
    # --- the int8 rows' large check and the large-product references a matmul case keeps ---
    M("s801", "check", "host/families/matmul/matmul_s8_check.c", "    for (int r = 0; r < ROUNDS; r++) {\n        compare_lines(",
      "    for (int r = 0; r < 1; r++) {\n        compare_lines(", S8_REFS, "int8 check: the second round's lines not compared",
      targets=S8_REFS_T),
    M("s802", "check", "host/families/matmul/matmul_s8_check.c", "    merge(got_c, sp.part, blocks(m), sp.per, sp.per);",
      "    merge(got_c, sp.part, blocks(m) - 1, sp.per, sp.per);", S8_REFS,
      "int8 check: the last row block's column sums of C left out", targets=S8_REFS_T),
    M("s803", "check", "host/families/matmul/matmul_s8_check.c", "            const uint64_t *x = f->xr + r * f->n;\n            uint64_t s = 0, y",
      "            const uint64_t *x = f->xr;\n            uint64_t s = 0, y", S8_REFS,
      "int8 check: C x of the second round taken with the first round's vector", targets=S8_REFS_T),
    M("s804", "check", "host/families/matmul/matmul_s8_check.c", "        for (int64_t j = 0; j < n; j++)\n            vkb_check_value(",
      "        for (int64_t j = 0; j + 1 < n; j++)\n            vkb_check_value(", S8_REFS,
      "int8 check: the exact rows' last element not compared", targets=S8_REFS_T),
    M("s805", "check", "host/families/matmul/matmul.c", "vkb_product_ref **ref = bf16 ? &c->refbf : f16 ? &c->ref16 : &c->ref32;",
      "vkb_product_ref **ref = bf16 ? &c->ref16 : f16 ? &c->ref16 : &c->ref32;", S8_REFS,
      "matmul: the bf16 rows share the fp16 rows' reference (a stale reference of other inputs)", targets=S8_REFS_T),
    M("sv01", "values", "host/output/json_sink.c", 'vkb_json_number(j, "q1", quartiles ? t->q1 / 1e6 : NAN);',
      'vkb_json_number(j, "q1", quartiles ? t->min / 1e6 : NAN);',
      SINKS, "JSON: the first quartile written as the minimum", targets=SINKS_T),
    M("sv02", "values", "host/output/json_sink.c", 'vkb_json_number(j, "ceiling", r->ceiling ? r->ceiling->metric : NAN);',
      'vkb_json_number(j, "ceiling", r->ceiling ? r->metric : NAN);', SINKS, "JSON: the ceiling's metric written as the row's own",
      targets=SINKS_T),
    M("sv03", "values", "host/output/json_sink.c", 'vkb_json_int(j, "index", (int64_t)r->cross_index);',
      'vkb_json_int(j, "index", (int64_t)r->check.first_bad);', SINKS,
      "JSON: the cross-backend element's index copied from the check's", targets=SINKS_T),
    M("sv04", "values", "host/output/json_sink.c", 'vkb_json_number(j, "stddev", spread ? t->stddev / 1e6 : NAN);',
      'vkb_json_number(j, "stddev", spread ? t->stddev / 1e3 : NAN);', SINKS, "JSON: the standard deviation in microseconds", targets=SINKS_T),
    M("sv05", "values", "host/output/json_sink.c", 'vkb_json_int(j, "wrong", (int64_t)r->check.bad);',
      'vkb_json_int(j, "wrong", (int64_t)r->check.checked);', SINKS, "JSON: the wrong count written as the checked count",
      targets=SINKS_T),
    M("sv06", "values", "host/output/csv_sink.c", "    number(out, r->time_ns.q3 / 1e6, t && r->time_ns.n >= VKB_STATS_MIN_QUARTILES);",
      "    number(out, r->time_ns.median / 1e6, t && r->time_ns.n >= VKB_STATS_MIN_QUARTILES);",
      SINKS, "CSV: the third quartile written as the median", targets=SINKS_T),
    M("sv07", "values", "host/output/csv_sink.c", "    number(out, r->fraction, c);", "    number(out, r->predicted, c);",
      SINKS, "CSV: the fraction of the ceiling written as the prediction", targets=SINKS_T),
    M("sv08", "values", "host/output/csv_sink.c", "    number(out, r->check.tolerance, checked);", "    number(out, r->check.max_error, checked);",
      SINKS, "CSV: the tolerance written as the error", targets=SINKS_T),
    M("sv09", "values", "host/output/json_sink.c", "vkb_json_int(j, vkb_mc_class_names[k], (int64_t)p->mc.count[k]);",
      "vkb_json_int(j, vkb_mc_class_names[k], (int64_t)p->mc.count[k > 0 ? k - 1 : 0]);", SINKS,
      "JSON: the machine-code counts one class off", targets=SINKS_T),
    M("sv10", "values", "host/output/repeats.c", "        if (r->suspect && !out->r.suspect) {",
      "        if (r->suspect && k == 0) {", SINKS,
      "--repeat: only the first round's SUSPECT reaches the folded row", targets=SINKS_T),
    M("sv11", "values", "host/output/repeats.c", "    for (int k = 0; k < n; k++)\n        if (runs[k]->status == VKB_RES_FAIL)",
      "    for (int k = 0; k < n - 1; k++)\n        if (runs[k]->status == VKB_RES_FAIL)", SINKS,
      "--repeat: a failure in the last round is not the folded row", targets=SINKS_T),
    M("sv12", "values", "host/output/json_sink.c", "            if (r->check.bad_row >= 0)", "            if (r->check.bad_row > 0)", SINKS,
      "JSON: a failure in row 0 written with a null row", targets=SINKS_T),
    M("sv13", "values", "host/output/json_sink.c", "            vkb_json_int(j, \"output\", r->cross_buffer);",
      "            if (r->cross_buffer)\n                vkb_json_int(j, \"output\", r->cross_buffer);", SINKS,
      "JSON: the cross-backend failure's output 0 left out", targets=SINKS_T),
    M("wc01", "work", "host/families/transfer/transfer.c", "(both_ways(v) ? 2 : 1); /* the bytes that cross */",
      "1; /* the bytes that cross */", WORK, "transfer: a two-way row counts one direction's bytes", targets=WORK_T),
    M("wc02", "work", "host/families/latency/latency.c", "    return (double)count_of(v, c);", "    return (double)c->shape.d[0];",
      WORK, "latency: the submit rows count n dispatches where they run one", targets=WORK_T),
    M("wc03", "work", "host/families/cache/cache.c", "    p->work = (double)p->check_depth * 16;      /* bytes read */",
      "    p->work = (double)p->check_depth * 4;      /* bytes read */", WORK, "cache.read: a uvec4 load counted as 4 bytes",
      targets=WORK_T),
    M("wc04", "work", "host/families/cache/cache.c", "    return CHASE_HOPS; /* dependent loads */",
      "    return CHASE_HOPS + 1; /* dependent loads */", WORK, "cache.chase: one hop more than the kernel walks", targets=WORK_T),
    M("wc05", "work", "host/families/peak/peak.c", "PEAK_CHAINS * (double)steps * ops_of[v->param];",
      "PEAK_CHAINS * (double)vc->shape.d[1] * ops_of[v->param];", WORK, "peak: trips counted as steps (the unroll left out)",
      targets=WORK_T),
    M("wc06", "work", "host/families/peak/rows.h", "X(fma_f32x4, peak_fma_f32x4, PEAK_T_F32X4, 8,",
      "X(fma_f32x4, peak_fma_f32x4, PEAK_T_F32X4, 2,", WORK, "peak: the vec4 FMA row counts one lane", targets=WORK_T),
    M("sv14", "values", "host/core/family.c", "return v && (v->flags & VKB_VAR_INTEGER_OPS)",
      "return 0 && v && (v->flags & VKB_VAR_INTEGER_OPS)", SINKS,
      "an integer row's unit ignored: peak's mad_i32 labelled GFLOP/s", targets=SINKS_T),
    M("rn01", "rules", "host/core/runner/judge.c",
      "        if (!best || rank < before || (time ? c->metric < best->metric : c->metric > best->metric))",
      "        if (!best || rank < before)", RUNNER,
      "ceiling: the first measured, not the fastest", targets="test_runner"),
    M("rn02", "rules", "host/core/runner/judge.c", "(time ? c->metric < best->metric : c->metric > best->metric))",
      "(time ? c->metric < best->metric : c->metric < best->metric))", RUNNER,
      "ceiling: the slowest", targets="test_runner"),
    M("rn12", "rules", "host/core/runner/judge.c", "        if (n == len && strncmp(p, name, n) == 0) {",
      "        if (!(n == len && strncmp(p, name, n) == 0)) {", RUNNER,
      "ceiling: a row's named ceiling skipped, not the others", targets="test_runner"),
    M("rn03", "rules", "host/core/runner/compare.c", "    double tol = saved->max_bound + res->check.max_bound;", "    double tol = res->check.max_bound;",
      RUNNER, "cross-backend: one check's largest bound, not both summed", targets="test_runner"),
    M("rn14", "rules", "host/core/runner/compare.c", "    double tol = saved->max_bound + res->check.max_bound;",
      "    double tol = saved->max_bound + res->check.tolerance;", SINKS,
      "cross-backend: the worst element's bound, not the largest (a correct row fails)", targets=SINKS_T),
    M("rn04", "rules", "host/core/runner/compare.c", "        if (!j->exact && diff <= j->tol)", "        if (!j->exact && diff < j->tol)", RUNNER,
      "cross-backend: a difference equal to the tolerance counted beyond it", targets="test_runner"),
    M("rn05", "rules", "host/core/runner/compare.c", "            if (sp->max_diff > res->cross_max_diff)", "            if (sp->max_diff > 0)", RUNNER,
      "cross-backend: the largest difference from the last span that has one", targets="test_runner"),
    M("rn06", "rules", "host/core/verify.c", "VKB_POISON, words * 4, &w)) == 0)", "VKB_POISON, words * 4, &w)) <= 0)", RUNNER,
      "poison check: a device compare that cannot compare (-1) read as all poisoned", targets="test_runner"),
    M("rn07", "rules", "host/core/verify.c", "        if (differing > 0) { /* the device saw", "        if (differing != 0) { /* the device saw",
      RUNNER, "poison check: a device compare's -1 read as a disagreement", targets="test_runner"),
    M("rn08", "rules", "host/core/timing.c", "    return fabs(b - a) <= SETTLE_FRACTION * b;", "    return fabs(b - a) <= SETTLE_FRACTION * a;",
      STATS, "settle rule: the move judged against the older median", targets="test_stats"),
    M("rn09", "rules", "host/core/timing.c", "    if (n < MIN_SAMPLES || prev_n < 1)", "    if (n < MIN_SAMPLES - 1 || prev_n < 1)", STATS,
      "settle rule: judged from 9 samples", targets="test_stats"),
    M("rn10", "rules", "host/core/timing.c", "            if (n >= MIN_SAMPLES && n >= 2 * prev_n) {",
      "            if (n >= MIN_SAMPLES && n > prev_n) {", TIMING, "settle rule: judged after every batch, not when the "
      "count has doubled (a slow drift looks settled)", targets="test_timing"),
    M("rn11", "rules", "host/core/timing.c", "    st->settled = settled;", "    st->settled = 1;", TIMING,
      "settle: a run the budget ended reported settled", targets="test_timing"),
    M("rn13", "rules", "host/core/runner/judge.c", "strcmp(res->variant->name, \"api_copy\") == 0 || (res->variant->flags & VKB_VAR_SHADER_COPY);",
      "strcmp(res->variant->name, \"api_copy\") == 0;", RUNNER,
      "a family's shader copy not counted as a copy (every kernel as fast as it suspect beside a slow API copy)",
      targets="test_runner"),
    M("tl01", "tools", "tools/report.py", "out[fam] = (len(rs), vkbjson.geomean(rs))",
      "out[fam] = (len(rs), sum(rs) / len(rs))", TOOLS_V,
      "report: the arithmetic mean of Vulkan / CUDA, not the geometric", targets="vkbench"),
    M("tl02", "tools", "tools/report.py", 'if r["family"] == fam and not r["ceiling_row"]:', 'if r["family"] == fam:', TOOLS_V,
      "report: the ceilings counted in the Vulkan / CUDA mean", targets="vkbench"),
    M("tl03", "tools", "tools/report.py", "} of {m['ceiling_variant']} ({m['ceiling_backend']})\"", "} of {m['ceiling_variant']} ({r['backend']})\"",
      TOOLS_V, "report: the ceiling's API named as the row's own", targets="vkbench"),
    M("tl04", "tools", "tools/tune.py", "key=lambda x: -speed(x[2]))", "key=lambda x: speed(x[2]))", TOOLS_V,
      "tune: ranked slowest first", targets="vkbench"),
    M("tl05", "tools", "tools/tune.py", "if local is not None and local >= 2 ** 36:", "if local is not None and local > 2 ** 36:",
      TOOLS_V, "tune: a spill-free NVIDIA pipeline's 2^36 kept", targets="vkbench"),
    M("tp01", "plan", "host/families/matmul/matmul_tc.c", "nsub * fm * fn * (acc16 ? 2u : 4u);", "nsub * fm * fn * (acc16 ? 4u : 2u);",
      TC_PLANS, "coopmat_khr shared memory: fp16 and fp32 C fragments swapped", targets="test_tc_plans"),
    M("tp02", "plan", "host/families/matmul/matmul_tc.c", "        local[0] = nsub * caps->subgroup_size;", "        local[0] = nsub * 32u;",
      TC_PLANS, "coopmat_khr workgroup: 32 lanes a subgroup assumed", targets="test_tc_plans"),
    M("tp03", "plan", "host/families/matmul/matmul_tc.c", "if (*shared <= caps->max_shared_bytes || spec[2] % (2u * fk) ||",
      "if (*shared <= caps->max_shared_bytes || spec[2] % fk ||", TC_PLANS,
      "coopmat_khr k-step halved below the fragment's K", targets="test_tc_plans"),
    M("tp04", "plan", "host/families/matmul/matmul_tc.c", "        *shared = 2u * spec[0] * (spec[2] * eb + 16u) + b_stages_bytes(spec[1], spec[2], eb, s8);",
      "        *shared = 2u * spec[0] * (spec[2] * eb) + b_stages_bytes(spec[1], spec[2], eb, s8);", TC_PLANS,
      "coopmat2_staged shared memory: A's padding chunk forgotten", targets="test_tc_plans"),
    M("tp05", "plan", "host/families/matmul/matmul_tc.c", "    *tile_n = local[0] / caps->subgroup_size * 4u * spec[6];",
      "    *tile_n = local[0] / caps->subgroup_size * spec[6];", TC_PLANS, "peak tile: one fragment a subgroup, not four",
      targets="test_tc_plans"),
    M("tp06", "plan", "host/families/matmul/matmul_tc.c", "frags > KHR_MAX_FRAGS ? KHR_MAX_FRAGS : frags",
      "frags > 2u * KHR_MAX_FRAGS ? 2u * KHR_MAX_FRAGS : frags", TC_PLANS,
      "coopmat_khr: a device-chosen subgroup tile of more fragments than the shader names", targets="test_tc_plans"),
    # --- tensor-core shaders at another implementation's fragments (Mesa 26 lavapipe: 8x8x8, subgroup 8) ---
    M("tc01", "shader", "host/families/matmul/matmul_coopmat_khr.comp", "#define MMA(i, j) if (i < FM && j < FN) acc##i##j = coopMatMulAdd(fa##i, fb##j, acc##i##j);",
      "#define MMA(i, j) if (i < FM && j < FN) acc##i##j = coopMatMulAdd(fa##j, fb##i, acc##i##j);", LVP26_TC,
      "coopmat_khr: wrong fragment walk (accumulator (i, j) fed A's fragment j and B's fragment i)"),
    M("tc02", "shader", "host/families/matmul/matmul_coopmat_khr.comp", "for (uint kk = 0; kk < BK; kk += FRAG_K)",
      "for (uint kk = 0; kk + FRAG_K < BK; kk += FRAG_K)", LVP26_TC,
      "coopmat_khr: wrong K step (the last fragment of each k-tile skipped)"),
    M("tc03", "shader", "host/families/matmul/matmul_coopmat_khr.comp", "            c[gm * pc.n + gn] = cs[sub * FRAG_C + e];",
      "            c[gm * pc.k + gn] = cs[sub * FRAG_C + e];", LVP26_TC,
      "coopmat_khr: wrong store stride (C's rows K apart)"),
    M("tc04", "shader", "host/families/matmul/matmul_coopmat_khr.comp", "for (uint kk = 0; kk < BK; kk += FRAG_K)",
      "for (uint kk = 0; kk + FRAG_K < BK; kk += FRAG_K)", LVP26_INT8,
      "coopmat_khr_s8: one k-step of each k-tile skipped (the int8 build of the same loop)"),
    M("tc05", "shader", "host/families/matmul/matmul_tc_stage.glsl",
      "        p[q] = sh != 0u ? w[q] >> sh | w[q + 1u] << (32u - sh) : w[q];", "        p[q] = w[q];", LVP26_INT8,
      "int8 staging: the bytes of a row that starts inside a word not shifted into place"),
    M("tc06", "shader", "host/families/matmul/matmul_tc_stage.glsl",
      "(4u * q.y + ((j + rot) & 3u)) * BSTR", "(4u * q.y + j) * BSTR", LVP26_INT8,
      "int8 B staged k-major: the rotated columns stored at the unrotated rows"),
    M("tc07", "shader", "host/families/matmul/matmul_tc_stage.glsl",
      "            w[r] = b2[((row + r) * pc.n + col) >> 2];", "            w[r] = b2[((row + (r & 2u)) * pc.n + col) >> 2];",
      LVP26_INT8, "int8 B staged k-major: the whole-word path reads the wrong k rows (only at N a multiple of 4)"),
    # the peak's cooperative-matrix rows: every operand of A and B reaches the result (a wrong stride past the
    # first row passed the check while A's nonzeros sat in its first column alone)
    M("tc08", "shader", "host/families/peak/peak_coopmat.comp", "coopMatLoad(fb, ab, bbase, FRAG_N / PER_WORD, ROW_MAJOR);",
      "coopMatLoad(fb, ab, bbase, FRAG_N / PER_WORD - 1u, ROW_MAJOR);", r"vkb\.lvp26\.peak\.coopmat$",
      "peak coopmat: B loaded at a row stride one word short (every row past the first from the wrong place)"),
    M("tc09", "shader", "host/families/peak/peak_coopmat.comp", "coopMatLoad(fa, ab, abase, FRAG_K / PER_WORD, ROW_MAJOR);",
      "coopMatLoad(fa, ab, abase, FRAG_K / PER_WORD - 1u, ROW_MAJOR);", r"vkb\.lvp26\.peak\.coopmat$",
      "peak coopmat: A loaded at a row stride one word short"),
    M("pk01", "checks", "host/families/peak/peak_coopmat.c", " * (8 * q + u == flip ? -1 : 1);", ";",
      r"vkb\.unit\.peak_coopmat\.", "peak coopmat: A's negated element left out (every product 0: no step moves)",
      targets="test_peak_coopmat"),
    # --- timing ---
    M("tm01", "timing", "host/core/timing.c", "        if (!(ns[r] > 0) && !timer_error[0])", "        if (!(ns[r] >= 0) && !timer_error[0])",
      r"vkb\.verify\.timer\.zero", "zero time accepted"),
    M("tm02", "timing", "host/core/timing.c", "    if (sum > host * HOST_SLACK + HOST_MARGIN_NS && !timer_error[0])", "    if (sum > 1e6 * host * HOST_SLACK + HOST_MARGIN_NS && !timer_error[0])",
      r"vkb\.verify\.timer\.reversed", "device time no longer bounded by the host's",
      "with 64 valid timestamp bits a reversed pair is negative and the order check catches it first; the host bound matters for narrower counters (wrap), not seen on lavapipe"),
    M("tm03", "timing", "host/core/timing.c", "#define SPAN_FRACTION 0.02", "#define SPAN_FRACTION 0.0",
      r"vkb\.verify\.timer\.early", "early end timestamps accepted"),
    M("tm04", "timing", "host/backends/vulkan/backend_vulkan.c", "            uint64_t start = ts[2 * r + reversed] & mask, end = ts[2 * r + 1 - reversed] & mask;",
      "            uint64_t start = ts[2 * r + 1 - reversed] & mask, end = ts[2 * r + reversed] & mask;",
      r"vkb\.verify\.copy\.clean|vkb\.vk\.copy\.sizes|vkb\.verify\.timer", "reversed subtraction (the audit's survivor)"),
    M("tm05", "timing", "host/backends/vulkan/backend_vulkan.c", "            vkCmdWriteTimestamp(cmd, j->early_stage, j->impl->queries, 2u * (uint32_t)r + 1);\n        record_passes",
      "            vkCmdWriteTimestamp(cmd, j->early_stage, j->impl->queries, 2u * (uint32_t)r + 1);\n        if (0) record_passes",
      r"vkb\.verify\.timer\.early", "the fault switch itself disabled: timer-early writes the end correctly (the test must notice)"),
    M("tm06", "timing", "host/backends/vulkan/backend_vulkan.c", "        if (j->timed && j->early_end)", "        if (j->timed)",
      r"vkb\.vk\.copy\.sizes|vkb\.vk\.copy\.run_json", "end timestamp written before the work, always (the audit's survivor)"),
    # --- narrow workgroups, low bits, work counts ---
    M("nw01", "shader", "host/families/reduce/vec4_load.glsl", "for (i = gid; i < (pc.n & 3u); i += grid)",
      "for (i = gid; i < (pc.n & 3u); i += 4u)", r"vkb\.vk\.validate\.narrow_workgroup_sg8$",
      "reduce: the vec4 tail by 4 instead of the grid (a grid of 1 or 2 threads drops tail elements)"),
    M("lb01", "checks", "host/core/check.c", "        if (out[i] != ref[i]) {", "        if ((out[i] >> 8) != (ref[i] >> 8)) {",
      r"vkb\.unit\.check\.words_low_bits$|vkb\.verify\.copy\.low_bit$", "exact check: words compared without their low byte"),
    M("wc09", "checks", "host/families/peak/peak.c", "2.0 * frag[0] * frag[1] * frag[2];",
      "2.0 * frag[0] * frag[1] * frag[1];", r"vkb\.unit\.work_counts\.",
      "peak: a cooperative-matrix row's work counted with M N N", targets="test_work_counts"),
    M("tm07", "timing", "host/core/timing.c", "    b->execute(b, prepared, bufs, reps, cold, ns);\n    host = busy = vkb_now_ns() - t0;",
      "    host = busy = vkb_now_ns() - t0;\n    b->execute(b, prepared, bufs, reps, cold, ns);", r"vkb\.verify\.timer|vkb\.vk\.copy\.sizes",
      "host clock read before the submission (every batch then exceeds it)"),
    M("tm08", "timing", "host/backends/vulkan/backend_vulkan.c", "            ns[done + r] = (double)ticks * vk->timestamp_period_ns;",
      "            ns[done + r] = (double)ticks;", r"vkb\.verify\.timer|vkb\.vk\.copy\.sizes",
      "timestampPeriod ignored"),
    # --- CUDA twins: built here (--cuda-mutants), run on the GPU (tools/gpu.sh cuda-mutants): gpu= is the command
    # that must fail (a guard off by one writes into the guard band at 33 x 17; a timer fault needs `run`) ---
    M("tl20", "tools", "tools/vkbjson.py", "        if type(v) not in types or (numeric and not -LIMIT < v < LIMIT):",
      "        if not isinstance(v, types) or (numeric and not -LIMIT < v < LIMIT):", r"vkb\.tools\.every_tool\.hostile$",
      "vkbjson: a JSON boolean taken as a number (Python's True is an int)", targets="vkbench"),
    M("tl21", "tools", "tools/vkbjson.py", "    if \"devices\" in doc and doc[\"devices\"] is None:", "    if False:",
      r"vkb\.tools\.every_tool\.hostile$", "vkbjson: \"devices\": null passed on (a traceback in every tool)", targets="vkbench"),
    M("tl22", "tools", "tools/vkbjson.py", "            path = self.path = os.path.realpath(path)", "            pass",
      r"vkb\.tools\.vkbjson\.output_paths$", "tools' outputs: a link's file written in place (the old file's tail kept)", targets="vkbench"),
    M("tl23", "tools", "tools/vkbjson.py", "                _remove_temporaries_on_signals()\n", "",
      r"vkb\.tools\.vkbjson\.temporaries_on_signals$", "tools' outputs: SIGTERM/SIGHUP leave the temporary behind", targets="vkbench"),
    M("tl24", "tools", "tools/vkbschema.py", "(math.isfinite(x) if type(x) is float else abs(x) <= sys.float_info.max)",
      "(type(x) is int or math.isfinite(x))", r"vkb\.tools\.vkbschema\.schema_numbers$",
      "check_json/schema: a 400-digit integer taken as a number", targets="vkbench"),
    # --- compare.py's gate and fleet.py's slow-GPU rule at their edges (tests compare_gate, rule_edges) ---
    M("tl30", "tools", "tools/compare.py", 'else "SLOWER" if ratio < 1 - opts.threshold else "slower"',
      'else "SLOWER" if ratio <= 1 - opts.threshold else "slower"', r"vkb\.tools\.compare\.",
      "compare: a loss of exactly --threshold counted as a regression", targets="vkbench"),
    M("tl31", "tools", "tools/compare.py", "    return vkbjson.device_key(r, with_backend)", "    return vkbjson.key(r, with_backend)",
      r"vkb\.tools\.compare\.", "compare: the two GPUs of a --device all file taken as one row", targets="vkbench"),
    M("tl32", "tools", "tools/compare.py", "    keys = set(base.timed) | {k for c in cands for k in c.failed}",
      "    keys = set(base.timed)", r"vkb\.tools\.compare\.", "compare: a failed row the baseline lacks passes the gate",
      targets="vkbench"),
    M("tl33", "tools", "tools/compare.py", "smallest_p(len(bv), len(cv)) > opts.alpha or",
      "smallest_p(len(bv), len(cv)) >= opts.alpha or", r"vkb\.tools\.compare\.",
      "compare: the rank test's guard off by one where 3 runs a side decide", targets="vkbench"),
    M("tl34", "tools", "tools/compare.py", "        if k in cand.failed:", "        if k in cand.failed and k not in cand.timed:",
      r"vkb\.tools\.compare\.", "compare: a row failed in one run and timed in another not FAIL", targets="vkbench"),
    M("tl35", "tools", "tools/fleet.py", "sum(d.name == dev.name and d.driver == dev.driver for d in devices) < MIN_GROUP",
      "sum(d.name == dev.name for d in devices) < MIN_GROUP", r"vkb\.tools\.fleet\.",
      "fleet: peers counted across drivers (a model of two drivers said compared)", targets="vkbench"),
    M("tl36", "tools", "tools/fleet.py", "            expected = 2 * sum(k in d.status for d in devs) > len(devs)",
      "            expected = 2 * sum(k in d.status for d in devs) >= len(devs)", r"vkb\.tools\.fleet\.",
      "fleet: a row half the devices ran expected of all", targets="vkbench"),
    M("tl37", "tools", "tools/fleet.py", "                sigma = max(group_sigma, SIGMA_PER_IQR * own if own else 0, MIN_SIGMA)",
      "                sigma = max(group_sigma, MIN_SIGMA)", r"vkb\.tools\.fleet\.",
      "fleet: a row's own spread left out of its noise bound", targets="vkbench"),
    M("tl38", "tools", "tools/fleet.py", "            t = [vkbjson.median(ts) for ts in (d.times[k] for d in timed)]",
      "            t = [ts[0] for ts in (d.times[k] for d in timed)]", r"vkb\.tools\.fleet\.",
      "fleet: a device's first run of a row taken for all its runs", targets="vkbench"),
    M("tl39", "tools", "tools/compare.py", "    ratio = vkbjson.ratio(vkbjson.median(cv), vkbjson.median(bv))",
      "    ratio = vkbjson.median(cv) / vkbjson.median(bv)", r"vkb\.tools\.every_tool\.hostile$",
      "compare: 1e308 against 1e-300 a ratio of 0 (log(0))", targets="vkbench"),
    M("tl40", "tools", "tools/plot.py", 'if r["ceiling_row"] and r["device_rank"] == rank]', 'if r["ceiling_row"]]',
      r"vkb\.tools\.plot\.types$", "plot: a GPU's roofline under the other GPU's memory roof", targets="vkbench"),
    # --- faults: signals while several devices are busy (tests/cli/faults.py) ---
    M("fs01", "faults", "host/core/backend.c", "    e->code = 128 + sig;", "    e->code = VKB_EXIT_API;",
      r"vkb\.bad\.fault\.devices_", "stop: a device past the stop grace taken for a failed one (exit 5, not 128+sig)"),
    M("er01", "faults", "host/core/runner/runner.c", "        if ((failed = vkb_runner_device_error(r))) {",
      "        if (0 && (failed = vkb_runner_device_error(r))) {", RUNNER + r"|vkb\.vk\.devices\.device_lost$",
      "a device's recorded error unread: its cases run on against a lost device", targets="vkbench test_runner"),
    M("fs02", "faults", "host/app/devices.c", "    vkb_outfile_report(); /* a result file", "    (void)0; /* a result file",
      r"vkb\.bad\.fault\.devices_output", "--device all: a result file that cannot be written gives exit 6 and no line"),
    M("fs03", "faults", "host/app/devices.c",
      "interrupted |= runs[i].runner.interrupted || runs[i].runner.done < runs[i].runner.nwork || e;",
      "interrupted |= runs[i].runner.interrupted;", r"vkb\.bad\.fault\.devices_lost",
      "--device all: a device lost mid-run leaves the files marked not interrupted"),
    M("fs05", "faults", "host/app/devices.c", "        while (ilen && isspace((unsigned char)*item))", "        while (0 && isspace((unsigned char)*item))",
      r"vkb\.bad\.devices\.devices_spaces", "--device '0, 1': the space read as part of a name (device 0 named twice)", targets="vkbench"),
    M("fs06", "faults", "host/core/fault.c", "        if (v < spec->lo[n] || v > spec->hi[n])", "        if (v > spec->hi[n])",
      r"vkb\.bad\.env\.fault_inject_", "VKB_FAULT_INJECT: a number below its range (signal 0) planted as nothing", targets="vkbench"),
    M("fs07", "faults", "host/core/util.c", "            if ((unsigned char)*p < 0x20 || *p == 0x7f)\n                *p = '?';\n    } else if",
      "            if (0)\n                *p = '?';\n    } else if", r"vkb\.bad\.fault\.host_control",
      "VKB_HOST's control characters reach the terminal raw", targets="vkbench"),
    M("pl10", "plan", "host/families/cache/cache.c", "        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,\n                             \"n=%llu bytes: past",
      "        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,\n                             \"n=%llu bytes: past", r"vkb\.unit\.families\.too_large",
      "cache.*: a footprint past 32-bit indexing a bad request (exit 2), not too large (4)", targets="test_families"),
    M("pl11", "plan", "host/core/device_limits.c", "    if (strcmp(n, h) == 0) {", "    if (0) {", r"vkb\.unit\.families\.device_limits",
      "limits: 'needs a 256 MiB buffer; allows 256 MiB' (rounded sizes alike)", targets="test_families"),
    M("fs08", "faults", "host/core/machine_code.c", "    mc.on = 1;\n    mc.seen = vkb_calloc",
      "    mc.on = 1;\n    vkb_mc_make_folder();\n    mc.seen = vkb_calloc", r"vkb\.bad\.fault\.refused_creates_no_sass",
      "--sass: the folder created before the request's checks (a refused request leaves it)", targets="vkbench"),
    M("pl12", "plan", "host/families/cache/cache.c", "        uint64_t j = vkb_rng_u64(&rng) % i;", "        uint64_t j = vkb_rng_u64(&rng) % (i + 1);",
      r"vkb\.unit\.families\.chase_one_cycle", "cache.chase: Fisher-Yates for Sattolo (several cycles, a smaller footprint)",
      targets="test_families"),
    M("sh50", "shader", "host/families/reduce/subgroup_tail.glsl", "        T v = subgroup_sum_shared(min(gl_WorkGroupSize.x, gl_SubgroupSize));",
      "        T v = subgroup_sum_shared(gl_SubgroupSize);", r"vkb\.vk\.reduce\.workgroup_below_subgroup$",
      "reduce tail: a whole subgroup's slots summed when the workgroup is narrower (--spec 0=4 at subgroup 16)"),
    M("fs04", "faults", "host/core/runner/runner.c", "    res->error = error; /* the files record why */", "    res->error = several ? NULL : error; /* the files record why */",
      r"vkb\.bad\.fault\.devices_lost", "--device all: the cases a lost device failed carry no error"),
    M("cu01", "cuda", "host/families/transpose/transpose.cu", "        if (c >= cols)", "        if (c > cols)", None, "CUDA naive transpose: column guard off by one",
      gpu="validate transpose --backend cuda --variant naive --rows 33 --cols 17"),
    M("cu02", "cuda", "host/families/transpose/transpose.cu", "            if (r < cols && c < rows)", "            if (r <= cols && c < rows)", None, "CUDA tiled transpose: output guard off by one",
      gpu="validate transpose --backend cuda --variant padded --rows 33 --cols 17"),
    M("dp05", "cuda", "host/families/transpose/transpose.cu", "                    load(s, (ahead % tiles_x) * TILE, (ahead / tiles_x) * TILE);",
      "                    load((s + 1u) % DEPTH, (ahead % tiles_x) * TILE, (ahead / tiles_x) * TILE);", None,
      "CUDA deep transpose: the tile DEPTH ahead loaded into the next slot",
      gpu="validate transpose --backend cuda --variant vec4_tile64_deep,tile64_deep --rows 130 --cols 129"),
    M("cu03", "cuda", "host/families/reduce/reduce.cu", "                if (t % (2u * s) == 0u)\n                    sh[t] += sh[t + s];", "                if (t % s == 0u)\n                    sh[t] += sh[t + s];", None, "CUDA interleaved reduce: every slot adds its neighbour",
      gpu="validate reduce --backend cuda --variant interleaved_divergent --n 1000"),
    M("cu04", "cuda", "host/families/reduce/reduce.cu", "    for (unsigned i = blockIdx.x * L + t; i < n; i += threads)", "    for (unsigned i = blockIdx.x * L + t + 1; i < n; i += threads)", None, "CUDA grid-stride reduce drops elements",
      gpu="validate reduce --backend cuda --variant stride_global_threads --n 1000"),
    M("cu05", "cuda", "cuda/module.cu", "TRY(cudaEventElapsedTime(&ms, events[2 * r], events[2 * r + 1]));", "TRY(cudaEventElapsedTime(&ms, events[2 * r + 1], events[2 * r]));", None, "CUDA events subtracted in reverse",
      gpu="run copy --backend cuda --variant vec4 --n 2^24 --reps 5 --warmup-ms 0"),
    M("cu06", "cuda", "cuda/module.cu", "    fill_words<<<1024, 256, 0, stream>>>((uint32_t *)dst, word, bytes / 4);", "    fill_words<<<1024, 256, 0, stream>>>((uint32_t *)dst, word, bytes / 8);", None, "CUDA poison fills half the buffer",
      gpu="validate copy --backend cuda --variant vec4 --n 1000"),
    M("cu07", "cuda", "host/families/matmul/matmul.cu", "            stash((t + 1u) & 1u);", "            stash(t & 1u);", None, "CUDA warptile matmul: the next tile stored into the stage being read",
      gpu="validate matmul --backend cuda --variant warptile --m 130 --n 129 --k 40"),
]


def run(cmd, cwd, timeout):
    try:
        p = subprocess.run(cmd, cwd=cwd, shell=True, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return 124, "timeout"


ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
MODULE, TARGET = "libvkbench_cuda.so", "vkbench_cuda"   # the CUDA module and its CMake target


def cuda_mutants(out, muts, head):
    """Build OUT for tools/gpu.sh cuda-mutants from a copy of this checkout (HEAD: of its last commit): vkbench and
    the clean module, then the module alone with each CUDA mutation applied by itself (OUT/ID/libvkbench_cuda.so),
    and OUT/commands.txt, one line per module built: ID, the exit expected, the vkbench arguments."""
    tree = tempfile.mkdtemp(prefix="vkb-cuda-mutants-")
    build = os.path.join(tree, "build")
    glslang = os.path.join(ROOT, ".glslang/bin/glslangValidator")   # the coopmat shaders, as in the checkout
    _, rev = run("git rev-parse --short HEAD" if head else "git describe --always --dirty", ROOT, 60)
    copy = f"git -C {ROOT} archive {rev.strip()}" if head else \
        f"tar -C {ROOT} --exclude=./build* --exclude=./.git --exclude=./.glslang --exclude=./.gl --exclude=./.whl -cf - ."
    try:
        rc, log = run(f"{copy} | tar -C {tree} -xf -", ROOT, 600)
        cfg = f"cmake -S {tree} -B {build} -DCMAKE_BUILD_TYPE=Release" + \
              (f" -DVKB_GLSLANG_NEW={glslang}" if os.path.exists(glslang) else "")
        rc = rc or run(cfg, tree, 600)[0] or run(f"cmake --build {build} -j2 --target vkbench {TARGET}", tree, 3600)[0]
        if rc or not os.path.exists(os.path.join(build, MODULE)):
            sys.exit(f"mutate.py: the clean build in {tree} fails (is nvcc there? CUDA is needed)")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(os.path.join(out, "clean"))
        shutil.copy2(os.path.join(build, "vkbench"), out)
        shutil.copy2(os.path.join(build, MODULE), os.path.join(out, "clean"))
        lines = [f"# {rev.strip()}: id, exit expected, vkbench arguments (clean: the same, exit 0)"]
        for m in (m for m in muts if m["kind"] == "cuda"):
            path = os.path.join(tree, m["path"])
            src = open(path).read()
            if src.count(m["old"]) != 1:
                print(f'{m["id"]}: n/a, site found {src.count(m["old"])} times', flush=True)
                continue
            open(path, "w").write(src.replace(m["old"], m["new"]))
            try:
                rc, log = run(f"cmake --build {build} -j2 --target {TARGET}", tree, 1800)
            finally:
                open(path, "w").write(src)
            if rc:
                print(f'{m["id"]}: stillborn (does not build)\n{log[-1500:]}', flush=True)
                continue
            os.makedirs(os.path.join(out, m["id"]))
            shutil.copy2(os.path.join(build, MODULE), os.path.join(out, m["id"]))
            lines.append(f'{m["id"]}\t1\t{m["gpu"]}')
            print(f'{m["id"]}: built', flush=True)
        open(os.path.join(out, "commands.txt"), "w").write("\n".join(lines) + "\n")
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    print(f"{out}: {size / 2**20:.1f} MiB; on the GPU machine: tools/gpu.sh cuda-mutants --build {out}")
    return 0


def gpu_table(path, report):
    """Record the verdicts of the cuda-mutants recipe's table (rows | ID | command | expected | got | verdict |)
    as mutation report rows; a mutant whose command fails on the clean module too is no kill ("invalid")."""
    by_id = {m["id"]: m for m in MUTATIONS}
    counts = {}
    out = open(report, "a") if report else None
    for row in open(path):
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] not in by_id:
            continue
        m, (id, cmd, expect, got, verdict) = by_id[cells[0]], cells
        line = f'| {id} | cuda | `{m["path"]}` | {m["what"]} | {verdict} | GPU: `vkbench {cmd.strip("`")}` exit {got}, ' \
               f'expected {expect} | - |'
        print(line)
        if out:
            out.write(line + "\n")
        counts[verdict] = counts.get(verdict, 0) + 1
    print(counts)
    return 0 if counts else 1


# --- mutants generated from a change's diff (--from-diff REV) ------------------------------------------------------
# The sites above are picked by the people who wrote the tests; these are not: every comparison, arithmetic
# operator, boundary constant, tested call and statement on the lines changed since REV gives mutants, of which
# a seeded sample runs. The tests of each mutant come from its file's module, written once here as data:
# (a regular expression on the path, the ctest regular expression; {1} is the expression's first group).
DIFF_TESTS = [
    (r"^host/families/(\w+)/", r"vkb\.verify\.{1}\.clean$|vkb\.vk\.{1}\.run_json$|vkb\.unit\.estimate\.|{family_units}"),
    (r"^host/core/runner/", r"vkb\.unit\.runner\.|vkb\.unit\.sink_values\.|vkb\.vk\.copy\.repeat$|vkb\.verify\.copy\."),
    (r"^host/core/(bounds|check|guard|half|freivalds|product_check)\.", r"vkb\.unit\.(check|check_chunks|product)\."),
    (r"^host/core/fault\.", r"vkb\.bad\.fault\.|vkb\.verify\.copy\."),
    (r"^host/core/family\.", r"vkb\.unit\.families\.|vkb\.bad\.sizes\.|vkb\.vk\.sizes\."),
    (r"^host/core/device_limits\.", r"vkb\.bad\.limits\.|vkb\.unit\.caps\."),
    (r"^host/core/timing\.", r"vkb\.unit\.timing\.|vkb\.verify\.timer\."),
    (r"^host/core/verify\.", r"vkb\.verify\.copy\."),
    (r"^host/core/util\.", r"vkb\.unit\.(cli|json)\.|vkb\.bad\.(cli|sizes)\."),
    (r"^host/core/env\.", r"vkb\.bad\.env\.|vkb\.unit\.number\."),
    (r"^host/core/(\w+)\.", r"vkb\.unit\.{1}\."),
    (r"^host/app/cli\.", r"vkb\.unit\.cli\.|vkb\.bad\.(cli|sizes|spec)\."),
    (r"^host/app/command_options\.", r"vkb\.bad\.(cli|health|validate|peaks|devices|list)\."),
    (r"^host/app/(select|main)\.", r"vkb\.bad\.(cli|sizes|spec|env)\.|vkb\.vk\.(cli|sizes)\."),
    (r"^host/app/devices\.", r"vkb\.vk\.devices\.|vkb\.bad\.devices\."),
    (r"^host/app/cache_probe\.", r"vkb\.unit\.cache_probe\.|vkb\.vk\.cache\.probe"),
    (r"^host/app/(\w+)\.", r"vkb\.unit\.{1}\.|vkb\.vk\.{1}\."),
    (r"^host/output/", r"vkb\.unit\.(sinks|sink_values|json|devices_view)\.|vkb\.bad\.output\."),
    (r"^host/backends/cuda\.", r"vkb\.unit\.cuda_(compare|words|devices)\."),
    (r"^host/backends/default_device\.", r"vkb\.unit\.default_device\."),
    (r"^host/backends/vulkan/", r"vkb\.verify\.copy\.clean$|vkb\.vk\.validate\.sg4$|vkb\.bad\.(env|devices|limits)\."),
    (r"^tools/recipes/", r"vkb\.tools\.recipes\."),
    (r"^tools/vkbjson\.", r"vkb\.tools\.(vkbjson|compare|report)\."),
    (r"^tools/(\w+)\.py$", r"vkb\.tools\.{1}\.|vkb\.tools\.every_tool\."),
]
DIFF_SKIP = r"(^|/)tests/|^tools/mutate\.py$|^cuda/"   # tests are what judges; CUDA cannot run here
C_LIKE, PY = (".c", ".h", ".comp", ".glsl"), (".py",)
COMPARE = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
ARITH = {"+": "-", "-": "+", "*": "/", "/": "*", "+=": "-=", "-=": "+=", "*=": "/=", "/=": "*="}


def tests_for(path):
    """The ctest expression a reader would pick for a change in PATH (the first row of DIFF_TESTS that
    matches), or None."""
    import re
    for pattern, tests in DIFF_TESTS:
        m = re.search(pattern, path)
        if m:
            units = ""
            if "{family_units}" in tests:
                folder = os.path.join(ROOT, "host", "families", m.group(1), "tests")
                names = sorted(f[5:-2] for f in os.listdir(folder) if f.startswith("test_") and f.endswith(".c")) \
                    if os.path.isdir(folder) else []
                units = "|".join(rf"vkb\.unit\.{n}\." for n in names)
            tests = tests.replace("{family_units}", units).replace("{1}", m.group(1) if m.groups() else "")
            return tests.strip("|").replace("||", "|")
    return None


def code_mask(src, python):
    """One flag per character of SRC: True where it is code (not a comment, a string or an #include line)."""
    mask, i, n = [True] * len(src), 0, len(src)

    def off(a, b):
        for j in range(a, min(b, n)):
            mask[j] = False

    line_start = True
    while i < n:
        c = src[i]
        if python:
            if c == "#":
                j = src.find("\n", i)
                j = n if j < 0 else j
                off(i, j)
                i = j
                continue
            if c in "'\"":
                q = src[i:i + 3] if src[i:i + 3] in ("'''", '"""') else c
                j = i + len(q)
                while j < n and not src.startswith(q, j):
                    j += 2 if src[j] == "\\" else 1
                off(i, j + len(q))
                i = j + len(q)
                continue
        else:
            if line_start and src[i:].lstrip(" \t").startswith("#include"):
                j = src.find("\n", i)
                j = n if j < 0 else j
                off(i, j)
                i = j
                continue
            if src.startswith("//", i):
                j = src.find("\n", i)
                j = n if j < 0 else j
                off(i, j)
                i = j
                continue
            if src.startswith("/*", i):
                j = src.find("*/", i + 2)
                j = n if j < 0 else j + 2
                off(i, j)
                i = j
                continue
            if c in "'\"":
                j = i + 1
                while j < n and src[j] != c and src[j] != "\n":
                    j += 2 if src[j] == "\\" else 1
                off(i, j + 1)
                i = j + 1
                continue
        line_start = c == "\n" or (line_start and c in " \t")
        i += 1
    return mask


def _balanced_end(text, start):
    """The index just past the bracket that closes the one at text[start], or -1."""
    depth = 0
    for j in range(start, len(text)):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(text[j], 0)
        if depth == 0:
            return j + 1
    return -1


def line_mutants(path, src, lines):
    """The mutants of SRC (the text of PATH) on the 1-based line numbers LINES: dicts of path, line, col, op
    (compare, arith, constant, ignored_return, drop), old and new (the whole line before and after)."""
    import re
    python = path.endswith(PY)
    glsl = path.endswith((".comp", ".glsl"))
    mask = code_mask(src, python)
    text = src.split("\n")
    starts, pos = [], 0
    for t in text:
        starts.append(pos)
        pos += len(t) + 1
    # bracket depth at each line's start: a statement is dropped only where it stands whole on its line
    depth, d = [], 0
    for k, t in enumerate(text):
        depth.append(d)
        for j, ch in enumerate(t):
            if mask[starts[k] + j]:
                d += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
    out = []

    def code(k, a, b):
        return all(mask[starts[k] + j] for j in range(a, b))

    def add(k, col, op, new):
        if new != text[k]:
            out.append(dict(path=path, line=k + 1, col=col + 1, op=op, old=text[k], new=new))

    for no in sorted(set(lines)):
        k = no - 1
        if k >= len(text):
            continue
        t = text[k]
        if not t.strip() or not any(mask[starts[k] + j] for j in range(len(t))):
            continue
        for m in re.finditer(r"(?<![<>=!\-])(<=|>=|==|!=|<|>)(?![<>=])", t):
            if code(k, m.start(), m.end()) and not (m.group() == ">" and t[:m.start()].endswith("-")):
                add(k, m.start(), "compare", t[:m.start()] + COMPARE[m.group()] + t[m.end():])
        for m in re.finditer(r"(?<=[\w)\]'\"] )([+\-*/]=?)(?= )", t):
            if code(k, m.start(), m.end()):
                add(k, m.start(), "arith", t[:m.start()] + ARITH[m.group()] + t[m.end():])
        for m in re.finditer(r"(?<![\w.])(\d+)(?=[uUlL]*(?![\w.]))", t):
            if code(k, m.start(), m.end()) and not (t.lstrip().startswith("#") and "VERSION" in t):
                v = int(m.group())
                add(k, m.start(), "constant", t[:m.start()] + str({0: 1, 1: 0}.get(v, v + 1)) + t[m.end():])
        # a call whose result is tested: the test dropped, the call kept
        m = re.match(r"(\s*(?:\}\s*else\s+)?(?:if|elif)\s*)(\(?)", t)
        if m and code(k, m.start(1), m.end(1)):
            if python:
                colon = t.rstrip().endswith(":") and depth[k] == 0
                cond = t[m.end(1):t.rstrip().rfind(":")] if colon else ""
                if cond and re.search(r"\w\(", cond) and _balanced_end(cond + ")", 0) <= len(cond):
                    add(k, m.end(1), "ignored_return", t[:m.end(1)] + f"({cond}) and False" + t[t.rstrip().rfind(":"):])
            elif m.group(2):
                end = _balanced_end(t, m.end(1))
                cond = t[m.end(1) + 1:end - 1] if end > 0 else ""
                if cond and re.search(r"\w\s*\(", cond):
                    add(k, m.end(1), "ignored_return",
                        t[:m.end(1)] + f"(({cond}) && {'false' if glsl else '0'})" + t[end:])
        # a whole statement dropped (Python: `pass` in its place, so the block stays a block)
        s = t.strip()
        if depth[k] == 0 and code(k, len(t) - len(t.lstrip()), len(t)) and _balanced_end("(" + s + ")", 0) == len(s) + 2:
            prev = next((text[j].rstrip() for j in range(k - 1, -1, -1) if text[j].strip()), "")
            if python:
                if re.match(r"[\w.\[\]]+\s*(\(|=|\+=|-=|\.)", s) and not s.endswith((":", "\\", ",")) and \
                        not re.match(r"(return|yield|raise|import|from|global|nonlocal|pass|del|assert|lambda)\b", s) \
                        and not prev.endswith(("\\", ",", "(")):
                    add(k, len(t) - len(s), "drop", t[:len(t) - len(s)] + "pass")
            elif s.endswith(";") and prev.endswith((";", "{", "}", ":")) and not prev.endswith("\\") and \
                    (re.match(r"[\w.\[\]]+(->[\w.\[\]]+)*\s*(\(|=[^=]|\+=|-=|\*=|/=|\|=|&=|\^=|<<=|>>=|\+\+|--)", s)
                     or re.match(r"(\+\+|--)\w|(break|continue);$", s)) and not s.startswith("return"):
                add(k, len(t) - len(s), "drop", "")
    return out


def diff_lines(rev, root=None):
    """{path: [new-side line numbers]} of the lines added or changed since REV in the work tree, whitespace-only
    changes left out (git diff -w: a reformatted line is no change)."""
    import re
    p = subprocess.run(["git", "diff", "-w", "-U0", "--no-color", rev, "--", "*.c", "*.h", "*.comp", "*.glsl", "*.py"],
                       cwd=root or ROOT, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"mutate.py: git diff {rev}: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else 'failed'}")
    return parse_diff(p.stdout)


def parse_diff(text):
    import re
    files, path, line = {}, None, 0
    for ln in text.splitlines():
        if ln.startswith("+++ "):
            path = ln[6:] if ln.startswith("+++ b/") else None
        elif ln.startswith("@@"):
            m = re.match(r"@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@", ln)
            line = int(m.group(1)) if m else 0
        elif path and ln.startswith("+"):
            files.setdefault(path, []).append(line)
            line += 1
        elif path and ln.startswith(" "):
            line += 1
    return files


def diff_mutants(rev, root=None):
    """Every mutant of the lines changed since REV in files DIFF_TESTS maps, in a fixed order (path, line, col, op),
    and the changed files no row maps."""
    import re
    root = root or ROOT
    muts, unmapped = [], []
    for path, lines in sorted(diff_lines(rev, root).items()):
        if re.search(DIFF_SKIP, path) or not path.endswith(C_LIKE + PY):
            continue
        if tests_for(path) is None:
            unmapped.append(path)
            continue
        src = open(os.path.join(root, path), encoding="utf-8", errors="replace").read()
        muts += line_mutants(path, src, lines)
    return muts, unmapped


def from_diff(a):
    """--from-diff: a seeded sample of the diff's mutants, each applied alone to the copy in --tree, built and
    tested with its module's tests (a per-mutant time-out); killed / survived / stillborn, survivors listed."""
    import random, re
    muts, unmapped = diff_mutants(a.from_diff)
    for path in unmapped:
        print(f"mutate.py: {path}: no row of DIFF_TESTS names its tests (no mutants)")
    by_op = {}
    for m in muts:
        by_op[m["op"]] = by_op.get(m["op"], 0) + 1
    print(f"{len(muts)} mutants on the lines changed since {a.from_diff}: {by_op}")
    sample = random.Random(a.seed).sample(muts, min(a.sample, len(muts))) if a.sample else muts
    if a.list:
        for m in sample:
            print(f'{m["path"]}:{m["line"]}:{m["col"]} {m["op"]:14} {m["new"].strip() or "(line removed)"}')
        return 0
    if os.path.realpath(a.tree) == ROOT:
        sys.exit("mutate.py: --tree must be a copy, not this checkout")
    build = os.path.join(a.tree, "build")
    if not os.path.isdir(build):
        sys.exit(f"mutate.py: {build}: no build folder (configure and build the copy first)")
    rc, out = run(f"ctest --test-dir {build} -N", a.tree, 300)
    known = re.findall(r"Test +#\d+: (\S+)", out)
    plan = []
    for m in sample:
        names = [t for t in known if re.search(tests_for(m["path"]), t)]
        plan.append((m, names))
    union = sorted({t for _, names in plan for t in names})
    rc, out = run(f"cmake --build {build} -j2 && ctest --test-dir {build} -R '^({'|'.join(map(re.escape, union))})$' "
                  f"-j2 --timeout {a.timeout}", a.tree, a.baseline_limit)
    broken = set(re.findall(r"\d+ - (\S+) \(", out))
    print(f"baseline: {len(union) - len(broken)} of {len(union)} tests pass" +
          (f"; left out (they fail or skip unmutated): {' '.join(sorted(broken))}" if broken else ""), flush=True)
    report = open(a.report, "a") if a.report else None
    counts, survivors = {}, []
    for m, names in plan:
        names = [t for t in names if t not in broken]
        where = f'{m["path"]}:{m["line"]}'
        t0 = time.time()
        path = os.path.join(a.tree, m["path"])
        src = open(path, encoding="utf-8").read()
        text = src.split("\n")
        if not names:
            status, detail = "untested", "no test of its module exists"
        elif text[m["line"] - 1] != m["old"]:
            status, detail = "n/a", "its line differs in the copy"
        else:
            text[m["line"] - 1] = m["new"]
            open(path, "w", encoding="utf-8").write("\n".join(text))
            try:
                units = sorted({"test_" + t.split(".")[2] for t in names if t.startswith("vkb.unit.")})
                units = [u for u in units if re.search(rf"\b{u}\b", open(os.path.join(build, "Makefile")).read()
                                                       if os.path.exists(os.path.join(build, "Makefile")) else u)]
                if m["path"].endswith(PY):
                    try:
                        compile("\n".join(text), path, "exec")
                        rc = 0
                    except SyntaxError:
                        rc = 1
                else:
                    rc, out = run(f"cmake --build {build} -j2 --target vkbench {' '.join(units)}", a.tree, a.timeout)
                if rc:
                    status, detail = "stillborn", "does not build"
                else:
                    sel = "|".join(map(re.escape, names))
                    rc, out = run(f"ctest --test-dir {build} -R '^({sel})$' -j2 --stop-on-failure --timeout {a.timeout}",
                                  a.tree, a.timeout)
                    if rc == 124:   # scored as a kill (a loop that never ends), listed apart: it may be load
                        status, detail = "time-out", f"its tests ran past {a.timeout} s"
                    elif rc:
                        status, detail = "killed", "; ".join(re.findall(r"\d+ - (\S+) \(", out))[:160] or "a test failed"
                    else:
                        status, detail = "survived", f"{len(names)} tests passed"
            finally:
                open(path, "w", encoding="utf-8").write(src)
        counts[status] = counts.get(status, 0) + 1
        change = f'`{m["old"].strip()}` -> `{m["new"].strip() or "(removed)"}`'
        line = f'| {m["op"]} | `{where}` | {change} | {status} | {detail} | {time.time() - t0:.0f} s |'
        print(line, flush=True)
        if report:
            report.write(line + "\n")
            report.flush()
        if status == "survived":
            survivors.append(f'{where}: {m["op"]}: {change}')
    counts["killed"] = counts.get("killed", 0) + counts.pop("time-out", 0)
    scored = counts.get("killed", 0) + counts.get("survived", 0)
    print(f"sample {len(sample)} of {len(muts)} (seed {a.seed}): {counts}; score {counts.get('killed', 0)}/{scored} = "
          f"{100 * counts.get('killed', 0) / max(scored, 1):.0f}% (stillborn and untested left out)")
    for s in survivors:
        print("survivor: " + s)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", default="/tmp/vkb-mutate")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--report", default="")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--cuda-mutants", action="store_true", help="build a CUDA module per CUDA mutation into --out")
    ap.add_argument("--out", default=os.path.join(ROOT, "build-mutants"))
    ap.add_argument("--head", action="store_true", help="--cuda-mutants from the last commit, not the work tree")
    ap.add_argument("--gpu-table", default="", help="record the table tools/gpu.sh cuda-mutants printed (gpu-mutants.txt)")
    ap.add_argument("--sites", action="store_true",
                    help="check that every mutation's text is found exactly once in this checkout (exit 1 if not)")
    ap.add_argument("--from-diff", default="", metavar="REV",
                    help="mutants generated from the lines changed since REV (git diff -w REV), not the list above")
    ap.add_argument("--sample", type=int, default=0, help="with --from-diff: run a random sample of N mutants")
    ap.add_argument("--seed", type=int, default=1, help="with --sample: the sample's seed")
    ap.add_argument("--baseline-limit", type=int, default=3600,
                    help="with --from-diff: seconds for the unmutated run of every sampled mutant's tests")
    a = ap.parse_args()
    if a.from_diff:
        return from_diff(a)
    muts = [m for m in MUTATIONS if not a.only or m["id"] in a.only.split(",")]
    if a.cuda_mutants:
        return cuda_mutants(a.out, muts, a.head)
    if a.gpu_table:
        return gpu_table(a.gpu_table, a.report)
    if a.sites:
        # a site the code moved away from would be "n/a" in the next run, and the table would claim a kill
        # that no longer proves anything: the ctest vkb.tools.mutate.sites keeps them in step
        gone = [(m["id"], m["path"], open(os.path.join(ROOT, m["path"])).read().count(m["old"])) for m in muts]
        gone = [g for g in gone if g[2] != 1]
        for id_, path, count in gone:
            print(f"{id_}: its text is found {count} times in {path}, not once")
        # an id given twice would run both under --only and merge two rows of the report into one
        ids = [m["id"] for m in MUTATIONS]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        for id_ in twice:
            print(f"{id_}: the id of {ids.count(id_)} mutations")
        print(f"{len(muts) - len(gone)} of {len(muts)} mutation sites found once")
        return 1 if gone or twice else 0
    if a.list:
        for m in MUTATIONS:
            print(f'{m["id"]:5} {m["kind"]:7} {m["path"]:40} {m["what"]}')
        print(f"{len(MUTATIONS)} mutations")
        return 0
    if os.path.realpath(a.tree) == os.path.realpath(os.path.join(os.path.dirname(__file__), "..")):
        sys.exit("mutate.py: --tree must be a copy, not this checkout")
    build = os.path.join(a.tree, "build")
    rows = []
    # the baseline: every test a mutation relies on passes unmutated, or a "kill" would mean nothing
    union = "|".join(sorted({m["tests"] for m in muts if m["tests"]}))
    if union:
        rc, out = run(f"cmake --build {build} -j2 && ctest --test-dir {build} -R '{union}' -j2 --timeout 600", a.tree,
                      3 * a.timeout)
        if rc:
            print(out[-3000:])
            sys.exit("mutate.py: the baseline fails; fix it first")
        print(f"baseline: {sum(1 for l in out.splitlines() if ' Passed ' in l)} tests pass", flush=True)
    report = open(a.report, "a") if a.report else None
    for m in muts:
        path = os.path.join(a.tree, m["path"])
        t0 = time.time()
        src = open(path).read()
        if src.count(m["old"]) != 1:
            status, detail = "n/a", f"site found {src.count(m['old'])} times"
        elif m["kind"] == "cuda":
            status, detail = "gpu", "--cuda-mutants here, then tools/gpu.sh cuda-mutants on the GPU"
        else:
            open(path, "w").write(src.replace(m["old"], m["new"]))
            try:
                rc, out = run(f"cmake --build {build} -j2 --target {m['targets']}", a.tree, a.timeout)
                if rc:
                    status, detail = "stillborn", "does not build"
                else:
                    rc, out = run(f"ctest --test-dir {build} -R '{m['tests']}' -j2 --timeout 600", a.tree, a.timeout)
                    failed = [l.split()[-1] for l in out.splitlines() if "Failed" in l and "Test #" in l] or \
                             [l.strip() for l in out.splitlines() if l.strip().startswith(tuple("0123456789")) and " - " in l]
                    if "No tests were found" in out:
                        status, detail = "n/a", "no test matches " + m["tests"]
                    elif rc:
                        status, detail = "killed", "; ".join(l.strip() for l in out.splitlines() if " - " in l and "(" in l)[:160]
                    else:
                        status, detail = ("equivalent", m["equivalent"]) if m["equivalent"] else ("survived", "every test passed")
            finally:
                open(path, "w").write(src)
                run(f"cmake --build {build} -j2 --target {m['targets']}", a.tree, a.timeout)
        line = f'| {m["id"]} | {m["kind"]} | `{m["path"]}` | {m["what"]} | {status} | {detail} | {time.time() - t0:.0f} s |'
        print(line, flush=True)
        if report:
            report.write(line + "\n")
            report.flush()
        rows.append((m, status))
    counts = {}
    for _, s in rows:
        counts[s] = counts.get(s, 0) + 1
    scored = counts.get("killed", 0) + counts.get("survived", 0)
    print(f"{counts}; score {counts.get('killed', 0)}/{scored} = {100 * counts.get('killed', 0) / max(scored, 1):.0f}% of non-equivalent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
