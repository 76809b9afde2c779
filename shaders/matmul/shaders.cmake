# Shaders of the matmul family.
vkb_add_shader(matmul_naive matmul/matmul_naive.comp)
vkb_add_shader(matmul_tiled matmul/matmul_tiled.comp)
vkb_add_shader(matmul_block matmul/matmul_block.comp)
vkb_add_shader(matmul_coopmat matmul/matmul_coopmat.comp)
