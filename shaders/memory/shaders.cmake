# Shaders of the memory families. host/fam_memory.c defines one family per rule of seed 002, named
# memory.PART: the parts, for the family table (CMakeLists.txt reads VKB_FAMILY_PARTS_memory).
set(VKB_FAMILY_PARTS_memory width offset stride aos_soa shared_stride shared_broadcast uniform CACHE INTERNAL "")
vkb_add_shader(mem_width memory/mem_width.comp)
vkb_add_shader(mem_offset memory/mem_offset.comp)
vkb_add_shader(mem_stride memory/mem_stride.comp)
vkb_add_shader(mem_aos memory/mem_aos.comp)
vkb_add_shader(mem_soa memory/mem_soa.comp)
vkb_add_shader(mem_shared memory/mem_shared.comp)
# one source, two buffer kinds: the table as a uniform buffer (CUDA: __constant__) or a storage buffer
vkb_add_shader(mem_uniform memory/mem_uniform.comp -DUNIFORM=1)
vkb_add_shader(mem_uniform_storage memory/mem_uniform.comp -DUNIFORM=0)
