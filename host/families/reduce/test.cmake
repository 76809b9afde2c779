# reduce: beyond the battery. 2^24+1 ints: 65537 blocks of 256 exceed lavapipe's 65535 workgroups, so
# the block kernels loop over blocks, and the partial sums take three passes (exact int compare).
add_test(NAME vkb.vk.reduce.grid_limit COMMAND ${vkbench} run reduce --n 16777217
         --variant sequential_i32 --reps 1 --warmup-ms 0 --quiet)
set_tests_properties(vkb.vk.reduce.grid_limit PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 300)
# CUDA: every twin and CUB beside the Vulkan variants on identical inputs; skipped without a CUDA device
add_test(NAME vkb.cuda.reduce.both_backends COMMAND ${vkbench} run reduce --backend all --reps 3 --quiet)
set_tests_properties(vkb.cuda.reduce.both_backends PROPERTIES LABELS cuda SKIP_RETURN_CODE 3)
# subgroup_lastblock's release/acquire, which lavapipe cannot show missing (docs/verification.md): read from its SPIR-V
add_test(NAME vkb.unit.spirv.reduce_lastblock_sync COMMAND ${VKB_PYTHON} ${VKB_TESTS_DIR}/unit/check_lastblock_sync.py
         ${CMAKE_BINARY_DIR}/spv/reduce_subgroup_lastblock_f32.spv ${CMAKE_BINARY_DIR}/spv/reduce_subgroup_lastblock_i32.spv)
set_tests_properties(vkb.unit.spirv.reduce_lastblock_sync PROPERTIES LABELS unit)
# a workgroup narrower than a subgroup, legal through --spec: 4 invocations at lavapipe's subgroup of 16 (512 bits);
# every row validated, so a kernel that reads a whole subgroup's slots past the workgroup is seen
add_test(NAME vkb.vk.reduce.workgroup_below_subgroup COMMAND ${vkbench} validate reduce --n 1000,4097 --spec 0=4
         --quiet)
set_tests_properties(vkb.vk.reduce.workgroup_below_subgroup PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600
                     ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=512")
