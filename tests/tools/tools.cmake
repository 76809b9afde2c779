# The results tooling (tools/*.py) on fixed results files (tests/tools/fixtures, with known values and spreads) and
# the committed ones: nothing is measured, so no verdict depends on the machine's load. One test per case.
set(VKB_TOOLS_CASES load committed compare_verdicts compare_inputs compare_warnings compare_pipe plot_plans
    plot_files report_markdown report_html tune_merge hostile stdout output_paths plot_confined escapes tune_inputs
    compare_runs compare_noise compare_direction compare_old_files plot_linear plot_roofs report_validate report_headline
    report_suspect temporaries_on_signals schema_numbers plot_types compare_gate)
foreach(case ${VKB_TOOLS_CASES})
    add_test(NAME vkb.tools.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/tools_test.py ${case})
    # 77: report_html without a browser and not root (as root it runs tools/setup.sh --browser: chromium)
    set_tests_properties(vkb.tools.${case} PROPERTIES LABELS tools SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()
# tools/tune.py on a real run: a tile-shape sweep through --spec, with a shape the family refuses
add_test(NAME vkb.tools.tune COMMAND ${CMAKE_CURRENT_LIST_DIR}/tune_test.sh ${vkbench} ${VKB_PYTHON}
         ${CMAKE_SOURCE_DIR}/tools)
set_tests_properties(vkb.tools.tune PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 300)
# the tools' verdicts on fixtures with known answers (tools_values_test.py: report's aggregates, tune's ranking)
foreach(case report_aggregates report_units tune_ranking)
    add_test(NAME vkb.tools.values.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/tools_values_test.py ${case})
    set_tests_properties(vkb.tools.values.${case} PROPERTIES LABELS tools TIMEOUT 300)
endforeach()
# the glslang 16 tier of shaders/CMakeLists.txt: configured without it (one status line, empty entries) and with a
# compiler older than 16 (refused)
add_test(NAME vkb.tools.glslang16_tier COMMAND ${CMAKE_CURRENT_LIST_DIR}/glslang16_test.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(vkb.tools.glslang16_tier PROPERTIES LABELS tools TIMEOUT 120)
include(${CMAKE_CURRENT_LIST_DIR}/store.cmake)
