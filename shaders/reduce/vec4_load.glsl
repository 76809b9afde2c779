// vec4_load.glsl - seed 003's Vector-Size loads on a grid-stride loop: each thread adds the 16-byte
// vectors a grid apart into four running sums, added pairwise; the n % 4 tail is added as scalars.

layout(std430, binding = 0) readonly buffer Src4 { T4 src4[]; };   // src seen as vectors

T load_vec4_sum()
{
    uint gid = gl_GlobalInvocationID.x, nvec = pc.n / 4u;
    T4 acc4 = T4(0);
    for (uint i = gid; i < nvec; i += VKB_GRID_THREADS_X)
        acc4 += src4[i];
    T acc = (acc4.x + acc4.y) + (acc4.z + acc4.w);
    if (gid < (pc.n & 3u))
        acc += src[nvec * 4u + gid];
    return acc;
}
