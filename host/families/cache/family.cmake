# cache: the cache hierarchy: pointer-chase latency and read bandwidth by footprint.
# ORDER places it in `vkbench list`; PARTS are the families its host code defines (vkb_family_cache_PART, named cache.PART).
vkb_family(ORDER 90 PARTS chase read)
