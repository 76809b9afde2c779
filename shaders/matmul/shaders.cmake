# Shaders of the matmul family.
vkb_add_shader(matmul_naive matmul/matmul_naive.comp)
vkb_add_shader(matmul_tiled matmul/matmul_tiled.comp)
vkb_add_shader(matmul_block matmul/matmul_block.comp)
vkb_add_shader(matmul_coopmat matmul/matmul_coopmat.comp)
vkb_add_shader(matmul_coopmat_h matmul/matmul_coopmat.comp -DSHARED_HALF=1)
vkb_add_shader(matmul_block_unrolled matmul/matmul_block.comp -DUNROLL_HINTS=1)
