# The results tooling (tools/*.py) on real runs: sweeps, compare verdicts, plots, report.
add_test(NAME vkb.tools COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools_test.sh ${vkbench} ${VKB_PYTHON}
         ${CMAKE_SOURCE_DIR}/tools)
# serial: two timed runs compared for "same" must not share the CPU with other tests
set_tests_properties(vkb.tools PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 RUN_SERIAL TRUE TIMEOUT 300)
# tools/tune.py: a tile-shape sweep through --spec, with a shape the family refuses
add_test(NAME vkb.tools.tune COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tune_test.sh ${vkbench} ${VKB_PYTHON}
         ${CMAKE_SOURCE_DIR}/tools)
set_tests_properties(vkb.tools.tune PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 300)
