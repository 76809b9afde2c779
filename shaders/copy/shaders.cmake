# Shaders of the copy family.
vkb_add_shader(copy_vec4 copy/copy_vec4.comp)
