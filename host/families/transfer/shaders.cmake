# The transfer family's shader rows run memory.width's mem_width at WORDS=4 (host/families/memory/mem_width.comp,
# the copy family's kernel) on host-visible buffers; shader_both, both directions in one dispatch, its own.
vkb_add_shader(transfer_both transfer_both.comp)
