// transpose_tiled_tile.glsl - one tile of transpose_tiled.comp, included there twice: as MOVE_TILE with EDGE
// false (the tile lies wholly inside the matrix: no guards) and true (the guarded edge tiles).

// One tile at column bx, row by. edge (EDGE) is false (a tile wholly inside the matrix)
// drops every guard below, so the loads and stores are straight-line code. wait: a previous tile's column
// reads may still be under way.
void MOVE_TILE(uint bx, uint by, bool wait)
{
    const bool edge = EDGE;
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    // Each phase loads everything first, then stores: a guarded load-store pair per element
    // became a branch per pair in NVIDIA's compiler, each store waiting for its load (--sass: LDS then
    // STG in 8 branches for tile64; nvcc issues the loads together). Global loads take an index
    // clamped to 0 outside the matrix instead of a branch; shared reads are always inside the tile.
    float v[TILE / ROWS];
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = by + y + j, c = bx + x;
        v[j / ROWS] = src[!edge || (r < pc.rows && c < pc.cols) ? r * pc.cols + c : 0u];
    }
    if (wait)
        barrier(); // the previous tile's column reads are done before its rows are overwritten
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = by + y + j, c = bx + x;
        if (!edge || (r < pc.rows && c < pc.cols))
            tile[y + j][col_of(y + j, x)] = v[j / ROWS];
    }
    barrier();
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS)
        v[j / ROWS] = MODE == 0u ? tile[y + j][col_of(y + j, x)] : tile[x][col_of(x, y + j)];
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        if (MODE == 0u) {
            uint r = by + y + j, c = bx + x;
            if (!edge || (r < pc.rows && c < pc.cols))
                dst[r * pc.cols + c] = v[j / ROWS];
        } else {
            uint r = bx + y + j, c = by + x; // output row = input column
            if (!edge || (r < pc.cols && c < pc.rows))
                dst[r * pc.rows + c] = v[j / ROWS];
        }
    }
}
