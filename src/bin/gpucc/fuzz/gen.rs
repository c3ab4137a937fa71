//! A generator of random valid NIR shaders, for the differential test.
//!
//! The shaders are written in the register form of NIR (`decl_reg`/`store_reg`/`load_reg`
//! for values that cross control flow, as Mesa's out-of-SSA NIR and the hand-written tests
//! do), read back with gpucc's own parser, and for etnaviv (whose NIR has phis) turned into
//! SSA with `regs_to_ssa` and printed again, so the text a backend sees is exactly Mesa's
//! printed form. Intel shaders take either form at random.
//!
//! What a shader holds: scalar ALU operations over floats, integers and 32-bit booleans (the
//! operations each backend's NIR carries: Intel's and gc7000's 32-bit booleans, gc2000's
//! float-valued comparisons), constants at the edges of their ranges, interpolated inputs or
//! invocation ids, uniform loads, if/else, and loops with a bounded trip count and extra
//! breaks and continues under data-dependent conditions. Integer division takes a divisor
//! forced into 1..=255, so that no generated shader depends on what division by zero does.

use std::fmt::Write as _;

use gpucc::util::rng::Rng;

/// The shader form and operation set to generate for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Intel fragment shader: interpolated input, push constants, one vec4 colour output.
    IntelFs,
    /// Intel compute shader: invocation index, SSBO in and out, push constants.
    IntelCs,
    /// etnaviv fragment shader; `ints` for cores with integer instructions (HALTI).
    Etna { ints: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    F,
    I,
    B,
}

/// Float constants: small dyadic values, signs, zero, and a few extreme magnitudes.
const FLOATS: &[f32] = &[
    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -0.25, 10.0, 0.125, 100.0, -7.5, 1e6, 1e30, -1e30, 3.0e-5,
    0.75,
];

/// Integer constants: both ends of both signs, shift widths, bytes.
const INTS: &[i64] = &[
    0,
    1,
    2,
    3,
    -1,
    -2,
    5,
    7,
    8,
    16,
    31,
    32,
    33,
    255,
    256,
    1000,
    65535,
    0x7fff_ffff,
    -0x8000_0000,
    0x1234_5678,
];

struct Gen<'r> {
    rng: &'r mut Rng,
    kind: Kind,
    out: String,
    next: u32,
    block: u32,
    indent: usize,
    /// Values usable at this point: (operand text, type).
    vals: Vec<(String, Ty)>,
    /// Registers declared at the start: (name, type).
    regs: Vec<(String, Ty)>,
    /// `decl_reg` lines of loop counters, placed in the first block at the end.
    decls: String,
    /// Statements left to emit.
    budget: i32,
    depth: u32,
    loops: u32,
    zero: String,
    /// Highest uniform slot (etnaviv vec4 slots) or push-constant dword (Intel) read so far.
    uniforms_used: u32,
}

impl Gen<'_> {
    fn ints(&self) -> bool {
        !matches!(self.kind, Kind::Etna { ints: false })
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{:w$}{text}", "", w = 4 * self.indent);
    }

    fn fresh(&mut self) -> String {
        let n = self.next;
        self.next += 1;
        format!("%{n}")
    }

    /// Emits `size %N = rhs` and returns `%N`.
    fn def(&mut self, size: &str, rhs: &str) -> String {
        let d = self.fresh();
        self.line(&format!("{size:5} {d} = {rhs}"));
        d
    }

    fn new_block(&mut self) {
        let b = self.block;
        self.block += 1;
        // The parser reads a bare `block bN:` as the impl's end block.
        self.line(&format!("block b{b}:  // preds:"));
    }

    fn konst(&mut self, ty: Ty) -> String {
        let bits = match ty {
            Ty::F => FLOATS[self.rng.below(FLOATS.len() as u64) as usize].to_bits(),
            Ty::I => *self.rng.pick(INTS) as u32,
            Ty::B => {
                if self.ints() {
                    if self.rng.bool() {
                        u32::MAX
                    } else {
                        0
                    }
                } else {
                    // gc2000's comparisons give 1.0 or 0.0.
                    if self.rng.bool() {
                        1.0f32.to_bits()
                    } else {
                        0
                    }
                }
            }
        };
        self.def("32", &format!("load_const (0x{bits:08x})"))
    }

    /// A value of type `ty`: mostly one already computed, sometimes a new constant.
    fn pick(&mut self, ty: Ty) -> String {
        let cands: Vec<usize> = (0..self.vals.len())
            .filter(|&i| {
                let t = self.vals[i].1;
                // gc2000's booleans are floats and may be used as such.
                t == ty || (!self.ints() && ty == Ty::F && t == Ty::B)
            })
            .collect();
        if cands.is_empty() || self.rng.below(8) == 0 {
            let c = self.konst(ty);
            self.vals.push((c.clone(), ty));
            return c;
        }
        // Prefer recent values, so that chains grow deep rather than wide.
        let k = cands.len() as u64;
        let i = if self.rng.bool() {
            cands[(k - 1 - self.rng.below(k.min(4))) as usize]
        } else {
            cands[self.rng.below(k) as usize]
        };
        self.vals[i].0.clone()
    }

    /// The four components of a vec4 as scalar values (intrinsic sources take no swizzle, so
    /// every value is a whole SSA def).
    fn components(&mut self, v: &str, ty: Ty) {
        for c in ["x", "y", "z", "w"] {
            let d = self.def("32", &format!("mov {v}.{c}"));
            self.push(d, ty);
        }
    }

    fn push(&mut self, v: String, ty: Ty) {
        self.vals.push((v, ty));
    }

    /// One ALU operation producing a value of a random type.
    fn alu(&mut self) {
        if matches!(self.kind, Kind::Etna { .. }) && self.rng.below(6) == 0 {
            self.vector_alu();
            return;
        }
        let ty = if self.ints() {
            *self.rng.pick(&[Ty::F, Ty::F, Ty::I, Ty::I, Ty::B])
        } else {
            *self.rng.pick(&[Ty::F, Ty::F, Ty::F, Ty::B])
        };
        let rhs = match ty {
            Ty::F => self.float_op(),
            Ty::I => self.int_op(),
            Ty::B => self.bool_op(),
        };
        let d = self.def("32", &rhs);
        self.push(d, ty);
    }

    /// etnaviv is a vec4 machine and its NIR is not scalarised: a vector operation over two
    /// gathered vec4s (one read with a random swizzle), or a dot product, whose components
    /// come back as scalars. This is what exercises the backend's virtual register classes.
    fn vector_alu(&mut self) {
        let gather = |g: &mut Self| {
            let c: Vec<String> = (0..4).map(|_| g.pick(Ty::F)).collect();
            g.def("32x4", &format!("vec4 {}", c.join(", ")))
        };
        let a = gather(self);
        let b = gather(self);
        let swz: String = (0..4)
            .map(|_| *self.rng.pick(&['x', 'y', 'z', 'w']))
            .collect();
        match self.rng.below(4) {
            0 => {
                let op = *self.rng.pick(&["fdot4", "fdot3", "fdot2"]);
                let w = &swz[..op[4..].parse::<usize>().unwrap_or(4)];
                let d = self.def("32", &format!("{op} {a}.{w}, {b}"));
                self.push(d, Ty::F);
            }
            _ => {
                // (No fmin/fmax here: see the signed zeros in float_op.)
                let op = *self.rng.pick(&["fadd", "fmul", "fadd"]);
                let v = self.def("32x4", &format!("{op} {a}.{swz}, {b}"));
                for c in ["x", "y", "z", "w"] {
                    if self.rng.bool() {
                        let d = self.def("32", &format!("mov {v}.{c}"));
                        self.push(d, Ty::F);
                    }
                }
            }
        }
    }

    fn float_op(&mut self) -> String {
        let etna = matches!(self.kind, Kind::Etna { .. });
        let r = self.rng.below(100);
        if r < 30 {
            let op = *self
                .rng
                .pick(&["fadd", "fmul", "fmin", "fmax", "fadd", "fmul"]);
            let (mut a, mut b) = (self.pick(Ty::F), self.pick(Ty::F));
            if matches!(op, "fmin" | "fmax") {
                // Which zero fmax(-0, +0) gives is an open disagreement between the
                // interpreter (+0) and the simulators (Intel's SEL.GE, Vivante's SELECT:
                // -0), reported with the ignored test in tests/fuzz_diff.rs; adding +0 first
                // turns -0 into +0 so that the rest of min/max is still checked.
                let z = self.def("32", "load_const (0x00000000)");
                a = self.def("32", &format!("fadd {a}, {z}"));
                b = self.def("32", &format!("fadd {b}, {z}"));
            }
            format!("{op} {a}, {b}")
        } else if r < 42 {
            let (a, b, c) = (self.pick(Ty::F), self.pick(Ty::F), self.pick(Ty::F));
            // flrp is Intel's LRP, which rounds differently from NIR's a*(1-t) + b*t: far
            // apart where the terms cancel (t outside [0, 1], huge or infinite operands),
            // within the FS check's tolerance otherwise. So t is saturated. Compute shaders
            // get neither flrp nor ffma: their SSBOs compare bit-exact, and the simulator's
            // MAD rounds the product while NIR's ffma is fused (one unit in the last place).
            if self.kind == Kind::IntelCs {
                let m = self.def("32", &format!("fmul {a}, {b}"));
                format!("fadd {m}, {c}")
            } else if etna || self.rng.bool() {
                format!("ffma {a}, {b}, {c}")
            } else {
                let c = self.def("32", &format!("fadd {c}, {}", self.zero));
                let t = self.def("32", &format!("fsat {c}"));
                format!("flrp {a}, {b}, {t}")
            }
        } else if r < 62 {
            let ops: &[&str] = if etna {
                &["fneg", "fabs", "fsat", "ffloor", "ffract", "fsign", "mov"]
            } else {
                &[
                    "fneg",
                    "fabs",
                    "fsat",
                    "ffloor",
                    "ffract",
                    "fsign",
                    "ftrunc",
                    "fceil",
                    "fround_even",
                    "mov",
                ]
            };
            let op = *self.rng.pick(ops);
            let mut a = self.pick(Ty::F);
            if op == "fsign" && etna {
                // NIR's fsign(-0) is -0; the etnaviv simulator's SIGN gives +0, which only a
                // later rsq/rcp (-inf against +inf) shows: the open signed-zero question
                // again (tests/fuzz_diff.rs), so -0 becomes +0 first.
                a = self.def("32", &format!("fadd {a}, {}", self.zero));
            }
            if op == "fsat" && !etna {
                // The signed-zero question of fmin/fmax (the binary case above): fsat(-0)
                // is +0 in the interpreter and -0 on the simulator.
                a = self.def("32", &format!("fadd {a}, {}", self.zero));
            }
            if op == "fsign" && !etna {
                // NIR defines fsign(NaN) as 0, the interpreter's answer; Mesa's Intel
                // backend (CMP.NZ, AND sign, OR 1.0) gives +-1, and so does gpucc's. Not a
                // gpucc bug: NaNs are replaced by 0 first.
                let ord = self.def("32", &format!("feq32 {a}, {a}"));
                a = self.def("32", &format!("b32csel {ord}, {a}, {}", self.zero));
            }
            format!("{op} {a}")
        } else if r < 72 {
            let ops: &[&str] = if etna {
                &["frcp", "frsq", "fsqrt", "fexp2"]
            } else {
                &["frcp", "frsq", "fsqrt", "fexp2", "flog2", "fsin", "fcos"]
            };
            let op = *self.rng.pick(ops);
            let mut a = self.pick(Ty::F);
            if matches!(op, "fsin" | "fcos") {
                // The hardware's sine loses all accuracy on huge arguments (1e29 radians),
                // where the interpreter's double-precision one does not: keep them in [0, 1).
                a = self.def("32", &format!("ffract {a}"));
            }
            format!("{op} {a}")
        } else if r < 82 && self.ints() {
            let op = *self.rng.pick(&["i2f32", "u2f32"]);
            let op = if etna { "i2f32" } else { op };
            let a = self.pick(Ty::I);
            format!("{op} {a}")
        } else if r < 90 {
            let c = self.pick(Ty::B);
            let (a, b) = (self.pick(Ty::F), self.pick(Ty::F));
            if self.ints() {
                format!("b32csel {c}, {a}, {b}")
            } else {
                format!("fcsel {c}, {a}, {b}")
            }
        } else if self.ints() {
            let c = self.pick(Ty::B);
            format!("b2f32 {c}")
        } else {
            let (a, b) = (self.pick(Ty::F), self.pick(Ty::F));
            format!("fadd {a}, {b}")
        }
    }

    fn int_op(&mut self) -> String {
        let etna = matches!(self.kind, Kind::Etna { .. });
        let r = self.rng.below(100);
        if r < 40 {
            let ops: &[&str] = if etna {
                &["iadd", "imul", "iand", "ior", "ixor", "imin", "imax"]
            } else {
                &[
                    "iadd", "imul", "iand", "ior", "ixor", "ishl", "ishr", "ushr", "imin", "imax",
                    "umin", "umax", "isub",
                ]
            };
            let op = *self.rng.pick(ops);
            let (a, b) = (self.pick(Ty::I), self.pick(Ty::I));
            format!("{op} {a}, {b}")
        } else if r < 55 {
            let ops: &[&str] = if etna {
                &["ineg", "inot", "mov"]
            } else {
                &["ineg", "inot", "iabs", "mov"]
            };
            let op = *self.rng.pick(ops);
            let a = self.pick(Ty::I);
            format!("{op} {a}")
        } else if r < 65 && !etna {
            // Division by a divisor in 1..=255.
            let a = self.pick(Ty::I);
            let b = self.pick(Ty::I);
            let mask = self.def("32", "load_const (0x000000ff)");
            let m = self.def("32", &format!("iand {b}, {mask}"));
            let one = self.def("32", "load_const (0x00000001)");
            let d = self.def("32", &format!("ior {m}, {one}"));
            // (Intel's backend has no udiv/umod/irem/imod; Mesa lowers them before it.)
            format!("idiv {a}, {d}")
        } else if r < 78 {
            // Float to integer of a value clamped well inside the integer range.
            let a = self.pick(Ty::F);
            let hi = self.def("32", &format!("load_const (0x{:08x})", 1e6f32.to_bits()));
            let lo = self.def("32", &format!("load_const (0x{:08x})", (-1e6f32).to_bits()));
            let m = self.def("32", &format!("fmin {a}, {hi}"));
            let c = self.def("32", &format!("fmax {m}, {lo}"));
            format!("f2i32 {c}")
        } else if r < 92 {
            let c = self.pick(Ty::B);
            let (a, b) = (self.pick(Ty::I), self.pick(Ty::I));
            format!("b32csel {c}, {a}, {b}")
        } else {
            let c = self.pick(Ty::B);
            format!("b2i32 {c}")
        }
    }

    fn bool_op(&mut self) -> String {
        let r = self.rng.below(100);
        if !self.ints() {
            let op = *self.rng.pick(&["slt", "sge", "seq", "sne"]);
            let (a, b) = (self.pick(Ty::F), self.pick(Ty::F));
            return format!("{op} {a}, {b}");
        }
        if r < 45 {
            let op = *self.rng.pick(&["flt32", "fge32", "feq32", "fneu32"]);
            let (a, b) = (self.pick(Ty::F), self.pick(Ty::F));
            format!("{op} {a}, {b}")
        } else if r < 80 {
            let etna = matches!(self.kind, Kind::Etna { .. });
            let ops: &[&str] = if etna {
                &["ilt32", "ige32", "ieq32", "ine32"]
            } else {
                &["ilt32", "ige32", "ieq32", "ine32", "ult32", "uge32"]
            };
            let op = *self.rng.pick(ops);
            let (a, b) = (self.pick(Ty::I), self.pick(Ty::I));
            format!("{op} {a}, {b}")
        } else if r < 92 {
            let op = *self.rng.pick(&["iand", "ior", "ixor"]);
            let (a, b) = (self.pick(Ty::B), self.pick(Ty::B));
            format!("{op} {a}, {b}")
        } else {
            let a = self.pick(Ty::B);
            format!("inot {a}")
        }
    }

    fn uniform(&mut self) {
        match self.kind {
            Kind::Etna { .. } => {
                let slot = self.rng.below(4) as u32;
                self.uniforms_used = self.uniforms_used.max(slot + 1);
                let zero = self.zero.clone();
                let u = self.def(
                    "32x4",
                    &format!("@load_uniform ({zero}) (base={slot}, range=1, dest_type=float32)"),
                );
                let c = *self.rng.pick(&["x", "y", "z", "w"]);
                let d = self.def("32", &format!("mov {u}.{c}"));
                self.push(d, Ty::F);
            }
            Kind::IntelFs | Kind::IntelCs => {
                let dword = self.rng.below(16) as u32;
                self.uniforms_used = self.uniforms_used.max(dword + 1);
                let off = self.def("32", &format!("load_const (0x{:08x})", dword * 4));
                let zero = self.zero.clone();
                let u = self.def(
                    "32",
                    &format!(
                        "@load_ubo ({zero}, {off}) (access=none, align_mul=4, align_offset=0, range_base=0, range=-1)"
                    ),
                );
                // Push constants are bit patterns: read them as integers, or as floats
                // through a conversion (their raw bits may be NaNs or denormals).
                let v = self.def("32", &format!("i2f32 {u}"));
                self.push(u, Ty::I);
                self.push(v, Ty::F);
            }
        }
    }

    fn store_reg(&mut self) {
        if self.regs.is_empty() {
            return;
        }
        let (r, ty) = self.regs[self.rng.below(self.regs.len() as u64) as usize].clone();
        let v = self.pick(ty);
        self.line(&format!(
            "@store_reg ({v}, {r}) (base=0, wrmask=x, legacy_fsat=0)"
        ));
    }

    fn load_reg(&mut self) {
        if self.regs.is_empty() {
            return;
        }
        let (r, ty) = self.regs[self.rng.below(self.regs.len() as u64) as usize].clone();
        let d = self.def(
            "32",
            &format!("@load_reg ({r}) (base=0, legacy_fabs=0, legacy_fneg=0)"),
        );
        self.push(d, ty);
    }

    fn cond(&mut self) -> String {
        self.pick(Ty::B)
    }

    /// `if c { ... } else { ... }`; values defined inside stay inside.
    fn if_else(&mut self) {
        let c = self.cond();
        self.end_block();
        self.line(&format!("if {c} {{"));
        self.scoped(|g| {
            let n = g.stmts();
            g.statements(n);
        });
        self.line("} else {");
        self.scoped(|g| {
            if g.rng.bool() {
                let n = g.stmts();
                g.statements(n);
            }
        });
        self.line("}");
        self.new_block();
    }

    /// Ends the current block: the parser expects its `// succs:` line before any control
    /// flow or closing brace.
    fn end_block(&mut self) {
        self.line("// succs:");
    }

    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        let keep = self.vals.len();
        self.indent += 1;
        self.depth += 1;
        self.new_block();
        f(self);
        self.end_block();
        self.depth -= 1;
        self.indent -= 1;
        self.vals.truncate(keep);
    }

    /// A loop that runs at most `trips` times: the counter is tested and incremented at the
    /// top, so a `continue` in the body cannot skip the increment.
    fn bounded_loop(&mut self) {
        let trips = self.rng.below(5) as u32;
        let ints = self.ints();
        // Registers are declared in the first block (the validator's rule, and Mesa's).
        let counter = self.fresh();
        let _ = writeln!(
            self.decls,
            "    32    {counter} = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)"
        );
        let (zero, step, limit) = if ints {
            (0u32, 1u32, trips)
        } else {
            (0, 1.0f32.to_bits(), (trips as f32).to_bits())
        };
        let z = self.def("32", &format!("load_const (0x{zero:08x})"));
        self.line(&format!(
            "@store_reg ({z}, {counter}) (base=0, wrmask=x, legacy_fsat=0)"
        ));
        self.loops += 1;
        self.end_block();
        self.line("loop {");
        self.scoped(|g| {
            let i = g.def(
                "32",
                &format!("@load_reg ({counter}) (base=0, legacy_fabs=0, legacy_fneg=0)"),
            );
            let lim = g.def("32", &format!("load_const (0x{limit:08x})"));
            let done = if ints {
                g.def("32", &format!("ige32 {i}, {lim}"))
            } else {
                g.def("32", &format!("sge {i}, {lim}"))
            };
            g.jump_if(&done, "break");
            let one = g.def("32", &format!("load_const (0x{step:08x})"));
            let next = if ints {
                g.def("32", &format!("iadd {i}, {one}"))
            } else {
                g.def("32", &format!("fadd {i}, {one}"))
            };
            g.line(&format!(
                "@store_reg ({next}, {counter}) (base=0, wrmask=x, legacy_fsat=0)"
            ));
            if ints {
                g.push(i, Ty::I);
            } else {
                g.push(i, Ty::F);
            }
            let n = g.stmts();
            g.statements(n);
        });
        self.loops -= 1;
        self.line("}");
        self.new_block();
    }

    /// `if c { break|continue } else { }`.
    fn jump_if(&mut self, c: &str, jump: &str) {
        self.end_block();
        self.line(&format!("if {c} {{"));
        self.indent += 1;
        self.new_block();
        self.line(jump);
        self.end_block();
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        self.new_block();
        self.end_block();
        self.indent -= 1;
        self.line("}");
        self.new_block();
    }

    fn stmts(&mut self) -> i32 {
        1 + self.rng.below(6) as i32
    }

    fn statements(&mut self, n: i32) {
        for _ in 0..n {
            if self.budget <= 0 {
                return;
            }
            self.budget -= 1;
            let r = self.rng.below(100);
            if r < 55 {
                self.alu();
            } else if r < 62 && self.depth < 3 {
                self.if_else();
            } else if r < 67 && self.depth < 3 && self.loops < 2 {
                self.bounded_loop();
            } else if r < 70 && self.loops > 0 {
                let c = self.cond();
                let j = if self.rng.below(3) == 0 {
                    "continue"
                } else {
                    "break"
                };
                self.jump_if(&c, j);
            } else if r < 80 {
                self.store_reg();
            } else if r < 88 {
                self.load_reg();
            } else {
                self.uniform();
            }
        }
    }

    /// A float for an output: a float value, or an integer or boolean converted or as bits.
    fn output_value(&mut self) -> String {
        let r = self.rng.below(10);
        if r < 6 || !self.ints() {
            self.pick(Ty::F)
        } else if r < 8 {
            let v = self.pick(Ty::I);
            self.def("32", &format!("i2f32 {v}"))
        } else {
            let v = self.pick(Ty::B);
            self.def("32", &format!("b2f32 {v}"))
        }
    }
}

/// Where the loop counters' declarations go.
const DECLS: &str = "@@decls@@";

/// One random shader of `kind`, in nir_print text (register form), from `rng`.
pub fn shader_text(rng: &mut Rng, kind: Kind) -> String {
    let budget = 4 + rng.below(40) as i32;
    let mut g = Gen {
        rng,
        kind,
        out: String::new(),
        next: 0,
        block: 0,
        indent: 1,
        vals: Vec::new(),
        regs: Vec::new(),
        budget,
        depth: 0,
        loops: 0,
        zero: String::new(),
        uniforms_used: 0,
        decls: String::new(),
    };
    g.new_block();
    g.zero = g.def("32", "load_const (0x00000000)");
    g.line(DECLS);
    let mut tail = String::new();
    match kind {
        Kind::IntelFs => {
            let bary = g.def("32x2", "@load_barycentric_pixel () (interp_mode=1)");
            let zero = g.zero.clone();
            let v = g.def(
                "32x4",
                &format!("@load_interpolated_input ({bary}, {zero}) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)"),
            );
            g.components(&v, Ty::F);
        }
        Kind::IntelCs => {
            let idx = g.def("32", "@load_local_invocation_index () ()");
            let sixteen = g.def("32", "load_const (0x00000010)");
            let off = g.def("32", &format!("imul {idx}, {sixteen}"));
            let zero = g.zero.clone();
            let v = g.def(
                "32x4",
                &format!("@load_ssbo ({zero}, {off}) (access=none, align_mul=16, align_offset=0)"),
            );
            g.push(idx, Ty::I);
            g.components(&v, Ty::I);
            tail = off;
        }
        Kind::Etna { .. } => {
            let zero = g.zero.clone();
            let v = g.def(
                "32x4",
                &format!("@load_input ({zero}) (base=0, range=1, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)"),
            );
            g.components(&v, Ty::F);
        }
    }
    // A few registers carry values across control flow, each set before any branch.
    let nregs = 1 + g.rng.below(3);
    for _ in 0..nregs {
        let ty = if g.ints() {
            *g.rng.pick(&[Ty::F, Ty::I, Ty::B])
        } else {
            *g.rng.pick(&[Ty::F, Ty::B])
        };
        let r = g.fresh();
        g.line(&format!(
            "32    {r} = @decl_reg () (num_components=1, num_array_elems=0, bit_size=32, divergent=1)"
        ));
        let v = g.pick(ty);
        g.line(&format!(
            "@store_reg ({v}, {r}) (base=0, wrmask=x, legacy_fsat=0)"
        ));
        g.regs.push((r, ty));
    }
    g.statements(budget);
    // The registers' final values feed the outputs too.
    for k in 0..g.regs.len() {
        let (r, ty) = g.regs[k].clone();
        let d = g.def(
            "32",
            &format!("@load_reg ({r}) (base=0, legacy_fabs=0, legacy_fneg=0)"),
        );
        g.push(d, ty);
    }
    match kind {
        Kind::IntelCs => {
            let comps: Vec<String> = (0..4)
                .map(|_| {
                    if g.rng.bool() {
                        g.pick(Ty::I)
                    } else {
                        g.pick(Ty::F)
                    }
                })
                .collect();
            let v = g.def("32x4", &format!("vec4 {}", comps.join(", ")));
            let zero = g.zero.clone();
            g.line(&format!(
                "@store_ssbo ({v}, {zero}, {tail}) (wrmask=xyzw, access=none, align_mul=16, align_offset=0)"
            ));
        }
        _ => {
            let comps: Vec<String> = (0..4).map(|_| g.output_value()).collect();
            let v = g.def("32x4", &format!("vec4 {}", comps.join(", ")));
            if kind == Kind::IntelFs {
                let zero = g.zero.clone();
                g.line(&format!(
                    "@store_output ({v}, {zero}) (base=4, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1, xfb(), xfb2())"
                ));
            } else {
                let d = g.def("32", "deref_var &gl_FragColor (shader_out vec4)");
                g.line(&format!(
                    "@store_deref ({d}, {v}) (wrmask=xyzw, access=none)"
                ));
            }
        }
    }
    g.end_block();
    let end = g.block;
    g.line(&format!("block b{end}:"));
    let body = std::mem::take(&mut g.out).replacen(&format!("    {DECLS}\n"), &g.decls, 1);
    let header = match kind {
        Kind::IntelFs => "shader: MESA_SHADER_FRAGMENT\nname: gen\nnum_ubos: 1\ninputs: 1\noutputs: 1\n\
             uniforms: 0\n\
             decl_var shader_in INTERP_MODE_SMOOTH none vec4 v (VARYING_SLOT_VAR0.xyzw, 0, 0)\n\
             decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 4, 0)\n"
            .to_string(),
        Kind::IntelCs => "shader: MESA_SHADER_COMPUTE\nname: gen\nworkgroup_size: 16, 1, 1\n\
             shared_size: 0\nnum_ubos: 1\ninputs: 0\noutputs: 0\nuniforms: 0\n"
            .to_string(),
        Kind::Etna { .. } => format!(
            "shader: MESA_SHADER_FRAGMENT\nname: gen\ninputs: 1\noutputs: 1\nuniforms: {}\n\
             decl_var uniform INTERP_MODE_NONE none vec4[4] u (0, 0, 0)\n\
             decl_var shader_in INTERP_MODE_NONE none vec4 color (VARYING_SLOT_VAR0.xyzw, 0, 0)\n\
             decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)\n",
            4
        ),
    };
    format!("{header}decl_function main (0 params)\n\nimpl main {{\n{body}}}\n")
}
