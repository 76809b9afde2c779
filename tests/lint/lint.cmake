# Checks of the source tree itself, no device: formatting, test names, the product's vocabulary
add_test(NAME vkb.lint.format.c_and_cuda COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_format.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(vkb.lint.format.c_and_cuda PROPERTIES LABELS "unit;lint")
# every test named vkb.KIND.MODULE.CASE and registered once (tests/README.md, "Names and labels"), and every test
# selection of tools/mutate.py selecting a test: ctest -N on this build tree (mutate.py's in a plain build only, the
# one it runs in: the sanitizer build has no lvp26 tests)
add_test(NAME vkb.lint.names.scheme COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_test_names.py
         ${CMAKE_CTEST_COMMAND} ${CMAKE_BINARY_DIR} $<$<NOT:$<BOOL:${VKB_SANITIZE}>>:${CMAKE_SOURCE_DIR}/tools/mutate.py>)
set_tests_properties(vkb.lint.names.scheme PROPERTIES LABELS "unit;lint")
# The product's vocabulary: no work-log words (tests/lint/check_vocabulary.py), and the checker seen to catch a
# planted one on a copy of the tree
add_test(NAME vkb.lint.vocabulary.tree COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_vocabulary.py
                                               ${CMAKE_SOURCE_DIR})
add_test(NAME vkb.lint.vocabulary.planted
         COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/vocabulary_planted.py ${CMAKE_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/vocabulary_planted)
set_tests_properties(vkb.lint.vocabulary.tree vkb.lint.vocabulary.planted PROPERTIES LABELS "unit;lint")
