//! The feature words a Vivante kernel reports for a core (`DRM_ETNAVIV_PARAM_GPU_FEATURES_*`)
//! and the bits of them the compiler reads, named as rnndb names them. Both the kernel's value
//! set ([`super::params`]) and the derived [`super::specs::Specs`] read them.

/// Indices into the thirteen feature words ([`Specs::features`](super::specs::Specs::features)).
pub mod word {
    pub const FEATURES: usize = 0;
    pub const MINOR0: usize = 1;
    pub const MINOR1: usize = 2;
    pub const MINOR2: usize = 3;
    pub const MINOR3: usize = 4;
    pub const MINOR4: usize = 5;
    pub const MINOR5: usize = 6;
    pub const MINOR8: usize = 9;
}

/// Feature bits that the shader compiler looks at (rnndb `common.xml`).
pub mod bit {
    /// In chipFeatures: the core has a 3D pipe (Mesa's winsys drives only such cores).
    pub const FEATURES_PIPE_3D: u32 = 0x0000_0004;
    pub const MINOR0_HAS_SIGN_FLOOR_CEIL: u32 = 0x0001_0000;
    pub const MINOR0_HAS_SQRT_TRIG: u32 = 0x0010_0000;
    pub const MINOR1_HALTI0: u32 = 0x0080_0000;
    pub const MINOR2_HALTI1: u32 = 0x0000_0800;
    pub const MINOR3_INSTRUCTION_CACHE: u32 = 0x0000_0008;
    pub const MINOR3_HAS_FAST_TRANSCENDENTALS: u32 = 0x0000_4000;
    pub const MINOR4_HALTI2: u32 = 0x0001_0000;
    pub const MINOR5_HALTI3: u32 = 0x0000_0200;
    pub const MINOR5_HALTI4: u32 = 0x0000_4000;
    pub const MINOR5_HALTI5: u32 = 0x2000_0000;
    pub const MINOR8_SH_NO_ONECONST_LIMIT: u32 = 0x0004_0000;
}
