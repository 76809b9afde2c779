/* test_caps.h - the limits of a GPU like the H100 as Vulkan reports them, for unit tests that plan rows
 * without a device (test_families: every row plans; test_cuda_twins: every row has its twin). */
#ifndef VKB_TEST_CAPS_H
#define VKB_TEST_CAPS_H

#include <stdio.h>
#include <string.h>

#include "caps.h"

static vkb_caps test_caps_gpu(const char *name, uint32_t compute_units)
{
    vkb_caps c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    c.subgroup_size = c.subgroup_min = c.subgroup_max = 32;
    c.max_shared_bytes = 48 * 1024;
    c.max_workgroup_invocations = 1024;
    c.max_workgroup_size[0] = c.max_workgroup_size[1] = 1024;
    c.max_workgroup_size[2] = 64;
    c.max_group_count[0] = c.max_group_count[1] = c.max_group_count[2] = 65535;
    c.max_buffer_bytes = 1ull << 40;
    c.max_uniform_bytes = 65536;
    c.compute_units = compute_units;
    return c;
}

#endif
