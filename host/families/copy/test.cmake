# copy beyond the auto-registered tests: with the API copy made 3x slow (VKB_FAULT_INJECT=slow-api-copy, as
# NVIDIA's vkCmdCopyBuffer), every row's ceiling is the faster of api_copy and stream_copy of its shape, and
# every family with an API copy has a stream copy beside it (check_ceilings.py).
add_test(NAME vkb.vk.copy.slow_api_copy COMMAND sh -c
         "VKB_FAULT_INJECT=slow-api-copy ${vkbench} run copy reduce --n 2^20 --reps 3 --warmup-ms 0 --quiet --json slow_api_copy.json && ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_ceilings.py slow_api_copy.json")
set_tests_properties(vkb.vk.copy.slow_api_copy PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
