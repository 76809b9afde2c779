# Shaders of the latency family: those its rows name (latency/rows.h).
vkb_add_row_shaders(latency latency/rows.h)
