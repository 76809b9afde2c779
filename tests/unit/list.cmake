# list.cmake - cmake -D EXE=test_MODULE -D OUT=FILE -P list.cmake: the names `EXE --list` prints, into FILE (run
# after each link of a unit test by unit.cmake; ctest reads FILE)
execute_process(COMMAND ${EXE} --list OUTPUT_VARIABLE names RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR names STREQUAL "")
    message(FATAL_ERROR "${EXE} --list: exit ${rc}, no test names")
endif()
file(WRITE ${OUT} "${names}")
