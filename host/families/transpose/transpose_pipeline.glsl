// transpose_pipeline.glsl - the tile loop of the shared-tile transposes (transpose_tiled.comp, transpose_vec4.comp),
// included after the shader's own parts: whole_tile(o), true where the tile at origin o takes the guard-free path
// (workgroup-uniform), and the interior and edge versions of load_tile, put_tile and write_tile (load and put name
// the slot s of `incoming`, one of DEPTH, that the tile travels in).

// Tile t's origin: column bx, row by (tiles in row-major order)
uvec2 tile_origin(uint t, uint tiles_x)
{
    return uvec2((t % tiles_x) * TILE, (t / tiles_x) * TILE);
}

void load_tile(uint s, uvec2 o)
{
    if (whole_tile(o))
        load_tile_interior(s, o.x, o.y);
    else
        load_tile_edge(s, o.x, o.y);
}

// One trip of the tile loop in slot S: the tile at T (slot 0's is there, the test after the trips; a later slot's
// may lie past the end) put into the shared tile, the loads of the tile DEPTH ahead sent into the slot it emptied,
// then the tile written out.
void slot_trip(uint s, uint t, uint ntiles, uint stride, uint tiles_x)
{
    if (s != 0u && t >= ntiles)
        return; // workgroup-uniform
    if (s != 0u)
        barrier(); // the previous tile's column reads are done before this tile's rows overwrite it
    uvec2 o = tile_origin(t, tiles_x);
    bool inside = whole_tile(o);
    if (inside)
        put_tile_interior(s, o.x, o.y);
    else
        put_tile_edge(s, o.x, o.y);
    barrier();
    // the loads of the tile DEPTH ahead go out, into the slot just emptied, before this tile's stores: while this
    // one is written the workgroup has DEPTH tiles' loads in flight (with a workgroup per tile there is no next tile)
    uint ahead = t + DEPTH * stride;
    if (ahead < ntiles)
        load_tile(s, tile_origin(ahead, tiles_x));
    if (inside)
        write_tile_interior(o.x, o.y);
    else
        write_tile_edge(o.x, o.y);
}

// Each slot is a call with its number written out (DEPTH at most 8, the host checks), so that every index into
// `incoming` is a constant once the driver inlines: a loop over the slots, even marked [[unroll]], left the array
// in local memory on NVIDIA's compiler (192-320 bytes spilled at DEPTH 2-4, 2026-11-27, docs/performance/transpose.md)
#define EACH_SLOT_AFTER_0(F) F(1u) F(2u) F(3u) F(4u) F(5u) F(6u) F(7u)
#define FIRST_LOAD(k)                                                                                              \
    if (DEPTH > k && t + k * stride < ntiles)                                                                      \
        load_tile(k, tile_origin(t + k * stride, tiles_x));
#define TRIP(k)                                                                                                    \
    if (DEPTH > k) {                                                                                               \
        slot_trip(k, t, ntiles, stride, tiles_x);                                                                  \
        t += stride;                                                                                               \
    }

void main()
{
    uint tiles_x = (pc.cols + TILE - 1u) / TILE;
    uint ntiles = tiles_x * ((pc.rows + TILE - 1u) / TILE);
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y; // the grid strides over the tiles
    uint t = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (t >= ntiles)
        return; // workgroup-uniform
    // the workgroup's first DEPTH tiles, its k-th in slot k; slot s then carries its tiles s, s + DEPTH, ...
    load_tile(0u, tile_origin(t, tiles_x));
    EACH_SLOT_AFTER_0(FIRST_LOAD)
    for (;;) {
        TRIP(0u)
        EACH_SLOT_AFTER_0(TRIP)
        if (t >= ntiles)
            break;
        barrier(); // the last tile's column reads are done before the next tile's rows overwrite it
    }
}
