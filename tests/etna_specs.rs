//! Core facts derived from the kernel's feature words, one test per core. Expected values are
//! worked out by hand from the feature bits (rnndb common.xml) and Mesa's rules
//! (etnaviv_screen.c); the comments show the bit that decides each one.

use gpucc::etnaviv::specs::*;

fn core(name: &str) -> &'static Specs {
    Specs::from_name(name).unwrap_or_else(|| panic!("{name}"))
}

#[test]
fn names_and_lookup() {
    assert_eq!(Specs::names(), vec!["gc400", "gc2000", "gc3000", "gc7000"]);
    assert_eq!(Specs::from_name("GC7000L").unwrap().revision, 0x6214);
    assert!(Specs::from_name("gc9999").is_none());
    assert_eq!(Specs::from_model(0x3000, 0x5450).unwrap().name, "gc3000");
    assert!(Specs::from_model(0x3000, 0x5451).is_none());
}

#[test]
fn gc400_r4652() {
    let s = core("gc400");
    // minor1 0xbe13b219 lacks HALTI0 (0x00800000); minor2 0xce110010 lacks HALTI1 (0x800).
    assert_eq!(s.halti(), -1);
    // minor0 0xe1299fff: bit 0x00100000 clear, bit 0x00010000 set.
    assert!(!s.has_sin_cos_sqrt());
    assert!(s.has_sign_floor_ceil());
    // minor3 0x08000001 lacks 0x4000 (fast transcendentals) and 0x8 (icache).
    assert!(!s.has_new_transcendentals());
    assert!(!s.has_halti2_instructions());
    assert!(!s.has_integers());
    assert!(s.has_one_const_limit());
    assert_eq!(s.temp_count(), 64);
    assert!(s.tex_lod_bias_in_coord_w());
    // 256 instructions, no icache: the small register windows.
    assert_eq!(
        s.instruction_memory(),
        InstructionMemory {
            has_icache: false,
            max_instructions: 256,
            vs_offset: 0x4000,
            ps_offset: 0x6000
        }
    );
    // 320 constants: 256 VS + 64 PS, separate banks.
    assert_eq!(
        s.uniform_limits(),
        UniformLimits {
            max_vs_uniforms: 256,
            max_ps_uniforms: 64,
            unified: false,
            vs_offset: 0x5000,
            ps_offset: 0x7000
        }
    );
    // Pre-HALTI1: 8 fragment samplers; GC400 has no vertex samplers.
    assert_eq!(
        s.sampler_limits(),
        SamplerLimits {
            fragment_count: 8,
            vertex_count: 0,
            vertex_offset: 8
        }
    );
}

#[test]
fn gc2000_r5108() {
    let s = core("gc2000");
    // minor1 0x2efbf2d9 has HALTI0 (digit 5 = f); minor2 reads 0.
    assert_eq!(s.halti(), 0);
    // minor0 0xc9799eff: 0x00100000 and 0x00010000 both set.
    assert!(s.has_sin_cos_sqrt());
    assert!(s.has_sign_floor_ceil());
    assert!(!s.has_new_transcendentals());
    assert!(!s.has_halti2_instructions());
    assert!(!s.has_integers());
    assert!(s.has_one_const_limit());
    assert!(s.tex_lod_bias_in_coord_w());
    // 512 instructions without icache: unified window at 0xC000/0xD000, 256 each.
    assert_eq!(
        s.instruction_memory(),
        InstructionMemory {
            has_icache: false,
            max_instructions: 256,
            vs_offset: 0xC000,
            ps_offset: 0xD000
        }
    );
    // 168 constants: 168 VS + 64 PS.
    let u = s.uniform_limits();
    assert_eq!(
        (u.max_vs_uniforms, u.max_ps_uniforms, u.unified),
        (168, 64, false)
    );
    assert_eq!(
        s.sampler_limits(),
        SamplerLimits {
            fragment_count: 8,
            vertex_count: 4,
            vertex_offset: 8
        }
    );
}

#[test]
fn gc3000_r5450() {
    let s = core("gc3000");
    // minor4 0x930d2f47 has HALTI2 (0x10000); minor5 0x10000133 has none of HALTI3/4/5.
    assert_eq!(s.halti(), 2);
    assert!(s.has_sin_cos_sqrt());
    assert!(s.has_sign_floor_ceil());
    // minor3 0xedffdced: 0x4000 set (fast transcendentals), 0x8 set (icache).
    assert!(s.has_new_transcendentals());
    assert!(s.has_halti2_instructions());
    assert!(s.has_integers());
    // minor8 is not reported by this core: the limit stays.
    assert!(s.has_one_const_limit());
    assert!(s.tex_lod_bias_in_coord_w());
    assert_eq!(
        s.instruction_memory(),
        InstructionMemory {
            has_icache: true,
            max_instructions: 256,
            vs_offset: 0xC000,
            ps_offset: 0x9000
        }
    );
    // Unified uniforms from HALTI1 on: PS after the 256 VS vec4s (0x30000 + 256*16).
    assert_eq!(
        s.uniform_limits(),
        UniformLimits {
            max_vs_uniforms: 256,
            max_ps_uniforms: 64,
            unified: true,
            vs_offset: 0x30000,
            ps_offset: 0x31000
        }
    );
    assert_eq!(
        s.sampler_limits(),
        SamplerLimits {
            fragment_count: 16,
            vertex_count: 16,
            vertex_offset: 16
        }
    );
}

#[test]
fn gc7000_r6214() {
    let s = core("gc7000");
    // minor5 0xbb5ac333 has HALTI5 (0x20000000).
    assert_eq!(s.halti(), 5);
    assert!(s.has_sin_cos_sqrt());
    assert!(s.has_sign_floor_ceil());
    assert!(s.has_new_transcendentals());
    assert!(s.has_halti2_instructions());
    assert!(s.has_integers());
    // minor8 0x00ef0ef0 has SH_NO_ONECONST_LIMIT (0x40000).
    assert!(!s.has_one_const_limit());
    // HALTI5 takes bias/lod in src1.
    assert!(!s.tex_lod_bias_in_coord_w());
    assert_eq!(
        s.instruction_memory(),
        InstructionMemory {
            has_icache: true,
            max_instructions: 0,
            vs_offset: 0,
            ps_offset: 0
        }
    );
    assert_eq!(
        s.uniform_limits(),
        UniformLimits {
            max_vs_uniforms: 256,
            max_ps_uniforms: 64,
            unified: true,
            vs_offset: 0x34000,
            ps_offset: 0x37000
        }
    );
    assert_eq!(
        s.sampler_limits(),
        SamplerLimits {
            fragment_count: 16,
            vertex_count: 16,
            vertex_offset: 16
        }
    );
}

#[test]
fn halti_ladder_from_synthetic_words() {
    // Each HALTI bit alone, on an otherwise empty core, gives its level.
    let base = Specs::from_name("gc400").unwrap().clone();
    let cases = [
        (word::MINOR1, bit::MINOR1_HALTI0, 0),
        (word::MINOR2, bit::MINOR2_HALTI1, 1),
        (word::MINOR4, bit::MINOR4_HALTI2, 2),
        (word::MINOR5, bit::MINOR5_HALTI3, 3),
        (word::MINOR5, bit::MINOR5_HALTI4, 4),
        (word::MINOR5, bit::MINOR5_HALTI5, 5),
    ];
    for (w, b, level) in cases {
        let mut s = base.clone();
        s.features = [0; 13];
        s.features[w] = b;
        assert_eq!(s.halti(), level);
    }
}
