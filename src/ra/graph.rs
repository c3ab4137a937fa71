//! Interference graphs: nodes with a class, edges, pre-colours and spill costs.
//!
//! Edges are recorded as a flat list and turned into compact adjacency arrays (CSR, with
//! duplicates removed) when the graph is allocated, so adding an edge never allocates per
//! edge and a 20k-node graph needs no n² adjacency matrix. The arrays are cached until the
//! graph changes, so re-allocating after a spill only pays for what changed.

use std::fmt;
use std::sync::Arc;

use super::regset::{ClassId, RegId, RegSet};
use crate::util::bitset::BitMatrix;

/// A node (a virtual register, a live range) of a [`Graph`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n{}", self.0)
    }
}

/// Something about the graph itself is wrong: no spilling can fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GraphError {
    /// A method was given a node number the graph does not have.
    UnknownNode {
        node: NodeId,
        nodes: usize,
        used_by: &'static str,
    },
    /// A node's class does not belong to the graph's register set.
    UnknownClass { node: NodeId, class: ClassId },
    /// A pre-colour must be a register of the node's class.
    PrecolourNotInClass {
        node: NodeId,
        reg: RegId,
        class: ClassId,
    },
    /// Two interfering nodes are pre-coloured to conflicting registers.
    PrecolourConflict {
        a: NodeId,
        a_reg: RegId,
        b: NodeId,
        b_reg: RegId,
    },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::UnknownNode { node, nodes, used_by } => {
                write!(f, "{used_by}: {node} is not a node of this graph ({nodes} nodes)")
            }
            GraphError::UnknownClass { node, class } => {
                write!(f, "{node} has {class}, which the register set does not have")
            }
            GraphError::PrecolourNotInClass { node, reg, class } => {
                write!(f, "{node} is pre-coloured to {reg}, which is not in its {class}")
            }
            GraphError::PrecolourConflict { a, a_reg, b, b_reg } => write!(
                f,
                "interfering nodes {a} and {b} are pre-coloured to conflicting registers {a_reg} and {b_reg}"
            ),
        }
    }
}

impl std::error::Error for GraphError {}

/// Deduplicated adjacency in compressed-row form.
#[derive(Clone, Debug, Default)]
pub(crate) struct Adjacency {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Adjacency {
    /// Builds the rows from a bit matrix when it is small next to the edge list (at most a
    /// few words to scan per edge added), else by counting passes over the edges; both give
    /// the same rows.
    fn build(nodes: usize, edges: &[(u32, u32)]) -> Adjacency {
        if nodes * nodes.div_ceil(64) <= 4 * edges.len() + 4096 {
            Self::build_dense(nodes, edges)
        } else {
            Self::build_sparse(nodes, edges)
        }
    }

    /// A bit per node pair: setting two bits per edge removes the duplicates, and reading
    /// each row's bits in order lists its neighbours in increasing order.
    fn build_dense(nodes: usize, edges: &[(u32, u32)]) -> Adjacency {
        let mut matrix = BitMatrix::new(nodes, nodes);
        for &(a, b) in edges {
            matrix.insert(a as usize, b as usize);
            matrix.insert(b as usize, a as usize);
        }
        let mut start = Vec::with_capacity(nodes + 1);
        let mut list = Vec::with_capacity(2 * edges.len());
        for r in 0..nodes {
            start.push(list.len() as u32);
            for (w, &bits) in matrix.row(r).iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    list.push((w * 64) as u32 + bits.trailing_zeros());
                    bits &= bits - 1;
                }
            }
        }
        start.push(list.len() as u32);
        Adjacency { start, list }
    }

    fn build_sparse(nodes: usize, edges: &[(u32, u32)]) -> Adjacency {
        let mut start = vec![0u32; nodes + 1];
        for &(a, b) in edges {
            start[a as usize + 1] += 1;
            start[b as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        // Two counting passes instead of a sort per row: the rows of an unordered fill are
        // read node by node, and node n is appended to each row it appears in. The graph is
        // symmetric, so row m then lists its neighbours in increasing order.
        let mut fill = start.clone();
        let mut unordered = vec![0u32; start[nodes] as usize];
        for &(a, b) in edges {
            unordered[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            unordered[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        fill.copy_from_slice(&start);
        let mut list = vec![0u32; start[nodes] as usize];
        for n in 0..nodes {
            for &m in &unordered[start[n] as usize..start[n + 1] as usize] {
                list[fill[m as usize] as usize] = n as u32;
                fill[m as usize] += 1;
            }
        }
        drop(unordered);
        // Compact each row in place, removing duplicate edges.
        let mut out = 0usize;
        let mut row_start = 0usize;
        for i in 0..nodes {
            let row_end = start[i + 1] as usize;
            let new_start = out;
            for k in row_start..row_end {
                if out == new_start || list[out - 1] != list[k] {
                    list[out] = list[k];
                    out += 1;
                }
            }
            start[i] = new_start as u32;
            row_start = row_end;
        }
        start[nodes] = out as u32;
        list.truncate(out);
        Adjacency { start, list }
    }

    pub(crate) fn neighbours(&self, n: usize) -> &[u32] {
        &self.list[self.start[n] as usize..self.start[n + 1] as usize]
    }
}

/// An interference graph over one register set.
#[derive(Clone, Debug)]
pub struct Graph {
    pub(crate) set: Arc<RegSet>,
    pub(crate) class: Vec<ClassId>,
    pub(crate) fixed: Vec<Option<RegId>>,
    pub(crate) cost: Vec<f32>,
    edges: Vec<(u32, u32)>,
    pub(crate) round_robin: bool,
    error: Option<GraphError>,
    adjacency: Option<Adjacency>,
}

impl Graph {
    pub fn new(set: &Arc<RegSet>) -> Graph {
        Graph::with_capacity(set, 0, 0)
    }

    pub fn with_capacity(set: &Arc<RegSet>, nodes: usize, edges: usize) -> Graph {
        Graph {
            set: Arc::clone(set),
            class: Vec::with_capacity(nodes),
            fixed: Vec::with_capacity(nodes),
            cost: Vec::with_capacity(nodes),
            edges: Vec::with_capacity(edges),
            round_robin: false,
            error: None,
            adjacency: None,
        }
    }

    pub fn reg_set(&self) -> &Arc<RegSet> {
        &self.set
    }

    pub fn num_nodes(&self) -> usize {
        self.class.len()
    }

    /// Edges added so far, counting repeats (what the interference graph cost to build).
    pub fn num_edges_added(&self) -> usize {
        self.edges.len()
    }

    /// Adds a node; nodes may be added at any time, e.g. spill temporaries before a retry.
    pub fn add_node(&mut self, class: ClassId) -> NodeId {
        self.class.push(class);
        self.fixed.push(None);
        self.cost.push(0.0);
        self.adjacency = None;
        NodeId(self.class.len() as u32 - 1)
    }

    /// Records that `a` and `b` are live at the same time. Self-edges and repeats are harmless.
    pub fn add_edge(&mut self, a: NodeId, b: NodeId) {
        if self.known(a, "add_edge") && self.known(b, "add_edge") && a != b {
            self.edges.push((a.0, b.0));
            self.adjacency = None;
        }
    }

    /// Removes every edge of `n` (Mesa's `ra_reset_node_interference`), e.g. after spilling it.
    pub fn clear_edges(&mut self, n: NodeId) {
        if self.known(n, "clear_edges") {
            self.edges.retain(|&(a, b)| a != n.0 && b != n.0);
            self.adjacency = None;
        }
    }

    /// Forces `n` into `reg` (payload registers, fixed inputs and outputs).
    pub fn precolor(&mut self, n: NodeId, reg: RegId) {
        if self.known(n, "precolor") {
            self.fixed[n.index()] = Some(reg);
        }
    }

    /// The cost of spilling `n`; nodes with no positive cost are never chosen for spilling.
    pub fn set_spill_cost(&mut self, n: NodeId, cost: f32) {
        if self.known(n, "set_spill_cost") {
            self.cost[n.index()] = cost;
        }
    }

    /// Rotates the search start across trivially colourable nodes instead of always taking the
    /// lowest free register (fewer false dependencies for a post-RA scheduler).
    pub fn set_round_robin(&mut self, on: bool) {
        self.round_robin = on;
    }

    pub fn class(&self, n: NodeId) -> ClassId {
        self.class[n.index()]
    }

    pub fn precolour(&self, n: NodeId) -> Option<RegId> {
        self.fixed[n.index()]
    }

    pub fn spill_cost(&self, n: NodeId) -> f32 {
        self.cost[n.index()]
    }

    /// The edges as added (possibly with repeats).
    pub fn edges(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.edges.iter().map(|&(a, b)| (NodeId(a), NodeId(b)))
    }

    /// The distinct neighbours of `n`, in increasing order.
    pub fn neighbours(&mut self, n: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.adjacency()
            .neighbours(n.index())
            .iter()
            .map(|&m| NodeId(m))
    }

    fn known(&mut self, n: NodeId, used_by: &'static str) -> bool {
        let ok = n.index() < self.class.len();
        if !ok {
            let nodes = self.class.len();
            self.error.get_or_insert(GraphError::UnknownNode {
                node: n,
                nodes,
                used_by,
            });
        }
        ok
    }

    /// Lends out the cached adjacency (building it if needed); hand it back with
    /// [`keep_adjacency`](Self::keep_adjacency) so the next allocation can reuse it.
    pub(crate) fn take_adjacency(&mut self) -> Adjacency {
        let (nodes, edges) = (self.class.len(), &self.edges);
        self.adjacency
            .take()
            .unwrap_or_else(|| Adjacency::build(nodes, edges))
    }

    pub(crate) fn keep_adjacency(&mut self, adjacency: Adjacency) {
        self.adjacency = Some(adjacency);
    }

    pub(crate) fn adjacency(&mut self) -> &Adjacency {
        let (nodes, edges) = (self.class.len(), &self.edges);
        self.adjacency
            .get_or_insert_with(|| Adjacency::build(nodes, edges))
    }

    /// Everything that makes the graph unallocatable regardless of spilling.
    pub(crate) fn validate(&mut self) -> Result<(), GraphError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let set = Arc::clone(&self.set);
        for (i, &class) in self.class.iter().enumerate() {
            let node = NodeId(i as u32);
            if class.index() >= set.num_classes() {
                return Err(GraphError::UnknownClass { node, class });
            }
            if let Some(reg) = self.fixed[i] {
                if !set.class_contains(class, reg) {
                    return Err(GraphError::PrecolourNotInClass { node, reg, class });
                }
            }
        }
        let fixed = std::mem::take(&mut self.fixed);
        let adjacency = self.adjacency();
        let mut result = Ok(());
        'outer: for (a, a_reg) in fixed.iter().enumerate() {
            let Some(a_reg) = *a_reg else { continue };
            for &b in adjacency.neighbours(a) {
                if let Some(b_reg) = fixed[b as usize] {
                    if set.conflicts(a_reg, b_reg) {
                        let (a, b) = (NodeId(a as u32), NodeId(b));
                        result = Err(GraphError::PrecolourConflict { a, a_reg, b, b_reg });
                        break 'outer;
                    }
                }
            }
        }
        self.fixed = fixed;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_is_symmetric_sorted_and_deduplicated() {
        let edges = [(2, 0), (0, 2), (1, 2), (2, 0), (3, 1)];
        let dense = Adjacency::build_dense(5, &edges);
        let sparse = Adjacency::build_sparse(5, &edges);
        for adj in [dense, sparse] {
            assert_eq!(adj.neighbours(0), &[2]);
            assert_eq!(adj.neighbours(1), &[2, 3]);
            assert_eq!(adj.neighbours(2), &[0, 1]);
            assert_eq!(adj.neighbours(3), &[1]);
            assert_eq!(adj.neighbours(4), &[] as &[u32]);
        }
    }

    /// The bit matrix and the counting passes agree on rows that cross word boundaries, with
    /// repeated edges in both directions and nodes without edges.
    #[test]
    fn dense_and_sparse_adjacency_agree() {
        let nodes = 200;
        let mut edges = Vec::new();
        // A fixed, varied edge list.
        let mut rng = crate::util::rng::Rng::new(12345);
        for _ in 0..1500 {
            let a = rng.below(nodes as u64) as u32;
            let b = rng.below(nodes as u64) as u32;
            if a != b && a % 7 != 3 && b % 7 != 3 {
                edges.push((a, b));
            }
        }
        let n = nodes as usize;
        let dense = Adjacency::build_dense(n, &edges);
        let sparse = Adjacency::build_sparse(n, &edges);
        for v in 0..n {
            let mut want: Vec<u32> = edges
                .iter()
                .filter_map(|&(a, b)| match (a as usize == v, b as usize == v) {
                    (true, _) => Some(b),
                    (_, true) => Some(a),
                    _ => None,
                })
                .collect();
            want.sort_unstable();
            want.dedup();
            assert_eq!(dense.neighbours(v), &want[..], "dense row {v}");
            assert_eq!(sparse.neighbours(v), &want[..], "sparse row {v}");
        }
    }
}
