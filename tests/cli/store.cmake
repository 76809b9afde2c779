# vkbench --db, the SQLite sink of the results store (tests/cli/store_test.py, cases from its --list): a run's rows
# against its JSON column by column, SIGTERM and SIGKILL mid-way, 4 writers on one file (one of them --device all
# over two lavapipe devices), --db default; bad paths, corrupt, truncated and newer files, a lock held past the
# timeout, a full disk (ulimit -f). 77: no Vulkan device.
execute_process(COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/store_test.py --list OUTPUT_VARIABLE store_cases
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tests/cli/store_test.py --list: exit ${rc}")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/store_test.py)
separate_arguments(store_cases)
foreach(case ${store_cases})
    add_test(NAME vkb.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/store_test.py ${vkbench} ${case})
    set(label bad)
    if(case MATCHES "^vk[.]")
        set(label vulkan)
    endif()
    set_tests_properties(vkb.${case} PROPERTIES LABELS ${label} SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
