//! Structured control flow shared by the scalar and the vec4 backends (their IRs differ, the
//! IF/ELSE/ENDIF and DO/BREAK/CONTINUE/WHILE nesting does not): the jump targets the code
//! generators encode and the basic blocks liveness works on.

use crate::error::CompileError;
use crate::intel::eu;
use crate::intel::DevInfo;
use crate::util::bitset::{union_words, BitMatrix};

/// Per-device flow-control instructions, assembled once and patched with each jump's
/// distances by the code generators.
#[derive(Debug, Clone)]
pub struct FlowTemplates {
    pub(crate) if_: eu::Inst,
    pub(crate) else_: eu::Inst,
    pub(crate) endif: eu::Inst,
    pub(crate) while_: eu::Inst,
    pub(crate) break_: eu::Inst,
    pub(crate) cont: eu::Inst,
    /// Gen4–5 only: DO (an instruction there) and IFF (an IF without ELSE, which jumps past
    /// its ENDIF); their jump counts and pop counts are patched by the code generator.
    pub(crate) gen4: Option<Gen4Flow>,
}

/// The flow instructions only Gen4–5 have.
#[derive(Debug, Clone)]
pub struct Gen4Flow {
    pub(crate) do_: eu::Inst,
    pub(crate) iff: eu::Inst,
}

impl FlowTemplates {
    /// Assembles the templates for `devinfo` (Gen6+ syntax): align1 for the scalar backend, or
    /// align16 for the vec4 one, whose IF tests each vertex's x flag bit (Mesa's
    /// `(+f0.0.x) if`).
    pub fn new(devinfo: &DevInfo, align16: bool) -> Result<FlowTemplates, CompileError> {
        let (pred, mode) = if align16 {
            ("(+f0.0.x)", "align16")
        } else {
            ("(+f0.0)", "align1")
        };
        if devinfo.ver < 60 {
            return Self::gen4(devinfo, pred, mode);
        }
        // Gen6's IF and ELSE carry one jump count (JIP); Gen7 added UIP to them.
        let (if_uip, else_uip) = if devinfo.ver >= 70 {
            (" UIP: L2", " UIP: L2")
        } else {
            ("", "")
        };
        let text = format!(
            "{pred} if(8) JIP: L1{if_uip} {{ {mode} 1Q }};
L1:
else(8) JIP: L2{else_uip} {{ {mode} 1Q }};
L2:
endif(8) JIP: L3 {{ {mode} 1Q }};
L3:
L4:
break(8) JIP: L5 UIP: L5 {{ {mode} 1Q }};
cont(8) JIP: L5 UIP: L5 {{ {mode} 1Q }};
L5:
while(8) JIP: L4 {{ {mode} 1Q }};
"
        );
        let v = eu::assemble(devinfo, &text)
            .map_err(|e| CompileError::Internal(format!("{mode} flow templates: {e}")))?;
        let [if_, else_, endif, break_, cont, while_] = <[eu::Inst; 6]>::try_from(v)
            .map_err(|_| CompileError::Internal(format!("{mode} flow templates: wrong count")))?;
        Ok(FlowTemplates {
            if_,
            else_,
            endif,
            while_,
            break_,
            cont,
            gen4: None,
        })
    }

    /// The Gen4–5 templates: jump counts instead of JIP/UIP, pop counts, and IF, ELSE and
    /// ENDIF with a thread switch, as Mesa's `brw_IF`/`brw_ELSE`/`brw_ENDIF` set them before
    /// Gen6.
    fn gen4(devinfo: &DevInfo, pred: &str, mode: &str) -> Result<FlowTemplates, CompileError> {
        let text = format!(
            "{pred} if(8) Jump: 2 {{ {mode} switch }};
else(8) Jump: 2 Pop: 1 {{ {mode} switch }};
endif(8) Pop: 1 {{ {mode} switch }};
do(8) {{ {mode} }};
{pred} break(8) Jump: 3 Pop: 0 {{ {mode} }};
cont(8) Jump: 2 Pop: 0 {{ {mode} }};
while(8) Jump: -2 {{ {mode} }};
{pred} iff(8) Jump: 2 {{ {mode} switch }};
"
        );
        let v = eu::assemble(devinfo, &text)
            .map_err(|e| CompileError::Internal(format!("Gen4 {mode} flow templates: {e}")))?;
        let [if_, else_, endif, do_, break_, cont, while_, iff] = <[eu::Inst; 8]>::try_from(v)
            .map_err(|_| {
                CompileError::Internal(format!("Gen4 {mode} flow templates: wrong count"))
            })?;
        Ok(FlowTemplates {
            if_,
            else_,
            endif,
            while_,
            break_,
            cont,
            gen4: Some(Gen4Flow { do_, iff }),
        })
    }
}

/// The Gen4–5 jump of each flow instruction of `insts` (Mesa's `patch_IF_ELSE`,
/// `brw_patch_break_cont`, `brw_WHILE`): the instruction index it jumps to, counted from
/// the instruction itself, and its pop count. IF goes to its ELSE (an IF without ELSE is an
/// IFF, to after its ENDIF), ELSE to after its ENDIF, BREAK to after its loop's WHILE,
/// CONTINUE to the WHILE, WHILE to after its DO; BREAK and CONTINUE pop the IFs open inside
/// their loop, ELSE and ENDIF one. `None` for other instructions.
pub fn gen4_jumps<T: FlowInst>(insts: &[T]) -> Result<Vec<Option<(usize, u8)>>, CompileError> {
    let mut t = vec![None; insts.len()];
    // Open IFs (index, ELSE index) and loops (DO index, IF depth, pending BREAK/CONTs).
    let mut ifs: Vec<(usize, Option<usize>)> = Vec::new();
    let mut loops: Vec<(usize, u8, Vec<usize>)> = Vec::new();
    let bad = || CompileError::Internal("unbalanced control flow".into());
    for (ip, i) in insts.iter().enumerate() {
        match i.flow() {
            Some(Flow::If) => {
                ifs.push((ip, None));
                if let Some(l) = loops.last_mut() {
                    l.1 += 1;
                }
            }
            Some(Flow::Else) => ifs.last_mut().ok_or_else(bad)?.1 = Some(ip),
            Some(Flow::EndIf) => {
                let (i_ip, e_ip) = ifs.pop().ok_or_else(bad)?;
                match e_ip {
                    Some(e) => {
                        t[i_ip] = Some((e, 0));
                        t[e] = Some((ip + 1, 1));
                    }
                    None => t[i_ip] = Some((ip + 1, 0)),
                }
                t[ip] = Some((ip, 1));
                if let Some(l) = loops.last_mut() {
                    l.1 = l.1.checked_sub(1).ok_or_else(bad)?;
                }
            }
            Some(Flow::Do) => loops.push((ip, 0, Vec::new())),
            Some(Flow::Break | Flow::Continue) => {
                let l = loops.last_mut().ok_or_else(bad)?;
                t[ip] = Some((0, l.1));
                l.2.push(ip);
            }
            Some(Flow::While) => {
                let (d, _, jumps) = loops.pop().ok_or_else(bad)?;
                t[ip] = Some((d + 1, 0));
                for j in jumps {
                    let brk = matches!(insts[j].flow(), Some(Flow::Break));
                    let pop = t[j].map_or(0, |x| x.1);
                    t[j] = Some((if brk { ip + 1 } else { ip }, pop));
                }
            }
            None => {}
        }
    }
    if !ifs.is_empty() || !loops.is_empty() {
        return Err(bad());
    }
    Ok(t)
}

/// What both IRs tell about an instruction's place in the control flow.
pub trait FlowInst {
    /// The structured flow kind, `None` for anything else.
    fn flow(&self) -> Option<Flow>;
    /// Whether the instruction is predicated (a predicated WHILE may fall out of its loop).
    fn predicated(&self) -> bool;
}

/// A structured control-flow instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    If,
    Else,
    EndIf,
    Do,
    Break,
    Continue,
    While,
}

/// The structured-flow rules both IR validators check in one walk: IF/ELSE/ENDIF and
/// DO/WHILE nest, one ELSE per IF, BREAK and CONTINUE only inside a loop, nothing left open.
/// [`targets`] relies on them without checking each one by name.
#[derive(Debug, Default)]
pub struct Nesting {
    /// Open IFs (with whether their ELSE was seen) and DOs, innermost last.
    open: Vec<(Flow, bool)>,
}

impl Nesting {
    /// Takes the next instruction's flow kind; the error says which rule it breaks.
    pub fn step(&mut self, flow: Option<Flow>) -> Result<(), &'static str> {
        match flow {
            Some(f @ (Flow::If | Flow::Do)) => self.open.push((f, false)),
            Some(Flow::Else) => match self.open.last_mut() {
                Some((Flow::If, seen_else @ false)) => *seen_else = true,
                Some((Flow::If, true)) => return Err("a second ELSE for one IF"),
                _ => return Err("ELSE outside an IF"),
            },
            Some(Flow::EndIf) => match self.open.pop() {
                Some((Flow::If, _)) => {}
                _ => return Err("ENDIF without its IF"),
            },
            Some(Flow::While) => match self.open.pop() {
                Some((Flow::Do, _)) => {}
                _ => return Err("WHILE without its DO"),
            },
            Some(Flow::Break | Flow::Continue)
                if !self.open.iter().any(|(f, _)| *f == Flow::Do) =>
            {
                return Err("BREAK or CONTINUE outside a loop");
            }
            Some(Flow::Break | Flow::Continue) | None => {}
        }
        Ok(())
    }

    /// After the last instruction: the innermost block left open, if any.
    pub fn finish(&self) -> Result<(), String> {
        match self.open.last() {
            Some((f, _)) => Err(format!("{f:?} never closed")),
            None => Ok(()),
        }
    }
}

/// (JIP target, UIP target) as instruction indices for each flow instruction of `insts`, whose
/// kind `flow` tells: IF to after its ELSE (or its ENDIF) and its ENDIF, ELSE to its ENDIF,
/// WHILE to after its DO, BREAK and CONTINUE to the end of their innermost block (the next
/// ELSE, ENDIF or WHILE at their nesting level) and to the loop's WHILE.
pub fn targets<T: FlowInst>(insts: &[T]) -> Result<Vec<(usize, usize)>, CompileError> {
    let mut t = vec![(0usize, 0usize); insts.len()];
    let mut ifs: Vec<(usize, Option<usize>)> = Vec::new();
    let mut loops: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut pending: Vec<Vec<usize>> = vec![Vec::new()];
    let bad = || CompileError::Internal("unbalanced control flow".into());
    for (ip, i) in insts.iter().enumerate() {
        match i.flow() {
            Some(Flow::If) => {
                ifs.push((ip, None));
                pending.push(Vec::new());
            }
            Some(Flow::Else) => {
                let top = ifs.last_mut().ok_or_else(bad)?;
                top.1 = Some(ip);
                for j in pending.last_mut().ok_or_else(bad)?.drain(..) {
                    t[j].0 = ip;
                }
            }
            Some(Flow::EndIf) => {
                let (i_ip, e_ip) = ifs.pop().ok_or_else(bad)?;
                t[i_ip] = (e_ip.map_or(ip, |e| e + 1), ip);
                if let Some(e) = e_ip {
                    t[e] = (ip, ip);
                }
                for j in pending.pop().ok_or_else(bad)? {
                    t[j].0 = ip;
                }
            }
            Some(Flow::Do) => {
                loops.push((ip, Vec::new()));
                pending.push(Vec::new());
            }
            Some(Flow::Break | Flow::Continue) => {
                loops.last_mut().ok_or_else(bad)?.1.push(ip);
                pending.last_mut().ok_or_else(bad)?.push(ip);
            }
            Some(Flow::While) => {
                let (d, jumps) = loops.pop().ok_or_else(bad)?;
                t[ip] = (d + 1, d + 1);
                for j in pending.pop().ok_or_else(bad)? {
                    t[j].0 = ip;
                }
                for j in jumps {
                    t[j].1 = ip;
                }
            }
            None => {}
        }
    }
    if !ifs.is_empty() || !loops.is_empty() {
        return Err(bad());
    }
    Ok(t)
}

/// A basic block: instructions `start..end`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// First instruction.
    pub start: usize,
    /// One past the last instruction.
    pub end: usize,
    /// Successor blocks.
    pub succs: Vec<usize>,
}

/// [`build_cfg`] plus the edge SIMD execution adds to the scalar paths: the channels that
/// took the then-branch of a divergent IF wait at the ELSE while the others run the
/// else-branch, so what the then-branch leaves in the registers flows into the else-branch
/// too. A check of register contents (rather than of liveness) needs these paths.
pub fn build_simd_cfg<T: FlowInst>(insts: &[T]) -> Vec<Block> {
    let mut blocks = build_cfg(insts);
    let block_of = |blocks: &[Block], ip: usize| blocks.partition_point(|b| b.start <= ip) - 1;
    for (ip, i) in insts.iter().enumerate() {
        if i.flow() == Some(Flow::Else) && ip + 1 < insts.len() {
            let (from, to) = (block_of(&blocks, ip), block_of(&blocks, ip + 1));
            if !blocks[from].succs.contains(&to) {
                blocks[from].succs.push(to);
            }
        }
    }
    blocks
}

/// The SIMD paths of [`build_simd_cfg`] as the final-code value check walks them
/// ([`crate::ra::values`]): control leaves the program at the end of the last block.
pub fn value_check_blocks<T: FlowInst>(insts: &[T]) -> Vec<crate::ra::values::Block> {
    let blocks = build_simd_cfg(insts);
    let last = blocks.len().saturating_sub(1);
    blocks
        .into_iter()
        .enumerate()
        .map(|(b, blk)| crate::ra::values::Block {
            insts: blk.start..blk.end,
            succs: blk.succs,
            exits: b == last,
        })
        .collect()
}

/// Splits the program into blocks and links them as the SIMD control flow can go.
pub fn build_cfg<T: FlowInst>(insts: &[T]) -> Vec<Block> {
    let mut starts = vec![0usize];
    for (ip, i) in insts.iter().enumerate() {
        match i.flow() {
            Some(Flow::Do | Flow::EndIf) if *starts.last().unwrap() != ip => starts.push(ip),
            Some(Flow::If | Flow::Else | Flow::While | Flow::Break | Flow::Continue)
                if ip + 1 < insts.len() =>
            {
                starts.push(ip + 1)
            }
            _ => {}
        }
    }
    starts.dedup();
    let block_of = |ip: usize| starts.partition_point(|&s| s <= ip) - 1;
    let n = starts.len();
    let mut blocks: Vec<Block> = (0..n)
        .map(|b| Block {
            start: starts[b],
            end: if b + 1 < n {
                starts[b + 1]
            } else {
                insts.len()
            },
            succs: Vec::new(),
        })
        .collect();
    // Matching structure.
    let mut if_stack: Vec<(usize, Option<usize>)> = Vec::new();
    let mut loop_stack: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut if_pairs = Vec::new();
    let mut loops = Vec::new();
    for (ip, i) in insts.iter().enumerate() {
        match i.flow() {
            Some(Flow::If) => if_stack.push((ip, None)),
            Some(Flow::Else) => {
                if let Some(top) = if_stack.last_mut() {
                    top.1 = Some(ip);
                }
            }
            Some(Flow::EndIf) => {
                if let Some((i_ip, e_ip)) = if_stack.pop() {
                    if_pairs.push((i_ip, e_ip, ip));
                }
            }
            Some(Flow::Do) => loop_stack.push((ip, Vec::new())),
            Some(Flow::Break | Flow::Continue) => {
                if let Some(top) = loop_stack.last_mut() {
                    top.1.push(ip);
                }
            }
            Some(Flow::While) => {
                if let Some((d, jumps)) = loop_stack.pop() {
                    loops.push((d, ip, jumps));
                }
            }
            _ => {}
        }
    }
    for (b, blk) in blocks.iter_mut().enumerate() {
        if blk.end > blk.start {
            let last = blk.end - 1;
            // ELSE jumps over the else branch; an unpredicated WHILE always goes back to the
            // DO (NIR loops leave through BREAK only).
            let no_fallthrough = match insts[last].flow() {
                Some(Flow::Else) => true,
                Some(Flow::While) => !insts[last].predicated(),
                _ => false,
            };
            if !no_fallthrough && b + 1 < n {
                blk.succs.push(b + 1);
            }
        } else if b + 1 < n {
            blk.succs.push(b + 1);
        }
    }
    for (i_ip, e_ip, end_ip) in if_pairs {
        let target = e_ip.map_or(end_ip, |e| e + 1);
        blocks[block_of(i_ip)].succs.push(block_of(target));
        if let Some(e) = e_ip {
            blocks[block_of(e)].succs.push(block_of(end_ip));
        }
    }
    for (d, w, jumps) in loops {
        blocks[block_of(w)].succs.push(block_of(d));
        for j in jumps {
            let target = if insts[j].flow() == Some(Flow::Break) {
                w + 1
            } else {
                w
            };
            if target < insts.len() {
                blocks[block_of(j)].succs.push(block_of(target));
            }
        }
    }
    for b in &mut blocks {
        b.succs.sort_unstable();
        b.succs.dedup();
    }
    blocks
}

/// Live-in and live-out sets per block (one matrix row each) from each block's
/// upward-exposed uses and its definitions: live-in = use ∪ (live-out − def), solved
/// backwards to the least fixed point. Live-out only grows, so a step ORs the successors'
/// live-in into it and recomputes live-in when it changed (or on the first visit); no set is
/// allocated inside the loop.
pub fn solve_liveness(
    blocks: &[Block],
    use_: &BitMatrix,
    def: &BitMatrix,
) -> (BitMatrix, BitMatrix) {
    let n = use_.len();
    let mut livein = BitMatrix::new(blocks.len(), n);
    let mut liveout = BitMatrix::new(blocks.len(), n);
    let mut changed = true;
    let mut first = true;
    while changed {
        changed = false;
        for b in (0..blocks.len()).rev() {
            let mut grew = first;
            for &s in &blocks[b].succs {
                grew |= union_words(liveout.row_mut(b), livein.row(s));
            }
            if grew {
                let out = liveout.row(b);
                for (((i, o), d), u) in livein
                    .row_mut(b)
                    .iter_mut()
                    .zip(out)
                    .zip(def.row(b))
                    .zip(use_.row(b))
                {
                    *i = (o & !d) | u;
                }
                changed = true;
            }
        }
        first = false;
    }
    (livein, liveout)
}

/// Implements [`FlowInst`] for an IR whose `Inst` has an `op` with the seven structured flow
/// variants and a `pred: Option<_>`.
macro_rules! impl_flow_inst {
    ($inst:ty, $op:ident) => {
        impl $crate::intel::flow::FlowInst for $inst {
            fn flow(&self) -> Option<$crate::intel::flow::Flow> {
                use $crate::intel::flow::Flow;
                Some(match self.op {
                    $op::If => Flow::If,
                    $op::Else => Flow::Else,
                    $op::EndIf => Flow::EndIf,
                    $op::Do => Flow::Do,
                    $op::Break => Flow::Break,
                    $op::Continue => Flow::Continue,
                    $op::While => Flow::While,
                    _ => return None,
                })
            }

            fn predicated(&self) -> bool {
                self.pred.is_some()
            }
        }
    };
}
pub(crate) use impl_flow_inst;

#[cfg(test)]
mod gen4_tests {
    use super::*;

    struct F(Option<Flow>);
    impl FlowInst for F {
        fn flow(&self) -> Option<Flow> {
            self.0
        }
        fn predicated(&self) -> bool {
            false
        }
    }

    #[test]
    fn gen4_jumps_follow_mesas_counts() {
        // Mesa's g4x loop (glsl-vs-loop-300): `do`, `cmp`, `(+f0.0.x) break Jump: 4 Pop: 0`,
        // `add`, `add`, `while Jump: -4`; inside it an IF/ELSE/ENDIF whose BREAK pops one
        // IF, and an IF without ELSE (an IFF) after the loop.
        use Flow::*;
        let code = [
            Some(Do),       // 0
            None,           // 1
            Some(Break),    // 2
            None,           // 3
            Some(If),       // 4
            Some(Break),    // 5
            Some(Else),     // 6
            Some(Continue), // 7
            Some(EndIf),    // 8
            Some(While),    // 9
            Some(If),       // 10
            None,           // 11
            Some(EndIf),    // 12
        ];
        let insts: Vec<F> = code.into_iter().map(F).collect();
        let j = gen4_jumps(&insts).unwrap();
        assert_eq!(j[2], Some((10, 0)), "BREAK past the WHILE");
        assert_eq!(j[9], Some((1, 0)), "WHILE to after the DO");
        assert_eq!(j[4], Some((6, 0)), "IF to its ELSE");
        assert_eq!(j[5], Some((10, 1)), "BREAK pops the IF it is in");
        assert_eq!(j[6], Some((9, 1)), "ELSE past the ENDIF");
        assert_eq!(j[7], Some((9, 1)), "CONTINUE to the WHILE");
        assert_eq!(j[8], Some((8, 1)), "ENDIF pops, no jump");
        assert_eq!(j[10], Some((13, 0)), "IFF past its ENDIF");
        assert_eq!(j[1], None);
    }
}
