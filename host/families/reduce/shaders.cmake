# Shaders of the reduce family: the algorithm of each row (rows.h's second field, ALGO.comp) and
# the partials pass that multi-pass plans end with, each compiled for float and for int (wrapping) sums.
vkb_row_shaders(algos rows.h)
foreach(algo ${algos} partials)
    vkb_add_shader(reduce_${algo}_f32 ${algo}.comp -DT=float -DT4=vec4)
    vkb_add_shader(reduce_${algo}_i32 ${algo}.comp -DT=int -DT4=ivec4)
endforeach()
