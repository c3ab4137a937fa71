//! VGRF splitting, compaction and register renaming over the fragment-shader corpus: the
//! properties each pass must have on real programs, and what each finds to do
//! (`--nocapture` prints the figures).
//!
//! Each pass runs on the program as the optimizer receives it (translated and lowered, SIMD8
//! and SIMD16, ivb and bdw). The checks are independent of the passes' own code: operands stay
//! inside their registers, instruction lists keep their shape, compaction keeps the order of
//! the survivors and leaves none unnamed, and a second run of each pass finds nothing more.
//! That the rewritten programs compute the same values is tests/fs_corpus.rs's job (every
//! corpus shader on the simulator against the interpreter with all passes on).

mod common;

use std::time::{Duration, Instant};

use gpucc::intel::fs::ir::{File, Inst, Program, Reg, REG_SIZE};
use gpucc::intel::fs::opt::{self, compact, rename, split};
use gpucc::intel::fs::{pipeline, CompileError};
use gpucc::intel::DevInfo;

fn operands(inst: &Inst) -> impl Iterator<Item = &Reg> {
    std::iter::once(&inst.dst).chain(inst.src.iter())
}

/// Every VGRF operand starts inside its register.
fn operands_in_range(p: &Program) -> bool {
    p.insts.iter().flat_map(operands).all(|r| {
        r.file != File::Vgrf
            || p.vgrf_sizes
                .get(r.nr as usize)
                .is_some_and(|&s| r.offset / REG_SIZE < s)
    })
}

/// The same instructions but for the VGRF numbers and offsets of their operands.
fn same_shape(a: &Program, b: &Program) -> bool {
    let strip = |r: &Reg| Reg {
        nr: if r.file == File::Vgrf { 0 } else { r.nr },
        offset: if r.file == File::Vgrf {
            r.offset % REG_SIZE
        } else {
            r.offset
        },
        ..*r
    };
    a.insts.len() == b.insts.len()
        && a.insts.iter().zip(&b.insts).all(|(x, y)| {
            let mut x = x.clone();
            let mut y = y.clone();
            for r in std::iter::once(&mut x.dst).chain(x.src.iter_mut()) {
                *r = strip(r);
            }
            for r in std::iter::once(&mut y.dst).chain(y.src.iter_mut()) {
                *r = strip(r);
            }
            x == y
        })
}

fn referenced(p: &Program) -> Vec<bool> {
    let mut used = vec![false; p.vgrf_sizes.len()];
    for r in p.insts.iter().flat_map(operands) {
        if r.file == File::Vgrf {
            used[r.nr as usize] = true;
        }
    }
    used
}

#[derive(Default)]
struct Figures {
    programs: usize,
    vgrfs: usize,
    referenced: usize,
    programs_split: usize,
    vgrfs_split: usize,
    pieces_added: usize,
    programs_renamed: usize,
    defs_renamed: usize,
    after_opt_allocated: usize,
    after_opt_referenced: usize,
    t_split: Duration,
    t_compact: Duration,
    t_rename: Duration,
}

fn check(platform: &str) {
    let Some(dir) = common::shared_path(&format!("corpus/nir/{platform}")) else {
        return;
    };
    let dev = DevInfo::from_name(platform).unwrap();
    let mut fig = Figures::default();
    let last_lowering = pipeline::LOWERING.last().unwrap().name;
    for f in common::files_with_suffix(&dir, ".fs.nir") {
        let text = std::fs::read_to_string(&f).unwrap();
        let Ok(shader) = gpucc::nir::parse(&text) else {
            continue;
        };
        for width in [8u8, 16] {
            let prepared = match pipeline::prepare(dev, &shader, width, last_lowering) {
                Ok(prepared) => prepared,
                Err(CompileError::Internal(e)) => panic!("{}: {e}", f.display()),
                Err(_) => continue,
            };
            let p = prepared.prog;
            let at = format!("{} SIMD{width}", f.display());
            fig.programs += 1;
            fig.vgrfs += p.vgrf_sizes.len();
            let used = referenced(&p);
            fig.referenced += used.iter().filter(|&&u| u).count();

            // Splitting: same instructions, operands inside their (smaller) registers, the
            // registers only partitioned (none lost or gained), and nothing left to split.
            let mut s = p.clone();
            let t = Instant::now();
            let did_split = split::split_virtual_grfs(&mut s);
            fig.t_split += t.elapsed();
            assert!(same_shape(&p, &s), "{at}: splitting changed instructions");
            assert!(operands_in_range(&s), "{at}: operand outside its piece");
            let total = |q: &Program| q.vgrf_sizes.iter().sum::<u32>();
            assert_eq!(total(&p), total(&s), "{at}: registers lost or gained");
            if did_split {
                fig.programs_split += 1;
                fig.pieces_added += s.vgrf_sizes.len() - p.vgrf_sizes.len();
                fig.vgrfs_split += (0..p.vgrf_sizes.len())
                    .filter(|&v| s.vgrf_sizes[v] != p.vgrf_sizes[v])
                    .count();
            }
            let again = s.clone();
            assert!(!split::split_virtual_grfs(&mut s), "{at}: split twice");
            assert_eq!(s.insts, again.insts);

            // Compaction: every remaining VGRF named, the old numbers mapped in order.
            let mut c = s.clone();
            let t = Instant::now();
            compact::compact_virtual_grfs(&mut c);
            fig.t_compact += t.elapsed();
            assert!(same_shape(&s, &c), "{at}: compaction changed instructions");
            assert!(referenced(&c).iter().all(|&u| u), "{at}: unnamed VGRF kept");
            let mut map = vec![None; s.vgrf_sizes.len()];
            for (x, y) in s.insts.iter().zip(&c.insts) {
                for (a, b) in operands(x).zip(operands(y)) {
                    if a.file == File::Vgrf {
                        let m = map[a.nr as usize].get_or_insert(b.nr);
                        assert_eq!(*m, b.nr, "{at}: vgrf{} renumbered twice", a.nr);
                        assert_eq!(a.offset, b.offset);
                    }
                }
            }
            let order: Vec<u32> = map.iter().flatten().copied().collect();
            assert!(
                order.windows(2).all(|w| w[0] < w[1]),
                "{at}: compaction reordered registers"
            );
            for (v, m) in map.iter().enumerate() {
                if let Some(m) = m {
                    assert_eq!(s.vgrf_sizes[v], c.vgrf_sizes[*m as usize]);
                }
            }

            // Renaming: only register numbers change, every new register has the size of the
            // one it renames, and a second run finds nothing.
            let mut r = c.clone();
            let t = Instant::now();
            let renamed = rename::register_renaming(&mut r);
            fig.t_rename += t.elapsed();
            assert!(same_shape(&c, &r), "{at}: renaming changed instructions");
            assert!(operands_in_range(&r), "{at}: renamed operand out of range");
            if renamed {
                fig.programs_renamed += 1;
                fig.defs_renamed += r.vgrf_sizes.len() - c.vgrf_sizes.len();
            }
            let once = r.insts.clone();
            assert!(!rename::register_renaming(&mut r), "{at}: renamed twice");
            assert_eq!(r.insts, once);

            // The whole optimizer: what it hands to allocation names every register it has.
            let mut o = p.clone();
            opt::optimize(&mut o, opt::Level::Full);
            assert!(
                operands_in_range(&o),
                "{at}: optimized operand out of range"
            );
            let named = referenced(&o).iter().filter(|&&u| u).count();
            assert_eq!(
                named,
                o.vgrf_sizes.len(),
                "{at}: unnamed VGRFs reach allocation"
            );
            fig.after_opt_allocated += o.vgrf_sizes.len();
            fig.after_opt_referenced += named;
        }
    }
    println!(
        "{platform}: {} programs; {} VGRFs allocated, {} named when optimization starts",
        fig.programs, fig.vgrfs, fig.referenced
    );
    println!(
        "{platform}: split {} VGRFs in {} programs into {} more; renamed {} definitions in {} \
         programs",
        fig.vgrfs_split,
        fig.programs_split,
        fig.pieces_added,
        fig.defs_renamed,
        fig.programs_renamed
    );
    println!(
        "{platform}: after optimization {} VGRFs allocated, {} named",
        fig.after_opt_allocated, fig.after_opt_referenced
    );
    println!(
        "{platform}: time over the corpus: split {:.2?}, compact {:.2?}, rename {:.2?}",
        fig.t_split, fig.t_compact, fig.t_rename
    );
    let mut figs = common::expect::Figures::new(&format!("{platform}.fs.vgrfs"));
    figs.count("programs", fig.programs);
    figs.count("vgrfs", fig.vgrfs);
    figs.count("named", fig.referenced);
    figs.count("vgrfs_split", fig.vgrfs_split);
    figs.count("programs_split", fig.programs_split);
    figs.count("pieces_added", fig.pieces_added);
    figs.count("defs_renamed", fig.defs_renamed);
    figs.count("programs_renamed", fig.programs_renamed);
    figs.count("after_opt_allocated", fig.after_opt_allocated);
    figs.check();
}

#[test]
fn ivb_split_compact_rename_properties() {
    check("ivb");
}

#[test]
fn bdw_split_compact_rename_properties() {
    check("bdw");
}
