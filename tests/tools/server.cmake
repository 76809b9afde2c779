# The fleet server (tools/store.py push, server-init; tools/vkbserver.py) on a real PostgreSQL server each case
# starts in a temporary folder on a free port: pushes twice, result files sent directly, 16 concurrent pushes,
# node B against node A's rows, a server down, silent, cut or stalled mid-push, schema versions. 77: no PostgreSQL
# or psycopg2 (tools/setup.sh --postgres; as root the test runs it), except under CI=true.
foreach(case push_twice direct concurrent own_host_only faults schema)
    add_test(NAME vkb.tools.server.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/server_test.py ${case})
    set_tests_properties(vkb.tools.server.${case} PROPERTIES LABELS tools SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
