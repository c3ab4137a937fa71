//! The etnaviv halves of the `gpucc asm`, `gpucc disasm` and `gpucc sim` commands, as
//! functions from input text to output text so that the command line only parses flags.

use super::isa::{self, Inst};
use super::sim::Machine;
use super::specs::Specs;

/// `gpucc asm --target NAME FILE.asm`: one line of four hex words per instruction.
pub fn asm(specs: &Specs, source: &str) -> Result<String, String> {
    let program = isa::assemble(specs, source).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for inst in &program {
        out += &isa::format_words(isa::encode(inst));
        out.push('\n');
    }
    Ok(out)
}

fn disasm_words(words: &[[u32; 4]]) -> Result<String, String> {
    let mut program = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        program.push(isa::decode(*w).map_err(|e| format!("instruction {i}: {e}"))?);
    }
    Ok(isa::disassemble(&program))
}

/// `gpucc disasm --target NAME FILE`: the hex-words format in, assembly out.
pub fn disasm_text(text: &str) -> Result<String, String> {
    disasm_words(&isa::parse_words(text).map_err(|e| e.to_string())?)
}

/// `gpucc disasm --binary`: raw little-endian instruction memory in, assembly out.
pub fn disasm_binary(bytes: &[u8]) -> Result<String, String> {
    disasm_words(&isa::words_from_bytes(bytes).map_err(|e| e.to_string())?)
}

/// `gpucc sim --target NAME FILE.asm [--set t1=1,2,3,4]... [--dump t0-t3]`: assembles and
/// validates the program, applies the assignments, runs it and prints the dumped registers
/// (t0–t3 when no range is given) followed by a summary line.
pub fn sim(
    specs: &'static Specs,
    source: &str,
    sets: &[String],
    dump: Option<&str>,
) -> Result<String, String> {
    let program: Vec<Inst> = isa::assemble(specs, source).map_err(|e| e.to_string())?;
    isa::validate_program(specs, &program).map_err(|e| e.to_string())?;
    let mut m = Machine::new(specs);
    for s in sets {
        m.apply_set(s)?;
    }
    let outcome = m.run(&program).map_err(|e| e.to_string())?;
    let mut out = m.dump(dump.unwrap_or("t0-t3"))?;
    out += &format!(
        "{} instructions executed{}\n",
        outcome.steps,
        if outcome.killed {
            ", fragment killed"
        } else {
            ""
        }
    );
    Ok(out)
}
