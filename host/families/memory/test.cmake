# memory families: the sweep flags reach the family that owns them, a bad width is refused clearly (exit 2),
# more threads than the kernels' grid holds is beyond their limits (exit 4)
add_test(NAME vkb.vk.memory.sweeps COMMAND sh -c
         "${vkbench} run memory.stride --n 3000 --stride 1:32:x2 --reps 1 --warmup-ms 0 --validation --quiet --json mstride.json && python3 ${VKB_TESTS_DIR}/check_json.py mstride.json memory.stride && ${vkbench} run memory.shared_stride --n 300 --stride 1,2,31,32 --reps 1 --warmup-ms 0 --validation --quiet --json mshared.json && python3 ${VKB_TESTS_DIR}/check_json.py mshared.json memory")
set_tests_properties(vkb.vk.memory.sweeps PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 ENVIRONMENT "${sg4}")
add_test(NAME vkb.bad.sizes.memory_width COMMAND ${expect} 2 "--width is 4, 8 or 16 bytes" -- ${vkbench} run memory.width --width 12)
add_test(NAME vkb.bad.sizes.memory_dim COMMAND ${expect} 2 "memory.aos_soa takes no --stride" -- ${vkbench} run memory.aos_soa --stride 2)
add_test(NAME vkb.bad.limits.memory_uniform_threads COMMAND ${expect} 4 "memory.uniform/.* at n=16777216 .*at most 16776960 threads"
         -- ${vkbench} run memory.uniform --n 2^24)
set_tests_properties(vkb.bad.sizes.memory_width vkb.bad.sizes.memory_dim vkb.bad.limits.memory_uniform_threads PROPERTIES LABELS bad)
# CUDA: the uniform table through __constant__ memory (the upload hook) and the stride kernel's twin, beside
# Vulkan on identical inputs; skipped (exit 3) without a CUDA device
add_test(NAME vkb.cuda.memory.both_backends COMMAND sh -c
         "${vkbench} run memory.uniform --n 1000003 --backend all --reps 3 --warmup-ms 0 --quiet && ${vkbench} run memory.stride --n 1000003 --stride 1,3 --backend all --reps 3 --warmup-ms 0 --quiet")
set_tests_properties(vkb.cuda.memory.both_backends PROPERTIES LABELS cuda SKIP_RETURN_CODE 3)
# each row's check names what it summed: the uniform family's table loads, the shared families' shared loads
add_test(NAME vkb.vk.memory.check_methods COMMAND sh -c
         "${vkbench} validate memory.uniform memory.shared_stride --quiet --json methods.json && ${VKB_PYTHON} -c \"import json; r = json.load(open('methods.json'))['results']; m = {(x['family'], x['check']['method'].split()[-2]) for x in r}; assert m == {('memory.uniform', 'table'), ('memory.shared_stride', 'shared')}, m\"")
set_tests_properties(vkb.vk.memory.check_methods PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
