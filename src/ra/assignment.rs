//! The result of colouring: a register per node.

use super::graph::NodeId;
use super::regset::RegId;

/// A register for every node, indexed by [`NodeId`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    regs: Vec<RegId>,
}

impl Assignment {
    /// Wraps registers chosen elsewhere, e.g. to run [`check`](super::check()) on them.
    pub fn from_regs(regs: Vec<RegId>) -> Assignment {
        Assignment { regs }
    }

    pub fn reg(&self, n: NodeId) -> RegId {
        self.regs[n.index()]
    }

    pub fn regs(&self) -> &[RegId] {
        &self.regs
    }

    pub fn len(&self) -> usize {
        self.regs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.regs.is_empty()
    }
}
