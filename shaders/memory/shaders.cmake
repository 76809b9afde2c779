# Shaders of the memory families: those their rows name (memory/rows.h), compiled from memory/NAME.comp unless a
# recipe below says how (shaders/CMakeLists.txt). host/families/memory.c defines one family per rule of seed 002,
# named memory.PART: the parts, for the family table (CMakeLists.txt reads VKB_FAMILY_PARTS_memory).
set(VKB_FAMILY_PARTS_memory width offset stride aos_soa shared_stride shared_broadcast uniform CACHE INTERNAL "")
# one source, two buffer kinds: the table as a uniform buffer (CUDA: __constant__) or a storage buffer
vkb_shader_recipe(mem_uniform memory/mem_uniform.comp -DUNIFORM=1)
vkb_shader_recipe(mem_uniform_storage memory/mem_uniform.comp -DUNIFORM=0)
vkb_add_row_shaders(memory memory/rows.h)
