# transpose beyond the auto-registered tests: sizes from the command line (rectangular, 1 x N, N x 1,
# not multiples of the tile) through `run`, --size for square, an unwritten output caught, a DEPTH the rows do
# not have, and both backends on identical inputs where CUDA is present.
add_test(NAME vkb.vk.transpose.sizes COMMAND sh -c
         "${vkbench} run transpose --rows 1,33,1000 --cols 1,65,999 --reps 2 --warmup-ms 0 --validation --quiet --json transpose_sizes.json && python3 ${VKB_TESTS_DIR}/check_json.py transpose_sizes.json transpose")
set_tests_properties(vkb.vk.transpose.sizes PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
add_test(NAME vkb.vk.transpose.square COMMAND sh -c
         "out=$(${vkbench} run transpose --size 77 --variant padded,vec4 --reps 2 --warmup-ms 0 --validation --quiet --json transpose_square.json) && echo \"$out\" && echo \"$out\" | grep -Eq '^vec4 +77.2 .* ok$' && ${VKB_PYTHON} -c \"import json; r = [x for x in json.load(open('transpose_square.json'))['results'] if x['variant'] == 'vec4']; assert [(x['shape'], x['status']) for x in r] == [({'rows': 77, 'cols': 77}, 'ok')], r\"")
set_tests_properties(vkb.vk.transpose.square PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
add_test(NAME vkb.vk.transpose.poison_detected COMMAND env VKB_FAULT_INJECT=no-dispatch
         ${expect} 1 "failed validation" -- ${vkbench} run transpose --rows 33 --cols 65 --variant padded --reps 1 --warmup-ms 0)
set_tests_properties(vkb.vk.transpose.poison_detected PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
# DEPTH 3 (the rows have 2): slots that do not pair up, 9 tiles of one workgroup through 3 slots at 130 x 129
add_test(NAME vkb.vk.transpose.depth3 COMMAND ${vkbench} validate transpose --variant tile64_deep,vec4_tile64_deep
         --spec DEPTH=3,TILES_PER_GROUP=16 --rows 1,130,257 --cols 1,129,260 --validation)
set_tests_properties(vkb.vk.transpose.depth3 PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
# DEPTH 8, the deepest the plan takes: 8 slots, each workgroup 15 or 16 of the 121 tiles at 700 x 650 (the slots
# wrap), edge tiles on both sides
add_test(NAME vkb.vk.transpose.depth8 COMMAND ${vkbench} validate transpose --variant tile64_deep,vec4_tile64_deep
         --spec DEPTH=8,TILES_PER_GROUP=16 --rows 700 --cols 650 --validation)
set_tests_properties(vkb.vk.transpose.depth8 PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 300)
add_test(NAME vkb.cuda.transpose.both_backends COMMAND ${vkbench} run transpose --backend all --reps 3 --quiet)
set_tests_properties(vkb.cuda.transpose.both_backends PROPERTIES LABELS cuda SKIP_RETURN_CODE 3)
