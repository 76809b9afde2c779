# Shaders of the latency family: those its rows name (rows.h).
vkb_add_row_shaders(latency rows.h)
