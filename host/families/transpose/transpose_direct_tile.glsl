// transpose_direct_tile.glsl - one tile of transpose_direct.comp, included there twice: as MOVE_TILE with EDGE
// false (the tile lies wholly inside the matrix: no guards) and true (the guarded edge tiles).

// One tile: the invocation's TILE / ROWS elements of column bx + x. edge (EDGE) is false
// (a tile wholly inside the matrix) drops every guard below, so the loads and stores are straight-line code.
void MOVE_TILE(uint bx, uint by)
{
    const bool edge = EDGE;
    uint c = bx + gl_LocalInvocationID.x, r0 = by + gl_LocalInvocationID.y;
    if (edge && c >= pc.cols)
        return;
    // every load first (an index clamped to 0 outside the matrix, so no branch), then the guarded
    // stores: with a guarded load-store pair per element NVIDIA's compiler put each pair in a branch
    // of its own and waited for each load in turn (--sass: one LDG in flight; nvcc issues all four)
    float v[TILE / ROWS];
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS)
        v[j / ROWS] = src[!edge || r0 + j < pc.rows ? (r0 + j) * pc.cols + c : 0u];
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = r0 + j;
        if (!edge || r < pc.rows) {
            if (MODE == 0u)
                dst[r * pc.cols + c] = v[j / ROWS];
            else
                dst[c * pc.rows + r] = v[j / ROWS];
        }
    }
}
