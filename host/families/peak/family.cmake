# peak: arithmetic peaks: dependent FMA chains per number type and cooperative-matrix instructions.
# ORDER places it in `vkbench list`.
vkb_family(ORDER 40)
