// transpose_vec4_tile.glsl - the three steps of a tile of transpose_vec4.comp, included there twice: as
// LOAD_TILE, PUT_TILE and WRITE_TILE with EDGE false (the tile lies wholly inside the matrix and its rows are
// 16-byte aligned on both sides: no guards, no scalar paths) and true (the guarded edge tiles). The tile's
// origin is column bx, row by.

// The tile's rows into slot s of `incoming`, 16 bytes a load, every load issued before any is used (index clamped
// to 0 outside the matrix: no branch). Loading and storing each row in turn, NVIDIA's compiler put each row in a
// branch of its own and waited for its load (--sass: one LDG.E.128 in flight per invocation; nvcc issues all
// of them first). Rows not 16-byte aligned load nothing here: PUT_TILE reads them a word at a time.
void LOAD_TILE(uint s, uint bx, uint by)
{
    const bool edge = EDGE;
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    if (!edge || (pc.cols & 3u) == 0u)
        [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
            uint r = by + y + j, c = bx + 4u * x;
            incoming[s * (TILE / ROWS) + j / ROWS] =
                src4[!edge || (r < pc.rows && c < pc.cols) ? (r * pc.cols + c) / 4u : 0u];
        }
}

// Slot s of `incoming` into the shared tile (the elements inside the matrix); unaligned rows straight from the matrix
void PUT_TILE(uint s, uint bx, uint by)
{
    const bool edge = EDGE;
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    bool vec_in = !edge || (pc.cols & 3u) == 0u;
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = by + y + j, c = bx + 4u * x;
        if (edge && (r >= pc.rows || c >= pc.cols))
            continue;
        if (vec_in) { // c + 3 < cols: c and cols are multiples of 4
            tile[y + j][4u * x] = incoming[s * (TILE / ROWS) + j / ROWS].x;
            tile[y + j][4u * x + 1u] = incoming[s * (TILE / ROWS) + j / ROWS].y;
            tile[y + j][4u * x + 2u] = incoming[s * (TILE / ROWS) + j / ROWS].z;
            tile[y + j][4u * x + 3u] = incoming[s * (TILE / ROWS) + j / ROWS].w;
        } else {
            for (uint k = 0u; k < 4u && c + k < pc.cols; k++)
                tile[y + j][4u * x + k] = src1[r * pc.cols + c + k];
        }
    }
}

// The shared tile out, four neighbours of a tile column as one vec4 of an output row: every shared read, then
// the stores (unaligned output rows a word at a time)
void WRITE_TILE(uint bx, uint by)
{
    const bool edge = EDGE;
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    bool vec_out = !edge || (pc.rows & 3u) == 0u;
    vec4 v[TILE / ROWS];
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS)
        v[j / ROWS] = vec4(tile[4u * x][y + j], tile[4u * x + 1u][y + j], tile[4u * x + 2u][y + j],
                           tile[4u * x + 3u][y + j]);
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = bx + y + j, c = by + 4u * x; // output row = input column
        if (edge && (r >= pc.cols || c >= pc.rows))
            continue;
        if (vec_out) {
            dst4[(r * pc.rows + c) / 4u] = v[j / ROWS];
        } else {
            for (uint k = 0u; k < 4u && c + k < pc.rows; k++)
                dst1[r * pc.rows + c + k] = tile[4u * x + k][y + j];
        }
    }
}
