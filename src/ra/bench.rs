//! Benchmarks (placeholder).
