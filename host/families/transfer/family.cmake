# transfer: host-device transfers: staging copies, host-visible buffers, both directions.
# ORDER places it in `vkbench list`.
vkb_family(ORDER 70)
