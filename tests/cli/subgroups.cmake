# subgroups.cmake - validate at every subgroup width lavapipe offers: LP_NATIVE_VECTOR_WIDTH
# 128 .. 2048 reports 4 .. 64 lanes (above 512 bits its compute shaders still run 16 active invocations per
# subgroup: docs/verification.md, "Subgroup sizes"). Every family and every variant, at a reduced battery
# (the full one runs at 8 and 4 lanes: vkb.vk.FAMILY.sg8 / .sg4; 8 only without subgroup operations), and the reduce family at a size that takes
# three passes: about 7 s of CPU per width. `ctest -L validate` runs them. The families sized in bytes with
# rules of their own (transfer: whole words; latency: at most 4096 timestamps; cache.*: whole 64-byte elements)
# run their own battery; every other family, one added later included (from `vkbench list`), the sizes here.
set(vkb_own_battery "-e transfer -e latency -e cache.chase -e cache.read")
foreach(lanes 4 8 16 32 64)
    math(EXPR bits "${lanes} * 32")
    add_test(NAME vkb.vk.validate.sg${lanes} COMMAND sh -c
             "fams=$(${vkbench} list | grep -o '^[^ ][^:]*' | grep -vx ${vkb_own_battery}) && ${vkbench} validate $fams --n 1,257,4099 --rows 33 --cols 65 --m 33 --k 17 --validation --quiet && ${vkbench} validate transfer latency cache.chase cache.read --validation --quiet && ${vkbench} validate reduce --n 1000003 --validation --quiet")
    set_tests_properties(vkb.vk.validate.sg${lanes} PROPERTIES LABELS "vulkan;validate" SKIP_RETURN_CODE 3
                         ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=${bits}" TIMEOUT 600)
endforeach()
# --subgroup-size where the device offers the size (lavapipe at 16 lanes offers 16 only): every kernel's result
# records it, JSON and CSV, and the table names the rows NAME@sg16; without it, no @sg and the same size
add_test(NAME vkb.vk.cli.subgroup_size COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_subgroup_size.py ${vkbench} 16)
set_tests_properties(vkb.vk.cli.subgroup_size PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3
                     ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=512" TIMEOUT 600)
# workgroups narrower than a subgroup: the reduce kernels at --spec 0=1, 2, 4 over odd sizes,
# every row validated (none skipped), at lavapipe's 8 lanes and at 32 (where it runs 16 active invocations)
foreach(lanes 8 32)
    math(EXPR bits "${lanes} * 32")
    add_test(NAME vkb.vk.validate.narrow_workgroup_sg${lanes} COMMAND ${VKB_PYTHON}
             ${CMAKE_CURRENT_LIST_DIR}/check_narrow_workgroup.py ${vkbench} -- ${CMAKE_CURRENT_BINARY_DIR}/narrow_tmp${lanes})
    set_tests_properties(vkb.vk.validate.narrow_workgroup_sg${lanes} PROPERTIES LABELS "vulkan;validate"
                         SKIP_RETURN_CODE 3 ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=${bits}" TIMEOUT 600)
endforeach()
