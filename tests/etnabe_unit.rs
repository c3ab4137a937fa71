//! Unit-level tests of the etnaviv backend: virtual register classes, re-swizzling per
//! virtual type (against the two tables of shared/seeds/001), the fragment position
//! reservation, the one-const rule, and the register set shared between compiles.

mod common;

use std::sync::Arc;

use gpucc::etnaviv::compiler::alloc::{class_of, Allocation};
use gpucc::etnaviv::compiler::consts::Uniforms;
use gpucc::etnaviv::compiler::emit::emit;
use gpucc::etnaviv::compiler::ir::*;
use gpucc::etnaviv::compiler::regs::{Class, VirtReg, NUM_TYPES, TYPE_MASK};
use gpucc::etnaviv::compiler::{verify, CompileError, Context, Options, VerifyOutcome};
use gpucc::etnaviv::isa::{Opcode, RegGroup, SrcKind};
use gpucc::etnaviv::specs::Specs;

fn ctx(name: &str) -> Context {
    Context::new(Specs::from_name(name).expect("known core"))
}

/// A fragment shader writing `body`'s last value (`%out`) to gl_FragColor.
fn fs(uniforms: u32, decls: &str, body: &str) -> gpucc::nir::Shader {
    let text = format!(
        "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 1\noutputs: 1\nuniforms: {uniforms}\n\
         {decls}decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
         decl_function main (0 params)\n\nimpl main {{\n    block b0:  // preds: \n{body}\
         \x20   32    %99 = deref_var &gl_FragColor (shader_out vec4)\n\
         \x20               @store_deref (%99, %98) (wrmask=xyzw, access=none)\n\
         \x20               // succs: b1 \n    block b1:\n}}\n"
    );
    gpucc::nir::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

// ---- virtual-class selection ----

#[test]
fn classes_follow_width_and_fixed_layouts() {
    let v = |width, kind| Value { width, kind };
    assert_eq!(class_of(&v(1, ValueKind::Temp)), Class::Scalar);
    assert_eq!(class_of(&v(2, ValueKind::Temp)), Class::Vec2);
    assert_eq!(class_of(&v(3, ValueKind::Temp)), Class::Vec3);
    assert_eq!(class_of(&v(4, ValueKind::Temp)), Class::Vec4);
    // Inputs and outputs are whole registers whatever their width; two-part transcendental
    // results need a contiguous pair.
    assert_eq!(class_of(&v(2, ValueKind::Input { reg: 1 })), Class::Vec4);
    assert_eq!(class_of(&v(1, ValueKind::Output)), Class::Vec4);
    assert_eq!(class_of(&v(2, ValueKind::Pair)), Class::Pair);
}

#[test]
fn four_live_scalars_share_one_register() {
    // a, b, c, d are all live at the final fadd chain's start: as scalars they fit in the
    // four components of one temporary, next to t0 (position) and the vec4 output.
    let s = fs(
        1,
        "decl_var uniform INTERP_MODE_NONE none vec4 u (0, 0, 0)\n",
        "    32    %0 = load_const (0x00000000)\n\
         \x20   32x4  %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
         \x20   32    %2 = frcp %1.x\n\
         \x20   32    %3 = frsq %1.y\n\
         \x20   32    %4 = fexp2 %1.z\n\
         \x20   32    %5 = frcp %1.w\n\
         \x20   32x4  %98 = vec4 %2, %3, %4, %5\n",
    );
    let c = ctx("gc2000");
    let obj = c.compile(&s, &Options::default()).unwrap();
    // Four scalars live at once would take four registers as vec4s (five with t0); as
    // scalars they pack into the components of shared registers: at most t0, one register
    // of scalars and the output.
    assert!(obj.num_temps <= 3, "{}", obj.asm_text());
    let scalar_ops: Vec<_> = obj
        .insts
        .iter()
        .filter(|i| matches!(i.opcode, Opcode::Rcp | Opcode::Rsq | Opcode::Exp))
        .collect();
    assert_eq!(scalar_ops.len(), 4);
    let shared = scalar_ops
        .iter()
        .any(|a| scalar_ops.iter().filter(|b| b.dst.reg == a.dst.reg).count() >= 2);
    assert!(shared, "{}", obj.asm_text());
    for i in &scalar_ops {
        assert_eq!(i.dst.mask.count_ones(), 1);
    }
    assert_eq!(verify(&c, &s, 2), VerifyOutcome::Pass);
}

// ---- re-swizzling, one test per virtual type ----

/// The seed's table of how a use reads value component k of each type (rows in type order).
const USE_TABLE: [[u8; 4]; NUM_TYPES] = [
    [0, 1, 2, 3],
    [0, 1, 2, 2],
    [0, 1, 3, 3],
    [0, 2, 3, 3],
    [1, 2, 3, 3],
    [0, 1, 1, 1],
    [0, 2, 2, 2],
    [0, 3, 3, 3],
    [1, 2, 2, 2],
    [1, 3, 3, 3],
    [2, 3, 3, 3],
    [0, 0, 0, 0],
    [1, 1, 1, 1],
    [2, 2, 2, 2],
    [3, 3, 3, 3],
];

/// The seed's table of which source channel feeds each physical channel of a definition.
const DEF_TABLE: [[u8; 4]; NUM_TYPES] = [
    [0, 1, 2, 3],
    [0, 1, 2, 2],
    [0, 1, 1, 2],
    [0, 0, 1, 2],
    [0, 0, 1, 2],
    [0, 1, 1, 1],
    [0, 0, 1, 1],
    [0, 0, 0, 1],
    [0, 0, 1, 1],
    [0, 0, 0, 1],
    [0, 0, 0, 1],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
];

fn reg_swizzle(inst: &gpucc::etnaviv::isa::Inst, slot: usize) -> (RegGroup, u16, [usize; 4]) {
    match inst.src[slot].kind {
        SrcKind::Reg(r) => (r.group, r.reg, [0, 1, 2, 3].map(|c| r.swiz.component(c))),
        SrcKind::Imm(_) => panic!("immediate"),
    }
}

/// `A = X.swz + X.swz` (A of the type's width, X a vec4 in t1), then `B = A * A` reading A
/// in order, emitted with A placed at `ty` in t2.
fn reswizzle_case(ty: usize) {
    let width = TYPE_MASK[ty].count_ones() as u8;
    let mut p = Program::default();
    let x = p.new_value(4, ValueKind::Input { reg: 1 });
    let a = p.new_value(width, ValueKind::Temp);
    let b = p.new_value(4, ValueKind::Output);
    let src_swz = [2u8, 0, 3, 1];
    let mut add = Instr::new(Opcode::Add, Shape::Aligned);
    add.dst = Some((a, (1 << width) - 1));
    add.src[0] = Some(Operand::value(x, src_swz));
    add.src[2] = Some(Operand::value(x, src_swz));
    p.push(add);
    let use_swz = [0u8, 1, 2, 3].map(|c| c.min(width - 1));
    let mut mul = Instr::new(Opcode::Mul, Shape::Aligned);
    mul.dst = Some((b, 0xf));
    mul.src[0] = Some(Operand::value(a, use_swz));
    mul.src[1] = Some(Operand::value(a, use_swz));
    p.push(mul);
    let alloc = Allocation {
        regs: vec![
            Some(VirtReg { base: 1, ty: 0 }),
            Some(VirtReg { base: 2, ty }),
            Some(VirtReg { base: 3, ty: 0 }),
        ],
        num_temps: 4,
        interference_edges: 0,
    };
    let code = emit(&p, &alloc, &mut Uniforms::new(0)).unwrap();
    // Definition: the type's write mask, and each written channel p reads the source
    // channel DEF_TABLE[ty][p] of the original swizzle.
    assert_eq!(code[0].dst.reg, 2);
    assert_eq!(code[0].dst.mask, TYPE_MASK[ty], "type {ty}");
    for slot in [0, 2] {
        let (_, reg, sw) = reg_swizzle(&code[0], slot);
        assert_eq!(reg, 1);
        for pc in 0..4 {
            if TYPE_MASK[ty] & (1 << pc) != 0 {
                let want = src_swz[DEF_TABLE[ty][pc] as usize] as usize;
                assert_eq!(sw[pc], want, "type {ty} def channel {pc}");
            }
        }
    }
    // Use: channel c reads A's component min(c, width - 1), which lives at USE_TABLE[ty][c].
    for slot in [0, 1] {
        let (_, reg, sw) = reg_swizzle(&code[1], slot);
        assert_eq!(reg, 2);
        for c in 0..4 {
            assert_eq!(
                sw[c], USE_TABLE[ty][c] as usize,
                "type {ty} use channel {c}"
            );
        }
    }
}

#[test]
fn reswizzle_vec4() {
    reswizzle_case(0);
}
#[test]
fn reswizzle_vec3_xyz() {
    reswizzle_case(1);
}
#[test]
fn reswizzle_vec3_xyw() {
    reswizzle_case(2);
}
#[test]
fn reswizzle_vec3_xzw() {
    reswizzle_case(3);
}
#[test]
fn reswizzle_vec3_yzw() {
    reswizzle_case(4);
}
#[test]
fn reswizzle_vec2_xy() {
    reswizzle_case(5);
}
#[test]
fn reswizzle_vec2_xz() {
    reswizzle_case(6);
}
#[test]
fn reswizzle_vec2_xw() {
    reswizzle_case(7);
}
#[test]
fn reswizzle_vec2_yz() {
    reswizzle_case(8);
}
#[test]
fn reswizzle_vec2_yw() {
    reswizzle_case(9);
}
#[test]
fn reswizzle_vec2_zw() {
    reswizzle_case(10);
}
#[test]
fn reswizzle_scalar_x() {
    reswizzle_case(11);
}
#[test]
fn reswizzle_scalar_y() {
    reswizzle_case(12);
}
#[test]
fn reswizzle_scalar_z() {
    reswizzle_case(13);
}
#[test]
fn reswizzle_scalar_w() {
    reswizzle_case(14);
}

#[test]
fn dot_products_are_not_reswizzled() {
    // A DP3 into a scalar at .z: the mask follows the type, the sources keep their order
    // because the result is broadcast.
    let mut p = Program::default();
    let x = p.new_value(4, ValueKind::Input { reg: 1 });
    let a = p.new_value(1, ValueKind::Temp);
    let mut dp = Instr::new(Opcode::Dp3, Shape::Broadcast(3));
    dp.dst = Some((a, 1));
    dp.src[0] = Some(Operand::value(x, [1, 2, 0, 3]));
    dp.src[1] = Some(Operand::value(x, [1, 2, 0, 3]));
    p.push(dp);
    let alloc = Allocation {
        regs: vec![
            Some(VirtReg { base: 1, ty: 0 }),
            Some(VirtReg { base: 2, ty: 13 }),
        ],
        num_temps: 3,
        interference_edges: 0,
    };
    let code = emit(&p, &alloc, &mut Uniforms::new(0)).unwrap();
    assert_eq!(code[0].dst.mask, 0b0100);
    assert_eq!(reg_swizzle(&code[0], 0).2[..3], [1, 2, 0]);
}

// ---- fragment position ----

/// `u * u`, `+ u`, `* (u * u)`, `+ (u * u + u)`: two vec4 values live at once at most.
const CHAIN: &str = "    32    %0 = load_const (0x00000000)\n\
     \x20   32x4  %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
     \x20   32x4  %2 = fmul %1, %1\n\
     \x20   32x4  %3 = fadd %2, %1\n\
     \x20   32x4  %4 = fmul %3, %2\n";

#[test]
fn t0_is_a_temporary_when_the_position_is_not_read() {
    // The rasterizer leaves the position in t0; a shader that never reads it has t0 like
    // any register (as Mesa's allocator does): the chain fits t0 and t1.
    let decls = "decl_var uniform INTERP_MODE_NONE none vec4 u (0, 0, 0)\n";
    let s = fs(1, decls, &format!("{CHAIN}    32x4  %98 = fadd %4, %3\n"));
    for core in ["gc2000", "gc3000", "gc7000"] {
        let c = ctx(core);
        let obj = c.compile(&s, &Options::default()).unwrap();
        assert!(
            obj.insts.iter().any(|i| i.dst.use_ && i.dst.reg == 0),
            "{core}: t0 unused\n{}",
            obj.asm_text()
        );
        assert_eq!(obj.num_temps, 2, "{core}\n{}", obj.asm_text());
        assert_eq!(verify(&c, &s, 2), VerifyOutcome::Pass, "{core}");
    }
}

#[test]
fn the_position_keeps_t0_until_its_last_read() {
    // The same chain, with the position read at the end: nothing may be written to t0
    // before the last instruction reading it, so the chain moves up to t1 and t2.
    let decls = "decl_var uniform INTERP_MODE_NONE none vec4 u (0, 0, 0)\n";
    let body = format!(
        "{CHAIN}    32x4  %5 = @load_frag_coord () ()\n\
         \x20   32x4  %6 = fadd %4, %3\n\
         \x20   32x4  %98 = fmul %6, %5\n"
    );
    let s = fs(1, decls, &body);
    for core in ["gc2000", "gc3000", "gc7000"] {
        let c = ctx(core);
        let obj = c.compile(&s, &Options::default()).unwrap();
        let reads_t0 = |i: &gpucc::etnaviv::isa::Inst| {
            i.src.iter().any(|s| {
                s.use_
                    && matches!(s.kind, SrcKind::Reg(r) if r.group == RegGroup::Temp && r.reg == 0)
            })
        };
        let last_read = obj
            .insts
            .iter()
            .rposition(reads_t0)
            .expect("the position is read");
        for (k, i) in obj.insts.iter().enumerate().take(last_read) {
            assert!(
                !(i.dst.use_ && i.dst.reg == 0),
                "{core}: instruction {k} overwrites the position\n{}",
                obj.asm_text()
            );
        }
        assert_eq!(obj.num_temps, 3, "{core}\n{}", obj.asm_text());
        assert_eq!(verify(&c, &s, 2), VerifyOutcome::Pass, "{core}");
    }
}

// ---- the one-const rule ----

fn uniforms_read(inst: &gpucc::etnaviv::isa::Inst) -> Vec<u16> {
    let mut regs: Vec<u16> = inst
        .src
        .iter()
        .filter(|s| s.use_)
        .filter_map(|s| match s.kind {
            SrcKind::Reg(r) if r.group == RegGroup::Uniform => Some(r.reg),
            _ => None,
        })
        .collect();
    regs.sort_unstable();
    regs.dedup();
    regs
}

#[test]
fn one_const_rule() {
    // a + b reads two uniform registers; a * 2.0 + 0.5 reads one uniform and constants.
    let s = fs(
        2,
        "decl_var uniform INTERP_MODE_NONE none vec4 a (0, 0, 0)\n\
         decl_var uniform INTERP_MODE_NONE none vec4 b (1, 1, 0)\n",
        "    32    %0 = load_const (0x00000000)\n\
         \x20   32x4  %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
         \x20   32x4  %2 = @load_uniform (%0 (0x0)) (base=1, range=1, dest_type=float32)\n\
         \x20   32x4  %3 = fadd %1, %2\n\
         \x20   32x2  %5 = load_const (0x40000000, 0x3f000000) = (2.000000, 0.500000)\n\
         \x20   32x4  %98 = ffma %3, %5 (2.0, 0.5).xxxx, %5 (2.0, 0.5).yyyy\n",
    );
    // GC2000 has the limit: every instruction reads at most one uniform register, the two
    // constants share one slot, and the result still matches the interpreter.
    let c = ctx("gc2000");
    assert!(c.specs().has_one_const_limit());
    let obj = c.compile(&s, &Options::default()).unwrap();
    for inst in &obj.insts {
        assert!(uniforms_read(inst).len() <= 1, "{}", obj.asm_text());
    }
    let mad = obj.insts.iter().find(|i| i.opcode == Opcode::Mad).unwrap();
    assert_eq!(uniforms_read(mad).len(), 1, "2.0 and 0.5 share a slot");
    assert!(obj.insts.iter().any(|i| i.opcode == Opcode::Mov));
    assert_eq!(verify(&c, &s, 3), VerifyOutcome::Pass);
    // GC7000 lifts it: the add reads both uniforms directly, no extra move.
    let c7 = ctx("gc7000");
    assert!(!c7.specs().has_one_const_limit());
    let obj7 = c7.compile(&s, &Options::default()).unwrap();
    let add = obj7.insts.iter().find(|i| i.opcode == Opcode::Add).unwrap();
    assert_eq!(uniforms_read(add), vec![0, 1]);
    // HALTI2+ takes 2.0 and 0.5 (low 12 mantissa bits zero) as inline immediates.
    let mad7 = obj7.insts.iter().find(|i| i.opcode == Opcode::Mad).unwrap();
    let imms: Vec<u32> = mad7
        .src
        .iter()
        .filter_map(|s| match s.kind {
            SrcKind::Imm(i) if s.use_ => Some(i.value()),
            _ => None,
        })
        .collect();
    assert_eq!(imms, vec![2.0f32.to_bits(), 0.5f32.to_bits()]);
    assert_eq!(verify(&c7, &s, 3), VerifyOutcome::Pass);
}

// ---- shared register set ----

#[test]
fn register_set_is_built_once_and_shared() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Context>();
    let c = ctx("gc3000");
    let set = Arc::clone(c.reg_file());
    let s = fs(
        1,
        "decl_var uniform INTERP_MODE_NONE none vec4 u (0, 0, 0)\n",
        "    32    %0 = load_const (0x00000000)\n\
         \x20   32x4  %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
         \x20   32x4  %98 = fmul %1, %1\n",
    );
    let c2 = c.clone();
    let s2 = s.clone();
    let other = std::thread::spawn(move || {
        let obj = c2.compile(&s2, &Options::default()).unwrap();
        (Arc::as_ptr(c2.reg_file()) as usize, obj)
    });
    let mine = c.compile(&s, &Options::default()).unwrap();
    let (ptr, theirs) = other.join().unwrap();
    // Both compiles used the one set built by Context::new, and agree byte for byte.
    assert_eq!(ptr, Arc::as_ptr(&set) as usize);
    assert!(Arc::ptr_eq(c.reg_file(), &set));
    assert_eq!(mine.code, theirs.code);
}

// ---- uniform file bounds ----

/// A uniform header or a `load_uniform` slot past the stage's uniform file is the core's
/// limit, reported as such, before a file of that size is built: a header of 4e9 slots and a
/// base of 2^30 once made the translator ask for 128 GB and 4 GiB and abort the process.
#[test]
fn uniform_slots_past_the_file_are_a_limit() {
    let zero = "    32x4  %98 = load_const (0x00000000, 0x00000000, 0x00000000, 0x00000000)\n";
    let c = ctx("gc2000");
    let err = c
        .compile(&fs(4_000_000_000, "", zero), &Options::default())
        .unwrap_err();
    assert_eq!(
        err,
        CompileError::Limit("4000000000 uniform slots exceed the 64 gc2000 allows".into())
    );

    let load = |base: u64| {
        format!(
            "    32    %0 = load_const (0x00000000)\n\
             \x20   32x4  %98 = @load_uniform (%0 (0x0)) (base={base}, range=1, dest_type=float32)\n"
        )
    };
    let err = c
        .compile(&fs(1, "", &load(1 << 30)), &Options::default())
        .unwrap_err();
    assert_eq!(
        err,
        CompileError::Limit(
            "load_uniform slot 1073741824 is past the 64 uniform slots gc2000 has for a \
             MESA_SHADER_FRAGMENT shader"
                .into()
        )
    );
    // gc2000 gives a fragment shader 64 slots: the last one is fine, the next is not.
    assert!(c
        .compile(&fs(1, "", &load(63)), &Options::default())
        .is_ok());
    assert!(c
        .compile(&fs(1, "", &load(64)), &Options::default())
        .is_err());
}

// ---- copies that allocation made empty ----

/// A phi over an if/else: allocation gives the phi variable and both branch results the
/// same register component, so the phi copies at the branch ends would be MOVs of t1.x onto
/// itself. They are not emitted, and the branch targets count only what remains.
#[test]
fn copies_onto_the_same_register_are_not_emitted() {
    let text = "shader: MESA_SHADER_FRAGMENT\nname: t\ninputs: 0\noutputs: 1\nuniforms: 1\n\
        decl_var uniform INTERP_MODE_NONE none vec4 u (0, 0, 0)\n\
        decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n\
        decl_function main (0 params)\n\nimpl main {\n    block b0:  // preds: \n\
        \x20   32    %0 = load_const (0x00000000)\n\
        \x20   32x4  %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
        \x20   32    %3 = flt32 %1.x, %1.y\n\
        \x20               // succs: b1 b2\n\
        \x20   if %3 {\n\
        \x20       block b1:  // preds: b0\n\
        \x20       32    %4 = fmul %1.z, %1.z\n\
        \x20                   // succs: b3\n\
        \x20   } else {\n\
        \x20       block b2:  // preds: b0\n\
        \x20       32    %5 = fadd %1.z, %1.w\n\
        \x20                   // succs: b3\n\
        \x20   }\n\
        \x20   block b3:    // preds: b1 b2\n\
        \x20   32    %6 = phi b1: %4, b2: %5\n\
        \x20   32x4  %98 = vec4 %6, %6, %6, %6\n\
        \x20   32    %99 = deref_var &gl_FragColor (shader_out vec4)\n\
        \x20               @store_deref (%99, %98) (wrmask=xyzw, access=none)\n\
        \x20               // succs: b4 \n    block b4:\n}\n";
    let s = gpucc::nir::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let c = ctx("gc7000");
    let obj = c.compile(&s, &Options::default()).expect("compiles");
    let lines = common::etna::listing(&obj.insts);
    assert_eq!(
        lines,
        [
            "cmp.lt.pack t0.x___, u0.xxxx, u0.yyyy, u1.xxxx",
            "branch.not.u32 void, t0.xxxx, void, 4",
            "mul.pack t0.x___, u0.zzzz, u0.zzzz, void",
            "branch void, void, void, 5",
            "add.pack t0.x___, u0.zzzz, void, u0.wwww",
            "mov.pack t0, void, void, t0.xxxx",
        ]
    );
    assert_eq!(verify(&c, &s, 3), VerifyOutcome::Pass);
}

/// An application slot read after a UBO load must not take the slot the UBO's address was
/// given: with the default uniform block read through `load_ubo` (HALTI2+), the application's
/// slots are reserved before translation places the address. Here slot 1 is read after the
/// load; the address used to land in slot 1 and be overwritten by it, so LOAD read from the
/// uniform's value as an address (found by piglit's fs-uniform-array tests on a simulated
/// GC7000L through Mesa's etnaviv driver).
#[test]
fn a_later_application_slot_keeps_clear_of_the_ubo_address() {
    let s = fs(
        2,
        "",
        "\x20   32    %0 = load_const (0x00000000)\n\
         \x20   32    %1 = @load_uniform (%0 (0x0)) (base=0, range=1, dest_type=float32)\n\
         \x20   32    %2 = f2i32 %1\n\
         \x20   32    %3 = load_const (0x00000010)\n\
         \x20   32    %4 = imul %2, %3 (0x10)\n\
         \x20   32x2  %5 = @load_ubo (%0 (0x0), %4) (access=none, align_mul=16, align_offset=0, range_base=0, range=32)\n\
         \x20   32x2  %6 = @load_uniform (%0 (0x0)) (base=1, range=1, dest_type=float32)\n\
         \x20   32x2  %7 = fadd %5, %6\n\
         \x20   32x4  %98 = vec4 %7.x, %7.y, %6.x, %1\n",
    );
    for core in ["gc3000", "gc7000"] {
        let c = ctx(core);
        let obj = c.compile(&s, &Options::default()).unwrap();
        assert_eq!(
            verify(&c, &s, 3),
            VerifyOutcome::Pass,
            "{core}\n{}",
            obj.asm_text()
        );
    }
}
