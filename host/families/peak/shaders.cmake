# Shaders of the peak family: one source, peak_chain.comp, built once per number type its rows name
# (rows.h); the integer dot product needs the newer compiler (GL_EXT_integer_dot_product).
vkb_shader_recipe(peak_fma_f32 peak_chain.comp -DPEAK_F32=1)
vkb_shader_recipe(peak_fma_f32x4 peak_chain.comp -DPEAK_F32X4=1)
vkb_shader_recipe(peak_fma_f16 peak_chain.comp -DPEAK_F16=1)
vkb_shader_recipe(peak_fma_f16x2 peak_chain.comp -DPEAK_F16X2=1)
vkb_shader_recipe(peak_fma_f64 peak_chain.comp -DPEAK_F64=1)
vkb_shader_recipe(peak_mad_i32 peak_chain.comp -DPEAK_I32=1)
vkb_shader_recipe(peak_mad_i16 peak_chain.comp -DPEAK_I16=1)
vkb_shader_recipe(peak_dot_u8x4 peak_chain.comp NEEDS_NEW_GLSLANG -DPEAK_DOT=1)
# one cooperative-matrix source per combination of types (A = B, C): -D A_T, A_BYTES, C_T
vkb_shader_recipe(peak_coopmat_f16_f32 peak_coopmat.comp NEEDS_NEW_GLSLANG -DA_T=float16_t -DA_BYTES=2 -DC_T=float)
vkb_shader_recipe(peak_coopmat_f16_f16 peak_coopmat.comp NEEDS_NEW_GLSLANG -DA_T=float16_t -DA_BYTES=2
                  -DC_T=float16_t)
vkb_shader_recipe(peak_coopmat_s8_s32 peak_coopmat.comp NEEDS_NEW_GLSLANG -DA_T=int8_t -DA_BYTES=1 -DC_T=int32_t)
vkb_shader_recipe(peak_coopmat_u8_u32 peak_coopmat.comp NEEDS_NEW_GLSLANG -DA_T=uint8_t -DA_BYTES=1
                  -DC_T=uint32_t)
# bf16 operands: GL_EXT_bfloat16, glslang 16 (tools/setup-glslang.sh --16)
vkb_shader_recipe(peak_coopmat_bf16_f32 peak_coopmat.comp NEEDS_GLSLANG16 -DA_T=bfloat16_t -DA_BYTES=2 -DC_T=float
                  -DA_BF16=1)
# fp8 operands (one byte, 4 to a word as int8's): GL_EXT_float_e4m3 / _e5m2, glslang 16
vkb_shader_recipe(peak_coopmat_e4m3_f32 peak_coopmat.comp NEEDS_GLSLANG16 -DA_T=floate4m3_t -DA_BYTES=1 -DC_T=float
                  -DA_E4M3=1)
vkb_shader_recipe(peak_coopmat_e5m2_f32 peak_coopmat.comp NEEDS_GLSLANG16 -DA_T=floate5m2_t -DA_BYTES=1 -DC_T=float
                  -DA_E5M2=1)
vkb_add_row_shaders(peak rows.h)
# the planted fault of host/families/peak/test.cmake: the chains' values unused, a loop the compiler may delete
# (VKB_FAULT_INJECT=peak-fold runs it in place of peak_fma_f32)
vkb_add_shader(peak_fma_f32_fold peak_chain.comp -DPEAK_F32=1 -DPEAK_FOLD=1)
