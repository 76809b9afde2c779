# matmul: matrix multiplication, from the naive kernel to shared-memory tiles and tensor cores.
# ORDER places it in `vkbench list`.
vkb_family(ORDER 50)
