# tools/new-family.sh: the skeleton it writes is one new folder that builds, lists, validates and times, and its
# check catches a planted bug. On a copy of the tree under the build folder; a fresh build of vkbench.
add_test(NAME vkb.tools.new_family COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/new_family_test.sh ${CMAKE_SOURCE_DIR}
         ${CMAKE_CURRENT_BINARY_DIR}/new_family ${VKB_PYTHON} ${CMAKE_BINARY_DIR})
set_tests_properties(vkb.tools.new_family PROPERTIES LABELS tools SKIP_RETURN_CODE 3 TIMEOUT 600
                     ENVIRONMENT "VKB_CACHE_PROBE=0")
