// transpose_pipeline.glsl - the tile loop of the shared-tile transposes (transpose_tiled.comp, transpose_vec4.comp),
// included after the shader's own parts: whole_tile(o), true where the tile at origin o takes the guard-free path
// (workgroup-uniform), and the interior and edge versions of load_tile, put_tile and write_tile.

// Tile t's origin: column bx, row by (tiles in row-major order)
uvec2 tile_origin(uint t, uint tiles_x)
{
    return uvec2((t % tiles_x) * TILE, (t / tiles_x) * TILE);
}

void load_tile(uvec2 o)
{
    if (whole_tile(o))
        load_tile_interior(o.x, o.y);
    else
        load_tile_edge(o.x, o.y);
}

void main()
{
    uint tiles_x = (pc.cols + TILE - 1u) / TILE;
    uint ntiles = tiles_x * ((pc.rows + TILE - 1u) / TILE);
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y; // the grid strides over the tiles
    uint t = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (t >= ntiles)
        return; // workgroup-uniform
    load_tile(tile_origin(t, tiles_x));
    for (;;) {
        uvec2 o = tile_origin(t, tiles_x);
        bool inside = whole_tile(o);
        if (inside)
            put_tile_interior(o.x, o.y);
        else
            put_tile_edge(o.x, o.y);
        barrier();
        // the next tile's loads go out before this tile's stores: while this one is written, the workgroup
        // has loads in flight (TILES_PER_GROUP > 1; with a workgroup per tile there is no next tile)
        uint next = t + stride;
        if (next < ntiles)
            load_tile(tile_origin(next, tiles_x));
        if (inside)
            write_tile_interior(o.x, o.y);
        else
            write_tile_edge(o.x, o.y);
        if (next >= ntiles)
            break;
        barrier(); // this tile's column reads are done before the next tile's rows overwrite it
        t = next;
    }
}
