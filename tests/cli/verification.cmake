# Verification proven by planting the bug (docs/verification.md): each fault of VKB_FAULT_INJECT must be
# caught for its own reason on every variant it touches (tests/cli/verify_faults.py), on lavapipe at small
# shapes; the exact set of skips is asserted (tests/cli/check_skips.py). Label: verify.
set(faults ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/verify_faults.py ${vkbench})
# small shapes per family (the batteries' large shapes cost minutes on lavapipe); memory: its batteries
set(verify_shapes
    "copy#--n 1,1000,4099"
    # 63: a row short of a 32 and of a 64 tile (mutation sh37); 130 x 129: 3 x 3 tiles of 64, edges included, so
    # the _pipe rows (4 tiles per workgroup) move 3 tiles each (sh38, sh39), and the _deep rows (8, DEPTH 2) 5 and 4
    # through both slots (dp01-dp04)
    "transpose#--rows 1,33,63,64,130 --cols 1,17,64,129"
    "memory#"
    "peak#"
    "matmul#--m 1,33,130 --n 17,129 --k 9,40"
    "reduce#--n 1,1000,4099,1000003"
    "transfer#--n 4,4100,65540"
    "latency#--n 1,7 --variant submit_fence,dispatch,dispatch_nobarrier"   # timestamp writes no output
    "cache#--n 128,4160,65600")
foreach(item ${verify_shapes})
    string(REPLACE "#" ";" parts "${item}")
    list(GET parts 0 fam)
    list(LENGTH parts len)
    set(args "")
    if(len GREATER 1)
        list(GET parts 1 args)
        separate_arguments(args UNIX_COMMAND "${args}")
    endif()
    # clean: every variant passes at these shapes (the fast test of tools/mutate.py)
    add_test(NAME vkb.verify.${fam}.clean COMMAND ${vkbench} validate ${fam} ${args})
    set_tests_properties(vkb.verify.${fam}.clean PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3 TIMEOUT 600)
    # no dispatch, first pass skipped: every variant fails by its value check (not the determinism re-run)
    add_test(NAME vkb.verify.${fam}.no_dispatch COMMAND ${faults} no-dispatch value validate ${fam} ${args})
    add_test(NAME vkb.verify.${fam}.skip_pass0 COMMAND ${faults} skip-pass:0 value validate ${fam} ${args})
    # the outputs hold the input's bytes, as a stale upload would leave them: the poison read-back fails
    add_test(NAME vkb.verify.${fam}.stale_output COMMAND ${faults} no-poison poison validate ${fam} ${args})
    # the determinism re-run, alone: only the second run differs (latency has no deterministic row: its counters
    # go on counting)
    if(NOT fam STREQUAL "latency")
        add_test(NAME vkb.verify.${fam}.second_run COMMAND ${faults} second-run-differs determinism validate ${fam} ${args})
        set_tests_properties(vkb.verify.${fam}.second_run PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3 TIMEOUT 600)
    endif()
    set_tests_properties(vkb.verify.${fam}.no_dispatch vkb.verify.${fam}.skip_pass0 vkb.verify.${fam}.stale_output
                         PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3 TIMEOUT 600)
    # the lowest bit of one value flipped after the read-back: an exact check of every byte of
    # every value fails it; matmul's bound allows rounding, so a 1-ulp change there is within its tolerance
    if(NOT fam STREQUAL "matmul")
        add_test(NAME vkb.verify.${fam}.low_bit COMMAND ${faults} low-bit value validate ${fam} ${args})
        set_tests_properties(vkb.verify.${fam}.low_bit PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3 TIMEOUT 600)
    endif()
    # the first output bound 16 bytes late: the kernel writes past its end, into the guard band
    add_test(NAME vkb.verify.${fam}.oob_write COMMAND ${faults} oob-write guard validate ${fam} ${args})
    # ... and with the driver's bounds checks off (--robustness disabled): still caught by the guard bands;
    # skipped (the reason printed) on a device without VK_EXT_pipeline_robustness, such as Mesa 22.3.6's lavapipe
    add_test(NAME vkb.verify.${fam}.oob_write_nobc COMMAND ${faults} oob-write guard validate ${fam} ${args}
             --robustness disabled)
    set_tests_properties(vkb.verify.${fam}.oob_write vkb.verify.${fam}.oob_write_nobc PROPERTIES
                         LABELS "vulkan;verify" SKIP_RETURN_CODE 3 TIMEOUT 600)
endforeach()
# oob-write-past: the first output bound 16 bytes late with a range 16 bytes short, so a kernel's last
# four words are stores past its descriptor's range. The copy rows at n=1000 (whole vec4s): a driver with robust
# buffer access (lavapipe; any with --robustness default) drops them, and the row still fails, by value, with no
# store in the guard band (one there: the range bound is wider than the buffer); the transpose rows at 33x17 (2244
# bytes, the range 2240): the stores into the 12 bytes of padding between the end and the 16-byte-rounded range
# are inside it and land in the guard band, which must start at the 4-byte-rounded end to name them; with the
# driver's bounds checks off (_nobc; skipped where VK_EXT_pipeline_robustness is missing, as on lavapipe 22.3.6)
# every store lands and every row names the guard.
add_test(NAME vkb.verify.copy.oob_write_past COMMAND ${faults} oob-write-past dropped validate copy --n 1000)
add_test(NAME vkb.verify.transpose.oob_write_past COMMAND ${faults} oob-write-past guard validate transpose
         --rows 33 --cols 17)
add_test(NAME vkb.verify.copy.oob_write_past_nobc COMMAND ${faults} oob-write-past guard validate copy --n 1000
         --robustness disabled)
set_tests_properties(vkb.verify.copy.oob_write_past vkb.verify.transpose.oob_write_past
                     vkb.verify.copy.oob_write_past_nobc
                     PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3 TIMEOUT 600)
# the same fault on the CUDA backend (no range to cut short: the output's last 16 bytes go past its end), where
# nothing drops them: every CUDA row names the guard (skipped, exit 3, without a CUDA device)
foreach(fam copy transpose)
    set(args --n 1000)
    if(fam STREQUAL "transpose")
        set(args --rows 33 --cols 17)
    endif()
    add_test(NAME vkb.cuda.${fam}.oob_write_past COMMAND ${faults} oob-write-past guard validate ${fam} ${args}
             --backend cuda)
    set_tests_properties(vkb.cuda.${fam}.oob_write_past PROPERTIES LABELS "cuda;verify" SKIP_RETURN_CODE 3
                         TIMEOUT 600)
endforeach()
# multi-pass plans (reduce's partial sums): a later pass skipped fails each plan that has it
add_test(NAME vkb.verify.reduce.skip_pass1 COMMAND ${faults} skip-pass:1 injected validate reduce --n 1000003)
add_test(NAME vkb.verify.reduce.skip_pass2 COMMAND ${faults} skip-pass:2 injected validate reduce --n 2^21)
set_tests_properties(vkb.verify.reduce.skip_pass1 vkb.verify.reduce.skip_pass2 PROPERTIES LABELS "vulkan;verify"
                     SKIP_RETURN_CODE 3 TIMEOUT 600)
# one element dropped from a float (and int) sum fails by itself: the k/16 inputs make the sum exact
add_test(NAME vkb.verify.reduce.drop_element COMMAND ${faults} drop-element value validate reduce --n 4099,1000003)
set_tests_properties(vkb.verify.reduce.drop_element PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3 TIMEOUT 600)
# timers: zero, reversed, end before the work: each fails the row with a "timer:" reason
# (each by its own rule: the reason names it)
set(timer_zero "zero or negative")
set(timer_reversed "zero or negative")   # 64-bit timestamps: a reversed pair is negative
# (on a GPU by the span rule; on lavapipe, whose timestamps are the host's clock, by the host-time rule)
set(timer_early "(of the device time from the first start to the last end|of the host's time around the same)")
foreach(t zero reversed early)
    add_test(NAME vkb.verify.timer.${t} COMMAND ${faults} timer-${t} "timer=${timer_${t}}" run copy --variant vec4
             --n 2^24 --reps 5 --warmup-ms 0)
    set_tests_properties(vkb.verify.timer.${t} PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3)
endforeach()
# the skips of `validate` on lavapipe (8-wide subgroups), exactly: a misread capability fails
add_test(NAME vkb.verify.skips.lavapipe_sg8 COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_skips.py ${vkbench}
         ${CMAKE_CURRENT_LIST_DIR}/expected_skips_lavapipe.txt)
set_tests_properties(vkb.verify.skips.lavapipe_sg8 PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3 ENVIRONMENT "${sg8}" TIMEOUT 600)
# the large-product check (past 2^27 multiply-adds) on the device's own product: one element off by 1% of
# rms(C), one 16x16 tile off by 1%, one NaN: each fails (the GPU does the same at 4096^3 and 8192^3:
# tools/gpu.sh validate)
foreach(f element tile nan)
    add_test(NAME vkb.verify.matmul.product_${f} COMMAND ${faults} product-${f} value validate matmul
             --variant dbuf,subgroup --m 520 --n 520 --k 520)
    set_tests_properties(vkb.verify.matmul.product_${f} PROPERTIES LABELS "vulkan;verify" SKIP_RETURN_CODE 3 TIMEOUT 600)
endforeach()
