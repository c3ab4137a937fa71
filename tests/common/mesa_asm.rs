//! Mesa's assembly listings in the corpus (`corpus/mesa-asm/<platform>/*.asm`), split into
//! programs by the library's own listing reader (`gpucc::intel::fs::stats::listing`), for the
//! tests that run Mesa's code on the simulator.

use gpucc::intel::fs::stats::listing;

/// (SIMD width, assembly) of each program in a listing; a vec4 program has width
/// [`listing::VEC4`].
pub fn programs(text: &str) -> Vec<(u32, String)> {
    listing::parse(text)
        .unwrap_or_else(|e| panic!("listing line {}: {}", e.line, e.message))
        .into_iter()
        .map(|p| (p.simd, p.asm))
        .collect()
}

/// The assembly of the one vec4 program of a vertex-shader listing.
pub fn vec4_program(text: &str) -> String {
    let mut vec4 = programs(text)
        .into_iter()
        .filter(|(simd, _)| *simd == listing::VEC4);
    let (_, asm) = vec4.next().expect("a vec4 program in the listing");
    assert!(
        vec4.next().is_none(),
        "more than one vec4 program in the listing"
    );
    asm
}

/// The VUE slots Mesa's interleaved URB writes in a vec4 program's assembly cover: each
/// write's global offset (in rows of two slots) plus its data registers (one slot each), at
/// most. `None` when no URB write names its offset.
#[allow(dead_code)]
pub fn urb_slots_written(asm: &str) -> Option<u32> {
    let mut end = None;
    for line in asm.lines() {
        let Some(at) = line.find("urb MsgDesc: offset ") else {
            continue;
        };
        let rest = &line[at + "urb MsgDesc: offset ".len()..];
        let offset: u32 = rest.split(' ').next()?.parse().ok()?;
        let mlen: u32 = rest
            .split("mlen ")
            .nth(1)?
            .split(' ')
            .next()?
            .parse()
            .ok()?;
        end = end.max(Some(2 * offset + mlen - 1));
    }
    end
}
