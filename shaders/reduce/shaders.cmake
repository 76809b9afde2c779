# Shaders of the reduce family: each algorithm compiled for float and for int (wrapping) sums.
foreach(algo interleaved_divergent interleaved_strided sequential first_add unroll_last_subgroup
        unroll_complete stride_global stride_local vec4 subgroup subgroup_atomic partials)
    vkb_add_shader(reduce_${algo}_f32 reduce/${algo}.comp -DT=float -DT4=vec4)
    vkb_add_shader(reduce_${algo}_i32 reduce/${algo}.comp -DT=int -DT4=ivec4)
endforeach()
