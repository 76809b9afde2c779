# The peak family's checks proven by planting each bug the issue names (docs/verification.md): a loop the
# compiler may delete (peak_fma_f32_fold: the chains' values unused), a chain one trip short of the count the host
# emulates, an operation count (steps per trip) above what ran. Each must fail every row it touches by its value
# check. Label: verify. The clean run is vkb.vk.peak.sg8 (label validate).
set(peak_faults ${VKB_PYTHON} ${VKB_TESTS_DIR}/cli/verify_faults.py ${vkbench})
set(peak_rows fma_f32,fma_f32x4,fma_f16,fma_f16x2,fma_f64,mad_i32,mad_i16,dot_u8x4)
add_test(NAME vkb.verify.peak.folded_loop COMMAND ${peak_faults} peak-fold value validate peak --variant fma_f32)
add_test(NAME vkb.verify.peak.short_chain COMMAND ${peak_faults} peak-trips value validate peak --variant ${peak_rows})
add_test(NAME vkb.verify.peak.op_count COMMAND ${peak_faults} peak-count value validate peak --variant ${peak_rows})
set_tests_properties(vkb.verify.peak.folded_loop vkb.verify.peak.short_chain vkb.verify.peak.op_count PROPERTIES
                     LABELS "vulkan;verify" SKIP_RETURN_CODE 3 TIMEOUT 600)
# the host's chains (tests/test_peak_chain.c here, registered by tests/CMakeLists.txt): the fp16 rounding against every
# half, fused and unfused steps by hand, inputs in range; the theoretical rates by hand
