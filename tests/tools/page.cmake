# The results page (tools/store.py page, tools/vkbpage.py) in headless Chromium: the DOM's values against the
# store and each number's record, a planted <script> in a device name shown and never run, screenshots that are not
# blank. 77: no chromium and not root (as root the test runs tools/setup.sh --browser).
foreach(case values escaped screenshot)
    add_test(NAME vkb.tools.page.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/page_test.py ${case})
    set_tests_properties(vkb.tools.page.${case} PROPERTIES LABELS tools SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
