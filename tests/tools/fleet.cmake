# --device all|LIST on lavapipe (devices_test.py): all = 0 on one device; two devices from two driver manifests
# of the same lavapipe, each a one-device run's results; a wrong device and a lost one fail only their own rows.
# two_devices is in the sanitizer build's set too (label validate): the device threads under ASan and UBSan
foreach(case all_equals_one two_devices wrong_device device_lost)
    add_test(NAME vkb.vk.devices.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/../cli/devices_test.py
             ${vkbench} ${case})
    set_tests_properties(vkb.vk.devices.${case} PROPERTIES LABELS vulkan SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
set_tests_properties(vkb.vk.devices.two_devices PROPERTIES LABELS "vulkan;validate")
# Slurm for real (tests/tools/slurm_test.sh): as root, Debian's Slurm and munge installed through tools/setup.sh --slurm,
# daemons of its own on this host; fleet: the fleet array of 4 lavapipe tasks (one made slow) and the report job;
# health: the HealthCheckProgram, configured by the settings file and a health.conf of the test's, drains the node
# for a wrong result, a missing GPU and a hung GPU with vkbench's reason, returns it healed, and leaves it in service
# for an unknown key in health.conf (exit 7, the key named); prolog: an unknown key lets the job run, a failing
# prolog drains the node and Slurm requeues the job. 77: not root, the packages unreachable, or the ports taken
foreach(case fleet health prolog)
    add_test(NAME vkb.slurm.cluster.${case} COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/slurm_test.sh $<TARGET_FILE:vkbench>
             ${CMAKE_SOURCE_DIR} ${case})
    set_tests_properties(vkb.slurm.cluster.${case} PROPERTIES LABELS slurm SKIP_RETURN_CODE 77 TIMEOUT 600 RUN_SERIAL TRUE)
endforeach()
# a Slurm test killed mid-run (ctest's time-out, SIGKILL) leaves no daemon and no port behind, and two run at once
add_test(NAME vkb.slurm.cleanup.killed_mid_run COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/slurm_cleanup_test.sh
         $<TARGET_FILE:vkbench> ${CMAKE_SOURCE_DIR})
set_tests_properties(vkb.slurm.cleanup.killed_mid_run PROPERTIES LABELS slurm SKIP_RETURN_CODE 77 TIMEOUT 600
                     RUN_SERIAL TRUE)
# vkbench health (tests/cli/health_test.py): planted faults (wrong result, hang, missing GPU, no GPU, slower than a
# baseline: the whole GPU's mean and one row alone) each give their verdict, action and exit code; a healthy node
# keeps; three GPUs (three lavapipes): all healthy, one more expected than found, the middle one failing alone, each
# checked in the JSON and the metrics' values
foreach(case no_gpu healthy wrong_result hang expect baseline aggregate baseline_roundtrip slower schema prom config
             refuse pci ceiling baseline_rules textfile
             bad_input three_healthy three_expect_four three_middle_fails)
    add_test(NAME vkb.vk.health.${case} COMMAND ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/../cli/health_test.py
             ${vkbench} ${case})
    set_tests_properties(vkb.vk.health.${case} PROPERTIES LABELS vulkan SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
