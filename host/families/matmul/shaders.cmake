# Shaders of the matmul family: those its rows name (rows.h, rows_tc.h), compiled from NAME.comp
# unless a recipe below says how (shaders/CMakeLists.txt).
# one source, two builds: [[unroll]] hints (the subgroup row), shared memory typed float16_t (coopmat_f16_smem16)
vkb_shader_recipe(matmul_block_unrolled matmul_block.comp -DUNROLL_HINTS=1)
vkb_shader_recipe(matmul_coopmat_h matmul_coopmat.comp -DSHARED_HALF=1)
# tensor cores through VK_KHR_cooperative_matrix and VK_NV_cooperative_matrix2 (glslang 15: tools/setup-glslang.sh),
# each also with fp16 accumulators (ACC16)
vkb_shader_recipe(matmul_coopmat_khr matmul_coopmat_khr.comp NEEDS_NEW_GLSLANG)
vkb_shader_recipe(matmul_coopmat_khr_acc16 matmul_coopmat_khr.comp NEEDS_NEW_GLSLANG -DACC16=1)
# bf16 A and B: GL_EXT_bfloat16, glslang 16 (tools/setup-glslang.sh --16)
vkb_shader_recipe(matmul_coopmat_khr_bf16 matmul_coopmat_khr.comp NEEDS_GLSLANG16 -DBF16=1)
vkb_shader_recipe(matmul_coopmat2 matmul_coopmat2.comp NEEDS_NEW_GLSLANG)
vkb_shader_recipe(matmul_coopmat2_acc16 matmul_coopmat2.comp NEEDS_NEW_GLSLANG -DACC16=1)
# coopmat2 with the operands staged in shared memory by the kernel itself (16-byte loads, two stages)
vkb_shader_recipe(matmul_coopmat2_staged matmul_coopmat2_staged.comp NEEDS_NEW_GLSLANG)
vkb_shader_recipe(matmul_coopmat2_staged_acc16 matmul_coopmat2_staged.comp NEEDS_NEW_GLSLANG -DACC16=1)
vkb_shader_recipe(matmul_coopmat_peak matmul_coopmat_peak.comp NEEDS_NEW_GLSLANG)
vkb_shader_recipe(matmul_coopmat_peak_acc16 matmul_coopmat_peak.comp NEEDS_NEW_GLSLANG -DACC16=1)
# int8 A and B, int32 accumulators and C (KHR: bytes staged 16 to a load; coopmat2: 8-bit storage), and bf16 through
# coopmat2 (glslang 16)
vkb_shader_recipe(matmul_coopmat_khr_s8 matmul_coopmat_khr.comp NEEDS_NEW_GLSLANG -DS8=1)
vkb_shader_recipe(matmul_coopmat2_s8 matmul_coopmat2.comp NEEDS_NEW_GLSLANG -DS8=1)
# int8 with B staged k-major (B^T in shared memory): both operands' fragments load as 16-byte rows
vkb_shader_recipe(matmul_coopmat_khr_s8_kmajor matmul_coopmat_khr.comp NEEDS_NEW_GLSLANG -DS8=1 -DKMAJOR=1)
vkb_shader_recipe(matmul_coopmat2_staged_s8 matmul_coopmat2_staged.comp NEEDS_NEW_GLSLANG -DS8=1)
vkb_shader_recipe(matmul_coopmat2_bf16 matmul_coopmat2.comp NEEDS_GLSLANG16 -DBF16=1)
vkb_add_row_shaders(matmul rows.h rows_tc.h)
