//! `gpucc asm` and `gpucc disasm`: the ISA layers of both families.

use std::path::PathBuf;

use clap::Args;
use gpucc::etnaviv;
use gpucc::intel::eu;
use gpucc::target::Target;

use crate::cli::{input_error, read_bytes, read_text, target, write_output, Failure, Outcome};

#[derive(Args)]
pub struct AsmArgs {
    /// Target GPU (see `gpucc targets`), or a Vivante preset with values changed
    /// (`gc2000:instruction_count=128,features4=0x8`)
    #[arg(long)]
    target: String,
    /// Assembly in Mesa's syntax
    file: PathBuf,
    /// Intel: emit compacted instructions where the generation allows (8 bytes per line)
    #[arg(long)]
    compact: bool,
    /// Write raw bytes (memory order) instead of text; needs -o
    #[arg(long, requires = "output")]
    binary: bool,
    /// Output file (default: standard output)
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Args)]
pub struct DisasmArgs {
    /// Target GPU (see `gpucc targets`), or a Vivante preset with values changed
    /// (`gc2000:instruction_count=128,features4=0x8`)
    #[arg(long)]
    target: String,
    /// Instructions as text (Intel: 16 or 8 hex bytes per line; Vivante: four 8-digit hex words
    /// per line), or raw bytes with --binary
    file: PathBuf,
    /// Read raw bytes in memory order
    #[arg(long)]
    binary: bool,
}

pub fn asm(args: AsmArgs) -> Outcome {
    let target = target(&args.target)?;
    let source = read_text(&args.file)?;
    let err = |e: &dyn std::fmt::Display| input_error(&args.file, e);
    let (text, bytes): (String, Vec<u8>) = match target {
        Target::Intel(devinfo) => {
            let insts = eu::assemble(devinfo, &source).map_err(|e| err(&e))?;
            let encoded: Vec<Vec<u8>> = if args.compact {
                let program = eu::encode_program_compacted(devinfo, &insts).map_err(|e| err(&e))?;
                program.iter().map(|e| e.bytes().to_vec()).collect()
            } else {
                let program = eu::encode_program(devinfo, &insts).map_err(|e| err(&e))?;
                program.iter().map(|b| b.to_vec()).collect()
            };
            (
                eu::hex::format(encoded.iter().map(|b| b.as_slice())),
                encoded.concat(),
            )
        }
        Target::Etnaviv(specs) => {
            let program = etnaviv::isa::assemble(specs, &source).map_err(|e| err(&e))?;
            if args.compact {
                return Err(Failure::Usage(
                    "--compact applies to Intel targets only".into(),
                ));
            }
            let words: Vec<[u32; 4]> = program.iter().map(etnaviv::isa::encode).collect();
            let text: String = words
                .iter()
                .map(|w| etnaviv::isa::format_words(*w) + "\n")
                .collect();
            let bytes = words
                .iter()
                .flatten()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            (text, bytes)
        }
    };
    match (&args.output, args.binary) {
        (Some(out), true) => write_output(out, &bytes),
        (Some(out), false) => write_output(out, text.as_bytes()),
        (None, _) => {
            crate::cli::out(&text);
            Ok(())
        }
    }
}

pub fn disasm(args: DisasmArgs) -> Outcome {
    let target = target(&args.target)?;
    let err = |e: &dyn std::fmt::Display| input_error(&args.file, e);
    let text = match target {
        Target::Intel(devinfo) => {
            let bytes = if args.binary {
                read_bytes(&args.file)?
            } else {
                let text = read_text(&args.file)?;
                eu::hex::parse(&text)
                    .map_err(|e| err(&format_args!("{}: {}", e.line, e.message)))?
                    .concat()
            };
            eu::disassemble_program(devinfo, &bytes).map_err(|e| err(&format_args!(" {e}")))?
        }
        Target::Etnaviv(_) => if args.binary {
            etnaviv::tool::disasm_binary(&read_bytes(&args.file)?)
        } else {
            etnaviv::tool::disasm_text(&read_text(&args.file)?)
        }
        .map_err(|e| err(&format_args!(" {e}")))?,
    };
    crate::cli::out(&text);
    Ok(())
}
