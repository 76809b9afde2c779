# Checks of the source tree itself, no device: formatting (and, beside it, the product's vocabulary)
add_test(NAME vkb.lint.format.c_and_cuda COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_format.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(vkb.lint.format.c_and_cuda PROPERTIES LABELS "unit;lint")
# The product's vocabulary: no work-log words (tests/lint/check_vocabulary.py), and the checker seen to catch a
# planted one on a copy of the tree
add_test(NAME vkb.lint.vocabulary.tree COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_vocabulary.py
                                               ${CMAKE_SOURCE_DIR})
add_test(NAME vkb.lint.vocabulary.planted
         COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/vocabulary_planted.py ${CMAKE_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/vocabulary_planted)
set_tests_properties(vkb.lint.vocabulary.tree vkb.lint.vocabulary.planted PROPERTIES LABELS "unit;lint")
