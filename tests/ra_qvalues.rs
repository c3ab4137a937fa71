//! q-values of real register sets, against tables derived by hand from the register layouts.

use gpucc::ra::{ClassId, RegId, RegSet, RegSetBuilder, RegSetError};
use gpucc::util::rng::Rng;
use std::sync::Arc;

/// etnaviv's 15 virtual register types per vec4 temporary, in the seed patch's order, as
/// write masks (bit 0 = x … bit 3 = w).
const VEC4: u8 = 0xf;
const VEC3: [u8; 4] = [0x7, 0xb, 0xd, 0xe]; // xyz xyw xzw yzw
const VEC2: [u8; 6] = [0x3, 0x5, 0x9, 0x6, 0xa, 0xc]; // xy xz xw yz yw zw
const SCALAR: [u8; 4] = [0x1, 0x2, 0x4, 0x8]; // x y z w
const TEMPS: usize = 64;

fn etna_masks() -> Vec<u8> {
    let mut m = vec![VEC4];
    m.extend(VEC3);
    m.extend(VEC2);
    m.extend(SCALAR);
    m
}

/// The registers of temporary `base` whose mask is in `masks`.
fn etna_regs(masks: &[u8], base: usize, wanted: &[u8]) -> Vec<RegId> {
    let types = masks.len();
    (0..types)
        .filter(|&t| wanted.contains(&masks[t]))
        .map(|t| RegId((base * types + t) as u32))
        .collect()
}

/// The virtual register file as the seed builds it: one register per (temporary, type),
/// conflicting with the other types of the same temporary whose write masks overlap.
fn etna_builder() -> RegSetBuilder {
    let masks = etna_masks();
    let types = masks.len();
    let mut b = RegSetBuilder::new(TEMPS * types);
    for base in 0..TEMPS {
        for i in 0..types {
            for j in 0..i {
                if masks[i] & masks[j] != 0 {
                    b.add_conflict(
                        RegId((base * types + i) as u32),
                        RegId((base * types + j) as u32),
                    );
                }
            }
        }
    }
    b
}

fn etna_class(b: &mut RegSetBuilder, wanted: &[u8]) -> ClassId {
    let masks = etna_masks();
    b.add_class((0..TEMPS).flat_map(|base| etna_regs(&masks, base, wanted)))
}

#[test]
fn etnaviv_four_classes_exact_table() {
    let mut b = etna_builder();
    let classes = [
        etna_class(&mut b, &[VEC4]),
        etna_class(&mut b, &VEC3),
        etna_class(&mut b, &VEC2),
        etna_class(&mut b, &SCALAR),
    ];
    let set = b.finalize().unwrap();
    assert_eq!(classes.map(|c| set.class_size(c)), [64, 256, 384, 256]);
    let expected = vec![
        vec![1, 1, 1, 1],
        vec![4, 4, 4, 3],
        vec![6, 6, 5, 3],
        vec![4, 3, 2, 1],
    ];
    assert_eq!(set.q_table(), expected);
}

/// The seed patch hard-codes {0,4,6,4},{1,3,6,3},{1,4,4,2},{1,3,3,0}. Mesa's q\[B\]\[C\] counts
/// the class-B registers that *one class-C register* blocks, and a register always blocks
/// itself. The seed's table is the transpose of that (it counts, for one class-B register,
/// the class-C registers it conflicts with) and leaves out the register itself on the
/// diagonal. For equal-sized, symmetric classes the transpose would not matter, but here it
/// does: the seed says a VEC4 neighbour costs a SCALAR node 1 register, while a VEC4 register
/// covers x, y, z and w and so blocks all 4 scalars of its temporary. With 4 scalars per
/// temporary a SCALAR node next to one VEC4 node in a one-temporary file would be called
/// trivially colourable (1 < 4) and then find no register at all.
#[test]
fn seed_table_is_the_transpose_without_self_conflicts() {
    let seed = [[0, 4, 6, 4], [1, 3, 6, 3], [1, 4, 4, 2], [1, 3, 3, 0]];
    let mut b = etna_builder();
    for wanted in [&[VEC4][..], &VEC3, &VEC2, &SCALAR] {
        etna_class(&mut b, wanted);
    }
    let q = b.finalize().unwrap().q_table();
    for (i, seed_row) in seed.iter().enumerate() {
        for (j, &s) in seed_row.iter().enumerate() {
            let self_conflict = u32::from(i == j);
            assert_eq!(q[j][i] - self_conflict, s, "seed[{i}][{j}]");
        }
    }
    let (vec4, scalar) = (0, 3);
    assert_eq!(q[scalar][vec4], 4);
    assert_eq!(seed[scalar][vec4], 1);
}

/// The seed's table still works as a precomputed table (the allocator stays correct, since
/// select checks every conflict), and it is reported back unchanged.
#[test]
fn precomputed_seed_table_is_used_verbatim() {
    let seed = [[0u32, 4, 6, 4], [1, 3, 6, 3], [1, 4, 4, 2], [1, 3, 3, 0]];
    let mut b = etna_builder();
    for wanted in [&[VEC4][..], &VEC3, &VEC2, &SCALAR] {
        etna_class(&mut b, wanted);
    }
    let set = b.finalize_with_q(&seed).unwrap();
    assert_eq!(set.q_table(), seed.map(|r| r.to_vec()).to_vec());
}

#[test]
fn etnaviv_seven_classes_exact_table() {
    let mut b = etna_builder();
    etna_class(&mut b, &SCALAR);
    etna_class(&mut b, &VEC2);
    etna_class(&mut b, &VEC3);
    etna_class(&mut b, &[VEC4]);
    etna_class(&mut b, &[0x3, 0xc]); // VEC2T: xy, zw
    etna_class(&mut b, &[0x3, 0x6, 0xc]); // VEC2C: xy, yz, zw
    etna_class(&mut b, &[0x7, 0xe]); // VEC3C: xyz, yzw
    let set = b.finalize().unwrap();
    let expected = vec![
        vec![1, 2, 3, 4, 2, 2, 3],
        vec![3, 5, 6, 6, 5, 5, 6],
        vec![3, 4, 4, 4, 4, 4, 4],
        vec![1, 1, 1, 1, 1, 1, 1],
        vec![1, 2, 2, 2, 1, 2, 2],
        vec![2, 3, 3, 3, 2, 3, 3],
        vec![2, 2, 2, 2, 2, 2, 2],
    ];
    assert_eq!(set.q_table(), expected);
}

/// The etnaviv conflict relation is "write masks overlap on the same temporary", nothing more.
#[test]
fn etnaviv_conflicts_are_mask_overlaps() {
    let mut b = etna_builder();
    etna_class(&mut b, &SCALAR);
    let set = b.finalize().unwrap();
    let masks = etna_masks();
    let types = masks.len();
    for a in 0..2 * types {
        for c in 0..set.num_regs() {
            let same_temp = a / types == c / types;
            let overlap = masks[a % types] & masks[c % types] != 0;
            assert_eq!(
                set.conflicts(RegId(a as u32), RegId(c as u32)),
                same_temp && overlap,
                "r{a} r{c}"
            );
        }
    }
}

fn intel_gen7() -> (Arc<RegSet>, Vec<ClassId>) {
    let mut b = RegSetBuilder::new(128);
    let classes: Vec<ClassId> = (1..=16).map(|k| b.add_contiguous_class(k, 1)).collect();
    (b.finalize().unwrap(), classes)
}

/// Runs of a and c units over 128 GRFs, any start: a c-run at unit s blocks the a-runs starting
/// at s-a+1 ..= s+c-1, which is a+c-1 runs whenever that window fits in the file.
#[test]
fn intel_gen7_contiguous_classes() {
    let (set, classes) = intel_gen7();
    assert_eq!(set.num_regs(), (1..=16).map(|k| 129 - k).sum::<usize>());
    for (i, &b) in classes.iter().enumerate() {
        assert_eq!(set.class_size(b) as usize, 128 - i);
        for (j, &c) in classes.iter().enumerate() {
            assert_eq!(
                set.q(b, c) as usize,
                (i + 1) + (j + 1) - 1,
                "q[{}][{}]",
                i + 1,
                j + 1
            );
        }
    }
    // Conflicts are exactly overlapping unit ranges.
    for a in 0..set.num_regs() {
        let ra = set.units_of(RegId(a as u32));
        for c in 0..set.num_regs() {
            let rc = set.units_of(RegId(c as u32));
            let overlap = ra.start < rc.end && rc.start < ra.end;
            assert_eq!(set.conflicts(RegId(a as u32), RegId(c as u32)), overlap);
        }
    }
}

/// Mesa's older Intel sets named every big register and added its conflicts by hand. The same
/// file built that way, from explicit conflicts only, must give the same q-values.
#[test]
fn intel_explicit_conflicts_agree_with_runs() {
    let (runs_set, _) = intel_gen7();
    let regs: Vec<(usize, usize)> = (1..=16)
        .flat_map(|k| (0..=128 - k).map(move |s| (s, k)))
        .collect();
    let mut b = RegSetBuilder::new(regs.len());
    for (i, &(s1, k1)) in regs.iter().enumerate() {
        for (j, &(s2, k2)) in regs.iter().enumerate().take(i) {
            if s1 < s2 + k2 && s2 < s1 + k1 {
                b.add_conflict(RegId(i as u32), RegId(j as u32));
            }
        }
    }
    let mut first = 0;
    for k in 1..=16 {
        let n = 129 - k;
        b.add_class((first..first + n).map(|r| RegId(r as u32)));
        first += n;
    }
    let explicit_set = b.finalize().unwrap();
    assert_eq!(explicit_set.q_table(), runs_set.q_table());
}

/// Gen4–6 style aligned pairs next to single registers and unaligned pairs, 8 units.
#[test]
fn aligned_classes_hand_derived() {
    let mut b = RegSetBuilder::new(8);
    let single = b.add_contiguous_class(1, 1);
    let pair = b.add_contiguous_class(2, 1);
    let aligned = b.add_contiguous_class(2, 2);
    let quad = b.add_contiguous_class(4, 4);
    let set = b.finalize().unwrap();
    assert_eq!(set.class_size(aligned), 4);
    assert_eq!(set.class_size(quad), 2);
    // Aligned pairs share registers with unaligned pairs: 4 + 3 odd-start pairs.
    assert_eq!(set.num_regs(), 8 + 7 + 2);
    let q = |b, c| set.q(b, c);
    assert_eq!(q(aligned, single), 1); // a single unit lies in one aligned pair
    assert_eq!(q(aligned, pair), 2); // units 1-2 touch pairs 0-1 and 2-3
    assert_eq!(q(aligned, aligned), 1);
    assert_eq!(q(single, aligned), 2);
    assert_eq!(q(pair, aligned), 3); // units 2-3: the pairs at 1, 2 (the same run) and 3
    assert_eq!(q(quad, pair), 2); // units 3-4 straddle both quads
    assert_eq!(q(quad, aligned), 1);
    assert_eq!(q(aligned, quad), 2);
    assert_eq!(q(single, quad), 4);
    // Not 2 + 4 - 1 = 5: the file ends at both sides of each quad's window (starts -1, 7).
    assert_eq!(q(pair, quad), 4);
}

/// The conflict rule, restated independently: parts(r) = {r} ∪ units(r); two registers
/// conflict when some part of one equals or was named with some part of the other.
fn reference_conflicts(
    n_units: usize,
    runs: &[(usize, usize)],
    named: &[(usize, usize)],
) -> Vec<Vec<bool>> {
    let n = runs.len();
    let parts = |r: usize| -> Vec<usize> {
        let (s, k) = runs[r];
        let mut p: Vec<usize> = (s..s + k).collect();
        if r >= n_units {
            p.push(r);
        }
        p
    };
    let linked = |x: usize, y: usize| x == y || named.contains(&(x, y)) || named.contains(&(y, x));
    (0..n)
        .map(|a| {
            (0..n)
                .map(|c| {
                    parts(a)
                        .iter()
                        .any(|&x| parts(c).iter().any(|&y| linked(x, y)))
                })
                .collect()
        })
        .collect()
}

/// Random small sets: finalize's conflicts and q-values against the definitions, brute force.
#[test]
fn random_sets_match_brute_force_definitions() {
    let mut rng = Rng::new(0x5eed_0001);
    for case in 0..400 {
        let n_units = rng.range(1, 12) as usize;
        let mut b = RegSetBuilder::new(n_units);
        let mut runs: Vec<(usize, usize)> = (0..n_units).map(|u| (u, 1)).collect();
        for _ in 0..rng.below(6) {
            let k = rng.range(1, n_units as i64) as usize;
            let s = rng.below((n_units - k + 1) as u64) as usize;
            let r = b.add_run(s, k).unwrap().index();
            if r == runs.len() {
                runs.push((s, k));
            }
            assert_eq!(
                runs[r],
                (s, k),
                "case {case}: add_run returns the existing run"
            );
        }
        let n = runs.len();
        let mut named = Vec::new();
        for _ in 0..rng.below(5) {
            let (x, y) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            b.add_conflict(RegId(x as u32), RegId(y as u32));
            named.push((x, y));
        }
        let mut classes = Vec::new();
        for _ in 0..rng.range(1, 4) {
            let mut regs: Vec<usize> = (0..n).filter(|_| rng.bool()).collect();
            if regs.is_empty() {
                regs.push(rng.below(n as u64) as usize);
            }
            b.add_class(regs.iter().map(|&r| RegId(r as u32)));
            classes.push(regs);
        }
        if rng.bool() {
            let k = rng.range(1, n_units as i64) as usize;
            let align = rng.range(1, 3) as usize;
            let id = b.add_contiguous_class(k, align).index();
            assert_eq!(id, classes.len());
            // The class reuses existing runs and appends the missing ones in start order.
            let mut regs = Vec::new();
            for s in (0..=n_units - k).step_by(align) {
                let r = runs.iter().position(|&x| x == (s, k)).unwrap_or_else(|| {
                    runs.push((s, k));
                    runs.len() - 1
                });
                regs.push(r);
            }
            classes.push(regs);
        }
        let set = b.finalize().unwrap();
        let n = runs.len();
        assert_eq!(set.num_regs(), n, "case {case}");
        let conflicts = reference_conflicts(n_units, &runs, &named);
        for (a, row) in conflicts.iter().enumerate() {
            for (c, &want) in row.iter().enumerate() {
                assert_eq!(
                    set.conflicts(RegId(a as u32), RegId(c as u32)),
                    want,
                    "case {case}: r{a} r{c}"
                );
            }
        }
        for (bi, breg) in classes.iter().enumerate() {
            for (ci, creg) in classes.iter().enumerate() {
                let want = creg
                    .iter()
                    .map(|&rc| breg.iter().filter(|&&rb| conflicts[rc][rb]).count())
                    .max()
                    .unwrap();
                assert_eq!(
                    set.q(ClassId(bi as u32), ClassId(ci as u32)) as usize,
                    want,
                    "case {case}: q[{bi}][{ci}]"
                );
            }
        }
    }
}

#[test]
fn builder_errors_name_the_problem() {
    let mut b = RegSetBuilder::new(4);
    assert_eq!(
        b.add_run(3, 2),
        Err(RegSetError::RunOutOfRange {
            start: 3,
            len: 2,
            units: 4
        })
    );
    assert!(b.add_run(0, 0).is_err());
    b.add_contiguous_class(5, 1);
    assert_eq!(
        b.finalize().unwrap_err(),
        RegSetError::EmptyClass(ClassId(0))
    );

    let mut b = RegSetBuilder::new(4);
    b.add_class([RegId(9)]);
    let e = b.finalize().unwrap_err();
    assert!(
        matches!(e, RegSetError::UnknownRegister { reg: RegId(9), .. }),
        "{e}"
    );
    assert!(e.to_string().contains("class 0"), "{e}");

    let mut b = RegSetBuilder::new(4);
    b.add_contiguous_class(1, 0);
    assert!(matches!(
        b.finalize(),
        Err(RegSetError::BadContiguousClass { align: 0, .. })
    ));

    let mut b = RegSetBuilder::new(4);
    b.add_conflict(RegId(0), RegId(7));
    assert!(matches!(
        b.finalize(),
        Err(RegSetError::UnknownRegister { reg: RegId(7), .. })
    ));

    let mut b = RegSetBuilder::new(4);
    b.add_contiguous_class(1, 1);
    b.add_contiguous_class(2, 1);
    let e = b.clone().finalize_with_q(&[vec![1u32, 2]]).unwrap_err();
    assert_eq!(
        e,
        RegSetError::QTableShape {
            classes: 2,
            row: None,
            len: 1
        }
    );
    let e = b.finalize_with_q(&[vec![1u32, 2], vec![1]]).unwrap_err();
    assert_eq!(
        e,
        RegSetError::QTableShape {
            classes: 2,
            row: Some(1),
            len: 1
        }
    );
}
