# copy: the bandwidth of a plain copy: the API copy and a vec4 shader copy.
# ORDER places it in `vkbench list`.
vkb_family(ORDER 10)
