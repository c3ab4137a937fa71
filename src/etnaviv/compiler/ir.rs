//! The backend IR: Vivante instructions over *values* rather than registers.
//!
//! A value is what the register allocator colours: an SSA def, a phi's variable, an input,
//! an output register, or a temporary a lowering needed. Operands address a value's own
//! components (0..width); only after allocation do they become physical swizzles, through the
//! component set of the virtual register type chosen for the value (see [`super::regs`]).
//!
//! Keeping operands in value space until the end is what makes re-swizzling exact: every
//! instruction says how its channels relate to its sources ([`Shape`]), and emission derives
//! the physical write mask and swizzles from that relation and the allocated types.

use crate::etnaviv::isa::{Cond, DataType, Opcode};

/// What one component of a uniform slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UniformContent {
    Unused,
    /// Component `index` of the application's uniforms (`4 * slot + component` in its
    /// layout). Slots of the application's own layout hold `User(4 * slot + c)` in
    /// component `c`; other slots may gather components from anywhere (see
    /// [`Uniforms::place`](super::consts::Uniforms::place)).
    User(u32),
    /// A constant (raw bits).
    Const(u32),
    /// 1/width (component 0) or 1/height (component 1) of a texture unit's level 0.
    TextureScale {
        unit: u32,
        comp: u8,
    },
    /// Width (component 0), height (1) or depth (2) of the texture at a unit, as an integer
    /// (Mesa's `ETNA_UNIFORM_TEXTURE_WIDTH`/`_HEIGHT`/`_DEPTH`, read by
    /// `load_texture_size_etna`: the base level of the view; the depth is the layer count of
    /// an array texture).
    TextureSize {
        unit: u32,
        comp: u8,
    },
    /// The GPU address of uniform buffer `n`, which LOAD adds to its byte offset (Mesa's
    /// `ETNA_UNIFORM_UBO0_ADDR + n`; buffer 0 is the default uniform block).
    UboAddress(u32),
}

/// Dense value id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

impl ValueId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why a value exists; decides its register class and any fixed placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// An ordinary result; its class follows its width.
    Temp,
    /// A shader input, living in a fixed whole register from the start.
    Input { reg: u8 },
    /// An output: a whole register that the driver reads after the shader ends.
    Output,
    /// The two-part result of a fast transcendental: a contiguous XY or ZW pair.
    Pair,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    pub width: u8,
    pub kind: ValueKind,
}

/// What an operand reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OperandKind {
    /// Components of a value: `swz[c]` is the value component channel `c` reads.
    Value(ValueId),
    /// A fixed temporary (the fragment position in t0); `swz` is physical.
    Fixed(u8),
    /// A fixed internal register (the front-facing bit in i0); `swz` is physical.
    Internal(u8),
    /// A uniform slot; `swz` is physical.
    Uniform(u32),
    /// The uniform slot `base + a.x` (indirect access); `swz` is physical.
    UniformRel(u32),
    /// A 20-bit immediate (HALTI2+), the same in every channel; `swz` is unused.
    Imm(crate::etnaviv::isa::Imm),
    /// What the compiler places in the uniform file, per channel (`vals[c]` is what channel
    /// `c` reads): constants, and components of the application's uniforms read at
    /// constant offsets. Placement happens at emission, where the components one
    /// instruction or one vector gathers from scattered slots can share a slot of their own
    /// (as Mesa's etnaviv treats uniforms like immediates), instead of a MOV per component;
    /// `swz` is unused.
    Const([UniformContent; 4]),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Operand {
    pub kind: OperandKind,
    pub swz: [u8; 4],
    pub neg: bool,
    pub abs: bool,
}

impl Operand {
    pub fn value(v: ValueId, swz: [u8; 4]) -> Operand {
        Operand {
            kind: OperandKind::Value(v),
            swz,
            neg: false,
            abs: false,
        }
    }
    pub fn konst(vals: [u32; 4]) -> Operand {
        Operand {
            kind: OperandKind::Const(vals.map(UniformContent::Const)),
            swz: [0, 1, 2, 3],
            neg: false,
            abs: false,
        }
    }
    /// A constant read by every channel.
    pub fn splat(bits: u32) -> Operand {
        Operand::konst([bits; 4])
    }
    /// The constant bits of each channel, when every channel reads a constant (rather than
    /// a user uniform).
    pub fn const_bits(&self) -> Option<[u32; 4]> {
        let OperandKind::Const(cells) = self.kind else {
            return None;
        };
        let mut bits = [0; 4];
        for (b, cell) in bits.iter_mut().zip(cells) {
            let UniformContent::Const(v) = cell else {
                return None;
            };
            *b = v;
        }
        Some(bits)
    }
    pub fn negated(mut self) -> Operand {
        self.neg = !self.neg;
        self
    }
    /// The same operand with channel `c` reading what channel `map[c]` read before.
    pub fn remap(mut self, map: [u8; 4]) -> Operand {
        let old = self;
        for c in 0..4 {
            let from = map[c] as usize;
            self.swz[c] = old.swz[from];
            if let OperandKind::Const(v) = old.kind {
                if let OperandKind::Const(n) = &mut self.kind {
                    n[c] = v[from];
                }
            }
        }
        self
    }
}

/// How an instruction's channels relate to its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Channel `c` of every source feeds destination component `c` (most ALU ops; a texture
    /// sample, whose result channel `c` is colour component `c`).
    Aligned,
    /// The instruction reads source channels `0..n` and writes one result to every enabled
    /// destination component (dot products, the scalar transcendentals, branch and kill
    /// conditions).
    Broadcast(u8),
    /// A texture sample: sources are read positionally (coordinate in src0, LOD in src1.x),
    /// and result channel `c` is colour component `c`, routed by the texture swizzle.
    Texture,
}

/// A branch target, resolved to an instruction index at emission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Label(pub u32);

#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub op: Opcode,
    pub cond: Cond,
    pub sat: bool,
    pub ty: DataType,
    /// The value written and the mask over its components.
    pub dst: Option<(ValueId, u8)>,
    /// Operands at their hardware slots (src0, src1, src2).
    pub src: [Option<Operand>; 3],
    pub shape: Shape,
    /// Sampler unit of texture instructions.
    pub sampler: u8,
    /// Texture instructions: the colour component each destination component takes
    /// (identity unless the result was retargeted into a vector's channels).
    pub tex_swz: [u8; 4],
    pub target: Option<Label>,
    /// Components of the address register written (MOVAR/MOVAI), instead of `dst`.
    pub addr_mask: u8,
}

impl Instr {
    /// The channels of source `slot` the hardware actually reads, in value space (see
    /// [`Shape`]); the others may hold anything.
    pub fn used_channels(&self, slot: usize) -> u8 {
        match self.shape {
            Shape::Aligned => self.dst.map_or(0xf, |d| d.1),
            Shape::Broadcast(n) => (1u8 << n) - 1,
            Shape::Texture if slot == 0 => 0xf,
            Shape::Texture => 1,
        }
    }

    /// Makes this instruction, which writes components of some value, write instead the
    /// channels `map[j]` of `d` for each component `j` it wrote (several channels: the
    /// component is computed in each; none: it is no longer computed). A component-wise
    /// instruction takes its sources' channels along, a texture sample routes the colour
    /// component through its texture swizzle, and a broadcast one writes its one result
    /// anywhere. Returns whether the instruction still writes anything; one that does not
    /// should be dropped.
    pub fn retarget(&mut self, d: ValueId, map: [u8; 4]) -> bool {
        let Some((_, m)) = self.dst else {
            return false;
        };
        let nm = (0..4)
            .filter(|j| m & (1 << j) != 0)
            .fold(0u8, |nm, j| nm | map[j]);
        if nm == 0 {
            return false;
        }
        // For channel c of `d`, the component j it takes.
        let from = |c: usize| {
            (0..4)
                .find(|&j| m & (1 << j) != 0 && map[j] & (1 << c) != 0)
                .unwrap_or(0)
        };
        match self.shape {
            Shape::Aligned => {
                for op in self.src.iter_mut().flatten() {
                    let old = *op;
                    for c in (0..4).filter(|c| nm & (1 << c) != 0) {
                        let j = from(c);
                        op.swz[c] = old.swz[j];
                        if let (OperandKind::Const(nv), OperandKind::Const(ov)) =
                            (&mut op.kind, old.kind)
                        {
                            nv[c] = ov[j];
                        }
                    }
                    // Channels nothing reads repeat a read one.
                    let first = nm.trailing_zeros() as usize;
                    for c in (0..4).filter(|c| nm & (1 << c) == 0) {
                        op.swz[c] = op.swz[first];
                        if let OperandKind::Const(nv) = &mut op.kind {
                            nv[c] = nv[first];
                        }
                    }
                }
            }
            Shape::Texture => {
                let old = self.tex_swz;
                for c in (0..4).filter(|c| nm & (1 << c) != 0) {
                    self.tex_swz[c] = old[from(c)];
                }
            }
            Shape::Broadcast(_) => {}
        }
        self.dst = Some((d, nm));
        true
    }

    pub fn new(op: Opcode, shape: Shape) -> Instr {
        Instr {
            op,
            cond: Cond::True,
            sat: false,
            ty: DataType::F32,
            dst: None,
            src: [None; 3],
            shape,
            sampler: 0,
            tex_swz: [0, 1, 2, 3],
            target: None,
            addr_mask: 0,
        }
    }
}

/// One position of the program: an instruction or a label.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Instr(Instr),
    Label(Label),
}

/// A whole lowered program, ready for allocation.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub values: Vec<Value>,
    pub items: Vec<Item>,
    pub labels: u32,
    pub loops: u32,
}

impl Program {
    pub fn new_value(&mut self, width: u8, kind: ValueKind) -> ValueId {
        self.values.push(Value { width, kind });
        ValueId(self.values.len() as u32 - 1)
    }
    pub fn new_label(&mut self) -> Label {
        self.labels += 1;
        Label(self.labels - 1)
    }
    pub fn push(&mut self, i: Instr) {
        self.items.push(Item::Instr(i));
    }
    pub fn place(&mut self, l: Label) {
        self.items.push(Item::Label(l));
    }
    pub fn instrs(&self) -> impl Iterator<Item = &Instr> {
        self.items.iter().filter_map(|i| match i {
            Item::Instr(i) => Some(i),
            Item::Label(_) => None,
        })
    }
}
