//! Mesa's assembly listings (what `INTEL_DEBUG=fs` prints and shared/corpus/mesa-asm holds):
//! one or more programs, each introduced by a statistics line such as
//! `SIMD16 shader: 5 instructions. 0 loops. 32 cycles. 0:0 spills:fills, 1 sends, ...`,
//! with basic-block annotations (`START B0 (24 cycles)`, `END B0 ->B1`) between the
//! instructions. This splits a listing into its programs and keeps Mesa's own figures, so
//! that Mesa's code can be assembled and measured with our estimator, and run by the tests
//! that check Mesa's own programs on the simulator. Gen4–Gen7 vec4 programs (`VS vec4 shader:
//! ...`, likewise GS, TCS, TES) have the same statistics after the stage word.

use crate::util::SourceError;

/// Mesa's figures from a program's statistics line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MesaFigures {
    pub instructions: u32,
    pub loops: u32,
    pub cycles: u32,
    pub spills: u32,
    pub fills: u32,
    pub sends: u32,
}

/// One program of a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// Dispatch width from the statistics line; [`VEC4`] for a vec4 (SIMD4x2) program.
    pub simd: u32,
    /// 1-based line of the statistics line in the listing.
    pub line: usize,
    /// Mesa's figures.
    pub mesa: MesaFigures,
    /// The program's assembly, annotations blanked. Line `n` of this text is line
    /// `line + n` of the listing, so assembler errors can be mapped back.
    pub asm: String,
}

/// The `simd` of a vec4 program: SIMD4x2, four components of two vertices (or primitives).
pub const VEC4: u32 = 4;

/// Splits `text` into its programs, scalar (`SIMD8 shader:`) and vec4 (`VS vec4 shader:`).
pub fn parse(text: &str) -> Result<Vec<Program>, SourceError> {
    let mut out: Vec<Program> = Vec::new();
    let mut current: Option<Program> = None;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("Native code for") || t.contains(" shader: ") {
            out.extend(current.take());
            if let Some(rest) = t.strip_prefix("SIMD") {
                let (simd, figures) = rest.split_once(" shader: ").unwrap_or((rest, ""));
                let simd = simd
                    .parse()
                    .ok()
                    .filter(|w| matches!(w, 8 | 16 | 32))
                    .ok_or_else(|| SourceError {
                        line: n + 1,
                        col: 1,
                        message: "expected SIMD8, SIMD16 or SIMD32".into(),
                    })?;
                current = Some(header(n + 1, simd, figures)?);
            } else if let Some((_, figures)) = t.split_once(" vec4 shader: ") {
                current = Some(header(n + 1, VEC4, figures)?);
            }
            continue;
        }
        let Some(p) = current.as_mut() else { continue };
        if !(t.starts_with("START B") || t.starts_with("END B")) {
            p.asm.push_str(line);
        }
        p.asm.push('\n');
    }
    out.extend(current);
    Ok(out)
}

/// Parses the figures after `shader: `: `5 instructions. 0 loops. 24 cycles. 0:0
/// spills:fills, 1 sends, ...`.
fn header(line: usize, simd: u32, figures: &str) -> Result<Program, SourceError> {
    let err = |message: String| SourceError {
        line,
        col: 1,
        message,
    };
    let words: Vec<&str> = figures.split_whitespace().collect();
    let num = |i: usize, what: &str| -> Result<u32, SourceError> {
        words.get(i).and_then(|w| w.parse().ok()).ok_or_else(|| {
            err(format!(
                "expected the number of {what} in the statistics line"
            ))
        })
    };
    let instructions = num(0, "instructions")?;
    let loops = num(2, "loops")?;
    let cycles = num(4, "cycles")?;
    let (spills, fills) = words
        .get(6)
        .and_then(|w| w.split_once(':'))
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .ok_or_else(|| err("expected `spills:fills` counts in the statistics line".into()))?;
    let sends = num(8, "sends")?;
    Ok(Program {
        simd,
        line,
        mesa: MesaFigures {
            instructions,
            loops,
            cycles,
            spills,
            fills,
            sends,
        },
        asm: String::new(),
    })
}
