# the fleet report (tools/fleet.py) on generated fleets of fixed files (fleet_test.py): a planted slow GPU
# found 10 of 10 times, healthy fleets with the H100 suite's noise flag nothing, failed and missing rows,
# bad input, the heat map in headless chromium (77: no browser and not root)
foreach(case planted healthy failed_missing bad_input html)
    add_test(NAME vkb.tools.fleet_${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/fleet_test.py ${case})
    set_tests_properties(vkb.tools.fleet_${case} PROPERTIES LABELS tools SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()
