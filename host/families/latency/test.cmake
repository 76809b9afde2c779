# latency: a dropped dispatch fails (VKB_FAULT_INJECT=drop-dispatch: the repeated pass runs once fewer, so the
# counter ends one short), on the rows that repeat; submit_fence with its one dispatch skipped fails too
add_test(NAME vkb.vk.latency.dispatch_dropped COMMAND env VKB_FAULT_INJECT=drop-dispatch
         ${expect} 1 "dispatch .*FAIL" -- ${vkbench} run latency --n 8 --reps 1 --warmup-ms 0)
add_test(NAME vkb.vk.latency.submit_dropped COMMAND env VKB_FAULT_INJECT=skip-pass:0
         ${expect} 1 "submit_fence .*FAIL" -- ${vkbench} run latency --variant submit_fence --n 1 --reps 1 --warmup-ms 0)
add_test(NAME vkb.vk.latency.submit_spin_dropped COMMAND env VKB_FAULT_INJECT=skip-pass:0
         ${expect} 1 "submit_spin .*FAIL" -- ${vkbench} run latency --variant submit_spin --n 1 --reps 1 --warmup-ms 0)
# the spin with the validation layer: a fence reset or resubmitted while its work is in flight is an error
add_test(NAME vkb.vk.latency.submit_spin_validated COMMAND ${vkbench} run latency --variant submit_fence,submit_spin
         --n 1 --reps 20 --warmup-ms 0 --validation --quiet)
set_tests_properties(vkb.vk.latency.submit_spin_validated PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
set_tests_properties(vkb.vk.latency.dispatch_dropped vkb.vk.latency.submit_dropped vkb.vk.latency.submit_spin_dropped PROPERTIES LABELS "vulkan;verify"
                     SKIP_RETURN_CODE 3)
add_test(NAME vkb.bad.limits.latency_timestamps COMMAND ${expect} 4 "at most 4096 timestamps" -- ${vkbench} run latency --n 5000)
set_tests_properties(vkb.bad.limits.latency_timestamps PROPERTIES LABELS bad)
add_test(NAME vkb.cuda.latency.both_backends COMMAND ${vkbench} run latency --n 16 --backend all --reps 3 --warmup-ms 0 --quiet)
set_tests_properties(vkb.cuda.latency.both_backends PROPERTIES LABELS cuda SKIP_RETURN_CODE 3)
