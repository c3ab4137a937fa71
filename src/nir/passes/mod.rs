//! Target-neutral NIR passes.
