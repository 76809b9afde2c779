# Shaders of the transpose family: those its rows name (rows.h), each compiled from NAME.comp
# (shaders/CMakeLists.txt); the variants of one shader differ in spec constants.
vkb_add_row_shaders(transpose rows.h)
