# Shaders of the transpose family: one per algorithm, the variants differ in spec constants.
vkb_add_shader(transpose_direct transpose/transpose_direct.comp)
vkb_add_shader(transpose_tiled transpose/transpose_tiled.comp)
vkb_add_shader(transpose_vec4 transpose/transpose_vec4.comp)
