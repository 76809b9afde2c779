# matmul beyond the auto-registered tests: a product large enough for Freivalds' check + sampled entries,
# sizes from the command line (1 x N x 1, --size), an unwritten output caught on both check paths, the
# cooperative-matrix variant ok or skipped with its reason, and both backends where CUDA is present.
add_test(NAME vkb.vk.matmul.freivalds COMMAND sh -c
         "out=$(${vkbench} run matmul --m 600 --n 520 --k 450 --variant naive,dbuf,subgroup,warptile --reps 1 --warmup-ms 0 --validation --quiet --json mm_freivalds.json) && echo \"$out\" && echo \"$out\" | grep -Eq '^subgroup +600x520x450 .* ok$' && echo \"$out\" | grep -Eq '^warptile +600x520x450 .* ok$' && ${VKB_PYTHON} -c \"import json; r = [x for x in json.load(open('mm_freivalds.json'))['results'] if x['variant'] in ('subgroup', 'warptile')]; assert r and all(x['status'] == 'ok' and 'Freivalds' in x['check']['method'] for x in r), r\"")
set_tests_properties(vkb.vk.matmul.freivalds PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
add_test(NAME vkb.vk.matmul.sizes COMMAND sh -c
         "${vkbench} run matmul --m 1,70 --n 1,67 --k 1,129 --variant tiled32,vec4,subgroup,warptile --reps 1 --warmup-ms 0 --validation --quiet --json matmul_sizes.json && python3 ${VKB_TESTS_DIR}/check_json.py matmul_sizes.json matmul")
set_tests_properties(vkb.vk.matmul.sizes PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
add_test(NAME vkb.vk.matmul.sg4_freivalds COMMAND env ${sg4} sh -c
         "out=$(${vkbench} run matmul --size 520 --variant subgroup,transposed_a,warptile --reps 1 --warmup-ms 0 --validation --quiet --json mm_sg4_freivalds.json) && echo \"$out\" && echo \"$out\" | grep -Eq '^subgroup +520.3 .* ok$' && echo \"$out\" | grep -Eq '^warptile +520.3 .* ok$' && ${VKB_PYTHON} -c \"import json; r = [x for x in json.load(open('mm_sg4_freivalds.json'))['results'] if x['variant'] in ('subgroup', 'warptile')]; assert r and all(x['status'] == 'ok' and 'Freivalds' in x['check']['method'] for x in r), r\"")
set_tests_properties(vkb.vk.matmul.sg4_freivalds PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
add_test(NAME vkb.vk.matmul.poison_detected COMMAND env VKB_FAULT_INJECT=no-dispatch
         ${expect} 1 "failed validation" -- ${vkbench} run matmul --m 33 --n 65 --k 7 --variant dbuf --reps 1 --warmup-ms 0)
add_test(NAME vkb.vk.matmul.poison_detected_freivalds COMMAND env VKB_FAULT_INJECT=no-dispatch
         ${expect} 1 "failed validation" -- ${vkbench} run matmul --size 520 --variant subgroup --reps 1 --warmup-ms 0)
set_tests_properties(vkb.vk.matmul.poison_detected vkb.vk.matmul.poison_detected_freivalds PROPERTIES
                     LABELS vulkan SKIP_RETURN_CODE 3)
add_test(NAME vkb.vk.matmul.coopmat COMMAND sh -c
         "out=$(${vkbench} run matmul --m 100 --n 72 --k 40 --variant coopmat_f16 --reps 1 --warmup-ms 0 --validation --quiet --json mm_coopmat.json) && echo \"$out\" && echo \"$out\" | grep -Eq '^coopmat_f16 +100x72x40 +.* ok$|^ +skipped \\(1 row: coopmat_f16\\): needs cooperative matrix' && ${VKB_PYTHON} -c \"import json; r = [x for x in json.load(open('mm_coopmat.json'))['results'] if x['variant'] == 'coopmat_f16']; assert r and all((x['status'] == 'ok' and 'fp16 inputs' in x['check']['method']) or (x['status'] == 'skip' and x['skip_reason'].startswith('needs cooperative matrix')) for x in r), r\"")
set_tests_properties(vkb.vk.matmul.coopmat PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
add_test(NAME vkb.cuda.matmul.both_backends COMMAND ${vkbench} run matmul --backend all --reps 3 --quiet)
set_tests_properties(vkb.cuda.matmul.both_backends PROPERTIES LABELS cuda SKIP_RETURN_CODE 3)
# --spec: a tile shape set from the command line runs (validated) in the shader that declares it, and a
# shader without that constant is skipped with the reason; the JSON names the constants set
add_test(NAME vkb.vk.matmul.spec COMMAND sh -c
         "${vkbench} run matmul --m 70 --n 67 --k 129 --variant naive,dbuf --spec BM=64,BN=64,WM=64,WN=64,TM=4,TN=4 --reps 1 --warmup-ms 0 --validation --quiet --json matmul_spec.json && ${VKB_PYTHON} -c \"import json; r = {x['variant']: x for x in json.load(open('matmul_spec.json'))['results'] if x['backend'] == 'vulkan'}; assert r['dbuf']['status'] == 'ok' and r['dbuf']['constants'] == 'BM=64,BN=64,WM=64,WN=64,TM=4,TN=4', r['dbuf']; assert r['naive']['status'] == 'skip' and 'no constant BM' in r['naive']['skip_reason'], r['naive']\"")
set_tests_properties(vkb.vk.matmul.spec PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
# the tensor-core rows where the device has no cooperative matrices (lavapipe): each is listed and
# skipped with the extension it needs (or, on a device that has them but a build without the newer shader
# compiler, with the set-up step), never run or failed; on a GPU with them each must validate
add_test(NAME vkb.vk.matmul.tensor_cores COMMAND sh -c
         "${vkbench} run matmul --m 64 --n 512 --k 64 --variant coopmat_khr,coopmat_khr_bf16,coopmat2,coopmat_khr_acc16,coopmat2_acc16,coopmat2_staged,coopmat2_staged_acc16,tc_peak,tc_peak_acc16 --backend vulkan --reps 1 --warmup-ms 0 --quiet --json matmul_tc.json && ${VKB_PYTHON} -c \"import json, re; r = [x for x in json.load(open('matmul_tc.json'))['results'] if x['variant'] in ('coopmat_khr', 'coopmat_khr_bf16', 'coopmat2', 'coopmat_khr_acc16', 'coopmat2_acc16', 'coopmat2_staged', 'coopmat2_staged_acc16', 'tc_peak', 'tc_peak_acc16')]; why = 'needs (VK_KHR_cooperative_matrix|VK_NV_cooperative_matrix2|bf16 cooperative matrices|the newer shader compiler: run tools/setup-glslang.sh|glslang 16 .bf16, fp8.: run tools/setup-glslang.sh --16)'; good = [x for x in r if x['status'] == 'ok' or (x['status'] == 'skip' and re.match(why, x['skip_reason']))]; assert len(r) == 9 and len(good) == 9, r\"")
set_tests_properties(vkb.vk.matmul.tensor_cores PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3)
# warptile reshaped by --spec: other warp tiles, strips, k depths, a workgroup of 3 warps and one whose
# loads leave invocations idle; each validated at shapes no tile divides
add_test(NAME vkb.vk.matmul.warptile_spec COMMAND sh -c
         "for s in BK=16,BM=64,BN=64,WM=32,WN=32,TM=4,TN=8 WM=32,WN=64 BM=128,BN=256,WM=64,WN=64,TM=8,TN=16 BK=4 BM=96,BN=32,WM=32,WN=32,TM=4,TN=8 BM=64,BN=32,BK=4,WM=32,WN=32,TM=4,TN=8; do ${vkbench} validate matmul --variant warptile --spec $s --m 1,129 --n 3,132 --k 9,36 --validation --quiet || exit 1; done")
set_tests_properties(vkb.vk.matmul.warptile_spec PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
# warptile_named at the awkward shapes: 1, 31, 33, 1000 x 17 and non-multiples of its 128x64x16 tile
add_test(NAME vkb.vk.matmul.warptile_named_shapes COMMAND
         ${vkbench} validate matmul --variant warptile_named --m 1,31,33,1000 --n 1,17,33,65 --k 1,31,33 --validation --quiet)
set_tests_properties(vkb.vk.matmul.warptile_named_shapes PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
# a row's fallback ceiling in a family not asked for runs implicitly (first, alone, at its default shape): `run
# matmul --variant dbuf` gives dbuf a ceil% against peak/fma_f32 (it printed `ceil% (none)`)
add_test(NAME vkb.vk.matmul.implicit_fallback COMMAND sh -c
         "${vkbench} run matmul --variant dbuf --size 64 --reps 2 --warmup-ms 0 --quiet --json implicit_fallback.json && ${VKB_PYTHON} -c \"import json; r = json.load(open('implicit_fallback.json'))['results']; assert [x['family'] + '/' + x['variant'] for x in r if x['family'] == 'peak'] == ['peak/fma_f32'], r; d = [x for x in r if x['variant'] == 'dbuf'][0]['metric']; assert (d['ceiling_family'], d['ceiling_variant']) == ('peak', 'fma_f32'), d; assert r[0]['family'] == 'peak'\"")
set_tests_properties(vkb.vk.matmul.implicit_fallback PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 ENVIRONMENT VKB_CACHE_PROBE=0)
# FIXED=1: M, N, K as constants of a pipeline built per shape, through --spec in both shaders that share
# matmul_warptile.glsl, also with INTERIOR=1 (warptile_interior: WHOLE takes its unguarded copy), at whole blocks
# (the guards folded away), one dimension short of them (those guards kept) and odd N, K (the scalar paths), each
# planned with its own shape (tests/check_fixed.py). Here a fold of the N guard at a shape it does not fit shows
# (its stray columns land inside the buffers); one of M or K does not: lavapipe's robust buffer access reads zeros
# past A and B and drops stores past C (the GPU check: docs/performance/matmul.md)
set(mm_fixed_shapes "--m 36,128 --n 17,20,128 --k 16,31,36")
add_test(NAME vkb.vk.matmul.fixed_spec COMMAND sh -c
         "${vkbench} validate matmul --variant warptile_64x64,warptile_named,warptile_interior --spec FIXED=1 ${mm_fixed_shapes} --validation --quiet --json mm_fixed_spec.json && ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/tests/check_fixed.py mm_fixed_spec.json 54")
set_tests_properties(vkb.vk.matmul.fixed_spec PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
# the warptile_fixed row (FIXED=1 in rows.h, no --spec) at the same shapes
add_test(NAME vkb.vk.matmul.warptile_fixed COMMAND sh -c
         "${vkbench} validate matmul --variant warptile_fixed ${mm_fixed_shapes} --validation --quiet --json mm_fixed_row.json && ${VKB_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/tests/check_fixed.py mm_fixed_row.json 18")
set_tests_properties(vkb.vk.matmul.warptile_fixed PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
# warptile_interior: blocks inside M x N with whole k tiles (260 x 132 x 24: two of them) take the
# unguarded copy of the block, the rest and other shapes (N 130, K 36: not whole vec4 rows or k tiles) the guarded
# one. A test that lets a block cross N shows (its stores wrap into the next row of C); one that lets it cross M or
# K does not, here: what it reads past A and B and writes past C lies past the buffers (the GPU check:
# docs/performance/matmul.md)
add_test(NAME vkb.vk.matmul.warptile_interior COMMAND
         ${vkbench} validate matmul --variant warptile,warptile_interior,warptile_64x64_interior --m 260,128 --n 132,130,128 --k 24,36
         --validation --quiet)
set_tests_properties(vkb.vk.matmul.warptile_interior PROPERTIES LABELS vulkan SKIP_RETURN_CODE 3 TIMEOUT 600)
