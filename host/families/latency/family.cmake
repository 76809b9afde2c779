# latency: dispatch and submission latency.
# ORDER places it in `vkbench list`.
vkb_family(ORDER 80)
