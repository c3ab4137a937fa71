//! The `.expected` text format: one instruction per line, 16 (native) or 8 (compacted)
//! lowercase hex bytes separated by spaces, in memory order.

/// A malformed line of hex text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for HexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for HexError {}

/// Parses hex text into one byte vector per instruction (blank lines and `#` comments skipped).
pub fn parse(text: &str) -> Result<Vec<Vec<u8>>, HexError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut bytes = Vec::with_capacity(16);
        for tok in line.split_whitespace() {
            let b = u8::from_str_radix(tok, 16)
                .ok()
                .filter(|_| tok.len() == 2)
                .ok_or_else(|| HexError {
                    line: n + 1,
                    message: format!("`{tok}` is not a hex byte"),
                })?;
            bytes.push(b);
        }
        if bytes.len() != 16 && bytes.len() != 8 {
            return Err(HexError {
                line: n + 1,
                message: format!("expected 16 or 8 bytes, found {}", bytes.len()),
            });
        }
        out.push(bytes);
    }
    Ok(out)
}

/// Prints one line per instruction.
pub fn format<'a>(insts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut s = String::new();
    for bytes in insts {
        let line: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
    s
}

/// Prints an encoded program (native lines of 16 bytes, compacted lines of 8).
pub fn format_encoded(program: &[super::Encoded]) -> String {
    format(program.iter().map(|e| e.bytes()))
}

/// Concatenates parsed lines into program bytes (what [`super::decode_program`] reads).
pub fn concat(lines: &[Vec<u8>]) -> Vec<u8> {
    lines.iter().flatten().copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_bad_lines() {
        let text = "01 00 60 00 bd 00 c0 2f 80 00 8d 00 00 00 00 00\n01 20 60 00 bd 00 c0 2f\n";
        let v = parse(text).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].len(), 8);
        assert_eq!(format(v.iter().map(|b| b.as_slice())), text);
        assert_eq!(parse("01 02 03").unwrap_err().line, 1);
        assert!(parse("zz 00 00 00 00 00 00 00").is_err());
    }
}
