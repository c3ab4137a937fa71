//! Mesa's assembly listings (what `INTEL_DEBUG=fs` prints and shared/corpus/mesa-asm holds):
//! one or more programs, each introduced by a statistics line such as
//! `SIMD16 shader: 5 instructions. 0 loops. 32 cycles. 0:0 spills:fills, 1 sends, ...`,
//! with basic-block annotations (`START B0 (24 cycles)`, `END B0 ->B1`) between the
//! instructions. This splits a listing into its programs and keeps Mesa's own figures, so
//! that Mesa's code can be assembled and measured with our estimator.

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
    /// Dispatch width from the statistics line.
    pub simd: u32,
    /// 1-based line of the statistics line in the listing.
    pub line: usize,
    /// Mesa's figures.
    pub mesa: MesaFigures,
    /// The program's assembly, annotations blanked. Line `n` of this text is line
    /// `line + n` of the listing, so assembler errors can be mapped back.
    pub asm: String,
}

/// Splits `text` into its SIMD programs. Programs of other kinds (Mesa's vec4 vertex
/// shaders) are skipped.
pub fn parse(text: &str) -> Result<Vec<Program>, SourceError> {
    let mut out: Vec<Program> = Vec::new();
    let mut current: Option<Program> = None;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("Native code for") || t.contains(" shader: ") {
            out.extend(current.take());
            if let Some(rest) = t.strip_prefix("SIMD") {
                current = Some(header(n + 1, rest)?);
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

/// Parses `8 shader: 5 instructions. 0 loops. 24 cycles. 0:0 spills:fills, 1 sends, ...`.
fn header(line: usize, rest: &str) -> Result<Program, SourceError> {
    let err = |message: String| SourceError {
        line,
        col: 1,
        message,
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    let num = |i: usize, what: &str| -> Result<u32, SourceError> {
        words.get(i).and_then(|w| w.parse().ok()).ok_or_else(|| {
            err(format!(
                "expected the number of {what} in the statistics line"
            ))
        })
    };
    let simd: u32 = words
        .first()
        .and_then(|w| w.parse().ok())
        .filter(|w| matches!(w, 8 | 16 | 32))
        .ok_or_else(|| err("expected SIMD8, SIMD16 or SIMD32".into()))?;
    let instructions = num(2, "instructions")?;
    let loops = num(4, "loops")?;
    let cycles = num(6, "cycles")?;
    let (spills, fills) = words
        .get(8)
        .and_then(|w| w.split_once(':'))
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .ok_or_else(|| err("expected `spills:fills` counts in the statistics line".into()))?;
    let sends = num(10, "sends")?;
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
