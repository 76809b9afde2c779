// subgroup_tail.glsl - the last steps of a workgroup tree without barriers (seed 003, last-wavefront
// unroll). The seed's volatile warp-synchronous trick is not valid Vulkan, so subgroup 0 adds the
// last min(workgroup, subgroup) sums with subgroupAdd: right for any subgroup size.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

// Write the sum of sh[0 .. min(L, subgroup) - 1] to dst[OUT].
void tail_subgroup(uint out_index)
{
    if (gl_SubgroupID == 0u) {
        uint left = min(gl_WorkGroupSize.x, gl_SubgroupSize);
        T v = gl_SubgroupInvocationID < left ? sh[gl_SubgroupInvocationID] : T(0);
        v = subgroupAdd(v);
        if (subgroupElect())
            dst[out_index] = v;
    }
}

// The tree down to one subgroup's worth, every step written out (seed 003, completely-unrolled
// kernel). The workgroup size is a specialization constant, so after specialization each condition
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
    for (uint j = gl_SubgroupInvocationID; j < gl_NumSubgroups; j += gl_SubgroupSize)
        sum += sh[j];
    sum = subgroupAdd(sum);
    return subgroupElect();
}
