# Shaders of the cache families: those their rows name (cache/rows.h). host/families/cache.c defines one family
# per measurement, named cache.PART: the parts, for the family table (CMakeLists.txt reads VKB_FAMILY_PARTS_cache).
set(VKB_FAMILY_PARTS_cache chase read CACHE INTERNAL "")
vkb_add_row_shaders(cache cache/rows.h)
