# The transfer family has no shader of its own: its shader rows run memory.width's mem_width at WORDS=4
# (host/families/memory/mem_width.comp, the copy family's kernel) on host-visible buffers.
