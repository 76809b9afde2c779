# docs/cli.md holds vkbench --help verbatim (its ```help block): this test fails when the two drift apart
add_test(NAME vkb.unit.docs.cli_help
         COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_cli_doc.py $<TARGET_FILE:vkbench>
                 ${CMAKE_SOURCE_DIR}/docs/cli.md)
set_tests_properties(vkb.unit.docs.cli_help PROPERTIES LABELS unit)
