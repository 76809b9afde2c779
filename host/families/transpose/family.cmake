# transpose: matrix transposes, from the naive kernel to padded shared-memory tiles.
# ORDER places it in `vkbench list`.
vkb_family(ORDER 20)
