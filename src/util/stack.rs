//! Recursion over nested control flow on whatever stack the caller gave us.
//!
//! The NIR parser, printer, validator, interpreter and both backends' translators walk nested
//! `if`s and loops recursively. A driver may call gpucc on a thread with a small stack (128 KiB
//! is common for worker threads; musl's default is 128 KiB), where 150 levels of nesting once
//! overflowed it inside `gpucc_shader_from_nir_text` — a crash no status code can report.
//! Each recursive step runs through [`grow`], which moves onto a fresh heap-allocated segment
//! when little of the current stack is left, so depth is bounded by the parser's nesting limit
//! (200), not by the caller's stack.

/// Stack that must remain for one more level of recursion (with room for the leaf work a
/// level does: pattern matching, formatting, the backend's instruction emission).
const RED_ZONE: usize = 64 * 1024;

/// Size of each new segment when the red zone is reached.
const SEGMENT: usize = 1024 * 1024;

/// Runs `f`, first switching to a new stack segment if fewer than [`RED_ZONE`] bytes of the
/// current one remain.
#[inline]
pub fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}
