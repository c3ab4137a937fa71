//! An independent verifier for register assignments.
//!
//! It shares nothing with the allocator but the register set's conflict relation: it walks the
//! edges as they were added (not the allocator's deduplicated adjacency) and re-checks every
//! rule, so a bug in simplify, select or the adjacency builder cannot hide from it. Tests run
//! it on every result; backends run it in debug builds after every allocation.

use std::fmt;

use super::assignment::Assignment;
use super::graph::{Graph, NodeId};
use super::regset::{ClassId, RegId};

/// The first rule an assignment breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The assignment does not have one register per node.
    WrongLength { nodes: usize, regs: usize },
    /// A node's register is not a register of its class (or of the set).
    NotInClass {
        node: NodeId,
        reg: RegId,
        class: ClassId,
    },
    /// A pre-coloured node was moved.
    PrecolourChanged {
        node: NodeId,
        wanted: RegId,
        got: RegId,
    },
    /// Two interfering nodes hold conflicting registers.
    Conflict {
        a: NodeId,
        a_reg: RegId,
        b: NodeId,
        b_reg: RegId,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::WrongLength { nodes, regs } => {
                write!(f, "assignment has {regs} registers for {nodes} nodes")
            }
            CheckError::NotInClass { node, reg, class } => {
                write!(f, "{node} got {reg}, which is not in its {class}")
            }
            CheckError::PrecolourChanged { node, wanted, got } => {
                write!(f, "{node} is pre-coloured to {wanted} but got {got}")
            }
            CheckError::Conflict { a, a_reg, b, b_reg } => {
                write!(
                    f,
                    "interfering {a} and {b} got conflicting registers {a_reg} and {b_reg}"
                )
            }
        }
    }
}

impl std::error::Error for CheckError {}

/// Verifies that `assignment` is a valid colouring of `graph`.
pub fn check(graph: &Graph, assignment: &Assignment) -> Result<(), CheckError> {
    let set = graph.reg_set();
    let (nodes, regs) = (graph.num_nodes(), assignment.len());
    if nodes != regs {
        return Err(CheckError::WrongLength { nodes, regs });
    }
    for i in 0..nodes {
        let node = NodeId(i as u32);
        let (reg, class) = (assignment.reg(node), graph.class(node));
        if class.index() >= set.num_classes() || !set.class_contains(class, reg) {
            return Err(CheckError::NotInClass { node, reg, class });
        }
        if let Some(wanted) = graph.precolour(node) {
            if wanted != reg {
                return Err(CheckError::PrecolourChanged {
                    node,
                    wanted,
                    got: reg,
                });
            }
        }
    }
    for (a, b) in graph.edges() {
        let (a_reg, b_reg) = (assignment.reg(a), assignment.reg(b));
        if set.conflicts(a_reg, b_reg) {
            return Err(CheckError::Conflict { a, a_reg, b, b_reg });
        }
    }
    Ok(())
}
