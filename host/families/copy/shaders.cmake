# The copy family has no shader of its own: vec4 runs memory.width's mem_width at WORDS=4
# (host/families/memory/mem_width.comp), so the two rows measure one kernel.
