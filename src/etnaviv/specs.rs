//! Vivante GC cores: identity, feature words and the facts the compiler derives from them.
//!
//! The kernel reports a core as model, revision and thirteen 32-bit feature words
//! (`chipFeatures`, then `chipMinorFeatures0..11`), read from the core or, for cores whose
//! registers are unreliable, from `etnaviv_hwdb.c`. Mesa turns those words into the handful of
//! facts its shader compiler needs (HALTI level, which opcodes exist, limits, memory layout);
//! [`Specs`] repeats that derivation so the same words give the same compiler decisions here.
//!
//! Sources for the tables: the kernel's `etnaviv_hwdb.c` (GC400 r4652, GC7000 r6214) and
//! Mesa 23.3's drm-shim (`src/etnaviv/drm-shim/etnaviv_noop.c`: GC2000 r5108, GC3000 r5450),
//! which replays what those cores report. Cores whose kernel interface only exposes the first
//! eight words leave the later ones zero, as the kernel does.
//!
//! The four tables are presets, not the only cores: [`Specs::from_params`] makes a target of any
//! core from the values its kernel reports (the preset itself when they are equal), see
//! [`super::params`].

use std::sync::{Mutex, MutexGuard};

pub use super::features::{bit, word};
pub use super::params::{CoreError, CoreParams, MAX_CUSTOM_CORES};

/// Register-file addresses of the uniform banks (rnndb `state.xml`, `state_3d.xml`).
mod state {
    pub const VS_UNIFORMS: u32 = 0x5000;
    pub const PS_UNIFORMS: u32 = 0x7000;
    pub const SH_UNIFORMS: u32 = 0x30000;
    pub const SH_HALTI5_UNIFORMS_MIRROR: u32 = 0x34000;
    pub const SH_HALTI5_UNIFORMS: u32 = 0x36000;
}

/// One GC core as the kernel describes it; every compiler-relevant fact is a method derived
/// from these raw values, so a new core needs only its kernel-reported numbers
/// ([`Specs::from_params`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Specs {
    /// Target name: a preset's lower-case model name (`gc2000`), or for a core built from its
    /// values the name [`CoreParams::custom_name`] gives it (`gc2000-r5108-1a2b3c4d`).
    pub name: &'static str,
    /// `chipModel`, e.g. 0x3000 for GC3000.
    pub model: u32,
    /// `chipRevision`, e.g. 0x5450.
    pub revision: u32,
    /// `chipFeatures` followed by `chipMinorFeatures0..11`.
    pub features: [u32; 13],
    /// Temporary registers per thread (`REGISTER_MAX`); the allocator uses at most
    /// [`MAX_TEMPS`] of them ([`Specs::temp_count`]).
    pub register_max: u32,
    /// Instruction memory size the kernel reports (`INSTRUCTION_COUNT`).
    pub instruction_count: u32,
    /// Uniform (constant) vec4 slots the kernel reports (`NUM_CONSTANTS`).
    pub num_constants: u32,
    /// Varyings the kernel reports (`NUM_VARYINGS`).
    pub num_varyings: u32,
    /// Threads the core runs (`THREAD_COUNT`); no compiler fact depends on it.
    pub thread_count: u32,
    /// Shader cores (`SHADER_CORE_COUNT`); no compiler fact depends on it.
    pub shader_core_count: u32,
    /// Pixel pipes (`PIXEL_PIPES`); no compiler fact depends on it.
    pub pixel_pipes: u32,
}

/// The most temporaries any Vivante core has, and the most Mesa's register allocator hands out
/// whatever `register_max` says (`ETNA_MAX_TEMPS` in etnaviv_compiler.h).
pub const MAX_TEMPS: u32 = 64;

/// Where the shader instructions of each stage live and how many fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstructionMemory {
    /// Shaders are fetched from memory through an instruction cache.
    pub has_icache: bool,
    /// Instructions that fit in the state registers (0: shaders must be loaded from memory).
    pub max_instructions: u32,
    /// State address of the VS instruction window (0 when shaders are only cached).
    pub vs_offset: u32,
    /// State address of the PS instruction window.
    pub ps_offset: u32,
}

/// Uniform bank sizes and addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniformLimits {
    pub max_vs_uniforms: u32,
    pub max_ps_uniforms: u32,
    /// VS and PS share one uniform memory (PS uniforms start after the VS ones).
    pub unified: bool,
    pub vs_offset: u32,
    pub ps_offset: u32,
}

impl UniformLimits {
    /// The uniform slots a fragment (`fragment`) or vertex shader may use.
    pub fn max_for(&self, fragment: bool) -> u32 {
        if fragment {
            self.max_ps_uniforms
        } else {
            self.max_vs_uniforms
        }
    }
}

/// Sampler counts; vertex samplers follow the fragment ones in one address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerLimits {
    pub fragment_count: u32,
    pub vertex_count: u32,
    /// Sampler index of vertex sampler 0.
    pub vertex_offset: u32,
}

static CORES: [Specs; 4] = [
    Specs {
        name: "gc400",
        model: 0x400,
        revision: 0x4652,
        features: [
            0xa0e9_e004,
            0xe129_9fff,
            0xbe13_b219,
            0xce11_0010,
            0x0800_0001,
            0x0002_0102,
            0x0012_0000,
            0,
            0,
            0,
            0,
            0,
            0,
        ],
        register_max: 64,
        instruction_count: 256,
        num_constants: 320,
        num_varyings: 8,
        thread_count: 128,
        shader_core_count: 1,
        pixel_pipes: 1,
    },
    Specs {
        name: "gc2000",
        model: 0x2000,
        revision: 0x5108,
        features: [
            0xe029_6cad,
            0xc979_9eff,
            0x2efb_f2d9,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        ],
        register_max: 64,
        instruction_count: 512,
        num_constants: 168,
        num_varyings: 11,
        thread_count: 1024,
        shader_core_count: 4,
        pixel_pipes: 2,
    },
    Specs {
        name: "gc3000",
        model: 0x3000,
        revision: 0x5450,
        features: [
            0xe028_7cad,
            0xc979_9efb,
            0xfefb_fadb,
            0xeb9d_4bbf,
            0xedff_dced,
            0x930d_2f47,
            0x1000_0133,
            0,
            0,
            0,
            0,
            0,
            0,
        ],
        register_max: 64,
        instruction_count: 256,
        num_constants: 320,
        num_varyings: 16,
        thread_count: 1024,
        shader_core_count: 4,
        pixel_pipes: 2,
    },
    Specs {
        name: "gc7000",
        model: 0x7000,
        revision: 0x6214,
        features: [
            0xe028_7cad,
            0xc179_9eff,
            0xfefb_fad9,
            0xeb9d_4fbf,
            0xedff_fced,
            0xdb0d_afc7,
            0xbb5a_c333,
            0xfc8e_e200,
            0x03fb_fa6f,
            0x00ef_0ef0,
            0x0edb_f03c,
            0x9004_4250,
            0x0000_0024,
        ],
        register_max: 64,
        instruction_count: 512,
        num_constants: 320,
        num_varyings: 16,
        thread_count: 1024,
        shader_core_count: 4,
        pixel_pipes: 2,
    },
];

impl Specs {
    /// The core named `name` (case-insensitive; "gc7000l" is accepted for gc7000): a preset,
    /// or a custom core this process has made with [`Specs::from_params`] (its values are not
    /// in its name, so another process does not know it by name).
    pub fn from_name(name: &str) -> Option<&'static Specs> {
        let lower = name.to_ascii_lowercase();
        let key = if lower == "gc7000l" {
            "gc7000"
        } else {
            lower.as_str()
        };
        CORES
            .iter()
            .find(|s| s.name == key)
            .or_else(|| custom_table().by_name(key))
    }

    /// The target for a core given by its values (as the kernel reports them): the preset
    /// whose values are all equal, else the process's one custom core with these values, made
    /// on first use and named as [`CoreParams::custom_name`] says. Values the compiler cannot
    /// target are refused naming the field ([`CoreParams::validate`]).
    pub fn from_params(p: &CoreParams) -> Result<&'static Specs, CoreError> {
        p.validate()?;
        if let Some(preset) = CORES.iter().find(|s| s.params() == *p) {
            return Ok(preset);
        }
        custom_table().intern(p)
    }

    /// The raw values of this core.
    pub fn params(&self) -> CoreParams {
        CoreParams {
            model: self.model,
            revision: self.revision,
            features: self.features,
            register_max: self.register_max,
            instruction_count: self.instruction_count,
            num_constants: self.num_constants,
            num_varyings: self.num_varyings,
            thread_count: self.thread_count,
            shader_core_count: self.shader_core_count,
            pixel_pipes: self.pixel_pipes,
        }
    }

    /// Whether this is one of the named presets (not a core made from values).
    pub fn is_preset(&self) -> bool {
        CORES.iter().any(|s| std::ptr::eq(s, self))
    }

    /// How many distinct custom cores this process has made so far.
    pub fn custom_count() -> usize {
        custom_table().len()
    }

    /// The core the kernel identifies by model and revision, if gpucc has its table.
    pub fn from_model(model: u32, revision: u32) -> Option<&'static Specs> {
        CORES
            .iter()
            .find(|s| s.model == model && s.revision == revision)
    }

    /// The preset names (custom cores are not listed).
    pub fn names() -> Vec<&'static str> {
        CORES.iter().map(|s| s.name).collect()
    }

    /// The presets.
    pub fn all() -> &'static [Specs] {
        &CORES
    }

    fn has(&self, w: usize, b: u32) -> bool {
        self.features[w] & b != 0
    }

    /// HALTI level (-1: pre-HALTI), the highest of the HALTI feature bits, as Mesa ranks them.
    pub fn halti(&self) -> i32 {
        use bit::*;
        use word::*;
        if self.has(MINOR5, MINOR5_HALTI5) {
            5
        } else if self.has(MINOR5, MINOR5_HALTI4) {
            4
        } else if self.has(MINOR5, MINOR5_HALTI3) {
            3
        } else if self.has(MINOR4, MINOR4_HALTI2) {
            2
        } else if self.has(MINOR2, MINOR2_HALTI1) {
            1
        } else if self.has(MINOR1, MINOR1_HALTI0) {
            0
        } else {
            -1
        }
    }

    /// SIN, COS and SQRT exist (otherwise they are lowered).
    pub fn has_sin_cos_sqrt(&self) -> bool {
        self.has(word::MINOR0, bit::MINOR0_HAS_SQRT_TRIG)
    }

    /// SIGN, FLOOR and CEIL exist.
    pub fn has_sign_floor_ceil(&self) -> bool {
        self.has(word::MINOR0, bit::MINOR0_HAS_SIGN_FLOOR_CEIL)
    }

    /// Fast transcendentals: SIN/COS/LOG/DIV write two components (x: value, y: scale) that a
    /// following MUL combines; older cores write the final value.
    pub fn has_new_transcendentals(&self) -> bool {
        self.has(word::MINOR3, bit::MINOR3_HAS_FAST_TRANSCENDENTALS)
    }

    /// The HALTI2 instruction set extensions (integer ops, immediates in sources, ...).
    pub fn has_halti2_instructions(&self) -> bool {
        self.has(word::MINOR4, bit::MINOR4_HALTI2)
    }

    /// Native integer support in shaders, which Mesa exposes from HALTI2 on.
    pub fn has_integers(&self) -> bool {
        self.halti() >= 2
    }

    /// An instruction may read at most one distinct uniform register.
    pub fn has_one_const_limit(&self) -> bool {
        !self.has(word::MINOR8, bit::MINOR8_SH_NO_ONECONST_LIMIT)
    }

    /// Temporaries the register allocator may use: `register_max`, at most [`MAX_TEMPS`]
    /// (Mesa allocates from 64 and then refuses a shader needing more than `register_max`).
    pub fn temp_count(&self) -> u32 {
        self.register_max.min(MAX_TEMPS)
    }

    /// texldb/texldl take their bias or LOD in coord.w rather than in src1 (pre-HALTI5).
    pub fn tex_lod_bias_in_coord_w(&self) -> bool {
        self.halti() < 5
    }

    pub fn instruction_memory(&self) -> InstructionMemory {
        if self.halti() >= 5 {
            InstructionMemory {
                has_icache: true,
                max_instructions: 0,
                vs_offset: 0,
                ps_offset: 0,
            }
        } else if self.has(word::MINOR3, bit::MINOR3_INSTRUCTION_CACHE) {
            // Register window of 2×256 like GC2000, reached through the 0x8000 mirror for PS.
            InstructionMemory {
                has_icache: true,
                max_instructions: 256,
                vs_offset: 0xC000,
                ps_offset: 0x9000,
            }
        } else if self.instruction_count > 256 {
            InstructionMemory {
                has_icache: false,
                max_instructions: 256,
                vs_offset: 0xC000,
                ps_offset: 0xD000,
            }
        } else {
            InstructionMemory {
                has_icache: false,
                max_instructions: self.instruction_count,
                vs_offset: 0x4000,
                ps_offset: 0x6000,
            }
        }
    }

    /// Uniform counts follow the Vivante kernel's gcmCONFIGUREUNIFORMS table as Mesa copies it.
    pub fn uniform_limits(&self) -> UniformLimits {
        let n = self.num_constants;
        let gc2000_early = self.model == 0x2000 && matches!(self.revision, 0x5118 | 0x5140);
        let (vs, ps) = if gc2000_early || n == 320 || (n > 256 && self.model == 0x1000) {
            (256, 64)
        } else if n >= 256 {
            (256, 256)
        } else {
            (168, 64)
        };
        let halti = self.halti();
        let (unified, vs_offset, ps_offset) = if halti >= 5 {
            (
                true,
                state::SH_HALTI5_UNIFORMS_MIRROR,
                state::SH_HALTI5_UNIFORMS + 16 * vs,
            )
        } else if halti >= 1 {
            (true, state::SH_UNIFORMS, state::SH_UNIFORMS + 16 * vs)
        } else {
            (false, state::VS_UNIFORMS, state::PS_UNIFORMS)
        };
        UniformLimits {
            max_vs_uniforms: vs,
            max_ps_uniforms: ps,
            unified,
            vs_offset,
            ps_offset,
        }
    }

    pub fn sampler_limits(&self) -> SamplerLimits {
        let (fragment_count, mut vertex_count, vertex_offset) = if self.halti() >= 1 {
            (16, 16, 16)
        } else {
            (8, 4, 8)
        };
        if self.model == 0x400 {
            vertex_count = 0;
        }
        SamplerLimits {
            fragment_count,
            vertex_count,
            vertex_offset,
        }
    }
}

/// A [`CoreParams`] from a preset (the command line's form of a custom core), and the
/// [`Specs`] of a value set: here rather than in [`super::params`] because both need the
/// presets' table or the type derived from the values, which the values themselves do not.
impl CoreParams {
    /// A core written as a preset with some values changed, the command line's form:
    /// `gc2000:instruction_count=128,features4=0x8` (values decimal or `0x` hex). The values
    /// are not checked here ([`Specs::from_params`] does).
    pub fn from_description(text: &str) -> Result<CoreParams, String> {
        let (base, changes) = text
            .split_once(':')
            .ok_or_else(|| format!("'{text}' is no core description (PRESET:FIELD=VALUE,...)"))?;
        let mut p = Specs::from_name(base)
            .filter(|s| s.is_preset())
            .ok_or_else(|| {
                format!(
                    "'{base}' in '{text}' is no Vivante preset; presets: {}",
                    Specs::names().join(", ")
                )
            })?
            .params();
        for change in changes.split(',').filter(|c| !c.trim().is_empty()) {
            let (field, value) = change
                .split_once('=')
                .ok_or_else(|| format!("'{change}' in '{text}' is not FIELD=VALUE"))?;
            let (field, value) = (field.trim(), value.trim());
            let parsed = match value
                .strip_prefix("0x")
                .or_else(|| value.strip_prefix("0X"))
            {
                Some(hex) => u32::from_str_radix(hex, 16),
                None => value.parse::<u32>(),
            }
            .map_err(|_| {
                format!("value '{value}' of {field} in '{text}' is not a 32-bit number")
            })?;
            if !p.set(field, parsed) {
                return Err(format!(
                    "'{field}' in '{text}' is no core value; values: {}",
                    Self::FIELD_NAMES.join(", ")
                ));
            }
        }
        Ok(p)
    }

    fn to_specs(self, name: &'static str) -> Specs {
        Specs {
            name,
            model: self.model,
            revision: self.revision,
            features: self.features,
            register_max: self.register_max,
            instruction_count: self.instruction_count,
            num_constants: self.num_constants,
            num_varyings: self.num_varyings,
            thread_count: self.thread_count,
            shader_core_count: self.shader_core_count,
            pixel_pipes: self.pixel_pipes,
        }
    }
}

/// Interned custom cores: each entry leaked once and never freed, at most `limit` of them.
pub(crate) struct CoreTable {
    cores: Vec<&'static Specs>,
    limit: usize,
}

impl CoreTable {
    pub(crate) const fn new(limit: usize) -> CoreTable {
        CoreTable {
            cores: Vec::new(),
            limit,
        }
    }

    /// The entry for `params` (already validated and no preset), made on first use.
    pub(crate) fn intern(&mut self, params: &CoreParams) -> Result<&'static Specs, CoreError> {
        if let Some(s) = self.cores.iter().find(|s| s.params() == *params) {
            return Ok(s);
        }
        let name = params.custom_name();
        if self.cores.iter().any(|s| s.name == name) {
            return Err(CoreError::NameClash(name));
        }
        if self.cores.len() >= self.limit {
            return Err(CoreError::TableFull);
        }
        let specs: &'static Specs = Box::leak(Box::new(params.to_specs(name.leak())));
        self.cores.push(specs);
        Ok(specs)
    }

    pub(crate) fn by_name(&self, name: &str) -> Option<&'static Specs> {
        self.cores
            .iter()
            .copied()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    pub(crate) fn len(&self) -> usize {
        self.cores.len()
    }
}

static CUSTOM: Mutex<CoreTable> = Mutex::new(CoreTable::new(MAX_CUSTOM_CORES));

/// The process-wide table. Nothing panics while holding it, but a poisoned lock still holds a
/// consistent table (entries are pushed whole), so poisoning is ignored.
pub(crate) fn custom_table() -> MutexGuard<'static, CoreTable> {
    CUSTOM.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn core(model: u32, register_max: u32) -> CoreParams {
        let mut p = Specs::from_name("gc2000").unwrap().params();
        p.model = model;
        p.register_max = register_max;
        p
    }

    #[test]
    fn a_full_table_refuses_new_cores_but_finds_old_ones() {
        let mut t = CoreTable::new(2);
        let a = t.intern(&core(0x880, 32)).unwrap();
        let b = t.intern(&core(0x880, 16)).unwrap();
        assert_eq!(t.intern(&core(0x880, 8)), Err(CoreError::TableFull));
        assert!(std::ptr::eq(t.intern(&core(0x880, 32)).unwrap(), a));
        assert!(std::ptr::eq(t.by_name(b.name).unwrap(), b));
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn a_fingerprint_clash_keeps_the_first_core() {
        let mut t = CoreTable::new(4);
        let first = core(0x880, 32);
        t.intern(&first).unwrap();
        // Forge an entry that claims the name of a different value set.
        let other = core(0x880, 16);
        let forged: &'static Specs =
            Box::leak(Box::new(first.to_specs(other.custom_name().leak())));
        t.cores.push(forged);
        assert_eq!(
            t.intern(&other),
            Err(CoreError::NameClash(other.custom_name()))
        );
    }
}
