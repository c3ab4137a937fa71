//! Target-neutral graph-colouring register allocator (register sets with q-values, graphs,
//! colouring, checker) and the value check of final code.
//!
//! A backend builds one [`RegSet`] per target and keeps it (in an `Arc`) in its compiler
//! object; per shader it builds a [`Graph`], calls [`Graph::allocate`], and on
//! [`AllocError::Spill`] spills the named candidate and tries again. [`check`] verifies any
//! result independently of the allocator. [`values::check`] goes further, on the code each
//! backend finally emits: it follows which virtual value every physical register holds and
//! finds the read that sees the wrong one, whatever the graph said.
//!
//! ```
//! use gpucc::ra::{check, Graph, RegSetBuilder};
//!
//! // Eight units; a class of single registers and one of aligned pairs.
//! let mut b = RegSetBuilder::new(8);
//! let single = b.add_contiguous_class(1, 1);
//! let pair = b.add_contiguous_class(2, 2);
//! let set = b.finalize().unwrap();
//! assert_eq!(set.q(single, pair), 2); // a pair blocks two single registers
//!
//! let mut g = Graph::new(&set);
//! let x = g.add_node(pair);
//! let y = g.add_node(single);
//! g.add_edge(x, y);
//! let a = g.allocate().unwrap();
//! check(&g, &a).unwrap();
//! ```

mod alloc;
mod assignment;
#[cfg(feature = "rig")]
pub mod bench;
mod bits;
mod check;
mod graph;
mod regset;
pub mod values;

pub use alloc::{AllocError, SpillChoice};
pub use assignment::Assignment;
pub use check::{check, CheckError};
pub use graph::{Graph, GraphError, NodeId};
pub use regset::{ClassId, RegId, RegSet, RegSetBuilder, RegSetError};
