// transpose_vec4_tile.glsl - one tile of transpose_vec4.comp, included there twice: as MOVE_TILE with EDGE
// false (the tile lies wholly inside the matrix: no guards) and true (the guarded edge tiles).

// One tile at column bx, row by. edge (EDGE) is false (a tile wholly inside the matrix,
// rows 16-byte aligned on both sides) drops every guard and the scalar paths below, so the loads and stores
// are straight-line code. wait: a previous tile's column reads may still be under way.
void MOVE_TILE(uint bx, uint by, bool wait)
{
    const bool edge = EDGE;
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    bool vec_in = !edge || (pc.cols & 3u) == 0u, vec_out = !edge || (pc.rows & 3u) == 0u;
    // vec_in: every 16-byte load of the tile first (index clamped to 0 outside the matrix: no branch),
    // then the shared stores. Loading and storing each row in turn, NVIDIA's compiler put each row in
    // a branch of its own and waited for its load (--sass: one LDG.E.128 in flight per invocation;
    // nvcc issues all of them first).
    vec4 v[TILE / ROWS];
    if (vec_in)
        [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
            uint r = by + y + j, c = bx + 4u * x;
            v[j / ROWS] = src4[!edge || (r < pc.rows && c < pc.cols) ? (r * pc.cols + c) / 4u : 0u];
        }
    if (wait)
        barrier(); // the previous tile's column reads are done before its rows are overwritten
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = by + y + j, c = bx + 4u * x;
        if (edge && (r >= pc.rows || c >= pc.cols))
            continue;
        if (vec_in) { // c + 3 < cols: c and cols are multiples of 4
            tile[y + j][4u * x] = v[j / ROWS].x;
            tile[y + j][4u * x + 1u] = v[j / ROWS].y;
            tile[y + j][4u * x + 2u] = v[j / ROWS].z;
            tile[y + j][4u * x + 3u] = v[j / ROWS].w;
        } else {
            for (uint k = 0u; k < 4u && c + k < pc.cols; k++)
                tile[y + j][4u * x + k] = src1[r * pc.cols + c + k];
        }
    }
    barrier();
    // the same order on the way out: every shared read, then the stores
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
