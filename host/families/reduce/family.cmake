# reduce: sums, from the interleaved tree to subgroup operations.
# ORDER places it in `vkbench list`.
vkb_family(ORDER 60)
