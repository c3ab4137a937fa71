//! The `gpucc sim` command as a library function: assemble, load registers, run, print.

use super::{RunResult, Thread};
use crate::intel::eu;
use crate::intel::DevInfo;
use std::fmt::Write;

/// One `--set gN=v0,v1,...` option: values are floats when they contain `.`, `e` or `inf`/
/// `nan`, hexadecimal with `0x`, otherwise signed or unsigned integers; written as dwords from
/// `gN.0` on (running into the following registers).
pub fn parse_set(text: &str) -> Result<(u32, Vec<u32>), String> {
    let (reg, vals) = text
        .split_once('=')
        .ok_or_else(|| format!("--set `{text}`: expected gN=v0,v1,..."))?;
    let reg = parse_reg(reg)?;
    let mut out = Vec::new();
    for v in vals.split(',').map(str::trim).filter(|v| !v.is_empty()) {
        out.push(parse_value(v).ok_or_else(|| format!("--set: bad value `{v}`"))?);
    }
    Ok((reg, out))
}

fn parse_value(v: &str) -> Option<u32> {
    if let Some(h) = v.strip_prefix("0x") {
        return u32::from_str_radix(h, 16).ok();
    }
    let lower = v.to_ascii_lowercase();
    if lower.contains('.') || lower.contains('e') || lower.contains("inf") || lower.contains("nan")
    {
        return lower.parse::<f32>().ok().map(f32::to_bits);
    }
    if let Ok(i) = v.parse::<i32>() {
        return Some(i as u32);
    }
    v.parse::<u32>().ok()
}

fn parse_reg(r: &str) -> Result<u32, String> {
    r.trim()
        .strip_prefix('g')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("`{r}` is not a GRF name (g0-g127)"))
}

/// One `--dump gA-gB` (or `gA`) option as an inclusive register range.
pub fn parse_dump(text: &str) -> Result<(u32, u32), String> {
    match text.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (parse_reg(a)?, parse_reg(b)?);
            if a > b {
                return Err(format!("--dump `{text}`: empty range"));
            }
            Ok((a, b))
        }
        None => {
            let a = parse_reg(text)?;
            Ok((a, a))
        }
    }
}

/// Assembles `source` for `devinfo`, applies `sets` (`gN=...` texts), runs it with `simd`
/// channels, and prints the `dumps` ranges (`gA-gB` texts) as hex dwords and floats, then the
/// captured outputs and diagnostics.
pub fn run(
    devinfo: &DevInfo,
    source: &str,
    simd: u32,
    sets: &[String],
    dumps: &[String],
) -> Result<String, String> {
    let insts = eu::assemble(devinfo, source).map_err(|e| format!("assembly: {e}"))?;
    let mut t = Thread::new(devinfo, simd).map_err(|e| e.to_string())?;
    for s in sets {
        let (reg, vals) = parse_set(s)?;
        t.set_grf(reg, 0, &vals).map_err(|e| e.to_string())?;
    }
    let ranges = dumps
        .iter()
        .map(|d| parse_dump(d))
        .collect::<Result<Vec<_>, _>>()?;
    let res = t.run(&insts).map_err(|e| format!("run: {e}"))?;
    Ok(format_run(&t, &res, &ranges))
}

/// Prints registers and a run's results.
pub fn format_run(t: &Thread, res: &RunResult, ranges: &[(u32, u32)]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} steps, {}",
        res.steps,
        if res.eot { "EOT" } else { "no EOT" }
    );
    for &(a, b) in ranges {
        for r in a..=b {
            let ud = t.grf_ud(r);
            let hex: Vec<String> = ud.iter().map(|d| format!("{d:08x}")).collect();
            let fl: Vec<String> = ud
                .iter()
                .map(|d| format!("{}", f32::from_bits(*d)))
                .collect();
            let _ = writeln!(out, "g{r:<3} {}   [{}]", hex.join(" "), fl.join(", "));
        }
    }
    for (k, w) in res.rt_writes.iter().enumerate() {
        let _ = writeln!(
            out,
            "render target write {k}: target {} SIMD{} mask {:#06x}{}",
            w.target,
            w.simd,
            w.pixel_mask,
            if w.last { " last" } else { "" }
        );
        for (c, px) in w.color.iter().enumerate() {
            if w.pixel_mask >> c & 1 == 1 {
                let depth = w
                    .depth
                    .as_ref()
                    .and_then(|d| d.get(c))
                    .map_or(String::new(), |d| format!(" depth {d}"));
                let _ = writeln!(
                    out,
                    "  ch{c:<2} ({}, {}, {}, {}){depth}",
                    px[0], px[1], px[2], px[3]
                );
            }
        }
    }
    for d in &res.diagnostics {
        let _ = writeln!(out, "diagnostic: {d}");
    }
    out
}
