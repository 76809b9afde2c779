# memory families: the sweep flags reach the family that owns them, a bad width is refused clearly
add_test(NAME vkb.vk.memory.sweeps COMMAND sh -c
         "${vkbench} run memory.stride --n 3000 --stride 1:32:x2 --reps 1 --warmup-ms 0 --validation --quiet --json mstride.json && python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_json.py mstride.json memory.stride && ${vkbench} run memory.shared_stride --n 300 --stride 1,2,31,32 --reps 1 --warmup-ms 0 --validation --quiet --json mshared.json && python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_json.py mshared.json memory")
set_tests_properties(vkb.vk.memory.sweeps PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 ENVIRONMENT "${sg4}")
add_test(NAME vkb.bad.memory_width COMMAND ${expect} 2 "--width is 4, 8 or 16 bytes" -- ${vkbench} run memory.width --width 12)
add_test(NAME vkb.bad.memory_dim COMMAND ${expect} 2 "memory.aos_soa takes no --stride" -- ${vkbench} run memory.aos_soa --stride 2)
set_tests_properties(vkb.bad.memory_width vkb.bad.memory_dim PROPERTIES LABELS bad)
