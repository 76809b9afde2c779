# cache families: a chase one hop short fails (VKB_FAULT_INJECT=chase-skip); a footprint of part of an element
# is refused
add_test(NAME vkb.vk.cache.chase_skips COMMAND env VKB_FAULT_INJECT=chase-skip
         ${expect} 1 "chase .*FAIL" -- ${vkbench} run cache.chase --n 4160 --reps 1 --warmup-ms 0)
set_tests_properties(vkb.vk.cache.chase_skips PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3)
add_test(NAME vkb.bad.sizes.cache_footprint COMMAND ${expect} 2 "whole 64-byte elements" -- ${vkbench} run cache --n 100)
set_tests_properties(vkb.bad.sizes.cache_footprint PROPERTIES LABELS bad)
# the probe: where nothing reports the last-level cache, a timed run measures it once and keeps it for the device
# (the size found depends on the host's load: the test asks that the probe ran and left a file `devices` reads,
# or said it found no clear step and kept that as unknown: "cache_bytes": null)
add_test(NAME vkb.vk.cache.probe COMMAND sh -c
         "rm -rf xdg-probe && XDG_CACHE_HOME=$PWD/xdg-probe VKB_CACHE_PROBE=refresh ${vkbench} run copy --n 1K --reps 1 --warmup-ms 0 2>&1 | grep -Eq 'cache probe (measured|found no clear step)' && (XDG_CACHE_HOME=$PWD/xdg-probe ${vkbench} devices | grep -q 'measured cache  last level' || grep -q '\"cache_bytes\": null' xdg-probe/vkbench/*.json)")
set_tests_properties(vkb.vk.cache.probe PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
add_test(NAME vkb.cuda.cache.both_backends COMMAND ${vkbench} run cache --n 4K,1M --backend all --reps 3 --warmup-ms 0 --quiet)
set_tests_properties(vkb.cuda.cache.both_backends PROPERTIES LABELS cuda SKIP_RETURN_CODE 3)
# the probe's rule on faked chase curves (VKB_FAULT_INJECT=chase-curve:K, no chase run): a split L2 whose near
# partition ends at 2 MiB and whole cache at 8 MiB reads 8 MiB within 15% (6963-9421 KiB), not 2; the same with +-3%
# noise too; a steady climb with no edge reads unknown and keeps null; the file carries the probe's version
function(vkb_probe_fault name kind check)
    add_test(NAME vkb.vk.cache.probe_${name} COMMAND sh -c
             "rm -rf xdg-${name} && out=$(XDG_CACHE_HOME=$PWD/xdg-${name} VKB_CACHE_PROBE=refresh VKB_FAULT_INJECT=chase-curve:${kind} ${vkbench} run copy --n 1K --reps 1 --warmup-ms 0 2>&1) && echo \"$out\" | grep 'cache probe' && ${check} && grep -q '\"probe_version\": 5' xdg-${name}/vkbench/*.json")
    set_tests_properties(vkb.vk.cache.probe_${name} PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3)
endfunction()
set(probe_8mib "n=$(echo \"$out\" | sed -n 's/.*last-level cache of \\([0-9]*\\) KiB.*/\\1/p') && [ \"$n\" -ge 6963 ] && [ \"$n\" -le 9421 ]")
vkb_probe_fault(split_knee 1 "${probe_8mib}")
vkb_probe_fault(noisy 2 "${probe_8mib}")
# the H100's measured curve through the probe's sweep (to 512 MiB, as on a GPU): its 50 MiB L2 within 15%
# (43520-58880 KiB), not the near partition's 30 MiB that powers of two read
vkb_probe_fault(h100 5 "n=$(echo \"$out\" | sed -n 's/.*last-level cache of \\([0-9]*\\) KiB.*/\\1/p') && [ \"$n\" -ge 43520 ] && [ \"$n\" -le 58880 ]")
vkb_probe_fault(no_knee 3 "echo \"$out\" | grep -q 'no clear step' && grep -q '\"cache_bytes\": null' xdg-no_knee/vkbench/*.json")
# a kept size read back by a later run is still vkbench's own measurement: its rows' fits come from it (in cache
# at 1K words, not at 4M: 32 MiB beyond the split L2's 8 MiB) and the legend says where it came from
add_test(NAME vkb.vk.cache.probe_read_back COMMAND sh -c
         "rm -rf xdg-back && XDG_CACHE_HOME=$PWD/xdg-back VKB_CACHE_PROBE=refresh VKB_FAULT_INJECT=chase-curve:1 ${vkbench} run copy --n 1K --reps 1 --warmup-ms 0 --quiet >/dev/null 2>&1 && out=$(env -u VKB_CACHE_PROBE XDG_CACHE_HOME=$PWD/xdg-back ${vkbench} run copy --variant vec4 --n 1K,4M --reps 1 --warmup-ms 0 --json back.json 2>&1) && ! echo \"$out\" | grep -q 'measuring the last-level cache' && echo \"$out\" | grep -q 'fits: from the last-level cache size vkbench measured' && ${VKB_PYTHON} -c \"import json; r = [x for x in json.load(open('back.json'))['results'] if x['variant'] == 'vec4']; assert [x['fits_in_cache'] for x in r] == [True, False], r\"")
set_tests_properties(vkb.vk.cache.probe_read_back PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3)
# two sweeps whose knees disagree (the second's footprints 1.5x): unknown, kept as null
vkb_probe_fault(sweeps_disagree 4 "echo \"$out\" | grep -q 'two sweeps read' && grep -q '\"cache_bytes\": null' xdg-sweeps_disagree/vkbench/*.json")
