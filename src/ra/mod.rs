//! Target-neutral graph-colouring register allocator (register sets with q-values, graphs, colouring, checker).
