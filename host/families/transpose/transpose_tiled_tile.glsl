// transpose_tiled_tile.glsl - the three steps of a tile of transpose_tiled.comp, included there twice: as
// LOAD_TILE, PUT_TILE and WRITE_TILE with EDGE false (the tile lies wholly inside the matrix: no guards) and
// true (the guarded edge tiles). The tile's origin is column bx, row by.

// The tile from the matrix into slot s of `incoming`, every load issued before any is used: a guarded load-store
// pair per element became a branch per pair in NVIDIA's compiler, each store waiting for its load (--sass: LDS
// then STG in 8 branches for tile64; nvcc issues the loads together). Outside the matrix the index is clamped to 0
// instead of a branch.
void LOAD_TILE(uint s, uint bx, uint by)
{
    const bool edge = EDGE;
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = by + y + j, c = bx + x;
        incoming[s * (TILE / ROWS) + j / ROWS] = src[!edge || (r < pc.rows && c < pc.cols) ? r * pc.cols + c : 0u];
    }
}

// Slot s of `incoming` into the shared tile, row by row (the elements inside the matrix)
void PUT_TILE(uint s, uint bx, uint by)
{
    const bool edge = EDGE;
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = by + y + j, c = bx + x;
        if (!edge || (r < pc.rows && c < pc.cols))
            tile[y + j][col_of(y + j, x)] = incoming[s * (TILE / ROWS) + j / ROWS];
    }
}

// The shared tile out to the matrix, read down its columns (MODE copy: along its rows): every shared read,
// then the stores
void WRITE_TILE(uint bx, uint by)
{
    const bool edge = EDGE;
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    float v[TILE / ROWS];
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
