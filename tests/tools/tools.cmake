# Every test of the tools (label tools, vkb.tools.TOOL.CASE), here alone. The results tooling (tools/*.py) on fixed
# results files (tests/tools/fixtures, with known values and spreads) and the committed ones: nothing is measured,
# so no verdict depends on the machine's load. One test per case: each script's `--list` names its cases
# (tools_test.py: the tools; fleet_test.py: the fleet report, on generated fleets of fixed files: a planted slow GPU
# found 10 of 10 times, healthy fleets with the H100 suite's noise flag nothing, failed and missing rows, bad
# input, the heat map in headless chromium; tools_values_test.py: the verdicts on fixtures with known answers,
# report's aggregates and tune's ranking; mutate_test.py: the mutants mutate.py --from-diff makes; blind_test.py:
# old files read back by value, schema defects past an array's first item, the recipes' tables). 77: report_html
# and fleet.html without a browser and not root (as root they run tools/setup.sh --browser: chromium)
foreach(script tools_test fleet_test tools_values_test view_test mutate_test blind_test)
    execute_process(COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/${script}.py --list OUTPUT_VARIABLE cases
                    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "tests/tools/${script}.py --list: exit ${rc}")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/${script}.py)
    separate_arguments(cases)
    foreach(case ${cases})
        add_test(NAME vkb.tools.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/${script}.py ${case})
        set_tests_properties(vkb.tools.${case} PROPERTIES LABELS tools SKIP_RETURN_CODE 77 TIMEOUT 900)
    endforeach()
endforeach()
# tools/tune.py on a real run: a tile-shape sweep through --spec, with a shape the family refuses
add_test(NAME vkb.tools.tune.real_run COMMAND ${CMAKE_CURRENT_LIST_DIR}/tune_test.sh ${vkbench} ${VKB_PYTHON}
         ${CMAKE_SOURCE_DIR}/tools)
set_tests_properties(vkb.tools.tune.real_run PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 300)
# the glslang 16 tier of shaders/CMakeLists.txt: configured without it (one status line, empty entries) and with a
# compiler older than 16 (refused)
add_test(NAME vkb.tools.cmake.glslang16_tier COMMAND ${CMAKE_CURRENT_LIST_DIR}/glslang16_test.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(vkb.tools.cmake.glslang16_tier PROPERTIES LABELS tools TIMEOUT 120)
# the CUDA module's default architectures from nvcc's list (cuda/architectures.cmake), on fixed lists
add_test(NAME vkb.tools.cmake.cuda_architectures COMMAND ${CMAKE_COMMAND} -P ${VKB_TESTS_DIR}/cli/cuda_architectures.cmake)
set_tests_properties(vkb.tools.cmake.cuda_architectures PROPERTIES LABELS tools)
# every mutation of tools/mutate.py still finds its text once (a moved site would turn its kill into n/a)
add_test(NAME vkb.tools.mutate.sites COMMAND ${VKB_PYTHON} ${CMAKE_SOURCE_DIR}/tools/mutate.py --sites)
set_tests_properties(vkb.tools.mutate.sites PROPERTIES LABELS tools)
# tools/sass_diff.py on recorded H100 disassembly (a pipeline and its twin): the classes side by side, and the
# innermost loop of each found through the labels (nvdisasm) and the addresses (cuobjdump) of its branches
add_test(NAME vkb.tools.sass_diff.transpose_padded COMMAND ${VKB_PYTHON} ${CMAKE_SOURCE_DIR}/tools/sass_diff.py
         ${VKB_TESTS_DIR}/unit/data/machine_code/transpose_padded.sass
         ${VKB_TESTS_DIR}/unit/data/machine_code/transpose_padded.cuda.sass)
set_tests_properties(vkb.tools.sass_diff.transpose_padded PROPERTIES LABELS tools PASS_REGULAR_EXPRESSION
    "ldg_32 +4 +4.*barriers +2 +2.*loop [0-9a-f]+-[0-9a-f]+: [0-9]+ instr, ldg_32 4.*\\| loop [0-9a-f]+-[0-9a-f]+: [0-9]+ instr, ldg_32 4")
# tools/slurm/'s scripts without a Slurm (slurm_scripts_test.sh): a fake sbatch records submit.sh's arguments, a
# fake vkbench stands behind a task: % escaped, options and --time on both jobs, no glob, unique names, exit codes
add_test(NAME vkb.tools.slurm.scripts COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/slurm_scripts_test.sh ${CMAKE_SOURCE_DIR}
         $<TARGET_FILE:vkbench>)
set_tests_properties(vkb.tools.slurm.scripts PROPERTIES LABELS tools TIMEOUT 60)
# tools/new-family.sh: the skeleton it writes is one new folder that builds, lists, validates and times, and its
# check catches a planted bug. On a copy of the tree under the build folder; a fresh build of vkbench.
add_test(NAME vkb.tools.new_family.skeleton COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/new_family_test.sh ${CMAKE_SOURCE_DIR}
         ${CMAKE_CURRENT_BINARY_DIR}/new_family ${VKB_PYTHON} ${CMAKE_BINARY_DIR})
set_tests_properties(vkb.tools.new_family.skeleton PROPERTIES LABELS tools SKIP_RETURN_CODE 3 TIMEOUT 600
                     ENVIRONMENT "VKB_CACHE_PROBE=0")
# tools/gpu.sh and its recipes: each expands, names real tools and vkbench commands its parser takes; bad recipes
# are refused in one line; a tiny recipe runs end to end on the default device (77: no device)
foreach(case parse vkbench paths bad run)
    add_test(NAME vkb.tools.recipes.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/recipes_test.py ${case}
             ${vkbench})
    set_tests_properties(vkb.tools.recipes.${case} PROPERTIES LABELS tools SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
# the performance pages' standing tables against the reference result set (standing_test.py: tools/standing.py
# --check on the tree, on a copy of the pages with one number changed, on a set the store's checker refuses)
foreach(case pages_agree detects_drift checked)
    add_test(NAME vkb.tools.standing.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/standing_test.py ${case})
    set_tests_properties(vkb.tools.standing.${case} PROPERTIES LABELS tools TIMEOUT 300)
endforeach()
# vkbench --version names its build: the commit (git describe at build time) and the build options
add_test(NAME vkb.tools.cmake.build_identity COMMAND ${vkbench} --version)
set_tests_properties(vkb.tools.cmake.build_identity PROPERTIES LABELS tools PASS_REGULAR_EXPRESSION
    "^vkbench [0-9.]+ \\(commit ([^ ;]*[0-9a-f]{12}(-dirty)?|unknown); [A-Za-z]+ build, CUDA architectures [^ ,]+, sanitizer (on|off)\\)")
include(${CMAKE_CURRENT_LIST_DIR}/store.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/server.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/page.cmake)
