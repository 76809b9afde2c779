// vec4_load.glsl - the reduction ladder's Vector-Size loads on a grid-stride loop: each thread adds the 16-byte
// vectors a grid apart into four running sums, added pairwise; the n % 4 tail is added as scalars.

layout(std430, binding = 0) readonly buffer Src4 { T4 src4[]; };   // src seen as vectors

T load_vec4_sum()
{
    uint gid = gl_GlobalInvocationID.x, nvec = pc.n / 4u, grid = VKB_GRID_THREADS_X, i = gid;
    T4 acc4 = T4(0);
    // four loads in flight per trip, added in index order (the same sums as one at a time): NVIDIA's Vulkan
    // compiler does not unroll the plain loop, which nvcc does for the twins (docs/performance.md)
    for (; i + 3u * grid < nvec; i += 4u * grid) {
        T4 v0 = src4[i], v1 = src4[i + grid], v2 = src4[i + 2u * grid], v3 = src4[i + 3u * grid];
        acc4 += v0;
        acc4 += v1;
        acc4 += v2;
        acc4 += v3;
    }
    for (; i < nvec; i += grid)
        acc4 += src4[i];
    T acc = (acc4.x + acc4.y) + (acc4.z + acc4.w);
    for (i = gid; i < (pc.n & 3u); i += grid)   // a loop: a grid of 1 or 2 threads (--spec 0=1) has a 3-element tail
        acc += src[nvec * 4u + i];
    return acc;
}
