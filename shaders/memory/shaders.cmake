# Shaders of the memory families. host/fam_memory.c defines one family per rule of seed 002, named
# memory.PART: the parts, for the family table (CMakeLists.txt reads VKB_FAMILY_PARTS_memory).
set(VKB_FAMILY_PARTS_memory width offset stride aos_soa shared_stride shared_broadcast CACHE INTERNAL "")
vkb_add_shader(mem_width memory/mem_width.comp)
vkb_add_shader(mem_offset memory/mem_offset.comp)
vkb_add_shader(mem_stride memory/mem_stride.comp)
vkb_add_shader(mem_aos memory/mem_aos.comp)
vkb_add_shader(mem_soa memory/mem_soa.comp)
vkb_add_shader(mem_shared memory/mem_shared.comp)
