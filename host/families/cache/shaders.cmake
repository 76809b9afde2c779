# Shaders of the cache families: those their rows name (rows.h). host/families/cache/cache.c defines one family
# per measurement, named cache.PART: the parts, for the family table (family.cmake names them).
vkb_add_row_shaders(cache rows.h)
