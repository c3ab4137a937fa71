//! Colouring: simplify with the q-value test, optimistic push, select, spill choice.
//!
//! This follows Runeson and Nyström's generalisation of Chaitin–Briggs colouring to register
//! classes, as Mesa's `register_allocate.c` does: a node of class B whose neighbours together
//! can block fewer than |B| registers (Σ q\[B\]\[class(m)\] < |B|) will always find a register,
//! so it is removed first and coloured last.

use std::fmt;

use super::assignment::Assignment;
use super::bits::first_set_from;
use super::check::check;
use super::graph::{Adjacency, Graph, GraphError, NodeId};
use super::regset::RegId;

/// Colouring failed; spilling `candidate` and retrying is the best next step.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SpillChoice {
    /// The node select found no register for.
    pub uncoloured: NodeId,
    /// The node whose spilling frees the most blocking per unit of cost.
    pub candidate: NodeId,
    /// The candidate's benefit divided by its cost (larger is better).
    pub benefit_per_cost: f32,
}

/// Why [`Graph::allocate`] returned no assignment.
#[derive(Clone, Debug, PartialEq)]
pub enum AllocError {
    /// Colouring failed; spill the candidate and allocate again.
    Spill(SpillChoice),
    /// Colouring failed and no node that could help has a positive spill cost.
    NoSpillCandidate { uncoloured: NodeId },
    /// The graph is malformed.
    Invalid(GraphError),
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllocError::Spill(s) => write!(
                f,
                "no register for {}; spill {} (benefit/cost {})",
                s.uncoloured, s.candidate, s.benefit_per_cost
            ),
            AllocError::NoSpillCandidate { uncoloured } => {
                write!(f, "no register for {uncoloured} and no spillable node")
            }
            AllocError::Invalid(e) => write!(f, "invalid interference graph: {e}"),
        }
    }
}

impl std::error::Error for AllocError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AllocError::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

const NO_REG: u32 = u32::MAX;

impl Graph {
    /// Colours the graph. The graph is left unchanged, so the caller can spill the returned
    /// candidate (add temporaries, clear edges) and call this again.
    pub fn allocate(&mut self) -> Result<Assignment, AllocError> {
        self.validate().map_err(AllocError::Invalid)?;
        let adjacency = self.take_adjacency();
        let simplified = self.simplify(&adjacency);
        let result = self.select(&adjacency, simplified);
        self.keep_adjacency(adjacency);
        if let Ok(assignment) = &result {
            debug_assert_eq!(
                check(self, assignment),
                Ok(()),
                "allocator produced an invalid assignment"
            );
        }
        result
    }

    /// Σ over neighbours m of q\[class(n)\]\[class(m)\], for every node.
    fn q_totals(&self, adjacency: &Adjacency) -> Vec<u64> {
        let set = &*self.set;
        let class = &self.class;
        (0..self.num_nodes())
            .map(|n| {
                let q = set.q_row(class[n]);
                let mut total = 0u64;
                for &m in adjacency.neighbours(n) {
                    total += u64::from(q[class[m as usize].index()]);
                }
                total
            })
            .collect()
    }

    /// Removes nodes in colouring order; the returned stack is coloured from its end.
    fn simplify(&self, adjacency: &Adjacency) -> Simplified {
        let set = &*self.set;
        let n_nodes = self.num_nodes();
        let mut q_total = self.q_totals(adjacency);
        // |class(n)| per node, read for every neighbour of every removed node.
        let class_size: Vec<u64> = self
            .class
            .iter()
            .map(|&c| set.class_size(c) as u64)
            .collect();
        let p = |n: usize| class_size[n];

        // Removed from the graph: stacked, or pre-coloured (never stacked, always coloured).
        let mut removed: Vec<bool> = self.fixed.iter().map(Option::is_some).collect();
        let mut remaining = removed.iter().filter(|&&r| !r).count();
        let mut trivial: Vec<u32> = (0..n_nodes as u32)
            .rev()
            .filter(|&n| !removed[n as usize] && q_total[n as usize] < p(n as usize))
            .collect();
        let mut lowest = LowestQ::new(n_nodes);

        let mut stack = Vec::with_capacity(remaining);
        let mut optimistic_start = None;
        while remaining > 0 {
            let n = match trivial.pop() {
                Some(n) => n as usize,
                None => {
                    // Nothing is trivially colourable: push the node with the lowest q total
                    // (the fewest blocked registers, so the likeliest to get one anyway).
                    let n = lowest.pick(&q_total, &removed).expect("a node remains");
                    optimistic_start.get_or_insert(stack.len());
                    n
                }
            };
            removed[n] = true;
            lowest.removed(n);
            remaining -= 1;
            stack.push(n as u32);
            let c = self.class[n];
            for &m in adjacency.neighbours(n) {
                let m = m as usize;
                if removed[m] {
                    continue;
                }
                let (q, size) = (&mut q_total[m], class_size[m]);
                let was_trivial = *q < size;
                *q -= set.q(self.class[m], c) as u64;
                if !was_trivial && *q < size {
                    trivial.push(m as u32);
                }
                lowest.lowered(m, *q);
            }
        }
        Simplified {
            stack,
            optimistic_start: optimistic_start.unwrap_or(usize::MAX),
        }
    }

    /// Pops the stack, giving each node the first register no coloured neighbour conflicts with.
    fn select(
        &self,
        adjacency: &Adjacency,
        simplified: Simplified,
    ) -> Result<Assignment, AllocError> {
        let set = &*self.set;
        let Simplified {
            mut stack,
            optimistic_start,
        } = simplified;
        let mut reg: Vec<u32> = self
            .fixed
            .iter()
            .map(|r| r.map_or(NO_REG, |r| r.0))
            .collect();
        let mut avail = vec![0u64; set.row_words()];
        let mut search_from = 0usize;

        while let Some(&n) = stack.last() {
            let n = n as usize;
            let c = self.class[n];
            let words = set.class(c).words.clone();
            let class_avail = &mut avail[words.clone()];
            class_avail.copy_from_slice(&set.member_row(c)[words.clone()]);
            for &m in adjacency.neighbours(n) {
                let r = reg[m as usize];
                if r != NO_REG {
                    let row = &set.conflict_row(RegId(r))[words.clone()];
                    for (a, &b) in class_avail.iter_mut().zip(row) {
                        *a &= !b;
                    }
                }
            }
            let found = first_set_from(&avail, search_from, words.clone())
                .or_else(|| first_set_from(&avail, 0, words.clone()));
            let Some(r) = found else {
                stack.pop();
                return Err(self.spill_choice(adjacency, NodeId(n as u32), &stack));
            };
            reg[n] = r as u32;
            stack.pop();
            if self.round_robin && stack.len() < optimistic_start {
                search_from = r + 1;
            }
        }
        Ok(Assignment::from_regs(reg.into_iter().map(RegId).collect()))
    }

    /// Mesa's choice: among the nodes select has coloured and the one it failed on (spilling
    /// anything still stacked cannot help the failed node), the one with the largest
    /// benefit/cost, where benefit = Σ over neighbours q\[class(n)\]\[class(m)\] / |class(n)|:
    /// the share of its class that its neighbours can block, the generalisation of "degree".
    fn spill_choice(
        &self,
        adjacency: &Adjacency,
        uncoloured: NodeId,
        still_stacked: &[u32],
    ) -> AllocError {
        let set = &*self.set;
        let mut stacked = vec![false; self.num_nodes()];
        for &n in still_stacked {
            stacked[n as usize] = true;
        }
        let q_total = self.q_totals(adjacency);
        let mut best: Option<(usize, f32)> = None;
        for n in 0..self.num_nodes() {
            let cost = self.cost[n];
            // NaN and non-positive costs mark nodes that must not be spilled.
            let spillable = cost > 0.0;
            if !spillable || stacked[n] || self.fixed[n].is_some() {
                continue;
            }
            let benefit = q_total[n] as f32 / set.class_size(self.class[n]) as f32;
            let ratio = benefit / cost;
            if ratio > best.map_or(0.0, |(_, r)| r) {
                best = Some((n, ratio));
            }
        }
        match best {
            Some((n, benefit_per_cost)) => AllocError::Spill(SpillChoice {
                uncoloured,
                candidate: NodeId(n as u32),
                benefit_per_cost,
            }),
            None => AllocError::NoSpillCandidate { uncoloured },
        }
    }
}

/// Finds the remaining node with the lowest q total (ties: the highest index, as Mesa), the
/// way Mesa does: a cached minimum per block of 64 nodes. Q totals only fall, so a fall updates
/// a valid cache in O(1); a node leaving invalidates its block, which the next pick rescans.
/// A pick costs n/64 block visits plus the rescans, so even a graph where nearly every push is
/// optimistic stays near O(n²/64 + edges), with none of a priority queue's stale entries.
struct LowestQ {
    best: Vec<Option<(u64, u32)>>,
    stale: Vec<bool>,
}

impl LowestQ {
    const BLOCK: usize = 64;

    fn new(nodes: usize) -> LowestQ {
        let blocks = nodes.div_ceil(Self::BLOCK);
        LowestQ {
            best: vec![None; blocks],
            stale: vec![true; blocks],
        }
    }

    fn better(a: (u64, u32), b: Option<(u64, u32)>) -> bool {
        match b {
            None => true,
            Some(b) => a.0 < b.0 || (a.0 == b.0 && a.1 > b.1),
        }
    }

    fn lowered(&mut self, n: usize, q: u64) {
        let b = n / Self::BLOCK;
        if !self.stale[b] && Self::better((q, n as u32), self.best[b]) {
            self.best[b] = Some((q, n as u32));
        }
    }

    fn removed(&mut self, n: usize) {
        self.stale[n / Self::BLOCK] = true;
    }

    fn pick(&mut self, q_total: &[u64], removed: &[bool]) -> Option<usize> {
        let mut best = None;
        for b in 0..self.best.len() {
            if self.stale[b] {
                let nodes = b * Self::BLOCK..((b + 1) * Self::BLOCK).min(q_total.len());
                self.best[b] = nodes.filter(|&n| !removed[n]).fold(None, |acc, n| {
                    let cand = (q_total[n], n as u32);
                    if Self::better(cand, acc) {
                        Some(cand)
                    } else {
                        acc
                    }
                });
                self.stale[b] = false;
            }
            if let Some(cand) = self.best[b] {
                if Self::better(cand, best) {
                    best = Some(cand);
                }
            }
        }
        best.map(|(_, n)| n as usize)
    }
}

struct Simplified {
    /// Nodes in removal order.
    stack: Vec<u32>,
    /// Stack position of the first optimistic push (`usize::MAX` when there was none).
    optimistic_start: usize,
}
