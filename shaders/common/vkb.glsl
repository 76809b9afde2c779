// vkb.glsl - what every vkbench shader shares. Include after
// "#extension GL_GOOGLE_include_directive : require".

// The workgroup size comes from specialization constants 0, 1, 2: the host's variant row sets it,
// and the CUDA twin gets the same numbers as its block size.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

// Threads in the whole dispatch along x, for grid-stride loops.
#define VKB_GRID_THREADS_X (gl_NumWorkGroups.x * gl_WorkGroupSize.x)
