//! Functional simulator.
