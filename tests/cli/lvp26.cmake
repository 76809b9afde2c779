# A second Vulkan implementation: Mesa 26's lavapipe (tools/setup-lavapipe26.sh into .lvp/, run through
# tools/lvp26.sh), whose VK_KHR_cooperative_matrix lists 8x8x8 fragments at subgroup 8 where NVIDIA's are
# 16x16x16 at 32: every family validated there, and the tensor-core rows at shapes no fragment divides, none
# skipped (the planted faults of those paths, tools/mutate.py's tc* mutations, are caught by these). Where .lvp/
# is absent tools/lvp26.sh says so in one line and exits 77: a skip. Label: lvp26 (and vulkan).
# Not in the sanitizer build: the wrapper runs vkbench through Debian 13's loader, not the sanitizer's.
if(NOT VKB_SANITIZE)
    set(lvp26 ${PROJECT_SOURCE_DIR}/tools/lvp26.sh ${vkbench})
    foreach(fam ${VKB_FAMILIES})
        add_test(NAME vkb.lvp26.${fam}.validate COMMAND ${lvp26} validate ${fam} --quiet)
        set_tests_properties(vkb.lvp26.${fam}.validate PROPERTIES LABELS "vulkan;lvp26" SKIP_RETURN_CODE 77 TIMEOUT 900)
    endforeach()
    # the tensor-core rows at M, N, K no 8 divides (and 1, and one whole fragment), each validated: none skips
    set(tc_rows coopmat_khr,coopmat_khr_acc16,tc_peak,tc_peak_acc16)
    add_test(NAME vkb.lvp26.matmul.tensor_cores COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/lvp26_rows.py
             ${PROJECT_SOURCE_DIR}/tools/lvp26.sh ${vkbench} 4 -- validate matmul --variant ${tc_rows}
             --m 1,136 --n 13,131 --k 9,61)
    # the int8 GEMM at the same shapes (bytes: no row of A or B 16-byte aligned, two k-tiles at K 61), exact, with
    # B staged row-major and k-major; N 132 takes the k-major staging's whole-word loads (N a multiple of 4)
    add_test(NAME vkb.lvp26.matmul.int8 COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/lvp26_rows.py
             ${PROJECT_SOURCE_DIR}/tools/lvp26.sh ${vkbench} 2 -- validate matmul --variant
             coopmat_khr_s8,coopmat_khr_s8_kmajor --m 1,136 --n 13,131,132 --k 9,61)
    set_tests_properties(vkb.lvp26.matmul.int8 PROPERTIES LABELS "vulkan;lvp26" SKIP_RETURN_CODE 77 TIMEOUT 900)
    set(peak_cm_rows coopmat_f16_f32,coopmat_f16_f16,coopmat_s8_s32,coopmat_u8_u32)
    add_test(NAME vkb.lvp26.peak.coopmat COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/lvp26_rows.py
             ${PROJECT_SOURCE_DIR}/tools/lvp26.sh ${vkbench} 4 -- validate peak --variant ${peak_cm_rows})
    # the shape coopmat_khr was planned with, in the JSON; the skip reasons of the rows the device lacks
    add_test(NAME vkb.lvp26.matmul.planned COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/lvp26_planned.py
             ${PROJECT_SOURCE_DIR}/tools/lvp26.sh ${vkbench})
    set_tests_properties(vkb.lvp26.matmul.tensor_cores vkb.lvp26.peak.coopmat vkb.lvp26.matmul.planned PROPERTIES
                         LABELS "vulkan;lvp26" SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()
# without .lvp/ the wrapper says so in one line and exits 77, the code the tests above skip on
add_test(NAME vkb.unit.lvp26.absent COMMAND sh -c
         "out=$(CI= LVP26_DIR=${CMAKE_CURRENT_BINARY_DIR}/no-lvp26 ${PROJECT_SOURCE_DIR}/tools/lvp26.sh true 2>&1); rc=$?; echo \"$out\"; test $rc -eq 77 && test $(echo \"$out\" | wc -l) -eq 1 && echo \"$out\" | grep -q '^lvp26: Mesa 26 lavapipe not installed in .*no-lvp26 (run tools/setup-lavapipe26.sh)$'")
set_tests_properties(vkb.unit.lvp26.absent PROPERTIES LABELS unit)
# in CI (CI=true, .ci/run) its absence is a failure: exit 1, one line, never the skip
add_test(NAME vkb.unit.lvp26.required_in_ci COMMAND sh -c
         "out=$(CI=true LVP26_DIR=${CMAKE_CURRENT_BINARY_DIR}/no-lvp26 ${PROJECT_SOURCE_DIR}/tools/lvp26.sh true 2>&1); rc=$?; echo \"$out\"; test $rc -eq 1 && test $(echo \"$out\" | wc -l) -eq 1 && echo \"$out\" | grep -q '^lvp26: CI=true: Mesa 26 lavapipe, required in CI, not installed in .*no-lvp26'")
set_tests_properties(vkb.unit.lvp26.required_in_ci PROPERTIES LABELS unit)
