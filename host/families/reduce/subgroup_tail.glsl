// subgroup_tail.glsl - the last steps of a workgroup tree without barriers (the reduction ladder's
// last-wavefront unroll). The ladder's volatile warp-synchronous trick is not valid Vulkan, so subgroup 0 adds the
// last min(workgroup, subgroup) sums with subgroupAdd: right for any subgroup size, full or not.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

// The sum of sh[0 .. COUNT - 1], in every active invocation of the calling subgroup. Without
// VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT a subgroup may run with inactive invocations
// (Vulkan spec, SubgroupLocalInvocationId), so lane k need not exist: the active invocations number
// themselves densely and each adds every LANES-th slot, one slot each on a full subgroup. (lavapipe runs
// 16 active invocations in subgroups it calls 32 or 64 wide: docs/verification.md, "Subgroup sizes".)
T subgroup_sum_shared(uint count)
{
    uint lanes = subgroupAdd(1u), rank = subgroupExclusiveAdd(1u);
    T v = T(0);
    for (uint j = rank; j < count; j += lanes)
        v += sh[j];
    return subgroupAdd(v);
}

// Write the sum of sh[0 .. min(L, subgroup) - 1] to dst[OUT].
void tail_subgroup(uint out_index)
{
    if (gl_SubgroupID == 0u) {
        T v = subgroup_sum_shared(min(gl_WorkGroupSize.x, gl_SubgroupSize));
        if (subgroupElect())
            dst[out_index] = v;
    }
}

// The tree down to one subgroup's worth, every step written out (the reduction ladder's
// completely-unrolled kernel). The workgroup size is a specialization constant, so after specialization each condition
// is a constant or the uniform subgroup size and the dead steps disappear. Workgroups up to 1024.
#define TREE_STEP(S)                                                        \
    if (gl_WorkGroupSize.x >= 2u * (S) && (S) >= gl_SubgroupSize) {        \
        if (t < (S))                                                        \
            sh[t] += sh[t + (S)];                                           \
        barrier();                                                          \
    }
void tree_unrolled(uint t)
{
    TREE_STEP(512u) TREE_STEP(256u) TREE_STEP(128u) TREE_STEP(64u) TREE_STEP(32u)
    TREE_STEP(16u) TREE_STEP(8u) TREE_STEP(4u) TREE_STEP(2u) TREE_STEP(1u)
}

// No tree: subgroupAdd in every subgroup, one shared slot per subgroup, and subgroup 0 adds the slots.
// Returns true in the one invocation that holds the workgroup's SUM.
bool workgroup_sum_subgroups(T acc, out T sum)
{
    acc = subgroupAdd(acc);
    if (subgroupElect())
        sh[gl_SubgroupID] = acc;
    barrier();
    sum = T(0);
    if (gl_SubgroupID != 0u)
        return false;
    sum = subgroup_sum_shared(gl_NumSubgroups);
    return subgroupElect();
}
