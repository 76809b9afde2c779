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

void main()
{
    uint tiles_x = (pc.cols + TILE - 1u) / TILE;
    uint ntiles = tiles_x * ((pc.rows + TILE - 1u) / TILE);
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y; // the grid strides over the tiles
    uint t = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (t >= ntiles)
        return; // workgroup-uniform
    // the workgroup's first DEPTH tiles, its k-th in slot k
    load_tile(0u, tile_origin(t, tiles_x));
    [[unroll]] for (uint s = 1u; s < DEPTH; s++)
        if (t + s * stride < ntiles)
            load_tile(s, tile_origin(t + s * stride, tiles_x));
    // slot s carries the workgroup's tiles s, s + DEPTH, ...: unrolled over the slots, every index into
    // `incoming` is a constant, so the slots stay in registers
    for (;;) {
        [[unroll]] for (uint s = 0u; s < DEPTH; s++) {
            // slot 0's tile is there (the test after this loop); a later slot's may lie past the end. Tested
            // rather than left by a break: a loop with a second exit is not unrolled (spirv-opt -O)
            if (s == 0u || t < ntiles) { // workgroup-uniform
                if (s != 0u)
                    barrier(); // the previous tile's column reads are done before this tile's rows overwrite it
                uvec2 o = tile_origin(t, tiles_x);
                bool inside = whole_tile(o);
                if (inside)
                    put_tile_interior(s, o.x, o.y);
                else
                    put_tile_edge(s, o.x, o.y);
                barrier();
                // the loads of the tile DEPTH ahead go out, into the slot just emptied, before this tile's
                // stores: while this one is written the workgroup has DEPTH tiles' loads in flight (with a
                // workgroup per tile there is no next tile)
                uint ahead = t + DEPTH * stride;
                if (ahead < ntiles)
                    load_tile(s, tile_origin(ahead, tiles_x));
                if (inside)
                    write_tile_interior(o.x, o.y);
                else
                    write_tile_edge(o.x, o.y);
            }
            t += stride;
        }
        if (t >= ntiles)
            break;
        barrier(); // the last tile's column reads are done before the next tile's rows overwrite it
    }
}
