# transpose: matrix transposes, from the naive kernel to padded shared-memory tiles.
# ORDER places it in `vkbench list`; NO_SUBGROUP_OPS: its kernels use no subgroup operations, so its full battery
# (2 minutes on lavapipe: the 65536-tile row) runs at one subgroup width (tests/CMakeLists.txt)
vkb_family(ORDER 20 NO_SUBGROUP_OPS)
