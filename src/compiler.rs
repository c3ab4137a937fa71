//! The compiler object: one per target, shared by every shader compiled for it.
//!
//! Everything that depends only on the target (device facts, register sets and their q-values)
//! belongs here and is built once, never per shader. A `Compiler` is `Send + Sync`: drivers
//! compile from several threads at once with one object.

use crate::target::{Target, UnknownTarget};

#[derive(Debug)]
pub struct Compiler {
    target: Target,
}

impl Compiler {
    pub fn new(target_name: &str) -> Result<Compiler, UnknownTarget> {
        Ok(Compiler {
            target: Target::from_name(target_name)?,
        })
    }

    pub fn target(&self) -> Target {
        self.target
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Compiler>();
    }
}
