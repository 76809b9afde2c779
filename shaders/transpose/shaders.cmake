# Shaders of the transpose family: those its rows name (transpose/rows.h), each compiled from transpose/NAME.comp
# (shaders/CMakeLists.txt); the variants of one shader differ in spec constants.
vkb_add_row_shaders(transpose transpose/rows.h)
