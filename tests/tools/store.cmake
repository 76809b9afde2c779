# The results store (tools/store.py, tools/vkbstore.py, compare.py --db) on real SQLite files in temporary folders:
# import (a skipped row not validated: NULL), the checker's refusals, schema versions, faults of the file, concurrent
# writers, the questions and the gate.
foreach(case import_results skipped import_twice check_hostile newer_schema older_migrated hostile_names corrupt_db
        write_failures concurrent questions baseline gate)
    add_test(NAME vkb.tools.store.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/store_test.py ${case})
    set_tests_properties(vkb.tools.store.${case} PROPERTIES LABELS tools TIMEOUT 300)
endforeach()
