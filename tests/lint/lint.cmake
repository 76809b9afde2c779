# Checks of the source tree itself, no device: formatting (and, beside it, the product's vocabulary)
add_test(NAME vkb.lint.format.c_and_cuda COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_format.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(vkb.lint.format.c_and_cuda PROPERTIES LABELS "unit;lint")
