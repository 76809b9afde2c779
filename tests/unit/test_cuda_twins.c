/* test_cuda_twins.c - every kernel row of every family has its CUDA twin, with the same constants, in the
 * built module (libvkbench_cuda.so, the argument after the test name): each row is planned at its family's battery shapes for
 * an H100-like device and the module's supports() must find a launcher for every pass. No GPU needed: the
 * module's tables are plain host data. Exit 3 (skip) when the module cannot be loaded. */
#include <dlfcn.h>
#include <string.h>

#include "../../cuda/cuda_module.h"
#include "families.h"
#include "test_caps.h"
#include "unit.h"

static const char *module_path;

static void every_row(void)
{
    void *h = dlopen(module_path, RTLD_NOW | RTLD_LOCAL);
    vkb_cuda_module_get_fn get = h ? (vkb_cuda_module_get_fn)dlsym(h, VKB_CUDA_ENTRY) : NULL;
    const vkb_cuda_module *m = get ? get() : NULL;
    vkb_caps caps;
    int planned = 0;
    ASSERT(m && m->abi == VKB_CUDA_ABI && m->plan_bytes == sizeof(vkb_plan) && m->caps_bytes == sizeof(vkb_caps));
    if (!m)
        return;
    caps = test_caps_gpu("H100-like", 132);
    caps.max_group_count[0] = 2147483647u;
    caps.features = ~0u;
    /* the cooperative-matrix list the module reports (cuda/module.cu), so the rows that take their fragment
     * from it (peak's coopmat_*, matmul's coopmat_khr_bf16) are planned and their twins looked up too */
    for (int i = 0; i < 3; i++)
        caps.coopmat_khr[i] = caps.coopmat_khr16[i] = 16;
    {
        static const uint32_t types[][3] = {{VKB_CT_F16, VKB_CT_F32, 16},
                                            {VKB_CT_F16, VKB_CT_F16, 16},
                                            {VKB_CT_S8, VKB_CT_S32, 32},
                                            {VKB_CT_U8, VKB_CT_U32, 32},
                                            {VKB_CT_BF16, VKB_CT_F32, 16}};
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
            caps.coopmat_types[caps.ncoopmat_types++] = (vkb_coopmat_type){
                16, 16, types[t][2], types[t][0], types[t][0], types[t][1], types[t][1], VKB_SCOPE_SUBGROUP, 0};
    }
    for (int fi = 0; fi < vkb_family_count; fi++) {
        const vkb_family *f = vkb_families[fi];
        vkb_shape shapes[64];
        int ns = f->battery(shapes, 64);
        for (int vi = 0; vi < f->nvariants; vi++) {
            const vkb_variant *v = &f->variants[vi];
            if (v->flags & VKB_VAR_VULKAN_ONLY)
                continue;
            for (int si = 0; si < ns; si++) {
                vkb_case c = {f, shapes[si], NULL};
                vkb_plan p;
                char why[256];
                if (vkb_family_plan(f, v, &c, &caps, &p, why, sizeof why) != VKB_PLAN_OK)
                    continue;
                planned++;
                if (m->supports(&p, why, sizeof why)) {
                    fprintf(stderr, "%s/%s: %s\n", f->name, v->name, why);
                    ASSERT(!"every planned row has its CUDA twin");
                    break;
                }
            }
        }
    }
    ASSERT(planned > 100);
}

/* every_row MODULE: the built CUDA module, or skipped (3) */
static int load_module(void)
{
    module_path = unit_arg(0);
    if (!module_path || !dlopen(module_path, RTLD_NOW | RTLD_LOCAL)) {
        fprintf(stderr, "test_cuda_twins: cannot load the CUDA module %s: skipped\n", module_path ? module_path : "");
        return 3;
    }
    return 0;
}

UNIT_TESTS_SETUP(load_module, {"every_row", every_row})
