//! The kernel interface: render-node discovery and the i915 and etnaviv ioctls.
