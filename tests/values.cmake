# Tests that check values, not only form (issue 22 section 2): each named check compared with values computed
# in the test, with the bug planted in tools/mutate.py. test_NAME.c, one executable each, every test by name.
set(vkb_value_tests
    acc16_check acc16_step_terms acc16_group_ends acc16_edges acc16_edges_each acc16_large_edges
    sink_values json_values csv_values
    tc_plans khr_shared khr_halved coopmat2_shared peak_tile)
set(module "")
foreach(item ${vkb_value_tests})
    if(item MATCHES "^(acc16_check|sink_values|tc_plans)$")
        set(module ${item})
        add_executable(test_${module} test_${module}.c)
        target_link_libraries(test_${module} PRIVATE ${VKB_TEST_LIBS})
    else()
        add_test(NAME vkb.unit.${module}.${item} COMMAND test_${module} ${item})
        set_tests_properties(vkb.unit.${module}.${item} PROPERTIES LABELS unit)
    endif()
endforeach()
# beside the modules' own tests (tests/CMakeLists.txt): rules whose fakes now give right and wrong apart
foreach(pair runner:ceiling_choice runner:cross_counts runner:device_compare_cannot stats:settle_edges timing:settle_in_measure)
    string(REPLACE ":" ";" parts ${pair})
    list(GET parts 0 module)
    list(GET parts 1 item)
    add_test(NAME vkb.unit.${module}.${item} COMMAND test_${module} ${item})
    set_tests_properties(vkb.unit.${module}.${item} PROPERTIES LABELS unit)
endforeach()
# the tools' verdicts on fixtures with known answers (tools_values_test.py: report's aggregates, tune's ranking)
foreach(case report_aggregates tune_ranking)
    add_test(NAME vkb.tools.values.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/tools_values_test.py ${case})
    set_tests_properties(vkb.tools.values.${case} PROPERTIES LABELS tools TIMEOUT 300)
endforeach()
