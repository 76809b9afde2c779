#!/bin/sh
# new-family.sh - write the skeleton of a new kernel family: one folder, and no edit anywhere else.
#
# Usage: tools/new-family.sh NAME [--dir FAMILIES_DIR]
#
#   NAME          the family's name: [a-z][a-z0-9_]*, not one that exists (CLI `vkbench run NAME`, C symbols
#                 vkb_family_NAME, shader NAME_axpy); a bad or taken name is refused with one line, exit 2
#   --dir DIR     write DIR/NAME/ instead of host/families/NAME/ (CMake only builds host/families/*/)
#
# It writes host/families/NAME/ with a trivial but real kernel, out = a x + y over n floats, that builds,
# lists, validates and times as it is (tests/tools/new_family_test.sh proves it on a copy of the tree):
#   family.cmake   vkb_family(ORDER n): n after every family there now, so `vkbench list` shows it last
#   NAME.h         the push constants, written once for C, GLSL and CUDA
#   rows.h         the X-macro rows (one: axpy); the second field names the shader that CMake compiles
#   NAME_axpy.comp the shader: grid-stride, every access guarded, so any n works
#   shaders.cmake  compiles the shaders the rows name
#   NAME.c         the family: seeded inputs, the plan, bytes moved, and the check of every element against
#                  a double-precision reference within gamma(2) (|a x| + |y|), the bound of its fp32 arithmetic
#   NAME.cu        the CUDA twin (built where CUDA is: -DVKB_CUDA=ON)
#   test.cmake     its ctest tests: `vkbench validate NAME`, and an unwritten output caught
#   README.md      what it measures and how to read it: a template to fill in
# Then: cmake -S . -B build && cmake --build build && build/vkbench validate NAME && build/vkbench run NAME
# Make it yours: change the kernel in NAME_axpy.comp and NAME.cu, the inputs, plan, work and check in NAME.c,
# a row per variant in rows.h (a new shader is a new algorithm, a new constant a spec constant).
set -eu

prog=new-family.sh
here=$(cd "$(dirname "$0")" && pwd)
dir=$here/../host/families
name=""
usage() {
    echo "$prog: $1 (usage: tools/new-family.sh NAME [--dir FAMILIES_DIR])" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
    --dir) [ $# -ge 2 ] || usage "--dir needs a folder"; dir=$2; shift 2 ;;
    --dir=*) dir=${1#--dir=}; shift ;;
    -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) usage "unknown option '$1'" ;;
    *) [ -z "$name" ] || usage "one NAME only, got '$name' and '$1'"; name=$1; shift ;;
    esac
done
[ -n "$name" ] || usage "no family NAME"
case $name in
[a-z]*) ;;
*) usage "'$name' is not a family name: [a-z][a-z0-9_]* (it becomes a C identifier and a CLI word)" ;;
esac
case $name in
*[!a-z0-9_]*) usage "'$name' is not a family name: [a-z][a-z0-9_]* (it becomes a C identifier and a CLI word)" ;;
esac
[ -d "$dir" ] || usage "no families folder $dir"
dir=$(cd "$dir" && pwd)
if [ -e "$dir/$name" ]; then
    usage "family '$name' exists ($dir/$name)"
fi
# a folder with PARTS defines vkb_family_FAM_PART for each part: NAME must not be one of those symbols
for f in "$dir"/*/family.cmake; do
    [ -f "$f" ] || continue
    fam=$(basename "$(dirname "$f")")
    for part in $(sed -n 's/.*vkb_family(.*PARTS \([a-z0-9_ ]*\)).*/\1/p' "$f"); do
        [ "$name" != "${fam}_$part" ] || usage "family '$name' exists (part $part of $dir/$fam, vkb_family_$name)"
    done
done
# ORDER: 10 past the largest there, so the new family lists last
order=$(sed -n 's/.*vkb_family(.*ORDER \([0-9][0-9]*\).*/\1/p' "$dir"/*/family.cmake 2>/dev/null | sort -n | tail -n 1)
order=$(( ${order:-0} + 10 ))
upper=$(printf '%s' "$name" | tr a-z A-Z)

out=$dir/$name
mkdir "$out"
# emit FILE: the template on stdin with @NAME@, @UNAME@ and @ORDER@ filled in (in FILE too), into the new folder
emit() {
    file=$(echo "$1" | sed "s/@NAME@/$name/g")
    sed -e "s/@NAME@/$name/g" -e "s/@UNAME@/$upper/g" -e "s/@ORDER@/$order/g" > "$out/$file"
}

emit family.cmake <<'EOF'
# @NAME@: out = a x + y over n floats (GB/s); written by tools/new-family.sh.
# ORDER places it in `vkbench list` (written after every family there was).
vkb_family(ORDER @ORDER@)
EOF

emit shaders.cmake <<'EOF'
# Shaders of the @NAME@ family: those its rows name (rows.h), each from NAME.comp of this folder.
vkb_add_row_shaders(@NAME@ rows.h)
EOF

emit @NAME@.h <<'EOF'
/* @NAME@.h - the @NAME@ family's declarations, included by the host (@NAME@.c), the shader (@NAME@_axpy.comp)
 * and the CUDA twin (@NAME@.cu): the push constants, written once. */
#ifndef VKB_@UNAME@_H
#define VKB_@UNAME@_H

#include "vkb_types.h"

/* n: elements of x, y and dst; a: the scalar */
struct @NAME@_push {
    VKB_U32 n;
    float a;
};
#ifndef VULKAN
typedef struct @NAME@_push @NAME@_push;
#endif

#endif
EOF

emit rows.h <<'EOF'
/* rows.h - the @NAME@ family's rows, declared once: @NAME@.c builds its variant table from this list, @NAME@.cu
 * its launch table, and shaders.cmake compiles the shaders named (one `X(name, shader,` per line).
 * X(name, shader, local, note): local the workgroup size (spec constant 0). */
#ifndef VKB_@UNAME@_ROWS_H
#define VKB_@UNAME@_ROWS_H

#include "@NAME@.h"

#define @UNAME@_ROWS(X)                                                                                        \
    X(axpy, @NAME@_axpy, 256, "dst = a x + y, one element per thread, grid-stride past the workgroup-count limit")

#endif
EOF

emit @NAME@_axpy.comp <<'EOF'
#version 450
// @NAME@_axpy.comp - dst = a x + y over n floats: one element per invocation, grid-stride past the
// workgroup-count limit, every access guarded (any n, any workgroup size).
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "@NAME@.h"

layout(std430, binding = 0) readonly buffer Xs { float x[]; };
layout(std430, binding = 1) readonly buffer Ys { float y[]; };
layout(std430, binding = 2) writeonly buffer Dst { float dst[]; };

layout(push_constant) uniform Push { @NAME@_push pc; };

void main()
{
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += VKB_GRID_THREADS_X)
        dst[i] = pc.a * x[i] + y[i];
}
EOF

emit @NAME@.c <<'EOF'
/* @NAME@.c - the @NAME@ family (GB/s): dst = a x + y over n floats, every element checked against a
 * double-precision reference within the bound of its fp32 arithmetic. Written by tools/new-family.sh. */
#include <math.h>
#include <stdlib.h>

#include "family.h"
#include "inputs.h"
#include "parallel.h"
#include "@NAME@/rows.h"
#include "util.h"

#define ROW(name, shader, local, note) {#name, #shader, {local, 1, 1}, {0}, 0, 0, 0, 0, note, NULL, NULL},
static const vkb_variant variants[] = {
    @UNAME@_ROWS(ROW)
};

/* One block, freed by free(): the case, x, y, then dst, last so that a write past it leaves the block. */
typedef struct @NAME@_case {
    uint64_t n;
    float a;
    float *x, *y, *dst;
} @NAME@_case;

static int default_shapes(const vkb_caps *caps, vkb_shape *out, int max)
{
    (void)max;
    /* GPU: 3 x 256 MiB, far past any L2; CPU implementation: 3 x 16 MiB */
    out[0] = (vkb_shape){{caps->is_cpu ? 1 << 22 : 1 << 26}};
    return 1;
}

static int battery(vkb_shape *out, int max)
{
    /* one element, around a workgroup of 256 and lavapipe's subgroups, a prime, past a million */
    static const int64_t n[] = {1, 2, 3, 7, 31, 33, 255, 256, 257, 1000, 4099, 1000003};
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(n) && count < max; i++)
        out[count++] = (vkb_shape){{n[i]}};
    return count;
}

/* Elements [FIRST, END): two draws each, x then y, uniform in [-1, 1). */
static void fill(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end)
{
    @NAME@_case *c = ctx;
    (void)chunk;
    for (uint64_t i = first; i < end; i++) {
        c->x[i] = (float)vkb_rng_uniform(rng, -1, 1);
        c->y[i] = (float)vkb_rng_uniform(rng, -1, 1);
    }
}

static void *case_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    uint64_t n = (uint64_t)s->d[0];
    @NAME@_case *c;
    vkb_rng rng;
    (void)why;
    (void)len;
    vkb_host_reserve(3 * n * sizeof(float), "@NAME@");
    c = vkb_alloc(sizeof *c + 3 * n * sizeof(float));
    c->n = n;
    c->x = (float *)(c + 1);
    c->y = c->x + n;
    c->dst = c->y + n;
    vkb_rng_seed(&rng, seed);
    c->a = (float)vkb_rng_uniform(&rng, 0.5, 2);   /* the first draw; the elements' follow it */
    vkb_input_fill(&rng, n, 2, fill, c);
    return c;
}

/* Works without inputs (c NULL: sizes only), as the runner plans every case before it makes them. */
static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    const @NAME@_case *c = vc->data;
    uint64_t n = (uint64_t)vc->shape.d[0];
    @NAME@_push push = {0};
    uint32_t groups[3] = {1, 1, 1};
    vkb_pass *pass;
    int b[3];
    if (n > 1u << 31)   /* so that i + the grid's threads stays below 2^32 */
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE, "n=%llu: at most 2^31 floats (the kernel indexes "
                             "with 32 bits); try a smaller size", (unsigned long long)n);
    b[0] = vkb_plan_buffer_add(p, n * sizeof(float), VKB_BUF_INPUT, c ? c->x : NULL);
    b[1] = vkb_plan_buffer_add(p, n * sizeof(float), VKB_BUF_INPUT, c ? c->y : NULL);
    b[2] = vkb_plan_buffer_add(p, n * sizeof(float), VKB_BUF_OUTPUT, c ? c->dst : NULL);
    groups[0] = vkb_groups_for(n, v->local[0], caps->max_group_count[0]);
    pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
    vkb_pass_bind(pass, 3, b);
    push.n = (uint32_t)n;
    push.a = c ? c->a : 1.0f;
    vkb_pass_push(pass, &push, sizeof push);
    return VKB_PLAN_OK;
}

static double work(const vkb_variant *v, const vkb_case *vc)
{
    (void)v;
    return 3.0 * (double)vc->shape.d[0] * sizeof(float);   /* read x and y, write dst */
}

/* Chunk T of the check: fl(fl(a x) + y) is within gamma(2) (|a x| + |y|) of a x + y (two roundings; one
 * where the compiler fuses them); the reference is exact but for one rounding of 2^-53. */
static void check_chunk(void *ctx, vkb_check_part *part, int64_t t)
{
    const @NAME@_case *c = ctx;
    uint64_t end = vkb_task_end(t, VKB_CHECK_CHUNK, c->n);
    double g2 = vkb_gamma(2, VKB_U_F32);
    for (uint64_t i = (uint64_t)t * VKB_CHECK_CHUNK; i < end; i++) {
        double ax = (double)c->a * c->x[i];   /* exact: 24 x 24 bits fit in 53 */
        vkb_check_part_value(part, i, c->dst[i], ax + c->y[i], g2 * (fabs(ax) + fabs((double)c->y[i])));
    }
}

static void check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    const @NAME@_case *c = vc->data;
    (void)v;
    (void)p;
    vkb_check_init(res, "every element, gamma(2,2^-24)*(|ax|+|y|)");
    vkb_check_chunks(res, vkb_tasks_of(c->n, VKB_CHECK_CHUNK), check_chunk, (void *)c);
    vkb_check_finish(res);
}

const vkb_family vkb_family_@NAME@ = {
    .name = "@NAME@",
    .summary = "dst = a x + y over n floats (the skeleton of tools/new-family.sh)",
    .dims = {"n"},
    .ndims = 1,
    .units = {"4-byte words"},   /* what --n counts: `vkbench run --help` says it */
    .metric = "GB/s",
    .variants = variants,
    .nvariants = (int)VKB_COUNT(variants),
    .default_shapes = default_shapes,
    .battery = battery,
    .case_create = case_create,
    .case_destroy = free,
    .plan = plan,
    .work = work,
    .check = check,
};
EOF

emit @NAME@.cu <<'EOF'
/* @NAME@.cu - the CUDA twin of host/families/@NAME@/: the kernel of each row of @NAME@/rows.h. */
#include "kernels.h"
#include "@NAME@/rows.h"

namespace {

__global__ void @NAME@_axpy(const float *x, const float *y, float *dst, @NAME@_push pc)
{
    unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < pc.n; i += stride)
        dst[i] = pc.a * x[i] + y[i];
}

cudaError_t launch_@NAME@_axpy(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    @NAME@_axpy<<<vkb_grid(p), vkb_block(p), 0, s>>>((const float *)a[0], (const float *)a[1], (float *)a[2],
                                                     vkb_push_as<@NAME@_push>(p));
    return cudaGetLastError();
}

} // namespace

#define CUDA_ROW(name, shader, local, note) {#shader, 0, {}, launch_##shader},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_@NAME@[] = {
    @UNAME@_ROWS(CUDA_ROW)
    {nullptr, 0, {}, nullptr},
};
EOF

emit test.cmake <<'EOF'
# @NAME@'s own tests (tests/CMakeLists.txt runs every family's validate and run --json besides): the battery
# validated under the validation layer, and an output never written caught by its poison.
add_test(NAME vkb.vk.@NAME@.validate COMMAND ${vkbench} validate @NAME@ --validation --quiet)
add_test(NAME vkb.vk.@NAME@.poison_detected COMMAND env VKB_FAULT_INJECT=no-dispatch
         ${expect} 1 "failed validation" -- ${vkbench} run @NAME@ --n 257 --reps 1 --warmup-ms 0)
set_tests_properties(vkb.vk.@NAME@.validate vkb.vk.@NAME@.poison_detected PROPERTIES LABELS vulkan
                     SKIP_RETURN_CODE 3)
EOF

emit README.md <<'EOF'
# @NAME@

What it measures: dst = a x + y over n floats, 12 bytes per element (read x and y, write dst), in GB/s. The
skeleton of `tools/new-family.sh`: replace this paragraph with the question the family answers.

| row  | what it is |
|------|------------|
| axpy | one element per thread, grid-stride past the workgroup-count limit, 256 threads per workgroup |

## How to read it
GB/s is the bytes above over the median time of the repetitions; set it beside `vkbench run copy` (the
bandwidth reference) on the same device: a memory-bound kernel near copy's rate has nothing left to gain.

## How it is checked
Every element against a double-precision reference, within gamma(2) (|a x| + |y|) with u = 2^-24: a product
and a sum rounded in fp32. The output is poisoned before each run, so an element never written fails;
`vkbench validate @NAME@` runs the battery of awkward sizes (1, 31, 257, 1000003: not multiples of the
workgroup).

## Commands
    vkbench list                       # the rows, with their notes
    vkbench validate @NAME@            # every row at the awkward sizes
    vkbench run @NAME@ --n 2^24        # timed; --json out.json for the results

## Files
`rows.h` the rows (one line a variant), `@NAME@_axpy.comp` the shader, `@NAME@.h` the push constants of C, GLSL
and CUDA, `@NAME@.c` inputs, plan, bytes and check, `@NAME@.cu` the CUDA twin, `test.cmake` its tests,
`family.cmake` its place in `vkbench list`.
EOF

echo "$prog: wrote $out: $(cd "$out" && ls | tr '\n' ' ')"
