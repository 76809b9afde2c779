# memory: the memory-access rules: width, offset, stride, AoS/SoA, shared-memory banks, uniform reads.
# ORDER places it in `vkbench list`; PARTS are the families its host code defines (vkb_family_memory_PART, named memory.PART).
vkb_family(ORDER 30 PARTS width offset stride aos_soa shared_stride shared_broadcast uniform)
