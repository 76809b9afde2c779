# Shaders of the memory families: those their rows name (rows.h), compiled from NAME.comp unless a
# recipe below says how (shaders/CMakeLists.txt). host/families/memory/memory.c defines one family per rule of the
# memory performance guide, named memory.PART: the parts, for the family table (family.cmake names them).
# one source, two buffer kinds: the table as a uniform buffer (CUDA: __constant__) or a storage buffer
vkb_shader_recipe(mem_uniform mem_uniform.comp -DUNIFORM=1)
vkb_shader_recipe(mem_uniform_storage mem_uniform.comp -DUNIFORM=0)
vkb_add_row_shaders(memory rows.h)
