//! The validator: the one-const rule and operand-use rules, per core.

use gpucc::etnaviv::isa::*;
use gpucc::etnaviv::specs::Specs;

fn check(core: &str, text: &str) -> Result<(), ValidationError> {
    let specs = Specs::from_name(core).unwrap();
    let p = assemble(specs, text).unwrap_or_else(|e| panic!("{e}"));
    validate_program(specs, &p)
}

#[test]
fn one_const_rule() {
    // Two different uniforms: refused where the limit applies, fine on GC7000.
    let two = "add t0, u0.xxxx, void, u1.xxxx";
    let e = check("gc3000", two).unwrap_err();
    assert!(e.message.contains("u0 and u1"), "{e}");
    assert!(check("gc2000", two).is_err());
    assert!(check("gc7000", two).is_ok());
    // Several components of one uniform are one read.
    assert!(check("gc3000", "mad t0, u3.xxxx, t1.xyzw, u3.yzwx").is_ok());
    // Three sources, two uniforms, one temp.
    assert!(check("gc2000", "mad t0, u3.xxxx, t1.xyzw, u4.xxxx").is_err());
}

#[test]
fn operand_use_rules() {
    let specs = Specs::from_name("gc3000").unwrap();
    // MOV reads only src2.
    let mut i = assemble_inst("mov t1, void, void, t2.xyzw").unwrap();
    assert!(validate(specs, &i).is_ok());
    i.src[0] = Src::temp(3, Swizzle::IDENTITY);
    assert!(validate(specs, &i).unwrap_err().contains("src0"));
    // A writing operation needs a destination with a non-empty mask.
    assert!(check("gc3000", "mov void, void, void, t2.xyzw").is_err());
    assert!(check("gc3000", "mov t1.____, void, void, t2.xyzw").is_err());
    // Registers beyond the 64 temporaries.
    let e = check("gc3000", "mov t70, void, void, t2.xyzw").unwrap_err();
    assert!(e.message.contains("64"), "{e}");
    // Texture ops and samplers.
    assert!(check("gc3000", "texld t1, tex15.xyzw, t2.xyzw, void, void").is_ok());
    // GC2000: fragment samplers 0..7, vertex samplers 8..11.
    assert!(check("gc2000", "texld t1, tex11.xyzw, t2.xyzw, void, void").is_ok());
    assert!(check("gc2000", "texld t1, tex12.xyzw, t2.xyzw, void, void").is_err());
    assert!(check("gc400", "texld t1, tex8.xyzw, t2.xyzw, void, void").is_err());
    // Branch targets stay inside the program.
    let e = check("gc3000", "branch void, void, void, 5").unwrap_err();
    assert!(e.message.contains("target"), "{e}");
    assert!(check("gc3000", "branch void, void, void, 1").is_ok());
}

#[test]
fn core_capabilities() {
    // Immediates and integer ops need HALTI2.
    assert!(check("gc2000", "add t0, t1.xxxx, void, 1.0:f20").is_err());
    assert!(check("gc3000", "add t0, t1.xxxx, void, 1.0:f20").is_ok());
    assert!(check("gc2000", "and.u32 t0, t1.xxxx, void, t2.xxxx").is_err());
    assert!(check("gc3000", "and.u32 t0, t1.xxxx, void, t2.xxxx").is_ok());
    // GC400 has FLOOR but no SIN.
    assert!(check("gc400", "floor t0, void, void, t1.xxxx").is_ok());
    assert!(check("gc400", "sin t0, void, void, t1.xxxx").is_err());
    // DIV only with fast transcendentals.
    assert!(check("gc2000", "div t0.xy__, void, t1.xxxx, t2.xxxx").is_err());
    assert!(check("gc3000", "div.rtz t0.xy__, void, t1.xxxx, t2.xxxx").is_ok());
}
