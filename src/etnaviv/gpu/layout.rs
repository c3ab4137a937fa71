//! Surface layouts: where pixel (x, y) of a linear, tiled, supertiled or multi-pipe surface
//! lives in memory.
