# transfer: a byte changed in flight fails its row (VKB_FAULT_INJECT=transfer-byte: after each copy, host or device,
# a byte of the destination changes), through `run` at a size that is not a power of two
add_test(NAME vkb.vk.transfer.byte_changed COMMAND env VKB_FAULT_INJECT=transfer-byte
         ${expect} 1 "staging_h2d .*FAIL" -- ${vkbench} run transfer --n 4100 --reps 1 --warmup-ms 0)
set_tests_properties(vkb.vk.transfer.byte_changed PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3)
# every row says where its buffers live, and host-timed rows say so (JSON memory, timer)
add_test(NAME vkb.vk.transfer.memory_named COMMAND sh -c
         "${vkbench} run transfer --n 64K --reps 2 --warmup-ms 0 --quiet --json tmem.json && ${VKB_PYTHON} -c \"import json; d = json.load(open('tmem.json')); rs = {r['variant']: r for r in d['results']}; assert all(r['memory'] for r in rs.values() if r['status'] != 'skip'), rs; assert rs['memcpy']['timer'] == 'host' and rs['staging_h2d']['timer'] == 'device', rs; assert 'host-visible' in rs['staging_h2d']['memory'] and 'malloc' in rs['bar_h2d']['memory']\"")
set_tests_properties(vkb.vk.transfer.memory_named PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
add_test(NAME vkb.bad.sizes.transfer_words COMMAND ${expect} 2 "transfers are whole 4-byte words" -- ${vkbench} run transfer --n 4097)
set_tests_properties(vkb.bad.sizes.transfer_words PROPERTIES LABELS bad)
# CUDA: pinned and pageable cudaMemcpy beside the Vulkan rows, and the shader rows' twins on pinned memory
add_test(NAME vkb.cuda.transfer.both_backends COMMAND ${vkbench} run transfer --n 1M --backend all --reps 3 --warmup-ms 0 --quiet)
set_tests_properties(vkb.cuda.transfer.both_backends PROPERTIES LABELS cuda SKIP_RETURN_CODE 3)
